"""The gateway layout answering as the Automation Platform's published gateway schema (2.7, read from
../shared/platform-api/gateway-2.7.json beside the checkout; tests/schema/check.py holds the whole API
against it): these tests pin what was made to match it, one thing each."""
import pytest

from test_gateway_layout import GW, Gateway


@pytest.fixture(scope="module")
def gateway(tmp_path_factory):
    instance = Gateway(tmp_path_factory.mktemp("gateway")).start()
    yield instance
    instance.stop()


@pytest.fixture(scope="module")
def api(gateway):
    s = gateway.session()
    s.headers.update(gateway.basic())
    s.headers["Accept"] = "application/json"

    def call(method, path, **body):
        r = s.request(method, gateway.url + (path if path.startswith("/") else GW + path),
                      json=body if method in ("POST", "PATCH", "PUT") else None)
        try:
            return r.status_code, r.json() if r.content else None
        except ValueError:
            return r.status_code, r.text

    return call


@pytest.mark.parametrize("path", ["users/", "users/1/", "me/", "organizations/", "teams/", "applications/", "tokens/",
                                  "authenticators/", "authenticator_maps/", "routes/", "services/", "feature_flags/"])
def test_options_answers_on_the_gateways_and_django_ansible_bases_views(api, path):
    status, body = api("OPTIONS", path)
    assert status == 200, body
    assert "GET" in body["actions"]


def test_options_lists_writable_fields_for_a_superuser(api):
    assert "username" in api("OPTIONS", "users/")[1]["actions"]["POST"]
    # django-ansible-base's view: its own permission classes decide
    assert "scope" in api("OPTIONS", "tokens/")[1]["actions"]["POST"]


def test_status_lists_the_service_clusters(api):
    status, body = api("GET", "status/")
    assert status == 200 and body["status"] == "good" and isinstance(body["services"], list) and body["time"]
    kind = api("POST", "service_types/", name="schema-type", ping_url="/ping/")[1]
    cluster = api("POST", "service_clusters/", name="schema-cluster", service_type=kind["id"])[1]
    api("POST", "service_nodes/", name="schema-node", address="node.example.com", service_cluster=cluster["id"])
    services = api("GET", "status/")[1]["services"]
    assert {"service_name": "schema-type", "status": "good",
            "nodes": {"schema-node": {"status": "good", "url": "node.example.com"}}} in services
    assert "schema-type" in api("GET", "status/?service_keys=true")[1]["services"]


def test_session_is_the_callers_session_only(gateway, api):
    assert api("GET", "session/")[0] == 404     # Basic: no session
    s, r = gateway.login()
    assert r.status_code == 302
    r = s.get(gateway.url + GW + "session/", headers={"Accept": "application/json"})
    assert r.status_code == 200, r.text
    body = r.json()
    assert set(body) == {"now", "expires_on", "expires_in_seconds"} and 0 < body["expires_in_seconds"] <= 1800
    r = s.post(gateway.url + GW + "session/", headers={"X-CSRFToken": s.cookies["csrftoken"],
                                                        "Referer": gateway.url + GW, "Accept": "application/json"})
    assert r.status_code == 200 and "message" in r.json()


def test_app_urls_list_the_applications_names_and_urls(api):
    made = api("POST", "applications/", name="schema-app", organization=1, client_type="confidential",
               authorization_grant_type="password", app_url="https://app.example.com/")
    assert made[0] == 201, made
    found = [app for app in api("GET", "app_urls/")[1]["results"] if app["id"] == made[1]["id"]]
    assert found and found[0]["name"] == "schema-app" and found[0]["app_url"] == "https://app.example.com/"
    assert "created_by" in found[0] and "client_secret" not in found[0]


def test_jwt_key_is_the_gateways_public_key_without_a_controller(gateway):
    r = gateway.session().get(gateway.url + GW + "jwt_key/")
    assert r.status_code == 200 and r.text.startswith("-----BEGIN PUBLIC KEY-----")


