"""The gateway layout's routing API (refsvc/gateway/routing.py): HTTP ports, service types, clusters, nodes,
keys, services, routes, UI plugin routes and CA certificates, as ansible.platform's modules use them."""
import sqlite3
import subprocess

import pytest

from test_gateway_layout import GW, Gateway


@pytest.fixture(scope="module")
def gateway(tmp_path_factory):
    instance = Gateway(tmp_path_factory.mktemp("gateway")).start()
    yield instance
    instance.stop()


def _api(gateway):
    s = gateway.session()
    s.headers.update(gateway.basic())

    def call(method, path, **body):
        r = s.request(method, gateway.url + GW + path, json=body if method in ("POST", "PATCH") else None)
        return r.status_code, (r.json() if r.content else None)

    return call


def _pem(tmp_path):
    key, cert = tmp_path / "k.pem", tmp_path / "c.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(key), "-out", str(cert),
                    "-days", "1", "-subj", "/CN=routing-test"], check=True, capture_output=True)
    return cert.read_text()


def test_the_root_lists_the_routing_endpoints(gateway):
    status, root = _api(gateway)("GET", "")
    assert status == 200
    for kind in ("http_ports", "routes", "services", "service_clusters", "service_nodes", "service_keys",
                 "service_types", "ui_plugin_routes", "ca_certificates"):
        assert root[kind] == GW + kind + "/"


def test_routing_objects_refer_to_each_other(gateway, tmp_path):
    api = _api(gateway)
    status, port = api("POST", "http_ports/", name="rt-port", number=8443, use_https=True)
    assert status == 201 and port["is_api_port"] is False and port["url"] == GW + "http_ports/%d/" % port["id"]
    assert api("POST", "http_ports/", name="rt-port", number=8444)[0] == 400      # names are unique
    assert api("POST", "http_ports/", name="rt-port2", number=8443)[0] == 400     # and numbers
    assert api("POST", "http_ports/", name="rt-api", number=8445, is_api_port=True)[0] == 201
    status, body = api("POST", "http_ports/", name="rt-api2", number=8446, is_api_port=True)
    assert status == 400 and "is_api_port" in body                               # one API port

    status, stype = api("POST", "service_types/", name="rt-type", ping_url="/api/ping/")
    assert status == 201 and stype["login_path"] == ""
    assert api("POST", "service_clusters/", name="rt-cluster")[0] == 400          # a type is needed
    status, cluster = api("POST", "service_clusters/", name="rt-cluster", service_type=stype["id"])
    assert status == 201
    assert (cluster["auth_type"], cluster["dns_discovery_type"], cluster["dns_lookup_family"]) == ("JWT", "STRICT_DNS", "AUTO")
    assert cluster["summary_fields"]["service_type"] == {"id": stype["id"], "name": "rt-type"}
    assert api("POST", "service_clusters/", name="x", service_type=stype["id"], auth_type="NONE")[0] == 400

    status, node = api("POST", "service_nodes/", name="rt-node", address="10.0.0.1", service_cluster=cluster["id"])
    assert status == 201 and node["tags"] == ""
    assert api("POST", "service_nodes/", name="rt-node2", address="10.0.0.1", service_cluster=cluster["id"])[0] == 400

    where = dict(http_port=port["id"], service_cluster=cluster["id"], service_port=80)
    status, body = api("POST", "routes/", name="rt-route", gateway_path="/rt/", service_path="/", **where)
    # is_service_https is required of a route, a service and a UI plugin route (the published schemas, 2.6 and 2.7)
    assert status == 400 and body == {"is_service_https": ["This field is required."]}
    status, route = api("POST", "routes/", name="rt-route", gateway_path="/rt/", service_path="/",
                        is_service_https=False, **where)
    assert status == 201 and route["enable_gateway_auth"] is True and route["is_internal_route"] is False
    assert route["enable_mtls"] is False
    assert api("PATCH", "routes/%d/" % route["id"], enable_mtls=True)[1]["enable_mtls"] is True
    assert route["summary_fields"]["http_port"]["name"] == "rt-port"
    assert api("GET", "routes/?name=rt-route")[1]["count"] == 1

    status, body = api("POST", "services/", name="rt-svc", service_path="/api/rt/", is_service_https=False, **where)
    assert status == 400 and body == {"api_slug": ["This field is required."]}     # and api_slug of a service
    status, svc = api("POST", "services/", name="rt-svc", api_slug="rt", service_path="/api/rt/",
                      is_service_https=False, **where)
    assert status == 201 and svc["order"] == 50 and svc["gateway_path"] == "/api/rt/"

    status, plugin = api("POST", "ui_plugin_routes/", name="rt-plugin", ui_plugin_path="/my/plugin/",
                         is_service_https=False, **where)
    assert status == 201 and plugin["ui_plugin_path"] == "my/plugin"
    assert plugin["gateway_path"] == "/plugin/rt-cluster/my/plugin/"
    # the published schemas' UIPluginRoute (2.6 and 2.7) has none of a route's forwarding fields
    assert not {"service_path", "enable_gateway_auth", "is_internal_route"} & set(plugin)

    pem = _pem(tmp_path)
    # the fingerprint is required of a new certificate (the published schemas)
    assert api("POST", "ca_certificates/", name="rt-ca", pem_data=pem) == (400, {"sha256": ["This field is required."]})
    status, cert = api("POST", "ca_certificates/", name="rt-ca", pem_data=pem, sha256="ab" * 32)
    assert status == 201 and cert["sha256"] == "ab" * 32
    assert api("POST", "ca_certificates/", name="rt-bad", pem_data="not a certificate", sha256="ab" * 32)[0] == 400

    # a port a route uses is not deleted
    assert api("DELETE", "http_ports/%d/" % port["id"])[0] >= 400
    for kind, obj in (("ui_plugin_routes", plugin), ("services", svc), ("routes", route), ("http_ports", port)):
        assert api("DELETE", "%s/%d/" % (kind, obj["id"]))[0] == 204


