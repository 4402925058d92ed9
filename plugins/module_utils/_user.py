# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The user module's options and its run, shared with import (which writes users where the service keeps
them, behind a platform gateway too)."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible_collections.automation.service.plugins.module_utils._errors import ConfigError, NotFound
from ansible_collections.automation.service.plugins.module_utils._outcome import masked
from ansible_collections.automation.service.plugins.module_utils._plan import Plan, Write
from ansible_collections.automation.service.plugins.module_utils._shared_resources import (
    GATEWAY, MEMBERSHIP_ROLES, BothPlaces, Gateway, Memberships, SharedResource, at_gateway, controller_members,
    deleted, plan_absent,
)

ARGUMENT_SPEC = dict(
    username=dict(type='str', required=True),
    new_username=dict(type='str'),
    first_name=dict(type='str'),
    last_name=dict(type='str'),
    email=dict(type='str'),
    password=dict(type='str', no_log=True),
    update_password=dict(type='str', choices=['on_create', 'always'], default='on_create', no_log=False),
    update_secrets=dict(type='bool', no_log=False),
    organization=dict(type='str'),
    organizations=dict(type='list', elements='str'),
    is_superuser=dict(type='bool', aliases=['superuser']),
    is_system_auditor=dict(type='bool', aliases=['auditor']),
    is_platform_auditor=dict(type='bool'),
    associated_authenticators=dict(type='dict'),
    # deprecated as ansible.platform deprecates them (in favour of associated_authenticators): a task that gives one
    # gets the deprecation, as with its user module
    authenticators=dict(type='list', elements='str', removed_in_version='2.0.0', removed_from_collection='automation.service'),
    authenticator_uid=dict(type='str', removed_in_version='2.0.0', removed_from_collection='automation.service'),
    state=dict(type='str', choices=['present', 'absent', 'exists'], default='present'),
)
FIELDS = ('first_name', 'last_name', 'email', 'is_superuser', 'is_system_auditor')
# Behind a platform gateway: the controller's own fields (the others, username and password are the gateway's).
CONTROLLER_FIELDS = ('is_system_auditor',)


def wanted(api, existing):
    """The fields asked for, the password, and the id of the organization to create the user in."""
    params = api.params
    desired = dict((key, params[key]) for key in FIELDS if params[key] is not None)
    desired['username'] = params['new_username'] or (existing or {}).get('username') or params['username']
    password = params['password']
    always = params['update_secrets'] if params['update_secrets'] is not None else params['update_password'] == 'always'
    if existing is not None and password and always:
        desired['password'] = password
    organization = None
    if existing is None and params['organization']:
        organization = api.resolve_id('organizations', params['organization'], 'organization')
    if password and (existing is None or 'password' in desired) and not api.check_mode:
        # The service replaces the session of a request that sets a password: send it with a
        # session of this task's own, not the one other tasks share.
        api.client.own_session()
    return desired, password, organization


def missing_organizations(names, where=''):
    # ansible.platform's words for each (its user module's), then this module's: found by what, and that
    # nothing was written (ansible.platform creates the user first and removes it again)
    return NotFound('%s (%d of the organizations were not found%s, by name or id); nothing was written.'
                    % (' '.join("Organization '%s' not found. Please ensure it exists and is accessible." % name
                                for name in names), len(names), where), total_results=0)


def organizations_named(api):
    """The controller's organizations of ``organizations``, each once, in the order given; all of them found before
    the first write, the missing ones named together."""
    found, missing = [], []
    for value in api.params.get('organizations') or ():
        obj = api.lookup('organizations', value)
        if obj is None:
            missing.append(value)
        elif obj['id'] not in [org['id'] for org in found]:
            found.append(obj)
    if missing:
        raise missing_organizations(missing)
    return found


def diff_of(joined):
    """The diff of the memberships given: ``organization``'s id (a new user's), the names of ``organizations``'."""
    after = dict(('organization', org_id) for org_id, _name, option in joined if option == 'organization')
    names = [name for _org_id, name, option in joined if option == 'organizations']
    if names:
        after['organizations'] = names
    return after


def without_password(user):
    return dict((key, value) for key, value in user.items() if key != 'password')


# -- ansible.platform's options of the gateway's user: its authenticators and the Platform Auditor role -----------

