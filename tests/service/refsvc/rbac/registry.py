"""What each kind of object grants: its legacy role fields (OPTIONS `object_roles`),
its permissions (the role definitions' `permissions` choices), and who holds what.

A user's permissions on an object come from the roles they hold on it or on its
organization (directly, or through a team they are a member or admin of), from the
role assignments of them or of such a team, and from the organization's
members/admins lists."""
from django.apps import apps
from django.contrib.contenttypes.models import ContentType
from django.db.models import Q
from django.db.models.signals import post_delete, post_save


class Kind:
    def __init__(self, key, model, prefix, codename, cls_name, verbose, url, role_fields, actions):
        self.key, self.model_label, self.prefix, self.codename = key, model, prefix, codename
        self.cls_name, self.verbose, self.url, self.role_fields, self.actions = cls_name, verbose, url, role_fields, actions

    @property
    def model(self):
        try:
            return apps.get_model(self.model_label)
        except LookupError:
            return None

    @property
    def label(self):
        return "%s.%s" % (self.prefix, self.codename)

    def perms(self, actions=None):
        return {"%s_%s" % (a, self.codename) for a in (actions if actions is not None else self.actions)}


ORG_ROLES = ["admin_role", "execute_role", "project_admin_role", "inventory_admin_role", "credential_admin_role",
             "workflow_admin_role", "notification_admin_role", "job_template_admin_role",
             "execution_environment_admin_role", "auditor_role", "member_role", "read_role", "approval_role"]

# Permission actions per model: the choices of the real role_definitions OPTIONS.
KINDS = [
    Kind("credential", "svc.Credential", "awx", "credential", "Credential", "credential", "credentials",
         ["admin_role", "use_role", "read_role"], ["add", "change", "delete", "use", "view"]),
    Kind("execution_environment", "resources.ExecutionEnvironment", "awx", "executionenvironment", "ExecutionEnvironment",
         "execution environment", "execution_environments", [], ["add", "change", "delete"]),
    Kind("instance_group", "resources.InstanceGroup", "awx", "instancegroup", "InstanceGroup", "instance group",
         "instance_groups", ["admin_role", "use_role", "read_role"], ["change", "delete", "use", "view"]),
    Kind("inventory", "svc.Inventory", "awx", "inventory", "Inventory", "inventory", "inventories",
         ["admin_role", "update_role", "adhoc_role", "use_role", "read_role"],
         ["add", "adhoc", "change", "delete", "update", "use", "view"]),
    Kind("job_template", "jobs.JobTemplate", "awx", "jobtemplate", "JobTemplate", "job template", "job_templates",
         ["admin_role", "execute_role", "read_role"], ["change", "delete", "execute", "view"]),
    Kind("notification_template", "resources.NotificationTemplate", "awx", "notificationtemplate", "NotificationTemplate",
         "notification template", "notification_templates", [], ["add", "change", "delete", "view"]),
    Kind("project", "jobs.Project", "awx", "project", "Project", "project", "projects",
         ["admin_role", "use_role", "update_role", "read_role"], ["add", "change", "delete", "update", "use", "view"]),
    Kind("workflow_job_template", "workflows.WorkflowJobTemplate", "awx", "workflowjobtemplate", "WorkflowJobTemplate",
         "workflow job template", "workflow_job_templates", ["admin_role", "execute_role", "read_role", "approval_role"],
         ["add", "approve", "change", "delete", "execute", "view"]),
    Kind("organization", "svc.Organization", "shared", "organization", "Organization", "organization", "organizations",
         ORG_ROLES, ["audit", "change", "delete", "member", "view"]),
    Kind("team", "rbac.Team", "shared", "team", "Team", "team", "teams",
         ["admin_role", "member_role", "read_role"], ["add", "change", "delete", "member", "view"]),
]
BY_KEY = {k.key: k for k in KINDS}
BY_LABEL = {k.label: k for k in KINDS}
ORG = BY_KEY["organization"]
ORG_CHILDREN = [k for k in KINDS if k.key not in ("organization", "instance_group")]
ORG_ADMIN_ROLE_CHILD = {
    "project_admin_role": "project", "inventory_admin_role": "inventory", "credential_admin_role": "credential",
    "workflow_admin_role": "workflow_job_template", "notification_admin_role": "notification_template",
    "job_template_admin_role": "job_template", "execution_environment_admin_role": "execution_environment",
}
ROLE_NAMES = {
    "adhoc_role": "Ad Hoc", "admin_role": "Admin", "project_admin_role": "Project Admin",
    "inventory_admin_role": "Inventory Admin", "credential_admin_role": "Credential Admin",
    "job_template_admin_role": "Job Template Admin", "execution_environment_admin_role": "Execution Environment Admin",
    "workflow_admin_role": "Workflow Admin", "notification_admin_role": "Notification Admin", "auditor_role": "Auditor",
    "execute_role": "Execute", "member_role": "Member", "read_role": "Read", "update_role": "Update", "use_role": "Use",
    "approval_role": "Approve",
}
ROLE_DESCRIPTIONS = {
    "adhoc_role": "May run ad hoc commands on the %s",
    "admin_role": "Can manage all aspects of the %s",
    "project_admin_role": "Can manage all projects of the %s",
    "inventory_admin_role": "Can manage all inventories of the %s",
    "credential_admin_role": "Can manage all credentials of the %s",
    "job_template_admin_role": "Can manage all job templates of the %s",
    "execution_environment_admin_role": "Can manage all execution environments of the %s",
    "workflow_admin_role": "Can manage all workflows of the %s",
    "notification_admin_role": "Can manage all notifications of the %s",
    "auditor_role": "Can view all aspects of the %s",
    "execute_role": "May run the %s",
    "member_role": "User is a member of the %s",
    "read_role": "May view settings for the %s",
    "update_role": "May update the %s",
    "use_role": "Can use the %s in a job template",
    "approval_role": "Can approve or deny a workflow approval node",
}