def test_organization_and_team_members_associate_and_disassociate(api):
    org = api("POST", "organizations/", name="schema-org")[1]
    team = api("POST", "teams/", name="schema-team", organization=org["id"])[1]
    user = api("POST", "users/", username="schema-member", password="pw-schema-1")[1]
    for parent in ("organizations/%d/" % org["id"], "teams/%d/" % team["id"]):
        for relation in ("users", "admins"):
            assert api("GET", parent + relation + "/")[1]["count"] == 0
            assert api("POST", parent + relation + "/associate/", instances=[user["id"]])[0] == 204
            assert [u["id"] for u in api("GET", parent + relation + "/")[1]["results"]] == [user["id"]]
            assert api("POST", parent + relation + "/associate/", instances=[])[0] == 400
    assert [o["id"] for o in api("GET", "users/%d/organizations/" % user["id"])[1]["results"]] == [org["id"]]
    assert [t["id"] for t in api("GET", "users/%d/teams/" % user["id"])[1]["results"]] == [team["id"]]
    assert [t["id"] for t in api("GET", "organizations/%d/teams/" % org["id"])[1]["results"]] == [team["id"]]
    # the membership is the role assignment the gateway lists
    assignments = api("GET", "role_user_assignments/?user=%d" % user["id"])[1]["results"]
    assert len(assignments) >= 2
    assert api("POST", "organizations/%d/users/disassociate/" % org["id"], instances=[user["id"]])[0] == 204
    assert api("GET", "organizations/%d/users/" % org["id"])[1]["count"] == 0
    status, body = api("POST", "organizations/%d/users/disassociate/" % org["id"], instances=[user["id"]])
    assert status == 400 and "instances" in body


def test_authenticator_users_are_the_users_links(api):
    auth = api("POST", "authenticators/", name="schema-auth", type="ansible_base.authentication.authenticator_plugins.github",
               enabled=True, configuration={"KEY": "k", "SECRET": "s"})[1]
    user = api("POST", "users/", username="schema-sub-linked",
               associated_authenticators={str(auth["id"]): {"uid": "linked-uid"}})[1]
    links = [link for link in api("GET", "authenticator_users/")[1]["results"] if link["user"] == user["id"]]
    assert len(links) == 1 and links[0]["uid"] == "linked-uid" and links[0]["provider"] == auth["slug"]
    status, link = api("GET", "authenticator_users/%d/" % links[0]["id"])
    assert status == 200 and link["id"] == links[0]["id"]


def _me(api):
    return api("GET", "me/")[1]["results"][0]


def test_created_by_and_modified_by_are_the_requests_user(api):
    me = _me(api)["id"]
    port = api("POST", "http_ports/", name="schema-authored", number=18077)[1]
    assert (port["created_by"], port["modified_by"]) == (me, me), port
    team = api("POST", "teams/", name="schema-authored", organization=1)[1]
    assert (team["created_by"], team["modified_by"]) == (me, me), team
    user = api("POST", "users/", username="schema-authored", password="x-Pass-123")[1]
    assert (user["created_by"], user["modified_by"]) == (me, me), user
    assert api("GET", "users/%d/" % user["id"])[1]["created_by"] == me
    # an organization made before the gateway recorded anything: made by no user
    assert api("GET", "organizations/1/")[1]["created_by"] is None
    changed = api("PATCH", "organizations/1/", description="authored")[1]
    assert changed["created_by"] is None and changed["modified_by"] == me


def test_feature_flags_are_made_by_no_user(api):
    flag = api("GET", "feature_flags/")[1]["results"][0]
    assert "created_by" in flag and flag["created_by"] is None and flag["modified_by"] is None


def test_last_login_from_is_null_until_a_login_through_an_authenticator(api):
    user = api("POST", "users/", username="schema-never-in", password="x-Pass-123")[1]
    assert "last_login_from" in user and user["last_login_from"] is None


