"""Event-Driven Ansible's API behind the reference gateway (/api/eda/v1/; tests/service/README.md, "Event-Driven
Ansible behind the gateway"): authentication through the gateway, the managed credential types, EDA credentials with
encrypted inputs, decision environments, the shared users and organizations, pages and filters. One gateway for the
module; real HTTPS requests."""
import uuid

import pytest

from test_gateway_layout import GW, Gateway

EDA = "/api/eda/v1/"


@pytest.fixture(scope="module")
def gateway(tmp_path_factory):
    instance = Gateway(tmp_path_factory.mktemp("eda")).start()
    yield instance
    instance.stop()


@pytest.fixture(scope="module")
def api(gateway):
    """Requests to EDA as the administrator, with Basic."""
    s = gateway.session()
    s.headers.update(gateway.basic())
    s.headers["Accept"] = "application/json"

    def call(method, path, body=None):
        r = s.request(method, gateway.url + (path if path.startswith("/") else EDA + path), json=body)
        try:
            return r.status_code, r.json() if r.content else None
        except ValueError:
            return r.status_code, r.text

    return call


def unique(prefix):
    return "%s-%s" % (prefix, uuid.uuid4().hex[:8])


def type_id(api, name):
    found = [t for t in api("GET", "credential-types/?name=%s&page_size=100" % name)[1]["results"] if t["name"] == name]
    assert found, name
    return found[0]["id"]


def test_every_gateway_authentication_reaches_eda(gateway, api):
    s = gateway.session()
    # anonymous: refused, as the gateway refuses
    r = s.get(gateway.url + EDA + "users/me/")
    assert r.status_code == 401 and "WWW-Authenticate" in r.headers
    # Basic
    assert api("GET", "users/me/")[1]["username"] == gateway.admin[0]
    # the gateway's personal token
    made = s.post(gateway.url + GW + "tokens/", json={"description": "eda", "scope": "write"}, headers=gateway.basic())
    assert made.status_code == 201, made.text
    bearer = {"Authorization": "Bearer " + made.json()["token"]}
    r = s.get(gateway.url + EDA + "users/me/", headers=bearer)
    assert r.status_code == 200 and r.json()["username"] == gateway.admin[0]
    name = unique("token-de")
    r = s.post(gateway.url + EDA + "decision-environments/", headers=bearer,
               json={"name": name, "image_url": "quay.io/ansible/de-minimal:latest", "organization_id": 1})
    assert r.status_code == 201, r.text
    # the gateway's session: reads, and writes with its CSRF token and Referer
    session, login = gateway.login()
    assert login.status_code == 302
    r = session.get(gateway.url + EDA + "users/me/")
    assert r.status_code == 200 and r.json()["is_superuser"] is True
    assert session.post(gateway.url + EDA + "decision-environments/", json={"name": unique("de")}).status_code == 403
    r = session.post(gateway.url + EDA + "decision-environments/",
                     json={"name": unique("session-de"), "image_url": "quay.io/a/b", "organization_id": 1},
                     headers={"X-CSRFToken": session.cookies["csrftoken"], "Referer": gateway.url + EDA})
    assert r.status_code == 201, r.text
    # the request log names how each came in
    import json

    logged = [json.loads(line) for line in (gateway.dir / "requests.jsonl").read_text().splitlines()]
    me = [(entry["auth"], entry["user"]) for entry in logged if entry["path"] == EDA + "users/me/" and entry["status"] == 200]
    assert {("basic", gateway.admin[0]), ("bearer", gateway.admin[0]), ("session", gateway.admin[0])} <= set(me)
    # bad Basic credentials: not let in
    r = s.get(gateway.url + EDA + "users/me/", headers=gateway.basic("admin", "wrong"))
    assert r.status_code == 401
    # EDA's API is not the controller's
    assert s.get(gateway.url + "/api/controller/eda/v1/users/me/", headers=gateway.basic()).status_code == 404
    # Basic follows the gateway's setting (AAP 2.7 deployments turn it off); the token and the session stay
    assert s.put(gateway.url + GW + "settings/all/", json={"gateway_basic_auth_enabled": False}, headers=bearer).status_code == 200
    try:
        assert api("GET", "users/me/")[0] == 401
        assert s.get(gateway.url + EDA + "users/me/", headers=bearer).status_code == 200
        assert session.get(gateway.url + EDA + "users/me/").status_code == 200
    finally:
        r = s.put(gateway.url + GW + "settings/all/", json={"gateway_basic_auth_enabled": True}, headers=bearer)
        assert r.status_code == 200, r.text
    assert api("GET", "users/me/")[0] == 200


