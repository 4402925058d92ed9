"""collection_remote, collection_repository and collection_repository_sync planned against objects in memory: what
each sends for what the Hub holds, the remote's hidden fields, the sync's failures. No Hub here: the client is
test_hub's fake (the integration target collection_repository_sync runs them against a real one)."""

import pytest

from ansible_collections.automation.service.plugins.module_utils import _hub_repositories as repos
from ansible_collections.automation.service.plugins.module_utils._api_module import ApiTask
from ansible_collections.automation.service.plugins.module_utils._client import Layout
from ansible_collections.automation.service.plugins.modules import (
    collection_remote, collection_repository, collection_repository_sync,
)
from ansible_collections.automation.service.tests.unit.plugins.module_utils.test_hub import FakeClient

ROOT = '/api/galaxy/'
REMOTES = ROOT + repos.REMOTES
REPOSITORIES = ROOT + repos.REPOSITORIES
DISTRIBUTIONS = ROOT + repos.DISTRIBUTIONS
REMOTE_HREF = REMOTES + '01-remote/'
REPO_HREF = REPOSITORIES + '01-repo/'
TASK = ROOT + 'pulp/api/v3/tasks/01-task/'
CA = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----'


class Hub(FakeClient):
    """test_hub's fake client, answering writes as the Hub does: a task for a change or a sync, the object for a
    create."""

    def request(self, method, path, params=None, json_body=None, expect=(200,)):
        self.sent.append((method, path, json_body))
        if method == 'POST' and path in (REMOTES, REPOSITORIES):
            return dict(json_body, pulp_href=path + '02-new/')
        return {'task': TASK}


def remote(**fields):
    """A remote as the Hub reads it back: ``hidden`` names the hidden fields that are set."""
    hidden = fields.pop('hidden', ())
    obj = {'pulp_href': REMOTE_HREF, 'name': 'repo-r', 'url': 'https://hub.example.com/api/galaxy/content/x/',
           'auth_url': None, 'policy': 'immediate', 'tls_validation': True, 'client_cert': None, 'ca_cert': CA,
           'download_concurrency': 10, 'max_retries': None, 'rate_limit': 8, 'signed_only': False,
           'sync_dependencies': True, 'proxy_url': None,
           'requirements_file': '---\ncollections:\n  - repo_sync.tiny',
           'hidden_fields': [{'name': name, 'is_set': name in hidden} for name in repos.HIDDEN]}
    obj.update(fields)
    return obj


def repository(**fields):
    obj = {'pulp_href': REPO_HREF, 'name': 'repo-m', 'description': None, 'retain_repo_versions': 1,
           'pulp_labels': {}, 'private': False, 'remote': REMOTE_HREF}
    obj.update(fields)
    return obj


def listing(*objs):
    return {'count': len(objs), 'next': None, 'results': list(objs)}


def run(module, client, check_mode=False, diff=True, **given):
    params = dict((name, spec.get('default')) for name, spec in module.SPEC.argument_spec.items())
    params.update(given)
    api = ApiTask(module.SPEC, params, check_mode=check_mode, diff=diff, client=client)
    return api.execute(module.run)


def writes(client):
    return [(method, path, body) for method, path, body in client.sent if method != 'GET']


def hub(pages):
    client = Hub(Layout.standalone_hub(ROOT), pages)
    client.pages.setdefault(TASK, {'state': 'completed'})
    return client


SAME = dict(name='repo-r', url='https://hub.example.com/api/galaxy/content/x/', ca_cert=CA + '\n',
            requirements=['repo_sync.tiny'])


def test_a_remote_as_the_hub_holds_it_is_not_written_its_set_secrets_not_compared():
    client = hub({REMOTES: listing(remote(hidden=('username', 'password')))})
    result = run(collection_remote, client, username='admin', password='secret', **SAME)
    assert result['changed'] is False and writes(client) == []
    assert result['href'] == REMOTE_HREF and result['type'] == 'collection remote' and result['name'] == 'repo-r'


