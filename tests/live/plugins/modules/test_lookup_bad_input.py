"""Property-based test of the api lookup: one real ansible-playbook run over a
batch of generated inputs; every item ends in objects or a clean error."""

import json
import re

from hypothesis import HealthCheck, Phase, given, settings, strategies as st

from ..module_utils.faults import record
from ...playbook import run_playbook

# With ANSIBLE_DISPLAY_TRACEBACK=error a failed item carries the chain of exceptions.
# The first one is the root cause: a crash of ours is a root cause raised in this
# collection's code that is neither an AnsibleError nor one of the collection's typed
# errors (which the lookup turns into AnsibleError); Ansible's own option checks are fine.
def crashed_in_collection(exception_text):
    root = exception_text.split('The above exception was the direct cause')[0]
    lines = [line for line in root.strip().splitlines() if line.strip()]
    if not lines or 'automation/service/plugins' not in root:
        return False
    last = lines[-1]
    return not re.match(r'(\w+\.)*(Ansible\w*(Error|Exception)|ServiceError|ConfigError|ConnectionFailure|'
                        r'OutcomeUnknown|AuthError|ApiError|NotFound|MultipleFound)\b', last)


# Ansible templates what it is given; braces and percent signs are left out so that
# the inputs reach the lookup rather than the template engine.
plain = st.text(alphabet=st.characters(blacklist_characters='{}%#\x00', blacklist_categories=('Cs',)), max_size=30)
values = st.one_of(plain, st.integers(min_value=-2 ** 40, max_value=2 ** 40), st.booleans(), st.none(),
                   st.lists(plain, max_size=2))


def inputs_for(service):
    endpoints = st.one_of(st.sampled_from(['hosts', 'me', 'inventories', 'organizations/1', '/api/v2/ping/',
                                           'nonexistent', 'hosts/999999', '', '../../etc/passwd', 'users/1/tokens']),
                          plain)
    return st.fixed_dictionaries({
        'endpoint': endpoints,
        'query_params': st.one_of(*[st.dictionaries(st.sampled_from(['name', 'id', 'page_size', 'page', 'order_by',
                                                                     'bogus__field', 'or__name']), values,
                                                    max_size=3)] * 3 + [values]),
        'return_all': st.one_of(st.booleans(), st.booleans(), st.booleans(), values),
        'expect_one': st.one_of(st.booleans(), st.booleans(), st.booleans(), values),
        'max_objects': st.one_of(st.integers(min_value=-5, max_value=50), st.just(10000), values),
        'service_url': st.sampled_from([service.url, service.url, 'https://[::1]:%d' % service.port,
                                        service.url + '/prefix', 'https://127.0.0.1:9', 'ht!tp://x', '']),
        'service_password': st.sampled_from([service.admin_password, service.admin_password, 'wrong']),
    })


def test_lookup_survives_generated_input(service, tmp_path):
    # the first example hypothesis tries is the simplest batch; the next ones vary
    @settings(max_examples=3, deadline=None, database=None, derandomize=True,
              phases=[Phase.explicit, Phase.generate],  # a playbook per example: no shrinking
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture,
                                     HealthCheck.data_too_large])
    @given(batch=st.lists(inputs_for(service), min_size=30, max_size=30))
    def check(batch):
        (tmp_path / 'inputs.json').write_text(json.dumps(batch))
        out = tmp_path / 'results.json'
        tasks = [
            {'name': 'inputs', 'ansible.builtin.set_fact': {'inputs': "{{ lookup('ansible.builtin.file', "
                                                                      "'inputs.json') | from_json }}"}},
            {'name': 'lookup', 'ignore_errors': True, 'register': 'results', 'loop': '{{ inputs }}',
             'ansible.builtin.set_fact': {'value': "{{ lookup('automation.service.api', item.endpoint, "
                                                   "query_params=item.query_params, return_all=item.return_all, "
                                                   "expect_one=item.expect_one, max_objects=item.max_objects, "
                                                   "service_url=item.service_url, service_password="
                                                   "item.service_password, service_username='%s', ca_path='%s', "
                                                   "request_timeout=3, request_retries=0) }}"
                                                   % (service.admin_username, service.ca_path)}},
            {'name': 'save', 'ansible.builtin.copy': {'content': '{{ results.results | to_json }}',
                                                      'dest': str(out), 'mode': '0600'}},
        ]
        code, output = run_playbook(tmp_path, tasks, env={'SERVICE_CACHE_DIR': str(tmp_path / 'cache'),
                                                          'ANSIBLE_DISPLAY_TRACEBACK': 'error'})
        assert code == 0, output[-3000:]
        results = json.loads(out.read_text())
        assert len(results) == len(batch)
        for item in results:
            if item.get('failed'):
                assert item.get('msg'), item
                assert not crashed_in_collection(item.get('exception', '')), (
                    item.get('item'), item['exception'].split('The above exception was the direct cause')[0][-1500:])
            else:
                assert 'value' in item.get('ansible_facts', {}), item
        successes.extend(item for item in results if not item.get('failed'))

    successes = []
    check()
    assert successes, 'no input succeeded: the test proves little'
    record('generated inputs for the api lookup', 90, 'every item ended in objects or a clean error; no crash', 'n/a')
