"""System job templates: the service's own maintenance jobs. The real installer makes four
(observed on AWX 24.6.1: Cleanup Job Details, Cleanup Activity Stream, Cleanup Expired
Sessions, Cleanup Expired OAuth 2 Tokens); they are read-only through the API and seen by a
superuser or a system auditor only. They share the unified id space, so a workflow node or a
schedule can name one (``unified_job_templates/?type=system_job_template``).

A system job (launched, or run by a workflow node) runs at once and succeeds: the real
service runs ``awx-manage <job_type>`` with ``--days``, ``--batch-size`` and ``--dry-run``
from its extra_vars (RunSystemJob.build_args); the reference service keeps no history to
clean up, so it records that command and, for cleanup_activitystream, the command's own
summary of nothing removed ("Removed 0 items")."""
import json
import time

from django.db import models
from django.utils import timezone

from refsvc.jobs.models import UnifiedIdMixin, UnifiedJob
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


class SystemJob(UnifiedJob):
    system_job_template = models.ForeignKey(SystemJobTemplate, null=True, blank=True, on_delete=models.SET_NULL,
                                            related_name="jobs")
    job_type = models.CharField(max_length=32, choices=JOB_TYPES, blank=True, default="")
    extra_vars = models.TextField(blank=True, default="")


def command_of(job):
    """The command the real service runs for ``job`` (RunSystemJob.build_args)."""
    args = ["awx-manage", job.job_type]
    try:
        values = json.loads(job.extra_vars) if job.extra_vars else {}
    except ValueError:
        values = {}
    if job.job_type in ("cleanup_jobs", "cleanup_activitystream") and isinstance(values, dict):
        if "days" in values:
            args += ["--days", str(values.get("days", 60))]
        if "batch_size" in values:
            args += ["--batch-size", str(values["batch_size"])]
        if values.get("dry_run"):
            args.append("--dry-run")
    return args


def launch(template, user, extra_vars="", launch_type="manual"):
    """A system job of ``template``, run to its end."""
    started = time.time()
    job = SystemJob.objects.create(name=template.name, description=template.description, system_job_template=template,
                                   job_type=template.job_type, extra_vars=extra_vars or "", launched_by=user,
                                   launch_type=launch_type, status="running", started=timezone.now())
    job.job_args = json.dumps(command_of(job))
    job.result_stdout = "Removed 0 items\n" if job.job_type == "cleanup_activitystream" else ""
    job.status, job.failed, job.finished = "successful", False, timezone.now()
    job.elapsed = round(time.time() - started, 3)
    job.save()
    return job
