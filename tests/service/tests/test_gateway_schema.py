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