def test_service_keys_make_their_secret(gateway):
    """What is required, read-only and written only is as the published schemas (2.6, 2.7) say: the secret is the
    gateway's (read-only), mark_previous_inactive is required, the name is not."""
    api = _api(gateway)
    stype = api("POST", "service_types/", name="key-type")[1]
    cluster = api("POST", "service_clusters/", name="key-cluster", service_type=stype["id"])[1]
    status, body = api("POST", "service_keys/", name="key-1", service_cluster=cluster["id"])
    assert status == 400 and body == {"mark_previous_inactive": ["This field is required."]}
    status, first = api("POST", "service_keys/", name="key-1", service_cluster=cluster["id"], secret="s3cret-value",
                        mark_previous_inactive=False)
    assert status == 201 and first["secret"] == "$encrypted$" and first["is_active"] is True
    assert first["algorithm"] == "HS256" and "mark_previous_inactive" not in first
    with sqlite3.connect(str(gateway.dir / "db.sqlite3")) as db:    # the secret given was not taken: the gateway's
        kept = db.execute("SELECT secret FROM gateway_servicekey WHERE id = ?", (first["id"],)).fetchone()[0]
    assert kept not in ("", "s3cret-value")
    status, made = api("POST", "service_keys/", name="key-2", service_cluster=cluster["id"], secret_length=64,
                       mark_previous_inactive=False)
    # secret_length is written only (the published schemas' ServiceKey), in no answer
    assert status == 201 and made["secret"] == "$encrypted$" and "secret_length" not in made
    assert "secret_length" not in api("GET", "service_keys/%d/" % made["id"])[1]
    assert "secret_length" not in api("GET", "service_clusters/%d/service_keys/" % cluster["id"])[1]["results"][0]
    assert api("POST", "service_keys/", name="key-short", service_cluster=cluster["id"], secret_length=8,
               mark_previous_inactive=False)[0] == 400
    status, unnamed = api("POST", "service_keys/", service_cluster=cluster["id"], mark_previous_inactive=False)
    assert status == 201 and unnamed["name"] is None
    assert api("PATCH", "service_keys/%d/" % first["id"], algorithm="HS512")[0] == 200
    status, third = api("POST", "service_keys/", name="key-3", service_cluster=cluster["id"], mark_previous_inactive=True)
    assert status == 201
    assert [api("GET", "service_keys/%d/" % k["id"])[1]["is_active"] for k in (first, made, unnamed, third)] == [
        False, False, False, True]
    # a user who is not a superuser reads, and does not write
    s = gateway.session()
    assert s.get(gateway.url + GW + "service_keys/").status_code == 401


