"""System job templates: the service's own maintenance jobs. The real installer makes four
(observed on AWX 24.6.1: Cleanup Job Details, Cleanup Activity Stream, Cleanup Expired
Sessions, Cleanup Expired OAuth 2 Tokens); they are read-only through the API and seen by a
superuser or a system auditor only. They share the unified id space, so a workflow node or a
schedule can name one (``unified_job_templates/?type=system_job_template``)."""
from django.db import models

from refsvc.jobs.models import UnifiedIdMixin
from refsvc.svc.models import TimestampedModel

JOB_TYPES = [
    ("cleanup_jobs", "Remove jobs older than a certain number of days"),
    ("cleanup_activitystream", "Remove activity stream entries older than a certain number of days"),
    ("cleanup_sessions", "Removes expired browser sessions from the database"),
    ("cleanup_tokens", "Removes expired OAuth 2 access tokens and refresh tokens"),
]

# name, description, job_type, as the real service has them after its installation
INSTALLED = [
    ("Cleanup Job Details", "Remove job history", "cleanup_jobs"),
    ("Cleanup Activity Stream", "Remove activity stream history", "cleanup_activitystream"),
    ("Cleanup Expired Sessions", "Cleans out expired browser sessions", "cleanup_sessions"),
    ("Cleanup Expired OAuth 2 Tokens", "Cleanup expired OAuth 2 access and refresh tokens", "cleanup_tokens"),
]


class SystemJobTemplate(UnifiedIdMixin, TimestampedModel):
    unified_kind = "system_job_template"
    name = models.CharField(max_length=512)
    description = models.TextField(blank=True, default="")
    job_type = models.CharField(max_length=32, choices=JOB_TYPES, blank=True, default="")

    class Meta:
        ordering = ["name", "id"]


def seed():
    if not SystemJobTemplate.objects.exists():
        for name, description, job_type in INSTALLED:
            SystemJobTemplate.objects.create(name=name, description=description, job_type=job_type)
