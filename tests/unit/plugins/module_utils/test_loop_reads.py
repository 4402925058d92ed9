"""The reads a loop's items share (_loop_reads): when a list is read, what answers a look-up, what a write
does to what is held. Against a fake service of hosts in inventories (no service): it answers filtered and
paginated list requests as the service does, and counts them."""

import math

import pytest

from ansible_collections.automation.service.plugins.module_utils import _loop_reads
from ansible_collections.automation.service.plugins.module_utils._api_module import ApiTask, ModuleSpec
from ansible_collections.automation.service.plugins.module_utils._errors import ApiError, MultipleFound

SPEC = ModuleSpec(dict(), resource='hosts', result_key='host')
ORIGIN = 'https://service.invalid'


class Answer:
    def __init__(self, status, body):
        self.status = status
        self.body = body

    def json(self):
        return self.body


class FakeService:
    """Hosts (name, inventory name) answered at /api/v2/hosts/ with ``name``, ``inventory__name``, ``page``
    and ``page_size`` (at most 200)."""

    def __init__(self, hosts):
        self.hosts = [dict(id=i + 1, name=name, inventory__name=inventory, description='',
                           url='/api/v2/hosts/%d/' % (i + 1)) for i, (name, inventory) in enumerate(hosts)]
        self.sent = []
        self.on_write = None

    def url(self, path, params=None):
        path = path if path.startswith('/') else '/api/v2/%s/' % path.strip('/')
        return ORIGIN + path

    def get(self, path, params=None):
        if '?' in path:   # a next link
            path, query = path.split('?')
            params = dict(part.split('=') for part in query.split('&'))
        params = dict(params or {})
        self.sent.append(dict(params))
        size = min(int(params.pop('page_size', 25)), 200)
        page = int(params.pop('page', 1))
        either = dict((k[4:], v) for k, v in params.items() if k.startswith('or__'))
        both = dict((k, v) for k, v in params.items() if not k.startswith('or__'))
        found = [h for h in self.hosts if all(str(h.get(k)) == str(v) for k, v in both.items())
                 and (not either or any(str(h.get(k)) == str(v) for k, v in either.items()))]
        results = found[(page - 1) * size:page * size]
        more = page * size < len(found)
        query = '&'.join('%s=%s' % item for item in sorted(dict(params, page=page + 1, page_size=size).items()))
        return {'count': len(found), 'results': [dict(h) for h in results], 'next': '/api/v2/hosts/?' + query if more else None}

    def lists(self):
        return [p for p in self.sent if 'name' not in p]

    def singles(self):
        return [p for p in self.sent if 'name' in p]


@pytest.fixture(autouse=True)
def fresh_task():
    del _loop_reads._CURRENT[:]


def task(service, reads, **options):
    params = dict(service_url=ORIGIN, service_token='t')
    params.update(options)
    api = ApiTask(SPEC, params, reads=reads)
    api._client = service
    return api


def loop(service, names, inventory='big', reads=None):
    reads = reads or _loop_reads.for_task(('task', 'localhost'))
    found = []
    for name in names:
        found.append(task(service, reads).lookup('hosts', name, inventory__name=inventory))
    return found


def inventory(size, name='big'):
    return [('%s-%04d' % (name, i), name) for i in range(size)]


def test_a_thousand_lookups_read_the_list_once_and_answer_every_one():
    service = FakeService(inventory(1000) + inventory(10, 'other'))
    found = loop(service, ['big-%04d' % i for i in range(1000)])
    assert [h['name'] for h in found] == ['big-%04d' % i for i in range(1000)]
    # two look-ups; the third reads the first page (200 of 1,000) and is answered by it; those of the first page
    # next; then two look-ups past it, the second of which reads the five pages
    assert len(service.singles()) == 3
    assert len(service.lists()) == 1 + math.ceil(1000 / 200.0)
    assert all(str(p['page_size']) == '200' and p['inventory__name'] == 'big' for p in service.lists())