def test_ping_answers_the_schemas_fields(api):
    from datetime import datetime

    status, body = api("GET", "ping/")
    assert status == 200
    datetime.fromisoformat(body["pong"])
    assert body["db_connected"] is True and body["db_exception"] == ""
    assert body["proxy_connected"] is True and body["proxy_status_code"] == 200 and body["proxy_exception_type"] == ""


def test_feature_flag_state_by_id_and_by_name(api):
    flag = api("GET", "feature_flags/")[1]["results"][0]
    by_id = api("GET", "feature_flags/states/%d/" % flag["id"])
    assert by_id == (200, {"name": flag["name"], "state": flag["state"]})
    assert api("GET", "feature_flags/states/%s/" % flag["name"]) == by_id
    assert api("GET", "feature_flags/states/FEATURE_NOTHING_ENABLED/")[0] == 404


def test_authenticators_users_and_users_authenticators(api):
    made = api("POST", "authenticators/", name="schema-sub-auth", enabled=False,
               type="ansible_base.authentication.authenticator_plugins.github",
               configuration={"KEY": "k", "SECRET": "s"})
    assert made[0] == 201, made
    auth = made[1]["id"]
    user = api("GET", "users/?username=schema-never-in")[1]["results"][0]     # made by a test above
    other = _me(api)
    linked = api("PATCH", "users/%d/" % user["id"], associated_authenticators={str(auth): {"uid": "sub-linked"}})
    assert linked[0] == 200, linked
    listed = [u["id"] for u in api("GET", "authenticators/%d/users/" % auth)[1]["results"]]
    assert user["id"] in listed and other["id"] not in listed
    assert [a["id"] for a in api("GET", "users/%d/authenticators/" % user["id"])[1]["results"]] == [auth]
    assert api("GET", "users/%d/authenticators/" % other["id"])[1]["count"] == 0
    assert api("GET", "users/999999/authenticators/")[0] == 404


def test_role_definitions_assignments(api):
    definitions = api("GET", "role_definitions/?name=Organization Member")[1]["results"]
    user = api("GET", "users/?username=schema-authored")[1]["results"][0]     # made by a test above
    made = api("POST", "role_user_assignments/", role_definition=definitions[0]["id"], object_id=1, user=user["id"])
    assert made[0] == 201, made
    status, body = api("GET", "role_definitions/%d/user_assignments/" % definitions[0]["id"])
    assert status == 200 and made[1]["id"] in [a["id"] for a in body["results"]]
    assert all(a["role_definition"] == definitions[0]["id"] for a in body["results"])
    other = api("GET", "role_definitions/?name=Team Member")[1]["results"][0]
    assert made[1]["id"] not in [a["id"] for a in api("GET", "role_definitions/%d/user_assignments/" % other["id"])[1]["results"]]
    assert api("GET", "role_definitions/%d/team_assignments/" % other["id"])[0] == 200


def test_routing_sub_lists(api):
    kind = api("POST", "service_types/", name="schema-sub-type", ping_url="/ping/")[1]
    cluster = api("POST", "service_clusters/", name="schema-sub-cluster", service_type=kind["id"])[1]
    node = api("POST", "service_nodes/", name="schema-sub-node", address="sub.example.com", service_cluster=cluster["id"])[1]
    port = api("POST", "http_ports/", name="schema-sub-port", number=18078)[1]
    route = api("POST", "routes/", name="schema-sub-route", gateway_path="/sub/", http_port=port["id"],
                service_cluster=cluster["id"], service_path="/sub/", service_port=8080, is_service_https=False)[1]

    def ids(path):
        status, body = api("GET", path)
        assert status == 200, body
        return [item["id"] for item in body["results"]]

    assert ids("service_clusters/%d/nodes/" % cluster["id"]) == [node["id"]]
    assert ids("service_clusters/%d/routes/" % cluster["id"]) == [route["id"]]
    assert ids("http_ports/%d/routes/" % port["id"]) == [route["id"]]
    assert ids("service_clusters/%d/service_types/" % cluster["id"]) == [kind["id"]]
    assert ids("service_types/%d/clusters/" % kind["id"]) == [cluster["id"]]
    assert ids("service_clusters/%d/service_keys/" % cluster["id"]) == []


