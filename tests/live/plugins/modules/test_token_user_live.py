"""The token and user modules in real plays: a minted secret is usable by later
tasks but never printed, even at -vvvv; a user's password never shows in a diff."""

import uuid

from ...playbook import run_playbook, service_defaults


def test_minted_token_is_used_revoked_and_never_printed(service, tmp_path):
    tasks = [
        {'name': 'mint', 'automation.service.token': {'description': 'hidden', 'service_username': service.admin_username,
                                                      'service_password': service.admin_password},
         'register': 'minted', 'diff': True},
        {'name': 'keep the secret for the test', 'ansible.builtin.copy': {
            'content': '{{ minted.token.token }}', 'dest': str(tmp_path / 'secret'), 'mode': '0600'}, 'no_log': True},
        {'name': 'use the fact', 'automation.service.user_info': {'username': service.admin_username,
                                                                  'service_token': '{{ service_token }}'},
         'register': 'found'},
        {'name': 'the fact works', 'ansible.builtin.assert': {'that': ['found.users | length == 1']}},
        {'name': 'revoke', 'automation.service.token': {'existing_token': '{{ service_token }}', 'state': 'absent',
                                                        'service_token': '{{ service_token }}'}},
        {'name': 'refused now', 'automation.service.user_info': {'service_token': '{{ service_token }}'},
         'register': 'refused', 'ignore_errors': True},
        {'name': 'says revoked', 'ansible.builtin.assert': {'that': ["'it was revoked' in refused.msg"]}},
    ]
    mark = service.mark()
    code, output = run_playbook(tmp_path, tasks, verbosity=4, module_defaults=service_defaults(service))
    assert code == 0, output
    secret = (tmp_path / 'secret').read_text()
    assert len(secret) == 30
    assert secret not in output
    assert "the output has been hidden" in output
    # the revoked token fails in one request
    entries = service.since(mark)
    assert [e['status'] for e in entries if e['auth'] == 'bearer' or e['status'] == 401][-1] == 401
    assert sum(1 for e in entries if e['status'] == 401) == 1


def test_user_password_on_create_keeps_reruns_unchanged(service, tmp_path):
    name = 'u' + uuid.uuid4().hex[:8]
    password = 'PW-%s' % uuid.uuid4().hex
    user = {'username': name, 'password': password, 'first_name': 'Ann'}
    tasks = [
        {'name': 'create', 'automation.service.user': user, 'register': 'created', 'diff': True},
        {'name': 'again', 'automation.service.user': user, 'register': 'again', 'diff': True},
        {'name': 'always', 'automation.service.user': dict(user, update_password='always'), 'register': 'always',
         'diff': True},
        {'name': 'log in as the user', 'automation.service.user_info': {
            'username': name, 'service_username': name, 'service_password': password, 'service_auth': 'basic'},
         'register': 'own'},
        {'name': 'remove', 'automation.service.user': {'username': name, 'state': 'absent'}},
        {'name': 'check', 'ansible.builtin.assert': {'that': [
            'created is changed', 'again is not changed', 'always is changed', 'own.users[0].first_name == "Ann"',
            'created.diff.after.password == "VALUE_SPECIFIED_IN_NO_LOG_PARAMETER"']}},
    ]
    defaults = service_defaults(service, service_username=service.admin_username,
                                service_password=service.admin_password)
    code, output = run_playbook(tmp_path, tasks, verbosity=3, module_defaults=defaults)
    assert code == 0, output
    assert password not in output


def test_a_new_client_secret_is_kept_but_never_printed(service, tmp_path):
    """The application module declares its result secret when it holds a new client secret: the
    action hides the whole result from every display, the registered variable keeps the secret."""
    name = 'hidden-%s' % uuid.uuid4().hex[:8]
    tasks = [
        {'name': 'create', 'automation.service.application': {
            'name': name, 'organization': 'Default', 'authorization_grant_type': 'password',
            'client_type': 'confidential'}, 'register': 'made', 'diff': True},
        {'name': 'keep the secret for the test', 'ansible.builtin.copy': {
            'content': '{{ made.client_secret }}', 'dest': str(tmp_path / 'secret'), 'mode': '0600'}, 'no_log': True},
        {'name': 'again', 'automation.service.application': {
            'name': name, 'organization': 'Default', 'authorization_grant_type': 'password',
            'client_type': 'confidential'}, 'register': 'again'},
        {'name': 'an unchanged run shows its result', 'ansible.builtin.assert': {
            'that': ['again is not changed', 'again.client_secret is not defined', "again.id == made.id"]}},
        {'name': 'remove', 'automation.service.application': {'name': name, 'organization': 'Default',
                                                              'state': 'absent'}},
    ]
    code, output = run_playbook(tmp_path, tasks, verbosity=4, module_defaults=service_defaults(
        service, service_username=service.admin_username, service_password=service.admin_password))
    assert code == 0, output
    secret = (tmp_path / 'secret').read_text()
    assert len(secret) >= 20
    assert secret not in output
    # the create, and the copy (no_log); not the unchanged run, which holds no secret
    assert output.count("the output has been hidden") == 2
