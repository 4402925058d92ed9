"""The EDA modules of credentials, credential types, input sources, decision environments, controller tokens, users
and team role assignments against the reference service's gateway layout (EDA at /api/eda/v1/), one service for
the file: each module creates, finds nothing to change, says a change in check mode without writing, shows it in
diff mode, makes it, and deletes (the writes read from the service's request log); then one play of every one of
them through the gateway's session login, then with a gateway token and with Basic, which change nothing (no secret
in the -vvvv output); the info modules with a token and with Basic; on AWX 24, each module fails naming itself before
it reads or writes."""

from ...playbook import run_playbook, service_defaults
from .gateway_helpers import admin, run, tag
from .gateway_helpers import forget_layouts, gateway  # noqa: F401 (fixtures)

EDA = '/api/eda/v1/'
SECRET = 'eda-secret-' + tag()
IMAGE = 'quay.io/ansible/ansible-rulebook:main'
HOOK_INPUTS = {'fields': [{'id': 'token', 'type': 'string', 'label': 'Token', 'secret': True},
                          {'id': 'user', 'type': 'string', 'label': 'User'}]}
HOOK_INJECTORS = {'extra_vars': {'hook_user': '{{ user }}'}}
# the same, as a play writes it (the template is EDA's to fill in, not Ansible's)
PLAY_INJECTORS = {'extra_vars': {'hook_user': '{% raw %}{{ user }}{% endraw %}'}}


def eda_writes(writes):
    return [(method, path[len(EDA) - 1:], status) for method, path, status in writes if path.startswith(EDA)]