def allowed_permissions(kind):
    """{codename: kind} of the permissions a role definition of ``kind`` may give: those of its own kind but
    adding one, and for an organization those of the kinds organizations hold as well
    (django-ansible-base's ``permissions_allowed_for_role``; the role metadata lists them)."""
    return {p: k for k in ([kind] + (ORG_CHILDREN if kind.key == "organization" else [])) for p in
            k.perms([a for a in k.actions if not (k is kind and a == "add")])}


def kind_of(obj_or_model):
    model = obj_or_model if isinstance(obj_or_model, type) else type(obj_or_model)
    for k in KINDS:
        if k.model is model:
            return k
    return None


def role_description(kind, role_field):
    if role_field == "execute_role" and kind.key == "organization":
        return "May run any executable resources in the organization"
    text = ROLE_DESCRIPTIONS.get(role_field, "")
    return text % kind.verbose if "%s" in text else text


def role_permissions(kind, role_field):
    """The permissions (codenames) a legacy role conveys, on its object or, for an
    organization's roles, on the organization and the objects inside it."""
    if kind.key == "organization":
        if role_field == "admin_role":
            perms = ORG.perms()
            for child in ORG_CHILDREN:
                perms |= child.perms()
            return perms
        if role_field in ORG_ADMIN_ROLE_CHILD:
            return BY_KEY[ORG_ADMIN_ROLE_CHILD[role_field]].perms() | {"view_organization"}
        if role_field == "auditor_role":
            perms = {"audit_organization", "view_organization"}
            for child in ORG_CHILDREN:
                perms |= child.perms(["view"] if "view" in child.actions else [])
            return perms
        if role_field == "execute_role":
            return {"view_organization", "view_jobtemplate", "execute_jobtemplate", "view_workflowjobtemplate", "execute_workflowjobtemplate"}
        if role_field == "approval_role":
            return {"view_organization", "view_workflowjobtemplate", "approve_workflowjobtemplate"}
        if role_field == "member_role":
            return {"member_organization", "view_organization"}
        if role_field == "read_role":
            return {"view_organization"}
        return set()
    if role_field == "admin_role":
        return kind.perms([a for a in kind.actions if a != "add"])
    action = {"read_role": [], "execute_role": ["execute"], "use_role": ["use"], "update_role": ["update"],
              "adhoc_role": ["adhoc", "use"], "member_role": ["member"], "approval_role": ["approve"]}.get(role_field)
    if action is None:
        return set()
    return kind.perms(action + ["view"])


# ---------------------------------------------------------------- roles of objects

def roles_of(obj, create=True):
    """{role_field: Role} of an object (created when missing)."""
    from .models import Role

    kind = kind_of(obj)
    if kind is None or not kind.role_fields:
        return {}
    ct = ContentType.objects.get_for_model(type(obj))
    found = {r.role_field: r for r in Role.objects.filter(content_type=ct, object_id=obj.pk)}
    if create:
        for field in kind.role_fields:
            if field not in found:
                found[field], _ = Role.objects.get_or_create(content_type=ct, object_id=obj.pk, role_field=field)
    return found


def object_roles(obj):
    kind = kind_of(obj)
    roles = roles_of(obj)
    return {
        field: {"description": role_description(kind, field), "name": ROLE_NAMES.get(field, field), "id": roles[field].id}
        for field in kind.role_fields
    }


def _created(sender, instance, created, **kwargs):
    if created and not kwargs.get("raw"):
        roles_of(instance)


def _deleted(sender, instance, **kwargs):
    from .models import Role

    Role.objects.filter(content_type=ContentType.objects.get_for_model(sender), object_id=instance.pk).delete()


