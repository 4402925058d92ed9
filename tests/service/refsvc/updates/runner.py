"""Runs one project update or inventory update:
`python -m refsvc.updates.runner project_update|inventory_update ID`, started
detached by the update request (see start()).

A project update of a git project clones its scm_url (a file:// URL of a local
repository works) into the project's directory; one of an archive project downloads
its scm_url into the directory's .archive/ and unpacks it there, as the real service's
project_update.yml does (get_url, then project_archive; the revision is the archive's
SHA-1); an inventory update of an
`scm` source reads the file of its project with ansible-inventory and brings
its hosts and groups into the inventory."""
import json
import shutil
import subprocess
import sys
import time
from pathlib import Path

COMMAND_SECONDS = 300


def start(kind, obj):
    """Start the runner for ``obj`` and return at once (refsvc/dispatcher.py)."""
    from refsvc import dispatcher

    dispatcher.start(["refsvc.updates.runner", kind, obj.pk])


class UpdateFailed(Exception):
    pass


class Run:
    """One update's run: its output, commands and end."""

    def __init__(self, update):
        from django.utils import timezone

        self.update = update
        self.started_at = time.time()
        self.lines = []
        update.started = timezone.now()

    def say(self, text):
        self.lines.append(text.rstrip("\n"))

    def save_output(self):
        self.update.result_stdout = "\n".join(self.lines) + "\n" if self.lines else ""

    def running(self, cwd):
        self.update.status = "running"
        self.update.job_cwd = str(cwd)
        self.update.save(update_fields=["status", "started", "job_cwd", "modified"])

    def command(self, args, cwd=None, env=None):
        """Run ``args``; its output goes to the update's output. Raises UpdateFailed when it fails."""
        self.say("$ " + " ".join(args))
        try:
            proc = subprocess.run(args, cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, timeout=COMMAND_SECONDS, check=False)
        except (OSError, subprocess.TimeoutExpired) as exc:
            raise UpdateFailed(str(exc))
        out, err = proc.stdout.decode("utf-8", "replace"), proc.stderr.decode("utf-8", "replace")
        if err.strip():
            self.say(err)
        if proc.returncode != 0:
            if out.strip():
                self.say(out)
            raise UpdateFailed("%s exited with %d" % (args[0], proc.returncode))
        return out

    def finish(self, status, explanation=""):
        from django.utils import timezone

        update = self.update
        self.save_output()
        update.status = status
        update.failed = status in ("failed", "error", "canceled")  # as UnifiedJob.save()
        update.finished = timezone.now()
        update.elapsed = round(time.time() - self.started_at, 3)
        if explanation:
            update.job_explanation = explanation
        update.save()
        return update


def git_environment():
    import os

    # The git configuration the service was started with stays (GIT_CONFIG_GLOBAL, or
    # GIT_CONFIG_COUNT with its GIT_CONFIG_KEY_<n>/GIT_CONFIG_VALUE_<n>: URL rewrites to local
    # mirrors; GIT_SSL_CAINFO), as a controller's own git configuration would.
    keep = ("GIT_CONFIG_GLOBAL", "GIT_SSL_CAINFO", "GIT_CONFIG_COUNT", "GIT_CONFIG_KEY_", "GIT_CONFIG_VALUE_")
    env = {k: v for k, v in os.environ.items()
           if k.startswith(keep) or not k.startswith(("GIT_", "SVC_", "DJANGO_"))}
    env.update({"GIT_TERMINAL_PROMPT": "0", "GIT_CONFIG_NOSYSTEM": "1", "LC_ALL": "C"})
    return env


def mirrored(url):
    """Where to fetch ``url`` from: REFSVC_URL_MIRRORS, a JSON object of URL prefixes and what
    replaces them (file:// URLs work), points public URLs at local copies for an archive
    project, as git's url.insteadOf does for a git project."""
    import os

    mirrors = json.loads(os.environ.get("REFSVC_URL_MIRRORS") or "{}")
    for prefix in sorted(mirrors, key=len, reverse=True):
        if url.startswith(prefix):
            return mirrors[prefix] + url[len(prefix):]
    return url


