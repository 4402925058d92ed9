"""eda_project, eda_project_info and eda_rulebook_info against the reference service's gateway layout, where EDA
imports a project from a git repository of the test bed (the sample projects' public URLs, rewritten to local
repositories): the task waits for the import and the rulebooks are there when it returns; the same task again
sends nothing; a change of branch and a sync import again; an import that fails fails the task; check mode
writes nothing; the info modules keep the exact name; a proxy's password is never shown."""

import json
import time

from .gateway_helpers import gateway, run, tag  # noqa: F401 (the fixture)

EDA = '/api/eda/v1/'
SAMPLE = 'https://github.com/ansible/eda-sample-project'


def test_a_project_is_imported_before_the_task_returns_then_left_alone(gateway):
    name = 'rulebooks %s' % tag()
    options = dict(name=name, url=SAMPLE, organization_name='Default', interval=0.2)
    checked, writes = run(gateway, 'eda_project', check_mode=True, **options)
    assert checked['changed'] is True and writes == []

    made, writes = run(gateway, 'eda_project', diff=True, **options)
    assert made['changed'] is True, made
    assert [(method, path) for method, path, _status in writes] == [('POST', EDA + 'projects/')]
    assert made['project']['import_state'] == 'completed' and made['project']['git_hash'], made['project']
    assert made['diff']['after']['url'] == SAMPLE
    project_id = made['id']

    again, writes = run(gateway, 'eda_project', **options)
    assert again['changed'] is False and again['id'] == project_id and writes == []

    found, _writes = run(gateway, 'eda_rulebook_info', name='hello_webhook.yml', project_name=name)
    (rulebook,) = found['rulebooks']
    assert rulebook['project_id'] == project_id
    assert [source['name'] for source in rulebook['sources']] == ['incoming']

    info, _writes = run(gateway, 'eda_project_info', name=name)
    assert [p['id'] for p in info['projects']] == [project_id]
    run(gateway, 'eda_project', **dict(options, name=name + ' 2'))
    info, _writes = run(gateway, 'eda_project_info', name=name)
    assert [p['id'] for p in info['projects']] == [project_id]          # not "<name> 2", which the filter keeps

    synced, writes = run(gateway, 'eda_project', name=name, sync=True, interval=0.2)
    assert synced['changed'] is True and [w[:2] for w in writes] == [('POST', EDA + 'projects/%d/sync/' % project_id)]
    assert synced['project']['import_state'] == 'completed'

    for project in (name, name + ' 2'):
        gone, writes = run(gateway, 'eda_project', name=project, state='absent')
        assert gone['changed'] is True and writes[0][0] == 'DELETE'
    assert run(gateway, 'eda_project', name=name, state='absent')[0]['changed'] is False


def test_an_import_that_fails_fails_the_task_and_what_a_new_project_needs(gateway):
    name = 'unreachable %s' % tag()
    failed, writes = run(gateway, 'eda_project', name=name, url='https://127.0.0.1:9/x.git',
                         organization_name='Default', interval=0.2)
    assert failed['failed'] is True and failed['changed'] is True
    assert failed['msg'].startswith('Project import failed: '), failed['msg']
    assert [w[:2] for w in writes] == [('POST', EDA + 'projects/')]
    missing, writes = run(gateway, 'eda_project', name=name + ' 2', organization_name='Default')
    assert missing['msg'] == 'Parameter url is required when state is present and project does not exist'
    assert writes == []
    assert run(gateway, 'eda_project', name=name, state='absent')[0]['changed'] is True


def test_a_proxy_password_is_never_shown_and_compared_as_the_service_masks_it(gateway):
    name = 'proxied %s' % tag()
    options = dict(name=name, url=SAMPLE, organization_name='Default', wait=False,
                   proxy='http://bob:pw-%s@proxy.invalid:3128' % tag())
    made, _writes = run(gateway, 'eda_project', diff=True, **options)
    assert made['changed'] is True and made['project']['proxy'] == 'http://bob:$encrypted$@proxy.invalid:3128'
    again, writes = run(gateway, 'eda_project', diff=True, **options)
    assert again['changed'] is False and writes == []
    assert options['proxy'].split(':')[2].split('@')[0] not in json.dumps([made, again])
    for _wait in range(100):      # the service deletes no project while it imports (through a proxy that is not)
        if run(gateway, 'eda_project_info', name=name)[0]['projects'][0]['import_state'] in ('completed', 'failed'):
            break
        time.sleep(0.2)
    assert run(gateway, 'eda_project', name=name, state='absent')[0]['changed'] is True
