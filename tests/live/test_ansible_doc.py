"""ansible-doc, as a user runs it, lists every module of ansible.platform under this collection's name: those of
its release 2.6.20250924 (recorded in compat_names.json) and the modules its 2.7.20260313 release notes add
(feature_flag, ca_certificates as the module ca_certificate, role_team_assignment, role_definition)."""

import json
import os
import subprocess
import sys

from .playbook import collection_tree

HERE = os.path.dirname(os.path.abspath(__file__))
# ansible.platform 2.7.20260313's changelog: "New modules: feature_flag, ca_certificates, role_team_assignment,
# role_definition" (its module for CA certificates is named ca_certificate).
NEW_IN_2_7 = ('feature_flag', 'ca_certificate', 'role_team_assignment', 'role_definition')


def test_ansible_doc_lists_every_module_of_ansible_platform(tmp_path):
    with open(os.path.join(HERE, 'compat_names.json')) as handle:
        platform = json.load(handle)['ansible.platform']['modules']
    env = dict(os.environ, ANSIBLE_COLLECTIONS_PATH=collection_tree(tmp_path))
    command = [os.path.join(os.path.dirname(sys.executable), 'ansible-doc'), '-l', '-j', 'automation.service']
    result = subprocess.run(command, capture_output=True, text=True, env=env, timeout=300)
    assert result.returncode == 0, result.stderr[-2000:]
    listed = set(name.rpartition('.')[2] for name in json.loads(result.stdout))
    assert sorted(set(platform) | set(NEW_IN_2_7)) == sorted((set(platform) | set(NEW_IN_2_7)) & listed)