def test_roots(gateway, api):
    status, root = api("GET", "/api/eda/")
    assert status == 200 and root["current_version"].endswith(EDA) and root["available_versions"]["v1"].endswith(EDA)
    status, v1 = api("GET", "")
    assert status == 200 and v1["credentialtype-list"].endswith(EDA + "credential-types/")


def test_managed_credential_types_pages_and_filters(api):
    status, page = api("GET", "credential-types/?page_size=100")
    assert status == 200
    assert set(page) == {"count", "next", "previous", "page_size", "page", "results"}
    names = [t["name"] for t in page["results"]]
    # eda-server's managed types of 2.7 (the analytics ones only while their feature flag is on), ordered by name
    assert page["count"] == 28 and names == sorted(names)
    assert {"Source Control", "Container Registry", "Red Hat Ansible Automation Platform", "Vault", "GPG Public Key",
            "HashiCorp Vault Secret Lookup", "Event-Driven Ansible Rule Engine", "mTLS Event Stream"} <= set(names)
    assert "Basic Analytics" not in names
    registry = [t for t in page["results"] if t["name"] == "Container Registry"][0]
    assert registry["managed"] is True and registry["kind"] == "registry" and registry["namespace"] == "registry"
    assert {f["id"] for f in registry["inputs"]["fields"]} >= {"host", "username", "password", "verify_ssl"}
    aap = [t for t in page["results"] if t["name"] == "Red Hat Ansible Automation Platform"][0]
    assert aap["kind"] == "cloud" and aap["injectors"]["extra_vars"]["aap_hostname"] == "{{host}}"
    # page and page_size, the links relative to the host
    status, second = api("GET", "credential-types/?page_size=5&page=2")
    assert second["page"] == 2 and second["page_size"] == 5 and [t["name"] for t in second["results"]] == names[5:10]
    assert second["next"] == EDA + "credential-types/?page=3&page_size=5"
    # eda-server keeps page=1 in the previous link (it drops the parameter below 1 only)
    assert second["previous"] == EDA + "credential-types/?page=1&page_size=5"
    assert api("GET", "credential-types/?page=99")[0] == 404
    # ?name= starts the name (case aside), ?namespace= likewise
    assert [t["name"] for t in api("GET", "credential-types/?name=container")[1]["results"]] == ["Container Registry"]
    assert {t["namespace"] for t in api("GET", "credential-types/?namespace=event")[1]["results"]} == {"event_stream"}


def test_custom_credential_types(api):
    name = unique("custom")
    status, made = api("POST", "credential-types/", {
        "name": name, "inputs": {"fields": [{"id": "api_key", "label": "API key", "secret": True}]},
        "injectors": {"extra_vars": {"api_key": "{{api_key}}"}}})
    assert status == 201, made
    assert made["kind"] == "cloud" and made["managed"] is False and made["inputs"]["fields"][0]["type"] == "string"
    assert api("POST", "credential-types/", {"name": unique("bad"), "inputs": {"fields": [{"id": "x"}]}})[0] == 400
    assert api("POST", "credential-types/", {"name": unique("bad"), "injectors": {"nope": {}}}) == (
        400, {"injectors": ["Injectors must have keys defined in ['env', 'extra_vars', 'file']"]})
    assert api("PATCH", "credential-types/%d/" % made["id"], {"description": "changed"})[1]["description"] == "changed"
    managed = type_id(api, "Vault")
    assert api("PATCH", "credential-types/%d/" % managed, {"description": "x"}) == (
        400, {"errors": "Managed credential type cannot be updated"})
    assert api("DELETE", "credential-types/%d/" % managed)[0] == 400
    credential = api("POST", "eda-credentials/", {"name": unique("c"), "credential_type_id": made["id"],
                                                  "organization_id": 1, "inputs": {"api_key": "k"}})[1]
    assert api("PATCH", "credential-types/%d/" % made["id"], {"inputs": {"fields": []}})[0] == 400
    assert api("DELETE", "credential-types/%d/" % made["id"])[0] == 409
    assert api("DELETE", "eda-credentials/%d/" % credential["id"])[0] == 204
    assert api("DELETE", "credential-types/%d/" % made["id"])[0] == 204
    # a test needs a secret manager the reference service cannot reach: it fails, as a failed lookup answers
    lookup = type_id(api, "HashiCorp Vault Secret Lookup")
    assert api("POST", "credential-types/%d/test/" % lookup, {"inputs": {"url": "https://vault.example.com"}}) == (400, {})


