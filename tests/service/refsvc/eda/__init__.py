"""Event-Driven Ansible's API in the gateway layout (/api/eda/v1/)."""
