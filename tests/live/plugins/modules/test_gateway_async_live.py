"""A gateway module in an async loop, against the reference service in the gateway's layout: the worker counts
each item's look-up before it forks the item's job (Resource.read_ahead, see _loop_reads), at the gateway's path
of the object, as the job then looks it up; no request goes to a path the gateway does not serve."""

from ...playbook import run_playbook
from .gateway_helpers import GW, gateway, tag  # noqa: F401 (the fixture)


def test_an_async_loop_of_http_ports_looks_them_up_at_the_gateway_only(gateway, tmp_path):
    prefix = 'async-%s' % tag()
    names = ['%s-%d' % (prefix, i) for i in range(3)]
    numbers = dict((name, 41000 + int(tag(), 16) % 20000 + i) for i, name in enumerate(names))
    loop = {'name': 'Ports, each in a job', 'automation.service.http_port': {
        'name': '{{ item }}', 'number': '{{ numbers[item] }}'},
        'loop': names, 'async': 120, 'poll': 0, 'register': 'jobs'}
    wait = {'name': 'Wait', 'ansible.builtin.async_status': {'jid': '{{ item.ansible_job_id }}'},
            'loop': '{{ jobs.results }}', 'register': 'done', 'until': 'done.finished', 'retries': 60, 'delay': 1}
    defaults = {'service_url': gateway.url, 'ca_path': str(gateway.ca_path),
                'service_username': gateway.admin_username, 'service_password': gateway.admin_password}
    mark = gateway.mark()
    code, output = run_playbook(tmp_path, [{'name': 'numbers', 'ansible.builtin.set_fact': {'numbers': numbers}},
                                           loop, wait], module_defaults=defaults)
    assert code == 0, output
    paths = [e['path'] for e in gateway.since(mark)]
    assert [p for p in paths if 'http_ports' in p and not p.startswith(GW)] == [], paths
    made = [e for e in gateway.since(mark) if (e['method'], e['path']) == ('POST', GW + 'http_ports/')]
    assert len(made) == 3, paths