def test_eda_credentials_keep_their_secrets_encrypted(gateway, api):
    registry = type_id(api, "Container Registry")
    name = unique("registry")
    status, made = api("POST", "eda-credentials/", {
        "name": name, "description": "d", "credential_type_id": registry, "organization_id": 1,
        "inputs": {"host": "quay.io", "username": "robot", "password": "s3cr3t-value"}})
    assert status == 201, made
    assert made["inputs"] == {"host": "quay.io", "username": "robot", "password": "$encrypted$", "verify_ssl": True}
    assert made["credential_type"] == {"id": registry, "name": "Container Registry", "namespace": "registry",
                                       "kind": "registry"}
    assert made["organization"]["id"] == 1 and made["created_by"]["username"] == gateway.admin[0]
    assert made["references"] is None and made["managed"] is False
    # $encrypted$ keeps the secret; the other inputs change
    status, changed = api("PATCH", "eda-credentials/%d/" % made["id"],
                          {"inputs": {"username": "robot2", "password": "$encrypted$"}})
    assert status == 200 and changed["inputs"]["username"] == "robot2" and changed["inputs"]["password"] == "$encrypted$"
    # the secret never shows, in the detail, the list or the copy
    listed = api("GET", "eda-credentials/?name=%s" % name)[1]
    assert listed["count"] == 1 and "s3cr3t-value" not in str(listed)
    status, copy = api("POST", "eda-credentials/%d/copy/" % made["id"], {"name": name + "-copy"})
    assert status == 201 and copy["inputs"] == changed["inputs"] and copy["id"] != made["id"]
    assert api("POST", "eda-credentials/%d/copy/" % made["id"], {"name": name + "-copy"})[0] == 400
    # inputs the type does not define, and a required field left blank, are refused
    status, body = api("POST", "eda-credentials/", {"name": unique("bad"), "credential_type_id": registry,
                                                    "organization_id": 1, "inputs": {"nope": "x"}})
    assert status == 400 and "inputs" in body
    scm = type_id(api, "Source Control")
    assert api("POST", "eda-credentials/", {"name": unique("bad"), "credential_type_id": scm, "organization_id": 1,
                                            "inputs": {"username": 5}})[0] == 400
    assert api("POST", "eda-credentials/", {"name": name, "credential_type_id": registry, "organization_id": 1,
                                            "inputs": {}})[0] == 400     # the name is taken
    # filters: kind (repeated), type id
    kinds = api("GET", "eda-credentials/?credential_type__kind=registry&credential_type__kind=scm")[1]["results"]
    assert {c["credential_type"]["kind"] for c in kinds} == {"registry"}
    assert api("GET", "eda-credentials/?credential_type_id=%d" % scm)[1]["count"] == 0
    assert api("GET", "eda-credentials/%d/input_sources/" % made["id"])[1]["count"] == 0
    # a decision environment refers to it: the DELETE needs ?force=true
    de = api("POST", "decision-environments/", {"name": unique("de"), "image_url": "quay.io/ansible/de:1",
                                                "organization_id": 1, "eda_credential_id": made["id"]})[1]
    refs = api("GET", "eda-credentials/%d/?refs=true" % made["id"])[1]["references"]
    assert refs == [{"type": "DecisionEnvironment", "id": de["id"], "name": de["name"],
                     "uri": EDA + "decision-environments/%d/" % de["id"]}]
    assert api("DELETE", "eda-credentials/%d/" % made["id"])[0] == 409
    assert api("DELETE", "eda-credentials/%d/?force=true" % made["id"])[0] == 204
    assert api("GET", "decision-environments/%d/" % de["id"])[1]["eda_credential"] is None
    assert api("GET", "eda-credentials/%d/" % made["id"])[0] == 404


