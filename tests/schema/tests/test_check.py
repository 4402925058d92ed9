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
