"""The gateway's "Platform Auditor": a system-wide role definition (no content type) whose user assignments
(/api/gateway/v1/role_user_assignments/, without an object) make the user read everything, which the gateway's
user shows as ``is_platform_auditor`` (ansible.platform's ``user`` module gives and takes back this assignment,
and reads that field). Sources: tests/service/README.md ("The gateway's users and their authenticators").

One database: the service's auditor is the user's ``UserProfile.is_system_auditor``, the flag the gateway's
``is_platform_auditor`` already was; an assignment given sets it, one taken back clears it. The gateway's user
field is read-only, as the published schemas (2.6, 2.7) have it."""
from django.db import IntegrityError, transaction
from django.db.models.signals import post_delete, post_save

from refsvc.rbac.models import RoleDefinition, RoleUserAssignment
from refsvc.svc.models import UserProfile

NAME = "Platform Auditor"
DESCRIPTION = "Has view permissions to all objects"
# Chosen here (to check against a real gateway): the view permissions of the objects the gateway keeps.
PERMISSIONS = ["shared.view_organization", "shared.view_team"]

_made = []


def definition():
    """The role definition, made once (the gateway has it as one of django-ansible-base's managed ones)."""
    if _made:
        found = RoleDefinition.objects.filter(pk=_made[0]).first()
        if found is not None:
            return found
    try:
        with transaction.atomic():
            found, _created = RoleDefinition.objects.get_or_create(
                name=NAME, defaults={"description": DESCRIPTION, "content_type": None, "permissions": PERMISSIONS,
                                     "managed": True})
    except IntegrityError:      # another worker made it first
        found = RoleDefinition.objects.get(name=NAME)
    _made[:] = [found.pk]
    return found


def ensure():
    if not _made:
        definition()


def _assignments(user):
    return RoleUserAssignment.objects.filter(role_definition__name=NAME, user=user, object_id__isnull=True)


def _flag(instance, value):
    try:
        if instance.role_definition.name != NAME:
            return
        user = instance.user
    except Exception:       # deleted along with its role definition or its user
        return
    UserProfile.objects.update_or_create(user=user, defaults={"is_system_auditor": value})


def _given(sender, instance, created, raw=False, **kwargs):
    if created and not raw:
        _flag(instance, True)


def _taken_back(sender, instance, **kwargs):
    _flag(instance, False)


def connect():
    post_save.connect(_given, sender=RoleUserAssignment, dispatch_uid="gateway-platform-auditor-given")
    post_delete.connect(_taken_back, sender=RoleUserAssignment, dispatch_uid="gateway-platform-auditor-taken")
