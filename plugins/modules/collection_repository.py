#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
module: collection_repository
short_description: Create, update or delete a collection repository of Automation Hub, and its distribution
version_added: 0.5.0
description:
  - Makes a collection repository of Automation Hub (Pulp's C(repositories/ansible/ansible/)) match the options
    given, and with O(distribution) the distribution that serves it to clients (Pulp's
    C(distributions/ansible/ansible/)), whose base path is its name.
  - Options not given are left alone, but for those with a default, which are sent as their default.
  - With O(update_repo), syncs the repository from its remote afterwards, as
    M(automation.service.collection_repository_sync) does.
  - Takes the options of ansible.hub's C(collection_repository) module. Unlike it, a repository keeps its remote
    when O(remote) is not given, O(state=absent) also deletes the distributions that serve the repository, and a
    diff says what changed.
author:
  - automation.service maintainers (@automation-service)
options:
  name:
    description:
      - Name of the repository.
    type: str
    required: true
  description:
    description:
      - Description of the repository. V('') takes it away.
    type: str
  retain_repo_versions:
    description:
      - How many versions of the repository the Hub keeps (1 or more).
      - V(0), the default, leaves it as the Hub has it. galaxy-ng gives a new repository 1, and its deletion of
        collection versions counts on it, so unlike ansible.hub (whose V(0) asks for every version, which galaxy-ng
        4.9 turns into 1 when it creates the repository) the module does not ask for every version.
    type: int
    default: 0
  pulp_labels:
    description:
      - The labels of the repository (names and text values). The repository gets exactly the labels given; V({})
        takes them all away. A label whose value is null is left out.
      - The Hub gives two a meaning. C(pipeline) is the role of the repository in the approval pipeline, V(approved),
        V(staging) or V(rejected) (collections are approved by moving them to an V(approved) repository);
        C(hide_from_search), present (even as V('')), keeps the repository's collections out of the Hub's search.
    type: dict
  distribution:
    description:
      - The distribution that serves the repository. Content of a repository that no distribution serves cannot be
        synced, downloaded nor searched by clients.
      - Given, even as V({}), it names a distribution (the repository's name by default); ansible.hub reads V({}) as
        no distribution.
    type: dict
    suboptions:
      name:
        description:
          - Name and base path of the distribution; the repository's name when not given.
        type: str
      state:
        description:
          - V(present) creates or updates the distribution, V(absent) deletes it.
        type: str
        choices: [present, absent]
        default: present
  private:
    description:
      - Whether the repository is private.
    type: bool
    default: false
  remote:
    description:
      - The name of the collection remote (M(automation.service.collection_remote)) the repository syncs from.
      - V('') takes the remote away. Not given, the repository keeps the remote it has.
    type: str
  update_repo:
    description:
      - Whether to sync the repository from its remote once it is as the options say. With O(wait), the sync is a
        change only when it brought something new, as with M(automation.service.collection_repository_sync).
    type: bool
    default: false
  wait:
    description:
      - With O(update_repo), wait for the sync to end, and fail when it failed.
    type: bool
    default: true
  interval:
    description:
      - With O(update_repo) and O(wait), seconds between two reads of the sync's task.
    type: float
    default: 1
  timeout:
    description:
      - With O(update_repo) and O(wait), seconds to wait for the sync before failing; no limit when not given.
    type: int
  state:
    description:
      - V(present) creates or updates the repository, V(absent) deletes it and the distributions that serve it.
    type: str
    choices: [present, absent]
    default: present
notes:
  - The Hub applies a change or a deletion of a repository or a distribution in a task; the module waits for it.
extends_documentation_fragment:
  - automation.service.hub
  - automation.service.auth
  - automation.service.attributes
'''

EXAMPLES = r'''
- name: A repository of approved content, served at its name, synced from the community remote
  automation.service.collection_repository:
    name: certified-mirror
    description: Collections taken from Ansible Galaxy
    pulp_labels:
      pipeline: approved
    distribution:
      name: certified-mirror
    remote: community
    update_repo: true
    ah_host: https://hub.example.com
    ah_username: admin
    ah_password: "{{ hub_admin_password }}"

- name: A repository hidden from search
  automation.service.collection_repository:
    name: quarantine
    pulp_labels:
      pipeline: rejected
      hide_from_search: ""

- name: Remove a repository and its distribution
  automation.service.collection_repository:
    name: certified-mirror
    state: absent
'''

RETURN = r'''
name:
  description: Name of the repository.
  returned: always
  type: str
  sample: certified-mirror
href:
  description: The repository's C(pulp_href), its path in the Hub's Pulp API.
  returned: when the repository exists or existed (not for one check mode would create)
  type: str
  sample: /api/galaxy/pulp/api/v3/repositories/ansible/ansible/01a22aab-54a8-7a05-9d37-470b9df5d6f2/
type:
  description: What the object is, V(collection repository).
  returned: always
  type: str
  sample: collection repository
remote:
  description: The repository's fields as the Hub returns them, at the top of the result as ansible.hub returns
    them; this is one of them, the C(pulp_href) of its remote.
  returned: with O(state=present)
  type: str
  sample: /api/galaxy/pulp/api/v3/remotes/ansible/collection/01a22aab-52d8-7615-86b1-eeceada3212d/
distribution:
  description: The distribution O(distribution) names, as the Hub returns it (C(client_url) is where clients find
    the repository's content); null when deleted.
  returned: with O(distribution) and O(state=present)
  type: dict
  sample: {"name": "certified-mirror", "base_path": "certified-mirror",
           "client_url": "https://hub.example.com/pulp_ansible/galaxy/certified-mirror/"}
sync_status:
  description: With O(update_repo), V(Complete) once the sync ended (with O(wait)), else V(Started).
  returned: with O(update_repo)
  type: str
  sample: Complete
task:
  description: With O(update_repo), the C(pulp_href) of the sync's task.
  returned: with O(update_repo), when not in check mode
  type: str
  sample: /api/galaxy/pulp/api/v3/tasks/01a22aab-56bf-78a3-8271-937a2bff8dc9/
'''

from ansible.module_utils.common.text.converters import to_text

from ansible_collections.automation.service.plugins.module_utils import _hub_repositories as repos
from ansible_collections.automation.service.plugins.module_utils._hub import href_path, hub_spec, objects, place
from ansible_collections.automation.service.plugins.module_utils._plan import Plan, Write
from ansible_collections.automation.service.plugins.module_utils._resource import STATE

MODULE = 'collection_repository'

ARGUMENT_SPEC = dict(
    name=dict(type='str', required=True),
    description=dict(type='str'),
    retain_repo_versions=dict(type='int', default=0),
    pulp_labels=dict(type='dict'),
    distribution=dict(type='dict', options=dict(
        name=dict(type='str'),
        state=dict(type='str', choices=['present', 'absent'], default='present'),
    )),
    private=dict(type='bool', default=False),
    remote=dict(type='str'),
    update_repo=dict(type='bool', default=False),
    wait=dict(type='bool', default=True),
    interval=dict(type='float', default=1.0),
    timeout=dict(type='int'),
    state=STATE,
)


def labels(value):
    """Labels as the Hub keeps them: text values, those given as null left out (the Hub refuses them)."""
    return dict((to_text(k), to_text(v)) for k, v in (value or {}).items() if v is not None)


NORMALIZE = {'description': repos.stripped, 'pulp_labels': labels}


def desired(api):
    params = api.params
    fields = {'private': params['private']}
    if params['retain_repo_versions']:
        fields['retain_repo_versions'] = params['retain_repo_versions']
    if params.get('description') is not None:
        fields['description'] = repos.stripped(params['description'])
    if params.get('pulp_labels') is not None:
        fields['pulp_labels'] = labels(params['pulp_labels'])
    if params.get('remote') is not None:
        fields['remote'] = repos.remote_href(api, MODULE, params['remote'])
    return fields


def plan_repository(api, existing):
    params = api.params
    fields = desired(api)
    if existing is None:
        body = dict(fields, name=params['name'])
        return Plan(None, [Write('POST', place(api, repos.REPOSITORIES, MODULE), body, expect=(201,), before={},
                                 after=body, makes=True, answer=body)])
    return repos.plan_update(api, MODULE, existing, fields, NORMALIZE)


def plan_distribution(api, repository, distribution, kept):
    """The writes that make the distribution the options name serve the repository (``repository``: None while
    the plan makes it), or delete it. ``distribution``: the one of that name found. ``kept['distribution']`` is
    the distribution the task ends with: as the Hub answers it once written, as it would be in check mode (the
    executor keeps only the repository as made)."""
    given = api.params['distribution']
    name = given.get('name') or api.params['name']

    def keep(obj):
        kept['distribution'] = obj
        return obj

    if given['state'] == 'absent':
        keep(None)
        return repos.plan_delete(api, MODULE, distribution, 'collection distribution', under=('distribution',))
    wanted = {'name': name, 'base_path': name}
    if distribution is None:
        def created(answer):
            repos.task_ended(api, MODULE, answer)
            return keep(repos.find_named(api, MODULE, repos.DISTRIBUTIONS, name, 'collection distribution'))

        keep(dict(wanted, repository=(repository or {}).get('pulp_href')))
        return Plan(None, [Write('POST', place(api, repos.DISTRIBUTIONS, MODULE),
                                 lambda made: dict(wanted, repository=made.get('pulp_href')), expect=(201, 202),
                                 before={'distribution': None}, after={'distribution': wanted},
                                 answer=kept['distribution'], settle=created)])
    wanted = {'base_path': name, 'repository': (repository or {}).get('pulp_href')}
    keep(distribution)
    if repository is not None and not repos.changed_fields(distribution, wanted, {}):
        return Plan(distribution)
    href = href_path(distribution['pulp_href'])
    keep(dict(distribution, **wanted))
    return Plan(distribution, [Write(
        'PATCH', href, lambda made: {'base_path': name, 'repository': made.get('pulp_href')}, expect=(200, 202),
        before={'distribution': dict((k, distribution.get(k)) for k in wanted)}, after={'distribution': wanted},
        answer=kept['distribution'], settle=lambda answer: keep(repos.settled_object(api, MODULE, answer, href)))])


def serving(api, repository):
    """The distributions that serve ``repository``."""
    if repository is None:
        return []
    return list(objects(api, place(api, repos.DISTRIBUTIONS, MODULE), {'repository': repository['pulp_href']}))


def run(api):
    params = api.params
    name = params['name']
    existing = repos.find_named(api, MODULE, repos.REPOSITORIES, name, 'collection repository')
    given = params.get('distribution')
    distribution = None
    if given is not None:
        distribution = repos.find_named(api, MODULE, repos.DISTRIBUTIONS, given.get('name') or name,
                                        'collection distribution')
    if params['state'] == 'absent':
        plan = Plan(existing)
        gone = serving(api, existing)
        if distribution is not None and distribution['pulp_href'] not in [d['pulp_href'] for d in gone]:
            gone.append(distribution)
        for each in gone:
            plan.extend(repos.plan_delete(api, MODULE, each, 'collection distribution',
                                          under=('distributions', each['name'])))
        plan.extend(repos.plan_delete(api, MODULE, existing, 'collection repository'))
        api.apply(plan)
        api.returns(**repos.hub_result({} if existing is None else {'pulp_href': existing['pulp_href']},
                                       'collection repository', name))
        return
    plan = plan_repository(api, existing)
    kept = {'distribution': distribution}
    if given is not None:
        plan.extend(plan_distribution(api, existing, distribution, kept))
    made = api.apply(plan)
    result = repos.hub_result(made, 'collection repository', name)
    if given is not None:
        result['distribution'] = kept['distribution']
    api.returns(**result)
    if params['update_repo']:
        api.returns(**repos.sync(api, MODULE, made, name, params['wait'], params['interval'], params['timeout']))


SPEC = hub_spec(ARGUMENT_SPEC)


def main():
    SPEC.main(run)


if __name__ == '__main__':
    main()
