"""svcctl's database of an instance folder: made from a template per code digest, and, when the code changed since,
brought up to date. The gateway layout's own tables and django-ansible-base's are made from their models
(--run-syncdb), which cannot add a column to a table that is there: such a database is made anew. (A gateway
instance reused after a field was added answered 500: "no such column".)"""
import importlib.machinery
import importlib.util
import sqlite3
from pathlib import Path

SVCCTL = Path(__file__).resolve().parents[1] / "svcctl"


def svcctl():
    loader = importlib.machinery.SourceFileLoader("svcctl_module", str(SVCCTL))
    spec = importlib.util.spec_from_loader("svcctl_module", loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


def columns(db, table):
    with sqlite3.connect(str(db)) as conn:
        return [row[1] for row in conn.execute("PRAGMA table_info(%s)" % table)]


def test_a_gateway_database_of_older_code_is_made_anew(tmp_path):
    control = svcctl()
    stale = sqlite3.connect(str(tmp_path / "db.sqlite3"))
    stale.execute("CREATE TABLE gateway_route (id integer PRIMARY KEY, name text)")
    stale.commit()
    stale.close()
    (tmp_path / "db.digest").write_text("older-code\n")
    control.ensure_database(tmp_path, "gateway")
    assert "request_timeout_seconds" in columns(tmp_path / "db.sqlite3", "gateway_route")
    assert (tmp_path / "db.digest").read_text().strip() == control.migrations_digest("gateway")


def test_a_gateway_database_of_this_code_is_kept(tmp_path):
    control = svcctl()
    control.ensure_database(tmp_path, "gateway")
    with sqlite3.connect(str(tmp_path / "db.sqlite3")) as conn:
        conn.execute("CREATE TABLE kept_by_this_test (id integer)")
    control.ensure_database(tmp_path, "gateway")
    assert columns(tmp_path / "db.sqlite3", "kept_by_this_test") == ["id"]