AUTHENTICATOR_OPTIONS = ('associated_authenticators', 'authenticators', 'authenticator_uid')
PLATFORM_AUDITOR = 'Platform Auditor'
LOCAL_AUTHENTICATOR = 'ansible_base.authentication.authenticator_plugins.local'


def refuse_on_awx(api):
    """Against AWX (no gateway): the authenticator options fail the task before anything is written; the result of
    is_platform_auditor, AWX's is_system_auditor (the one auditor AWX has), to set as well."""
    params = api.params
    given = [option for option in AUTHENTICATOR_OPTIONS if params.get(option) is not None]
    if given:
        raise ConfigError('%s need%s an Automation Platform gateway (2.5 or later): the service at %s is AWX, which has '
                          'no authenticators linked to its users (the gateway\'s /api/gateway/v1/users/ takes them); '
                          'nothing was written.' % (', '.join(given), 's' if len(given) == 1 else '',
                                                    api.client.base_url))
    auditor = params.get('is_platform_auditor')
    if auditor is None:
        return {}
    if params.get('is_system_auditor') is not None and params['is_system_auditor'] != auditor:
        raise ConfigError('is_platform_auditor is AWX\'s is_system_auditor on a service without a platform gateway, '
                          'and the two options given differ; nothing was written.')
    return {'is_system_auditor': auditor}


def gateway_authenticators(api, values, option, name_field='name'):
    """The gateway's authenticators named (by id, or by ``name_field``) in ``values``, one for each, in that order;
    all of them found before the first write, the missing ones named together."""
    path = api.client.layout.gateway_path('authenticators')
    found, missing = [], []
    for value in values:
        obj = api.lookup(path, str(value).strip(), name_field, label='authenticator')
        if obj is None:
            missing.append(value)
        found.append(obj)
    if missing:
        raise NotFound('%d of the authenticators of %s were not found at the platform gateway (%s, by id or name): %s; '
                       'nothing was written.' % (len(missing), option, path, ', '.join(repr(value) for value in missing)),
                       total_results=0)
    return found


def current_links(api, user):
    """The user's links as the gateway shows them: {authenticator id (text), or its slug: {'uid': ..., 'email': ...}}.
    A gateway whose users show associated_authenticators shows them there. The platform's published schemas (2.6,
    2.7) make the user's three link fields write-only: such a gateway's users are read through its
    ``authenticator_users/`` (django-ansible-base's links: ``provider`` the authenticator's slug, ``uid``; no
    e-mail), one request."""
    user = user or {}
    if 'associated_authenticators' in user:
        shown = user.get('associated_authenticators') or {}
        return dict((str(key), dict(value)) for key, value in shown.items() if isinstance(value, dict))
    if user.get('id') is None:
        return {}
    path = api.client.layout.gateway_path('authenticator_users')
    links = {}
    for link in api.client.iterate(path, {'user': user['id'], 'page_size': 200}):
        provider = link.get('provider')
        if isinstance(provider, dict):
            provider = provider.get('slug', provider.get('id'))
        if provider is not None:
            links[str(provider)] = {'uid': link.get('uid')}
    return links


def keyed_by_id(api, current, objects):
    """``current`` (current_links()) keyed by authenticator id where a link names its authenticator by slug: those of
    ``objects`` (the authenticators the task names), the others read in one request."""
    ids = dict((str(obj.get('slug')), str(obj['id'])) for obj in objects if obj.get('slug') is not None)
    unknown = sorted(key for key in current if key not in ids and not key.isdigit())
    if unknown:
        path = api.client.layout.gateway_path('authenticators')
        page = api.client.get(path, params={'slug__in': ','.join(unknown), 'page_size': 200})
        ids.update((str(obj.get('slug')), str(obj['id'])) for obj in (page or {}).get('results', ()))
    return dict((ids.get(key, key), value) for key, value in current.items())


def compared(wanted, current, emails_shown):
    """``wanted`` as ``current`` can show it: without the e-mails when the gateway does not show them."""
    if emails_shown:
        return wanted
    return dict((key, dict((k, v) for k, v in link.items() if k != 'email')) for key, link in wanted.items())


def unique(objects):
    """``objects`` each once (by id), in the order given."""
    found = []
    for obj in objects:
        if obj['id'] not in [known['id'] for known in found]:
            found.append(obj)
    return found


