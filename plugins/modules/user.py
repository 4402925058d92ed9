#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
module: user
short_description: Create, update or delete a user of the service
version_added: 0.1.0
description:
  - Makes a user of the service match the fields given; fields not given are left alone.
  - The service never shows a password, so it cannot be compared. With O(update_password=on_create) (the
    default) the password is set only when the user is created, and re-runs stay unchanged; with
    O(update_password=always) it is sent on every run, which always reports a change.
  - Behind an Automation Platform platform gateway (see O(service_layout)), the gateway keeps the users; the username,
    password, names, e-mail and O(is_superuser) are written at the gateway (C(/api/gateway/v1/users/)), and the user is
    created and deleted there. O(is_system_auditor) is the controller's own and is written at the controller's copy
    of the user. The memberships of O(organization) and O(organizations) are the gateway's role assignments of
    C(Organization Member); a controller that does not list the user among the organization's users then (AWX 24.6.1
    shows the gateway's memberships as its role assignments only) is given it there too. The authenticators
    (O(associated_authenticators), O(authenticators), O(authenticator_uid)) are fields of the gateway's user, and
    O(is_platform_auditor) its role assignment of C(Platform Auditor). RV(written_at) says where the task wrote.
  - Every name (organizations, authenticators, the role definition) is looked up before anything is written.
author:
  - automation.service maintainers (@automation-service)
