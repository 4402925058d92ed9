"""How a workflow job runs: which nodes start, which are marked do_not_run,
and its final status. The rules follow the real service's workflow DAG:
a node runs once every parent that may still run has finished and one of
them reached it along a success, failure or always edge that matches how it
ended (with all_parents_must_converge: every such parent did); a node whose
template is gone counts as failed once it is reached (dag_workflow.bfs_nodes_to_run
follows its failure and always edges); the workflow fails when a node failed,
or has no template, and has no failure or always edge to follow."""
import json

import yaml
from django.db import transaction
from django.utils import timezone
from rest_framework import serializers

from refsvc.jobs import launch as job_launch
from refsvc.jobs import runner as job_runner
from refsvc.jobs.models import ACTIVE, Job, JobTemplate, Project
from refsvc.workflows.models import WorkflowApprovalTemplate

from .models import WorkflowApproval, WorkflowJobNode

FINISHED = ("successful", "failed", "error", "canceled")
FAILED = ("failed", "error", "canceled")
RELATIONSHIPS = ("success_nodes", "failure_nodes", "always_nodes")


def fires(status, relationship):
    """Does a parent that ended with ``status`` follow its ``relationship`` edges?"""
    if status == "successful":
        return relationship in ("success_nodes", "always_nodes")
    return status in FAILED and relationship in ("failure_nodes", "always_nodes")


class Graph:
    def __init__(self, workflow_job):
        nodes = WorkflowJobNode.objects.filter(workflow_job=workflow_job).select_related("job", "approval", "project_update", "system_job", "unified_job_template")
        self.nodes = {n.id: n for n in nodes}
        self.parents = {nid: [] for nid in self.nodes}
        self.children = {nid: {rel: [] for rel in RELATIONSHIPS} for nid in self.nodes}
        for rel in RELATIONSHIPS:
            through = getattr(WorkflowJobNode, rel).through
            edges = through.objects.filter(from_workflowjobnode__workflow_job=workflow_job)
            for parent, child in edges.values_list("from_workflowjobnode_id", "to_workflowjobnode_id"):
                self.parents[child].append((parent, rel))
                self.children[parent][rel].append(child)

    def status(self, node):
        """The status of the node's run; "failed" for a reached node without a template."""
        run = node.run
        if run is not None:
            return run.status
        if node.unified_job_template_id is None and not node.do_not_run and self.reached(node) is True:
            return "failed"
        return None

    def reached(self, node):
        """True when the node runs now, False when it never will, None while a parent runs."""
        if not self.parents[node.id]:
            return True
        live = [(self.nodes[p], rel) for p, rel in self.parents[node.id] if not self.nodes[p].do_not_run]
        if any(self.status(p) not in FINISHED for p, _ in live):
            return None
        triggered = [fires(self.status(p), rel) for p, rel in live]
        return bool(live) and (all(triggered) if node.all_parents_must_converge else any(triggered))

    def undecided(self):
        return [n for n in self.nodes.values() if not n.do_not_run and self.status(n) is None]

    def decide(self):
        """Mark the nodes that will never run do_not_run; return the nodes to start now."""
        ready = []
        changed = True
        while changed:
            changed = False
            for node in self.undecided():
                if node in ready:
                    continue
                verdict = self.reached(node)
                if verdict:
                    ready.append(node)
                elif verdict is False:
                    node.do_not_run = True
                    node.save(update_fields=["do_not_run", "modified"])
                    changed = True
        return ready

    def is_done(self):
        return not self.undecided() and all(self.status(n) in FINISHED for n in self.nodes.values() if not n.do_not_run)

    def failure_explanation(self):
        """'' when the workflow succeeded, else why it failed, in the real service's words
        (dag_workflow's has_workflow_failed): the failed nodes without a failure or always
        edge, as (id,status), and those without a template."""
        with_status, without_template = [], []
        for node in self.nodes.values():
            missing = not node.do_not_run and node.unified_job_template_id is None
            if not (missing or self.status(node) in FAILED):
                continue
            if self.children[node.id]["failure_nodes"] or self.children[node.id]["always_nodes"]:
                continue
            if node.unified_job_template_id is None:
                without_template.append(str(node.id))
            else:
                with_status.append("(%d,%s)" % (node.id, self.status(node)))
        if not (with_status or without_template):
            return ""
        return ("No error handling path for workflow job node(s) [%s]. Workflow job node(s) missing unified job "
                "template and error handling path [%s]." % (",".join(with_status), ",".join(without_template)))


def _extra_vars(text):
    data = yaml.safe_load(text) if text else None
    return data if isinstance(data, dict) else {}


def _failed_job(node, explanation, user, jt=None):
    now = timezone.now()
    return Job.objects.create(name=node.unified_job_template.name if node.unified_job_template else "", job_template=jt,
                              status="error", failed=True, started=now, finished=now, launched_by=user,
                              job_explanation=explanation)