def test_a_cluster_says_its_effective_health_check_timeout(gateway):
    api = _api(gateway)
    stype = api("POST", "service_types/", name="hc-type")[1]
    status, cluster = api("POST", "service_clusters/", name="hc-cluster", service_type=stype["id"])
    # no service told the gateway its id; the global request_timeout (30) is more than the check's 5 seconds
    assert status == 201 and cluster["service_id"] is None
    assert cluster["effective_health_check_timeout_seconds"] == "30"
    assert api("POST", "service_clusters/", name="hc-x", service_type=stype["id"],
               service_id="8d6f6c6e-6b0c-4a47-9d0e-5c3c5a1e9f10")[1]["service_id"] is None      # read-only
    url = "service_clusters/%d/" % cluster["id"]
    assert api("PATCH", url, health_check_timeout_seconds=45)[1]["effective_health_check_timeout_seconds"] == "45"
    port = api("POST", "http_ports/", name="hc-port", number=8470)[1]
    where = dict(http_port=port["id"], service_cluster=cluster["id"], service_port=80)
    route = api("POST", "routes/", name="hc-route", gateway_path="/hc/", service_path="/", request_timeout_seconds=90,
                is_service_https=False, **where)[1]
    assert api("GET", url)[1]["effective_health_check_timeout_seconds"] == "90"      # its highest route's
    svc = api("POST", "services/", name="hc-svc", api_slug="hc", service_path="/api/hc/", request_timeout_seconds=120,
              is_service_https=False, **where)[1]
    assert api("GET", url)[1]["effective_health_check_timeout_seconds"] == "120"     # a service is a route too
    listed = api("GET", "service_types/%d/clusters/" % stype["id"])[1]["results"]
    assert [c["effective_health_check_timeout_seconds"] for c in listed if c["id"] == cluster["id"]] == ["120"]
    for kind, obj in (("services", svc), ("routes", route), ("http_ports", port)):
        assert api("DELETE", "%s/%d/" % (kind, obj["id"]))[0] == 204
    assert api("GET", url)[1]["effective_health_check_timeout_seconds"] == "45"