def fetch(run, url, directory):
    """Download ``url`` into ``directory``, named after the URL's last segment, as get_url names it."""
    from urllib.parse import unquote, urlsplit

    import requests

    name = urlsplit(url).path.rstrip("/").rsplit("/", 1)[-1] or "archive"
    path = directory / name
    source = mirrored(url)
    run.say("Get archive from url %s" % url)
    try:
        if urlsplit(source).scheme == "file":
            shutil.copyfile(unquote(urlsplit(source).path), path)
        else:
            with requests.get(source, stream=True, timeout=COMMAND_SECONDS) as answer:
                answer.raise_for_status()
                with open(path, "wb") as out:
                    for chunk in answer.iter_content(1 << 16):
                        out.write(chunk)
    except (OSError, requests.RequestException) as exc:
        raise UpdateFailed("Request failed: %s" % exc)
    return path


def _plain_members(opened, directory):
    """The members of a tar archive, on a Python whose tarfile has no extraction filters (before 3.11.4,
    Debian 12's 3.11.2 among them): only files and directories that stay inside ``directory``, as the
    "data" filter would unpack them; anything else refuses the archive."""
    import os

    base = os.path.realpath(directory)
    for member in opened.getmembers():
        target = os.path.realpath(os.path.join(base, member.name))
        if not (member.isfile() or member.isdir()) or os.path.commonpath([base, target]) != base:
            raise UpdateFailed("the archive holds %s, which is not a file or directory inside the project"
                               % member.name)
        yield member


def unpack(archive, directory):
    """Unpack a zip or tar archive into ``directory``; a single root directory of the archive is
    left out, as project_archive leaves it out (project-1.0.0/ holds the project)."""
    import tarfile
    import tempfile
    import zipfile

    with tempfile.TemporaryDirectory(dir=directory.parent) as tmp:
        if zipfile.is_zipfile(archive):
            with zipfile.ZipFile(archive) as opened:
                opened.extractall(tmp)
        else:
            try:
                with tarfile.open(archive) as opened:
                    if hasattr(tarfile, "data_filter"):
                        opened.extractall(tmp, filter="data")
                    else:
                        opened.extractall(tmp, members=_plain_members(opened, tmp))
            except tarfile.TarError:
                raise UpdateFailed("%s is not a valid archive" % archive)
        entries = list(Path(tmp).iterdir())
        root = entries[0] if len(entries) == 1 and entries[0].is_dir() else Path(tmp)
        for entry in root.iterdir():
            shutil.move(str(entry), str(directory / entry.name))


def check_out_archive(run, project, staging):
    import hashlib

    (staging / ".archive").mkdir(parents=True)
    archive = fetch(run, project.scm_url, staging / ".archive")
    unpack(archive, staging)
    with open(archive, "rb") as f:
        return hashlib.sha1(f.read()).hexdigest()


def check_out(run, project):
    """Clone the project's repository (or unpack its archive) into its directory; returns the
    revision checked out."""
    from refsvc.jobs import projects

    if project.scm_type not in ("git", "archive"):
        raise UpdateFailed("The reference service updates git and archive projects only, not %r." % project.scm_type)
    target = projects.scm_root() / projects.scm_local_path(project)
    staging = target.with_name(target.name + ".new")
    shutil.rmtree(staging, ignore_errors=True)
    staging.parent.mkdir(parents=True, exist_ok=True)
    if project.scm_type == "archive":
        revision = check_out_archive(run, project, staging)
        shutil.rmtree(target, ignore_errors=True)
        staging.rename(target)
        run.say("Repository Version %s" % revision)
        return revision
    env = git_environment()
    args = ["git", "clone", "--quiet"]
    if project.scm_track_submodules:
        args.append("--recurse-submodules")
    args += ["--", project.scm_url, str(staging)]
    run.command(args, env=env)
    if project.scm_refspec:
        run.command(["git", "fetch", "--quiet", "origin", project.scm_refspec], cwd=str(staging), env=env)
    if project.scm_branch:
        run.command(["git", "checkout", "--quiet", project.scm_branch], cwd=str(staging), env=env)
    revision = run.command(["git", "rev-parse", "HEAD"], cwd=str(staging), env=env).strip()
    install_requirements(run, project, staging)
    shutil.rmtree(target, ignore_errors=True)
    staging.rename(target)
    run.say("Checked out %s at revision %s into %s" % (project.scm_url, revision, target.name))
    return revision