def test_a_secret_not_set_is_sent_and_masked_one_taken_away_is_sent_as_null():
    client = hub({REMOTES: listing(remote(hidden=('password',))), REMOTE_HREF: remote(hidden=('token',))})
    result = run(collection_remote, client, token='t0ken', password='', **SAME)
    assert writes(client) == [('PATCH', REMOTE_HREF, {'token': 't0ken', 'password': None})]
    assert result['changed'] is True and 't0ken' not in repr(result)
    assert result['diff']['after']['token'] != 't0ken' and result['diff']['after']['password'] is None


def test_secrets_given_go_with_any_other_change_and_the_options_are_sent_as_the_hub_takes_them():
    client = hub({REMOTES: listing(remote(hidden=('password',))), REMOTE_HREF: remote()})
    result = run(collection_remote, client, password='secret', rate_limit=5, max_retries=0,
                 policy='When syncing, download all metadata and content now.', **SAME)
    assert writes(client) == [('PATCH', REMOTE_HREF, {'rate_limit': 5, 'password': 'secret'})]
    assert result['diff'] == {'before': {'rate_limit': 8}, 'after': {'rate_limit': 5}}


def test_files_given_by_path_are_sent_as_their_text_a_client_key_never_shown(tmp_path):
    key, ca = tmp_path / 'key.pem', tmp_path / 'ca.pem'
    key.write_text('-----BEGIN PRIVATE KEY-----\nS3CR3T\n-----END PRIVATE KEY-----\n')
    ca.write_text(CA + '\n')
    client = hub({REMOTES: listing(remote()), REMOTE_HREF: remote(hidden=('client_key',))})
    given = dict(SAME, ca_cert=None)
    result = run(collection_remote, client, client_key_path=str(key), ca_cert_path=str(ca), **given)
    assert writes(client) == [('PATCH', REMOTE_HREF, {'client_key': key.read_text()})]
    assert 'S3CR3T' not in repr(result)
    failed = run(collection_remote, hub({REMOTES: listing(remote())}), requirements_file=str(tmp_path / 'none.yml'),
                 **dict(SAME, requirements=None))
    assert failed['failed'] and failed['msg'].startswith('Unable to read the file %s given as requirements_file'
                                                         % (tmp_path / 'none.yml'))


def test_a_new_remote_needs_a_url_and_in_check_mode_nothing_is_sent():
    client = hub({REMOTES: listing()})
    failed = run(collection_remote, client, name='repo-new')
    assert failed['failed'] and failed['msg'] == ('Unable to create collection remote repo-new: url is required to '
                                                  'create collection remote repo-new.')
    result = run(collection_remote, client, check_mode=True, name='repo-new', url='https://x.example.com/',
                 token='t0ken', requirements=['a.b', 'c.d'])
    assert result['changed'] is True and writes(client) == []
    assert result['requirements_file'] == '---\ncollections:\n  - a.b\n  - c.d\n' and 't0ken' not in repr(result)
    assert {'name': 'token', 'is_set': True} in result['hidden_fields']


def test_a_repository_keeps_its_remote_and_the_hubs_versions_unless_told():
    client = hub({REPOSITORIES: listing(repository())})
    result = run(collection_repository, client, name='repo-m', pulp_labels={'pipeline': 'approved',
                                                                            'hide_from_search': None})
    assert writes(client) == [('PATCH', REPO_HREF, {'pulp_labels': {'pipeline': 'approved'}})]
    assert result['changed'] is True
    client = hub({REPOSITORIES: listing(repository()), REMOTES: listing()})
    failed = run(collection_repository, client, name='repo-m', remote='repo-gone')
    assert failed['msg'] == "Remote repo-gone doesn't exist." and writes(client) == []
    client = hub({REPOSITORIES: listing(repository())})
    assert run(collection_repository, client, name='repo-m', remote='')['changed'] is True
    assert writes(client) == [('PATCH', REPO_HREF, {'remote': None})]


