"""What a workflow job template prompts for, and its launch: a workflow job
with a copy of the template's nodes and edges."""
import json

from rest_framework import serializers

from refsvc.jobs.launch import _clean, _parse_extra_vars, listed_defaults, prompted
from refsvc.jobs.surveys import variables_needed
from refsvc.resources.models import Label
from refsvc.workflows.views import RELATIONSHIPS

from .models import WorkflowJob, WorkflowJobNode

ASK_FIELDS = {
    "inventory": "ask_inventory_on_launch",
    "limit": "ask_limit_on_launch",
    "scm_branch": "ask_scm_branch_on_launch",
    "extra_vars": "ask_variables_on_launch",
    "labels": "ask_labels_on_launch",
    "job_tags": "ask_tags_on_launch",
    "skip_tags": "ask_skip_tags_on_launch",
}
NODE_FIELDS = ("identifier", "all_parents_must_converge", "extra_data", "inventory_id", "limit", "scm_branch",
               "job_tags", "skip_tags", "job_type", "verbosity", "unified_job_template_id")


def survey_enabled(wfjt):
    return bool(wfjt.survey_enabled and wfjt.survey_spec)


def launch_info(wfjt):
    """The answer of GET /workflow_job_templates/<id>/launch/."""
    data = {flag: bool(getattr(wfjt, flag)) for flag in ASK_FIELDS.values()}
    nodes = wfjt.workflow_job_template_nodes.all()
    data.update({
        "can_start_without_user_input": not (survey_enabled(wfjt) and variables_needed(wfjt)),
        "survey_enabled": survey_enabled(wfjt),
        "variables_needed_to_start": variables_needed(wfjt),
        "node_templates_missing": [n.id for n in nodes if n.unified_job_template_id is None],
        "node_prompts_rejected": [],
        "workflow_job_template_data": {"name": wfjt.name, "id": wfjt.id, "description": wfjt.description},
        "defaults": {
            "extra_vars": wfjt.extra_vars,
            "inventory": {"name": wfjt.inventory.name, "id": wfjt.inventory.id} if wfjt.inventory_id else {"name": None, "id": None},
            "limit": wfjt.limit,
            "scm_branch": wfjt.scm_branch,
            "job_tags": wfjt.job_tags,
            "skip_tags": wfjt.skip_tags,
        },
    })
    data["defaults"].update(listed_defaults(labels=[{"id": label.id, "name": label.name} for label in wfjt.labels.all()]))
    return data


def _labels(value, user):
    if not isinstance(value, list):
        raise serializers.ValidationError({"labels": ['Expected a list of items but got type "%s".' % type(value).__name__]})
    labels = []
    for pk in value:
        label = Label.objects.filter(pk=pk).first() if str(pk).isdigit() else None
        if label is None:
            raise serializers.ValidationError({"labels": ['Invalid pk "%s" - object does not exist.' % pk]})
        labels.append(label)
    return labels


def launch(wfjt, data, user):
    """Create the workflow job of a launch; returns (workflow_job, ignored_fields). Raises ValidationError."""
    accepted, ignored = prompted(
        wfjt, data, ASK_FIELDS,
        lambda field, value: _labels(value, user) if field == "labels" else _clean(field, value, user),
        asks=lambda field: field == "extra_vars" and survey_enabled(wfjt))
    extra_vars = _parse_extra_vars(wfjt.extra_vars)
    extra_vars.update(accepted.get("extra_vars", {}))
    workflow_job = WorkflowJob.objects.create(
        name=wfjt.name, description=wfjt.description, workflow_job_template=wfjt, status="pending", launched_by=user,
        extra_vars=json.dumps(extra_vars) if extra_vars else "", inventory=accepted.get("inventory", wfjt.inventory),
        limit=accepted.get("limit", wfjt.limit), scm_branch=accepted.get("scm_branch", wfjt.scm_branch),
        job_tags=accepted.get("job_tags", wfjt.job_tags), skip_tags=accepted.get("skip_tags", wfjt.skip_tags),
        allow_simultaneous=wfjt.allow_simultaneous,
    )
    workflow_job.labels.set(accepted.get("labels", list(wfjt.labels.all())))
    copies = {}
    for node in wfjt.workflow_job_template_nodes.all():
        copies[node.id] = WorkflowJobNode.objects.create(
            workflow_job=workflow_job, **{f: getattr(node, f) for f in NODE_FIELDS})
    for node in wfjt.workflow_job_template_nodes.all():
        for rel in RELATIONSHIPS:
            children = [copies[c.id] for c in getattr(node, rel).all()]
            if children:
                getattr(copies[node.id], rel).set(children)
    return workflow_job, ignored