def test_a_loop_of_three_reads_one_page_never_the_list():
    service = FakeService(inventory(5000))
    loop(service, ['big-4000', 'big-4001', 'big-4002'])
    assert len(service.singles()) == 3 and len(service.lists()) == 1


def test_one_or_two_lookups_read_nothing_more():
    service = FakeService(inventory(5000))
    loop(service, ['big-4000', 'big-4001'])
    assert len(service.singles()) == 2 and not service.lists()


def test_the_same_name_again_costs_nothing():
    service = FakeService(inventory(10) + [('Default', 'orgs')])
    loop(service, ['Default'] * 50, inventory='orgs')
    assert len(service.sent) == 1


def test_a_name_missing_from_a_held_list_is_read_again_from_the_service():
    service = FakeService(inventory(20))
    reads = _loop_reads.for_task(('task', 'localhost'))
    loop(service, ['big-0000', 'big-0001', 'big-0002'], reads=reads)
    assert len(service.lists()) == 1
    service.hosts.append(dict(id=99, name='new', inventory__name='big', description='', url='/api/v2/hosts/99/'))
    assert loop(service, ['new'], reads=reads)[0]['id'] == 99
    assert service.singles()[-1]['name'] == 'new'
    assert loop(service, ['gone'], reads=reads) == [None]
    assert service.singles()[-1]['name'] == 'gone'


def test_two_of_one_name_in_a_held_list_are_more_than_one():
    service = FakeService(inventory(20) + [('big-0005', 'big')])
    reads = _loop_reads.for_task(('task', 'localhost'))
    loop(service, ['big-0000', 'big-0001', 'big-0002'], reads=reads)
    with pytest.raises(MultipleFound):
        loop(service, ['big-0005'], reads=reads)


def test_writes_update_what_is_held():
    service = FakeService(inventory(20))
    reads = _loop_reads.for_task(('task', 'localhost'))
    loop(service, ['big-0000', 'big-0001', 'big-0002'], reads=reads)
    held = next(iter(reads.held.values()))
    url = ORIGIN + '/api/v2/hosts/5/'
    changed = dict(service.hosts[4], description='new')
    held.wrote(service, 'PATCH', url, None)
    held.wrote(service, 'PATCH', url, Answer(200, changed))
    sent = len(service.sent)
    assert loop(service, ['big-0004'], reads=reads)[0]['description'] == 'new'
    # renamed: held under its new name
    held.wrote(service, 'PATCH', url, Answer(200, dict(changed, name='renamed')))
    assert loop(service, ['renamed'], reads=reads)[0]['id'] == 5
    assert len(service.sent) == sent
    # deleted, or written below: read again
    held.wrote(service, 'DELETE', ORIGIN + '/api/v2/hosts/6/', Answer(204, None))
    held.wrote(service, 'POST', ORIGIN + '/api/v2/hosts/7/variable_data/', Answer(200, {}))
    loop(service, ['big-0005', 'big-0006'], reads=reads)
    assert [p['name'] for p in service.singles()[-2:]] == ['big-0005', 'big-0006']


def test_an_object_held_is_a_copy():
    service = FakeService(inventory(3))
    reads = _loop_reads.for_task(('task', 'localhost'))
    loop(service, ['big-0000'], reads=reads)[0]['description'] = 'changed by the module'
    assert loop(service, ['big-0000'], reads=reads)[0]['description'] == ''


def test_other_credentials_share_nothing_and_off_shares_nothing():
    service = FakeService(inventory(3))
    reads = _loop_reads.for_task(('task', 'localhost'))
    task(service, reads).lookup('hosts', 'big-0000', inventory__name='big')
    task(service, reads, service_token='other').lookup('hosts', 'big-0000', inventory__name='big')
    task(service, reads, loop_reads=False).lookup('hosts', 'big-0000', inventory__name='big')
    assert len(service.sent) == 3


def test_another_task_holds_nothing_of_the_last():
    first = _loop_reads.for_task(('task', 'localhost'))
    assert _loop_reads.for_task(('task', 'localhost')) is first
    assert _loop_reads.for_task(('next task', 'localhost')) is not first
    assert _loop_reads.for_task(('task', 'localhost')) is not first


