"""Runs one workflow job: `python -m refsvc.wfjobs.runner WORKFLOW_JOB_ID`, started
detached by the launch. It starts the nodes' jobs and approvals as the graph
allows and writes the workflow job's status, until it is finished."""
import sys
import time

POLL_SECONDS = 0.3


def run(workflow_job_id):
    from django.utils import timezone

    from .engine import step
    from .models import WorkflowJob

    workflow_job = WorkflowJob.objects.get(pk=workflow_job_id)
    workflow_job.status = "running"
    workflow_job.started = timezone.now()
    workflow_job.save(update_fields=["status", "started", "modified"])
    while True:
        workflow_job.refresh_from_db()
        if step(workflow_job):
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
