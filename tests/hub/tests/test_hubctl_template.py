"""The migrated database's template of tests/hub/hubctl.py: a new Hub copies a migrated PostgreSQL cluster
from the machine's cache instead of migrating (about 30 s of processor time); a template that is not what
its manifest says is made again, never used.

PostgreSQL and pulpcore-manager are stood in for here by functions that write files (the cluster's
directory, a count of migrations): each real making of a template migrates for half a minute of processor
time, which the hub step cannot pay for every case below. The real path runs at every start of the step's
Hub (tests/hub/run.sh), which copies the real template, checked file by file.
"""
import json
import os
import shutil
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import hubctl  # noqa: E402

MIGRATIONS = 321


@pytest.fixture()
def fake_pg(tmp_path, monkeypatch):
    """hubctl with PostgreSQL and migrate stood in for; the cache under tmp_path. Returns the calls made."""
    monkeypatch.setenv("AUTOMATION_SERVICE_CACHE", str(tmp_path / "cache"))
    calls = []

    def pg_init(directory):
        calls.append("initdb")
        shutil.rmtree(directory / "pg", ignore_errors=True)  # as initdb's caller does
        data = directory / "pg" / "data"
        (data / "base" / "1").mkdir(parents=True)
        (data / "pg_notify").mkdir()  # an empty directory, as a cluster has
        (data / "PG_VERSION").write_text("15\n")
        (data / "base" / "1" / "1259").write_bytes(os.urandom(3000))

    def pg_start(directory):
        calls.append("start")
        return directory / "pg" / "run"

    def migrate(directory, venv, socket_dir, keys):
        calls.append("migrate")
        (directory / "pg" / "data" / "migrations").write_text(str(MIGRATIONS))

    def applied(socket_dir):
        found = socket_dir.parent / "data" / "migrations"
        return int(found.read_text()) if found.exists() else None

    monkeypatch.setattr(hubctl, "pg_init", pg_init)
    monkeypatch.setattr(hubctl, "pg_start", pg_start)
    monkeypatch.setattr(hubctl, "pg_stop", lambda directory: calls.append("stop"))
    monkeypatch.setattr(hubctl, "migrate", migrate)
    monkeypatch.setattr(hubctl, "applied_migrations", applied)
    monkeypatch.setattr(hubctl, "own_pg_dir", lambda pg: (pg / "run").mkdir(exist_ok=True))
    monkeypatch.setattr(os, "geteuid", lambda: 1000)  # no chown to the postgres user in a test's folders
    return calls


def instance(tmp_path, name):
    directory = tmp_path / name
    directory.mkdir()
    return directory


def tree(path):
    return {str(p.relative_to(path)): (p.read_bytes() if p.is_file() else None) for p in sorted(path.rglob("*"))}


def test_the_first_instance_makes_the_template_the_next_copies_it(tmp_path, fake_pg):
    first = instance(tmp_path, "first")
    hubctl.new_database(first, Path("/venvs/hub-1"), "k1")
    assert fake_pg == ["initdb", "start", "migrate", "stop", "start"]
    template = tmp_path / "cache" / "hub-db" / "k1"
    manifest = json.loads((template / "manifest.json").read_text())
    assert manifest["key"] == "k1" and manifest["migrations"] == MIGRATIONS
    assert "pg_notify" in manifest["dirs"] and "base/1/1259" in manifest["files"]
    assert (first / "db.key").read_text().strip() == "k1"

    fake_pg.clear()
    second = instance(tmp_path, "second")
    hubctl.new_database(second, Path("/venvs/hub-1"), "k1")
    assert fake_pg == ["start"]  # no initdb, no migrate
    assert tree(second / "pg" / "data") == tree(first / "pg" / "data")
    # the encryption key the database was made with comes along (the default domain's settings need it)
    key_file = Path("keys") / "database_fields.symmetric.key"
    assert (second / key_file).read_bytes() == (first / key_file).read_bytes()
    assert oct((second / key_file).stat().st_mode & 0o777) == "0o600"
    assert (second / "db.key").read_text().strip() == "k1"


