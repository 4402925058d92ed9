"""Who sees and who may change what: the one registry of the service's access rules, built
as AWX's awx/main/access.py (an access class per model with can_read, can_add, can_change,
can_delete, can_attach).

Reading: a superuser and a system auditor see everything; what other users see of a model
is decided by the rule its app declares with ``@access.rule(Model)`` next to the model (the
rules of this app's models are below); a model without a rule is seen by them not at all.
``visible(model, user)`` is the one way views, serializers and checks ask.

Changing: an app declares ``@access.register(Model)`` on a subclass of ``Access`` next to
the model (or a name for an endpoint that is no model's, such as ``"settings"``); views ask
``check(user, action, target, ...)`` (``ApiMixin.check_access``), which answers 403 for them.
``can_<action>`` decides for users who are not superusers: True, False (403 "You do not have
permission to perform this action.") or the 403's detail (a text or a dict, the real
service's words). ``refuse_<action>``, when declared, then refuses whoever asks, superusers
included (a running job, a managed object, the gateway layout): None, or the 403's detail.
"""
from django.conf import settings
from django.contrib.auth.models import User
from django.db.models import Q
from rest_framework.exceptions import PermissionDenied

from .models import Credential, CredentialType, Host, Inventory, OAuth2AccessToken, OAuth2Application, Organization

_RULES = {}
_ACCESS = {}
DENIED = "You do not have permission to perform this action."
SAFE_METHODS = ("GET", "HEAD", "OPTIONS")


class Access:
    """What one kind of object, or one endpoint, allows a user who is not a superuser. The
    target is passed to ``can_<action>`` when it is an object, not when it is the model
    (``add``) or an endpoint's name."""

    def can_add(self, user, data):
        return False

    def can_change(self, user, obj, data=None):
        return False

    def can_delete(self, user, obj):
        return self.can_change(user, obj)

    def can_attach(self, user, obj, sub=None, relation=None, data=None, **kwargs):
        """Associate ``sub`` with ``obj`` through ``relation`` (a sub-list of ``obj``)."""
        return self.can_change(user, obj)

    def can_unattach(self, user, obj, sub=None, relation=None, data=None, **kwargs):
        return self.can_attach(user, obj, sub, relation, data)

    def refuse_attach(self, user, obj, sub=None, relation=None, data=None, parent_key=None):
        # A child of a 1-n relation is attached only where it already is.
        if sub is not None and parent_key and getattr(sub, parent_key + "_id") != obj.pk:
            return DENIED
        # Groups and hosts are linked within their inventory only.
        if sub is not None and relation in ("children", "hosts", "groups") and hasattr(obj, "inventory_id") \
                and getattr(sub, "inventory_id", obj.inventory_id) != obj.inventory_id:
            return DENIED
        return None

    def can_copy(self, user, obj):
        return self.can_change(user, obj)

    def refuse_copy(self, user, obj):
        refuse = getattr(self, "refuse_change", None)
        return refuse(user, obj) if refuse is not None else None

    def can_add_related(self, user, data):
        """Create an object of this kind in a sub-list (and associate it there)."""
        return False

    def can_move(self, user, obj, data):
        """A change that moves the object to another organization or inventory: the mover
        must be allowed to make an inventory in that organization, or hosts in that inventory."""
        for key, target in (("organization", Inventory), ("inventory", Host)):
            new = (data or {}).get(key)
            if new is not None and new != getattr(obj, key, None) and not allows(user, "add", target, {key: new}):
                return False
        return True

    def can_offer_add(self, user):
        """Does the list's OPTIONS offer POST?"""
        return True

    def can_use(self, user, method):
        """An endpoint that is no model's: may the user send ``method`` to it?"""
        return method in SAFE_METHODS

    def can_ingress(self, user, *obj, what=None, data=None):
        """What only the platform's ingress may do (``refuse_ingress``) binds everyone alike:
        asked first, before the data is read (``what``: add, delete, change, attach)."""
        return True