def test_a_users_tokens_personal_and_authorized(api):
    me = _me(api)["id"]
    app = api("POST", "applications/", name="schema-token-app", organization=1, client_type="confidential",
              authorization_grant_type="password")
    assert app[0] == 201, app
    personal = api("POST", "tokens/", scope="read", description="schema-personal")
    authorized = api("POST", "tokens/", scope="read", description="schema-authorized", application=app[1]["id"])
    assert personal[0] == 201 and authorized[0] == 201, (personal, authorized)

    def listed(path):
        status, body = api("GET", "users/%d/%s/" % (me, path))
        assert status == 200, body
        assert all(token["token"] == "$encrypted$" for token in body["results"])     # the secret only when made
        return set(token["id"] for token in body["results"])

    both = {personal[1]["id"], authorized[1]["id"]}
    assert both <= listed("tokens")
    assert personal[1]["id"] in listed("personal_tokens") and authorized[1]["id"] not in listed("personal_tokens")
    assert authorized[1]["id"] in listed("authorized_tokens") and personal[1]["id"] not in listed("authorized_tokens")
    other = api("POST", "users/", username="schema-tokenless", password="x-Pass-123")[1]
    assert listed("tokens") and api("GET", "users/%d/tokens/" % other["id"])[1]["count"] == 0
    assert api("GET", "users/999999/tokens/")[0] == 404


def test_applications_and_tokens_answer_the_schemas_fields_only(api):
    """The columns django-oauth-toolkit 3 adds (the published 2.6 and 2.7 schemas have none of them)."""
    app = api("POST", "applications/", name="schema-fields-app", organization=1, client_type="confidential",
              authorization_grant_type="password")[1]
    answer = api("GET", "applications/%d/" % app["id"])[1]
    assert answer["name"] == "schema-fields-app" and "post_logout_redirect_uris" in answer
    assert not {"hash_client_secret", "allowed_origins", "registration_source", "cimd_expires_at"} & set(answer)
    assert "hash_client_secret" not in api("OPTIONS", "applications/")[1]["actions"]["POST"]
    token = api("POST", "tokens/", scope="read")[1]
    answer = api("GET", "tokens/%d/" % token["id"])[1]
    assert answer["scope"] == "read" and "resource" not in answer and "token_checksum" not in answer


def test_team_assignments_name_the_team_by_its_resource_id(api):
    team = api("POST", "teams/", name="schema-assigned-team", organization=1)[1]
    definition = api("GET", "role_definitions/?name=Team Member")[1]["results"][0]
    made = api("POST", "role_team_assignments/", role_definition=definition["id"], object_id=team["id"],
               team=team["id"])
    assert made[0] == 201, made
    resource = api("GET", "/api/controller/v2/teams/%d/" % team["id"])[1]["summary_fields"]["resource"]
    assert made[1]["team_ansible_id"] == resource["ansible_id"]
    assert api("GET", "role_team_assignments/%d/" % made[1]["id"])[1]["team_ansible_id"] == resource["ansible_id"]
    user = _me(api)
    assigned = api("POST", "role_user_assignments/", role_definition=definition["id"], object_id=team["id"],
                   user=user["id"])[1]
    resource = api("GET", "/api/controller/v2/users/%d/" % user["id"])[1]["summary_fields"]["resource"]
    assert assigned["user_ansible_id"] == resource["ansible_id"]


