"""A template's webhook credential (JobTemplateMixin.validate, read in AWX 24.6.1's source): a
personal access token of the webhook service's kind, else 400 on webhook_credential."""
from service_api import call, created, unique


def token_credential(service, namespace):
    kind = call(service, "GET", "credential_types/", params={"namespace": namespace}).json()["results"][0]
    return created(service, "credentials/", name=unique(namespace), organization=1, credential_type=kind["id"],
                   inputs={"token": "not-a-real-token"})


def test_a_webhook_credential_must_match_the_service(service):
    github = token_credential(service, "github_token")
    for path in ("workflow_job_templates/",):
        r = call(service, "POST", path, json={"name": unique("wh"), "organization": 1, "webhook_service": "gitlab",
                                              "webhook_credential": github["id"]})
        assert r.status_code == 400 and r.json() == {"webhook_credential": ["Must match the selected webhook service."]}
        r = call(service, "POST", path, json={"name": unique("wh"), "organization": 1, "webhook_credential": github["id"]})
        assert r.status_code == 400 and r.json() == {"webhook_credential": ["Must match the selected webhook service."]}
        r = call(service, "POST", path, json={"name": unique("wh"), "organization": 1, "webhook_service": "github",
                                              "webhook_credential": github["id"]})
        assert r.status_code == 201, r.text


def test_a_webhook_credential_must_be_a_token(service):
    machine = call(service, "GET", "credential_types/", params={"namespace": "ssh"}).json()["results"][0]
    cred = created(service, "credentials/", name=unique("ssh"), organization=1, credential_type=machine["id"], inputs={})
    r = call(service, "POST", "workflow_job_templates/", json={"name": unique("wh"), "organization": 1,
                                                                "webhook_service": "github", "webhook_credential": cred["id"]})
    assert r.status_code == 400 and r.json() == {"webhook_credential": ["Must be a Personal Access Token."]}