def register(*keys):
    """Declares the access class of ``keys`` (models, or names of endpoints)."""
    def declare(cls):
        for key in keys:
            _ACCESS[key] = cls()
            _ACCESS[key].model = key
        return cls

    return declare


def access_of(target):
    key = target if isinstance(target, (str, type)) else type(target)
    found = _ACCESS.get(key)
    if found is None and isinstance(key, type):
        found = next((_ACCESS[base] for base in key.__mro__[1:] if base in _ACCESS), None)
    return found if found is not None else Access()


def decide(user, action, target, *args, **kwargs):
    """True, or the detail of the 403 refusing ``action`` on ``target`` to ``user``."""
    acc = access_of(target)
    lead = () if isinstance(target, (str, type)) else (target,)
    if not user.is_superuser:
        answer = getattr(acc, "can_" + action)(user, *lead, *args, **kwargs)
        if answer is not True:
            return answer or DENIED
    refuse = getattr(acc, "refuse_" + action, None)
    answer = refuse(user, *lead, *args, **kwargs) if refuse is not None else None
    return answer or True


def allows(user, action, target, *args, **kwargs):
    return decide(user, action, target, *args, **kwargs) is True


def check(user, action, target, *args, **kwargs):
    """Raises the 403 when ``user`` may not do ``action`` on ``target``."""
    answer = decide(user, action, target, *args, **kwargs)
    if answer is not True:
        raise PermissionDenied(answer)


def deny(detail=DENIED):
    """A refusal decided outside a ``can_`` (an object found to be out of reach on the way)."""
    raise PermissionDenied(detail)


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
    """Its members and admins, and whoever a role gives view of it (AWX 24.6.1's OrganizationAccess: the
    organization's read_role, which the auditor role and role assignments such as Organization Audit give)."""
    from refsvc.rbac.registry import allowed_q

    return qs.filter(Q(id__in=organizations_of(user)) | allowed_q(user, Organization, "view", org_path=None)).distinct()


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


class SvcAccess(Access):
    """This app's models offer POST in OPTIONS when an add without data would pass."""

    def can_offer_add(self, user):
        return self.can_add(user, {})


# The controller behind a platform gateway (ALLOW_LOCAL_RESOURCE_MANAGEMENT False: the gateway
# layout) keeps read-only copies of the gateway's organizations, users and teams: AWX 24.6.1's
# awx/api/views/__init__.py immutablesharedfields, with its words. The shared fields are the
# declared fields of django-ansible-base's OrganizationType, UserType and TeamType
# (ansible_base/resource_registry/shared_types.py) of the release AWX 24.6.1 runs, 2024.7.1: an
# organization's name, a team's name and organization; not their description, which the controller
# keeps apart from the gateway's and takes a PATCH of (as the real AWX 24.6.1 behind a gateway does).
SHARED_FIELDS = {
    "organization": ("name",),
    "user": ("username", "email", "first_name", "last_name", "is_superuser"),
    "team": ("name", "organization"),
}
CREATE_REFUSED = "Creation of this resource is not allowed. Create this resource via the platform ingress."
DELETE_REFUSED = "Deletion of this resource is not allowed. Delete this resource via the platform ingress."
SHARED_FIELD_REFUSED = "Cannot change shared field '%s'. Alter this field via the platform ingress."
MEMBERSHIP_REFUSED = "Cannot directly modify user membership to %s. Direct shared resource management disabled"


def local_resource_management():
    """AWX's setting ALLOW_LOCAL_RESOURCE_MANAGEMENT: True on its own, False behind the platform's gateway
    (the gateway layout, unless a setting says otherwise)."""
    return getattr(settings, "ALLOW_LOCAL_RESOURCE_MANAGEMENT", getattr(settings, "SERVICE_LAYOUT", "awx") != "gateway")