def install_requirements(run, project, checkout):
    """Install the collections of collections/requirements.yml (or .yaml) and the roles of
    roles/requirements.yml of the checkout into the project's cache, as the real project
    update does (awx/playbooks/project_update.yml); each job of the project gets a copy."""
    import tempfile

    from refsvc.jobs import projects
    from refsvc.jobs.runner import run_environment

    cache = projects.requirements_cache(project)
    shutil.rmtree(cache, ignore_errors=True)
    galaxy = str(Path(sys.executable).parent / "ansible-galaxy")
    steps = (("collections", "requirements_collections", ["collection", "install"]),
             ("roles", "requirements_roles", ["role", "install"]))
    for folder, cached, command in steps:
        found = [checkout / folder / name for name in ("requirements.yml", "requirements.yaml")
                 if (checkout / folder / name).is_file()]
        if not found:
            continue
        target = cache / cached
        target.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory() as home:
            env = run_environment(Path(home))
            env.update({"ANSIBLE_COLLECTIONS_PATHS": str(target), "ANSIBLE_COLLECTIONS_PATH": str(target)})
            args = [galaxy] + command + ["-r", str(found[0])]
            if folder == "roles":
                args += ["--roles-path", str(target)]
            out = run.command(args, cwd=str(checkout), env=env)
            if out.strip():
                run.say(out)


def wait_for_earlier_updates(update, seconds=COMMAND_SECONDS):
    from refsvc.jobs.models import ACTIVE

    from .models import ProjectUpdate

    deadline = time.time() + seconds
    earlier = ProjectUpdate.objects.filter(project_id=update.project_id, id__lt=update.id,
                                           status__in=ACTIVE)
    while earlier.exists() and time.time() < deadline:
        time.sleep(0.2)


def run_project_update(update):
    from refsvc.jobs import projects

    project = update.project
    if project is not None:
        # One update of a project at a time, in the order they were made: the real task
        # manager holds an update back while another of the same project runs.
        wait_for_earlier_updates(update)
        update.refresh_from_db()
        if update.cancel_flag:
            return Run(update).finish("canceled")
    run = Run(update)
    if project is None:
        return run.finish("error", "The project of this update no longer exists.")
    run.running(projects.scm_root())
    try:
        update.scm_revision = check_out(run, project)
    except UpdateFailed as exc:
        run.say(str(exc))
        return run.finish("failed", str(exc))
    return run.finish("successful")


def project_checkout(run, inventory_update, project):
    """The project's directory, synced first as the real service syncs the project of every
    inventory update of an SCM source (RunInventoryUpdate: a project update of launch type
    "sync", job type "run", recorded as the inventory update's source_project_update)."""
    from refsvc.jobs import projects

    from .models import ProjectUpdate
    from .views import new_project_update

    projects.settle(project)
    dependency = new_project_update(project, None, launch_type="sync")
    inventory_update.source_project_update = dependency
    inventory_update.save(update_fields=["source_project_update"])
    run.say("Syncing project %r first (project update %d)" % (project.name, dependency.id))
    dependency = run_project_update(ProjectUpdate.objects.get(pk=dependency.pk))
    if dependency.status != "successful":
        raise UpdateFailed("The project update %d %s." % (dependency.id, dependency.status))
    return projects.directory(project)


def read_inventory(run, inventory_update):
    """The parsed `ansible-inventory --list` of the source, run over a copy of the project in a
    private data directory of the update's own (refsvc.jobs.runner), with its credentials."""
    from refsvc.jobs.runner import copy_project, private_data_dir_for

    source = inventory_update.inventory_source
    if inventory_update.source != "scm" or source.source_project is None:
        raise UpdateFailed("The reference service reads inventory files of projects only (source 'scm'), not %r."
                           % inventory_update.source)
    root = project_checkout(run, inventory_update, source.source_project).resolve()
    run.running(root)
    path = (root / inventory_update.source_path).resolve()
    if path != root and root not in path.parents:
        raise UpdateFailed("The source path %r is outside the project." % inventory_update.source_path)
    if not path.exists():
        raise UpdateFailed("The source path %r does not exist in the project." % inventory_update.source_path)
    inventory_update.scm_revision = source.source_project.project_updates.filter(
        status="successful").order_by("-id").values_list("scm_revision", flat=True).first() or ""
    binary = Path(sys.executable).parent / "ansible-inventory"
    args = [str(binary), "-i", str(path), "--list", "--export"]
    if inventory_update.limit:
        args += ["--limit", inventory_update.limit]
    private_data_dir = private_data_dir_for("inventory_updates", inventory_update.id)
    try:
        copy_project(source.source_project, root, private_data_dir)
        args[2] = str(private_data_dir / "project" / inventory_update.source_path)
        env, safe_env = inventory_update_env(inventory_update, private_data_dir)
        inventory_update.job_args = json.dumps(args)
        inventory_update.job_env = safe_env
        inventory_update.save(update_fields=["job_args", "job_env", "modified"])
        out = run.command(args, cwd=str(private_data_dir / "project"), env=env)
    finally:
        shutil.rmtree(str(private_data_dir), ignore_errors=True)  # as the real service cleans up
    try:
        return _plain(json.loads(out))
    except ValueError as exc:
        raise UpdateFailed("ansible-inventory gave no JSON: %s" % exc)


