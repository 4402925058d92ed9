"""Runs one job: `python -m refsvc.jobs.runner JOB_ID`, started detached by the
launch request (see start()). As the real service does, it lays out a private data
directory (env/envvars, env/extravars, env/passwords, env/ssh_key, env/cmdline,
env/settings, inventory/hosts, project/), injects the job's credentials
(refsvc.jobs.injection) and runs ansible-playbook through ansible-runner. It writes
the job's status, stdout and environment (secrets hidden) to the database as the run
goes, so every worker of the service sees the progress, stops the run when the job's
cancel flag is set, and removes the directory when the run ends."""
import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

FLUSH_SECONDS = 0.3


def start(job, runner="refsvc.jobs.runner"):
    """Start the runner module ``runner`` for ``job`` and return at once (refsvc/dispatcher.py)."""
    from refsvc import dispatcher

    dispatcher.start([runner, job.pk])


def inventory_data(job):
    """The job's inventory as Ansible's YAML/JSON inventory format: enabled hosts, their variables."""
    import yaml

    def parse(text):
        data = yaml.safe_load(text) if text else None
        return data if isinstance(data, dict) else {}

    defaults = {"ansible_connection": "local", "ansible_python_interpreter": sys.executable}
    defaults.update(parse(job.inventory.variables))
    hosts = {h.name: parse(h.variables) for h in job.inventory.hosts.filter(enabled=True).order_by("id")}
    return {"all": {"hosts": hosts, "vars": defaults}}


def run_environment(workdir):
    # Nothing of the service's own settings, nor connection variables it was started with:
    # a run gets those from its credentials only.
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("ANSIBLE_", "SVC_", "DJANGO_", "SERVICE_", "CONTROLLER_", "TOWER_")) and k != "PYTHONPATH"}
    env.update({
        "ANSIBLE_NOCOLOR": "1",
        "ANSIBLE_FORCE_COLOR": "0",
        "ANSIBLE_HOST_KEY_CHECKING": "False",
        "ANSIBLE_RETRY_FILES_ENABLED": "False",
        "ANSIBLE_HOME": str(workdir / "home"),
        "ANSIBLE_LOCAL_TEMP": str(workdir / "tmp"),
        "ANSIBLE_DEPRECATION_WARNINGS": "False",
        "PYTHONUNBUFFERED": "1",
    })
    return env


def extra_vars_of(job):
    import yaml

    data = yaml.safe_load(job.extra_vars) if job.extra_vars else None
    data = data if isinstance(data, dict) else {}
    data.update({
        "awx_job_id": job.id, "tower_job_id": job.id,
        "awx_job_template_id": job.job_template_id, "awx_job_template_name": job.name,
        "awx_job_launch_type": "manual",
    })
    return data


def finish(job, status, started_at, explanation=""):
    from django.utils import timezone

    job.status = status
    job.failed = status in ("failed", "error", "canceled")  # as UnifiedJob.save()
    job.finished = timezone.now()
    job.elapsed = round(time.time() - started_at, 3)
    if explanation:
        job.job_explanation = explanation
    job.save(update_fields=["status", "failed", "finished", "elapsed", "job_explanation", "result_stdout", "modified"])


def job_credentials(job):
    return list(job.credentials.select_related("credential_type").order_by("id"))


def service_setting(category, name):
    from refsvc.conf.views import render

    return render(category).get(name)


def collections_paths(private_data_dir, env):
    """The collections (and roles) search paths of a run, the project's requirements first, as
    the real RunJob.build_env orders them (the run's own paths here, there is no container)."""
    defaults = {"collections": "~/.ansible/collections:/usr/share/ansible/collections",
                "roles": "~/.ansible/roles:/usr/share/ansible/roles:/etc/ansible/roles"}
    for key, kind in (("ANSIBLE_COLLECTIONS_PATHS", "collections"), ("ANSIBLE_ROLES_PATH", "roles"),
                      ("ANSIBLE_COLLECTIONS_PATH", "collections")):
        paths = defaults[kind].split(":")
        for path in env.get(key, "").split(":"):
            if path and path not in paths:
                paths.insert(0, path)
        env[key] = os.pathsep.join([str(Path(private_data_dir) / ("requirements_" + kind))] + paths)


