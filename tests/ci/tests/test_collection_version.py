"""The version controller_meta reports is the collection's (galaxy.yml): a module
run on a remote host has no collection metadata to read it from."""
import ast
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[3]


def test_controller_meta_reports_the_version_of_galaxy_yml():
    galaxy = yaml.safe_load((ROOT / "galaxy.yml").read_text())
    module = ast.parse((ROOT / "plugins" / "modules" / "controller_meta.py").read_text())
    assigned = {
        target.id: node.value.value
        for node in module.body if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant)
        for target in node.targets if isinstance(target, ast.Name)
    }
    assert assigned["VERSION"] == galaxy["version"]
    assert (galaxy["namespace"], galaxy["name"]) == ("automation", "service")
