"""Authenticator maps that grant roles (map types ``organization``, ``team`` and ``role``).

django-ansible-base's authenticator maps check a map's role when the map is written, and grant the roles the
maps give when a user logs in, through django-ansible-base's RBAC app, which the platform's gateway has. Here
the gateway's role definitions and assignments are the service's own (refsvc.rbac, which answers
django-ansible-base's RBAC API over the controller's rows), so the check and the grant are made against those,
with django-ansible-base's rules and words:

- ``check_role_type`` takes the place of django-ansible-base's function of that name (which refuses every role
  when its RBAC app is not installed) where its authenticator maps' serializer and its login claims call it;
- ``ReconcileUser`` is the class django-ansible-base's login asks its setting
  ``ANSIBLE_BASE_AUTHENTICATOR_RECONCILE_MODULE`` for: it gives the user the roles the maps granted and takes
  back those they revoke, and, when the authenticator's ``remove_users`` is on, every other assignment the user
  has of a system role or on an organization or team (django-ansible-base's ReconcileUser does the same).
"""
import logging

from django.db import transaction

from ansible_base.authentication.utils import claims as dab_claims
from ansible_base.authentication.serializers import authenticator_map as dab_map_serializer
from ansible_base.lib.utils.string import is_empty

from refsvc.rbac.models import RoleDefinition, RoleUserAssignment, Team
from refsvc.svc.models import Organization

logger = logging.getLogger(__name__)

ORGANIZATION = "shared.organization"
TEAM = "shared.team"


def check_role_type(map_type, role, org, team):
    """django-ansible-base's checks of a map's role (ansible_base.authentication.utils.authenticator_map), made
    against the service's role definitions: {field: message} of what is wrong."""
    errors = {}
    definition = RoleDefinition.objects.filter(name=role).first()
    if definition is None:
        errors["role"] = "RoleDefinition {role} doesn't exist".format(role=role)
        return errors
    is_system_role = definition.content_type is None
    if is_system_role and map_type == "role":
        return errors
    is_org_role = definition.content_type == ORGANIZATION
    is_team_role = definition.content_type == TEAM
    if map_type == "organization" and not is_org_role:
        errors["role"] = "For an organization map type you must specify an organization based role"
    if map_type == "team" and not is_team_role:
        errors["role"] = "For a team map type you must specify a team based role"
    if (is_org_role or is_team_role) and is_empty(org):
        errors["organization"] = "You must specify an organization with the selected role"
    if is_team_role and is_empty(team):
        errors["team"] = "You must specify a team with the selected role"
    return errors


class ReconcileUser:
    """The roles the maps grant, given and taken back at login (django-ansible-base's claims ``rbac_roles``)."""

    @classmethod
    def reconcile_user_claims(cls, user, authenticator_user):
        claims = getattr(user, "claims", authenticator_user.claims) or {}
        cls(user, authenticator_user.provider.remove_users).apply(claims.get("rbac_roles") or {})

    def __init__(self, user, rebuild):
        self.user = user
        self.rebuild = rebuild

    def wanted(self, rbac_roles):
        """{(role name, content type, object id): granted} of the claims."""
        wanted = {}
        for name, granted in ((rbac_roles.get("system") or {}).get("roles") or {}).items():
            wanted[(name, None, None)] = granted
        organizations = rbac_roles.get("organizations") or {}
        by_name = {org.name: org for org in Organization.objects.filter(name__in=list(organizations))}
        for org_name, details in organizations.items():
            org = by_name.get(org_name)
            if org is None:
                logger.error("Skipping organization '%s', because the organization does not exist", org_name)
                continue
            for name, granted in (details.get("roles") or {}).items():
                wanted[(name, ORGANIZATION, str(org.pk))] = granted
            teams = {team.name: team for team in Team.objects.filter(organization=org)}
            for team_name, team_details in (details.get("teams") or {}).items():
                team = teams.get(team_name)
                if team is None:
                    logger.error("Skipping team '%s' in organization '%s', because the team does not exist",
                                 team_name, org_name)
                    continue
                for name, granted in (team_details.get("roles") or {}).items():
                    wanted[(name, TEAM, str(team.pk))] = granted
        return wanted

    def apply(self, rbac_roles):
        existing = {}
        for assignment in RoleUserAssignment.objects.filter(user=self.user).select_related("role_definition"):
            if assignment.content_type in (None, ORGANIZATION, TEAM):
                existing[(assignment.role_definition.name, assignment.content_type, assignment.object_id)] = assignment
        wanted = self.wanted(rbac_roles)
        definitions = {d.name: d for d in RoleDefinition.objects.filter(name__in={key[0] for key in wanted})}
        with transaction.atomic():
            for key, granted in wanted.items():
                if granted and key not in existing:
                    definition = definitions.get(key[0])
                    if definition is None:
                        logger.warning("Skipping role '%s', because the role does not exist", key[0])
                        continue
                    RoleUserAssignment.objects.create(role_definition=definition, user=self.user,
                                                      content_type=key[1], object_id=key[2])
                elif not granted and key in existing:
                    existing[key].delete()
            if self.rebuild:
                for key, assignment in existing.items():
                    if key not in wanted:
                        assignment.delete()


def connect():
    """Point django-ansible-base's authenticator maps at the service's role definitions."""
    for module in (dab_map_serializer, dab_claims):
        module.check_role_type = check_role_type
