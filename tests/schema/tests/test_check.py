"""The schema check's rules on small schemas and answers, and the check of a service against a schema
of its own paths: a real reference service (the pooled one of tests/conftest.py), no mock."""
import json
import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import check  # noqa: E402  (tests/schema/check.py)

DOCUMENT = {
    'paths': {
        '/api/v2/labels/': {'get': {'responses': {'200': {'content': {'application/json': {'schema': {
            '$ref': '#/components/schemas/PaginatedLabelList'}}}}}}},
        '/api/v2/labels/{id}/': {'get': {'responses': {'200': {'content': {'application/json': {'schema': {
            '$ref': '#/components/schemas/Label'}}}}}}},
        '/api/v2/no_such_list/': {'get': {}},
    },
    'components': {'schemas': {
        'PaginatedLabelList': {'type': 'object', 'properties': {
            'count': {'type': 'integer'}, 'results': {'type': 'array', 'items': {'$ref': '#/components/schemas/Label'}}}},
        'Label': {'type': 'object', 'properties': {
            'id': {'type': 'integer', 'readOnly': True},
            'name': {'type': 'string'},
            'organization': {'type': 'integer'},
            'secret': {'type': 'string', 'writeOnly': True},
            'description': {'type': 'string', 'nullable': True},
        }},
    }},
}


def problems_of(obj):
    schema = check.Schema(DOCUMENT)
    found = []
    check.check_object(schema, DOCUMENT['components']['schemas']['Label'], obj, 'the answer', found)
    return sorted((kind, field) for kind, field, _detail in found)


def test_an_answer_as_the_schema_says_has_no_problem():
    assert problems_of({'id': 1, 'name': 'a', 'organization': 2, 'description': None}) == []


def test_missing_unknown_type_null_and_write_only_fields_are_told_apart():
    assert problems_of({'id': '1', 'organization': None, 'secret': 'x', 'extra': 1, 'description': 'd'}) == [
        ('missing', 'name'), ('type', 'id'), ('type', 'organization'), ('unknown', 'extra'), ('write-only', 'secret')]


def test_a_boolean_is_not_an_integer():
    assert problems_of({'id': True, 'name': 'a', 'organization': 2, 'description': ''}) == [('type', 'id')]


def options_problems(described):
    schema = check.Schema({'components': DOCUMENT['components'], 'paths': {}})
    body = {'content': {'application/json': {'schema': {
        'type': 'object', 'required': ['name'], 'properties': dict(
            DOCUMENT['components']['schemas']['Label']['properties'])}}}}
    found = []
    check.check_options(schema, {'post': {'requestBody': body}}, described, found)
    return sorted((kind, field) for kind, field, _detail in found)


def test_options_describe_every_writable_field_required_as_the_schema_says():
    fields = {'name': {'required': True}, 'organization': {}, 'secret': {}, 'description': {}}
    assert options_problems({'actions': {'POST': fields}}) == []
    assert options_problems({'actions': {'POST': dict(fields, id={'read_only': True})}}) == []


def test_options_that_take_a_read_only_field_miss_one_or_misstate_required_are_told_apart():
    fields = {'id': {}, 'name': {}, 'secret': {'required': True}, 'description': {}}
    assert options_problems({'actions': {'POST': fields}}) == [
        ('options', 'organization'), ('read-only', 'id'), ('required', 'name'), ('required', 'secret')]
    assert options_problems({'actions': {'GET': fields}}) == [('options', '')]


def test_known_entries_explain_by_path_pattern_kind_and_field(tmp_path):
    known = tmp_path / 'known.yml'
    known.write_text('known:\n- {path: "/api/v2/labels/.*", kind: missing, field: name, reason: not built}\n')
    entries = check.load_known(str(known))
    assert check.explained(entries, '/api/v2/labels/{id}/', 'missing', 'name') == 'not built'
    assert check.explained(entries, '/api/v2/labels/{id}/', 'missing', 'organization') is None
    assert check.explained(entries, '/api/v2/labels/{id}/', 'type', 'name') is None
    known.write_text('known:\n- {path: "/api/", kind: missing}\n')
    with pytest.raises(SystemExit):
        check.load_known(str(known))


def test_a_reference_service_held_against_a_schema(service, tmp_path):
    status, label = service.admin_request('POST', '/api/v2/labels/', {'name': 'schema-check', 'organization': 1})
    assert status == 201, label
    schema_file = tmp_path / 'schema.json'
    schema_file.write_text(json.dumps(DOCUMENT))
    os.environ['SCHEMA_CHECK_PASSWORD'] = service.admin_password
    out = tmp_path / 'out'
    code = check.main(['--schema', str(schema_file), '--url', service.url, '--ca', str(service.ca_path),
                       '--username', service.admin_username, '--password-env', 'SCHEMA_CHECK_PASSWORD',
                       '--out', str(out)])
    report = json.loads((out / 'report.json').read_text())
    kinds = set((row['path'], row['kind']) for row in report['differences'])
    # the list and the detail are answered, their templates filled from the list; an unknown path is not
    assert ('/api/v2/no_such_list/', 'unanswered') in kinds
    assert not any(kind == 'unfilled' for _path, kind in kinds)
    # the service's labels carry fields the small schema does not describe
    assert ('/api/v2/labels/{id}/', 'unknown') in kinds
    assert code == 1 and report['summary']['unexplained'] == len(report['differences'])
    assert '**unexplained**' in (out / 'report.md').read_text()


