"""tests/ci/targets.py: which integration targets run where. make test replays the targets recorded on
real services against the reference service, and runs the others on the reference service without a
recording: every target must meet the reference service in the AWX layout exactly once; in the platform
gateway's layout likewise, but those that layout leaves out (tests/integration/gateway.yml)."""
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
SCRIPT = ROOT / "tests" / "ci" / "targets.py"


def targets(*args):
    run = subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True, check=True)
    return run.stdout.split(), run.stderr


def every_target():
    """Every target of the reference service: all but the setup_ ones and the Hub's."""
    return sorted(p.name for p in (ROOT / "tests" / "integration" / "targets").iterdir()
                  if p.is_dir() and not p.name.startswith("setup_")
                  and "hub" not in (p / "aliases").read_text().split())


def test_every_target_meets_the_reference_service_once_in_the_awx_layout():
    checked, _ = targets("checked")
    unchecked, _ = targets("unchecked")
    assert not set(checked) & set(unchecked)
    assert sorted(checked + unchecked) == every_target()


def test_every_target_meets_the_reference_service_once_in_the_gateway_layout():
    checked, _ = targets("gateway-checked")
    unchecked, _ = targets("gateway-unchecked")
    assert not set(checked) & set(unchecked)
    assert "instance" not in checked + unchecked and "import" not in checked + unchecked
    assert sorted(checked + unchecked + ["import", "instance"]) == every_target()
    assert set(checked) == set(targets("checked")[0]) - {"import", "instance"}
    assert sorted(checked + unchecked) == targets("gateway")[0]


def test_the_sets_follow_the_left_out_lists():
    checked, _ = targets("checked")
    unchecked, _ = targets("unchecked")
    assert "job_launch" not in checked and "job_launch" in unchecked  # jobs: not recorded
    assert "sso" not in checked and "sso" in unchecked  # past the proxy: not recorded
    assert "organization" in checked and "organization" not in unchecked


def test_names_given_are_filtered_and_the_left_out_said_with_the_reason():
    chosen, why = targets("checked", "--why", "replay: ", "organization", "job_launch", "sso")
    assert chosen == ["organization"]
    assert "replay: job_launch left out: waits for launched jobs to finish" in why
    assert "replay: sso left out: the identity providers send the browser back" in why


def test_a_name_that_is_no_target_fails():
    with pytest.raises(subprocess.CalledProcessError) as failed:
        targets("checked", "no_such_target")
    assert "no such integration target: no_such_target" in failed.value.stderr


def test_the_hub_targets_run_only_against_the_hub():
    """A target whose aliases say hub runs in make test's hub step, against the real Automation Hub
    (tests/hub/run.sh), and in no set of the reference service, which has no Hub."""
    hub, _ = targets("hub")
    assert "ah_namespace" in hub
    for name in hub:
        assert "hub" in (ROOT / "tests" / "integration" / "targets" / name / "aliases").read_text().split()
    for which in ("checked", "unchecked", "gateway", "gateway-checked", "gateway-unchecked"):
        assert not set(hub) & set(targets(which)[0]), which
    chosen, why = targets("unchecked", "--why", "x: ", "ah_namespace", "job_launch")
    assert chosen == ["job_launch"]
    assert "x: ah_namespace left out: it runs against the real Automation Hub" in why
    chosen, why = targets("hub", "--why", "hub: ", "ah_namespace", "organization")
    assert chosen == ["ah_namespace"]
    assert "hub: organization left out: it runs against the reference service, not the Hub" in why
