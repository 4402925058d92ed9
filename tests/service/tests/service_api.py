"""What the tests of the reference service share: requests to its API, unique names,
objects made through the API, and waiting until a job has finished.

    call(service, "GET", "inventories/")                 as the administrator, with Basic
    call(service, "GET", "/api/v2/me/", auth=(u, p))     as another user
    call(service, "GET", "me/", auth=False)              without credentials
    call(service, "GET", "jobs/1/", token=True)          with a token of the administrator
    created(service, "hosts/", name=unique("h"), inventory=1)
    wait_until(service, "jobs/1/")                       the job once it has finished

A path is under /api/v2/ unless it starts with a slash (then it is the whole path,
as the ``url`` of an object is).
"""
import time
import uuid

import requests

FINISHED = ("successful", "failed", "error", "canceled")

_tokens = {}


def url_of(service, path):
    return service.url + (path if path.startswith("/") else "/api/v2/" + path)


def admin_token(service):
    """A token of the administrator, made once per instance: polling with it costs no
    password check (the request log counts them)."""
    if service.url not in _tokens:
        r = requests.post(url_of(service, "tokens/"), auth=(service.admin_username, service.admin_password),
                          json={"description": "tests"}, verify=service.ca_path, timeout=60)
        assert r.status_code == 201, r.text
        _tokens[service.url] = r.json()["token"]
    return _tokens[service.url]


def call(service, method, path, auth=None, token=False, **kwargs):
    """One request: as ``auth`` (a (username, password) pair, sent with Basic), without
    credentials when ``auth`` is False, else as the administrator (with a token when
    ``token``, with Basic otherwise)."""
    if auth is None and token:
        kwargs["headers"] = dict(kwargs.get("headers") or {}, Authorization="Bearer " + admin_token(service))
    elif auth is None:
        auth = (service.admin_username, service.admin_password)
    elif auth is False:
        auth = None
    kwargs.setdefault("timeout", 120)
    return requests.request(method, url_of(service, path), auth=auth, verify=service.ca_path, **kwargs)


def token_call(service, method, path, **kwargs):
    """call() with a token of the administrator (unless ``auth`` says otherwise)."""
    return call(service, method, path, token=True, **kwargs)


def unique(prefix):
    return "%s-%s" % (prefix, uuid.uuid4().hex[:8])


def created(service, path, body=None, **fields):
    """POST ``body`` (or the keyword arguments) to the list ``path``: the new object (201)."""
    r = call(service, "POST", path, json=dict(body or {}, **fields))
    assert r.status_code == 201, r.text
    return r.json()


def wait_until(service, path, done=None, seconds=90, token=True):
    """GET ``path`` until ``done(data)`` (by default: its status is a finished one) or
    ``seconds`` have passed; the last answer."""
    done = done or (lambda data: data["status"] in FINISHED)
    deadline = time.time() + seconds
    while True:
        data = call(service, "GET", path, token=token).json()
        if done(data) or time.time() > deadline:
            return data
        time.sleep(0.2)
