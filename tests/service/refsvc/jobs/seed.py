"""The demo content of a new install, as AWX's `awx-manage create_preload_data`
makes it when there is no organization yet (awx/main/management/commands/
create_preload_data.py): the Default organization's "Demo Project" (git,
its files in tests/service/sample_projects), "Demo Credential" (Machine, the superuser's user name),
"Demo Inventory" with the host "localhost", and "Demo Job Template"
(hello_world.yml) that uses them."""
import logging
import subprocess

from refsvc.resources.models import CredentialOwner
from refsvc.svc.models import Credential, CredentialType, Host, Inventory

from . import projects
from .models import JobTemplate, Project

log = logging.getLogger(__name__)

DEMO_PROJECT = "Demo Project"
DEMO_SCM_URL = "https://github.com/ansible/ansible-tower-samples"
DEMO_PLAYBOOK = "hello_world.yml"
DEMO_HOST_VARIABLES = "ansible_connection: local\nansible_python_interpreter: '{{ ansible_playbook_python }}'"
CLONE_SECONDS = 60


def create_preload_data(organization, superuser):
    """The objects as the real command creates them (in its order, so their ids
    follow the same sequence)."""
    project = Project.objects.filter(name=DEMO_PROJECT, scm_type="git").first()
    if project is None:
        project = Project(name=DEMO_PROJECT, scm_type="git", scm_url=DEMO_SCM_URL, scm_update_cache_timeout=0)
    project.organization = organization
    project.created_by = superuser
    project.save()
    ssh = CredentialType.objects.get(namespace="ssh", managed=True)
    credential, _ = Credential.objects.get_or_create(
        credential_type=ssh, name="Demo Credential", organization=None,
        defaults={"inputs": {"username": superuser.username}, "created_by": superuser},
    )
    CredentialOwner.objects.get_or_create(credential=credential, user=superuser)
    inventory, _ = Inventory.objects.get_or_create(name="Demo Inventory", organization=organization, defaults={"created_by": superuser})
    Host.objects.get_or_create(name="localhost", inventory=inventory,
                               defaults={"variables": DEMO_HOST_VARIABLES, "created_by": superuser})
    template = JobTemplate.objects.filter(name="Demo Job Template").first()
    if template is None:
        template = JobTemplate(name="Demo Job Template", created_by=superuser)
    template.project, template.inventory, template.playbook = project, inventory, DEMO_PLAYBOOK
    template.save()
    template.credentials.add(credential)
    check_out_demo_project(project)


def check_out_demo_project(project):
    """The real service ships the project with its checkout (status successful at
    the preloaded revision); here it is cloned once, from the git repository that svcctl
    made of the collection's own files (the git configuration of the service's environment
    points the public URL at it: sample_projects.py)."""
    from refsvc.updates.runner import git_environment

    target = projects.scm_root() / projects.scm_local_path(project)
    if target.is_dir():
        return
    target.parent.mkdir(parents=True, exist_ok=True)
    try:
        subprocess.run(["git", "clone", "--quiet", "--", project.scm_url, str(target)], env=git_environment(),
                       stdin=subprocess.DEVNULL, capture_output=True, timeout=CLONE_SECONDS, check=True)
    except (OSError, subprocess.SubprocessError) as exc:
        log.warning("Demo Project not checked out: %s", exc)