def private_data_dir_for(kind, pk):
    """A new private data directory of a run, laid out as ansible-runner reads it (env/,
    inventory/, project/), named as the real service names it (awx_<id>_...)."""
    import tempfile

    from django.conf import settings

    base = Path(settings.INSTANCE_DIR) / kind
    base.mkdir(parents=True, exist_ok=True)
    path = Path(tempfile.mkdtemp(prefix="awx_%s_" % pk, dir=str(base)))
    path.chmod(0o700)
    for sub in ("env", "inventory"):
        (path / sub).mkdir(mode=0o700)
    return path


def write_private(path, text, mode=0o600):
    fd = os.open(str(path), os.O_WRONLY | os.O_CREAT | os.O_TRUNC, mode)
    with os.fdopen(fd, "w") as handle:
        handle.write(text)
    os.chmod(str(path), mode)
    return path


def write_inventory_script(private_data_dir, data):
    """inventory/hosts: a script that prints the inventory as JSON, as the real service writes it."""
    script = {"all": {"hosts": list(data["all"]["hosts"]), "vars": data["all"]["vars"]},
              "_meta": {"hostvars": data["all"]["hosts"]}}
    text = "#!%s\n# -*- coding: utf-8 -*-\nprint(%r)\n" % (sys.executable, json.dumps(script))
    return write_private(Path(private_data_dir) / "inventory" / "hosts", text, 0o700)


def copy_project(project, project_dir, private_data_dir):
    """The project's files, without .git, in project/, and its installed requirements
    (requirements_collections/, requirements_roles/) beside it, as make_local_copy does."""
    import shutil

    from . import projects

    shutil.copytree(str(project_dir), str(Path(private_data_dir) / "project"),
                    ignore=shutil.ignore_patterns(".git"), symlinks=True)
    cache = projects.requirements_cache(project)
    for sub in ("requirements_collections", "requirements_roles"):
        if cache is not None and (cache / sub).is_dir():
            shutil.copytree(str(cache / sub), str(Path(private_data_dir) / sub), symlinks=True)


class Recorder:
    """ansible-runner's handlers for one run: the output of its events saved to the run's
    result_stdout as it comes, its command, directory and environment (secrets hidden) saved
    when it starts, the cancel flag read from the database."""

    def __init__(self, job, safe_env):
        self.job = job
        self.safe_env = safe_env
        self.lines = {}
        self.saved_at = 0.0
        self.checked_at = 0.0
        self.canceled = False

    def text(self):
        return "".join(self.lines[k] for k in sorted(self.lines))

    def event(self, data):
        stdout = data.get("stdout") or ""
        if stdout:
            self.lines[data.get("counter", len(self.lines))] = stdout + "\n"
            if time.time() - self.saved_at >= FLUSH_SECONDS:
                self.flush()
        return True

    def flush(self):
        self.saved_at = time.time()
        self.job.result_stdout = self.text()
        self.job.save(update_fields=["result_stdout", "modified"])

    def status(self, data, runner_config):
        if data.get("status") != "starting":
            return
        env = dict(runner_config.env)
        env.update({k: v for k, v in self.safe_env.items() if k in env})
        # What the real service keeps from the worker's own environment is not masked there;
        # here the worker is this host, so every name that speaks of a secret is hidden.
        from .injection import safe_environment

        self.job.job_args = json.dumps(list(runner_config.command))
        self.job.job_cwd = str(runner_config.cwd)
        self.job.job_env = safe_environment(env)
        self.job.save(update_fields=["job_args", "job_cwd", "job_env", "modified"])

    def cancel(self):
        if self.canceled:
            return True
        if time.time() - self.checked_at >= FLUSH_SECONDS:
            self.checked_at = time.time()
            self.canceled = type(self.job).objects.filter(pk=self.job.pk, cancel_flag=True).exists()
        return self.canceled