def test_credential_types_credentials_and_decision_environments(gateway):
    t = tag()
    kind = dict(name='hook-' + t, inputs=HOOK_INPUTS, injectors=HOOK_INJECTORS)
    made, writes = run(gateway, 'eda_credential_type', **kind)
    assert made['changed'] and not made.get('failed'), made
    assert eda_writes(writes) == [('POST', '/credential-types/', 201)]
    same, writes = run(gateway, 'eda_credential_type', **kind)
    assert not same['changed'] and writes == [] and same['id'] == made['id']

    credential = dict(name='cred-' + t, credential_type_name=kind['name'], organization_name='Default',
                      inputs={'token': SECRET, 'user': 'bob'})
    cred, writes = run(gateway, 'eda_credential', **credential)
    assert cred['changed'] and eda_writes(writes) == [('POST', '/eda-credentials/', 201)], cred
    # the secret input is masked (EDA reads it back as $encrypted$ anyway), the others show
    assert cred['credential']['inputs'] == {'token': '$encrypted$', 'user': 'bob'} and SECRET not in repr(cred)
    same, writes = run(gateway, 'eda_credential', **credential)
    assert not same['changed'] and writes == [], same
    checked, writes = run(gateway, 'eda_credential', check_mode=True, diff=True,
                          **dict(credential, inputs={'token': SECRET, 'user': 'alice'}))
    assert checked['changed'] and writes == [] and checked['diff']['after']['inputs']['user'] == 'alice'
    changed, writes = run(gateway, 'eda_credential', diff=True, **dict(credential, inputs={'token': SECRET,
                                                                                           'user': 'alice'}))
    assert eda_writes(writes) == [('PATCH', '/eda-credentials/%d/' % cred['id'], 200)]
    assert changed['diff']['before']['inputs']['user'] == 'bob' and SECRET not in repr(changed)
    copied, writes = run(gateway, 'eda_credential', name='copy-' + t, copy_from=credential['name'])
    assert copied['copied'] and copied['copied_from'] == cred['id'], copied
    assert eda_writes(writes) == [('POST', '/eda-credentials/%d/copy/' % cred['id'], 201)]
    again, writes = run(gateway, 'eda_credential', name='copy-' + t, copy_from=credential['name'])
    assert not again['changed'] and not again['copied'] and writes == []
    run(gateway, 'eda_credential', name='copy-' + t, state='absent')
    registry = dict(name='reg-' + t, credential_type_name='Container Registry', organization_name='Default',
                    inputs={'host': 'quay.io', 'username': 'robot', 'password': SECRET})
    reg, _writes = run(gateway, 'eda_credential', **registry)
    # EDA fills in verify_ssl (its field's default): a second run still finds nothing to change
    again, writes = run(gateway, 'eda_credential', **registry)
    assert reg['changed'] and not again['changed'] and writes == [], again

    de = dict(name='de-' + t, image_url=IMAGE, organization_name='Default', credential=registry['name'],
              pull_policy='missing')
    # a decision environment whose name starts with the one asked for is not it
    run(gateway, 'eda_decision_environment', **dict(de, name=de['name'] + '-other'))
    made_de, writes = run(gateway, 'eda_decision_environment', diff=True, **de)
    assert made_de['changed'] and eda_writes(writes) == [('POST', '/decision-environments/', 201)], made_de
    assert made_de['diff']['after']['eda_credential_id'] == reg['id']
    same, writes = run(gateway, 'eda_decision_environment', **de)
    assert not same['changed'] and writes == [] and same['id'] == made_de['id']
    checked, writes = run(gateway, 'eda_decision_environment', check_mode=True,
                          **dict(de, new_name=de['name'] + '-new', credential=''))
    assert checked['changed'] and writes == []
    renamed, writes = run(gateway, 'eda_decision_environment', diff=True,
                          **dict(de, new_name=de['name'] + '-new', credential=''))
    assert eda_writes(writes) == [('PATCH', '/decision-environments/%d/' % made_de['id'], 200)]
    assert renamed['diff']['after'] == {'name': de['name'] + '-new', 'eda_credential_id': None,
                                        'organization_id': 1, 'pull_policy': 'missing', 'image_url': IMAGE}
    found, _writes = run(gateway, 'eda_decision_environment_info', name=de['name'] + '-new')
    assert [d['id'] for d in found['decision_environments']] == [made_de['id']]
    assert found['decision_environments'][0]['eda_credential_id'] is None
    listed, _writes = run(gateway, 'eda_credential_info', name=credential['name'])
    assert listed['credentials'][0]['inputs']['token'] == '$encrypted$'
    types, _writes = run(gateway, 'eda_credential_type_info', name='Container Registry')
    assert types['credential_types'][0]['managed'] is True

    # a credential a decision environment uses cannot be deleted: EDA's refusal is the task's
    refused, writes = run(gateway, 'eda_credential', name=registry['name'], state='absent')
    assert refused['failed'] and refused['status'] == 409 and not refused['changed'], refused
    for module, name in (('eda_decision_environment', de['name'] + '-new'),
                         ('eda_decision_environment', de['name'] + '-other'), ('eda_credential', registry['name']),
                         ('eda_credential', credential['name']), ('eda_credential_type', kind['name'])):
        gone, writes = run(gateway, module, name=name, state='absent')
        assert gone['changed'] and [w[0] for w in eda_writes(writes)] == ['DELETE'], (module, gone, writes)
        twice, writes = run(gateway, module, name=name, state='absent')
        assert not twice['changed'] and writes == []


