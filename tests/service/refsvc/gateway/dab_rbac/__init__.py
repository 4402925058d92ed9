"""django-ansible-base's RBAC models without its RBAC (apps.py)."""