options:
  username:
    description:
      - The user's username.
    type: str
    required: true
  new_username:
    description:
      - Rename the user to this username. Running the task again after the rename finds the user by it.
    type: str
  first_name:
    description:
      - First name.
    type: str
  last_name:
    description:
      - Last name.
    type: str
  email:
    description:
      - E-mail address.
    type: str
  password:
    description:
      - The user's password; see O(update_password).
    type: str
  update_password:
    description:
      - V(on_create) sets O(password) only when creating the user; V(always) sets it on every run.
    type: str
    choices: [on_create, always]
    default: on_create
  update_secrets:
    description:
      - awx.awx's switch for the same choice; when given, V(true) is O(update_password=always) and V(false) is
        O(update_password=on_create).
      - awx.awx's default is V(true); here a password is set only when the user is created unless one of the two
        options says otherwise.
    type: bool
  organization:
    description:
      - An organization, by name or id, the user is made a member of when created (the user is created through the
        organization's list of users, as awx.awx does, so that an organization admin may create it). A user found
        is left in its organizations.
      - Behind a platform gateway the user is created at the gateway and made a member of the organization there, by
        the gateway's role assignment of C(Organization Member) (the controller refuses to change memberships); then
        added to the controller's copy's users of the organization when they do not list it (as AWX 24.6.1, which
        takes that, does not).
    type: str
  organizations:
    description:
      - Organizations, by name or id, the user is made a member of when it is not one yet (ansible.platform's option
        of its C(user) module, which deprecates it in favour of its C(role_user_assignment) module; here
        M(automation.service.role_user_assignment) and M(automation.service.role) give memberships too).
      - Only adds; the user's memberships of organizations not named are left as they are, and none is ever taken back
        (M(automation.service.role) with O(automation.service.role#module:state=absent) does that).
      - Every organization is looked up before anything is written; when any is missing, the task fails naming all of
        them and writes nothing. A user created by the task is deleted again when a membership is refused.
      - Against AWX the user is attached to the organization's users (C(/api/v2/organizations/<id>/users/)). Behind a
        platform gateway each membership is the gateway's role assignment of C(Organization Member)
        (C(/api/gateway/v1/role_user_assignments/)), given only when the user does not have it yet; then the user is
        attached to the controller's users of the organization when they do not list it. An id names the
        controller's organization, whose namesake at the gateway is the one given.
      - The diff shows the organizations the user is added to. Not with O(state=absent); with O(state=exists), only
        when the task creates the user.
    type: list
    elements: str
  is_superuser:
    description:
      - Whether the user is a system administrator.
    type: bool
    aliases: [superuser]
  is_system_auditor:
    description:
      - Whether the user is a system auditor (reads everything).
    type: bool
    aliases: [auditor]
  is_platform_auditor:
    description:
      - Whether the user is a platform auditor (ansible.platform's option of its C(user) module, which deprecates it in
        favour of its C(role_user_assignment) module). Its alias there, C(auditor), is O(is_system_auditor)'s here.
      - Behind a platform gateway, the gateway's system-wide role assignment of C(Platform Auditor)
        (C(/api/gateway/v1/role_user_assignments/), without an object) is given when V(true) and the user does not
        have it, and taken back when V(false) and the user has it. The gateway has to have that role definition;
        without it the task fails before it writes anything.
      - Against AWX, which has no platform auditor, it is O(is_system_auditor) (AWX's auditor, who also reads
        everything), so that a task written for ansible.platform keeps its meaning; giving both with different values
        fails the task before anything is written.
    type: bool
  associated_authenticators:
    description:
      - The authenticators the user logs in through, with the user's id at each (ansible.platform's option), as a
        dictionary whose keys name the authenticators and whose values hold the keys C(uid) (the user's id there)
        and, optionally, C(email). An authenticator is named by id or
        name, each looked up at the gateway's C(/api/gateway/v1/authenticators/) before anything is written.
      - The user's links become exactly these (the gateway replaces them all; V({}) removes them). They are written
        as the gateway's user's C(associated_authenticators), only when they differ from what the user shows (a
        link with an e-mail differs from one without).
      - A gateway whose users do not show their links (the platform's published 2.6 and 2.7 API schemas make the
        user's link fields write-only) is read at its C(/api/gateway/v1/authenticator_users/), one more request;
        it shows no e-mail, so there the links are compared by authenticator and uid.
      - A local authenticator's uid is always the username (the gateway keeps it so); another uid given for one is
        warned about and not sent.
      - B(Needs a platform gateway); against AWX, which has no authenticators of this kind, the task fails before
        it writes anything. Not with O(authenticators) or O(authenticator_uid).
    type: dict
  authenticators:
    description:
      - The authenticators, by id or name, the user logs in through (ansible.platform's option, which it
        B(deprecates) in favour of O(associated_authenticators)); the links to the others are removed.
      - B(Deprecated), as in ansible.platform; a task that gives it gets a deprecation warning. It will be removed in
        release 2.0.0 of this collection; use O(associated_authenticators).
      - Sent as the gateway takes them, as the gateway's user's C(authenticators) with O(authenticator_uid), only
        when the links the user shows differ (other authenticators, or another uid at one of them). The gateway
        links one new authenticator at a time this way, with a uid; a task that would link more, or one without
        O(authenticator_uid), fails before anything is written.
      - B(Needs a platform gateway); against AWX the task fails before it writes anything.
    type: list
    elements: str
  authenticator_uid:
    description:
      - The user's id at the authenticators of O(authenticators) (ansible.platform's option, which it B(deprecates)
        in favour of O(associated_authenticators)). Alone, it is the uid of the authenticators the user is linked to.
      - B(Deprecated), as in ansible.platform; a task that gives it gets a deprecation warning. It will be removed in
        release 2.0.0 of this collection; use O(associated_authenticators).
      - B(Needs a platform gateway); against AWX the task fails before it writes anything.
    type: str
  state:
    description:
      - V(present) creates or updates the user, V(absent) deletes it.
      - V(exists) creates the user when it is missing and leaves one found as it is.
    type: str
    choices: [present, absent, exists]
    default: present
extends_documentation_fragment:
  - automation.service.auth
  - automation.service.attributes
'''

EXAMPLES = r'''
- name: Make sure alice exists; her password is set when she is created
  automation.service.user:
    username: alice
    first_name: Alice
    email: alice@example.com
    password: "{{ alice_initial_password }}"

- name: Reset her password on every run
  automation.service.user:
    username: alice
    password: "{{ alice_password }}"
    update_password: always

- name: Make her a member of two organizations (the memberships she has of others are left as they are)
  automation.service.user:
    username: alice
    organizations:
      - Engineering
      - Operations

- name: Link her to two authenticators of the platform gateway, with her id at each
  automation.service.user:
    username: alice
    associated_authenticators:
      Corporate LDAP:
        uid: alice
      "3":
        uid: "123456789"
        email: alice@example.com

- name: Make her a platform auditor (behind a gateway; on AWX, a system auditor)
  automation.service.user:
    username: alice
    is_platform_auditor: true

- name: Remove her
  automation.service.user:
    username: alice
    state: absent
'''

RETURN = r'''
id:
  description: Id of the user (of the deleted user with O(state=absent)).
  returned: when the user exists or existed
  type: int
  sample: 7
user:
  description: The user as the service returns it (never with a password; the would-be user in check mode).
  returned: with O(state=present) or O(state=exists)
  type: dict
  sample: {"id": 7, "username": "alice", "first_name": "Alice", "email": "alice@example.com", "is_superuser": false}
written_at:
  description:
    - Where the task wrote (in check mode, would write) behind a platform gateway, in that order - V(gateway) for the
      username, password, names, e-mail, O(is_superuser), the memberships of O(organization) and O(organizations),
      the authenticators, O(is_platform_auditor), the creation and the deletion, V(controller) for
      O(is_system_auditor).
    - An empty list when nothing changed.
  returned: when the service is a platform gateway
  type: list
  elements: str
  sample: [gateway, controller]
'''

from ansible_collections.automation.service.plugins.module_utils._user import RESOURCE, SPEC

run = RESOURCE.run


def main():
    SPEC.main(run)


if __name__ == '__main__':
    main()