def test_decision_environments(api):
    registry = type_id(api, "Container Registry")
    credential = api("POST", "eda-credentials/", {"name": unique("reg"), "credential_type_id": registry,
                                                  "organization_id": 1, "inputs": {"host": "quay.io"}})[1]
    name = unique("de")
    status, made = api("POST", "decision-environments/", {"name": name, "image_url": "quay.io/ansible/de:2.7",
                                                          "organization_id": 1, "eda_credential_id": credential["id"],
                                                          "pull_policy": "missing"})
    assert status == 201, made
    assert made["organization_id"] == 1 and made["eda_credential_id"] == credential["id"]
    assert made["pull_policy"] == "missing"
    status, detail = api("GET", "decision-environments/%d/" % made["id"])
    assert detail["organization"] == {"id": 1, "name": "Default", "description": ""}
    assert detail["eda_credential"]["id"] == credential["id"] and detail["eda_credential"]["credential_type_id"] == registry
    status, changed = api("PATCH", "decision-environments/%d/" % made["id"], {"pull_policy": "never"})
    assert status == 200 and changed["pull_policy"] == "never" and "organization_id" in changed
    assert [d["id"] for d in api("GET", "decision-environments/?name=%s" % name)[1]["results"]] == [made["id"]]
    # not a registry credential; a malformed image; a policy not offered
    scm = api("POST", "eda-credentials/", {"name": unique("scm"), "credential_type_id": type_id(api, "Source Control"),
                                           "organization_id": 1, "inputs": {}})[1]
    assert api("POST", "decision-environments/", {"name": unique("de"), "image_url": "quay.io/a:b",
                                                  "organization_id": 1, "eda_credential_id": scm["id"]})[0] == 400
    assert api("POST", "decision-environments/", {"name": unique("de"), "image_url": "nohost",
                                                  "organization_id": 1})[0] == 400
    assert api("POST", "decision-environments/", {"name": unique("de"), "image_url": "quay.io/a",
                                                  "organization_id": 1, "pull_policy": "sometimes"})[0] == 400
    assert api("POST", "decision-environments/", {"name": unique("de"), "image_url": "quay.io/a"})[0] == 400
    assert api("DELETE", "decision-environments/%d/" % made["id"])[0] == 204