@pytest.mark.parametrize("damage", ["a file changed", "a file missing", "a file more", "another key",
                                    "no manifest", "fewer migrations"])
def test_a_broken_template_is_made_again_never_used(tmp_path, fake_pg, capsys, damage):
    hubctl.new_database(instance(tmp_path, "first"), Path("/venvs/hub-1"), "k1")
    template = tmp_path / "cache" / "hub-db" / "k1"
    data = template / "data"
    if damage == "a file changed":
        blob = bytearray((data / "base" / "1" / "1259").read_bytes())
        blob[100] ^= 1
        (data / "base" / "1" / "1259").write_bytes(bytes(blob))
    elif damage == "a file missing":
        (data / "PG_VERSION").unlink()
    elif damage == "a file more":
        (data / "base" / "1" / "2000").write_text("")
    elif damage == "another key":
        manifest = json.loads((template / "manifest.json").read_text())
        manifest["key"] = "k0"
        (template / "manifest.json").write_text(json.dumps(manifest))
    elif damage == "no manifest":
        (template / "manifest.json").unlink()
    else:  # the cluster starts but does not hold the migrations the manifest says
        (data / "migrations").write_text("7")
        manifest = json.loads((template / "manifest.json").read_text())
        manifest["files"]["migrations"] = [1, hubctl.file_digest(data / "migrations")]
        (template / "manifest.json").write_text(json.dumps(manifest))

    fake_pg.clear()
    second = instance(tmp_path, "second")
    hubctl.new_database(second, Path("/venvs/hub-1"), "k1")
    assert "migrate" in fake_pg
    assert "the database template %s is broken, made again" % template in capsys.readouterr().err
    # made again from this instance's migrated cluster: whole, and used by the next one
    assert (second / "pg" / "data" / "migrations").read_text() == str(MIGRATIONS)
    fake_pg.clear()
    hubctl.new_database(instance(tmp_path, "third"), Path("/venvs/hub-1"), "k1")
    assert fake_pg == ["start"]


def test_the_key_follows_what_makes_the_database(monkeypatch):
    monkeypatch.setattr(hubctl, "PG_BIN", Path("/usr/lib/postgresql/15/bin"))
    key = hubctl.database_key(Path("/venvs/hub-aaaa"))
    assert key == hubctl.database_key(Path("/venvs/hub-aaaa"))
    # another virtualenv (another lock file or interpreter) makes another template
    assert key != hubctl.database_key(Path("/venvs/hub-bbbb"))
    values = hubctl.settings_values

    # a setting of the instance's own (an address, a path, a secret) does not
    def other_address(directory, api_url, *args):
        return values(directory, api_url + "x", *args)
    monkeypatch.setattr(hubctl, "settings_values", other_address)
    assert hubctl.database_key(Path("/venvs/hub-aaaa")) == key

    # any other setting does
    def one_more(*args):
        return dict(values(*args), GALAXY_REQUIRE_CONTENT_APPROVAL=False)
    monkeypatch.setattr(hubctl, "settings_values", one_more)
    assert hubctl.database_key(Path("/venvs/hub-aaaa")) != key


def test_only_the_most_recently_used_templates_are_kept(tmp_path, fake_pg):
    for number in range(hubctl.TEMPLATES_KEPT + 2):
        hubctl.new_database(instance(tmp_path, "i%d" % number), Path("/venvs/hub-1"), "k%d" % number)
        os.utime(tmp_path / "cache" / "hub-db" / ("k%d" % number), (1000 + number, 1000 + number))
    kept = sorted(p.name for p in (tmp_path / "cache" / "hub-db").iterdir() if p.is_dir())
    newest = ["k%d" % n for n in range(2, hubctl.TEMPLATES_KEPT + 2)]
    assert kept == newest
