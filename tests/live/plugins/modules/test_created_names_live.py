"""What a task that created an object says of it at the top of its result, as awx.awx 24.6.1 and
ansible.platform 2.6 say it (their ``create_if_needed``): ``name`` (the last of ``name``, ``username``,
``identifier`` and ``hostname`` the answer has, ``unknown`` when none), each of those keys, ``id``; and
the ``aap_token`` fact of ``token``, ansible.platform's. A task that created nothing, or only would
have (check mode), says no name. Real plays against the reference service, in both layouts."""

import uuid

from ...playbook import run_playbook, service_defaults


def plays(tag):
    org = 'names-org-%s' % tag
    user = 'names-user-%s' % tag
    return [
        {'name': 'org', 'automation.service.organization': {'name': org}, 'register': 'org'},
        {'name': 'org again', 'automation.service.organization': {'name': org}, 'register': 'org_again'},
        {'name': 'org checked', 'automation.service.organization': {'name': org + '-checked'}, 'register': 'org_checked',
         'check_mode': True},
        {'name': 'user', 'automation.service.user': {'username': user, 'password': 'pw-' + tag}, 'register': 'user'},
        {'name': 'user updated', 'automation.service.user': {'username': user, 'first_name': 'Ann'},
         'register': 'user_changed'},
        {'name': 'token', 'automation.service.token': {'description': 'names', 'scope': 'read'}, 'register': 'token'},
        {'name': 'facts', 'ansible.builtin.set_fact': {'aap_token_id': '{{ aap_token.id }}'}},
        {'name': 'clean up', 'automation.service.token': {'existing_token': '{{ aap_token }}', 'state': 'absent'}},
        {'name': 'user gone', 'automation.service.user': {'username': user, 'state': 'absent'}, 'register': 'user_gone'},
        {'name': 'org gone', 'automation.service.organization': {'name': org, 'state': 'absent'}},
        {'name': 'check', 'ansible.builtin.assert': {'that': [
            # as awx.awx and ansible.platform say a created object
            "org.name == '%s' and org.id == org.organization.id" % org,
            "user.name == '%s' and user.username == '%s' and user.id is number" % (user, user),
            "token.name == 'unknown' and token.id is number",
            "aap_token.id == token.id and aap_token.token == token.token.token",
            # nothing created, nothing named
            "org_again is not changed and org_again.name is not defined and org_again.id == org.id",
            "org_checked is changed and org_checked.name is not defined",
            "user_changed is changed and user_changed.name is not defined and user_changed.username is not defined",
            "user_gone.name is not defined and user_gone.id == user.id",
        ]}},
    ]


def test_awx_layout(service, tmp_path):
    defaults = service_defaults(service, service_username=service.admin_username,
                                service_password=service.admin_password)
    code, output = run_playbook(tmp_path, plays(uuid.uuid4().hex[:8]), module_defaults=defaults)
    assert code == 0, output


def test_gateway_layout(gateway_service_factory, tmp_path):
    # the organization and the user are the gateway's, copied to the controller (their own executor path)
    service = gateway_service_factory()
    defaults = service_defaults(service, service_username=service.admin_username,
                                service_password=service.admin_password)
    code, output = run_playbook(tmp_path, plays(uuid.uuid4().hex[:8]), module_defaults=defaults)
    assert code == 0, output