def test_assignments_are_filtered_by_resource_ids(api):
    """django-ansible-base's filters of the assignment lists (ansible.platform's role_user_assignment looks an
    assignment up with ?object_ansible_id=)."""
    team = api("POST", "teams/", name="schema-filtered-team", organization=1)[1]
    definition = api("GET", "role_definitions/?name=Team Member")[1]["results"][0]
    user = _me(api)
    made = api("POST", "role_user_assignments/", role_definition=definition["id"], object_id=team["id"],
               user=user["id"])[1]
    team_id = api("GET", "teams/%d/" % team["id"])[1]["summary_fields"]["resource"]["ansible_id"]
    user_id = api("GET", "users/%d/" % user["id"])[1]["summary_fields"]["resource"]["ansible_id"]

    def found(query):
        status, body = api("GET", "role_user_assignments/?" + query)
        assert status == 200, body
        return [a["id"] for a in body["results"]]

    assert found("object_ansible_id=%s" % team_id) == [made["id"]]
    assert made["id"] in found("user_ansible_id=%s" % user_id)
    assert found("object_ansible_id=%s&user_ansible_id=%s" % (team_id, user_id)) == [made["id"]]
    assert found("object_ansible_id=00000000-0000-4000-8000-000000000000") == []
    status, body = api("GET", "role_user_assignments/?object_ansible_id=not-a-uuid")
    assert status == 400 and "Invalid UUID format for object_ansible_id" in str(body)
    assert api("GET", "role_team_assignments/?team_ansible_id=%s" % team_id)[0] == 200


def test_an_application_needs_its_organization(api):
    status, body = api("POST", "applications/", name="schema-no-org", client_type="confidential",
                       authorization_grant_type="password")
    assert status == 400 and body == {"organization": ["This field is required."]}
    assert api("OPTIONS", "applications/")[1]["actions"]["POST"]["organization"]["required"] is True


@pytest.mark.parametrize("path", ["organizations/1/users/associate/", "teams/1/admins/disassociate/"])
def test_options_of_a_membership_change_describe_its_instances(api, path):
    status, body = api("OPTIONS", path)
    assert status == 200 and body["actions"]["POST"]["instances"]["required"] is True
    assert api("GET", path)[0] == 405


def test_options_of_a_settings_category_describe_its_settings(api):
    status, body = api("OPTIONS", "settings/local_login/")
    assert status == 200
    put = body["actions"]["PUT"]
    assert put["password_min_length"] == {"type": "integer", "label": "password_min_length", "required": False,
                                          "default": 0}
    assert set(put) == set(api("GET", "settings/local_login/")[1])
    assert api("OPTIONS", "settings/all/")[1]["actions"]["PUT"]["jwt_public_key"]["read_only"] is True


# ---------------------------------------------------------------- a gateway standing for 2.6 (GATEWAY_RELEASE)

@pytest.fixture(scope="module")
def api26(tmp_path_factory):
    instance = Gateway(tmp_path_factory.mktemp("gateway-26")).start("--set", "GATEWAY_RELEASE=2.6")
    s = instance.session()
    s.headers.update(instance.basic())
    s.headers["Accept"] = "application/json"
    yield lambda method, path: s.request(method, instance.url + GW + path)
    instance.stop()


def test_a_26_gateways_users_have_use_controller_password(api, api26):
    user = api26("GET", "me/").json()["results"][0]
    assert user["use_controller_password"] is False
    assert "use_controller_password" not in _me(api)      # 2.7's schema has it no more


def test_a_26_gateways_settings_are_26s(api, api26):
    settings = api26("GET", "settings/all/").json()
    assert settings["max_stream_duration"] == 3600 and settings["stream_idle_timeout"] == 60
    assert not {"idle_timeout", "RUNTIME_FEATURE_FLAGS", "RUNTIME_FEATURE_FLAGS_UI"} & set(settings)
    assert "feature_flags" not in [c["name"] for c in api26("GET", "settings/").json()["results"]]
    assert api26("GET", "settings/feature_flags/").status_code == 404
    assert api26("GET", "settings/proxy/").json()["stream_idle_timeout"] == 60
    # and 2.7's
    settings = api("GET", "settings/all/")[1]
    assert settings["idle_timeout"] == 15 and settings["RUNTIME_FEATURE_FLAGS"] is True
    assert not {"max_stream_duration", "stream_idle_timeout"} & set(settings)


