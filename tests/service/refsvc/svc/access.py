"""Who sees and who may change what. A superuser sees and changes everything; a
system auditor sees everything; other users see what their organizations hold
and what they created, and change what they administer or created."""
from django.contrib.auth.models import User
from django.db.models import Q

from .models import Credential, CredentialType, Host, Inventory, OAuth2AccessToken, OAuth2Application, Organization


def _sees_all(user):
    from .serializers import profile_of

    return user.is_superuser or profile_of(user).is_system_auditor


def visible(model, user):
    qs = model.objects.all()
    if _sees_all(user):
        return qs
    orgs = Organization.objects.filter(Q(members=user) | Q(admins=user)).values("id")
    if model is Organization:
        return qs.filter(id__in=orgs)
    if model is Inventory:
        return qs.filter(Q(organization__in=orgs) | Q(created_by=user))
    if model is Host:
        return qs.filter(inventory__in=visible(Inventory, user).values("id"))
    if model is Credential:
        return qs.filter(Q(organization__in=orgs) | Q(created_by=user))
    if model is CredentialType:
        return qs
    if model is User:
        peers = User.objects.filter(Q(svc_organizations__in=orgs) | Q(svc_admin_of_organizations__in=orgs)).values("id")
        return qs.filter(Q(id=user.id) | Q(id__in=peers)).distinct()
    if model is OAuth2AccessToken:
        return qs.filter(user=user)
    if model is OAuth2Application:
        return qs.filter(organization__in=orgs)
    return qs.none()


def is_org_admin(user, org):
    return org is not None and org.admins.filter(id=user.id).exists()


def can_admin_user(user, target):
    """The real UserAccess.can_admin: an administrator of every organization the
    target belongs to (and of at least one) may change a user without a system role."""
    from .serializers import profile_of

    if target.is_superuser or profile_of(target).is_system_auditor:
        return False
    orgs = Organization.objects.filter(Q(members=target) | Q(admins=target)).distinct()
    if not orgs.exists():
        return False
    return not orgs.exclude(admins=user).exists()


def can_change(user, obj):
    if user.is_superuser:
        return True
    if isinstance(obj, Organization):
        return is_org_admin(user, obj)
    if isinstance(obj, Inventory):
        return obj.created_by_id == user.id or is_org_admin(user, obj.organization)
    if isinstance(obj, Host):
        return can_change(user, obj.inventory)
    if isinstance(obj, Credential):
        return obj.created_by_id == user.id or is_org_admin(user, obj.organization)
    if isinstance(obj, User):
        return obj.id == user.id or can_admin_user(user, obj)
    if isinstance(obj, OAuth2AccessToken):
        return obj.user_id == user.id
    if isinstance(obj, OAuth2Application):
        return is_org_admin(user, obj.organization)
    return False


def can_create(user, model, data):
    if user.is_superuser:
        return True
    if model in (Organization, User, CredentialType):
        # POST /users/ by an organization administrator is refused too (observed on AWX 24.6.1).
        return False
    if model is Inventory:
        org = data.get("organization")
        return org is None or is_org_admin(user, org)
    if model is Host:
        inv = data.get("inventory")
        return inv is None or can_change(user, inv)
    if model is Credential:
        org = data.get("organization")
        return org is None or org.members.filter(id=user.id).exists() or is_org_admin(user, org)
    if model is OAuth2Application:
        return is_org_admin(user, data.get("organization"))
    return True
