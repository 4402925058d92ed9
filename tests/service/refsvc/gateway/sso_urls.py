"""The gateway's social-auth URLs (django-ansible-base's ``api_urls``: social_django's under
``/api/gateway/social/``, namespace ``social``), with the login's start as social-auth-app-django
5.4 serves it.

django-ansible-base's ``authentication`` extra pins social-auth-app-django 5.4.1, whose
``social:begin`` takes GET (and POST) unless ``SOCIAL_AUTH_REQUIRE_POST``; the version installed here
(8.0, for Django 5.2) takes POST with a CSRF token only. The start here is 5.4.1's view (``psa`` and
``do_auth``) by default, and social_django's own view when the runtime setting
``SSO_LOGIN_VARIANT`` is ``post`` (``svcctl manage sso_login_variant post``). Everything else is
social_django's views with django-ansible-base's strategy (settings ``SOCIAL_AUTH_STRATEGY``)."""
from django.contrib.auth import REDIRECT_FIELD_NAME
from django.urls import path
from django.views.decorators.cache import never_cache
from social_core.actions import do_auth
from social_django import urls as social_urls
from social_django import views as social_views
from social_django.utils import psa

from refsvc.svc import runtime

app_name = "social"


@psa("social:complete")
def _begin_any_method(request, backend):
    return do_auth(request.backend, redirect_name=REDIRECT_FIELD_NAME)


@never_cache
def begin(request, backend):
    if runtime.get("SSO_LOGIN_VARIANT") == "post":
        return social_views.auth(request, backend)
    return _begin_any_method(request, backend)


urlpatterns = [path("login/<str:backend>/", begin, name="begin")] + [
    p for p in social_urls.urlpatterns if p.name != "begin"
]