def run_with_runner(job, private_data_dir, recorder, **params):
    """Run ansible-runner over ``private_data_dir`` in an environment of the run's own (the
    service's settings and secrets left out); returns ansible-runner's status and rc."""
    import ansible_runner

    binary = str(Path(sys.executable).parent)
    base = run_environment(private_data_dir)
    # ansible-playbook as the execution environment has it: on the PATH.
    base["PATH"] = os.pathsep.join([binary] + [p for p in base.get("PATH", "").split(os.pathsep) if p and p != binary])
    os.environ.clear()
    os.environ.update(base)
    result = ansible_runner.run(
        private_data_dir=str(private_data_dir), ident=str(job.id), quiet=True,
        event_handler=recorder.event, status_handler=recorder.status, cancel_callback=recorder.cancel, **params)
    return result.status, result.rc


def run(job_id):
    import shutil

    from django.utils import timezone

    from . import injection, projects
    from .models import Job

    keep = bool(os.environ.get("SVC_KEEP_PRIVATE_DATA"))  # for debugging the service: the run's files stay
    job = Job.objects.select_related("inventory", "project", "job_template").get(pk=job_id)
    started_at = time.time()
    job.started = timezone.now()
    if job.cancel_flag:
        return finish(job, "canceled", started_at)
    if job.project:
        projects.settle(job.project)
    project_dir = projects.directory(job.project) if job.project else None
    if project_dir is None or job.inventory is None:
        return finish(job, "error", started_at, "The project directory or the inventory is missing.")
    job.status = "running"
    if job.project:  # the revision the run uses (the real RunJob.pre_run_hook)
        job.scm_revision = job.project.project_updates.filter(status="successful").order_by("-id").values_list(
            "scm_revision", flat=True).first() or ""
    job.save(update_fields=["status", "started", "scm_revision", "modified"])

    private_data_dir = private_data_dir_for("jobs", job.id)
    try:
        copy_project(job.project, project_dir, private_data_dir)
        credentials = job_credentials(job)
        answers = injection.passwords(credentials)
        args = injection.machine_args(credentials, answers, getattr(job.job_template, "become_enabled", False))
        args += options_of(job)
        env = build_env(job, private_data_dir)
        injection.network_env(credentials, env, str(private_data_dir))
        safe_env = injection.safe_environment(env)
        for credential in credentials:
            injection.inject(credential, env, safe_env, args, str(private_data_dir))
        write_private(private_data_dir / "env" / "extravars", json.dumps(extra_vars_of(job)))
        write_private(private_data_dir / "env" / "envvars", json.dumps(env))
        write_private(private_data_dir / "env" / "cmdline", " ".join(shlex_quote(a) for a in args))
        if answers:
            write_private(private_data_dir / "env" / "passwords", json.dumps(injection.prompts(answers)))
        key = injection.ssh_key(credentials)
        if key:
            write_private(private_data_dir / "env" / "ssh_key", key)
        timeout = job.timeout if job.timeout and job.timeout > 0 else 0
        write_private(private_data_dir / "env" / "settings", json.dumps({
            "job_timeout": timeout, "suppress_ansible_output": True, "suppress_output_file": True,
            "pexpect_timeout": FLUSH_SECONDS}))
        inventory = write_inventory_script(private_data_dir, inventory_data(job))
        recorder = Recorder(job, safe_env)
        fact_cache = "jsonfile" if job.use_fact_cache else ""
        status, _rc = run_with_runner(job, private_data_dir, recorder, playbook=job.playbook, inventory=str(inventory),
                                      fact_cache_type=fact_cache)
        job.result_stdout = recorder.text()
    finally:
        if not keep:  # as the real service removes it (AWX_CLEANUP_PATHS)
            shutil.rmtree(str(private_data_dir), ignore_errors=True)
    if status == "canceled" and recorder.canceled:
        return finish(job, "canceled", started_at)
    if status in ("timeout", "error"):
        return finish(job, "failed" if status == "timeout" else "error", started_at, "Job terminated due to %s" % status)
    return finish(job, "successful" if status == "successful" else "failed", started_at)


