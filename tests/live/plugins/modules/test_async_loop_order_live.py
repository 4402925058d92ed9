"""An async loop whose later items name what its earlier items make (infra.aap_configuration's
inventories role: a constructed inventory naming an input inventory made by an earlier item of the
same async loop). The jobs run side by side, so a later job may look before the earlier one's write
has landed; it then looks once more after the earlier jobs of the loop have ended, as an unhurried
loop would have found it. The service takes a moment for each group it makes (its fault middleware
delays the POST), so that the later jobs look first. Real ansible-playbook, real service."""

import uuid

from ...playbook import run_playbook, service_defaults

CHAIN = 5
RUNS = 3


def test_an_async_loop_whose_later_items_name_earlier_ones_never_fails(svc, tmp_path):
    defaults = service_defaults(svc, service_username=svc.admin_username, service_password=svc.admin_password)
    svc.set_faults({'fault': 'delay', 'seconds': 1.0, 'path': '/api/v2/groups/', 'method': 'POST'})
    try:
        for run in range(RUNS):
            name = 'order-%d-%s' % (run, uuid.uuid4().hex[:6])
            status, inv = svc.admin_request('POST', '/api/v2/inventories/', {'name': name, 'organization': 1})
            assert status == 201, inv
            # Each group (but the first) names the one the item before it makes as its child.
            items = [{'name': '%s-g%d' % (name, n), 'children': ['%s-g%d' % (name, n - 1)] if n else []}
                     for n in range(CHAIN)]
            tasks = [
                {'name': 'groups', 'automation.service.group': {
                    'name': '{{ item.name }}', 'inventory': name, 'children': '{{ item.children }}'},
                 'loop': items, 'async': 120, 'poll': 0, 'register': 'started'},
                {'name': 'wait', 'ansible.builtin.async_status': {'jid': '{{ item.ansible_job_id }}'},
                 'loop': '{{ started.results }}', 'register': 'ended', 'until': 'ended.finished',
                 'retries': 300, 'delay': 0.5},
            ]
            workdir = tmp_path / str(run)
            workdir.mkdir()
            rc, output = run_playbook(workdir, tasks, module_defaults=defaults)
            assert rc == 0, output
            for n in range(1, CHAIN):
                status, group = svc.admin_request('GET', '/api/v2/groups/?name=%s-g%d' % (name, n))
                children = svc.admin_request('GET', '/api/v2/groups/%d/children/' % group['results'][0]['id'])[1]
                assert [c['name'] for c in children['results']] == ['%s-g%d' % (name, n - 1)]
    finally:
        svc.set_faults()
