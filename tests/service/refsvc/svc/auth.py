from oauth2_provider.contrib.rest_framework import OAuth2Authentication
from django.utils import timezone
from rest_framework import authentication

from . import runtime

WWW_AUTHENTICATE = "Bearer realm=api authorization_url=/api/o/authorize/"


class RecordsLastUse:
    """A token authentication that records when the token was last used (the token's last_used)."""

    def authenticate(self, request):
        result = super().authenticate(request)
        if result is not None:
            token = result[1]
            token.last_used = timezone.now()
            token.save(update_fields=["last_used"])
        return result


class BearerAuthentication(RecordsLastUse, OAuth2Authentication):
    kind = "bearer"

    def authenticate_header(self, request):
        return WWW_AUTHENTICATE


class SessionAuthentication(authentication.SessionAuthentication):
    kind = "session"

    def authenticate_header(self, request):
        return WWW_AUTHENTICATE


class BasicAuthentication(authentication.BasicAuthentication):
    kind = "basic"

    def authenticate(self, request):
        if not runtime.get("AUTH_BASIC_ENABLED"):
            return None
        return super().authenticate(request)

    def authenticate_header(self, request):
        return WWW_AUTHENTICATE
