"""A project's import: EDA's project import service (eda-server
``aap_eda/services/project/imports.py``), written for the reference service.

The repository is cloned with git (depth 1, the project's branch and refspec, its source
control credential's user and password, ``verify_ssl`` and the proxy) into a temporary
directory; the rulebooks are the YAML files under ``extensions/eda/rulebooks/`` or, when that
does not exist, ``rulebooks/`` (walked, named by their path below it), each a list of rulesets
whose every rule has a name, a condition and an action or actions; what is not such a file is
skipped. An import or a sync moves the project's ``import_state`` from pending to running, then
to completed, or to failed with ``import_error`` and no ``git_hash``; a repository without the
directory, or without rulebooks, completes with the warning in ``import_error``, as EDA's does.

The clone keeps the git configuration the service was started with (the rewrites of the sample
projects' public URLs to local repositories: ``sample_projects.py``), so the test bed needs no
network: ``https://github.com/ansible/eda-sample-project`` is cloned from
``sample_projects/eda-sample-project``.
"""

from __future__ import annotations

import base64
import hashlib
import logging
import os
import subprocess
import tempfile
import threading
from dataclasses import dataclass
from urllib.parse import urlsplit

import yaml

log = logging.getLogger(__name__)

RULEBOOK_DIRECTORIES = ("extensions/eda/rulebooks", "rulebooks")
YAML_EXTENSIONS = (".yml", ".yaml")
CLONE_SECONDS = 120
NO_DIRECTORY = "The 'extensions/eda/rulebooks' or 'rulebooks' directory doesn't exist within the project root."
NO_RULEBOOKS = "This project contains no rulebooks."


class ImportFailed(Exception):
    """The repository could not be cloned (the message has no secret)."""


class ImportNotice(Exception):
    """The import completes, with this message in ``import_error``."""


@dataclass
class RulebookFile:
    name: str        # its path under the rulebooks directory
    content: str     # the file as it is


def rulebook_hash(content: str) -> str:
    """The SHA-256 of a rulebook's text, as EDA records it (a source's ``rulebook_hash``)."""
    return hashlib.sha256((content or "").encode("utf-8")).hexdigest()


def is_rulebook(data) -> bool:
    """A list of rulesets, each with a list of rules, each rule with a non-empty name, condition
    and action (or actions): what EDA's import takes for a rulebook."""
    if not isinstance(data, list):
        return False
    for ruleset in data:
        if not isinstance(ruleset, dict) or not isinstance(ruleset.get("rules"), list):
            return False
        for rule in ruleset["rules"]:
            if not isinstance(rule, dict):
                return False
            if rule.get("name") is None or rule.get("condition") is None:
                return False
            if rule.get("action") is None and rule.get("actions") is None:
                return False
    return True


def rulebooks_directory(root: str) -> str:
    for name in RULEBOOK_DIRECTORIES:
        candidate = os.path.join(root, name)
        if os.path.exists(candidate):
            return candidate
    raise ImportNotice(NO_DIRECTORY)


def find_rulebooks(root: str) -> list:
    """The rulebooks of a checked-out repository, in a stable order."""
    directory = rulebooks_directory(root)
    found = []
    for where, _dirs, files in os.walk(directory):
        for filename in files:
            if os.path.splitext(filename)[1] not in YAML_EXTENSIONS:
                continue
            path = os.path.join(where, filename)
            try:
                with open(path, encoding="utf-8") as handle:
                    content = handle.read()
                data = yaml.safe_load(content)
            except (OSError, UnicodeDecodeError, yaml.YAMLError) as exc:
                log.warning("Skipped %s: %s", filename, exc)
                continue
            if not is_rulebook(data):
                log.warning("Not a rulebook file: %s", filename)
                continue
            found.append(RulebookFile(os.path.relpath(path, directory), content))
    return sorted(found, key=lambda rulebook: rulebook.name)


def sources_of(content: str) -> list:
    """A rulebook's sources as ``rulebooks/<id>/sources/`` lists them: each ruleset's sources
    in order, named by their ``name`` or ``__SOURCE_<n>`` (n counting every source of the
    rulebook from 1; a name used twice gets its number instead), with the source as written
    and the rulebook's hash. A text that is no YAML raises ``yaml.YAMLError``."""
    rulesets = yaml.safe_load(content) or []
    digest = rulebook_hash(content)
    sources, names = [], set()
    number = 0
    for ruleset in rulesets:
        for source in ruleset.get("sources") or []:
            number += 1
            default = "__SOURCE_%d" % number
            name = source.get("name", default) if isinstance(source, dict) else default
            if name in names:
                name = default
            names.add(name)
            sources.append({"name": name, "source_info": source, "rulebook_hash": digest})
    return sources


def credential_header(username: str = "", password: str = "") -> str:
    """The Basic authorization a source control credential gives an http(s) clone: its user and
    password, or its token alone as the user (how EDA puts them in the URL). Given to git in
    its environment, so that neither the command line nor git's messages carry it."""
    if not password:
        return ""
    pair = "%s:%s" % (username, password) if username else "%s:" % password
    return "Authorization: Basic " + base64.b64encode(pair.encode("utf-8")).decode("ascii")


