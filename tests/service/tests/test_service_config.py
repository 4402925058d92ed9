"""/api/v2/config/, config/subscriptions/ and config/attach/ as AWX 24.6.1 answers them
with its open licence: the licence shown, each refusal of a manifest, the
subscription and attach refusals (Red Hat is never asked), superusers only for writes."""
import base64
import io
import json
import uuid
import zipfile

import pytest

from service_api import call

OPEN = {"license_type": "open", "valid_key": True, "subscription_name": "OPEN", "product_name": "AWX"}


def b64(data):
    return base64.b64encode(data).decode()


def zipped(files):
    buff = io.BytesIO()
    with zipfile.ZipFile(buff, "w") as archive:
        for name, content in files.items():
            archive.writestr(name, content)
    return buff.getvalue()


@pytest.fixture(scope="module")
def rando(service):
    """A user who is not a superuser: (username, password)."""
    name, password = "rando-%s" % uuid.uuid4().hex[:8], "pw-" + uuid.uuid4().hex
    r = call(service, "POST", "users/", json={"username": name, "password": password})
    assert r.status_code == 201, r.text
    return name, password


def test_config_shows_the_open_license(service, rando):
    for auth in (None, rando):
        r = call(service, "GET", "config/", auth=auth)
        assert r.status_code == 200, r.text
        assert r.json()["license_info"] == OPEN and r.json()["eula"] == ""
    assert call(service, "GET", "config/", auth=("nobody", "wrong")).status_code == 401
    # Observed on AWX 24.6.1 (ApiV2ConfigView): the projects' paths for an administrator, not for a plain user.
    paths = {"project_base_dir", "project_local_paths", "custom_virtualenvs"}
    assert paths <= set(call(service, "GET", "config/").json())
    assert not paths & set(call(service, "GET", "config/", auth=rando).json())


@pytest.mark.parametrize("body, message", [
    # a decoding error answers with Python's own text
    ({"manifest": "not base64!"}, "Invalid base64-encoded string: number of data characters (9) cannot be 1 more than a multiple of 4"),
    ({"manifest": b64(b"plain text")}, "Invalid manifest: a subscription manifest zip file is required."),
    ({"manifest": b64(zipped({"other": "x"}))}, "Invalid manifest: missing required files."),
    ({"manifest": b64(zipped({"consumer_export.zip": "x", "signature": "y"}))}, "Invalid manifest submitted."),
    ({"manifest": 12}, "Invalid manifest submitted."),
    ({"manifest": b64(json.dumps({"license_key": "x"}).encode())},
     "Legacy license submitted. A subscription manifest is now required."),
    ({"license_key": "x"}, "Legacy license submitted. A subscription manifest is now required."),
])
def test_config_refuses_every_manifest(service, body, message):
    r = call(service, "POST", "config/", json=body)
    assert r.status_code == 400, r.text
    assert r.json() == {"error": message}
    assert call(service, "GET", "config/").json()["license_info"] == OPEN


def test_config_post_without_manifest_and_of_no_dict(service):
    r = call(service, "POST", "config/", json={})
    assert r.status_code == 200 and r.json() == OPEN
    system = call(service, "GET", "settings/system/").json()
    assert system["TOWER_URL_BASE"] == service.url
    r = call(service, "POST", "config/", json=["manifest"])
    assert r.status_code == 400 and r.json() == {"error": "Invalid subscription data"}


def test_config_delete(service):
    r = call(service, "DELETE", "config/")
    assert r.status_code == 204 and not r.content
    assert call(service, "GET", "config/").json()["license_info"] == OPEN


def test_subscriptions_never_reach_red_hat(service):
    for body in ({"subscriptions_username": "someone", "subscriptions_password": "secret-pw"},
                 {"subscriptions_username": "someone", "subscriptions_password": "$encrypted$"}, {}):
        r = call(service, "POST", "config/subscriptions/", json=body)
        assert r.status_code == 400 and r.json() == {"error": "Invalid Subscription"}, r.text
    assert call(service, "GET", "config/subscriptions/").status_code == 405


def test_attach(service):
    r = call(service, "POST", "config/attach/", json={})
    assert r.status_code == 400 and r.json() == {"error": "No subscription pool ID provided."}
    # Observed on AWX 24.6.1 without stored subscription credentials.
    r = call(service, "POST", "config/attach/", json={"pool_id": "8a85f99"})
    assert r.status_code == 500 and r.headers["Content-Type"] == "text/html; charset=utf-8"
    assert "<title>Server Error (500)</title>" in r.text


@pytest.mark.parametrize("method, path", [("POST", "config/"), ("DELETE", "config/"),
                                          ("POST", "config/subscriptions/"), ("POST", "config/attach/")])
def test_writes_are_for_superusers(service, rando, method, path):
    r = call(service, method, path, auth=rando, json={"pool_id": "x"})
    assert r.status_code == 403 and r.json() == {"detail": "You do not have permission to perform this action."}
    assert call(service, "OPTIONS", path, auth=rando).status_code == 200
