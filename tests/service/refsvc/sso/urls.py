from django.urls import include, path

from . import views

urlpatterns = [
    path("login/<str:backend>/", views.begin, name="sso-begin"),
    path("complete/", views.done),
    path("error/", views.error),
    path("inactive/", views.inactive),
    path("metadata/saml/", views.saml_metadata),
    path("", include("social_django.urls", namespace="social")),
]
