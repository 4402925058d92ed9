"""Property-based tests: every module, driven with generated parameters (wrong
types, empty strings, unicode, huge values, unknown names and ids, malformed
URLs, IPv6 hosts, a path prefix), ends in a clean result or a fail_json with a
message. Zero tracebacks. Runs against a reference service of its own."""

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from ansible_collections.automation.service.plugins.module_utils._options import HUB_OPTIONS
from ansible_collections.automation.service.tests.unit.plugins.modules.module_runner import argument_spec, module_names, run_module
from ansible_collections.automation.service.tests.unit.plugins.modules.test_bad_input import clean

from ..module_utils.faults import record

# Examples per module (derandomized: the same ones every run).
EXAMPLES = 30

CONNECTION = {'service_url', 'service_auth', 'service_username', 'service_password', 'service_token',
              'service_client_id', 'service_client_secret', 'service_sso_backend', 'service_sso_idp',
              'service_sso_otp', 'service_session_id', 'session_cache', 'validate_certs', 'ca_path',
              'request_timeout', 'allow_insecure_http', 'service_config_file', 'request_retries',
              'request_retry_max_seconds', 'loop_reads'} | set(HUB_OPTIONS)   # a Hub module's too (ah_host...)

texts = st.one_of(
    st.text(max_size=40),
    st.just(''),
    st.text(alphabet='0123456789', min_size=1, max_size=12),
    st.sampled_from(['Default', 'admin', '../../etc', 'a/b?c=d&e', '%00', 'null', '\u00e9\u4e2d\U0001f600']),
    st.text(min_size=1000, max_size=3000).map(lambda s: s[:3000]),
)
scalars = st.one_of(texts, st.integers(min_value=-2 ** 70, max_value=2 ** 70), st.booleans(), st.none(),
                    st.floats(allow_nan=True, allow_infinity=True))
junk = st.one_of(scalars, st.lists(scalars, max_size=3), st.dictionaries(st.text(max_size=8), scalars, max_size=3))


def value_for(spec):
    kind = spec.get('type', 'str')
    if spec.get('choices'):
        good = st.sampled_from(list(spec['choices']))
    elif kind == 'bool':
        good = st.booleans()
    elif kind == 'int':
        good = st.integers(min_value=-2 ** 40, max_value=2 ** 40)
    elif kind == 'float':
        good = st.floats(allow_nan=False, allow_infinity=False, min_value=-1e6, max_value=1e6)
    elif kind == 'dict':
        good = st.dictionaries(st.text(max_size=10), st.recursive(scalars, lambda c: st.lists(c, max_size=3),
                                                                  max_leaves=5), max_size=4)
    elif kind == 'list':
        good = st.lists(texts, max_size=4)
    else:
        good = texts
    return st.one_of(good, good, good, good, good, junk)


def connection_for(service):
    """Mostly a working connection (so the module reaches the API), sometimes a broken one."""
    host, port = '127.0.0.1', service.port
    working = st.fixed_dictionaries({
        'service_url': st.sampled_from([service.url, service.url + '/', 'https://localhost:%d' % port]),
        'ca_path': st.just(str(service.ca_path)),
        'service_username': st.just(service.admin_username),
        'service_password': st.just(service.admin_password),
        'request_timeout': st.just(3),
        'request_retries': st.just(0),
    }, optional={'service_auth': st.sampled_from(['auto', 'session', 'basic'])})
    broken = st.fixed_dictionaries({
        'service_url': st.sampled_from([
            service.url, 'https://[::1]:%d' % port, service.url + '/prefix', '%s:%d' % (host, port),
            'http://%s:%d' % (host, port), 'https://127.0.0.1:9', 'ht!tp://x', 'https://', 'https://host:99999',
            '::::', '', 'ftp://%s' % host]),
        'ca_path': st.sampled_from([str(service.ca_path), '/nonexistent/ca.pem']),
        'service_username': st.sampled_from([service.admin_username, '', 'nobody', '\u00e9']),
        'service_password': st.sampled_from([service.admin_password, '', 'wrong']),
        'request_timeout': st.just(3),
        'request_retries': st.just(0),
    }, optional={
        'service_auth': st.sampled_from(['auto', 'session', 'basic', 'token', 'sso', 'bogus']),
        'service_token': st.one_of(texts, st.dictionaries(st.sampled_from(['token', 'scope', 'x']), texts)),
        'service_session_id': texts,
        'validate_certs': st.booleans(),
    })
    return st.one_of(working, working, working, broken)


@pytest.fixture(scope='module')
def target(svc):
    """A service of its own (the inputs create objects)."""
    for name in ('Default', 'admin'):  # names the generator often picks, so that some inputs succeed
        svc.admin_request('POST', '/api/v2/inventories/', {'name': name, 'organization': 1})
    return svc


@pytest.fixture(scope='module', autouse=True)
def cache_dir(tmp_path_factory):
    import os
    old = os.environ.get('SERVICE_CACHE_DIR')
    os.environ['SERVICE_CACHE_DIR'] = str(tmp_path_factory.mktemp('cache'))
    yield
    if old is None:
        os.environ.pop('SERVICE_CACHE_DIR', None)
    else:
        os.environ['SERVICE_CACHE_DIR'] = old


@pytest.mark.parametrize('name', module_names())
def test_module_survives_generated_input(name, target):
    spec = dict((key, value) for key, value in argument_spec(name).items() if key not in CONNECTION)
    required = dict((key, value_for(value)) for key, value in spec.items() if value.get('required'))
    optional = dict((key, value_for(value)) for key, value in spec.items() if not value.get('required'))
    complete = st.fixed_dictionaries(required, optional=optional)
    # now and then a required option is missing too
    own = st.one_of(complete, complete, complete, st.fixed_dictionaries({}, optional=dict(required, **optional)))

    @settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
    @given(own=own, connection=connection_for(target), check_mode=st.booleans())
    def check(own, connection, check_mode):
        params = dict(connection)
        params.update(own)
        clean(run_module(name, params, check_mode=check_mode))

    check()
    record('generated parameters for the %s module' % name, EXAMPLES,
           'every run ended in a result or a fail_json with a message; no traceback', 'n/a')
