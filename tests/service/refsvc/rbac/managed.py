"""The managed role definitions, built from the permission table as the real
service builds them at migration time."""
from django.conf import settings

from .registry import KINDS, ORG


def _perm(kind, action):
    return "%s.%s_%s" % (kind.prefix, action, kind.codename)


def definitions():
    """[(name, description, content_type label, permissions)] in creation order."""
    out = []
    org_perms = []
    for kind in KINDS:
        object_perms = [_perm(kind, a) for a in kind.actions]
        if kind.key != "instance_group":
            org_perms += object_perms
        if kind.key != "organization":
            out.append(("%s Admin" % kind.cls_name, "Has all permissions to a single %s" % kind.verbose, kind.label,
                        [_perm(kind, a) for a in kind.actions if a != "add"]))
        if kind.key not in ("organization", "instance_group", "team"):
            plural = kind.verbose + ("s" if not kind.verbose.endswith("y") else "")
            if kind.verbose.endswith("y"):
                plural = kind.verbose[:-1] + "ies"
            out.append(("Organization %s Admin" % kind.cls_name, "Has all permissions to %s within an organization" % plural,
                        ORG.label, object_perms + ["shared.view_organization"]))
        for action in kind.actions:
            if action in ("add", "change", "delete", "view", "audit"):
                continue
            perms = [_perm(kind, action), _perm(kind, "view")]
            if action == "adhoc":
                perms.append(_perm(kind, "use"))
            out.append(("%s %s" % (kind.cls_name, action.title()), "Has %s permissions to a single %s" % (action, kind.verbose),
                        kind.label, perms))
    out.append(("Organization Admin", "Has all permissions to a single organization and all objects inside of it", ORG.label, org_perms))
    audit = [p for p in org_perms if p.split(".", 1)[1].startswith("view_")] + ["shared.audit_organization"]
    out.append(("Organization Audit", "Has permission to view all objects inside of a single organization", ORG.label, audit))
    execute = {"view_jobtemplate", "execute_jobtemplate", "view_workflowjobtemplate", "execute_workflowjobtemplate", "view_organization"}
    out.append(("Organization Execute", "Has permission to execute all runnable objects in the organization", ORG.label,
                [p for p in org_perms if p.split(".", 1)[1] in execute]))
    approval = {"view_organization", "view_workflowjobtemplate", "approve_workflowjobtemplate"}
    out.append(("Organization Approval", "Has permission to approve any workflow steps within a single organization", ORG.label,
                [p for p in org_perms if p.split(".", 1)[1] in approval]))
    return out


def all_permissions():
    return sorted(_perm(k, a) for k in KINDS for a in k.actions)


def create(RoleDefinition):
    if getattr(settings, "SERVICE_LAYOUT", None) == "gateway":
        # The platform gateway's first role definition (id 1) is its Platform Auditor: ansible.platform's
        # role_user_assignment gives a "Platform ..." role only when its definition has id 1.
        from refsvc.gateway.auditor import DESCRIPTION, NAME, PERMISSIONS

        RoleDefinition.objects.update_or_create(
            name=NAME, defaults={"description": DESCRIPTION, "content_type": None, "permissions": PERMISSIONS,
                                 "managed": True})
    for name, description, ct, perms in definitions():
        RoleDefinition.objects.update_or_create(
            name=name, defaults={"description": description, "content_type": ct, "permissions": sorted(perms), "managed": True})
