"""A real Automation Hub behind the gateway (``svcctl start --layout gateway --hub HUB_DIR``).

The gateway forwards the Hub's paths to a galaxy-ng started by ``tests/hub/hubctl.py start
--trust-gateway`` (its ``HUB_DIR/gateway.json``: the API's and the content app's URLs, their CA, the
name of the header the Hub takes a user from, and its administrator's username):

- ``/api/galaxy/`` (galaxy-ng's API, Pulp's under it), ``/pulp_ansible/galaxy/`` and
  ``/ansible/collections/`` (pulp_ansible's own Galaxy API and upload), ``/v2/`` and ``/token/`` (the
  container registry and its token service) go to the API;
- ``/pulp/content/`` (pulpcore's ``CONTENT_PATH_PREFIX``, where the API sends downloads) goes to the
  content app.

One login serves all: the caller authenticates at the gateway (its token, its session with CSRF,
Basic while on), and the Hub is told who it is in the trusted header (the platform's gateway sends
django-ansible-base's signed ``X-DAB-JW-TOKEN``, which galaxy-ng 4.9.2 cannot read; the header is
its substitute, tests/hub/README.md). Before a user's first request reaches the Hub (and when it
changed since) the gateway writes its copy there through the Hub's ``_ui/v1/users/``, as the Hub's
administrator: the username, names, email and ``is_superuser``, so that a superuser at the gateway
is one at the Hub. A caller the gateway did not authenticate goes on anonymous, with its
``Authorization`` when that is a credential the gateway does not take (the Hub's own ``Token``, the
registry's bearer tokens), never Basic; the Hub answers such requests itself.

A header of the trusted prefix a client sends never goes on (only the headers named below do).
Bodies go both ways as streams (uploads from the request's input, downloads as they come); JSON
answers are read whole, and in them, as in ``Location``, ``Link`` and ``WWW-Authenticate``, the Hub's
own origins (its API's and its content app's) are said as the gateway's.
"""
import json
import logging
import threading
from functools import lru_cache

import requests
from django.conf import settings
from django.http import HttpResponse, QueryDict, StreamingHttpResponse
from django.utils.datastructures import MultiValueDict
from rest_framework.exceptions import AuthenticationFailed
from rest_framework.views import APIView

logger = logging.getLogger("refsvc.gateway.hub")

# The paths the gateway sends to the Hub, and which of its servers answers them: the path prefixes of the
# platform's published Hub schema (hub-2.7.json: /api/galaxy/, pulp_ansible's /pulp_ansible/galaxy/ and
# /ansible/collections/, the registry's /token/), the registry itself (/v2/), and the content app's prefix.
API_PATHS = ("/api/galaxy/", "/pulp_ansible/galaxy/", "/ansible/collections/", "/v2/", "/token/")
CONTENT_PATHS = ("/pulp/content/",)
# The prefix of the trusted header's name (hubctl.py adds a secret to it).
TRUST_PREFIX = "x-gateway-user"
# Headers of the caller's request that go on to the Hub (besides Content-Length, taken from the body).
FORWARDED_REQUEST_HEADERS = (
    "Content-Type", "Accept", "Accept-Language", "User-Agent", "X-Request-Id", "Range", "Content-Range",
    "If-Match", "If-None-Match", "If-Modified-Since", "Docker-Distribution-Api-Version",
)
DROPPED_RESPONSE_HEADERS = {
    "connection", "keep-alive", "transfer-encoding", "content-encoding", "server", "date", "set-cookie",
    "proxy-authenticate", "trailer", "upgrade",
}
REWRITTEN_RESPONSE_HEADERS = ("location", "link", "www-authenticate", "content-location")
CHUNK = 64 * 1024


def config():
    """The Hub behind the gateway (``HUB_DIR/gateway.json`` as svcctl copied it), or None."""
    return getattr(settings, "GATEWAY_HUB", None)


def enabled():
    return bool(config())


def is_hub_path(path):
    return enabled() and path.startswith(API_PATHS + CONTENT_PATHS)


@lru_cache(maxsize=1)
def _session():
    return requests.Session()


def _origin(url):
    return url.rstrip("/")


def _target(path):
    hub = config()
    base = hub["content_url"] if path.startswith(CONTENT_PATHS) else hub["url"]
    return _origin(base)


def _request(method, url, **kwargs):
    # verify per request: a session's own verify gives way to REQUESTS_CA_BUNDLE
    return _session().request(method, url, verify=config().get("ca") or True, **kwargs)


def _trusted(username):
    return {config()["header"]: username}


# -- the users' copies at the Hub

_synced = {}
_synced_lock = threading.Lock()


def _user_data(user):
    return {
        "username": user.username,
        "first_name": user.first_name,
        "last_name": user.last_name,
        "email": user.email,
        "is_superuser": bool(user.is_superuser),
    }