def test_without_the_schema_the_check_says_so(tmp_path, capsys):
    code = check.main(['--schema', str(tmp_path / 'absent.json'), '--url', 'https://127.0.0.1:9', '--username', 'x'])
    assert code == 0
    assert 'is not there' in capsys.readouterr().out


def test_seed_values_name_what_the_service_lists_and_a_run_suffix():
    class Listing:
        pages = {'/api/v2/labels/?order_by=-id': {'results': [{'id': 7}]}, '/api/v2/none/': {'results': []}}

        def first_page(self, path):
            return self.pages[path]

    value = check.seed_value({'organization': {'id_of': '/api/v2/labels/?order_by=-id'}, 'name': {'unique': 'x'},
                              'ids': [{'id_of': '/api/v2/labels/?order_by=-id'}], 'n': 3}, Listing(), 'r1')
    assert value == {'organization': 7, 'name': 'x-r1', 'ids': [7], 'n': 3}
    with pytest.raises(LookupError):
        check.seed_value({'id_of': '/api/v2/none/'}, Listing(), 'r1')


def test_templates_are_filled_from_a_page_and_a_preference_name_from_an_objects_keys():
    class Listing:
        pages = {'/settings/': {'results': [{'url': '/settings/all/', 'name': 'all'}]},
                 '/settings/all/': {'request_timeout': 30, 'idle_timeout': 15},
                 '/teams/': {'results': [{'id': 4}]}, '/teams/4/': {'name': 'a'}}

        def first_page(self, path):
            return self.pages.get(path)

    assert check.fill('/settings/{category_slug}/{preference_name}/', Listing()) == '/settings/all/request_timeout/'
    # only a preference name is taken from an object's keys: an answer that is no page fills nothing else
    assert check.fill('/teams/{id}/{other}/', Listing()) is None
    assert check.fill('/teams/{id}/', Listing()) == '/teams/4/'


def test_a_fill_entry_gives_the_parameters_no_list_names():
    class Listing:
        listed = {'/api/v2/labels/': {'results': [{'id': 7, 'ansible_id': 'a-b'}]}}

        def __init__(self):
            self.pages = {}     # the service's cache of first pages, which the seed empties

        def first_page(self, path):
            return self.listed.get(path)

        def request(self, *args, **kwargs):
            raise AssertionError('a fill entry is not POSTed')

    entries = [{'fill': '/api/v2/access/', 'values': {'model_name': 'shared.team',
                                                      'id': {'id_of': '/api/v2/labels/'},
                                                      'actor': {'id_of': '/api/v2/labels/', 'field': 'ansible_id'}}}]
    made, failed, fills = check.seed(entries, Listing())
    assert (made, failed) == ([], [])
    assert fills == [('/api/v2/access/', {'model_name': 'shared.team', 'id': 7, 'actor': 'a-b'})]
    assert check.fill('/api/v2/access/{model_name}/{id}/{actor}/', Listing(), fills) == '/api/v2/access/shared.team/7/a-b/'
    # elsewhere the values are not taken, and a template nothing fills stays unfilled
    assert check.fill('/api/v2/labels/{id}/', Listing(), fills) == '/api/v2/labels/7/'
    assert check.fill('/api/v2/access/{other}/', Listing(), fills) is None


def test_a_text_answer_is_taken_where_the_schema_says_string():
    class Answer:
        status_code = 200
        text = '-----BEGIN PUBLIC KEY-----'

        def json(self):
            raise ValueError('not JSON')

    class TextService:
        def request(self, method, path, body=None):
            return Answer()

    responses = {'200': {'content': {'application/json': {'schema': {'type': 'string'}}}}}
    schema = check.Schema({'paths': {'/key/': {'get': {'responses': responses}},
                                     '/object/': {'get': {'responses': {'200': {'content': {'application/json': {
                                         'schema': {'type': 'object'}}}}}}}}})
    found = check.check(schema, TextService())
    assert found['/key/'] == []
    assert [kind for kind, _field, _detail in found['/object/']] == ['unanswered']


def test_the_seed_makes_objects_to_fill_templates_and_deletes_them(service, tmp_path, monkeypatch):
    deleted = []
    unseed = check.unseed
    monkeypatch.setattr(check, 'unseed', lambda made, svc: (deleted.extend(made), unseed(made, svc)))
    document = {'paths': {
        '/api/v2/inventories/': {'get': {}},
        '/api/v2/inventories/{id}/': {'get': {}},
    }}
    schema_file = tmp_path / 'schema.json'
    schema_file.write_text(json.dumps(document))
    seed = tmp_path / 'seed.yml'
    seed.write_text('- path: /api/v2/inventories/\n  body: {name: {unique: schema-seed}, organization: 1}\n')
    os.environ['SCHEMA_CHECK_PASSWORD'] = service.admin_password
    out = tmp_path / 'out'
    check.main(['--schema', str(schema_file), '--url', service.url, '--ca', str(service.ca_path),
                '--username', service.admin_username, '--password-env', 'SCHEMA_CHECK_PASSWORD',
                '--seed', str(seed), '--out', str(out)])
    report = json.loads((out / 'report.json').read_text())
    assert not [row for row in report['differences'] if row['kind'] in ('unfilled', 'unanswered')]
    status, left = service.admin_request('GET', '/api/v2/inventories/?name__startswith=schema-seed-')
    assert status == 200 and left['count'] == 0
    assert len(deleted) == 1 and deleted[0][0] == '/api/v2/inventories/' and deleted[0][1]


