"""The items of a loop share the Hub's look-ups by name (_hub.find() on _loop_reads' Held.shared()): galaxy's and the
UI API's pages (``meta``/``links``/``data``) and Pulp's (``count``/``next``/``results``), read by ``limit`` and
``offset``. No Hub here: the service is a fake that answers the filters and pages as galaxy-ng does and counts what it
is asked (the target hub_loop_reads counts the same on a real Hub)."""

import pytest

from ansible_collections.automation.service.plugins.module_utils import _hub, _loop_reads
from ansible_collections.automation.service.plugins.module_utils._api_module import ApiTask
from ansible_collections.automation.service.plugins.module_utils._client import Layout
from ansible_collections.automation.service.plugins.module_utils._errors import ApiError, MultipleFound
from ansible_collections.automation.service.plugins.module_utils._options import hub_argument_spec

ORIGIN = 'https://hub.invalid'
GROUPS = '/api/galaxy/pulp/api/v3/groups/'
USERS = '/api/galaxy/_ui/v1/users/'


class FakeHub:
    """Pulp's groups (``name``) and the UI API's users (``username``), listed by ``limit``/``offset`` and filtered
    by their name exactly; ``broken``: the paths whose unfiltered list answers something else than a list."""

    def __init__(self, groups=(), users=(), broken=()):
        self.groups = [dict(id=i + 1, name=name, pulp_href='%s%d/' % (GROUPS, i + 1)) for i, name in enumerate(groups)]
        self.users = [dict(id=i + 1, username=name, groups=[]) for i, name in enumerate(users)]
        self.broken = broken
        self.sent = []
        self.layout = Layout.standalone_hub('/api/galaxy/')
        self.base_url = ORIGIN

    def settled_layout(self):
        return self.layout

    def url(self, path, params=None):
        return path if path.startswith('http') else ORIGIN + path

    def get(self, path, params=None):
        if '?' in path:     # a next link (Pulp's a full URL)
            path, query = path[len(ORIGIN):].split('?') if path.startswith(ORIGIN) else path.split('?')
            params = dict(part.split('=') for part in query.split('&'))
        params = dict(params or {})
        self.sent.append((path, dict(params)))
        limit, offset = int(params.pop('limit', 10)), int(params.pop('offset', 0))
        if path in self.broken and not params:
            return {'detail': 'not a list'}
        if path == GROUPS:
            found = [g for g in self.groups if params.get('name', g['name']) == g['name']]
        else:
            found = [u for u in self.users if params.get('username', u['username']) == u['username']]
        following = None
        if offset + limit < len(found):
            following = '%s?%s' % (path, '&'.join('%s=%s' % kv for kv in sorted(dict(params, limit=limit, offset=offset + limit).items())))
        page = [dict(obj) for obj in found[offset:offset + limit]]
        if path == GROUPS:
            return {'count': len(found), 'next': following and ORIGIN + following, 'results': page}
        return {'meta': {'count': len(found)}, 'links': {'next': following}, 'data': page}

    def lists(self, path):
        return [params for at, params in self.sent if at == path and not set(params) - {'limit', 'offset'}]

    def singles(self, path):
        return [params for at, params in self.sent if at == path and set(params) - {'limit', 'offset'}]


@pytest.fixture(autouse=True)
def fresh_task():
    del _loop_reads._CURRENT[:]


def task(hub, reads, **options):
    params = dict((name, None) for name in hub_argument_spec())
    params.update(service_url=ORIGIN, service_token='t', loop_reads=True)
    params.update(options)
    api = ApiTask(_hub.hub_spec({}), params, reads=reads, environ={})
    api._client = hub
    return api


def loop(hub, path, names, name_field='name', reads=None, **options):
    reads = reads or _loop_reads.LoopReads()
    return [_hub.find(task(hub, reads, **options), path, name, name_field) for name in names]


def test_a_loop_over_pulp_groups_reads_their_list_once_and_answers_every_item():
    names = ['g%03d' % i for i in range(250)]
    hub = FakeHub(groups=names)
    found = loop(hub, GROUPS, names)
    assert [obj['name'] for obj in found] == names
    # two look-ups one by one, the third reads the first page (the probe, 100 of 250), the third page's worth of
    # look-ups reads the whole list (3 pages): the other names are answered from it
    assert len(hub.lists(GROUPS)) == 1 + 3
    assert all(int(params['limit']) == _hub.PAGE_SIZE for params in hub.lists(GROUPS))
    assert len(hub.singles(GROUPS)) < 5
    assert len(hub.sent) < 10