def _launch_job(node, workflow_job):
    """Launch the node's job template through the jobs machinery, with the node's
    and the workflow's launch values (those the template does not prompt for are dropped)."""
    jt = JobTemplate.objects.get(pk=node.unified_job_template_id)
    user = workflow_job.launched_by
    data = {}
    for field in ("limit", "job_tags", "skip_tags", "job_type", "verbosity"):
        if getattr(node, field) is not None:
            data[field] = getattr(node, field)
    if node.inventory_id:
        data["inventory"] = node.inventory_id
    for field in ("limit", "job_tags", "skip_tags"):
        if getattr(workflow_job, field):
            data[field] = getattr(workflow_job, field)
    if workflow_job.inventory_id:
        data["inventory"] = workflow_job.inventory_id
    try:
        with transaction.atomic():
            job, _ = job_launch.launch(jt, data, user)
    except serializers.ValidationError as exc:
        return _failed_job(node, json.dumps(exc.detail), user, jt)
    # The workflow's variables reach every job of it, whatever the template prompts for.
    extra = _extra_vars(job.extra_vars)
    extra.update(node.extra_data or {})
    extra.update(_extra_vars(workflow_job.extra_vars))
    job.extra_vars = json.dumps(extra) if extra else ""
    job.save(update_fields=["extra_vars"])
    job_runner.start(job)
    return job


def start_node(node, workflow_job):
    kind = node.unified_job_template.kind
    if kind == "workflow_approval_template":
        template = WorkflowApprovalTemplate.objects.get(pk=node.unified_job_template_id)
        node.approval = WorkflowApproval.objects.create(
            name=template.name, description=template.description, workflow_approval_template=template,
            timeout=template.timeout, status="pending", started=timezone.now(), launched_by=workflow_job.launched_by,
            launch_type="workflow")
    elif kind == "job_template":
        node.job = _launch_job(node, workflow_job)
    elif kind == "project":
        _update_project(node, workflow_job)
    elif kind == "system_job_template":
        from refsvc.system.models import SystemJobTemplate, launch

        node.system_job = launch(SystemJobTemplate.objects.get(pk=node.unified_job_template_id),
                                 workflow_job.launched_by, json.dumps(node.extra_data) if node.extra_data else "",
                                 launch_type="workflow")
    else:
        node.job = _failed_job(node, "The reference service runs job template, project, system job template and "
                                     "approval nodes only, not %s." % kind, workflow_job.launched_by)
    node.save(update_fields=["job", "approval", "project_update", "system_job", "modified"])


def _update_project(node, workflow_job):
    """A project node runs an update of the project (launch_type workflow), as the real service does."""
    from refsvc.updates import runner as update_runner
    from refsvc.updates.views import can_update, new_project_update

    project = Project.objects.get(pk=node.unified_job_template_id)
    if not can_update(project):
        node.job = _failed_job(node, "Project %s has no source control to update from." % project.name,
                               workflow_job.launched_by)
        return
    node.project_update = new_project_update(project, workflow_job.launched_by, launch_type="workflow")
    node.save(update_fields=["project_update", "modified"])
    update_runner.start("project_update", node.project_update)


def finish(run, status, explanation=""):
    """Set the final status of a workflow job or approval."""
    run.status = status
    run.failed = status in FAILED  # as UnifiedJob.save()
    run.finished = timezone.now()
    if run.started:
        run.elapsed = round((run.finished - run.started).total_seconds(), 3)
    if explanation:
        run.job_explanation = explanation
    run.save()


def expire_approvals(graph):
    now = timezone.now()
    for node in graph.nodes.values():
        approval = node.approval
        if approval is not None and approval.status == "pending" and approval.timeout > 0 \
                and (now - approval.started).total_seconds() >= approval.timeout:
            approval.timed_out = True
            finish(approval, "failed", "The approval timed out.")


def cancel_runs(graph):
    """Cancel the node runs still active; True when none is left running."""
    done = True
    for node in graph.nodes.values():
        run = node.run
        if run is None or run.status not in ACTIVE:
            continue
        if isinstance(run, WorkflowApproval):
            run.canceled_on = timezone.now()
            finish(run, "canceled")
        elif node.project_update_id:
            type(run).objects.filter(pk=run.pk).update(cancel_flag=True, canceled_on=timezone.now())
            done = False
        else:
            job_launch.cancel(run)
            done = False
    return done


def step(workflow_job):
    """One pass of the workflow job's runner; returns True when the job is finished."""
    graph = Graph(workflow_job)
    if workflow_job.cancel_flag:
        if cancel_runs(graph):
            finish(workflow_job, "canceled")
            return True
        return False
    expire_approvals(graph)
    for node in graph.decide():
        start_node(node, workflow_job)
    if graph.is_done():
        explanation = graph.failure_explanation()
        finish(workflow_job, "failed" if explanation else "successful", explanation)
        return True
    return False
