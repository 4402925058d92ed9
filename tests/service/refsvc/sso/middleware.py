from django.http import HttpResponseRedirect
from django.utils.deprecation import MiddlewareMixin
from social_core.exceptions import SocialAuthBaseException


class SsoErrorMiddleware(MiddlewareMixin):
    """A failed SSO login ends on /sso/error/, which shows why (like the real service's UI)."""

    def process_exception(self, request, exception):
        if not isinstance(exception, SocialAuthBaseException) or not request.path.startswith("/sso/"):
            return None
        session = getattr(request, "session", None)
        if session is not None:
            session["sso_error"] = str(exception)
        return HttpResponseRedirect("/sso/error/")
