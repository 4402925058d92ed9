"""Who sees and who may change what. A superuser sees and changes everything; a
system auditor sees everything; what other users see of a model is decided by the
rule its app declares with ``@access.rule(Model)`` next to the model (the rules of
this app's models are below); a model without a rule is seen by them not at all.
``visible(model, user)`` is the one way views, serializers and checks ask."""
from django.contrib.auth.models import User
from django.db.models import Q

from .models import Credential, CredentialType, Host, Inventory, OAuth2AccessToken, OAuth2Application, Organization

_RULES = {}


def rule(*models):
    """Declares what a user who does not see everything sees of ``models``: the decorated
    function takes the queryset of all of them and the user, and narrows it."""
    def declare(func):
        for model in models:
            _RULES[model] = func
        return func

    return declare


def sees_all(user):
    from .serializers import profile_of

    return user.is_superuser or profile_of(user).is_system_auditor


def has_rule(model):
    return model in _RULES


def visible(model, user):
    """The objects of ``model`` that ``user`` sees (a queryset)."""
    qs = model.objects.all()
    if sees_all(user):
        return qs
    narrow = _RULES.get(model)
    return narrow(qs, user) if narrow is not None else qs.none()


def visible_ids(model, user):
    return visible(model, user).values("id")


def organizations_of(user):
    """The organizations ``user`` belongs to or administers (ids)."""
    return Organization.objects.filter(Q(members=user) | Q(admins=user)).values("id")


@rule(Organization)
def _organizations(qs, user):
    return qs.filter(id__in=organizations_of(user))


def _read_role(user, model):
    """The objects on whose read_role the user is, as the real InventoryAccess and
    CredentialAccess filter (awx/main/access.py): a role on the object or on its
    organization (admin, auditor, inventory or credential admin) that gives view; the
    user who made one is its admin. Belonging to the organization alone is not enough."""
    from refsvc.rbac.registry import allowed_q

    return Q(created_by=user) | allowed_q(user, model, "view")


@rule(Inventory)
def _inventories(qs, user):
    return qs.filter(_read_role(user, Inventory))


@rule(Host)
def _hosts(qs, user):
    return qs.filter(inventory__in=visible_ids(Inventory, user))


@rule(Credential)
def _credentials(qs, user):
    return qs.filter(_read_role(user, Credential))


@rule(CredentialType)
def _credential_types(qs, user):
    return qs


@rule(User)
def _users(qs, user):
    orgs = organizations_of(user)
    peers = User.objects.filter(Q(svc_organizations__in=orgs) | Q(svc_admin_of_organizations__in=orgs)).values("id")
    return qs.filter(Q(id=user.id) | Q(id__in=peers)).distinct()


@rule(OAuth2AccessToken)
def _tokens(qs, user):
    return qs.filter(user=user)


@rule(OAuth2Application)
def _applications(qs, user):
    return qs.filter(organization__in=organizations_of(user))


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
