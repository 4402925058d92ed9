"""What the gateway keeps of its own besides the rows it shares with the controller."""
from django.db import models


class SharedDescription(models.Model):
    """The gateway's description of one of its organizations or teams, kept apart from the
    controller's copy's own (the row's ``description``) when the controller is the service's.

    AWX 24.6.1's django-ansible-base (2024.7.1, ``ansible_base/resource_registry/shared_types.py``)
    shares an organization's name only and a team's name and organization: the controller's copy has
    a description of its own, which the gateway's never reaches (its resource API ignores it) and
    which a PATCH at the controller changes (``immutablesharedfields`` in AWX's
    ``awx/api/views/__init__.py`` guards the declared fields only)."""

    kind = models.CharField(max_length=32)
    object_id = models.BigIntegerField()
    description = models.TextField(blank=True, default="")

    class Meta:
        app_label = "gateway"
        unique_together = [("kind", "object_id")]
