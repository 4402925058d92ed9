"""EDA's projects, rulebooks, activations, activation instances, event streams and audit rules
in the gateway layout (/api/eda/v1/; app refsvc/eda_activations): real HTTP against one
gateway per module, and the import's scan of a checked-out repository without a service.

A project imports ``https://github.com/ansible/eda-sample-project``: the service clones the
sample folder tests/service/sample_projects/eda-sample-project instead (sample_projects.py),
so no network is needed."""
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml

SERVICE = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(SERVICE)]

import sample_projects  # noqa: E402
from refsvc.eda_activations import scm  # noqa: E402

SAMPLE = "https://github.com/ansible/eda-sample-project"
COLLECTION = "https://github.com/ansible/event-driven-ansible"
SAMPLE_RULEBOOKS = ["hello_webhook.yml", "more/with_named_sources.yml", "range_long_running.yml"]


# -- the import's scan, without a service

def test_rulebooks_are_found_where_eda_looks(tmp_path):
    # rulebooks/ of the sample: walked, named by their path below it; YAML without rules and
    # files of other extensions are skipped
    found = scm.find_rulebooks(str(sample_projects.SOURCES / "eda-sample-project"))
    assert [r.name for r in found] == SAMPLE_RULEBOOKS
    assert found[2].content == (sample_projects.SOURCES / "eda-sample-project" / "rulebooks" /
                                "range_long_running.yml").read_text()
    # extensions/eda/rulebooks/ first
    (tmp_path / "extensions" / "eda" / "rulebooks").mkdir(parents=True)
    (tmp_path / "rulebooks").mkdir()
    rule = "- name: r\n  hosts: all\n  rules:\n    - name: a\n      condition: true\n      action:\n        debug: {}\n"
    (tmp_path / "extensions" / "eda" / "rulebooks" / "a.yaml").write_text(rule)
    (tmp_path / "rulebooks" / "b.yml").write_text(rule)
    (tmp_path / "extensions" / "eda" / "rulebooks" / "broken.yml").write_text("- name: [unclosed\n")
    (tmp_path / "extensions" / "eda" / "rulebooks" / "no_action.yml").write_text(rule.replace("action:", "other:"))
    assert [r.name for r in scm.find_rulebooks(str(tmp_path))] == ["a.yaml"]
    with pytest.raises(scm.ImportNotice, match="doesn't exist within the project root"):
        scm.find_rulebooks(str(tmp_path / "extensions"))


def test_sources_are_named_as_eda_names_them():
    content = (sample_projects.SOURCES / "eda-sample-project" / "rulebooks" / "more" / "with_named_sources.yml").read_text()
    sources = scm.sources_of(content)
    assert [s["name"] for s in sources] == ["ticks", "__SOURCE_2", "__SOURCE_3"]
    assert sources[0]["source_info"] == {"name": "ticks", "ansible.eda.range": {"limit": 3}}
    assert {s["rulebook_hash"] for s in sources} == {scm.rulebook_hash(content)}
    assert scm.rulebook_hash(content) == __import__("hashlib").sha256(content.encode()).hexdigest()
    # a name used twice: the second gets its number
    twice = "- name: x\n  sources:\n    - name: s\n      a: {}\n    - name: s\n      b: {}\n  rules: []\n"
    assert [s["name"] for s in scm.sources_of(twice)] == ["s", "__SOURCE_2"]


def test_credential_goes_in_a_header_not_the_url():
    assert scm.credential_header("", "") == ""
    header = scm.credential_header("user", "pass word")
    assert header == "Authorization: Basic dXNlcjpwYXNzIHdvcmQ="
    assert scm.credential_header("", "tok") == "Authorization: Basic dG9rOg=="


def test_clone_takes_the_branch_and_says_what_failed(tmp_path, monkeypatch):
    # the sample repositories as svcctl makes them, their public URLs rewritten to them
    for name, value in sample_projects.ensure(tmp_path / "svc").items():
        monkeypatch.setenv(name, value)
    revision = scm.clone(SAMPLE, str(tmp_path / "a"))
    made = subprocess.run(["git", "--git-dir", str(tmp_path / "svc" / "sample-projects" / "eda-sample-project.git"),
                           "rev-parse", "main"], capture_output=True, text=True, check=True).stdout.strip()
    assert revision == made and len(revision) == 40
    assert scm.clone(SAMPLE + ".git", str(tmp_path / "b"), branch=sample_projects.TAG, verify_ssl=False) == made
    assert [r.name for r in scm.find_rulebooks(str(tmp_path / "b"))] == SAMPLE_RULEBOOKS
    with pytest.raises(scm.ImportFailed, match="nope"):
        scm.clone(SAMPLE, str(tmp_path / "c"), branch="nope")
    with pytest.raises(scm.ImportFailed) as failed:
        scm.clone("https://127.0.0.1:9/x.git", str(tmp_path / "d"), username="u", password="hunter2-secret")
    assert "127.0.0.1" in str(failed.value) and "hunter2" not in str(failed.value)
