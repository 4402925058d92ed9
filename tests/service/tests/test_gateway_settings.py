"""The gateway layout's settings (refsvc/gateway/preferences.py) and feature flags (refsvc/gateway/feature_flags.py):
/api/gateway/v1/settings/, settings/<category>/, feature_flags/ and the states views."""
import subprocess
import sys

import pytest

from test_gateway_layout import GW, SVCCTL, Gateway


@pytest.fixture(scope="module")
def gateway(tmp_path_factory):
    instance = Gateway(tmp_path_factory.mktemp("gateway")).start()
    yield instance
    instance.stop()


def _api(gateway, user=None, password=None):
    s = gateway.session()
    s.headers.update(gateway.basic(user, password))

    def call(method, path, body=None):
        r = s.request(method, gateway.url + GW + path, json=body)
        return r.status_code, (r.json() if r.content else None)

    return call


def _user(gateway, username, auditor=False):
    """A user (its name and password); ``auditor``: given the Platform Auditor role (is_platform_auditor)."""
    api = _api(gateway)
    status, user = api("POST", "users/", dict(username=username, password="Pw-" + username))
    assert status == 201, user
    if auditor:
        definition = api("GET", "role_definitions/?name=Platform Auditor")[1]["results"][0]
        status, body = api("POST", "role_user_assignments/", dict(role_definition=definition["id"], user=user["id"]))
        assert status == 201, body
    return username, "Pw-" + username


def test_the_categories_all_first(gateway):
    status, body = _api(gateway)("GET", "settings/")
    assert status == 200
    names = [c["name"] for c in body["results"]]
    assert names[0] == "all" and names[1:] == sorted(names[1:])
    assert {"proxy", "local_login", "configuration", "analytics"} <= set(names)
    assert body["results"][0]["url"] == GW + "settings/all/"


def test_all_holds_every_category(gateway):
    api = _api(gateway)
    status, everything = api("GET", "settings/all/")
    assert status == 200
    assert everything["gateway_token_name"] == "X-DAB-JW-TOKEN"
    assert everything["gateway_access_token_expiration"] == 600
    assert everything["gateway_basic_auth_enabled"] is True
    assert everything["password_min_length"] == 0
    assert everything["SESSION_COOKIE_AGE"] == 1800      # the test bed's session lifetime (README)
    assert everything["REDHAT_PASSWORD"] == ""           # no secret held yet
    status, proxy = api("GET", "settings/proxy/")
    assert status == 200 and "password_min_length" not in proxy and proxy["gateway_token_name"] == "X-DAB-JW-TOKEN"
    assert api("GET", "settings/nothing_like_it/")[0] == 404


def test_the_2_7_schemas_settings_in_their_categories(gateway):
    api = _api(gateway)
    expected = {"proxy": {"trusted_header_timeout": 1000},
                "configuration": {"AAP_DEPLOYMENT_TYPE": "self-managed"},
                "analytics": {"NOTIFICATION_RSS_FEED_ENABLED": True,
                              "NOTIFICATION_RSS_FEED_URL": "https://announcements.ansiblecloud.redhat.com/feed.atom"},
                "feature_flags": {"RUNTIME_FEATURE_FLAGS_UI": False},
                "oauth2_provider": {"ALLOW_OAUTH2_FOR_EXTERNAL_USERS": False}}
    for category, values in expected.items():
        status, body = api("GET", "settings/%s/" % category)
        assert status == 200 and dict((k, body.get(k, "absent")) for k in values) == values, (category, body)
    assert api("PUT", "settings/proxy/", {"trusted_header_timeout": 99})[0] == 400      # at least 100
    assert api("PUT", "settings/configuration/", {"AAP_DEPLOYMENT_TYPE": "managed"})[0] == 400     # read-only
    status, body = api("PUT", "settings/analytics/", {"NOTIFICATION_RSS_FEED_ENABLED": False})
    assert status == 200 and body["NOTIFICATION_RSS_FEED_ENABLED"] is False
    api("PUT", "settings/analytics/", {"NOTIFICATION_RSS_FEED_ENABLED": True})


def test_a_put_changes_what_it_names_and_answers_the_category(gateway):
    api = _api(gateway)
    status, body = api("PUT", "settings/all/", {"password_min_length": 12, "gateway_access_token_expiration": "700"})
    assert status == 200, body
    assert body["password_min_length"] == 12 and body["gateway_access_token_expiration"] == 700
    assert "REDHAT_PASSWORD" in body                      # the whole category
    status, body = api("PUT", "settings/local_login/", {"password_min_length": 0})
    assert status == 200 and body["password_min_length"] == 0 and "gateway_token_name" not in body
    assert api("GET", "settings/all/")[1]["gateway_access_token_expiration"] == 700
    api("PUT", "settings/all/", {"gateway_access_token_expiration": 600})


