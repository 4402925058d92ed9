# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Who may do what on Automation Hub: its users, groups, custom roles and the roles of groups (``ah_user``,
``ah_group``, ``ah_role``, ``group_roles``), on the conventions of _hub.py.

Facts seen on galaxy-ng 4.9.2 (and in its source, galaxy_ng.app.api.ui.serializers.user, pulpcore's role viewsets):

* **Users** are the UI API's ``_ui/v1/users/`` (``?username=`` is exact). A user is read back with its groups as
  ``[{"id", "name"}]`` and written with them in the same form (by id or name); the password is write-only, and the
  Hub's validators refuse a short, common, numeric one or one like the username. PATCH takes any field. The Hub
  deletes no superuser (403): ansible.hub makes the user an ordinary one first, and so does ``ah_user``.
* **Groups** are Pulp's ``pulp/api/v3/groups/`` (``?name=`` exact; ``{"name", "id", "pulp_href"}``), which ansible.hub
  uses on a Hub later than 4.7.
* **Roles** are Pulp's ``pulp/api/v3/roles/`` (``?name=`` exact; known by ``pulp_href``): ``name``, ``description``,
  ``permissions`` (``<app>.<codename>``, read back sorted; an unknown one is refused), ``locked``. The roles the Hub
  ships are locked: a change or deletion of one answers 403 "The role is locked.". Any name is taken (the ``galaxy.``
  prefix ansible.hub asks for is its user interface's habit).
* **The roles of a group** are ``pulp/api/v3/groups/<id>/roles/``: ``{"role": <name>, "content_object": <an
  object's pulp_href, or null for the whole Hub>}``; the same pair twice is refused (400), a role on an object it
  carries no permission for too ("The role '<name>' does not carry any permission for that object."). Each is
  deleted at its own ``pulp_href``.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import base64

from ansible.module_utils.common.text.converters import to_bytes, to_text

from ansible_collections.automation.service.plugins.module_utils._errors import ConfigError, MultipleFound, NotFound
from ansible_collections.automation.service.plugins.module_utils._hub import (
    PULP, UI, V3, HubResource, find, href_path, hub_spec, objects, place,
)
from ansible_collections.automation.service.plugins.module_utils._plan import Plan, Write

GROUPS = PULP + 'groups/'
ROLES = PULP + 'roles/'
USERS = UI + 'users/'

# ansible.hub's short names of permissions (its ah_role's ``perms``) and the Hub's names they stand for; each of
# these names was seen to exist on galaxy-ng 4.9.2 (a role made with it).
SHORT_PERMISSIONS = {
    'add_user': 'galaxy.add_user', 'change_user': 'galaxy.change_user', 'delete_user': 'galaxy.delete_user',
    'view_user': 'galaxy.view_user',
    'add_group': 'galaxy.add_group', 'change_group': 'galaxy.change_group', 'delete_group': 'galaxy.delete_group',
    'view_group': 'galaxy.view_group',
    'add_namespace': 'galaxy.add_namespace', 'change_namespace': 'galaxy.change_namespace',
    'upload_to_namespace': 'galaxy.upload_to_namespace', 'delete_namespace': 'galaxy.delete_namespace',
    'modify_ansible_repo_content': 'ansible.modify_ansible_repo_content',
    'delete_collection': 'ansible.delete_collection', 'sign_ansiblerepository': 'ansible.sign_ansiblerepository',
}
for _kind in ('collectionremote', 'ansiblerepository'):
    for _verb in ('add', 'change', 'delete', 'view', 'manage_roles'):
        SHORT_PERMISSIONS['%s_%s' % (_verb, _kind)] = 'ansible.%s_%s' % (_verb, _kind)
SHORT_PERMISSIONS['repair_ansiblerepository'] = 'ansible.repair_ansiblerepository'
SHORT_PERMISSIONS.update({
    'change_containernamespace_perms': 'container.change_containernamespace',
    'change_container': 'container.namespace_change_containerdistribution',
    'change_image_tag': 'container.namespace_modify_content_containerpushrepository',
    'create_container': 'container.add_containernamespace',
    'push_container': 'container.namespace_push_containerdistribution',
    'namespace_add_containerdistribution': 'container.namespace_add_containerdistribution',
    'manage_roles_containernamespace': 'container.manage_roles_containernamespace',
    'delete_containerrepository': 'container.delete_containerrepository',
})
for _verb in ('add', 'change', 'delete'):
    SHORT_PERMISSIONS['%s_containerregistryremote' % _verb] = 'galaxy.%s_containerregistryremote' % _verb
for _verb in ('change', 'delete', 'view'):
    SHORT_PERMISSIONS['%s_task' % _verb] = 'core.%s_task' % _verb
EVERY = ('*', 'all')


def permissions(perms):
    """The Hub's names of ``perms`` (ansible.hub's short names, the Hub's own, ``*`` or ``all`` for every short
    one), sorted, each once. ConfigError in ansible.hub's words for a name that is neither."""
    names = set()
    for perm in perms:
        if perm in EVERY:
            names.update(SHORT_PERMISSIONS.values())
        elif perm in SHORT_PERMISSIONS:
            names.add(SHORT_PERMISSIONS[perm])
        elif '.' in perm.strip('.'):
            names.add(perm)     # the Hub's own name: the Hub says whether it has it
        else:
            raise ConfigError('Unknown perm (%s) defined' % perm)
    return sorted(names)


def as_set(value):
    return sorted(set(value or []))


def named(api, path, names, label):
    """The objects of Pulp's list at ``path`` (placed) named ``names``, by name (those that exist): one request for
    all of them with Pulp's ``name__in`` filter (pulpcore's NAME_FILTER_OPTIONS), the names compared exactly after
    it; one look-up each for a name with a comma, which that filter would split."""
    wanted = [to_text(name) for name in names]
    found = {}
    plain = sorted(set(name for name in wanted if ',' not in name and name))
    if plain:
        for obj in objects(api, path, {'name__in': ','.join(plain)}):
            if to_text(obj.get('name')) in plain:
                if to_text(obj['name']) in found:
                    raise MultipleFound('More than one %s is named %r in %s.' % (label, obj['name'], path))
                found[to_text(obj['name'])] = obj
    for name in sorted(set(name for name in wanted if ',' in name)):
        obj = find(api, path, name, 'name', label)
        if obj is not None:
            found[name] = obj
    return found


class AccessResource(HubResource):
    """A HubResource whose result is also ansible.hub's: the object's ``name``, its ``type`` (``label``) and, for
    Pulp's objects, ``href``; ``flat``: the object's fields at the top of the result too, as ansible.hub returns a
    Pulp object."""

    def __init__(self, *args, **kwargs):
        self.flat = kwargs.pop('flat', False)
        super(AccessResource, self).__init__(*args, **kwargs)

    def shown(self, obj):
        """The object as the result shows it."""
        return obj

    def said(self, api, obj):
        name = obj.get(self.name)
        api.returns(name=name, type=self.label)
        if obj.get('pulp_href'):
            api.returns(href=obj['pulp_href'])

    def returns(self, api, existing, made, plan=None):
        super(AccessResource, self).returns(api, existing, made, plan)
        if made is None:
            return
        shown = self.shown(made)
        api.returns(**{self.result_key: shown})
        if self.flat:
            api.returns(**dict((k, v) for k, v in shown.items() if k not in ('changed', 'diff')))
        self.said(api, made)

    def apply_deletion(self, api, plan):
        super(AccessResource, self).apply_deletion(api, plan)
        if plan.existing is not None:
            self.said(api, plan.existing)


# -- groups -------------------------------------------------------------------------------------------------------

GROUP = AccessResource(GROUPS, 'group', 'group', 'ah_group', flat=True)


def group_spec(argument_spec):
    return GROUP.spec(argument_spec)


# -- roles --------------------------------------------------------------------------------------------------------

class Role(AccessResource):
    """A custom role: its permissions as the Hub names them, compared as a set; a locked role (one the Hub ships)
    is never written."""

    def desired(self, api, existing):
        wanted = super(Role, self).desired(api, existing)
        if api.params.get('perms') is None:
            raise ConfigError('perms is required unless state is absent.')
        wanted['permissions'] = permissions(api.params['perms'])
        return wanted

    def plan_object(self, api, existing, desired, lists):
        if existing is None:
            return super(Role, self).plan_object(api, existing, desired, lists)
        # A role has no id (Pulp knows it by its pulp_href): its update is planned here, at its pulp_href.
        delta = api.changes(existing, desired, self.compared_as)
        if not delta:
            return Plan(existing)
        if existing.get('locked'):
            raise ConfigError('The role %s is locked (the Hub ships it): it cannot be changed.' % existing['name'])
        before = dict((key, self.compared(key, existing.get(key))) for key in delta)
        after = dict((key, self.compared(key, value)) for key, value in delta.items())
        return Plan(existing, [Write('PATCH', self.detail_path(existing), delta, before=before, after=after,
                                     makes=True, answer=dict(existing, **delta))])

    def compared(self, key, value):
        return self.compared_as[key](value) if key in self.compared_as else value

    def plan_deletion(self, api, existing):
        if existing is not None and existing.get('locked'):
            raise ConfigError('The role %s is locked (the Hub ships it): it cannot be deleted.' % existing['name'])
        return super(Role, self).plan_deletion(api, existing)


ROLE = Role(ROLES, 'role', 'role', 'ah_role', detail='pulp_href', fields=('description',),
            compared_as={'permissions': as_set}, flat=True)


def role_spec(argument_spec):
    return ROLE.spec(argument_spec)


# -- users --------------------------------------------------------------------------------------------------------

def group_names(groups):
    return sorted(to_text(group.get('name')) for group in groups or [])


def without_password(user):
    return dict((k, v) for k, v in (user or {}).items() if k != 'password')


def logs_in(api, path, username, password):
    """Whether the Hub takes ``username`` and ``password`` (Basic) for ``path`` (the UI API's ``me/``): a read as
    that user, which writes nothing. None when the Hub's answer says neither (not a 200, not a refusal)."""
    token = base64.b64encode(to_bytes('%s:%s' % (username, password), errors='surrogate_or_strict'))
    response = api.client.send('GET', path, headers={'Authorization': 'Basic ' + to_text(token)}, with_auth=False)
    if response.status == 200:
        return True
    if response.status in (401, 403):
        return False
    return None


class User(AccessResource):
    """A user: its groups by name (added to those it has, or in their place), its password set when it is new or
    when the user cannot log in with it (``update_password: always``), a superuser made an ordinary user before it
    is deleted."""

    def desired(self, api, existing):
        params = api.params
        wanted = super(User, self).desired(api, existing)
        groups = params.get('groups')
        if groups is not None or (not params['append'] and existing is not None):
            named = self.groups_named(api, groups or [])
            if params['append'] and existing is not None:
                have = set(group['id'] for group in named)
                named += [dict(id=group['id'], name=group['name']) for group in existing.get('groups') or []
                          if group.get('id') not in have]
            wanted['groups'] = named
        password = params.get('password')
        if password and existing is not None and params['update_password'] == 'always':
            me = place(api, UI + 'me/', self.module)
            if not logs_in(api, me, existing[self.name], password):
                wanted['password'] = password
        return wanted

    def groups_named(self, api, names):
        """The groups ``names`` names, as the Hub writes a user's (``{"id", "name"}``); ConfigError in ansible.hub's
        words naming those that do not exist."""
        groups = named(api, place(api, GROUPS, self.module), names, 'group')
        found, unknown = [], []
        for name in names:
            group = groups.get(to_text(name))
            if group is None:
                unknown.append(name)
            elif group['id'] not in [g['id'] for g in found]:
                found.append(dict(id=group['id'], name=group['name']))
        if unknown:
            raise ConfigError('unknown groups: %s' % ', '.join(unknown))
        return found

    def create_fields(self, api):
        fields = super(User, self).create_fields(api)
        if api.params.get('password'):
            fields['password'] = api.params['password']
        return fields

    def plan_deletion(self, api, existing):
        plan = super(User, self).plan_deletion(api, existing)
        if existing is not None and existing.get('is_superuser'):
            # the diff is the deletion's: the user is gone
            plan.writes.insert(0, Write('PATCH', self.detail_path(existing), {'is_superuser': False}))
        return plan

    def shown(self, obj):
        return without_password(obj)


USER = User(USERS, 'user', 'user', 'ah_user', name='username', filter_param='username',
            fields=('first_name', 'last_name', 'email', 'is_superuser'), secret=('password',),
            compared_as={'groups': group_names})


def user_spec(argument_spec):
    return USER.spec(argument_spec)


# -- the roles of groups ------------------------------------------------------------------------------------------

# The targets of group_roles (ansible.hub's names): where each kind of object is listed, and ansible.hub's words for
# one that is not found.
TARGETS = (
    ('collection_namespaces', V3 + 'namespaces/', 'Collection Namespace'),
    ('collection_remotes', PULP + 'remotes/ansible/collection/', 'Collection Remote'),
    ('collection_repositories', PULP + 'repositories/ansible/ansible/', 'Collection Repository'),
    ('execution_environments', PULP + 'distributions/container/container/', 'Execution Environment'),
    ('container_registery_remotes', UI + 'execution-environments/registries/', 'Container Registry Remote'),
)


def assignment(role, content_object):
    return {'role': role, 'content_object': content_object}


class GroupRoles:
    """group_roles: the roles of ``role_list`` given to (or taken from) each group of ``groups``; every name looked
    up, and every group's roles read, before the first write."""

    module = 'group_roles'

    def run(self, api):
        params = api.params
        state = params['state']
        role_list, perm_list, names = self.resolve(api, params['role_list'])
        groups_path = place(api, GROUPS, self.module)
        groups = named(api, groups_path, params['groups'], 'group')
        plans = [self.plan_group(api, groups_path, name, groups.get(to_text(name)), perm_list, names, state)
                 for name in params['groups']]
        added, removed, existing = [], [], []
        for plan, said in plans:
            api.apply(plan)
            for write in plan.sent:
                answer = plan.answers.get(write)
                if write.method == 'POST' and write.body and 'role' in write.body:
                    added.append(answer if isinstance(answer, dict) and answer.get('role') else dict(write.body))
            removed.extend(said['removed'])
            existing.extend(said['existing'])
        api.returns(added=added, removed=removed, existing=existing, perm_list=perm_list, role_list=role_list)

    def resolve(self, api, items):
        """``role_list`` with each item's ``content_urls`` (the paths of its targets), the assignments it asks for
        (``perm_list``) and the names of the objects they are on (path -> name, for the diff)."""
        role_list, perm_list, names = [], [], {}
        known_roles = named(api, place(api, ROLES, self.module),
                            [role for item in items for role in item.get('roles') or []], 'role')
        for item in items:
            item = dict(item)
            targets = item.get('targets') or {}
            urls = []
            for option, endpoint, label in TARGETS:
                path = place(api, endpoint, self.module)
                for name in targets.get(option) or []:
                    found = find(api, path, name, 'name', label)
                    if found is None or not found.get('pulp_href'):
                        raise NotFound('%s `%s` was not found' % (label, name))
                    urls.append(found['pulp_href'])
                    names[found['pulp_href']] = name
            item['content_urls'] = urls
            for role in item.get('roles') or []:
                if to_text(role) not in known_roles:
                    raise NotFound('Role `%s` was not found' % role)
                for content_object in urls or [None]:
                    wanted = assignment(role, content_object)
                    if wanted not in perm_list:
                        perm_list.append(wanted)
            role_list.append(item)
        return role_list, perm_list, names

    def plan_group(self, api, groups_path, name, group, perm_list, names, state):
        """The writes that make the group ``name`` (``group``; made when None) hold ``perm_list`` as ``state`` says,
        and what the result says of it (``removed``, ``existing``)."""
        writes, have = [], []
        if group is None:
            # made again by nobody else: should the Hub refuse one of its roles, the group goes again and the task
            # changed nothing
            writes.append(Write('POST', groups_path, {'name': name}, expect=(201,), makes=True, answer={'name': name},
                                undo=lambda made: Write('DELETE', '%s%s/' % (groups_path, made['id']),
                                                        expect=(204, 404), note='the group %s this task made was deleted again' % name)))
        else:
            have = list(objects(api, '%s%s/roles/' % (groups_path, group['id'])))
        href = group.get('pulp_href') if group else None
        held = [assignment(one['role'], one['content_object']) for one in have]
        said = {'removed': [], 'existing': []}
        for one in perm_list:
            if one in held:
                said['existing'].append({'group': name, 'group_href': href, 'perms': one})
        if state == 'absent':
            adding = []
            dropped = [one for one in have if assignment(one['role'], one['content_object']) in perm_list]
        else:
            adding = [one for one in perm_list if one not in held]
            dropped = [one for one in have
                       if state == 'enforced' and assignment(one['role'], one['content_object']) not in perm_list]

        def roles_path(made):
            return '%s%s/roles/' % (groups_path, made['id'])

        def refused_for(one):
            def refused(exc):
                where = names.get(one['content_object'], one['content_object'])
                on = ' on %s' % where if where else ''
                exc.reword('Unable to give the role %s to the group %s%s: %s' % (one['role'], name, on, exc.message))
            return refused

        for one in adding:
            writes.append(Write('POST', roles_path, dict(one), expect=(201,), answer=dict(one),
                                refused=refused_for(one)))
        for one in dropped:
            writes.append(Write('DELETE', href_path(one['pulp_href']), expect=(204, 404)))
            said['removed'].append({'group': name, 'perms': assignment(one['role'], one['content_object'])})
        if writes:
            gone = [assignment(one['role'], one['content_object']) for one in dropped]
            after = [one for one in held if one not in gone] + adding
            writes[0].before = {name: None if group is None else self.described(held, names)}
            writes[0].after = {name: self.described(after, names)}
        return Plan(group, writes), said

    @staticmethod
    def described(assignments, names):
        """The roles ``assignments`` give, as the diff says them: a role's name, and the object it is on."""
        return sorted(one['role'] if one['content_object'] is None
                      else '%s on %s' % (one['role'], names.get(one['content_object'], one['content_object']))
                      for one in assignments)


GROUP_ROLES = GroupRoles()


def group_roles_spec(argument_spec):
    return hub_spec(argument_spec)