def links_wanted(api, username, current):
    """The links the task asks for: (the body the gateway's user takes, the links it then shows, the authenticators
    named); ``current``: the user's links (current_links()). Every authenticator is found and the body checked
    before the first write."""
    params = api.params
    if params.get('associated_authenticators') is not None:
        wanted = {}
        named = list(params['associated_authenticators'].items())
        objects = gateway_authenticators(api, [key for key, _value in named], 'associated_authenticators')
        for (key, value), obj in zip(named, objects):
            if not isinstance(value, dict) or not value.get('uid'):
                raise ConfigError('associated_authenticators: authenticator %r needs a uid ({"uid": ..., "email": ...}).'
                                  % (key,))
            unknown = sorted(set(value) - set(('uid', 'email')))
            if unknown:
                raise ConfigError('associated_authenticators: authenticator %r has %s; only uid and email are taken.'
                                  % (key, ', '.join(unknown)))
            link = {'uid': str(value['uid'])}
            if obj.get('type') == LOCAL_AUTHENTICATOR and link['uid'] != username:
                api.warn('The uid of the local authenticator %s is the username (%s); %r is not taken.'
                         % (obj.get('name'), username, link['uid']))
                link['uid'] = username
            if value.get('email'):
                link['email'] = str(value['email'])
            wanted[str(obj['id'])] = link
        if len(wanted) != len(named):
            raise ConfigError('associated_authenticators names one authenticator twice (by id and by name).')
        return {'associated_authenticators': wanted}, wanted, objects
    # ansible.platform's deprecated pair, sent as the gateway takes it: the links not listed go, one new one is
    # linked with the uid (here also set on the listed ones the user has)
    uid = params.get('authenticator_uid')
    if params.get('authenticators') is not None:
        objects = unique(gateway_authenticators(api, params['authenticators'], 'authenticators'))
    else:   # the uid alone: of the links the user has
        if not current:
            # as with ansible.platform's module, the task goes on (the gateway would link nothing with it)
            api.warn('authenticator_uid is not sent: it sets the uid of the user\'s authenticators, and user %s has '
                     'none (name them in authenticators, or use associated_authenticators).' % username)
            return {}, {}, []
        # the user's links: by authenticator id where the user shows them, else by slug (authenticator_users/)
        keys = sorted(current)
        by_id = all(key.isdigit() for key in keys)
        objects = gateway_authenticators(api, sorted(keys, key=int) if by_id else keys, 'authenticator_uid',
                                         'name' if by_id else 'slug')
    current = keyed_by_id(api, current, objects)
    new = [obj for obj in objects if str(obj['id']) not in current]
    if not objects and uid:
        raise ConfigError('authenticators is empty, which removes the user\'s links: the gateway takes no '
                          'authenticator_uid with it.')
    if len(new) > 1:
        raise ConfigError('The gateway links one new authenticator at a time with authenticators and authenticator_uid '
                          '(%s are new to user %s): use associated_authenticators, with a uid for each.'
                          % (', '.join(str(obj.get('name')) for obj in new), username))
    if new and not uid:
        raise ConfigError('authenticator_uid is needed to link user %s to authenticator %s.'
                          % (username, new[0].get('name')))
    wanted = {}
    for obj in objects:
        key = str(obj['id'])
        link = dict(current.get(key) or {})
        if obj.get('type') == LOCAL_AUTHENTICATOR:
            link['uid'] = username
        elif uid:
            link['uid'] = uid
        wanted[key] = link
    body = {'authenticators': [obj['id'] for obj in objects]}
    if uid and objects:
        body['authenticator_uid'] = uid
    return body, wanted, objects


def plan_links(api, found, username):
    """(the fields a new user is created with, the write that changes a user's links, None when it has them)."""
    params = api.params
    if all(params.get(option) is None for option in ('associated_authenticators', 'authenticators', 'authenticator_uid')):
        return {}, None
    shown = current_links(api, found) if found is not None else {}
    body, wanted, objects = links_wanted(api, username, shown)
    if found is None:
        return body, None
    current = keyed_by_id(api, shown, objects)
    if compared(wanted, current, 'associated_authenticators' in found) == current:
        return {}, None
    write = at_gateway(Write('PATCH', found['url'], body,
                             before={'associated_authenticators': current}, after={'associated_authenticators': wanted}),
                       'change the authenticators of user %s' % username)
    return {}, write