def test_a_bad_put_writes_nothing(gateway):
    api = _api(gateway)
    status, body = api("PUT", "settings/all/", {"password_min_digits": 3, "NO_SUCH_SETTING": 1})
    assert status == 400 and body == {"NO_SUCH_SETTING": "Invalid key for category None"}
    status, body = api("PUT", "settings/proxy/", {"password_min_digits": 3})
    assert status == 400 and body == {"password_min_digits": "Invalid key for category proxy"}
    status, body = api("PUT", "settings/all/", {"password_min_digits": "many"})
    assert status == 400 and body == {"password_min_digits": "Value many cannot be converted to int"}
    status, body = api("PUT", "settings/all/", {"password_min_digits": 101})
    assert status == 400 and "password_min_digits" in body
    status, body = api("PUT", "settings/all/", {"gateway_proxy_url": 1337})
    assert status == 400 and body == {"gateway_proxy_url": "1337 is not a valid URL"}
    status, body = api("PUT", "settings/all/", {"jwt_public_key": "x"})
    assert status == 400 and body == {"jwt_public_key": "Cannot change read-only setting jwt_public_key"}
    assert api("GET", "settings/all/")[1]["password_min_digits"] == 0
    # The gateway's settings view has no PATCH.
    assert api("PATCH", "settings/all/", {"password_min_digits": 1})[0] == 405


def test_types_convert_as_the_gateway_converts(gateway):
    api = _api(gateway)
    status, body = api("PUT", "settings/all/", {"allow_admins_to_set_insecure": "true", "gateway_token_name": 1234})
    assert status == 200 and body["allow_admins_to_set_insecure"] is True and body["gateway_token_name"] == "1234"
    status, body = api("PUT", "settings/all/", {"allow_admins_to_set_insecure": 0, "gateway_token_name": "X-DAB-JW-TOKEN"})
    assert status == 200 and body["allow_admins_to_set_insecure"] is False


def test_a_secret_reads_back_encrypted(gateway):
    api = _api(gateway)
    status, body = api("PUT", "settings/all/", {"REDHAT_PASSWORD": "Not-4-display-3315"})
    assert status == 200 and body["REDHAT_PASSWORD"] == "$encrypted$"
    assert "Not-4-display-3315" not in str(api("GET", "settings/analytics/")[1])
    status, body = api("PUT", "settings/all/", {"REDHAT_PASSWORD": "$encrypted$"})   # no change
    assert status == 200 and body["REDHAT_PASSWORD"] == "$encrypted$"
    status, body = api("DELETE", "settings/analytics/")
    assert status == 200 and body["REDHAT_PASSWORD"] == ""


def test_one_setting_read_and_put_back_to_its_default(gateway):
    api = _api(gateway)
    assert api("GET", "settings/proxy/request_timeout/") == (200, {"section": "proxy", "name": "request_timeout",
                                                                 "value": 30})
    # through all: the setting's own category
    assert api("GET", "settings/all/password_min_length/")[1]["section"] == "local_login"
    assert api("GET", "settings/proxy/password_min_length/")[0] == 404       # not one of proxy's
    assert api("GET", "settings/proxy/no_such_setting/")[0] == 404
    assert api("PUT", "settings/proxy/", {"request_timeout": 45})[0] == 200
    assert api("GET", "settings/all/request_timeout/")[1]["value"] == 45
    assert api("DELETE", "settings/all/request_timeout/")[0] == 400           # a category must be named
    assert api("DELETE", "settings/proxy/request_timeout/") == (204, None)
    assert api("GET", "settings/proxy/")[1]["request_timeout"] == 30
    assert api("DELETE", "settings/proxy/jwt_public_key/")[0] == 400          # read-only
    # a secret is masked once it is held
    assert api("PUT", "settings/analytics/", {"REDHAT_PASSWORD": "held-" + "x"})[0] == 200
    assert api("GET", "settings/analytics/REDHAT_PASSWORD/")[1]["value"] == "$encrypted$"
    assert api("DELETE", "settings/analytics/REDHAT_PASSWORD/")[0] == 204
    assert api("GET", "settings/analytics/REDHAT_PASSWORD/")[1]["value"] == ""


def test_basic_auth_follows_the_setting(gateway):
    api = _api(gateway)
    assert api("PUT", "settings/all/", {"gateway_basic_auth_enabled": False})[0] == 200
    try:
        assert api("GET", "me/")[0] == 401
    finally:
        session, _ = gateway.login()
        r = session.put(gateway.url + GW + "settings/all/", json={"gateway_basic_auth_enabled": True},
                      headers={"X-CSRFToken": session.cookies["csrftoken"], "Referer": gateway.url + GW})
        assert r.status_code == 200, r.text
    assert api("GET", "me/")[0] == 200


def test_who_reads_and_who_writes(gateway):
    auditor = _user(gateway, "gs-auditor", auditor=True)
    plain = _user(gateway, "gs-plain")
    assert _api(gateway, *auditor)("GET", "settings/all/")[0] == 200
    assert _api(gateway, *auditor)("PUT", "settings/all/", {"password_min_upper": 1})[0] == 403
    assert _api(gateway, *plain)("GET", "settings/all/")[0] == 403
    assert _api(gateway, *plain)("PUT", "settings/all/", {"password_min_upper": 1})[0] == 403
    s = gateway.session()
    assert s.get(gateway.url + GW + "settings/all/").status_code == 401