def shlex_quote(arg):
    import shlex

    return shlex.quote(arg)


def options_of(job):
    """The arguments of ansible-playbook that the job's own fields give (RunJob.build_args)."""
    args = []
    if job.job_type == "check":
        args.append("--check")
    if job.diff_mode:
        args.append("--diff")
    if job.forks:
        args.append("--forks=%d" % job.forks)
    if job.force_handlers:
        args.append("--force-handlers")
    if job.limit:
        args += ["-l", job.limit]
    if job.verbosity:
        args.append("-" + "v" * min(int(job.verbosity), 5))
    if job.job_tags:
        args += ["-t", job.job_tags]
    if job.skip_tags:
        args.append("--skip-tags=%s" % job.skip_tags)
    start_at = job.start_at_task
    if start_at:
        args.append("--start-at-task=%s" % start_at)
    return args


def build_env(job, private_data_dir):
    """The variables the service gives a job (RunJob.build_env): AWX_TASK_ENV, where the run's
    files are, the ids of the job and its inventory, the project's revision, the service's URL,
    and the search paths of the project's requirements."""
    env = {key: str(value) for key, value in (service_setting("jobs", "AWX_TASK_ENV") or {}).items()}
    env["AWX_PRIVATE_DATA_DIR"] = str(private_data_dir)
    env["JOB_ID"] = str(job.pk)
    env["INVENTORY_ID"] = str(job.inventory.pk)
    if job.project:
        env["PROJECT_REVISION"] = job.scm_revision
    env["ANSIBLE_RETRY_FILES_ENABLED"] = "False"
    env["MAX_EVENT_RES"] = "700000"
    env["AWX_HOST"] = service_setting("system", "TOWER_URL_BASE") or ""
    control = Path(private_data_dir) / "cp"
    control.mkdir(mode=0o700, exist_ok=True)
    env["ANSIBLE_SSH_CONTROL_PATH_DIR"] = str(control)
    collections_paths(private_data_dir, env)
    return env


def stream(job, command, cwd, env):
    """Run ``command``, saving its output to ``job.result_stdout`` as it comes and
    stopping it when the job's cancel flag is set; returns (exit code, canceled)."""
    model = type(job)
    proc = subprocess.Popen(command, cwd=str(cwd), env=env, stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True)
    chunks = []
    reader = threading.Thread(target=lambda: chunks.extend(iter(lambda: proc.stdout.read1(4096), b"")), daemon=True)
    reader.start()
    canceled = False
    written = 0
    while reader.is_alive():
        reader.join(FLUSH_SECONDS)
        if len(chunks) != written:
            written = len(chunks)
            job.result_stdout = b"".join(chunks).decode("utf-8", "replace")
            job.save(update_fields=["result_stdout", "modified"])
        if not canceled and model.objects.filter(pk=job.pk, cancel_flag=True).exists():
            canceled = True
            os.killpg(proc.pid, signal.SIGTERM)
    rc = proc.wait()
    job.result_stdout = b"".join(chunks).decode("utf-8", "replace")
    return rc, canceled


def main(run_one=None, model=None):
    """Set Django up and run the job whose id is the first argument with ``run_one``
    (``run``), marking it as an error (of ``model``, Job) when the runner breaks."""
    import django

    django.setup()
    if model is None:
        from .models import Job as model
    job_id = int(sys.argv[1])
    try:
        (run_one or run)(job_id)
    except Exception as exc:  # leave no job running forever
        model.objects.filter(pk=job_id).update(status="error", failed=True, job_explanation="Runner error: %s" % exc)
        raise


if __name__ == "__main__":
    main()
