"""Each gateway module's options are the writable fields of its endpoint, as the platform's published gateway
schema has them (../shared/platform-api/gateway-2.7.json, read there, never copied into the repository): the
fields the POST of the module's endpoint takes (all but the read-only ones), plus how the module finds and moves
an object and what it does (``state``, ``new_name``...), each listed below with why. A field the schema gains or
the module loses fails here, naming module and field; so does an option the module has that the schema has not.

Without the schema file the tests say so and are skipped (tests/schema/check.py does the same)."""
import importlib
import json
import os
import re
import sys

import pytest
import yaml

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import check  # noqa: E402  (tests/schema/check.py: where the schemas are, and $ref)

SCHEMA = 'gateway-2.7.json'
ROOT = check.ROOT
GATEWAY_API = '/api/gateway/v1/'
# Options of every module that are not fields of an object: the connection and the task's own knobs.
SHARED_FRAGMENTS = ('auth',)
# Options of a module that name, find or move an object, or say what to do with it: never fields.
NOT_FIELDS = {'state', 'new_name'}
# Per module: options beyond the schema's fields, and why.
MORE = {
    'authenticator_map': {'new_authenticator': 'moves the map to another authenticator (ansible.platform)'},
    'application': {'new_organization': 'moves the application to another organization (ansible.platform)'},
    'feature_flag': {'name': 'names the flag to toggle (the gateway makes its flags; a PATCH takes the value only)'},
    'authenticator_user': {
        'authenticator_user_id': 'names the link to move',
        'authenticator': 'the authenticator to move the link to, the move\'s new_authenticator (ansible.platform\'s name)'},
    'service_key': {'secret': 'ansible.platform\'s option, taken and never sent: the gateway makes the secret '
                              '(read-only in the schema)'},
}
# Per module: writable fields of the schema the module does not take, and why.
LEFT_OUT = {
    'authenticator_user': {'new_authenticator': 'taken as the option authenticator (ansible.platform)'},
    'application': {'user': 'taken as the option user, the owner named by username (ansible.platform)'},
}


def schema():
    path = check.schema_path(SCHEMA)
    if not os.path.exists(path):
        pytest.skip('%s is not there (the platform\'s published schemas are read from ../shared/platform-api/ '
                    'beside the checkout): the modules are not held against it' % path)
    with open(path) as handle:
        return check.Schema(json.load(handle))


def fragment_options(name):
    source = open(os.path.join(ROOT, 'plugins', 'doc_fragments', name + '.py')).read()
    documentation = re.search(r"DOCUMENTATION = r'''(.*?)'''", source, re.S).group(1)
    return set(yaml.safe_load(documentation)['options'])


def gateway_modules():
    """(module name, its declaration) of every module whose objects are the gateway's own."""
    found = []
    for filename in sorted(os.listdir(os.path.join(ROOT, 'plugins', 'modules'))):
        if not filename.endswith('.py') or filename == '__init__.py':
            continue
        name = filename[:-3]
        module = importlib.import_module('ansible_collections.automation.service.plugins.modules.' + name)
        resource = getattr(module, 'RESOURCE', None)
        if resource is None:
            continue
        if getattr(resource, 'service', None) == 'gateway' or name == 'application':
            found.append((name, module))
    return found


# The endpoints whose objects the gateway makes itself (no POST to the list): the write their module sends.
WRITTEN_AT = {'feature_flags': ('{id}/', 'patch'), 'authenticator_users': ('{id}/move/', 'post')}


def writable_fields(document, endpoint):
    """The fields the POST of the gateway's ``endpoint`` takes (or the write of WRITTEN_AT): every property of its
    request body but the read-only ones."""
    below, method = WRITTEN_AT.get(endpoint, ('', 'post'))
    operation = document.paths[GATEWAY_API + endpoint + '/' + below][method]
    body = document.resolve(operation['requestBody']['content']['application/json']['schema'])
    return set(name for name, field in body.get('properties', {}).items()
               if not document.resolve(field).get('readOnly'))


MODULES = gateway_modules()


def test_the_gateway_modules_are_found():
    names = [name for name, _module in MODULES]
    assert {'http_port', 'route', 'service', 'ca_certificate', 'authenticator', 'application'} <= set(names), names


@pytest.mark.parametrize('name, module', MODULES, ids=[name for name, _module in MODULES])
def test_the_options_are_the_writable_fields_of_the_endpoint(name, module):
    document = schema()
    fields = writable_fields(document, module.RESOURCE.endpoint)
    shared = set().union(*(fragment_options(fragment) for fragment in SHARED_FRAGMENTS))
    options = set(module.SPEC.argument_spec) - shared - NOT_FIELDS
    gained = sorted(fields - options - set(LEFT_OUT.get(name, {})))
    extra = sorted(options - fields - set(MORE.get(name, {})))
    assert not gained, '%s lacks the fields %s of %s%s/ (%s)' % (name, ', '.join(gained), GATEWAY_API,
                                                                 module.RESOURCE.endpoint, SCHEMA)
    assert not extra, '%s has options %s that %s%s/ has no field for (%s)' % (
        name, ', '.join(extra), GATEWAY_API, module.RESOURCE.endpoint, SCHEMA)


def test_the_reasons_name_what_is_there():
    """An entry of MORE or LEFT_OUT that no longer applies fails, so that the lists stay true."""
    document = schema()
    modules = dict(MODULES)
    for name, options in MORE.items():
        spec = modules[name].SPEC.argument_spec
        assert set(options) <= set(spec), (name, options)
    for name, fields in LEFT_OUT.items():
        assert set(fields) <= writable_fields(document, modules[name].RESOURCE.endpoint), (name, fields)