def clone(url: str, target: str, *, branch: str = "", refspec: str = "", verify_ssl: bool = True,
          proxy: str = "", username: str = "", password: str = "") -> str:
    """Clone ``url`` into ``target`` (depth 1, ``branch`` if given, ``refspec`` fetched too);
    the commit checked out. git's own last words on a failure."""
    from refsvc.updates.runner import git_environment

    env = git_environment()
    extra = [("http.sslVerify", "true" if verify_ssl else "false")]
    header = credential_header(username, password)
    if header and urlsplit(url).scheme in ("http", "https"):
        extra.append(("http.extraHeader", header))
    count = int(env.get("GIT_CONFIG_COUNT") or 0)
    for number, (key, value) in enumerate(extra, start=count):
        env["GIT_CONFIG_KEY_%d" % number], env["GIT_CONFIG_VALUE_%d" % number] = key, value
    env["GIT_CONFIG_COUNT"] = str(count + len(extra))
    if proxy:
        env.update(http_proxy=proxy, https_proxy=proxy, HTTP_PROXY=proxy, HTTPS_PROXY=proxy)

    def run(*args, cwd=None):
        result = subprocess.run(["git", *args], cwd=cwd, env=env, stdin=subprocess.DEVNULL,
                                capture_output=True, text=True, timeout=CLONE_SECONDS, check=False)
        if result.returncode:
            message = (result.stderr or result.stdout).strip()
            if proxy:
                message = message.replace(proxy, "********")
            raise ImportFailed(message.splitlines()[-1] if message else "git %s failed" % args[0])
        return result.stdout

    try:
        arguments = ["clone", "--quiet", "--depth", "1"]
        if branch and not refspec:
            arguments += ["--branch", branch]
        run(*arguments, "--", url, target)
        if refspec:
            run("fetch", "--quiet", "--depth", "1", "origin", refspec, cwd=target)
        if branch and refspec:
            run("fetch", "--quiet", "--depth", "1", "origin", branch, cwd=target)
            run("checkout", "--quiet", "FETCH_HEAD", cwd=target)
        return run("rev-parse", "HEAD", cwd=target).strip()
    except subprocess.TimeoutExpired:
        raise ImportFailed("git did not finish within %d seconds" % CLONE_SECONDS) from None
    except OSError as exc:
        raise ImportFailed(str(exc)) from None


def import_project(project_id: int, sync: bool = False) -> None:
    """Import (or sync) the project: its state moves as EDA's does; its rulebooks are made,
    brought up to date (by name) and removed when the repository no longer has them."""
    from django.db import close_old_connections, connection, transaction
    from django.utils import timezone

    from .models import Project, Rulebook

    try:
        project = Project.objects.filter(pk=project_id).first()
        if project is None:
            return
        Project.objects.filter(pk=project_id).update(import_state=Project.RUNNING)
        state, error, git_hash = Project.COMPLETED, None, project.git_hash
        try:
            username, password = project.scm_secrets()
            with tempfile.TemporaryDirectory(prefix="eda-project-") as directory:
                target = os.path.join(directory, "src")
                revision = clone(project.url, target, branch=project.scm_branch, refspec=project.scm_refspec,
                                 verify_ssl=project.verify_ssl, proxy=project.proxy_text(), username=username,
                                 password=password)
                unchanged = sync and revision == project.git_hash and project.rulebooks.exists()
                git_hash = revision
                if not unchanged:
                    try:
                        found = find_rulebooks(target)
                    except ImportNotice as warning:
                        found, error = [], str(warning)
                    with transaction.atomic():
                        existing = {rulebook.name: rulebook for rulebook in project.rulebooks.all()}
                        for rulebook in found:
                            current = existing.pop(rulebook.name, None)
                            if current is None:
                                Rulebook.objects.create(project=project, organization_id=project.organization_id,
                                                        name=rulebook.name, rulesets=rulebook.content,
                                                        rulesets_sha256=rulebook_hash(rulebook.content))
                            elif current.rulesets != rulebook.content:
                                current.rulesets = rulebook.content
                                current.rulesets_sha256 = rulebook_hash(rulebook.content)
                                current.save()
                        Rulebook.objects.filter(pk__in=[r.pk for r in existing.values()]).delete()
            if error is None and not project.rulebooks.exists():
                error = NO_RULEBOOKS
        except ImportFailed as exc:
            state, error, git_hash = Project.FAILED, str(exc), ""
        except Exception as exc:  # the import's state must not stay running
            log.exception("Import of project %s failed", project_id)
            state, error, git_hash = Project.FAILED, "Failed to import the project: %s" % exc, ""
        changes = {"import_state": state, "import_error": error, "git_hash": git_hash}
        if state == Project.COMPLETED:
            changes["last_synced_at"] = timezone.now()
        Project.objects.filter(pk=project_id).update(**changes)
    finally:
        close_old_connections()
        connection.close()


def start_import(project_id: int, sync: bool = False) -> None:
    """Run the import once the transaction that asked for it has committed, in a thread of its
    own (EDA runs it as a task of its workers; the request is answered at once, the state
    pending)."""
    from django.db import transaction

    def start():
        threading.Thread(target=import_project, args=(project_id, sync), name="eda-import-%d" % project_id,
                         daemon=True).start()

    transaction.on_commit(start)