def _plain(node):
    """``node`` with the values ansible-inventory marks as unsafe ({"__ansible_unsafe": value},
    as ansible-core 2.19 writes what an inventory plugin gave it) as plain values."""
    if isinstance(node, dict):
        if set(node) == {"__ansible_unsafe"}:
            return _plain(node["__ansible_unsafe"])
        return {k: _plain(v) for k, v in node.items()}
    if isinstance(node, list):
        return [_plain(v) for v in node]
    return node


# What every inventory update gets (the real STANDARD_INVENTORY_UPDATE_ENV).
STANDARD_INVENTORY_UPDATE_ENV = {
    "ANSIBLE_INVENTORY_UNPARSED_FAILED": "True",
    "ANSIBLE_INVENTORY_EXPORT": "True",
    "ANSIBLE_VERBOSE_TO_STDERR": "True",
    "ANSIBLE_HOST_PATTERN_MISMATCH": "error",
}


def inventory_update_env(inventory_update, private_data_dir):
    """The environment of an inventory update of a project's file, as RunInventoryUpdate builds
    it: the service's AWX_TASK_ENV, the ids, the standard variables, the source's variables,
    the project's requirements first on the collections path, and every credential of the
    source injected (no extra variables: ansible-inventory takes none). Returns the environment
    and the same with its secrets hidden."""
    import yaml

    from refsvc.jobs import injection
    from refsvc.jobs.runner import collections_paths, run_environment, service_setting

    source = inventory_update.inventory_source
    env = {key: str(value) for key, value in (service_setting("jobs", "AWX_TASK_ENV") or {}).items()}
    env["AWX_PRIVATE_DATA_DIR"] = str(private_data_dir)
    env["INVENTORY_SOURCE_ID"] = str(source.id)
    env["INVENTORY_UPDATE_ID"] = str(inventory_update.id)
    env.update(STANDARD_INVENTORY_UPDATE_ENV)
    variables = yaml.safe_load(source.source_vars) if source.source_vars else None
    for key, value in (variables if isinstance(variables, dict) else {}).items():
        if str(key) not in env:
            env[str(key)] = str(value)
    collections_paths(private_data_dir, env)
    safe_env = injection.safe_environment(env)
    for credential in source.credentials.select_related("credential_type").order_by("id"):
        injection.inject(credential, env, safe_env, [], str(private_data_dir), inventory_update=True)
    full = run_environment(private_data_dir)
    full.update(env)
    safe = injection.safe_environment(run_environment(private_data_dir))
    safe.update(safe_env)
    return full, safe


def _vars_text(old_text, new, replace):
    import yaml

    old = yaml.safe_load(old_text) if old_text else None
    old = old if isinstance(old, dict) else {}
    merged = dict(new) if replace else dict(old, **new)
    if merged == old and old_text:
        return old_text
    return json.dumps(merged) if merged else ""


def _enabled(source, hostvars):
    if not source.enabled_var:
        return True
    value = hostvars
    for part in source.enabled_var.split("."):
        value = value.get(part) if isinstance(value, dict) else None
    if source.enabled_value:
        return str(value) == source.enabled_value
    return bool(value)