def test_controller_tokens_users_and_team_assignments(gateway):
    t = tag()
    token = dict(name='ctl-' + t, description='for activations', token=SECRET)
    made, writes = run(gateway, 'eda_controller_token', **token)
    assert made['changed'] and eda_writes(writes) == [('POST', '/users/me/awx-tokens/', 201)], made
    assert SECRET not in repr(made)
    same, writes = run(gateway, 'eda_controller_token', **token)
    assert not same['changed'] and writes == []
    replaced, writes = run(gateway, 'eda_controller_token', diff=True, **dict(token, description='other'))
    assert [w[:2] for w in eda_writes(writes)] == [('DELETE', '/users/me/awx-tokens/%d/' % made['id']),
                                                   ('POST', '/users/me/awx-tokens/')]
    assert replaced['diff']['after']['description'] == 'other' and SECRET not in repr(replaced)
    gone, writes = run(gateway, 'eda_controller_token', name=token['name'], state='absent')
    assert gone['changed'] and len(writes) == 1

    user = dict(username='op-' + t, first_name='Op', email='op@example.com', password=SECRET, update_secrets=False)
    made, _writes = run(gateway, 'eda_user', **user)
    assert made['changed'] and made['user']['username'] == user['username'] and SECRET not in repr(made), made
    same, writes = run(gateway, 'eda_user', **user)
    assert not same['changed'] and writes == [] and same['id'] == made['id']
    gone, _writes = run(gateway, 'eda_user', username=user['username'], state='absent')
    assert gone['changed'] and gone['id'] == made['id']

    client = admin(gateway)
    team = client.request('POST', '/api/gateway/v1/teams/', json_body={'name': 'team-' + t, 'organization': 1})
    definition = client.request('GET', EDA + 'role_definitions/', params={'page_size': 200})['results']
    # one of EDA's organization roles a team may be given (not Organization Member: EDA refuses it to teams)
    org_role = next(d for d in definition if d['name'] == 'Organization Auditor')
    assert org_role['content_type'] == 'shared.organization'
    assignment = dict(role_definition=org_role['name'], team=team['name'], object_id=1)
    made, writes = run(gateway, 'eda_role_team_assignment', **assignment)
    assert made['changed'] and eda_writes(writes) == [('POST', '/role_team_assignments/', 201)], made
    same, writes = run(gateway, 'eda_role_team_assignment', **assignment)
    assert not same['changed'] and writes == [] and same['id'] == made['id']
    gone, writes = run(gateway, 'eda_role_team_assignment', state='absent', **assignment)
    assert gone['changed'] and [w[0] for w in eda_writes(writes)] == ['DELETE']


def test_credential_input_sources(gateway):
    t = tag()
    run(gateway, 'eda_credential', name='vault-' + t, credential_type_name='HashiCorp Vault Secret Lookup',
        organization_name='Default', inputs={'url': 'https://vault.example.com', 'token': SECRET})
    run(gateway, 'eda_credential', name='target-' + t, credential_type_name='Container Registry',
        organization_name='Default', inputs={'host': 'quay.io', 'username': 'robot', 'password': SECRET})
    source = dict(target_credential='target-' + t, source_credential='vault-' + t, input_field_name='password',
                  metadata={'secret_path': 'secret/app', 'secret_key': 'password'})
    made, writes = run(gateway, 'eda_credential_input_source', **source)
    assert made['changed'] and eda_writes(writes) == [('POST', '/credential-input-sources/', 201)], made
    exists, writes = run(gateway, 'eda_credential_input_source', state='exists', **source)
    assert exists['id'] == made['id'] and exists['input_field_name'] == 'password' and writes == []
    listed, _writes = run(gateway, 'eda_credential_input_source_info', target_credential='target-' + t)
    assert [s['id'] for s in listed['credential_input_sources']] == [made['id']]
    checked, writes = run(gateway, 'eda_credential_input_source', check_mode=True, **dict(source, description='d'))
    assert checked['changed'] and writes == []
    described, writes = run(gateway, 'eda_credential_input_source', diff=True, **dict(source, description='d'))
    assert eda_writes(writes) == [('PATCH', '/credential-input-sources/%d/' % made['id'], 200)]
    assert described['diff']['after']['description'] == 'd'
    gone, writes = run(gateway, 'eda_credential_input_source', state='absent', **source)
    assert gone['changed'] and [w[0] for w in eda_writes(writes)] == ['DELETE']
    twice, writes = run(gateway, 'eda_credential_input_source', state='absent', **source)
    assert not twice['changed'] and writes == []
    # made again, a second run changes nothing (EDA reads the metadata back, its secret fields masked)
    run(gateway, 'eda_credential_input_source', **source)
    same, writes = run(gateway, 'eda_credential_input_source', **source)
    assert not same['changed'] and writes == [], same