def test_a_lookup_by_id_again_costs_nothing_until_the_object_is_written():
    service = FakeService(inventory(3))
    reads = _loop_reads.for_task(('task', 'localhost'))
    for _ in range(5):
        assert task(service, reads).lookup('hosts', '2', inventory__name='big')['name'] == 'big-0001'
    assert len(service.sent) == 1
    held = next(iter(reads.held.values()))
    held.wrote(service, 'DELETE', ORIGIN + '/api/v2/hosts/2/', None)
    task(service, reads).lookup('hosts', '2', inventory__name='big')
    assert len(service.sent) == 2


def refused(path):
    raise ApiError('GET %s answered 403: no.' % path, status=403)


@pytest.mark.parametrize('answer', [refused, lambda path: {'detail': 'not a list'}], ids=['refused', 'no list'])
def test_a_list_read_refused_or_not_a_list_leaves_the_lookups_one_by_one(answer):
    service = FakeService(inventory(20))
    plain_get = service.get

    def get(path, params=None):
        if 'name' not in (params or {}):
            service.sent.append(dict(params or {}))
            return answer(path)
        return plain_get(path, params)

    service.get = get
    reads = _loop_reads.for_task(('task', 'localhost'))
    found = loop(service, ['big-%04d' % i for i in range(10)], reads=reads)
    assert [h['name'] for h in found] == ['big-%04d' % i for i in range(10)]
    # tried once, never again; counted among the list reads
    assert len(service.singles()) == 10 and len(service.lists()) == 1
    assert [held.requests for held in reads.held.values()] == [1]


def test_two_of_one_name_on_the_first_page_of_a_long_list_are_more_than_one():
    service = FakeService([('twin', 'big')] * 2 + inventory(1000))
    reads = _loop_reads.for_task(('task', 'localhost'))
    loop(service, ['big-0900', 'big-0901', 'big-0902'], reads=reads)
    assert len(service.lists()) == 1    # the probe only: its page holds both twins
    with pytest.raises(MultipleFound):
        loop(service, ['twin'], reads=reads)


class Galaxy:
    """A list in another service's form, read by ``offset``: ``{"meta": {"count"}, "links": {"next"}, "data"}``."""

    def __init__(self, size):
        self.objects = [dict(id=i, title='t%d' % i) for i in range(size)]
        self.sent = []

    def url(self, path, params=None):
        return ORIGIN + path

    def get(self, path, params=None):
        offset = int(path.split('offset=')[1]) if 'offset=' in path else 0
        self.sent.append(offset)
        more = offset + 10 < len(self.objects)
        return {'meta': {'count': len(self.objects)}, 'links': {'next': '/o/?offset=%d' % (offset + 10) if more else None},
                'data': self.objects[offset:offset + 10]}


def galaxy_page(answer):
    return answer['data'], answer['meta']['count'], answer['links']['next']


def test_a_lister_reads_any_services_pages_and_holds_its_objects_where_it_says():
    service = Galaxy(35)
    lister = _loop_reads.Lister(service, '/o/', {'limit': 10}, lambda obj: '/o/%d/' % obj['id'], page=galaxy_page,
                                page_size=10)
    held = _loop_reads.Held()
    key = ('other', '/o/', 'title', ())
    held.counts[key] = 3
    held.read_list(key, 'title', lister)
    assert service.sent == [0] and not held.lists[key].complete     # 4 pages wanted, 3 look-ups counted: a probe
    held.counts[key] = 4
    held.read_list(key, 'title', lister)
    assert service.sent == [0, 0, 10, 20, 30] and held.lists[key].complete and held.requests == 5
    assert held.named(key, 'title', 't34') == [dict(id=34, title='t34')]
    assert held.objects[ORIGIN + '/o/34/'] == dict(id=34, title='t34')
    assert _loop_reads.pages(35, 10) == 4 and _loop_reads.pages(0) == 1
