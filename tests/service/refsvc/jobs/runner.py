"""Runs one job: `python -m refsvc.jobs.runner JOB_ID`, started detached by the
launch request (see start()). It writes the job's status and stdout to the
database as the run goes, so every worker of the service sees the progress,
and stops the run when the job's cancel flag is set."""
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
    """Start the runner module ``runner`` for ``job`` and return at once (a thread reaps it)."""
    from django.conf import settings

    log = open(Path(settings.INSTANCE_DIR) / "jobs.log", "ab")
    proc = subprocess.Popen(
        [sys.executable, "-m", runner, str(job.pk)],
        cwd=str(Path(__file__).resolve().parents[2]),
        stdin=subprocess.DEVNULL, stdout=log, stderr=log, start_new_session=True,
    )
    log.close()
    threading.Thread(target=proc.wait, daemon=True).start()


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


def command_for(job, workdir):
    playbook_bin = Path(sys.executable).parent / "ansible-playbook"
    command = [str(playbook_bin), "-i", str(workdir / "inventory.json"), "-e", "@" + str(workdir / "extra_vars.json")]
    if job.limit:
        command += ["--limit", job.limit]
    if job.job_tags:
        command += ["--tags", job.job_tags]
    if job.skip_tags:
        command += ["--skip-tags", job.skip_tags]
    if job.forks:
        command += ["--forks", str(job.forks)]
    if job.job_type == "check":
        command.append("--check")
    if job.verbosity:
        command.append("-" + "v" * min(int(job.verbosity), 5))
    command.append(job.playbook)
    return command


def run_environment(workdir):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ANSIBLE_", "SVC_", "DJANGO_", "SERVICE_"))}
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


def run(job_id):
    from django.conf import settings
    from django.utils import timezone

    from . import projects
    from .models import Job

    job = Job.objects.select_related("inventory", "project").get(pk=job_id)
    started_at = time.time()
    job.started = timezone.now()
    if job.cancel_flag:
        return finish(job, "canceled", started_at)
    if job.project:
        projects.settle(job.project)
    project_dir = projects.directory(job.project) if job.project else None
    if project_dir is None or job.inventory is None:
        return finish(job, "error", started_at, "The project directory or the inventory is missing.")
    workdir = Path(settings.INSTANCE_DIR) / "jobs" / str(job.id)
    (workdir / "tmp").mkdir(parents=True, exist_ok=True)
    (workdir / "inventory.json").write_text(json.dumps(inventory_data(job)))
    (workdir / "extra_vars.json").write_text(json.dumps(extra_vars_of(job)))
    command = command_for(job, workdir)
    job.status = "running"
    job.job_args = json.dumps(command)
    job.job_cwd = str(project_dir)
    job.save(update_fields=["status", "started", "job_args", "job_cwd", "modified"])

    rc, canceled = stream(job, command, project_dir, run_environment(workdir))
    if canceled:
        return finish(job, "canceled", started_at)
    return finish(job, "successful" if rc == 0 else "failed", started_at)


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
