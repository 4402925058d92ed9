"""django-ansible-base's RBAC API at /api/eda/v1/: the gateway's views over the service's role definitions and
assignments (refsvc/rbac/gateway.py), each answering EDA's definitions only. One table holds every service's
definitions; EDA's are those on its own and the shared kinds whose permissions are its own and the shared ones
(eda.*, shared.*), and the platform's shared Organization and Team Admin and Member, whatever permissions the
controller's rows give them. A definition of the controller (JobTemplate Admin, Organization Audit...) or a
system-wide one (Platform Auditor) is not EDA's: 404 at its detail, left out of the lists."""
from refsvc.rbac.models import RoleDefinition

SHARED = ("Organization Admin", "Organization Member", "Team Admin", "Team Member")
SERVICES = ("eda", "shared")


def is_edas(definition):
    if definition.name in SHARED:
        return True
    if not (definition.content_type or "").startswith(tuple(s + "." for s in SERVICES)):
        return False
    return all(p.split(".", 1)[0] in SERVICES for p in definition.permissions or ())


def eda_definitions():
    return RoleDefinition.objects.filter(pk__in=[d.pk for d in RoleDefinition.objects.all() if is_edas(d)])


def at_eda(view):
    """The rbac view ``view`` (a definitions or an assignments one) answering EDA's definitions only."""

    def get_queryset(self):
        queryset = super(cls, self).get_queryset()
        if queryset.model is RoleDefinition:
            return queryset.filter(pk__in=eda_definitions())
        return queryset.filter(role_definition__in=eda_definitions())

    cls = type(view.__name__, (view,), {"get_queryset": get_queryset})
    return cls