def import_inventory(run, inventory_update, data):
    """Bring the hosts and groups of ``data`` into the inventory. With overwrite, the hosts, groups
    and memberships this source brought before and no longer lists go; with overwrite_vars, the
    variables of the source replace those of the inventory instead of being merged into them."""
    from django.db import transaction

    from refsvc.resources.models import Group
    from refsvc.svc.models import Host

    from .models import SourcedGroup, SourcedHost

    source = inventory_update.inventory_source
    inventory = inventory_update.inventory
    replace = inventory_update.overwrite_vars
    hostvars = data.get("_meta", {}).get("hostvars", {})
    group_data = {name: value for name, value in data.items() if name != "_meta" and isinstance(value, dict)}
    host_names = set(hostvars)
    for value in group_data.values():
        host_names.update(value.get("hosts", []))
    group_names = set(group_data) - {"all", "ungrouped"}
    with transaction.atomic():
        all_vars = group_data.get("all", {}).get("vars", {})
        if all_vars or replace:
            inventory.variables = _vars_text(inventory.variables, all_vars, replace)
            inventory.save(update_fields=["variables", "modified"])
        hosts = {}
        for name in sorted(host_names):
            hvars = hostvars.get(name, {})
            host, created = Host.objects.get_or_create(inventory=inventory, name=name,
                                                       defaults={"variables": json.dumps(hvars) if hvars else ""})
            if not created:
                host.variables = _vars_text(host.variables, hvars, replace)
            host.enabled = _enabled(source, hvars)
            host.save()
            SourcedHost.objects.get_or_create(inventory_source=source, host=host)
            hosts[name] = host
        groups = {}
        for name in sorted(group_names):
            gvars = group_data[name].get("vars", {})
            group, created = Group.objects.get_or_create(inventory=inventory, name=name,
                                                         defaults={"variables": json.dumps(gvars) if gvars else ""})
            if not created:
                group.variables = _vars_text(group.variables, gvars, replace)
                group.save()
            SourcedGroup.objects.get_or_create(inventory_source=source, group=group)
            groups[name] = group
        for name, group in groups.items():
            members = [hosts[h] for h in group_data[name].get("hosts", []) if h in hosts]
            children = [groups[c] for c in group_data[name].get("children", []) if c in groups]
            if inventory_update.overwrite:
                group.hosts.set(members)
                group.children.set(children)
            else:
                group.hosts.add(*members)
                group.children.add(*children)
        removed_hosts = removed_groups = 0
        if inventory_update.overwrite:
            stale = SourcedHost.objects.filter(inventory_source=source).exclude(host__name__in=host_names)
            removed_hosts = Host.objects.filter(pk__in=stale.values("host")).delete()[1].get("svc.Host", 0)
            stale = SourcedGroup.objects.filter(inventory_source=source).exclude(group__name__in=group_names)
            removed_groups = Group.objects.filter(pk__in=stale.values("group")).delete()[1].get("resources.Group", 0)
    run.say("Loaded %d hosts and %d groups into inventory %r" % (len(hosts), len(groups), inventory.name))
    if inventory_update.overwrite:
        run.say("Removed %d hosts and %d groups no longer in the source" % (removed_hosts, removed_groups))


def run_inventory_update(update):
    run = Run(update)
    if update.inventory_source is None or update.inventory is None:
        return run.finish("error", "The inventory source or its inventory no longer exists.")
    try:
        data = read_inventory(run, update)
        import_inventory(run, update, data)
    except UpdateFailed as exc:
        run.say(str(exc))
        return run.finish("failed", str(exc))
    return run.finish("successful")


def run(kind, pk):
    from .models import InventoryUpdate, ProjectUpdate

    model, function = {"project_update": (ProjectUpdate, run_project_update),
                       "inventory_update": (InventoryUpdate, run_inventory_update)}[kind]
    update = model.objects.get(pk=pk)
    if update.cancel_flag:
        return Run(update).finish("canceled")
    return function(update)


def main():
    import django

    django.setup()
    kind, pk = sys.argv[1], int(sys.argv[2])
    try:
        run(kind, pk)
    except Exception as exc:  # leave no update running forever
        from .models import InventoryUpdate, ProjectUpdate

        model = ProjectUpdate if kind == "project_update" else InventoryUpdate
        model.objects.filter(pk=pk).update(status="error", failed=True, job_explanation="Runner error: %s" % exc)
        raise


if __name__ == "__main__":
    main()
