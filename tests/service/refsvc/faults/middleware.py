"""Fault injection, off unless the instance directory holds a `faults.json`.

`faults.json` is a list of rules; every request is checked against them in order
and the first rule that fires decides the fault:

    {"fault": "status", "status": 503, "retry_after": 2,
     "path": "/api/v2/hosts/", "method": "GET", "every": 2, "fraction": 0.5, "times": 1}

- fault: `status` (answer `status` with a JSON error and `Retry-After` when given),
  `html` (a proxy's HTML error page, `status` default 502), `malformed_json`
  (200 with truncated JSON), `delay` (sleep `seconds`, then serve), `reset_before`
  (close the connection with a reset before any answer, nothing processed),
  `reset_after` (serve the request, then reset the connection instead of answering),
  `drop_sessions` (forget every session, as a restart does, then serve).
- path: a path prefix (default: every path); method: one method (default: any).
- every: fire on every Nth matching request (N, 2N, ...); fraction: fire on this
  share of matching requests; times: fire at most this often.

Counters are kept in `faults.state.json` under a lock, so both workers share them.
Rules are re-read when the file changes.
"""
import fcntl
import json
import os
import random
import socket
import struct
import time

from django.conf import settings
from django.http import HttpResponse, JsonResponse

PROXY_PAGE = (
    "<html><head><title>{status} Bad Gateway</title></head><body><center><h1>{status} Bad Gateway</h1>"
    "</center><hr><center>nginx</center></body></html>"
)


class FaultMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response
        self.directory = str(settings.INSTANCE_DIR)
        self.path = os.path.join(self.directory, "faults.json")
        self._rules = []
        self._mtime = None

    def rules(self):
        try:
            mtime = os.stat(self.path).st_mtime_ns
        except FileNotFoundError:
            self._rules, self._mtime = [], None
            return self._rules
        if mtime != self._mtime:
            try:
                with open(self.path) as handle:
                    loaded = json.load(handle)
                self._rules = loaded if isinstance(loaded, list) else []
            except (OSError, ValueError):
                self._rules = []
            self._mtime = mtime
        return self._rules

    def __call__(self, request):
        rules = self.rules()
        rule = self._firing(request, rules) if rules else None
        if rule is None:
            return self.get_response(request)
        kind = rule.get("fault")
        request.svc_fault = kind
        if kind == "delay":
            time.sleep(float(rule.get("seconds", 5)))
            return self.get_response(request)
        if kind == "drop_sessions":
            from django.contrib.sessions.models import Session

            Session.objects.all().delete()
            return self.get_response(request)
        if kind == "reset_before":
            _reset(request)
            return HttpResponse(status=444)
        if kind == "reset_after":
            self.get_response(request)
            _reset(request)
            return HttpResponse(status=444)
        if kind == "html":
            status = int(rule.get("status", 502))
            return HttpResponse(PROXY_PAGE.format(status=status), status=status, content_type="text/html")
        if kind == "malformed_json":
            return HttpResponse('{"count": 3, "next": null, "results": [{"id": 1, "name": ',
                                status=200, content_type="application/json")
        status = int(rule.get("status", 503))
        response = JsonResponse({"detail": "Injected fault: %d." % status}, status=status)
        if rule.get("retry_after") is not None:
            response["Retry-After"] = str(rule["retry_after"])
        return response

    def _firing(self, request, rules):
        matching = [
            index for index, rule in enumerate(rules)
            if request.path.startswith(rule.get("path", "/"))
            and rule.get("method", request.method).upper() == request.method
        ]
        if not matching:
            return None
        with open(os.path.join(self.directory, "faults.lock"), "a+") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            state_path = os.path.join(self.directory, "faults.state.json")
            try:
                with open(state_path) as handle:
                    state = json.load(handle)
            except (OSError, ValueError):
                state = {}
            chosen = None
            for index in matching:
                rule = rules[index]
                counters = state.setdefault(str(index), {"seen": 0, "hit": 0})
                counters["seen"] += 1
                if chosen is not None:
                    continue
                if rule.get("times") is not None and counters["hit"] >= int(rule["times"]):
                    continue
                every = int(rule.get("every") or 1)
                if counters["seen"] % every:
                    continue
                if rule.get("fraction") is not None and random.random() >= float(rule["fraction"]):
                    continue
                counters["hit"] += 1
                chosen = rule
            with open(state_path + ".tmp", "w") as handle:
                json.dump(state, handle)
            os.replace(state_path + ".tmp", state_path)
        return chosen


def _reset(request):
    """Abort the TCP connection with a reset, so the client gets no answer at all."""
    sock = request.META.get("gunicorn.socket")
    if sock is None:
        return
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        sock.close()
    except OSError:
        pass
