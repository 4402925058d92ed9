"""The service's single sign-on pages around social_django's views."""
from django.conf import settings
from django.http import HttpResponse, HttpResponsePermanentRedirect, HttpResponseServerError
from django.urls import reverse
from django.utils.html import escape
from django.views.decorators.cache import never_cache
from social_core.actions import do_auth
from social_django import views as social_views
from social_django.utils import load_backend, load_strategy, psa

from refsvc.svc import runtime

PAGE = ('<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>AWX</title></head>'
        "<body><h1>%s</h1>%s</body></html>")


@psa("social:complete")
def _begin_any_method(request, backend):
    return do_auth(request.backend, redirect_name="next")


@never_cache
def begin(request, backend):
    """/sso/login/<backend>/ in the variant the runtime setting SSO_LOGIN_VARIANT selects."""
    if runtime.get("SSO_LOGIN_VARIANT") == "post":
        return social_views.auth(request, backend)
    return _begin_any_method(request, backend)


@never_cache
def done(request):
    """/sso/complete/: the end of a login; success and failure both go on to the UI."""
    response = HttpResponsePermanentRedirect("/")
    if request.user.is_authenticated:
        response["X-API-Session-Cookie-Name"] = settings.SESSION_COOKIE_NAME
        response.set_cookie("userLoggedIn", "true", samesite="Lax")
    return response


@never_cache
def error(request):
    message = request.session.pop("sso_error", "") if hasattr(request, "session") else ""
    body = '<p class="error">%s</p>' % escape(message or "The single sign-on login failed.")
    return HttpResponse(PAGE % ("Login failed", body))


@never_cache
def inactive(request):
    return HttpResponse(PAGE % ("Account inactive", '<p class="error">Your account is inactive.</p>'))


def saml_metadata(request):
    complete = reverse("social:complete", args=("saml",))
    try:
        backend = load_backend(load_strategy(request), "saml", complete)
    except Exception as exc:  # not wired: no IdPs
        return HttpResponse("SAML is not configured: %s" % exc, status=404, content_type="text/plain")
    metadata, errors = backend.generate_metadata_xml()
    if errors:
        return HttpResponseServerError(", ".join(errors), content_type="text/plain")
    return HttpResponse(metadata, content_type="text/xml")