def test_feature_flags(gateway):
    api = _api(gateway)
    status, body = api("GET", "feature_flags/?name=FEATURE_INDIRECT_NODE_COUNTING_ENABLED")
    assert status == 200 and body["count"] == 1
    flag = body["results"][0]
    assert flag["toggle_type"] == "run-time" and flag["condition"] == "boolean" and flag["value"] == "False"
    assert flag["url"] == GW + "feature_flags/%d/" % flag["id"] and flag["state"] is False
    status, body = api("PATCH", "feature_flags/%d/" % flag["id"], {"value": "True"})
    assert status == 200 and body["value"] == "True" and body["state"] is True
    states = api("GET", "feature_flags_state/")[1]
    assert states["FEATURE_INDIRECT_NODE_COUNTING_ENABLED"] is True
    listed = api("GET", "feature_flags/states/")[1]["results"]
    assert {"name": "FEATURE_INDIRECT_NODE_COUNTING_ENABLED", "state": True} in listed
    status, body = api("PATCH", "feature_flags/%d/" % flag["id"], {"value": "maybe"})
    assert status == 400 and body == {"details": "Feature flag boolean conditional requires using boolean value."}
    assert api("PATCH", "feature_flags/%d/" % flag["id"], {})[0] == 400
    status, body = api("PUT", "feature_flags/%d/" % flag["id"], {"value": "False"})
    assert status == 200 and body["value"] == "False"

    install = api("GET", "feature_flags/?toggle_type=install-time")[1]["results"][0]
    status, body = api("PATCH", "feature_flags/%d/" % install["id"], {"value": "True"})
    assert status == 405 and body == {"details": "Install-time feature flags cannot be toggled at run-time."}
    assert api("POST", "feature_flags/", {"name": "FEATURE_X_ENABLED"})[0] == 405
    assert api("DELETE", "feature_flags/%d/" % flag["id"])[0] == 405

    auditor = _user(gateway, "ff-auditor", auditor=True)
    plain = _user(gateway, "ff-plain")
    assert _api(gateway, *auditor)("GET", "feature_flags/")[0] == 200
    assert _api(gateway, *auditor)("PATCH", "feature_flags/%d/" % flag["id"], {"value": "True"})[0] == 403
    assert _api(gateway, *plain)("GET", "feature_flags/")[0] == 403
    assert _api(gateway, *plain)("GET", "feature_flags_state/")[0] == 200


def test_runtime_toggles_off(gateway):
    """With RUNTIME_FEATURE_FLAGS off (an install setting: read-only in the API), no flag is toggled."""
    api = _api(gateway)
    code = ("from refsvc.svc import runtime; runtime.store({'RUNTIME_FEATURE_FLAGS': False})")
    manage = [sys.executable, str(SVCCTL), "manage", "--dir", str(gateway.dir), "shell", "-c"]
    subprocess.run(manage + [code], check=True, capture_output=True, timeout=120)
    try:
        assert api("GET", "settings/feature_flags/")[1] == {"RUNTIME_FEATURE_FLAGS": False, "RUNTIME_FEATURE_FLAGS_UI": False}
        flag = api("GET", "feature_flags/?name=FEATURE_INDIRECT_NODE_COUNTING_ENABLED")[1]["results"][0]
        status, body = api("PATCH", "feature_flags/%d/" % flag["id"], {"value": "True"})
        assert status == 405 and body == {"details": "Runtime feature flags toggle is not enabled."}
    finally:
        subprocess.run(manage + ["from refsvc.svc import runtime; runtime.store({'RUNTIME_FEATURE_FLAGS': True})"],
                       check=True, capture_output=True, timeout=120)


def test_one_setting_is_read_and_put_back_to_its_default(gateway):
    api = _api(gateway)
    default = api("GET", "settings/configuration/")[1]["SESSION_COOKIE_AGE"]
    assert default != 1234
    assert api("PUT", "settings/configuration/", {"SESSION_COOKIE_AGE": 1234})[0] == 200
    for category in ("configuration", "all"):
        status, body = api("GET", "settings/%s/SESSION_COOKIE_AGE/" % category)
        assert status == 200, body
        assert body == {"section": "configuration", "name": "SESSION_COOKIE_AGE", "value": 1234}
    assert api("DELETE", "settings/configuration/SESSION_COOKIE_AGE/")[0] == 204
    assert api("GET", "settings/configuration/SESSION_COOKIE_AGE/")[1]["value"] == default
    assert api("GET", "settings/configuration/")[1]["SESSION_COOKIE_AGE"] == default
    # a name the category does not have, and a read-only setting
    assert api("GET", "settings/proxy/SESSION_COOKIE_AGE/")[0] == 404
    assert api("GET", "settings/configuration/NO_SUCH_SETTING/")[0] == 404
    status, body = api("DELETE", "settings/feature_flags/RUNTIME_FEATURE_FLAGS/")
    assert status == 400 and "read-only" in body["RUNTIME_FEATURE_FLAGS"]
    # a setting is put back in its own category, not through all
    assert api("DELETE", "settings/all/SESSION_COOKIE_AGE/")[0] == 400
