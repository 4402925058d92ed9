"""Project directories: manual projects live in PROJECTS_ROOT (one
subdirectory each, named by the project's local_path), as on the real service."""
import os
from pathlib import Path

PROJECTS_ROOT = Path(os.environ.get("SVC_PROJECTS_ROOT", Path(__file__).resolve().parents[2] / "projects")).resolve()
PLAYBOOK_SUFFIXES = (".yml", ".yaml")


def local_paths():
    if not PROJECTS_ROOT.is_dir():
        return []
    return sorted(p.name for p in PROJECTS_ROOT.iterdir() if p.is_dir() and not p.name.startswith("."))


def scm_local_path(project):
    """The directory name of an SCM project's checkout, named as the real service names it."""
    from django.utils.text import slugify

    return "_%d__%s" % (project.pk, slugify(project.name).replace("-", "_"))


def scm_root():
    from django.conf import settings

    return Path(settings.INSTANCE_DIR) / "scm_projects"


def directory(project):
    """The project's directory (an SCM project's last checkout), or None when it is missing."""
    if project.scm_type:
        path = scm_root() / scm_local_path(project)
        return path if path.is_dir() else None
    if not project.local_path or "/" in project.local_path or project.local_path.startswith("."):
        return None
    path = PROJECTS_ROOT / project.local_path
    return path if path.is_dir() else None


def requirements_cache(project):
    """Where the last update of an SCM project installed the collections and roles its
    requirements files name (requirements_collections/, requirements_roles/), as the real
    service keeps them in its project cache; None for a manual project (the real service
    installs no requirements for those)."""
    if not project.scm_type:
        return None
    return scm_root() / ".__awx_cache" / scm_local_path(project)


def _is_playbook(path):
    # Like the real service: a YAML file whose top level plays name hosts or import a playbook.
    try:
        text = path.read_text(errors="replace")
    except OSError:
        return False
    return any(line.lstrip("- ").startswith(("hosts:", "import_playbook:", "ansible.builtin.import_playbook:"))
               for line in text.splitlines())


def playbooks(project):
    root = directory(project)
    if root is None:
        return []
    found = []
    # Hidden folders (.git) and roles are never entered: an update running meanwhile changes .git, and a
    # folder that goes away while it is walked is passed over (os.walk ignores what it can no longer list).
    for folder, folders, files in os.walk(root):
        folders[:] = sorted(name for name in folders if not name.startswith(".") and name != "roles")
        for name in sorted(files):
            path = Path(folder) / name
            if not name.startswith(".") and path.suffix in PLAYBOOK_SUFFIXES and _is_playbook(path):
                found.append(str(path.relative_to(root)))
    return sorted(found, key=lambda relative: Path(relative).parts)   # as paths sort


def settle(project, seconds=300):
    """Wait while an update of ``project`` is pending or running (one is started when an SCM
    project is created or its source changes), so that what uses its checkout sees the new one."""
    import time

    if not project.scm_type:
        return
    from refsvc.updates.models import ProjectUpdate

    from .models import ACTIVE

    deadline = time.time() + seconds
    active = ProjectUpdate.objects.filter(project=project, status__in=ACTIVE)
    while active.exists() and time.time() < deadline:
        time.sleep(0.2)