def play_tasks(t):
    return [
        {'automation.service.eda_credential_type': dict(name='play-type-' + t, inputs=HOOK_INPUTS,
                                                        injectors=PLAY_INJECTORS)},
        {'automation.service.eda_credential': dict(name='play-cred-' + t, credential_type_name='play-type-' + t,
                                                   organization='Default',
                                                   inputs={'token': SECRET, 'user': 'bob'})},
        {'automation.service.eda_credential': dict(name='play-vault-' + t,
                                                   credential_type_name='HashiCorp Vault Secret Lookup',
                                                   organization='Default',
                                                   inputs={'url': 'https://vault.example.com', 'token': SECRET})},
        {'automation.service.eda_credential_input_source': dict(
            target_credential='play-cred-' + t, source_credential='play-vault-' + t, input_field_name='token',
            metadata={'secret_path': 'secret/app', 'secret_key': 'token'})},
        {'automation.service.eda_decision_environment': dict(name='play-de-' + t, image_url=IMAGE,
                                                             organization='Default')},
        # a loop: its items look the organization up once between them (loop_reads)
        {'automation.service.eda_decision_environment': dict(name='play-de-' + t + '-{{ item }}', image_url=IMAGE,
                                                             organization='Default'), 'loop': [1, 2, 3]},
        {'automation.service.eda_controller_token': dict(name='play-ctl-' + t, token=SECRET)},
        {'automation.service.eda_user': dict(username='play-user-' + t, password=SECRET, update_secrets=False)},
        {'automation.service.eda_decision_environment_info': {'name': 'play-de-' + t}, 'register': 'des'},
        {'assert': {'that': ['des.decision_environments | length == 1']}},
    ]


def test_a_play_of_every_module_changes_nothing_the_second_time(gateway, tmp_path):
    t = tag()
    session = service_defaults(gateway, service_username=gateway.admin_username,
                               service_password=gateway.admin_password, service_auth='session')
    mark = gateway.mark()
    code, output = run_playbook(tmp_path, play_tasks(t), module_defaults=session)
    assert code == 0 and 'changed=8' in output, output
    # the organization is looked up once by each credential, once by the decision environment, once by the loop's
    # three items
    organizations = [e for e in gateway.since(mark) if (e['method'], e['path']) == ('GET', EDA + 'organizations/')]
    assert len(organizations) == 4, organizations
    # again with a gateway token, then with Basic: every module finds nothing to change, whatever the login
    minted = admin(gateway).request('POST', '/api/gateway/v1/tokens/', json_body={'description': 'eda play',
                                                                                   'scope': 'write'})
    token = service_defaults(gateway, service_token=minted['token'])
    basic = dict(session, service_auth='basic')
    for defaults, verbosity in ((token, 4), (basic, 0)):
        mark = gateway.mark()
        code, output = run_playbook(tmp_path, play_tasks(t), module_defaults=defaults, verbosity=verbosity)
        assert code == 0 and 'changed=0' in output and 'failed=0' in output, output
        assert SECRET not in output and gateway.admin_password not in output and minted['token'] not in output
        # the loop's third item read the list of decision environments whole and found its own there
        listed = [e['query'] for e in gateway.since(mark) if (e['method'], e['path']) == ('GET', EDA + 'decision-'
                                                                                         'environments/')]
        assert not [query for query in listed if 'play-de-%s-3' % t in str(query)], listed
        assert len([query for query in listed if 'name' not in str(query)]) == 1, listed


def test_the_info_modules_with_a_token_and_with_basic(gateway):
    minted = admin(gateway).request('POST', '/api/gateway/v1/tokens/', json_body={'description': 'eda info',
                                                                                   'scope': 'read'})
    for auth in (dict(service_token=minted['token'], service_username=None, service_password=None),
                 dict(service_auth='basic')):
        listed, _writes = run(gateway, 'eda_credential_type_info', name='Container Registry', **auth)
        assert not listed.get('failed') and [c['name'] for c in listed['credential_types']] == ['Container Registry']


def test_on_awx_every_module_fails_naming_itself_before_reading_or_writing(service):
    for module, params in (('eda_decision_environment', dict(name='de', image_url=IMAGE, organization='Default')),
                           ('eda_credential_info', {}), ('eda_user', dict(username='someone')),
                           ('eda_controller_token', dict(name='ctl', token=SECRET))):
        mark = service.mark()
        result, writes = run(service, module, **params)
        assert result['failed'] and 'automation.service.%s needs an Automation Platform gateway' % module in \
            result['msg'], result
        # the login (or the session kept from an earlier task) and the layout asked for (GET /api/), nothing else
        asked = [(e['method'], e['path']) for e in service.since(mark)
                 if e['path'] not in ('/api/login/', '/api/v2/me/')]
        assert asked in ([], [('GET', '/api/')]), (module, asked)
        assert writes == []
