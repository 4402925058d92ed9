"""A real controller behind the gateway (``svcctl start --layout gateway --controller URL``).

The gateway then serves no controller of its own: it authenticates the caller (its tokens, its
session, Basic while on) and forwards ``/api/controller/...`` to the controller at ``URL``, as the
platform's gateway does, with the caller as a JSON web token in ``X-DAB-JW-TOKEN``: RS256, signed
with the gateway's private key, whose public key the controller fetches from
``/api/gateway/v1/jwt_key/`` (its setting ``ANSIBLE_BASE_JWT_KEY`` names the gateway). The claims
are the ones django-ansible-base's ``jwt_consumer`` requires (``ansible_base/jwt_consumer/common/auth.py``:
``iss`` ansible-issuer, ``aud`` ansible-services, ``sub``, ``exp``, ``version``, ``user_data`` with
username, first_name, last_name, email and is_superuser, ``objects``, ``object_roles``,
``global_roles``): the controller makes or updates the user of that username, and gives it the
roles named in ``object_roles`` on the organizations and teams of ``objects``, which it makes
(with the gateway's ``ansible_id``) when it has none of that id.

The controller keeps read-only copies of the gateway's organizations, teams and users
(``ALLOW_LOCAL_RESOURCE_MANAGEMENT`` False): the gateway writes them through the controller's
resource API (django-ansible-base's ``resource_registry``, ``/api/controller/v2/service-index/``)
as soon as it changed them, so that the next request finds them; an object the controller already
had under the same name (its ``Default`` organization, its ``admin``) is given the gateway's
``ansible_id`` instead of a second copy.
"""
import json
import logging
import time
from functools import lru_cache
from urllib.parse import urlsplit

import jwt
import requests
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.http import HttpResponse
from rest_framework.exceptions import AuthenticationFailed
from rest_framework.views import APIView

logger = logging.getLogger("refsvc.gateway.controller")

CONTROLLER = "/api/controller/"
RESOURCES = CONTROLLER + "v2/service-index/resources/"
# How long a forwarded request's token is good for (the controller checks exp).
TOKEN_SECONDS = 600
# Headers of the caller's request that go on to the controller; the gateway's own credentials
# (Authorization, Cookie, X-CSRFToken) stop at the gateway.
FORWARDED_REQUEST_HEADERS = ("Content-Type", "Accept", "Accept-Language", "User-Agent", "X-Request-Id")
# Headers of the controller's answer the gateway does not pass on: hop by hop, the body's encoding
# (requests decodes it), and the controller's own cookies (the caller's session is the gateway's).
DROPPED_RESPONSE_HEADERS = {
    "connection", "keep-alive", "transfer-encoding", "content-encoding", "content-length", "server", "date",
    "set-cookie", "proxy-authenticate", "trailer", "upgrade",
}


def config():
    """The controller the gateway forwards to (``{"url", "ca"}``), or None."""
    return getattr(settings, "GATEWAY_CONTROLLER", None)


def enabled():
    return bool(config())


@lru_cache(maxsize=1)
def _private_key():
    return (settings.INSTANCE_DIR / "jwt_private.pem").read_text()


def public_key():
    return (settings.INSTANCE_DIR / "jwt_public.pem").read_text()


@lru_cache(maxsize=1)
def _session():
    return requests.Session()


def _request(method, path, **kwargs):
    # verify per request: a session's own verify gives way to REQUESTS_CA_BUNDLE
    return _session().request(method, _controller_url(path), verify=config().get("ca") or True, **kwargs)


# -- ansible_id: the gateway's name of an object across the platform

def ansible_id(obj):
    """The id of one of the gateway's users, organizations or teams: the one its resource registry keeps
    (refsvc/gateway/resource_api.py), as its answers' ``summary_fields.resource`` and service-index/ show."""
    from refsvc.svc.models import RESOURCE_KINDS, ansible_id as registered

    return registered(RESOURCE_KINDS[obj._meta.concrete_model.__name__], obj.pk)


# -- the token