def plan_platform_auditor(api, memberships, found):
    """The definition of the Platform Auditor role, and the user's assignment of it (None when it has none), when
    is_platform_auditor is given; else (None, None)."""
    if api.params.get('is_platform_auditor') is None:
        return None, None
    definition = memberships.definition(PLATFORM_AUDITOR)
    assignment = None
    if found is not None:
        assignment = api.get_one(memberships.endpoint('user'), role_definition=definition['id'], user=found['id'])
    return definition, assignment


def auditor_writes(api, memberships, definition, assignment, user):
    """Give the Platform Auditor role assignment (system-wide: no object) when it is missing, or take it back."""
    if definition is None:
        return []
    giving = api.params['is_platform_auditor']
    label = '%s (user %s)' % (PLATFORM_AUDITOR, user.get('username'))
    said = dict(before={'is_platform_auditor': not giving}, after={'is_platform_auditor': giving})
    if giving and assignment is None:
        body = {'role_definition': definition['id'], 'user': user.get('id')}
        return [at_gateway(Write('POST', memberships.endpoint('user'), body, expect=(200, 201), answer=body, **said),
                           'give %s' % label)]
    if not giving and assignment is not None:
        return [memberships.revoke_write(assignment, label, **said)]
    return []


def joins(api, existing, organizations):
    """The writes that attach the user (``existing``; None: the one the plan's first write makes) to the users of
    ``organizations``."""
    def the_user_made(made):
        return {'id': made['id']}

    body = the_user_made if existing is None else {'id': existing['id']}
    writes = [Write('POST', 'organizations/%d/users' % org['id'], body, expect=(204,)) for org in organizations]
    if writes:
        writes[0].after = diff_of([(org['id'], org['name'], 'organizations') for org in organizations])
    return writes


