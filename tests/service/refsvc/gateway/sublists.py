"""The gateway's read-only sub-lists that the 2.7 schema has (GET and OPTIONS):

- ``users/<id>/authenticators/``: the authenticators a user is linked to (django-ansible-base's ``AuthenticatorUser``),
  each as django-ansible-base's authenticator serializer answers it;
- ``users/<id>/tokens/``, ``personal_tokens/``, ``authorized_tokens/``: a user's OAuth2 tokens;
- ``role_definitions/<id>/user_assignments/``, ``team_assignments/``: the assignments of one role definition, as
  ``role_user_assignments/`` and ``role_team_assignments/`` answer them;
- the routing's: ``http_ports/<id>/routes/``, ``service_clusters/<id>/nodes/``, ``routes/``, ``service_keys/``,
  ``service_types/`` (the cluster's type), ``service_types/<id>/clusters/``.

``authenticators/<id>/users/`` is django-ansible-base's own view (``ANSIBLE_BASE_USER_VIEWSET``, refsvc/gateway/settings.py).

And the routing's associations the schema has (POST and OPTIONS): ``http_ports/<id>/routes/``,
``service_clusters/<id>/routes/`` and ``service_clusters/<id>/service_types/``, each ``associate/`` and
``disassociate/`` (``RoutingAssociation``)."""
from ansible_base.lib.routers.association_resource_router import AssociateMixin
from django.contrib.auth import get_user_model
from django.shortcuts import get_object_or_404
from django.urls import path
from rest_framework import generics, serializers

from refsvc.rbac import gateway as rbac_gateway

from . import models as m
from . import routing
from .views import GatewayMixin, _SubList


class UserAuthenticatorsList(_SubList):
    """The authenticators a user is linked to; read as authenticator_users/ is (superusers and auditors)."""

    parent_model = get_user_model()
    endpoint_access = "settings"

    def get_serializer_class(self):
        from ansible_base.authentication.serializers import AuthenticatorSerializer

        return AuthenticatorSerializer

    def get_queryset(self):
        from ansible_base.authentication.models import Authenticator

        return Authenticator.objects.filter(authenticator_providers__user=self.parent()).distinct().order_by("id")


class UserTokensList(_SubList):
    """A user's OAuth2 tokens, as django-ansible-base's ``DABOAuth2UserViewsetMixin`` lists them (its
    ``tokens``, ``personal_tokens``, ``authorized_tokens`` actions of the user view set): a page of its token
    serializer, ``personal`` those without an application, ``authorized`` those of an application."""

    parent_model = get_user_model()
    filters = {}

    def get_serializer_class(self):
        from ansible_base.oauth2_provider.serializers import OAuth2TokenSerializer

        return OAuth2TokenSerializer

    def get_queryset(self):
        from ansible_base.oauth2_provider.models import OAuth2AccessToken

        return OAuth2AccessToken.objects.filter(user=self.parent(), **self.filters).order_by("id")


def _assignments_of_definition(view):
    """An assignment list of the rbac views restricted to the role definition of the path."""

    def get_queryset(self):
        from refsvc.rbac.models import RoleDefinition

        definition = get_object_or_404(RoleDefinition, pk=self.kwargs["pk"])
        return super(cls, self).get_queryset().filter(role_definition=definition)

    cls = type(view.__name__ + "OfDefinition", (view,), {"get_queryset": get_queryset,
                                                          "http_method_names": ["get", "head", "options"]})
    return cls


def _routing_sublist(parent, model, serializer, **lookup):
    """A routing object's related objects: ``lookup`` names the field of ``model`` that is the parent, or
    ``parent_field`` the parent's own foreign key to the one object listed."""

    def get_queryset(self):
        owner = self.parent()
        if "parent_field" in lookup:
            return model.objects.filter(pk=getattr(owner, lookup["parent_field"] + "_id")).order_by("id")
        return model.objects.filter(**{lookup["field"]: owner}).order_by("id")

    return type("%sOf%s" % (model.__name__, parent.__name__), (_SubList,),
                {"parent_model": parent, "serializer_class": serializer, "get_queryset": get_queryset})