def test_loop_reads_off_reads_each_name_and_no_list():
    names = ['g%d' % i for i in range(8)]
    hub = FakeHub(groups=names)
    found = loop(hub, GROUPS, names, loop_reads=False)
    assert [obj['name'] for obj in found] == names
    assert hub.lists(GROUPS) == [] and len(hub.singles(GROUPS)) == 8


def test_galaxys_pages_are_read_by_their_links_and_a_name_missing_is_asked_again():
    users = ['u%03d' % i for i in range(350)]
    hub = FakeHub(users=users)
    reads = _loop_reads.LoopReads()
    assert [obj['username'] for obj in loop(hub, USERS, users[:3], 'username', reads)] == users[:3]
    assert len(hub.lists(USERS)) == 1     # the probe: one page of 100, the list takes 4
    assert [obj['username'] for obj in loop(hub, USERS, users[3:], 'username', reads)] == users[3:]
    # the names on the probe's page are answered from it; the first name past it read the whole list once, by
    # its links
    assert len(hub.lists(USERS)) == 1 + 4
    assert len(hub.singles(USERS)) == 2
    asked = len(hub.sent)
    assert loop(hub, USERS, ['newcomer'], 'username', reads) == [None]
    assert hub.singles(USERS)[-1] == {'username': 'newcomer', 'limit': _hub.PAGE_SIZE}
    assert len(hub.sent) == asked + 1
    # the same name again costs nothing
    assert loop(hub, USERS, ['u007'], 'username', reads)[0]['id'] == 8 and len(hub.sent) == asked + 1


def test_an_object_is_held_where_its_writes_go_and_a_write_to_the_hub_drops_it():
    hub = FakeHub(groups=['a', 'b', 'c', 'd'])
    reads = _loop_reads.LoopReads()
    api = task(hub, reads)
    loop(hub, GROUPS, ['a', 'b', 'c'], reads=reads)
    held = api.held
    assert ORIGIN + GROUPS + '2/' in held.objects
    asked = len(hub.sent)
    loop(hub, GROUPS, ['a', 'b', 'c', 'd'], reads=reads)
    assert len(hub.sent) == asked     # the list answered them all
    # a write elsewhere in the Hub (an object written by name, a distribution at its href) drops all that is held
    held.wrote(hub, 'PUT', ORIGIN + '/api/galaxy/v3/plugin/execution-environments/repositories/a/', None)
    assert held.objects == {}
    assert [obj['id'] for obj in loop(hub, GROUPS, ['a', 'c', 'd'], reads=reads)] == [1, 3, 4]
    assert len(hub.sent) == asked + 3     # each read again from the Hub, then held again
    loop(hub, GROUPS, ['a', 'c', 'd'], reads=reads)
    assert len(hub.sent) == asked + 3
    # a module's own detail path says where an object is held (a role's pulp_href, a registry's <path><id>/)
    assert _hub.held_at('/x/', {'id': 'u-1', 'pulp_href': '/p/1/'}) == '/x/u-1/'
    assert _hub.held_at('/x/', {'pulp_href': ORIGIN + '/p/1/'}) == '/p/1/'
    assert _hub.held_at('/x/', {'name': 'no place'}) is None


def test_two_objects_of_one_name_in_a_held_list_are_asked_of_the_hub_which_says_more_than_one():
    hub = FakeHub(groups=['a', 'b', 'c', 'twin', 'twin'])
    with pytest.raises(MultipleFound):
        loop(hub, GROUPS, ['a', 'b', 'c', 'twin'])


def test_a_list_that_is_no_list_leaves_the_look_ups_one_by_one():
    names = ['g%d' % i for i in range(6)]
    hub = FakeHub(groups=names, broken=(GROUPS,))
    assert [obj['name'] for obj in loop(hub, GROUPS, names)] == names
    assert len(hub.lists(GROUPS)) == 1 and len(hub.singles(GROUPS)) == 6     # tried once, never again
    with pytest.raises(ApiError):
        _hub.list_page({'detail': 'not a list'})
    assert _hub.list_page({'meta': {'count': 3}, 'links': {'next': '/n/'}, 'data': [1]}) == ([1], 3, '/n/')
    assert _hub.list_page({'count': 3, 'next': None, 'results': [1]}) == ([1], 3, None)