def sync_user(user):
    """Make the Hub's user of ``user``'s name match the gateway's (names, email, is_superuser), once per
    process and change. As the Hub's administrator, through galaxy-ng's ``_ui/v1/users/``."""
    data = _user_data(user)
    key = tuple(sorted(data.items()))
    with _synced_lock:
        if _synced.get(user.username) == key:
            return
    if user.username == config().get("username"):
        # the Hub's administrator (hubctl.py makes it a superuser) is the gateway's of that name
        with _synced_lock:
            _synced[user.username] = key
        return
    base = _origin(config()["url"]) + "/api/galaxy/_ui/v1/users/"
    admin = _trusted(config()["username"])
    answer = _request("GET", base, params={"username": user.username}, headers=admin, timeout=60)
    answer.raise_for_status()
    found = [u for u in answer.json().get("data", []) if u.get("username") == user.username]
    if not found:
        answer = _request("POST", base, json=dict(data, groups=[]), headers=admin, timeout=60)
    else:
        current = found[0]
        if any(current.get(name) != value for name, value in data.items()):
            answer = _request("PUT", "%s%d/" % (base, current["id"]),
                              json=dict(data, groups=current.get("groups", [])), headers=admin, timeout=60)
    if answer.status_code >= 300:
        raise RuntimeError("the Hub refused the user %s: %s %s" % (user.username, answer.status_code, answer.text[:300]))
    with _synced_lock:
        _synced[user.username] = key


# -- forwarding

class _Body:
    """The caller's request body as a stream of known length (requests sends it as it reads it)."""

    def __init__(self, stream, length):
        self.stream, self.left = stream, length

    def __len__(self):
        return self.left

    def read(self, size=-1):
        if self.left <= 0:
            return b""
        size = self.left if size is None or size < 0 else min(size, self.left)
        data = self.stream.read(size)
        self.left -= len(data)
        return data


def _rewrite(text, gateway_base):
    """``text`` (str or bytes) with the Hub's origins said as the gateway's."""
    for url in (config()["url"], config()["content_url"]):
        if isinstance(text, bytes):
            text = text.replace(_origin(url).encode(), gateway_base.encode())
        else:
            text = text.replace(_origin(url), gateway_base)
    return text


class HubProxyView(APIView):
    """Every method of every Hub path: forwarded to the Hub."""

    permission_classes = []

    def initial(self, request, *args, **kwargs):
        # The body goes on as a stream: nothing here may parse it. A session's CSRF check (DRF's, on an
        # unsafe method) reads the request's form first (DRF's and Django's, which would parse the body);
        # given empty ones, it takes the X-CSRFToken header.
        if request.method not in ("GET", "HEAD", "OPTIONS"):
            django_request = request._request
            django_request._post, django_request._files = QueryDict(), MultiValueDict()
            request._data, request._files = QueryDict(), MultiValueDict()
            request._full_data = request._data
        super().initial(request, *args, **kwargs)

    def perform_authentication(self, request):
        # As for the controller: a credential the gateway refuses goes on unauthenticated (the Hub then
        # answers itself); a refused CSRF check answers 403 here.
        try:
            request.user
        except AuthenticationFailed:
            pass

    def handle(self, request, *args, **kwargs):
        django_request = request._request
        user = request.user
        authenticated = bool(user and user.is_authenticated)
        try:
            authenticator = request.successful_authenticator
        except Exception:
            authenticator = None
        django_request.svc_auth = getattr(authenticator, "kind", None) or ("session" if authenticated else "anonymous")
        headers = {name: request.headers[name] for name in FORWARDED_REQUEST_HEADERS if name in request.headers}
        headers["Accept-Encoding"] = "identity"
        # The gateway's host, as the caller named it: what the Hub builds from the request's host (the
        # registry's service name, which its bearer tokens are for) is then the gateway's.
        headers["Host"] = request.get_host()
        if authenticated:
            try:
                sync_user(user)
            except Exception:
                logger.exception("the Hub's copy of %s was not written", user.username)
            headers.update(_trusted(user.username))
        else:
            credential = request.headers.get("Authorization", "")
            if credential and not credential.lower().startswith("basic "):
                headers["Authorization"] = credential
        length = int(django_request.META.get("CONTENT_LENGTH") or 0)
        body = _Body(django_request.META["wsgi.input"], length) if length else None
        path = django_request.get_full_path()
        try:
            answer = _request(request.method, _target(path) + path, headers=headers, data=body,
                              allow_redirects=False, stream=True, timeout=300)
        except requests.RequestException as exc:
            logger.error("the Hub did not answer %s %s: %s", request.method, path, exc)
            return HttpResponse(json.dumps({"detail": "The Hub did not answer."}), status=502,
                                content_type="application/json")
        gateway_base = "%s://%s" % (request.scheme, request.get_host())
        content_type = answer.headers.get("Content-Type", "")
        if request.method == "HEAD" or content_type.startswith("application/json") or answer.status_code in (204, 304):
            content = answer.content
            if content_type.startswith("application/json"):
                content = _rewrite(content, gateway_base)
            answer.close()
            response = HttpResponse(content, status=answer.status_code)
            dropped = DROPPED_RESPONSE_HEADERS | {"content-length"}
        else:
            response = StreamingHttpResponse(answer.iter_content(CHUNK), status=answer.status_code)
            dropped = DROPPED_RESPONSE_HEADERS
        for name, value in answer.headers.items():
            if name.lower() in dropped:
                continue
            if name.lower() in REWRITTEN_RESPONSE_HEADERS:
                value = _rewrite(value, gateway_base)
            response[name] = value
        if request.method == "HEAD" and "content-length" in answer.headers:
            response["Content-Length"] = answer.headers["Content-Length"]
        if "content-type" not in answer.headers:
            del response["Content-Type"]
        self.headers = {}
        return response

    get = post = put = patch = delete = head = options = handle