def test_shared_users_organizations_and_teams(gateway, api):
    s = gateway.session()
    gw = lambda method, path, body=None: s.request(method, gateway.url + GW + path, json=body, headers=gateway.basic())
    org = gw("POST", "organizations/", {"name": unique("eda-org"), "description": "od"}).json()
    team = gw("POST", "teams/", {"name": unique("eda-team"), "organization": org["id"]}).json()
    password = uuid.uuid4().hex
    user = gw("POST", "users/", {"username": unique("eda-user"), "password": password}).json()
    assert gw("POST", "organizations/%d/users/associate/" % org["id"], {"instances": [user["id"]]}).status_code == 204
    # the gateway's objects are EDA's, with their resource ids
    status, found = api("GET", "organizations/?name=%s" % org["name"])
    assert found["count"] == 1
    assert found["results"][0]["resource"] == {"ansible_id": org["summary_fields"]["resource"]["ansible_id"],
                                               "resource_type": "shared.organization"}
    assert found["results"][0]["created_by"] == 1
    status, teams = api("GET", "organizations/%d/teams/" % org["id"])
    assert [t["id"] for t in teams["results"]] == [team["id"]] and teams["results"][0]["organization_id"] == org["id"]
    assert api("GET", "teams/%d/" % team["id"])[1]["organization"]["name"] == org["name"]
    assert api("GET", "teams/?organization_id=%d" % org["id"])[1]["count"] == 1
    status, users = api("GET", "users/?name=%s" % user["username"][:12])
    assert user["id"] in [u["id"] for u in users["results"]]
    assert set(users["results"][0]) == {"id", "username", "first_name", "last_name", "is_superuser", "resource"}
    assert api("GET", "users/?is_superuser=true")[1]["count"] == 1
    # a user's shared fields are changed at the platform's ingress only
    assert api("PATCH", "users/%d/" % user["id"], {"is_superuser": True}) == (
        403, {"detail": "Partial_update should be done through the platform ingress"})
    assert api("POST", "users/", {"username": unique("no")}) == (
        403, {"detail": "Create should be done through the platform ingress"})
    assert api("DELETE", "users/%d/" % user["id"]) == (403, {"detail": "destroy should be done through the platform ingress"})
    member = gateway.session()
    member.headers.update(gateway.basic(user["username"], password))
    me = member.get(gateway.url + EDA + "users/me/").json()
    assert me["username"] == user["username"] and me["is_superuser"] is False
    assert [o["id"] for o in member.get(gateway.url + EDA + "organizations/").json()["results"]] == [org["id"]]
    api("POST", "decision-environments/", {"name": unique("theirs"), "image_url": "quay.io/a", "organization_id": 1})
    mine = api("POST", "decision-environments/", {"name": unique("mine"), "image_url": "quay.io/a",
                                                  "organization_id": org["id"]})[1]
    # a member alone sees none of them (EDA's Organization Member gives no permission on its objects) nor adds one
    assert member.get(gateway.url + EDA + "decision-environments/").json()["results"] == []
    assert member.patch(gateway.url + EDA + "decision-environments/%d/" % mine["id"], json={"description": "x"}).status_code == 404
    assert member.post(gateway.url + EDA + "decision-environments/", json={
        "name": unique("no"), "image_url": "quay.io/a", "organization_id": org["id"]}).status_code == 403
    # an organization administrator sees and changes them
    assert gw("POST", "organizations/%d/admins/associate/" % org["id"], {"instances": [user["id"]]}).status_code == 204
    seen = member.get(gateway.url + EDA + "decision-environments/").json()["results"]
    assert [d["id"] for d in seen] == [mine["id"]]
    assert member.patch(gateway.url + EDA + "decision-environments/%d/" % mine["id"], json={"description": "x"}).status_code == 200
    # EDA's organization roles: a viewer sees the organization's objects, an editor also adds and changes them
    other_password = uuid.uuid4().hex
    other = gw("POST", "users/", {"username": unique("eda-editor"), "password": other_password}).json()
    them = gateway.session()
    them.headers.update(gateway.basic(other["username"], other_password))
    assert them.get(gateway.url + EDA + "decision-environments/").json()["count"] == 0
    role = lambda name: api("GET", "role_definitions/?name=%s" % name)[1]["results"][0]["id"]
    viewer = api("POST", "role_user_assignments/", {"role_definition": role("Organization Viewer"), "user": other["id"],
                                                    "object_id": str(org["id"])})
    assert viewer[0] == 201, viewer
    assert [d["id"] for d in them.get(gateway.url + EDA + "decision-environments/").json()["results"]] == [mine["id"]]
    body = {"name": unique("by-editor"), "image_url": "quay.io/a", "organization_id": org["id"]}
    assert them.post(gateway.url + EDA + "decision-environments/", json=body).status_code == 403
    assert api("POST", "role_user_assignments/", {"role_definition": role("Organization Editor"), "user": other["id"],
                                                  "object_id": str(org["id"])})[0] == 201
    assert them.post(gateway.url + EDA + "decision-environments/", json=body).status_code == 201
    # the editor's role has no delete
    assert them.delete(gateway.url + EDA + "decision-environments/%d/" % mine["id"]).status_code == 403


def test_controller_tokens_are_the_callers_own(gateway, api):
    name = unique("awx")
    status, made = api("POST", "users/me/awx-tokens/", {"name": name, "description": "ctl", "token": "the-token-value"})
    assert status == 201, made
    assert set(made) == {"id", "name", "description", "user_id", "created_at", "modified_at"}
    assert made["user_id"] == 1
    assert api("POST", "users/me/awx-tokens/", {"name": name, "token": "again"})[0] == 409
    assert api("POST", "users/me/awx-tokens/", {"name": unique("awx")})[0] == 400
    listed = api("GET", "users/me/awx-tokens/")[1]
    assert name in [t["name"] for t in listed["results"]] and "the-token-value" not in str(listed)
    assert api("GET", "users/me/awx-tokens/%d/" % made["id"])[1]["name"] == name
    assert api("DELETE", "users/me/awx-tokens/%d/" % made["id"])[0] == 204
    assert api("GET", "users/me/awx-tokens/%d/" % made["id"])[0] == 404


