"""The OAuth2 provider endpoints under /api/o/, as django-oauth-toolkit serves
them, with the service's own rules: token lifetimes from the runtime settings,
no PKCE requirement, and external users refused a token unless
ALLOW_OAUTH2_FOR_EXTERNAL_USERS is on (403 with the oauthlib error text)."""
import datetime

from django.http import HttpResponse, JsonResponse
from django.utils import timezone
from oauthlib.oauth2 import AccessDeniedError
from oauth2_provider import views as dot_views
from oauth2_provider.oauth2_validators import OAuth2Validator
from oauth2_provider.settings import oauth2_settings

from . import runtime

EXTERNAL_REFUSED = "OAuth2 Tokens cannot be created by users associated with an external authentication provider (%s)"


class ExternalUserRefused(Exception):
    """Raised past oauthlib (which would turn its own errors into a 400) so that
    the token endpoint answers 403 with the oauthlib error text, as the real service does."""


def refuse_external(user):
    """Raise ExternalUserRefused when ``user`` is external and the setting forbids it."""
    from .serializers import profile_of

    provider = profile_of(user).external_account if user is not None else None
    if provider and not runtime.get("ALLOW_OAUTH2_FOR_EXTERNAL_USERS"):
        raise ExternalUserRefused(str(AccessDeniedError(description=EXTERNAL_REFUSED % provider)))


def access_expiry():
    return timezone.now() + datetime.timedelta(seconds=int(runtime.get("ACCESS_TOKEN_EXPIRE_SECONDS")))


class Validator(OAuth2Validator):
    def is_pkce_required(self, client_id, request):
        return False

    def save_bearer_token(self, token, request, *args, **kwargs):
        refuse_external(request.user)
        return super().save_bearer_token(token, request, *args, **kwargs)


def _expires_in(request):
    return int(runtime.get("ACCESS_TOKEN_EXPIRE_SECONDS"))


class ServiceOAuthMixin:
    validator_class = Validator

    @classmethod
    def get_server(cls):
        kwargs = dict(oauth2_settings.server_kwargs)
        kwargs["token_expires_in"] = _expires_in
        return cls.get_server_class()(cls.get_validator_class()(), **kwargs)


def apply_settings(values):
    """Make the toolkit read the lifetimes that can change at run time (runtime.apply calls this)."""
    oauth2_settings.ACCESS_TOKEN_EXPIRE_SECONDS = int(values["ACCESS_TOKEN_EXPIRE_SECONDS"])
    oauth2_settings.REFRESH_TOKEN_EXPIRE_SECONDS = int(values["REFRESH_TOKEN_EXPIRE_SECONDS"])
    oauth2_settings.AUTHORIZATION_CODE_EXPIRE_SECONDS = int(values["AUTHORIZATION_CODE_EXPIRE_SECONDS"])


class TokenView(ServiceOAuthMixin, dot_views.TokenView):
    def create_token_response(self, request):
        try:
            return super().create_token_response(request)
        except ExternalUserRefused as exc:
            return request.build_absolute_uri(), {}, str(exc), 403


class AuthorizationView(ServiceOAuthMixin, dot_views.AuthorizationView):
    pass


class RevokeTokenView(ServiceOAuthMixin, dot_views.RevokeTokenView):
    pass


def root_view(request):
    if request.method != "GET":
        return HttpResponse(status=405)
    return JsonResponse(
        {"authorize": "/api/o/authorize/", "revoke_token": "/api/o/revoke_token/", "token": "/api/o/token/"}
    )


def urls():
    from django.urls import path

    return [
        path("api/o/", root_view),
        path("api/o/token/", TokenView.as_view()),
        path("api/o/authorize/", AuthorizationView.as_view()),
        path("api/o/revoke_token/", RevokeTokenView.as_view()),
    ]
