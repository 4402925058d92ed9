"""The live tests: the reference service comes from tests/conftest.py (``service``,
``service_factory``, ``sso_service``, ``gateway_service_factory``, ``svc``), ansible-playbook
runs from playbook.py. Like tests/unit, every test gets a session cache of its own."""

from ansible_collections.automation.service.tests.unit.conftest import isolated_cache  # noqa: F401 (the fixture)
