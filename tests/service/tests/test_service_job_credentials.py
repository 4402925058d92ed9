"""A job's credentials, injected as AWX 24.6.1 injects them (CredentialType.inject_credential,
RunJob.build_args), and what the job records of them: job_args and job_env with the secrets
hidden, nothing of them in the output."""
import json
import uuid

import pytest

from service_api import token_call as call, wait_until

SECRET = "s3cr3t-" + uuid.uuid4().hex[:10]


@pytest.fixture(scope="module")
def setup(service):
    prefix = "jcred-" + uuid.uuid4().hex[:8]
    inv = call(service, "POST", "/api/v2/inventories/", json={"name": prefix, "organization": 1}).json()
    r = call(service, "POST", "/api/v2/hosts/", json={"name": prefix + "-h1", "inventory": inv["id"]})
    assert r.status_code == 201, r.text
    project = call(service, "POST", "/api/v2/projects/", json={"name": prefix, "organization": 1, "local_path": "demo"}).json()
    return {"prefix": prefix, "inventory": inv["id"], "project": project["id"]}


def credential_type_id(service, name, kind):
    r = call(service, "GET", "/api/v2/credential_types/", params={"name": name, "kind": kind})
    return r.json()["results"][0]["id"]


def run_job(service, setup, name, credentials, **fields):
    body = {"name": "%s-%s" % (setup["prefix"], name), "inventory": setup["inventory"], "project": setup["project"],
            "playbook": "hello.yml"}
    body.update(fields)
    r = call(service, "POST", "/api/v2/job_templates/", json=body)
    assert r.status_code == 201, r.text
    jt = r.json()
    for cred in credentials:
        r = call(service, "POST", "/api/v2/job_templates/%d/credentials/" % jt["id"], json={"id": cred})
        assert r.status_code == 204, r.text
    r = call(service, "POST", "/api/v2/job_templates/%d/launch/" % jt["id"], json={})
    assert r.status_code == 201, r.text
    job = wait_until(service, "jobs/%d/" % r.json()["job"])
    text = call(service, "GET", "/api/v2/jobs/%d/stdout/?format=txt" % job["id"]).text
    return job, text


def test_a_custom_types_env_file_and_extra_vars_injectors(service, setup):
    r = call(service, "POST", "/api/v2/credential_types/", json={
        "name": setup["prefix"] + "-type", "kind": "cloud",
        "inputs": {"fields": [{"id": "username", "label": "Username", "type": "string"},
                              {"id": "password", "label": "Password", "type": "string", "secret": True}]},
        "injectors": {
            "file": {"template": "user={{username}}"},
            "env": {"PIPE_USER": "{{username}}", "PIPE_SECRET": "{{password}}", "PIPE_FILE": "{{tower.filename}}"},
            # rendered by the service, then by Ansible: the file's content, read by the job
            "extra_vars": {"message": "{{username}}:{% raw %}{{ lookup('file', lookup('env', 'PIPE_FILE')) }}{% endraw %}"},
        }})
    assert r.status_code == 201, r.text
    cred = call(service, "POST", "/api/v2/credentials/", json={
        "name": setup["prefix"] + "-custom", "organization": 1, "credential_type": r.json()["id"],
        "inputs": {"username": "robo", "password": SECRET}}).json()
    job, text = run_job(service, setup, "custom", [cred["id"]], verbosity=4)
    assert job["status"] == "successful", text[-2000:]
    assert "message=robo:user=robo" in text
    env = job["job_env"]
    assert env["PIPE_USER"] == "robo" and env["PIPE_SECRET"] == "**********"
    assert env["PIPE_FILE"].startswith(env["AWX_PRIVATE_DATA_DIR"] + "/env/")
    assert SECRET not in text and SECRET not in json.dumps(job)


def test_the_platform_credential_and_a_machine_credential(service, setup):
    platform = call(service, "POST", "/api/v2/credentials/", json={
        "name": setup["prefix"] + "-platform", "organization": 1,
        "credential_type": credential_type_id(service, "Red Hat Ansible Automation Platform", "cloud"),
        "inputs": {"host": service.url, "username": "someone", "password": SECRET}}).json()
    machine = call(service, "POST", "/api/v2/credentials/", json={
        "name": setup["prefix"] + "-machine", "organization": 1,
        "credential_type": credential_type_id(service, "Machine", "ssh"),
        "inputs": {"username": "machineuser", "become_method": "sudo"}}).json()
    job, text = run_job(service, setup, "platform", [platform["id"], machine["id"]])
    assert job["status"] == "successful", text[-2000:]
    env = job["job_env"]
    for prefix in ("CONTROLLER", "TOWER"):
        assert env[prefix + "_HOST"] == service.url and env[prefix + "_USERNAME"] == "someone"
        assert env[prefix + "_PASSWORD"] == "**********" and env[prefix + "_OAUTH_TOKEN"] == "**********"
        assert env[prefix + "_VERIFY_SSL"] == "False"  # a boolean input not given is False
    args = json.loads(job["job_args"])
    assert args[args.index("-u") + 1] == "machineuser" and args[args.index("--become-method") + 1] == "sudo"
    assert env["JOB_ID"] == str(job["id"]) and env["INVENTORY_ID"] == str(setup["inventory"])
    assert SECRET not in text and SECRET not in json.dumps(job)
    # the list leaves job_env out, as the real JobListSerializer does
    listed = call(service, "GET", "/api/v2/jobs/", params={"id": job["id"]}).json()["results"][0]
    assert "job_env" not in listed
