"""What a start of the service puts in its database before it answers: the seed (the
administrator, the managed objects), the start-up settings and, in the gateway's layout, its local
authenticator and the authenticators of the test identity providers.

svcctl start writes what to do to DIR/start.json; gunicorn's master, which sets Django up once
for all its forks (refsvc/gunicorn_conf.py), does it before it listens, and removes the file.
svcctl then needs no Django of its own to start a service."""
import json
import sys
from pathlib import Path

PLAN = "start.json"


def write_plan(directory: Path, admin: str, settings_values: dict, layout: str, url: str, with_idp: bool) -> None:
    (Path(directory) / PLAN).write_text(json.dumps({
        "admin": admin, "settings": settings_values, "layout": layout, "url": url, "with_idp": with_idp}))


def run(directory: Path) -> None:
    """Carry out DIR/start.json if there is one (a service started by svcctl start)."""
    path = Path(directory) / PLAN
    try:
        plan = json.loads(path.read_text())
    except FileNotFoundError:
        return
    from django.db import connection

    from refsvc.svc import runtime
    from refsvc.svc.seed import seed

    try:
        with connection.cursor() as cursor:
            cursor.execute("PRAGMA journal_mode=WAL")
        password = (Path(directory) / "admin_password").read_text().strip()
        seed(plan["admin"], password)
        runtime.store(plan["settings"])
        if plan["layout"] == "gateway":
            from refsvc.eda.seed import seed as seed_eda

            seed_eda()      # EDA's managed credential types and role definitions (refsvc/eda/seed.py)
            _local_authenticator()
            _wire_gateway_sso(Path(directory), plan["url"], plan["with_idp"])
    finally:
        connection.close()
    path.unlink()


def _local_authenticator() -> None:
    """The gateway's local authenticator, as an installed gateway has it: django-ansible-base's
    ``authenticators --initialize`` (nothing when a local one exists). The 2.6 gateway schema names it
    (users' ``authenticators``: 1, Local Database Authenticator); ansible.platform 2.6.20250924's own
    targets take it for granted (users_test's authenticators [1]; authenticators_test deletes the last
    authenticator it made, which only one more enabled authenticator allows)."""
    import io

    from django.core.management import call_command

    call_command("authenticators", initialize=True, stdout=io.StringIO(), stderr=io.StringIO())


def _wire_gateway_sso(directory: Path, url: str, with_idp: bool) -> None:
    """The gateway's authenticators for the test identity providers (refsvc/gateway/sso.py), made
    through django-ansible-base; the providers (started once the service answers) then send their
    users back to the authenticators' own callback and metadata URLs."""
    from refsvc.gateway import sso

    if not with_idp:
        sso.unwire()
        return
    wired = sso.wire(directory, url)
    idp_dir = str(Path(__file__).resolve().parents[3] / "idp")
    if idp_dir not in sys.path:
        sys.path.insert(0, idp_dir)
    import idpctl

    idpctl.point_at(directory, wired["oidc_redirect_uris"], wired["sp_metadata_url"])