def test_edas_own_session_login_logout_and_token_refresh(gateway, api):
    s = gateway.session()
    preflight = s.get(gateway.url + EDA + "auth/session/login/")
    assert preflight.status_code == 204 and "csrftoken" in s.cookies
    headers = {"X-CSRFToken": s.cookies["csrftoken"], "Referer": gateway.url + EDA}
    bad = s.post(gateway.url + EDA + "auth/session/login/", json={"username": gateway.admin[0], "password": "wrong"},
                 headers=headers)
    assert bad.status_code == 403 and bad.json() == {"detail": "Invalid credentials or user is disabled."}
    # without the CSRF token: refused before the password is read
    assert s.post(gateway.url + EDA + "auth/session/login/",
                  json={"username": gateway.admin[0], "password": gateway.admin[1]}).status_code == 403
    login = s.post(gateway.url + EDA + "auth/session/login/",
                   json={"username": gateway.admin[0], "password": gateway.admin[1]}, headers=headers)
    assert login.status_code == 204 and "gateway_sessionid" in s.cookies
    # the gateway's session: EDA, the gateway and the controller answer it
    assert s.get(gateway.url + EDA + "users/me/").json()["username"] == gateway.admin[0]
    assert s.get(gateway.url + GW + "me/").status_code == 200
    assert s.get(gateway.url + "/api/controller/v2/me/").status_code == 200
    headers["X-CSRFToken"] = s.cookies["csrftoken"]
    assert s.post(gateway.url + EDA + "auth/session/logout/", headers=headers).status_code == 204
    assert s.get(gateway.url + EDA + "users/me/").status_code == 401
    # logout takes the session only
    assert api("POST", "auth/session/logout/")[0] == 401
    # a refresh token (eda-server gives them to ansible-rulebook, no API hands one out: made here as eda-server makes
    # them, an HS256 JWT of the service's secret) gives an access token; anything else is refused
    import datetime

    import jwt

    secret = (gateway.dir / "secret_key").read_text().strip()
    refresh = jwt.encode({"user_id": 1, "token_type": "refresh",
                          "exp": datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(hours=1)}, secret, "HS256")
    status, body = api("POST", "auth/token/refresh/", {"refresh": refresh})
    assert status == 200 and jwt.decode(body["access"], secret, ["HS256"])["token_type"] == "access"
    assert api("POST", "auth/token/refresh/", {"refresh": body["access"]}) == (400, {"non_field_errors": ["Invalid token"]})
    assert api("POST", "auth/token/refresh/", {"refresh": "not-a-token"})[0] == 400


def test_config_status_feature_flags_roles_and_service_index(gateway, api):
    assert api("GET", "config/") == (200, {"time_zone": "UTC", "version": "1.3.0", "deployment_type": "podman"})
    assert gateway.session().get(gateway.url + EDA + "status/").json() == {"status": "good"}     # anonymous
    flags = api("GET", "feature_flags_state/")[1]
    assert flags["FEATURE_EDA_ANALYTICS_ENABLED"] is False
    states = api("GET", "feature_flags/states/")[1]["results"]
    assert {"name": "FEATURE_EDA_ANALYTICS_ENABLED", "state": False} in states
    # django-ansible-base's RBAC over the platform's role definitions and assignments
    definitions = api("GET", "role_definitions/?name=Team Member")[1]["results"]
    assert [d["content_type"] for d in definitions] == ["shared.team"]
    user = api("GET", "users/?username=%s" % gateway.admin[0])[1]["results"][0]
    assert user["is_superuser"] is True
    assert "allowed_permissions" in api("GET", "role_metadata/")[1]
    assert api("GET", "role_definitions/%d/user_assignments/" % definitions[0]["id"])[0] == 200
    # EDA's managed definitions on an organization, given to a team there (ansible.eda's role_team_assignment)
    status, auditor = api("GET", "role_definitions/?name=Organization Auditor")
    assert auditor["count"] == 1
    auditor = auditor["results"][0]
    assert auditor["managed"] is True and auditor["content_type"] == "shared.organization"
    assert {"eda.view_activation", "eda.view_decisionenvironment", "shared.view_organization"} <= set(auditor["permissions"])
    names = {d["name"] for d in api("GET", "role_definitions/?page_size=200")[1]["results"]}
    assert {"Organization Editor", "Organization Contributor", "Organization Operator", "Organization Viewer",
            "Organization Admin", "Organization Member", "Team Member"} <= names
    # the controller's definitions are not EDA's: listed at the gateway and the controller, not here
    assert not names & {"JobTemplate Admin", "Organization Audit", "Platform Auditor"}
    controllers = api("GET", "/api/controller/v2/role_definitions/?name=JobTemplate Admin")[1]["results"][0]
    assert api("GET", "role_definitions/%d/" % controllers["id"])[0] == 404
    s = gateway.session()
    team = s.post(gateway.url + GW + "teams/", json={"name": unique("eda-rta"), "organization": 1},
                  headers=gateway.basic()).json()
    status, given = api("POST", "role_team_assignments/", {"role_definition": auditor["id"], "team": team["id"],
                                                           "object_id": "1"})
    assert status == 201, given
    assert given["content_type"] == "shared.organization" and given["object_id"] == "1"
    listed = api("GET", "role_team_assignments/?team=%d" % team["id"])[1]["results"]
    assert [a["id"] for a in listed] == [given["id"]]
    assert api("DELETE", "role_team_assignments/%d/" % given["id"])[0] == 204
    # the resource registry, as EDA's: its service type
    status, meta = api("GET", "service-index/metadata/")
    assert status == 200 and meta["service_type"] == "eda"
    assert api("GET", "service-index/resources/?page_size=1")[0] == 200
    assert api("GET", "service-index/")[1]["metadata"] == EDA + "service-index/metadata/"
    # the gateway's own index keeps its links
    assert api("GET", GW + "service-index/")[1]["metadata"] == GW + "service-index/metadata/"