class Shared:
    """An organization, a user or a team: while local resource management is off, the platform's
    ingress alone creates and deletes them and changes their shared fields, superusers' requests
    here included."""

    def refuse_ingress(self, user, *obj, what=None, data=None):
        if local_resource_management():
            return None
        if what == "add":
            return {"detail": CREATE_REFUSED}
        if what == "delete":
            return {"detail": DELETE_REFUSED}
        if what == "change":
            for field in SHARED_FIELDS.get(self.model._meta.model_name, ()):
                if field in data and getattr(obj[0], field) != data[field]:
                    return {field: SHARED_FIELD_REFUSED % field}
        return None


@register(Organization)
class OrganizationAccess(Shared, SvcAccess):
    def can_change(self, user, obj, data=None):
        return is_org_admin(user, obj)


def _created_or_org_admin(user, obj):
    return obj.created_by_id == user.id or is_org_admin(user, obj.organization)


@register(Inventory)
class InventoryAccess(SvcAccess):
    def can_add(self, user, data):
        org = data.get("organization")
        return org is None or is_org_admin(user, org)

    def can_change(self, user, obj, data=None):
        return _created_or_org_admin(user, obj)


@register(Host)
class HostAccess(SvcAccess):
    def can_add(self, user, data):
        inv = data.get("inventory")
        return inv is None or allows(user, "change", inv)

    def can_change(self, user, obj, data=None):
        return allows(user, "change", obj.inventory)


@register(Credential)
class CredentialAccess(SvcAccess):
    def can_add(self, user, data):
        org = data.get("organization")
        return org is None or org.members.filter(id=user.id).exists() or is_org_admin(user, org)

    def can_change(self, user, obj, data=None):
        return _created_or_org_admin(user, obj)


@register(CredentialType)
class CredentialTypeAccess(SvcAccess):
    pass


@register(User)
class UserAccess(Shared, SvcAccess):
    """The real UserAccess: POST /users/ by an organization administrator is refused too
    (observed on AWX 24.6.1); a user changes themselves, an administrator of all their
    organizations changes them, but neither gives a system role."""

    def can_change(self, user, obj, data=None):
        if not (obj.id == user.id or can_admin_user(user, obj)):
            return False
        if data:
            from .serializers import profile_of

            if data.get("is_superuser", obj.is_superuser) != obj.is_superuser:
                return False
            if "is_system_auditor" in data and bool(data.get("is_system_auditor")) != profile_of(obj).is_system_auditor:
                return False
        return True

    def can_delete(self, user, obj):
        return can_admin_user(user, obj)

    def refuse_delete(self, user, obj):
        return DENIED if obj == user else None


@register(OAuth2AccessToken)
class TokenAccess(SvcAccess):
    def can_add(self, user, data):
        return True

    def can_change(self, user, obj, data=None):
        return obj.user_id == user.id

    def refuse_add(self, user, data):
        # Tokens are minted only for yourself, administrators included.
        return DENIED if data.get("user") != user else None

    def can_read_tokens_of(self, user, target):
        return target == user

    def can_mint(self, user, data):
        return True

    def refuse_mint(self, user, data):
        # ALLOW_OAUTH2_FOR_EXTERNAL_USERS off: no token for an external account (oauthlib's words).
        from .oauth2 import ExternalUserRefused, refuse_external

        try:
            refuse_external(data["user"])
        except ExternalUserRefused as exc:
            return str(exc)
        return None


@register(OAuth2Application)
class ApplicationAccess(SvcAccess):
    def can_add(self, user, data):
        return is_org_admin(user, data.get("organization"))

    def can_change(self, user, obj, data=None):
        return is_org_admin(user, obj.organization)


def can_change(user, obj):
    return allows(user, "change", obj)


def can_create(user, model, data):
    return allows(user, "add", model, data)


@register("settings")
class SettingsAccess(Access):
    """The settings: a system auditor reads them; only a superuser changes them."""

    def can_use(self, user, method):
        from .serializers import profile_of

        return method in SAFE_METHODS and profile_of(user).is_system_auditor


@register("superuser")
class SuperuserAccess(Access):
    """An endpoint every user reads (``reads``: the methods) and only a superuser writes."""

    def can_use(self, user, method, reads=SAFE_METHODS):
        return method in reads