def test_paths_are_reported_by_app_and_an_app_that_answers_none_is_pending(tmp_path):
    known = tmp_path / 'known.yml'
    known.write_text('owners:\n  - {app: core, paths: [/things/.*]}\n  - {app: later, paths: [/runs/.*]}\nknown: []\n')
    owners = check.load_owners(str(known))
    found = {
        '/things/': [],
        '/things/{id}/': [('type', 'name', 'the answer: int, the schema says string')],
        '/runs/': [('unanswered', '', 'GET /runs/ answered 404'), ('options', '', 'OPTIONS /runs/ answered 404')],
        '/runs/{id}/': [('unfilled', '', 'nothing listed to fill /runs/{id}/')],
    }
    summary, rows = check.report(found, [], str(tmp_path / 'out'), 'title', owners)
    # the app that answers nothing is pending: listed, not failing; the other's difference fails
    assert summary['pending'] == ['later'] and summary['unexplained'] == 1
    assert [row['path'] for row in rows if row['reason'] is None] == ['/things/{id}/']
    text = (tmp_path / 'out' / 'report.md').read_text()
    assert '### core\n' in text and '- `/things/`: clean' in text
    assert '### later (pending: answers none of its paths yet)' in text
    # once it answers one path, its differences count
    found['/runs/'] = [('missing', 'status', 'results[0] lacks it')]
    assert check.report(found, [], None, 'title', owners)[0] == {
        'paths': 4, 'clean': 1, 'differences': 3, 'unexplained': 3, 'pending': []}
    # a service that answers nothing has no pending app
    nothing = {path: [('unanswered', '', 'refused')] for path in found}
    assert check.report(nothing, [], None, 'title', owners)[0]['pending'] == []


def test_a_get_answered_with_the_success_status_the_schema_gives_is_answered():
    assert check.success_statuses({'responses': {'204': {}, '403': {}}}) == {204}
    assert check.success_statuses({'responses': {'200': {}, '201': {}}}) == {200, 201}
    assert check.success_statuses({}) == {200}


def test_galaxy_ng_pages_fill_templates_and_pulp_objects_are_named_by_their_href():
    """The Hub's lists: galaxy-ng's pages carry their items in ``data``; Pulp's objects have no ``id`` and are named
    in their paths by the last part of their ``pulp_href``."""
    class Listing:
        pages = {'/api/galaxy/v3/namespaces/': {'meta': {'count': 1}, 'links': {}, 'data': [{'id': 3, 'name': 'ns'}]},
                 '/pulp/api/v3/remotes/': {'count': 1, 'results': [
                     {'pulp_href': '/pulp/api/v3/remotes/0190-aa/', 'name': 'community'}]},
                 '/api/galaxy/_ui/v1/collection-versions/': {'data': [{'namespace': 'ns', 'version': '1.0.0'}]}}

        def first_page(self, path):
            return self.pages.get(path)

    assert check.fill('/api/galaxy/v3/namespaces/{name}/', Listing()) == '/api/galaxy/v3/namespaces/ns/'
    assert check.fill('/pulp/api/v3/remotes/{pulp_id}/', Listing()) == '/pulp/api/v3/remotes/0190-aa/'
    assert check.seed_value({'id_of': '/api/galaxy/_ui/v1/collection-versions/', 'field': 'version'}, Listing(),
                            'r1') == '1.0.0'
    # a galaxy-ng page's items are held to the schema's items
    schema = check.Schema({'paths': {'/p/': {'get': {'responses': {'200': {'content': {'application/json': {'schema': {
        'type': 'object', 'properties': {'data': {'type': 'array', 'items': {
            'type': 'object', 'properties': {'name': {'type': 'string'}}}}}}}}}}}}}})
    found = []
    check.check_answer(schema, '/p/', {'data': [{'name': 1}]}, found)
    assert [(kind, field) for kind, field, _detail in found] == [('type', 'name')]


def test_a_known_entrys_kind_is_a_pattern():
    entries = [{'path': '/api/galaxy/_ui/v2/.*', 'kind': '(unanswered|options)', 'reason': 'newer'}]
    assert check.explained(entries, '/api/galaxy/_ui/v2/users/', 'options', '') == 'newer'
    assert check.explained(entries, '/api/galaxy/_ui/v2/users/', 'unanswered', '') == 'newer'
    assert check.explained(entries, '/api/galaxy/_ui/v2/users/', 'type', 'name') is None
