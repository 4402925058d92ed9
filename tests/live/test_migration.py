"""Moving an AWX into the platform (see migration.py), between the reference services: one in AWX's layout,
one in the platform gateway's."""

import pytest

from .migration import Objects, check_migration


def values(svc):
    return dict(SERVICE_URL=svc.url, SERVICE_CA_PATH=str(svc.ca_path), SERVICE_ADMIN_USERNAME=svc.admin_username,
                SERVICE_ADMIN_PASSWORD=svc.admin_password)


@pytest.fixture
def objects(service, gateway_service_factory):
    made = Objects()
    yield made
    made.remove(values(service))
    made.remove(values(gateway_service_factory()))


def test_an_awx_export_imports_into_the_platform_gateway_layout(service, gateway_service_factory, objects, tmp_path):
    check_migration(tmp_path, objects, values(service), values(gateway_service_factory()))
