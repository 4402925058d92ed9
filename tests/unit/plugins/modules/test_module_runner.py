"""module_runner runs a module in the test's process as Ansible runs it in a process of its own: its warnings are in
its result, also once the process has loaded Ansible's controller code (with which ansible-core 2.19 and later send
module_utils' warnings to the controller's display), and no warning of an earlier module run is in a later one's."""

import importlib
import importlib.util

from .module_runner import run_module


def warned_run():
    """A module run that warns (custom_virtualenv is taken and ignored) and then fails to reach the service."""
    return run_module('job_template', {'name': 'jt', 'custom_virtualenv': '/venv/old', 'service_url': 'https://service.invalid',
                                       'service_token': 't', 'request_retries': 0})


def messages(result):
    return repr(result.get('warnings', []))


def test_a_modules_warnings_are_in_its_result_once_controller_code_is_loaded():
    if importlib.util.find_spec('ansible._internal') is not None:
        importlib.import_module('ansible._internal')
    result = warned_run()
    assert result.get('failed'), result
    assert 'custom_virtualenv is ignored' in messages(result), result


def test_a_run_has_no_warning_of_an_earlier_run():
    first = warned_run()
    assert messages(first).count('custom_virtualenv is ignored') == 1
    second = warned_run()
    assert messages(second).count('custom_virtualenv is ignored') == 1