def connect():
    """Roles for every new object; summary_fields.object_roles on the organizations,
    inventories and credentials the svc app serves."""
    for kind in KINDS:
        model = kind.model
        if model is not None and kind.role_fields:
            post_save.connect(_created, sender=model, dispatch_uid="rbac-roles-%s" % kind.key)
            post_delete.connect(_deleted, sender=model, dispatch_uid="rbac-roles-del-%s" % kind.key)
    from refsvc.svc import serializers as svc_serializers

    for cls in (svc_serializers.OrganizationSerializer, svc_serializers.InventorySerializer, svc_serializers.CredentialSerializer):
        _add_object_roles(cls)


def _add_object_roles(cls):
    original = cls.get_summary_fields
    if getattr(original, "_with_object_roles", False):
        return

    def get_summary_fields(self, obj):
        data = dict(original(self, obj) or {})
        data["object_roles"] = object_roles(obj)
        if kind_of(obj).key == "organization":
            # AWX 24.6.1's OrganizationSerializer.get_summary_fields: its admin and member roles cannot be
            # given to a team, which user_only tells the UI.
            for field in ("admin_role", "member_role"):
                if field in data["object_roles"]:
                    data["object_roles"][field]["user_only"] = True
        return data

    get_summary_fields._with_object_roles = True
    cls.get_summary_fields = get_summary_fields


# ---------------------------------------------------------------- who holds what

def org_id_of(obj):
    if type(obj).__name__ == "Organization":
        return None
    return getattr(obj, "organization_id", None)


def _teams_of(user):
    """Ids of the teams the user is a member or admin of."""
    from .models import Role, RoleUserAssignment

    team_ct = ContentType.objects.get_for_model(BY_KEY["team"].model)
    ids = set(Role.objects.filter(content_type=team_ct, role_field__in=("member_role", "admin_role"), members=user)
              .values_list("object_id", flat=True))
    for a in RoleUserAssignment.objects.filter(user=user, content_type="shared.team").select_related("role_definition"):
        if {"shared.member_team", "shared.change_team"} & set(a.role_definition.permissions):
            ids.add(int(a.object_id))
    return ids


def grants(user):
    """[(kind key, object id, permissions)] the user holds."""
    from .models import Role, RoleTeamAssignment, RoleUserAssignment

    cache = getattr(user, "_svc_grants", None)
    if cache is not None:
        return cache
    team_ids = _teams_of(user)
    kinds_by_ct = {}
    for kind in KINDS:
        if kind.model is not None:
            kinds_by_ct[ContentType.objects.get_for_model(kind.model).id] = kind
    out = []
    roles = Role.objects.filter(Q(members=user) | Q(teams__in=team_ids)).distinct()
    for role in roles:
        kind = kinds_by_ct.get(role.content_type_id)
        if kind is not None:
            out.append((kind.key, role.object_id, role_permissions(kind, role.role_field)))
    team_kind = BY_KEY["team"]
    for tid in team_ids:
        out.append(("team", tid, team_kind.perms(["member", "view"])))
    assignments = list(RoleUserAssignment.objects.filter(user=user).select_related("role_definition")) + list(
        RoleTeamAssignment.objects.filter(team__in=team_ids).select_related("role_definition"))
    for a in assignments:
        kind = BY_LABEL.get(a.content_type or "")
        if kind is None or not a.object_id:
            continue
        out.append((kind.key, int(a.object_id), {p.split(".", 1)[-1] for p in a.role_definition.permissions}))
    from refsvc.svc.models import Organization

    for org in Organization.objects.filter(admins=user):
        out.append(("organization", org.id, role_permissions(ORG, "admin_role")))
    for org in Organization.objects.filter(members=user):
        out.append(("organization", org.id, role_permissions(ORG, "member_role")))
    user._svc_grants = out
    return out


def has_perm(user, obj, action):
    if user.is_superuser:
        return True
    kind = kind_of(obj)
    if kind is None:
        return False
    codename = "%s_%s" % (action, kind.codename)
    org_id = org_id_of(obj)
    for key, oid, perms in grants(user):
        if codename in perms and ((key == kind.key and oid == obj.pk) or (key == "organization" and oid == org_id)):
            return True
    return False


def allowed_q(user, model, action, org_path="organization"):
    """A Q selecting the objects of ``model`` on which the user has ``action``."""
    kind = kind_of(model)
    codename = "%s_%s" % (action, kind.codename)
    ids, org_ids = set(), set()
    for key, oid, perms in grants(user):
        if codename in perms:
            if key == kind.key:
                ids.add(oid)
            elif key == "organization" and org_path:
                org_ids.add(oid)
    q = Q(id__in=ids)
    if org_ids:
        q |= Q(**{org_path + "__in": org_ids})
    return q
