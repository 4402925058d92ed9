"""With a real controller behind the gateway: the controller's copies of the gateway's
organizations, teams and users follow the gateway's rows, once their transaction commits."""
from django.contrib.auth import get_user_model
from django.db.models.signals import post_delete, post_save

from refsvc.gateway import controller

# The fields of a user the controller shares (django-ansible-base's UserType); a save of other
# fields alone (last_login at each login) changes nothing there.
USER_FIELDS = {"username", "email", "first_name", "last_name", "is_superuser"}


def _saved(sender, instance, update_fields=None, raw=False, **kwargs):
    if raw:
        return
    if sender is get_user_model() and update_fields and not (set(update_fields) & USER_FIELDS):
        return
    controller.push_on_commit(instance)


def _deleted(sender, instance, **kwargs):
    controller.delete_on_commit(instance)


def connect():
    from refsvc.rbac.models import Team
    from refsvc.svc.models import Organization

    for model in (Organization, Team, get_user_model()):
        post_save.connect(_saved, sender=model, dispatch_uid="gateway-controller-save-%s" % model._meta.label_lower)
        post_delete.connect(_deleted, sender=model, dispatch_uid="gateway-controller-delete-%s" % model._meta.label_lower)


def _description_gone(sender, instance, **kwargs):
    from refsvc.gateway.models import SharedDescription

    SharedDescription.objects.filter(kind=instance._meta.model_name, object_id=instance.pk).delete()


def connect_descriptions():
    """The gateway's description of an organization or a team goes with it."""
    from refsvc.rbac.models import Team
    from refsvc.svc.models import Organization

    for model in (Organization, Team):
        post_delete.connect(_description_gone, sender=model,
                            dispatch_uid="gateway-description-delete-%s" % model._meta.label_lower)


def _editable_change(instance, update_fields):
    """Whether a save changes what django-ansible-base's ModifiableModel records a modifier for: not a save of
    non-editable fields only, nor a user's login (``last_login`` alone)."""
    if update_fields is None:
        return True
    fields = set(update_fields)
    if fields == {"last_login"}:
        return False
    return any(instance._meta.get_field(name).editable for name in fields)


def _authored(sender, instance, created=False, update_fields=None, raw=False, **kwargs):
    from crum import get_current_user

    from refsvc.gateway.models import Authorship

    if raw or not (created or _editable_change(instance, update_fields)):
        return
    user = get_current_user()
    if user is not None and not user.is_authenticated:
        user = None
    kind = instance._meta.model_name
    if created:
        Authorship.objects.update_or_create(kind=kind, object_id=instance.pk,
                                            defaults={"created_by": user, "modified_by": user})
    else:
        Authorship.objects.update_or_create(kind=kind, object_id=instance.pk, defaults={"modified_by": user})


def _authorship_gone(sender, instance, **kwargs):
    from refsvc.gateway.models import Authorship

    Authorship.objects.filter(kind=instance._meta.model_name, object_id=instance.pk).delete()


def connect_authorship():
    """Who made and who last changed a user, an organization or a team (the gateway's ``created_by`` and
    ``modified_by``), as django-ansible-base's CreatableModel and ModifiableModel record them: the request's user
    (django-crum), none outside a request (the platform's system user, which this service has not)."""
    from refsvc.rbac.models import Team
    from refsvc.svc.models import Organization

    for model in (Organization, Team, get_user_model()):
        label = model._meta.label_lower
        post_save.connect(_authored, sender=model, dispatch_uid="gateway-authorship-save-%s" % label)
        post_delete.connect(_authorship_gone, sender=model, dispatch_uid="gateway-authorship-delete-%s" % label)