def _claims_objects(user):
    """``objects`` and ``object_roles``: the organizations the user is a member or an admin of, the
    teams it is a member or an admin of (the gateway's memberships, refsvc/rbac/gateway.py), and the
    roles the gateway's other assignments give the user on organizations and teams (such as
    ``Organization Audit``, which a controller behind the gateway leaves to it): django-ansible-base's
    ``jwt_consumer`` (``common/auth.py`` ``process_rbac_permissions``, 2024.7.1) gives the user each
    role definition of that name it has, on each object listed."""
    from refsvc.rbac import registry
    from refsvc.rbac.models import RoleUserAssignment, Team
    from refsvc.svc.models import Organization

    objects = {"organization": [], "team": []}
    roles = {}
    index = {}
    team_index = {}

    def org_index(org):
        if org.pk not in index:
            index[org.pk] = len(objects["organization"])
            objects["organization"].append({"ansible_id": ansible_id(org), "name": org.name})
        return index[org.pk]

    for role_name, orgs in (
        ("Organization Member", Organization.objects.filter(members=user)),
        ("Organization Admin", Organization.objects.filter(admins=user)),
    ):
        for org in orgs.order_by("id"):
            entry = roles.setdefault(role_name, {"content_type": "organization", "objects": []})
            entry["objects"].append(org_index(org))
    for team in Team.objects.select_related("organization").order_by("id"):
        held = registry.roles_of(team, create=False)
        for field, role_name in (("member_role", "Team Member"), ("admin_role", "Team Admin")):
            if field in held and held[field].members.filter(pk=user.pk).exists():
                if team.pk not in team_index:
                    team_index[team.pk] = len(objects["team"])
                    objects["team"].append({
                        "ansible_id": ansible_id(team), "name": team.name, "org": org_index(team.organization),
                    })
                entry = roles.setdefault(role_name, {"content_type": "team", "objects": []})
                entry["objects"].append(team_index[team.pk])

    def team_at(team):
        if team.pk not in team_index:
            team_index[team.pk] = len(objects["team"])
            objects["team"].append({"ansible_id": ansible_id(team), "name": team.name, "org": org_index(team.organization)})
        return team_index[team.pk]

    assignments = RoleUserAssignment.objects.filter(
        user=user, content_type__in=("shared.organization", "shared.team")).select_related("role_definition")
    for assignment in assignments.order_by("id"):
        name = assignment.role_definition.name
        if name in ("Organization Member", "Organization Admin", "Team Member", "Team Admin"):
            continue    # the memberships above
        if assignment.content_type == "shared.organization":
            obj = Organization.objects.filter(pk=assignment.object_id).first()
            kind, index_of = "organization", org_index
        else:
            obj = Team.objects.select_related("organization").filter(pk=assignment.object_id).first()
            kind, index_of = "team", team_at
        if obj is None:
            continue
        entry = roles.setdefault(name, {"content_type": kind, "objects": []})
        position = index_of(obj)
        if position not in entry["objects"]:
            entry["objects"].append(position)
    return objects, roles


def claims_for(user):
    """What the gateway's token for ``user`` says of the user (the claims but the token's times)."""
    objects, object_roles = _claims_objects(user)
    return {
        "iss": "ansible-issuer",
        "aud": "ansible-services",
        "sub": ansible_id(user),
        "version": "1",
        "user_data": {
            "username": user.username,
            "first_name": user.first_name,
            "last_name": user.last_name,
            "email": user.email,
            "is_superuser": user.is_superuser,
        },
        "objects": objects,
        "object_roles": object_roles,
        "global_roles": [],
    }


def token_for(user):
    now = int(time.time())
    claims = dict(claims_for(user), iat=now, exp=now + TOKEN_SECONDS)
    return jwt.encode(claims, _private_key(), algorithm="RS256")


def _service_user():
    """Who the gateway is when it writes the controller's copies: a superuser of the gateway."""
    return get_user_model().objects.filter(is_superuser=True, is_active=True).order_by("id").first()


# -- forwarding

def _controller_url(path):
    return config()["url"].rstrip("/") + path


def _gateway_base(request):
    return "%s://%s" % (request.scheme, request.get_host())


class ControllerProxyView(APIView):
    """Every method of every path under /api/controller/: forwarded to the controller."""

    permission_classes = []

    def initial(self, request, *args, **kwargs):
        request._request.body  # read now: the CSRF check of a session may read the form  # noqa: B018
        super().initial(request, *args, **kwargs)

    def perform_authentication(self, request):
        # As the gateway's own views: bad credentials go on unauthenticated (the controller then
        # answers 401 itself); a refused CSRF check answers 403 here.
        try:
            request.user
        except AuthenticationFailed:
            pass

    def handle(self, request, *args, **kwargs):
        user = request.user
        authenticated = bool(user and user.is_authenticated)
        try:
            authenticator = request.successful_authenticator
        except Exception:
            authenticator = None
        request._request.svc_auth = getattr(authenticator, "kind", None) or "anonymous"
        headers = {name: request.headers[name] for name in FORWARDED_REQUEST_HEADERS if name in request.headers}
        headers["X-Forwarded-Proto"] = request.scheme
        headers["X-Forwarded-Host"] = request.get_host()
        if authenticated:
            headers["X-DAB-JW-TOKEN"] = token_for(user)
        path = request._request.get_full_path()
        try:
            answer = _request(
                request.method, path, headers=headers, data=request._request.body or None,
                allow_redirects=False, timeout=120,
            )
        except requests.RequestException as exc:
            logger.error("the controller did not answer %s %s: %s", request.method, path, exc)
            return HttpResponse(
                json.dumps({"detail": "The controller did not answer."}), status=502, content_type="application/json"
            )
        response = HttpResponse(answer.content, status=answer.status_code)
        for name, value in answer.headers.items():
            if name.lower() in DROPPED_RESPONSE_HEADERS:
                continue
            if name.lower() == "location":
                value = _rewrite_location(value, _gateway_base(request))
            response[name] = value
        if "content-type" not in answer.headers:
            del response["Content-Type"]  # (an answer without a body, such as a 204, has none)
        # The controller's answer goes back as it came: DRF would set its own Allow (this view's
        # methods, every one) over the controller's.
        self.headers = {}
        return response

    get = post = put = patch = delete = head = options = handle


