"""The session login and logout pages (plain Django views, not API views)."""

from django.conf import settings
from django.contrib.auth import authenticate, login, logout
from django.http import HttpResponse, HttpResponseRedirect
from django.utils.cache import patch_vary_headers
from django.utils.html import escape
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_protect, ensure_csrf_cookie
from django.middleware.csrf import get_token
from rest_framework.exceptions import NotAcceptable
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.renderers import StaticHTMLRenderer
from rest_framework.request import Request

PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>AWX REST API</title></head>
<body>
<h1>Log in</h1>
%(error)s
<form method="post" action="/api/login/">
<input type="hidden" name="csrfmiddlewaretoken" value="%(csrf)s">
<label for="id_username">Username:</label> <input type="text" name="username" id="id_username" value="%(username)s" required>
<label for="id_password">Password:</label> <input type="password" name="password" id="id_password" required>
<input type="hidden" name="next" value="%(next)s">
<button type="submit">Log in</button>
</form>
</body></html>
"""


def _page(request, error="", status=200):
    html = PAGE % {
        "error": '<p class="errornote">%s</p>' % escape(error) if error else "",
        "csrf": escape(get_token(request)),
        "username": escape(request.POST.get("username", "")),
        "next": escape(request.POST.get("next", request.GET.get("next", ""))),
    }
    return HttpResponse(html, status=status)


def _accepts_html(request):
    """The real login page negotiates its one HTML renderer as DRF does: an
    Accept that admits no text/html (``application/json`` alone) is refused."""
    try:
        DefaultContentNegotiation().select_renderer(Request(request), [StaticHTMLRenderer()])
    except NotAcceptable:
        return False
    return True


def _not_acceptable():
    # The real service answers 406 with the body ``null`` and sets no cookie.
    return HttpResponse(b"null", status=406, content_type="text/plain")


@never_cache
def login_view(request):
    if request.method == "GET" and not _accepts_html(request):
        return _not_acceptable()
    return _login_form_view(request)


@ensure_csrf_cookie
@csrf_protect
def _login_form_view(request):
    if request.method == "GET":
        return _page(request)
    if request.method != "POST":
        return HttpResponse(status=405, headers={"Allow": "GET, POST"})
    username = request.POST.get("username", "")
    password = request.POST.get("password", "")
    user = authenticate(request, username=username, password=password) if username and password else None
    if user is None or not user.is_active:
        return _page(
            request,
            "Please enter a correct username and password. Note that both fields may be case-sensitive.",
            status=401,
        )
    login(request, user)
    request.svc_auth = "session"
    request.svc_login = True
    target = request.POST.get("next") or request.GET.get("next") or settings.LOGIN_REDIRECT_URL
    if not url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()}, require_https=True):
        target = settings.LOGIN_REDIRECT_URL
    response = HttpResponseRedirect(target)
    patch_vary_headers(response, ("Origin",))
    response["X-API-Session-Cookie-Name"] = settings.SESSION_COOKIE_NAME
    response.set_cookie("userLoggedIn", "true", samesite="Lax")
    return response


@never_cache
def logout_view(request):
    logout(request)
    response = HttpResponseRedirect("/")
    response.delete_cookie("userLoggedIn")
    return response


def profile_view(request):
    return HttpResponseRedirect("/api/")


def ui_view(request):
    return HttpResponse("<!DOCTYPE html><html><head><title>AWX</title></head><body>AWX</body></html>")