def test_routes_and_types_are_associated_with_ports_and_clusters(gateway):
    api = _api(gateway)
    types = [api("POST", "service_types/", name="as-type-%d" % i)[1] for i in (1, 2)]
    clusters = [api("POST", "service_clusters/", name="as-cluster-%d" % i, service_type=types[0]["id"])[1]
                for i in (1, 2)]
    ports = [api("POST", "http_ports/", name="as-port-%d" % i, number=8480 + i)[1] for i in (1, 2)]
    route = api("POST", "routes/", name="as-route", gateway_path="/as/", service_path="/", service_port=80,
                is_service_https=False, http_port=ports[0]["id"], service_cluster=clusters[0]["id"])[1]

    def listed(path):
        return [obj["id"] for obj in api("GET", path)[1]["results"]]

    # the OPTIONS of each takes {"instances": [ids]} by POST
    for path in ("http_ports/%d/routes/" % ports[1]["id"], "service_clusters/%d/routes/" % clusters[1]["id"],
                 "service_clusters/%d/service_types/" % clusters[1]["id"]):
        for verb in ("associate", "disassociate"):
            status, options = api("OPTIONS", path + verb + "/")
            assert status == 200 and options["actions"]["POST"]["instances"]["required"] is True
            assert api("GET", path + verb + "/")[0] == 405

    # a route moves to another port and another cluster
    assert api("POST", "http_ports/%d/routes/associate/" % ports[1]["id"], instances=[route["id"]]) == (204, None)
    assert listed("http_ports/%d/routes/" % ports[1]["id"]) == [route["id"]]
    assert listed("http_ports/%d/routes/" % ports[0]["id"]) == []
    assert api("POST", "service_clusters/%d/routes/associate/" % clusters[1]["id"], instances=[route["id"]])[0] == 204
    assert api("GET", "routes/%d/" % route["id"])[1]["service_cluster"] == clusters[1]["id"]
    # it cannot be left without one: removing it from its own is refused, and one it is not in does not have it
    status, body = api("POST", "http_ports/%d/routes/disassociate/" % ports[1]["id"], instances=[route["id"]])
    assert status == 400 and "instances" in body
    status, body = api("POST", "http_ports/%d/routes/disassociate/" % ports[0]["id"], instances=[route["id"]])
    assert status == 400 and "not associated" in body["instances"][0]
    status, body = api("POST", "service_clusters/%d/routes/disassociate/" % clusters[1]["id"], instances=[route["id"]])
    assert status == 400
    assert api("GET", "routes/%d/" % route["id"])[1]["http_port"] == ports[1]["id"]
    # django-ansible-base's refusals: no instances, an id that is not there
    assert api("POST", "http_ports/%d/routes/associate/" % ports[0]["id"], instances=[])[0] == 400
    assert api("POST", "http_ports/%d/routes/associate/" % ports[0]["id"], instances=[99999])[0] == 400
    assert api("POST", "http_ports/99999/routes/associate/", instances=[route["id"]])[0] == 404

    # a cluster's type: one at a time, and never none
    types_of = "service_clusters/%d/service_types/" % clusters[1]["id"]
    assert api("POST", types_of + "associate/", instances=[types[1]["id"]]) == (204, None)
    assert listed(types_of) == [types[1]["id"]]
    assert api("GET", "service_clusters/%d/" % clusters[1]["id"])[1]["service_type"] == types[1]["id"]
    assert api("POST", types_of + "associate/", instances=[types[0]["id"], types[1]["id"]])[0] == 400
    assert api("POST", types_of + "disassociate/", instances=[types[1]["id"]])[0] == 400
    assert api("POST", types_of + "disassociate/", instances=[types[0]["id"]])[0] == 400
    assert listed(types_of) == [types[1]["id"]]

    # a user who is not a superuser does not change them
    s = gateway.session()
    assert s.post(gateway.url + GW + types_of + "associate/", json={"instances": [types[0]["id"]]}).status_code == 401
    assert api("DELETE", "routes/%d/" % route["id"])[0] == 204


@pytest.fixture(scope="module")
def older(tmp_path_factory):
    """A gateway standing for Automation Platform 2.6 (GATEWAY_RELEASE)."""
    instance = Gateway(tmp_path_factory.mktemp("gateway-2.6")).start("--set", "GATEWAY_RELEASE=2.6")
    yield instance
    instance.stop()


