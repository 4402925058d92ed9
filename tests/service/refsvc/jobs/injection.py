"""How a run gets its credentials, by the rules of the real service (AWX 24.6.1):
CredentialType.inject_credential and build_safe_env in awx/main/models/credential/__init__.py,
the managed types' injectors in awx/main/models/credential/injectors.py, and the
machine, vault and network credentials that RunJob turns into arguments, prompts'
answers and variables (awx/main/tasks/jobs.py).

Every function here adds to two environments: ``env``, what the run gets, and
``safe_env``, what the service records as the run's job_env, with secrets hidden."""
import json
import os
import re
import stat
import tempfile

import yaml
from jinja2.sandbox import ImmutableSandboxedEnvironment

HIDDEN_PASSWORD = "**********"

# Variables no credential type may set (the real ENV_BLOCKLIST), and none starting ANSIBLE_.
ENV_BLOCKLIST = frozenset((
    "VIRTUAL_ENV", "PATH", "PYTHONPATH", "JOB_ID", "INVENTORY_ID", "INVENTORY_SOURCE_ID", "INVENTORY_UPDATE_ID",
    "AD_HOC_COMMAND_ID", "REST_API_URL", "REST_API_TOKEN", "MAX_EVENT_RES", "CALLBACK_QUEUE", "CALLBACK_CONNECTION",
    "CACHE", "JOB_CALLBACK_DEBUG", "INVENTORY_HOSTVARS", "AWX_HOST", "PROJECT_REVISION", "SUPERVISOR_CONFIG_PATH",
))

_SECRET_NAME = re.compile(r"API|TOKEN|KEY|SECRET|PASS", re.I)
_URL_WITH_PASSWORD = re.compile(r"^.*?://[^:]+:(.*?)@.*?$")


def safe_environment(env):
    """``env`` with what may be secret hidden: the value of a variable whose name speaks of a
    key, token, secret, password or API (but ANSIBLE_ ones other than ANSIBLE_NET_ and
    ANSIBLE_GALAXY_SERVER_, and AWS_ACCESS_KEY_ID), and the password of a URL."""
    safe = dict(env)
    for name, value in env.items():
        if name == "AWS_ACCESS_KEY_ID":
            continue
        if name.startswith("ANSIBLE_") and not name.startswith(("ANSIBLE_NET", "ANSIBLE_GALAXY_SERVER")):
            continue
        if _SECRET_NAME.search(name):
            safe[name] = HIDDEN_PASSWORD
        elif isinstance(value, str) and _URL_WITH_PASSWORD.match(value):
            safe[name] = _URL_WITH_PASSWORD.sub(HIDDEN_PASSWORD, value)
    return safe


def secret_fields(credential_type):
    return {f["id"] for f in (credential_type.inputs or {}).get("fields", []) if f.get("secret")}


def private_file(private_data_dir, text, mode=stat.S_IRUSR | stat.S_IWUSR):
    """A new file holding ``text`` in the run's env/ directory, readable by its owner only."""
    fd, path = tempfile.mkstemp(dir=os.path.join(private_data_dir, "env"))
    with os.fdopen(fd, "w") as handle:
        handle.write(text)
    os.chmod(path, mode)
    return path


def inject(credential, env, safe_env, args, private_data_dir, inventory_update=False):
    """Add what ``credential`` gives a run: its type's injectors (templated from its inputs), or
    for a managed type without any, the service's own injector of that kind."""
    kind = credential.credential_type
    if not kind.injectors:
        builtin = BUILTIN.get(kind.namespace) if kind.managed else None
        if builtin is not None:
            injected = {}
            builtin(credential, injected, private_data_dir, inventory_update)
            env.update(injected)
            safe_env.update(safe_environment(injected))
        return
    _templated(credential, env, safe_env, args, private_data_dir, inventory_update)


class _Tower:
    """The ``tower`` name of the templates: ``tower.filename`` (or ``tower.filename.<name>``)."""


def _namespaces(credential):
    """The names a template sees, with the secrets (for the run) and hidden (for job_env)."""
    kind = credential.credential_type
    hidden = secret_fields(kind)
    tower = _Tower()
    values, safe = {"tower": tower}, {"tower": tower}
    inputs = credential.inputs or {}
    for name, value in inputs.items():
        if isinstance(value, bool):
            values[name] = safe[name] = value
            continue
        if value is None:
            continue
        if not isinstance(value, str):
            value = str(value)
        if name in hidden:
            safe[name] = HIDDEN_PASSWORD
        elif value:
            safe[name] = value
        if value:
            values[name] = value
    for field in (kind.inputs or {}).get("fields", []):
        if field.get("type") == "boolean" and field["id"] not in inputs:
            values[field["id"]] = safe[field["id"]] = False
        if field.get("format") == "ssh_private_key" and field["id"] in values and not values[field["id"]].endswith("\n"):
            values[field["id"]] += "\n"
    return values, safe, tower