def test_role_metadata_lists_what_each_kind_of_role_may_give(api):
    status, body = api("GET", "/role_metadata/")
    assert status == 200, body
    allowed = body["allowed_permissions"]
    assert list(allowed) == sorted(allowed, key=lambda label: label.split(".")[1])
    assert "shared.view_team" in allowed["shared.team"] and "shared.add_team" not in allowed["shared.team"]
    # an organization's roles may give the permissions of what organizations hold
    assert {"shared.view_organization", "shared.add_team", "awx.view_inventory"} <= set(allowed["shared.organization"])
    # and a role definition is refused a permission the metadata does not list for its kind
    status, body = api("POST", "role_definitions/", name="metadata-check", content_type="shared.team",
                       permissions=["awx.view_inventory"])
    assert status == 400


def test_the_oauth2_root_is_at_the_root_too(gateway):
    s = gateway.session()
    for root in ("/o/", GW + "o/"):
        r = s.get(gateway.url + root, headers={"Accept": "application/json"})
        assert r.status_code == 200, r.text
        links = r.json()
        assert set(links) == {"authorize", "revoke_token", "token"}
        assert s.get(gateway.url + links["token"]).status_code == 405     # the token endpoint: POST only


def test_jwt_claims_of_a_user_by_its_ansible_id(gateway, api):
    me = api("GET", "me/")[1]["results"][0]
    ansible_id = me["summary_fields"]["resource"]["ansible_id"]
    status, claims = api("GET", "jwt_claims/%s/" % ansible_id)
    assert status == 200, claims
    assert claims["sub"] == ansible_id
    assert claims["user_data"]["username"] == me["username"] and claims["user_data"]["is_superuser"] is True
    assert "exp" not in claims and "iat" not in claims
    assert api("GET", "jwt_claims/%s/" % "00000000-0000-4000-8000-000000000000")[0] == 404
    assert api("GET", "jwt_claims/not-an-id/")[0] == 404
    # a user who is no superuser may not read them
    assert api("POST", "users/", username="claims-plain", password="a-Pass-9word")[0] == 201
    s = gateway.session()
    r = s.get(gateway.url + GW + "jwt_claims/%s/" % ansible_id, headers=gateway.basic("claims-plain", "a-Pass-9word"))
    assert r.status_code == 403


def test_the_activity_stream_records_a_token_made_without_its_secrets(gateway, api):
    status, token = api("POST", "tokens/", description="stream", scope="read")
    assert status == 201, token
    entries = [e for e in api("GET", "activitystream/")[1]["results"]
               if e["content_type_model"] == "oauth2accesstoken" and e["object_id"] == str(token["id"])]
    assert [e["operation"] for e in entries] == ["create"]
    added = entries[0]["changes"]["added_fields"]
    assert added["description"] == "stream" and added["token"] == "$encrypted$"
    assert not {"token_checksum", "resource"} & set(added)
    assert api("GET", "activitystream/%d/" % entries[0]["id"])[1]["id"] == entries[0]["id"]
    # a superuser's only
    assert api("POST", "users/", username="stream-plain", password="a-Pass-9word")[0] == 201
    r = gateway.session().get(gateway.url + GW + "activitystream/", headers=gateway.basic("stream-plain", "a-Pass-9word"))
    assert r.status_code == 403
    api("DELETE", "tokens/%d/" % token["id"])


def test_the_openapi_document_describes_the_gateway(api):
    status, document = api("GET", "docs/schema/")
    assert status == 200
    assert document["openapi"].startswith("3.")
    assert {GW + "organizations/", GW + "service-index/resources/", GW + "activitystream/"} <= set(document["paths"])