def test_a_gateway_standing_for_2_6_has_none_of_the_2_7_fields(older):
    """The published 2.6 gateway schema has no timeouts on routes, services and UI plugin routes, and no
    effective health check timeout on clusters: not in answers, lists, sub-lists or OPTIONS."""
    api = _api(older)
    stype = api("POST", "service_types/", name="old-type")[1]
    cluster = api("POST", "service_clusters/", name="old-cluster", service_type=stype["id"])[1]
    port = api("POST", "http_ports/", name="old-port", number=8490)[1]
    where = dict(http_port=port["id"], service_cluster=cluster["id"], service_port=80, is_service_https=False)
    made = {
        "routes": api("POST", "routes/", name="old-route", gateway_path="/old/", service_path="/", **where),
        "services": api("POST", "services/", name="old-svc", api_slug="old", service_path="/api/old/", **where),
        "ui_plugin_routes": api("POST", "ui_plugin_routes/", name="old-ui", ui_plugin_path="old", **where),
    }
    newer = {"request_timeout_seconds", "idle_timeout_seconds", "effective_timeout_seconds",
             "effective_idle_timeout_seconds", "effective_health_check_timeout_seconds"}
    answers = [api("GET", "service_clusters/%d/" % cluster["id"])[1], cluster]
    answers += api("GET", "service_types/%d/clusters/" % stype["id"])[1]["results"]
    answers += api("GET", "service_clusters/%d/routes/" % cluster["id"])[1]["results"]
    answers += api("GET", "http_ports/%d/routes/" % port["id"])[1]["results"]
    for kind, (status, obj) in made.items():
        assert status == 201, obj
        answers += [obj, api("GET", "%s/%d/" % (kind, obj["id"]))[1]] + api("GET", kind + "/")[1]["results"]
        options = api("OPTIONS", kind + "/")[1]["actions"]
        assert not newer & (set(options["POST"]) | set(options["GET"])), kind
    answers += api("GET", "service_clusters/")[1]["results"]
    assert all(not newer & set(answer) for answer in answers), [sorted(newer & set(a)) for a in answers]
    assert "service_id" in cluster      # which both releases have


def _api_port(api):
    """The API port (the one port with is_api_port), made when there is none yet."""
    status, found = api("GET", "http_ports/?is_api_port=true")
    assert status == 200
    if found["count"]:
        return found["results"][0]
    status, port = api("POST", "http_ports/", name="api-port", number=8450, is_api_port=True)
    assert status == 201
    return port


def test_the_api_port_stays(gateway):
    # ansible.platform 2.6.20250924's http_ports_test: removing the API port fails, and so does making it
    # not an API port
    api = _api(gateway)
    port = _api_port(api)
    status, body = api("DELETE", "http_ports/%d/" % port["id"])
    assert status == 400 and "API port" in body["detail"]
    status, body = api("PATCH", "http_ports/%d/" % port["id"], is_api_port=False)
    assert status == 400 and "is_api_port" in body
    status, kept = api("GET", "http_ports/%d/" % port["id"])
    assert status == 200 and kept["is_api_port"] is True
    # its other fields change as any port's
    status, renamed = api("PATCH", "http_ports/%d/" % port["id"], name=port["name"] + "-x", is_api_port=True)
    assert status == 200 and renamed["name"] == port["name"] + "-x"


def test_deleting_a_service_type_deletes_its_clusters(gateway):
    # ansible.platform 2.6.20250924's service_types_test: a type a cluster uses is deleted, and the
    # cluster with it
    api = _api(gateway)
    stype = api("POST", "service_types/", name="gone-type")[1]
    cluster = api("POST", "service_clusters/", name="gone-cluster", service_type=stype["id"])[1]
    node = api("POST", "service_nodes/", name="gone-node", address="10.9.9.9", service_cluster=cluster["id"])[1]
    assert api("DELETE", "service_types/%d/" % stype["id"])[0] == 204
    assert api("GET", "service_clusters/%d/" % cluster["id"])[0] == 404
    assert api("GET", "service_nodes/%d/" % node["id"])[0] == 404
    # a cluster a route uses still keeps its type from being deleted
    stype = api("POST", "service_types/", name="kept-type")[1]
    cluster = api("POST", "service_clusters/", name="kept-cluster", service_type=stype["id"])[1]
    port = api("POST", "http_ports/", name="kept-port", number=8451)[1]
    status, route = api("POST", "routes/", name="kept-route", gateway_path="/kept/", service_path="/", service_port=80,
                        is_service_https=False, http_port=port["id"], service_cluster=cluster["id"])
    assert status == 201, route
    status, body = api("DELETE", "service_types/%d/" % stype["id"])
    assert status == 400 and "kept-route" in body["detail"]
    assert api("GET", "service_clusters/%d/" % cluster["id"])[0] == 200
    assert api("DELETE", "routes/%d/" % route["id"])[0] == 204
    assert api("DELETE", "service_types/%d/" % stype["id"])[0] == 204