def _templated(credential, env, safe_env, args, private_data_dir, inventory_update):
    injectors = credential.credential_type.injectors or {}
    values, safe, tower = _namespaces(credential)
    sandbox = ImmutableSandboxedEnvironment()

    for label, template in (injectors.get("file") or {}).items():
        path = private_file(private_data_dir, sandbox.from_string(template).render(**values))
        if "." not in label:
            tower.filename = path
        else:
            if not isinstance(getattr(tower, "filename", None), _Tower):
                tower.filename = _Tower()
            setattr(tower.filename, label.split(".", 1)[1], path)

    for name, template in (injectors.get("env") or {}).items():
        if name.startswith("ANSIBLE_") or name in ENV_BLOCKLIST:
            continue  # the real service logs and skips them
        env[name] = sandbox.from_string(template).render(**values)
        safe_env[name] = sandbox.from_string(template).render(**safe)

    if inventory_update:
        return  # an inventory update takes no extra variables

    def render(node):
        if isinstance(node, dict):
            return {render(k): render(v) for k, v in node.items()}
        if isinstance(node, list):
            return [render(x) for x in node]
        return sandbox.from_string(node).render(**values)

    extra_vars = render(injectors.get("extra_vars") or {})
    if extra_vars:
        path = private_file(private_data_dir, yaml.safe_dump(extra_vars), stat.S_IRUSR)
        args.extend(["-e", "@%s" % path])


# -- the managed types whose injectors are the service's own code ------------------------------

def _input(credential, name, default=""):
    value = (credential.inputs or {}).get(name)
    return default if value is None else value


def _aws(credential, env, private_data_dir, inventory_update):
    env["AWS_ACCESS_KEY_ID"] = _input(credential, "username")
    env["AWS_SECRET_ACCESS_KEY"] = _input(credential, "password")
    if _input(credential, "security_token"):
        env["AWS_SECURITY_TOKEN"] = env["AWS_SESSION_TOKEN"] = _input(credential, "security_token")


def _gce(credential, env, private_data_dir, inventory_update):
    project, username = _input(credential, "project"), _input(credential, "username")
    if not inventory_update:
        env["GCE_EMAIL"], env["GCE_PROJECT"] = username, project
    account = {"type": "service_account", "private_key": _input(credential, "ssh_key_data"), "client_email": username,
               "project_id": project, "token_uri": "https://oauth2.googleapis.com/token"}
    path = private_file(private_data_dir, json.dumps(account, indent=2))
    for name in ("GCE_CREDENTIALS_FILE_PATH", "GCP_SERVICE_ACCOUNT_FILE", "GOOGLE_APPLICATION_CREDENTIALS"):
        env[name] = path
    env.update({"GCP_AUTH_KIND": "serviceaccount", "GCP_PROJECT": project, "GCP_ENV_TYPE": "tower"})


def _azure_rm(credential, env, private_data_dir, inventory_update):
    client, tenant = _input(credential, "client"), _input(credential, "tenant")
    env["AZURE_SUBSCRIPTION_ID"] = _input(credential, "subscription")
    if client and tenant:
        env.update({"AZURE_CLIENT_ID": client, "AZURE_TENANT": tenant, "AZURE_SECRET": _input(credential, "secret")})
    else:
        env.update({"AZURE_AD_USER": _input(credential, "username"), "AZURE_PASSWORD": _input(credential, "password")})
    if _input(credential, "cloud_environment"):
        env["AZURE_CLOUD_ENVIRONMENT"] = _input(credential, "cloud_environment")


def _vmware(credential, env, private_data_dir, inventory_update):
    env.update({"VMWARE_USER": _input(credential, "username"), "VMWARE_PASSWORD": _input(credential, "password"),
                "VMWARE_HOST": _input(credential, "host"), "VMWARE_VALIDATE_CERTS": "False"})


def _openstack(credential, env, private_data_dir, inventory_update):
    auth = {"auth_url": _input(credential, "host"), "username": _input(credential, "username"),
            "password": _input(credential, "password"), "project_name": _input(credential, "project")}
    if _input(credential, "project_domain_name"):
        auth["project_domain_name"] = _input(credential, "project_domain_name")
    if _input(credential, "domain"):
        auth["domain_name"] = _input(credential, "domain")
    cloud = {"auth": auth, "verify": _input(credential, "verify_ssl", True)}
    if _input(credential, "region"):
        cloud["region_name"] = _input(credential, "region")
    text = yaml.safe_dump({"clouds": {"devstack": cloud}}, default_flow_style=False, allow_unicode=True)
    env["OS_CLIENT_CONFIG_FILE"] = private_file(private_data_dir, text)


def _kubernetes_bearer_token(credential, env, private_data_dir, inventory_update):
    env["K8S_AUTH_HOST"] = _input(credential, "host")
    env["K8S_AUTH_API_KEY"] = _input(credential, "bearer_token")
    if _input(credential, "verify_ssl", None) and "ssl_ca_cert" in (credential.inputs or {}):
        env["K8S_AUTH_VERIFY_SSL"] = "True"
        env["K8S_AUTH_SSL_CA_CERT"] = private_file(private_data_dir, _input(credential, "ssl_ca_cert"))
    else:
        env["K8S_AUTH_VERIFY_SSL"] = "False"


