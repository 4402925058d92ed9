import json
import os
import time
import uuid

from django.conf import settings

from . import hashers, runtime

_log_fd = None


def _log_line(entry: dict) -> None:
    global _log_fd
    if _log_fd is None:
        path = os.path.join(str(settings.INSTANCE_DIR), "requests.jsonl")
        _log_fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    os.write(_log_fd, (json.dumps(entry, separators=(",", ":")) + "\n").encode())


def _user_of(request):
    user = getattr(request, "user", None)
    try:
        if user is not None and user.is_authenticated:
            return user
    except Exception:  # the session store may be gone
        return None
    return None


class RequestLogMiddleware:
    """Outermost: the service headers on every response, and one request-log line per request."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        started = time.time()
        checks_before = hashers.password_checks()
        request.svc_request_id = uuid.uuid4().hex
        request.svc_auth = None
        request.svc_login = False
        response = self.get_response(request)
        user = _user_of(request)
        response["X-API-Request-Id"] = request.svc_request_id
        response["Access-Control-Expose-Headers"] = "X-API-Request-Id"
        if 200 <= response.status_code < 400:
            response["Strict-Transport-Security"] = "max-age=15768000"
        elapsed = time.time() - started
        response["X-API-Total-Time"] = "%0.3fs" % elapsed
        auth = request.svc_auth
        if auth is None:
            auth = "session" if user is not None else "anonymous"
        if auth == "anonymous":
            user = None
        _log_line(
            {
                "t": started,
                "method": request.method,
                "path": request.path,
                "query": request.META.get("QUERY_STRING", ""),
                "status": response.status_code,
                "auth": auth,
                "user": user.username if user is not None else None,
                "password_checks": hashers.password_checks() - checks_before,
                "login": bool(request.svc_login),
                "duration": round(elapsed, 6),
                "fault": getattr(request, "svc_fault", None),
                # The headers that decide how the service answers (values of
                # Accept and Content-Type; only whether Referer and X-CSRFToken came).
                "accept": request.META.get("HTTP_ACCEPT"),
                "content_type": request.META.get("CONTENT_TYPE") or None,
                "referer": "HTTP_REFERER" in request.META,
                # The client's port: one value per TCP connection.
                "conn": request.META.get("REMOTE_PORT"),
                "agent": request.META.get("HTTP_USER_AGENT", "")[:80],
                "csrf": "HTTP_X_CSRFTOKEN" in request.META,
            }
        )
        return response


class RuntimeSettingsMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        runtime.refresh(new_request=True)
        return self.get_response(request)


class SessionTimeoutMiddleware:
    """Session-Timeout on every response whose session is not empty."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        session = getattr(request, "session", None)
        if session is not None:
            try:
                empty = not list(session.keys())
            except Exception:
                empty = True
            if not empty:
                response["Session-Timeout"] = str(settings.SESSION_COOKIE_AGE)
        return response