class User(SharedResource):
    """The user, found by username (or new_username) at the controller, as awx.awx finds it. Its password is sent
    only on creation or when update_secrets (update_password always) asks for it, over a session of the task's own;
    a user made in an organization is posted to that organization's users.

    Behind a platform gateway (placed()), the user is the gateway's (its username, password, names, e-mail,
    is_superuser and authenticators are written there, and it is deleted there); is_system_auditor is the controller's
    copy's. The memberships of organizations (``organization``'s of a new user, ``organizations``') and
    is_platform_auditor are the gateway's role assignments, the memberships then shown in the controller's copy's lists
    of the organizations' users."""

    def read_ahead(self, api):
        """Nothing for a loop's shared reads to count: the user's look-up is the task's own."""

    def plan(self, api):
        params = api.params
        existing = self.find(api)   # the controller's (see run())
        if self.placed_at == GATEWAY:
            return self.plan_at_gateway(api, existing)
        if params['state'] == 'absent':
            return api.plan_absent(existing)
        more = refuse_on_awx(api)   # before anything is written
        if params['state'] == 'exists' and existing is not None:
            return Plan(existing)
        desired, password, organization = wanted(api, existing)
        desired.update(more)
        joining = [org for org in organizations_named(api) if org['id'] != organization and (
            existing is None or api.get_one('organizations/%d/users' % org['id'], username=existing['username']) is None)]
        # A user made in an organization is posted to its users (as awx.awx does): its admins may.
        plan = api.plan_present(existing, desired, create=lambda: {'password': password} if password else {},
                                secret=('password',),
                                endpoint=None if organization is None else 'organizations/%d/users' % organization)
        if organization is not None:
            plan.writes[0].after = dict(plan.writes[0].after, organization=organization)
        plan.add(*joins(api, existing, joining))
        if joining and existing is None:
            # all or nothing, as ansible.platform: a user made by the task is deleted again when one is refused
            plan.writes[0].undo = lambda made: Write(
                'DELETE', api.detail_path(made), expect=(202, 204, 404),
                note='the user %s made by this task was deleted again' % made.get('username'))
        return plan

    def plan_at_gateway(self, api, copy):
        """Behind a platform gateway: the plan of the user at both places (BothPlaces), every name resolved first;
        ``copy``: the controller's user."""
        params = api.params
        gateway = Gateway(api, 'users', 'username')
        found = gateway.find(*([copy['username']] if copy else [params['username'], params['new_username']]))
        if params['state'] == 'absent':
            return plan_absent(api, copy, found, 'username')
        if params['state'] == 'exists' and (copy or found) is not None:
            return Plan(copy or found)
        desired, password, organization = wanted(api, found)
        shared = dict((key, value) for key, value in desired.items() if key not in CONTROLLER_FIELDS)
        local = dict((key, value) for key, value in desired.items() if key in CONTROLLER_FIELDS)
        # joining: (the controller's organization's id, its name, the option naming it, the gateway's organization)
        joining, memberships, definition = [], None, None
        named = [] if organization is None else [
            (organization, api.client.get('organizations/%d' % organization)['name'], 'organization')]
        named += [(org['id'], org['name'], 'organizations') for org in organizations_named(api)
                  if org['id'] != organization]
        if named:
            # Each membership is the gateway's role assignment (Organization Member), its names resolved before
            # writing.
            memberships = Memberships(api)
            definition = memberships.definition(MEMBERSHIP_ROLES['organization', 'member_role'])
            targets, missing = [], []
            for org_id, name, option in named:
                try:
                    targets.append((org_id, name, option, memberships.organization(name)))
                except NotFound:
                    missing.append(name)
            if missing:
                raise missing_organizations(missing, ' at the platform gateway')
            # only those the gateway's user does not have yet (a new user has none)
            joining = [item for item in targets
                       if found is None or memberships.find('user', definition, found, item[3]) is None]
        # ansible.platform's authenticators of the user and its Platform Auditor role, resolved before the first write
        created_with, links_write = plan_links(api, found, desired['username'])
        if params.get('is_platform_auditor') is not None and memberships is None:
            memberships = Memberships(api)
        auditor, assignment = plan_platform_auditor(api, memberships, found)

        def member(user):
            """The user's authenticators and Platform Auditor role when they differ, and its memberships of the
            organizations it is not a member of yet."""
            writes = [links_write] if links_write is not None else []
            writes += auditor_writes(api, memberships, auditor, assignment, user)
            for index, (org_id, name, _option, target) in enumerate(joining):
                # the first grant shows every organization joined in the diff
                shown = {'after': diff_of([item[:3] for item in joining])} if index == 0 else {}
                writes.append(memberships.grant_write(
                    'user', definition, user, target, '%s of organization %s (user %s)'
                    % (definition['name'], name, user.get('username')),
                    # then among the controller's users of the organization (AWX 24.6.1 does not list it)
                    then=lambda made, org_id=org_id: controller_members(
                        api, definition['name'], {'id': org_id}, both.objects.get('controller') or {}, True),
                    **shown))
            return writes

        def create():
            fields = dict(created_with)
            if password:
                fields['password'] = password
            return fields

        both = self.both = BothPlaces(api, gateway, copy, found, 'user', ('password',))
        return both.plan(shared, local, lambda: api.lookup('users', shared['username'], 'username'),
                         create=create, at_gateway_after=member, needs_copy=bool(local or joining))

    def apply_deletion(self, api, plan):
        """The deletion sent: behind a gateway, at the gateway (deleted()); else as awx.awx deletes."""
        if self.placed_at == GATEWAY:
            deleted(api, plan)
        else:
            api.apply_absent(plan)

    def returns(self, api, existing, made, plan=None):
        """awx.awx's result (the password masked), ``user`` without it; behind a gateway, the controller's copy and
        where the task wrote."""
        if api.params['state'] == 'exists' and existing is not None:     # found: kept as it is
            api.returns_object(existing, made)
            if self.placed_at == GATEWAY:
                api.returns(user=without_password(made), written_at=[])
            return
        if self.placed_at != GATEWAY:
            api.returns(user=without_password(api.returns_object(existing, made, ('password',))))
            return
        both = self.both
        user = both.objects['controller']
        api.returns(id=user.get('id'), existing={} if both.new else masked(both.copy or both.found, ('password',)),
                    end_state=masked(user, ('password',)), user=without_password(user), written_at=plan.written_at())
        if both.new:
            api.returns_created(user)


RESOURCE = User('users', 'user', 'user', name='username')
SPEC = RESOURCE.spec(ARGUMENT_SPEC, mutually_exclusive=[('associated_authenticators', 'authenticators'),
                                                        ('associated_authenticators', 'authenticator_uid')])
run = RESOURCE.run