def _rewrite_location(value, gateway_base):
    """The controller's own URLs (its host) said as the gateway's."""
    parts = urlsplit(value)
    if parts.netloc and parts.netloc == urlsplit(config()["url"]).netloc:
        return gateway_base + value[len("%s://%s" % (parts.scheme, parts.netloc)):]
    return value


# -- the controller's copies

def _resource_type(obj):
    label = obj._meta.label_lower
    if label == "svc.organization":
        return "shared.organization"
    if label == "rbac.team":
        return "shared.team"
    if obj._meta.model is get_user_model():
        return "shared.user"
    return None


def _resource_data(obj, kind):
    """The gateway's shared fields (django-ansible-base 2025.12.3's types, the gateway's); a controller
    whose types share fewer ignores the others (AWX 24.6.1's, 2024.7.1: no description)."""
    if kind == "shared.organization":
        return {"name": obj.name, "description": obj.description}
    if kind == "shared.team":
        return {"name": obj.name, "organization": ansible_id(obj.organization), "description": obj.description}
    return {
        "username": obj.username,
        "email": obj.email,
        "first_name": obj.first_name,
        "last_name": obj.last_name,
        "is_superuser": obj.is_superuser,
    }


def _name_filter(kind, data):
    if kind == "shared.user":
        return {"name": data["username"]}
    return {"name": data["name"]}


class ControllerRefused(Exception):
    pass


def _call(method, path, **kwargs):
    user = _service_user()
    headers = {"X-DAB-JW-TOKEN": token_for(user)} if user else {}
    return _request(method, path, headers=headers, timeout=60, **kwargs)


def push(obj):
    """Make the controller's copy of ``obj`` match it (create, or re-key and update)."""
    kind = _resource_type(obj)
    if kind is None or not enabled():
        return
    if kind == "shared.team":
        push(obj.organization)
    wanted = ansible_id(obj)
    data = _resource_data(obj, kind)
    answer = _call("GET", RESOURCES + wanted + "/")
    if answer.status_code == 200:
        answer = _call("PATCH", RESOURCES + wanted + "/", json={"resource_data": data})
    elif answer.status_code == 404:
        existing = _find_by_name(kind, data, obj)
        if existing is not None:
            # The controller's own object of that name becomes the gateway's.
            answer = _call("PATCH", RESOURCES + existing + "/", json={"ansible_id": wanted, "resource_data": data})
        else:
            answer = _call("POST", RESOURCES, json={"resource_type": kind, "ansible_id": wanted, "resource_data": data})
    if answer.status_code >= 300:
        raise ControllerRefused("%s %s: %s %s" % (kind, wanted, answer.status_code, answer.text[:500]))


def _find_by_name(kind, data, obj):
    answer = _call("GET", RESOURCES, params=_name_filter(kind, data))
    if answer.status_code != 200:
        raise ControllerRefused("listing %s: %s %s" % (kind, answer.status_code, answer.text[:500]))
    for item in answer.json().get("results", []):
        if item.get("resource_type") != kind:
            continue
        if kind == "shared.team":
            if item.get("resource_data", {}).get("organization") != data["organization"]:
                continue
        return item["ansible_id"]
    return None


def delete(kind, wanted):
    if not enabled():
        return
    answer = _call("DELETE", RESOURCES + wanted + "/")
    if answer.status_code not in (204, 404):
        raise ControllerRefused("deleting %s %s: %s %s" % (kind, wanted, answer.status_code, answer.text[:500]))


def push_on_commit(obj):
    if enabled():
        transaction.on_commit(lambda: _logged(push, obj))


def delete_on_commit(obj):
    if enabled():
        kind, wanted = _resource_type(obj), ansible_id(obj)
        if kind:
            transaction.on_commit(lambda: _logged(delete, kind, wanted))


def _logged(func, *args):
    try:
        func(*args)
    except Exception:
        logger.exception("the controller's copy was not written")


def push_all():
    """Every organization, team and user of the gateway, at the controller (at start)."""
    from refsvc.rbac.models import Team
    from refsvc.svc.models import Organization

    for model in (Organization, Team, get_user_model()):
        for obj in model.objects.order_by("id"):
            push(obj)
