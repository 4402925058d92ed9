"""eda_project and eda_project_info against an EDA in memory (eda_runs_fake): a new project is imported before the task
returns (and a failed import fails it); a change of url or branch waits for the import again, one of the
description does not; sync; a proxy's password is compared as the service masks it and never shown; the info
module keeps the exact name; check mode writes nothing."""

from ansible_collections.automation.service.plugins.module_utils import _eda_activations as eda
from ansible_collections.automation.service.plugins.modules import eda_project as project
from ansible_collections.automation.service.plugins.modules import eda_project_info as project_info

from .eda_runs_fake import ROOT as EDA
from .eda_runs_fake import FakeEdaRuns as FakeEda
from .eda_runs_fake import run

NEW = dict(name='Rules', url='https://git.example.test/rules.git', organization_name='Default', interval=0.01)


def gets_of(eda, path):
    return [call for call in eda.calls if call[:2] == ('GET', path)]


def test_made_and_imported_then_unchanged():
    eda = FakeEda(imports=('running', 'completed'))
    assert run(project, eda, check=True, **NEW)['changed'] is True and eda.writes == []
    made = run(project, eda, diff=True, **NEW)
    assert made['changed'] is True and made['project']['import_state'] == 'completed'
    assert eda.writes == [('POST', EDA + 'projects/', {
        'name': 'Rules', 'url': NEW['url'], 'organization_id': 1, 'update_revision_on_launch': False,
        'scm_update_cache_timeout': 0})]
    assert len(gets_of(eda, EDA + 'projects/101/')) == 2          # running, then completed
    again = run(project, eda, **NEW)
    assert again['changed'] is False and again['id'] == 101 and len(eda.writes) == 1


def test_a_failed_import_fails_the_task_which_changed_something():
    eda = FakeEda(imports=('failed',))
    result = run(project, eda, **NEW)
    assert result['failed'] is True and result['changed'] is True
    assert result['msg'] == 'Project import failed: clone failed'
    eda = FakeEda(imports=('pending',))
    result = run(project, eda, **dict(NEW, timeout=0))
    assert result['failed'] is True and 'Timeout waiting for project import' in result['msg']
    assert 'Last state: pending' in result['msg']


def test_what_waits_and_what_does_not():
    eda = FakeEda()
    run(project, eda, **NEW)
    described = run(project, eda, name='Rules', description='the rules', interval=0.01)
    assert described['changed'] is True and not gets_of(eda, EDA + 'projects/101/')[1:]
    branched = run(project, eda, name='Rules', scm_branch='dev', interval=0.01)
    assert branched['changed'] is True and eda.writes[-1][2] == {'scm_branch': 'dev'}
    assert len(gets_of(eda, EDA + 'projects/101/')) == 2
    synced = run(project, eda, name='Rules', scm_branch='dev', sync=True, interval=0.01)
    assert synced['changed'] is True and eda.writes[-1][:2] == ('POST', EDA + 'projects/101/sync/')
    assert len(gets_of(eda, EDA + 'projects/101/')) == 3
    assert run(project, eda, check=True, name='Rules', sync=True)['changed'] is True and len(eda.writes) == 4


def test_what_is_needed_fails_before_writing():
    eda = FakeEda()
    assert 'url is required' in run(project, eda, name='Rules', organization_name='Default')['msg']
    assert 'organization_name is required' in run(project, eda, name='Rules', url=NEW['url'])['msg']
    assert 'requires update_revision_on_launch' in run(project, eda, **dict(NEW, scm_update_cache_timeout=5))['msg']
    assert eda.writes == []


def test_a_proxy_password_is_compared_masked_and_never_shown():
    assert eda.proxy_as_read('http://bob:s3cret@proxy.test:3128/x') == 'http://bob:$encrypted$@proxy.test:3128/x'
    assert eda.proxy_as_read('https://s3cret@proxy.test') == 'https://$encrypted$@proxy.test'
    assert eda.proxy_as_read('proxy.test:3128') == 'proxy.test:3128'
    assert eda.proxy_password('http://bob:s3cret@proxy.test') == 's3cret'
    assert eda.proxy_password('http://proxy.test') is None
    fake = FakeEda()
    options = dict(NEW, proxy='http://bob:s3cret@proxy.test')
    made = run(project, fake, diff=True, **options)
    assert made['diff']['after']['proxy'] == 'http://bob:$encrypted$@proxy.test'
    fake.objects['projects'][-1]['proxy'] = 'http://bob:$encrypted$@proxy.test'     # as the service reads it
    assert run(project, fake, **options)['changed'] is False
    other = run(project, fake, diff=True, **dict(options, proxy='http://eve:s3cret@proxy.test'))
    assert other['changed'] is True and other['diff']['after']['proxy'] == 'http://eve:$encrypted$@proxy.test'


def test_info_keeps_the_exact_name_and_deletion():
    eda = FakeEda()
    run(project, eda, **NEW)
    run(project, eda, **dict(NEW, name='Rules 2'))
    assert [p['name'] for p in run(project_info, eda, name='Rules')['projects']] == ['Rules']
    assert len(run(project_info, eda)['projects']) == 3
    gone = run(project, eda, name='Rules', state='absent')
    assert gone['changed'] is True and eda.writes[-1][:2] == ('DELETE', EDA + 'projects/101/')
    assert run(project, eda, name='Rules', state='absent')['changed'] is False


def test_on_eda_2_6_the_fields_it_has_not_are_not_compared():
    fake = FakeEda()
    project_fields = fake.objects['projects'][0]
    for field in ('update_revision_on_launch', 'scm_update_cache_timeout'):
        del project_fields[field]                 # EDA 2.6 shows no such fields
    options = dict(name='Rulebooks', url='https://git.example.test/rulebooks.git', organization_name='Default')
    result = run(project, fake, **options)
    assert result['changed'] is False and fake.writes == [] and 'warnings' not in result
    asked = run(project, fake, **dict(options, update_revision_on_launch=True))
    assert asked['changed'] is False and fake.writes == []
    assert 'has no update_revision_on_launch for project Rulebooks' in asked['warnings'][0]
