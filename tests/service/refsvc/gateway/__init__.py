"""The gateway layout of the reference service (Automation Platform 2.5-2.7): the platform
gateway's API at /api/gateway/v1/ built from django-ansible-base's apps, in front of the
service's controller API remounted at /api/controller/v2/ (see tests/service/README.md,
"Gateway layout")."""
