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