# POST {"instances": [ids]} adds those objects to the relationship of the parent of the path (associate) or
# removes them from it (disassociate), 204, as django-ansible-base's AssociateMixin answers: the published
# schemas' texts of these paths are its router's (AssociationResourceRouter), and its serializers make the
# {"instances": [...]} they describe. A superuser writes.
# Here each relationship is a foreign key that the child must have (the schemas make a route's http_port and
# service_cluster, and a cluster's service_type, required and not nullable): associating sets it to the parent
# (``field``: the child's key; ``parent_field``: the parent's key to its one child, a cluster's type, so one
# instance at a time), and an object that is in the relationship is not disassociated from it (400): it would
# be left without one. What the platform answers then is not known here; this is chosen. An object that is not
# in the relationship is refused as django-ansible-base's DisassociationSerializerBase refuses it.
class RoutingAssociation(AssociateMixin, GatewayMixin, generics.GenericAPIView):
    """Add objects to this relationship (associate/) or remove them from it (disassociate/): POST
    {"instances": [ids]}."""

    parent_model = child_model = field = parent_field = None
    action = "associate"
    http_method_names = ["post", "options"]

    def get_parent_object(self):
        return get_object_or_404(self.parent_model, pk=self.kwargs["pk"])

    def get_viewset_model(self):
        return self.child_model

    def filter_associate_queryset(self, queryset):
        return queryset

    def get_queryset(self):
        """The objects in the relationship (what ``disassociate`` takes)."""
        owner = self.get_parent_object()
        if self.parent_field:
            return self.child_model.objects.filter(pk=getattr(owner, self.parent_field + "_id")).order_by("id")
        return self.child_model.objects.filter(**{self.field: owner}).order_by("id")

    def post(self, request, pk):
        return getattr(self, self.action)(request, pk=pk)

    def perform_associate(self, parent, instances):
        if self.parent_field:
            if len(instances) > 1:
                raise serializers.ValidationError(
                    {"instances": ["A %s has one %s." % (self.parent_model._meta.verbose_name,
                                                         self.child_model._meta.verbose_name)]})
            setattr(parent, self.parent_field, instances[0])
            parent.save()
            return
        for child in instances:
            setattr(child, self.field, parent)
            child.save()

    def perform_disassociate(self, parent, instances):
        name = self.child_model._meta.verbose_name if self.parent_field else self.parent_model._meta.verbose_name
        owner = parent if self.parent_field else instances[0]
        raise serializers.ValidationError(
            {"instances": ["A %s always has a %s: associate another one instead." % (owner._meta.verbose_name, name)]})


def _associations(prefix, parent, child, name, **relation):
    return [path("%s/<int:pk>/%s/%s/" % (prefix, name, verb),
                 RoutingAssociation.as_view(action=verb, parent_model=parent, child_model=child, **relation))
            for verb in ("associate", "disassociate")]


def _rbac_view(prefix):
    return dict(rbac_gateway.URLS)[prefix]


URLS = [
    path("users/<int:pk>/authenticators/", UserAuthenticatorsList.as_view()),
    path("users/<int:pk>/tokens/", UserTokensList.as_view()),
    path("users/<int:pk>/personal_tokens/", UserTokensList.as_view(filters={"application__isnull": True})),
    path("users/<int:pk>/authorized_tokens/", UserTokensList.as_view(filters={"application__isnull": False})),
    path("role_definitions/<int:pk>/user_assignments/",
         _assignments_of_definition(_rbac_view("role_user_assignments/")).as_view()),
    path("role_definitions/<int:pk>/team_assignments/",
         _assignments_of_definition(_rbac_view("role_team_assignments/")).as_view()),
    path("http_ports/<int:pk>/routes/",
         _routing_sublist(m.HttpPort, m.Route, routing.RouteSerializer, field="http_port").as_view()),
    path("service_clusters/<int:pk>/nodes/",
         _routing_sublist(m.ServiceCluster, m.ServiceNode, routing.ServiceNodeSerializer, field="service_cluster").as_view()),
    path("service_clusters/<int:pk>/routes/",
         _routing_sublist(m.ServiceCluster, m.Route, routing.RouteSerializer, field="service_cluster").as_view()),
    path("service_clusters/<int:pk>/service_keys/",
         _routing_sublist(m.ServiceCluster, m.ServiceKey, routing.ServiceKeySerializer, field="service_cluster").as_view()),
    path("service_clusters/<int:pk>/service_types/",
         _routing_sublist(m.ServiceCluster, m.ServiceType, routing.ServiceTypeSerializer,
                          parent_field="service_type").as_view()),
    path("service_types/<int:pk>/clusters/",
         _routing_sublist(m.ServiceType, m.ServiceCluster, routing.ServiceClusterSerializer,
                          field="service_type").as_view()),
    *_associations("http_ports", m.HttpPort, m.Route, name="routes", field="http_port"),
    *_associations("service_clusters", m.ServiceCluster, m.Route, name="routes", field="service_cluster"),
    *_associations("service_clusters", m.ServiceCluster, m.ServiceType, name="service_types", parent_field="service_type"),
]