def test_credential_input_sources(api):
    target = api("POST", "eda-credentials/", {"name": unique("target"), "organization_id": 1,
                                              "credential_type_id": type_id(api, "Container Registry"),
                                              "inputs": {"host": "quay.io", "username": "robot"}})[1]
    source = api("POST", "eda-credentials/", {"name": unique("vault"), "organization_id": 1,
                                              "credential_type_id": type_id(api, "HashiCorp Vault Secret Lookup"),
                                              "inputs": {"url": "https://vault.example.com", "token": "s.vault-token"}})[1]
    assert source["inputs"]["token"] == "$encrypted$"
    body = {"target_credential": target["id"], "source_credential": source["id"], "input_field_name": "password",
            "organization_id": 1, "metadata": {"secret_path": "/kv/robot", "secret_key": "password"}}
    status, made = api("POST", "credential-input-sources/", body)
    assert status == 201, made
    assert made["metadata"]["secret_path"] == "/kv/robot" and made["target_credential"] == target["id"]
    assert made["source_credential"] == source["id"] and made["organization"]["id"] == 1
    # the metadata as the source's type says: required fields, known keys
    assert api("POST", "credential-input-sources/", dict(body, input_field_name="username", metadata={}))[0] == 400
    assert api("POST", "credential-input-sources/", dict(body, input_field_name="username",
                                                         metadata={"secret_path": "/a", "nope": "x"}))[0] == 400
    # the field must be the target type's, one source per field (eda-server's and DRF's words)
    assert api("POST", "credential-input-sources/", dict(body, input_field_name="nope")) == (
        400, {"non_field_errors": ["Field : nope missing in source credential"]})
    assert api("POST", "credential-input-sources/", body) == (
        400, {"non_field_errors": ["The fields target_credential, input_field_name must make a unique set."]})
    assert api("POST", "credential-input-sources/", dict(body, target_credential=0))[0] == 400
    assert [s["id"] for s in api("GET", "eda-credentials/%d/input_sources/" % target["id"])[1]["results"]] == [made["id"]]
    assert api("GET", "credential-input-sources/?target_credential=%d" % target["id"])[1]["count"] == 1
    assert api("GET", "credential-input-sources/?source_credential=%d" % target["id"])[1]["count"] == 0
    status, changed = api("PATCH", "credential-input-sources/%d/" % made["id"], {"description": "from vault"})
    assert status == 200 and changed["description"] == "from vault" and changed["metadata"]["secret_key"] == "password"
    assert api("DELETE", "credential-input-sources/%d/" % made["id"])[0] == 204
    assert api("GET", "eda-credentials/%d/input_sources/" % target["id"])[1]["count"] == 0
