"""The gateway's read-only sub-lists that the 2.7 schema has (GET and OPTIONS):

- ``users/<id>/authenticators/``: the authenticators a user is linked to (django-ansible-base's ``AuthenticatorUser``),
  each as django-ansible-base's authenticator serializer answers it;
- ``users/<id>/tokens/``, ``personal_tokens/``, ``authorized_tokens/``: a user's OAuth2 tokens;
- ``role_definitions/<id>/user_assignments/``, ``team_assignments/``: the assignments of one role definition, as
  ``role_user_assignments/`` and ``role_team_assignments/`` answer them;
- the routing's: ``http_ports/<id>/routes/``, ``service_clusters/<id>/nodes/``, ``routes/``, ``service_keys/``,
  ``service_types/`` (the cluster's type), ``service_types/<id>/clusters/``.

``authenticators/<id>/users/`` is django-ansible-base's own view (``ANSIBLE_BASE_USER_VIEWSET``, refsvc/gateway/settings.py)."""
from django.contrib.auth import get_user_model
from django.shortcuts import get_object_or_404
from django.urls import path

from refsvc.rbac import gateway as rbac_gateway

from . import models as m
from . import routing
from .views import _SubList


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
]
