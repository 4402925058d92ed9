"""Runs one ad hoc command: `python -m refsvc.adhoc.runner COMMAND_ID`, started
detached by the launch request. Runs the `ansible` command line against the
inventory's enabled hosts (the limit is the host pattern, `all` without one)
and reports as the job runner does (refsvc.jobs.runner)."""
import json
import sys
import time
from pathlib import Path

from refsvc.jobs import runner
from refsvc.jobs.runner import finish, inventory_data, run_environment, stream


def command_for(command, workdir):
    ansible_bin = Path(sys.executable).parent / "ansible"
    args = [str(ansible_bin), "-i", str(workdir / "inventory.json"), "-e", "@" + str(workdir / "extra_vars.json"),
            "-m", command.module_name]
    if command.module_args:
        args += ["-a", command.module_args]
    username = (command.credential.inputs or {}).get("username") if command.credential else None
    if username:
        args += ["-u", username]
    if command.job_type == "check":
        args.append("--check")
    if command.become_enabled:
        args.append("--become")
    if command.forks:
        args.append("--forks=%d" % command.forks)
    if command.diff_mode:
        args.append("--diff")
    if command.verbosity:
        args.append("-" + "v" * min(int(command.verbosity), 5))
    args.append(command.limit or "all")
    return args


def extra_vars_of(command):
    import yaml

    data = yaml.safe_load(command.extra_vars) if command.extra_vars else None
    data = data if isinstance(data, dict) else {}
    data.update({"awx_job_id": command.id, "tower_job_id": command.id, "awx_job_launch_type": command.launch_type})
    if command.launched_by_id:
        data.update({"awx_user_id": command.launched_by_id, "awx_user_name": command.launched_by.username})
    return data


def run(command_id):
    from django.conf import settings
    from django.utils import timezone

    from .models import AdHocCommand

    command = AdHocCommand.objects.select_related("inventory", "credential", "launched_by").get(pk=command_id)
    started_at = time.time()
    command.started = timezone.now()
    if command.cancel_flag:
        return finish(command, "canceled", started_at)
    if command.inventory is None:
        return finish(command, "error", started_at, "The inventory is missing.")
    workdir = Path(settings.INSTANCE_DIR) / "ad_hoc_commands" / str(command.id)
    (workdir / "tmp").mkdir(parents=True, exist_ok=True)
    (workdir / "inventory.json").write_text(json.dumps(inventory_data(command)))
    (workdir / "extra_vars.json").write_text(json.dumps(extra_vars_of(command)))
    args = command_for(command, workdir)
    command.status = "running"
    command.job_args = json.dumps(args)
    command.job_cwd = str(workdir)
    command.save(update_fields=["status", "started", "job_args", "job_cwd", "modified"])
    rc, canceled = stream(command, args, workdir, run_environment(workdir))
    if canceled:
        return finish(command, "canceled", started_at)
    return finish(command, "successful" if rc == 0 else "failed", started_at)


def main():
    import django

    django.setup()
    from .models import AdHocCommand

    runner.main(run, AdHocCommand)


if __name__ == "__main__":
    main()