def _terraform(credential, env, private_data_dir, inventory_update):
    env["TF_BACKEND_CONFIG_FILE"] = private_file(private_data_dir, _input(credential, "configuration"))
    if "gce_credentials" in (credential.inputs or {}):
        env["GOOGLE_BACKEND_CREDENTIALS"] = private_file(private_data_dir, _input(credential, "gce_credentials"))


BUILTIN = {
    "aws": _aws, "gce": _gce, "azure_rm": _azure_rm, "vmware": _vmware, "openstack": _openstack,
    "kubernetes_bearer_token": _kubernetes_bearer_token, "terraform": _terraform,
}


# -- machine, vault and network credentials of a job (RunJob) --------------------------------

def _machine(credentials):
    return next((c for c in credentials if c.credential_type.kind == "ssh"), None)


def passwords(credentials):
    """The answers to the prompts of ansible-playbook: the machine credential's passwords and
    each vault credential's (``vault_password`` or ``vault_password.<vault id>``)."""
    answers = {}
    machine = _machine(credentials)
    if machine is not None:
        for field in ("ssh_key_unlock", "ssh_password", "become_password"):
            value = _input(machine, "password" if field == "ssh_password" else field)
            if value not in ("", "ASK"):
                answers[field] = value
    for cred in credentials:
        if cred.credential_type.kind != "vault":
            continue
        vault_id = _input(cred, "vault_id", None)
        field = "vault_password.%s" % vault_id if vault_id else "vault_password"
        value = _input(cred, "vault_password")
        if value not in ("", "ASK"):
            answers[field] = value
    if "ssh_key_unlock" not in answers:
        for cred in credentials:
            if cred.credential_type.kind == "net" and _input(cred, "ssh_key_unlock"):
                answers["ssh_key_unlock"] = _input(cred, "ssh_key_unlock")
                break
    return answers


def prompts(answers):
    """The prompts ansible-playbook may show, as ansible-runner's env/passwords maps them
    (a pattern to its answer), for the answers there are."""
    patterns = {
        r"Enter passphrase for .*:\s*?$": "ssh_key_unlock",
        r"BECOME password.*:\s*?$": "become_password",
        r"SSH password:\s*?$": "ssh_password",
        r"Password:\s*?$": "ssh_password",
        r"Vault password:\s*?$": "vault_password",
    }
    for method in ("sudo", "su", "pbrun", "pfexec", "dzdo", "pmrun", "runas", "enable", "doas", "ksu", "machinectl",
                   "sesu"):
        patterns[r"%s password.*:\s*?$" % method] = "become_password"
        patterns[r"%s password.*:\s*?$" % method.upper()] = "become_password"
    for key in answers:
        if key.startswith("vault_password."):
            patterns[r"Vault password \(%s\):\s*?$" % re.escape(key.split(".", 1)[1])] = key
    return {pattern: answers[key] for pattern, key in patterns.items() if key in answers}


def machine_args(credentials, answers, become_enabled=False):
    """The arguments the machine credential and the vault passwords add to ansible-playbook."""
    machine = _machine(credentials)
    user = _input(machine, "username") if machine is not None else ""
    method = _input(machine, "become_method") if machine is not None else ""
    become_user = _input(machine, "become_username") if machine is not None else ""
    args = ["-u", user or "root"]
    if "ssh_password" in answers:
        args.append("--ask-pass")
    if become_enabled:
        args.append("--become")
    if method:
        args += ["--become-method", method]
    if become_user:
        args += ["--become-user", become_user]
    if "become_password" in answers:
        args.append("--ask-become-pass")
    for key in answers:
        if key == "vault_password":
            args.append("--ask-vault-pass")
        elif key.startswith("vault_password."):
            args += ["--vault-id", "%s@prompt" % key.split(".", 1)[1]]
    return args


def ssh_key(credentials):
    """The private key ansible-runner hands to ssh-agent (env/ssh_key): the machine credential's."""
    for cred in credentials:
        if cred.credential_type.namespace in ("ssh", "scm") and _input(cred, "ssh_key_data"):
            data = _input(cred, "ssh_key_data")
            return data if data.endswith("\n") else data + "\n"
    return None


def network_env(credentials, env, private_data_dir):
    """The variables a network credential gives (its key written to a file of env/)."""
    for cred in credentials:
        if cred.credential_type.kind != "net":
            continue
        env["ANSIBLE_NET_USERNAME"] = _input(cred, "username")
        env["ANSIBLE_NET_PASSWORD"] = _input(cred, "password")
        if _input(cred, "ssh_key_data"):
            env["ANSIBLE_NET_SSH_KEYFILE"] = private_file(private_data_dir, _input(cred, "ssh_key_data"))
        authorize = bool(_input(cred, "authorize", False))
        env["ANSIBLE_NET_AUTHORIZE"] = str(int(authorize))
        if authorize:
            env["ANSIBLE_NET_AUTH_PASS"] = _input(cred, "authorize_password")