def test_a_new_repository_is_served_by_a_distribution_of_its_name():
    client = hub({REPOSITORIES: listing(), DISTRIBUTIONS: [listing(), listing({'name': 'repo-m', 'base_path':
                                                                              'repo-m', 'pulp_href': 'd'})]})
    result = run(collection_repository, client, name='repo-m', distribution={'name': None, 'state': 'present'})
    assert writes(client) == [
        ('POST', REPOSITORIES, {'name': 'repo-m', 'private': False}),
        ('POST', DISTRIBUTIONS, {'name': 'repo-m', 'base_path': 'repo-m', 'repository': REPOSITORIES + '02-new/'})]
    assert result['distribution']['base_path'] == 'repo-m'


def test_a_deleted_repository_takes_the_distributions_serving_it_along():
    served = {'name': 'repo-m', 'pulp_href': DISTRIBUTIONS + '01-dist/', 'repository': REPO_HREF}
    client = hub({REPOSITORIES: listing(repository()), DISTRIBUTIONS: listing(served)})
    result = run(collection_repository, client, name='repo-m', state='absent')
    assert writes(client) == [('DELETE', DISTRIBUTIONS + '01-dist/', None), ('DELETE', REPO_HREF, None)]
    assert result['changed'] is True and result['href'] == REPO_HREF


def test_a_sync_needs_a_remote_changes_what_it_brings_and_a_failed_one_says_why_with_its_task():
    client = hub({REPOSITORIES: listing(repository(remote=None))})
    failed = run(collection_repository_sync, client, name='repo-m')
    assert failed['msg'] == 'Collection repository repo-m has no remote to sync from.' and writes(client) == []
    client = hub({REPOSITORIES: listing()})
    failed = run(collection_repository_sync, client, name='repo-m')
    assert failed['msg'] == 'The container registry with name: repo-m, was not found.'
    client = hub({REPOSITORIES: listing(repository())})
    result = run(collection_repository_sync, client, check_mode=True, name='repo-m')
    assert result['changed'] is True and result['msg'] == 'Would have synced collection repository: repo-m'
    assert writes(client) == []
    client = hub({REPOSITORIES: listing(repository()),
                  TASK: {'state': 'failed', 'error': {'description': 'Cannot connect to host'}}})
    failed = run(collection_repository_sync, client, name='repo-m', interval=0.01)
    assert writes(client) == [('POST', REPO_HREF + 'sync/', {})]
    assert failed['failed'] and failed['changed'] is True and 'Cannot connect to host' in failed['msg']
    assert failed['task'] == TASK and failed['sync_status'] == 'Failed'
    client = hub({REPOSITORIES: listing(repository()), TASK: {'state': 'running'}})
    failed = run(collection_repository_sync, client, name='repo-m', timeout=0)
    assert failed['msg'].startswith('Timed out awaiting sync: ') and failed['task'] == TASK
    client = hub({REPOSITORIES: listing(repository()), TASK: {'state': 'completed', 'created_resources': []}})
    result = run(collection_repository_sync, client, name='repo-m')
    assert result['changed'] is False and result['sync_status'] == 'Complete' and writes(client)
    client.pages[TASK] = {'state': 'completed', 'created_resources': [REPO_HREF + 'versions/2/']}
    assert run(collection_repository_sync, client, name='repo-m')['changed'] is True
    client = hub({REPOSITORIES: listing(repository()), TASK: {'state': 'running'}})
    result = run(collection_repository_sync, client, name='repo-m', wait=False)
    assert result['changed'] is True and result['sync_status'] == 'Started' and result['task'] == TASK


@pytest.mark.parametrize('module', [collection_remote, collection_repository, collection_repository_sync])
def test_each_fails_on_awx_before_anything_is_sent(module):
    client = hub({})
    client.layout = Layout.awx()
    failed = run(module, client, name='repo-x')
    assert failed['failed'] and 'automation.service.%s needs Automation Hub' % module.__name__.split('.')[-1] \
        in failed['msg']
    assert client.sent == []
