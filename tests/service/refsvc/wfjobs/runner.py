"""Runs one workflow job: `python -m refsvc.wfjobs.runner WORKFLOW_JOB_ID`, started
detached by the launch. It starts the nodes' jobs and approvals as the graph
allows and writes the workflow job's status, until it is finished."""
import sys
import time
from pathlib import Path

POLL_SECONDS = 0.3


def run(workflow_job_id):
    from django.conf import settings
    from django.utils import timezone

    from .engine import finish, step
    from .models import WorkflowJob

    workflow_job = WorkflowJob.objects.get(pk=workflow_job_id)
    workflow_job.status = "running"
    workflow_job.started = timezone.now()
    workflow_job.save(update_fields=["status", "started", "modified"])
    # A workflow job may wait on an approval for ever: stop with the service that started it.
    server_pid = Path(settings.INSTANCE_DIR) / "gunicorn.pid"
    served = server_pid.exists()
    while True:
        workflow_job.refresh_from_db()
        if step(workflow_job):
            return
        if served and not server_pid.exists():
            finish(workflow_job, "error", "The service stopped while the workflow job ran.")
            return
        time.sleep(POLL_SECONDS)


def main():
    import django

    django.setup()
    workflow_job_id = int(sys.argv[1])
    try:
        run(workflow_job_id)
    except Exception as exc:  # leave no workflow job running forever
        from .models import WorkflowJob

        WorkflowJob.objects.filter(pk=workflow_job_id).update(status="error", failed=True,
                                                              job_explanation="Runner error: %s" % exc)
        raise


if __name__ == "__main__":
    main()
