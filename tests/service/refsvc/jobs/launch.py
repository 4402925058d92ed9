"""What a job template prompts for at launch, and the launch itself: fields
the template does not prompt for are ignored (and reported), not rejected."""
import json

import yaml
from django.utils import timezone
from rest_framework import serializers

from refsvc.svc import access
from refsvc.svc.models import Credential, Inventory

from .models import ASK_FIELDS, Job
from .surveys import variables_needed

OTHER_ASK_FLAGS = (
    "ask_scm_branch_on_launch", "ask_diff_mode_on_launch", "ask_execution_environment_on_launch",
    "ask_labels_on_launch", "ask_forks_on_launch", "ask_job_slice_count_on_launch", "ask_timeout_on_launch",
    "ask_instance_groups_on_launch",
)
INVENTORY_MISSING = "Job Template 'inventory' is missing or undefined."


def credential_summary(cred):
    return {"id": cred.id, "name": cred.name, "credential_type": cred.credential_type_id, "passwords_needed": []}


def launch_info(jt):
    """The answer of GET /job_templates/<id>/launch/."""
    data = {"can_start_without_user_input": jt.inventory_id is not None, "passwords_needed_to_start": []}
    for flag in list(ASK_FIELDS.values()) + list(OTHER_ASK_FLAGS):
        data[flag] = bool(getattr(jt, flag, False))
    data.update({
        "survey_enabled": bool(jt.survey_enabled and jt.survey_spec),
        "variables_needed_to_start": variables_needed(jt),
        "credential_needed_to_start": False,
        "inventory_needed_to_start": jt.inventory_id is None,
        "job_template_data": {"name": jt.name, "id": jt.id, "description": jt.description},
        "defaults": {
            "extra_vars": jt.extra_vars,
            "diff_mode": False,
            "limit": jt.limit,
            "job_tags": jt.job_tags,
            "skip_tags": jt.skip_tags,
            "job_type": jt.job_type,
            "verbosity": jt.verbosity,
            "inventory": {"name": jt.inventory.name, "id": jt.inventory.id} if jt.inventory_id else {"name": None, "id": None},
            "credentials": [credential_summary(c) for c in jt.credentials.all()],
            "scm_branch": "",
        },
    })
    return data


def _parse_extra_vars(value):
    if value in (None, ""):
        return {}
    if isinstance(value, dict):
        return value
    if isinstance(value, str):
        try:
            data = yaml.safe_load(value)
        except yaml.YAMLError as exc:
            raise serializers.ValidationError({"extra_vars": ["Cannot parse as JSON or YAML: %s" % exc]})
        if data is None:
            return {}
        if isinstance(data, dict):
            return data
    raise serializers.ValidationError({"extra_vars": ["Input type `%s` is not a dictionary" % type(value).__name__]})


def _object(model, user, value, field):
    try:
        pk = int(value)
    except (TypeError, ValueError):
        raise serializers.ValidationError({field: ["Incorrect type. Expected pk value, received %s." % type(value).__name__]})
    obj = access.visible(model, user).filter(pk=pk).first()
    if obj is None:
        raise serializers.ValidationError({field: ['Invalid pk "%s" - object does not exist.' % value]})
    return obj


def _clean(field, value, user):
    """The launch value of ``field``, checked and converted."""
    if field == "extra_vars":
        return _parse_extra_vars(value)
    if field == "inventory":
        return _object(Inventory, user, value, "inventory")
    if field == "credentials":
        if not isinstance(value, list):
            raise serializers.ValidationError({"credentials": ['Expected a list of items but got type "%s".' % type(value).__name__]})
        return [_object(Credential, user, v, "credentials") for v in value]
    if field == "verbosity":
        if value not in range(6) and str(value) not in [str(i) for i in range(6)]:
            raise serializers.ValidationError({"verbosity": ['"%s" is not a valid choice.' % value]})
        return int(value)
    if field == "job_type":
        if value not in ("run", "check"):
            raise serializers.ValidationError({"job_type": ['"%s" is not a valid choice.' % value]})
        return value
    if value is None:
        return ""
    if not isinstance(value, str):
        raise serializers.ValidationError({field: ["Not a valid string."]})
    return value


def prompted(template, data, ask_fields, clean, asks=None):
    """Split the launch ``data`` into the values the template prompts for (cleaned) and the
    ignored ones. ``asks(field)`` may say a field is prompted for otherwise than by its flag."""
    if not isinstance(data, dict):
        raise serializers.ValidationError({"detail": "Expected a JSON object."})
    accepted, ignored = {}, {}
    for field, flag in ask_fields.items():
        if field not in data:
            continue
        if getattr(template, flag) or (asks is not None and asks(field)):
            accepted[field] = clean(field, data[field])
        else:
            ignored[field] = data[field]
    return accepted, ignored


def launch(jt, data, user):
    """Create the job of a launch; returns (job, ignored_fields). Raises ValidationError."""
    accepted, ignored = prompted(jt, data, ASK_FIELDS, lambda field, value: _clean(field, value, user))
    inventory = accepted.get("inventory", jt.inventory)
    if inventory is None:
        raise serializers.ValidationError({"resources_needed_to_start": [INVENTORY_MISSING]})
    extra_vars = _parse_extra_vars(jt.extra_vars)
    extra_vars.update(accepted.get("extra_vars", {}))
    job = Job.objects.create(
        name=jt.name, description=jt.description, job_template=jt, status="pending", launched_by=user,
        job_type=accepted.get("job_type", jt.job_type), inventory=inventory, project=jt.project,
        playbook=jt.playbook, forks=jt.forks, timeout=jt.timeout,
        limit=accepted.get("limit", jt.limit), job_tags=accepted.get("job_tags", jt.job_tags),
        skip_tags=accepted.get("skip_tags", jt.skip_tags), verbosity=accepted.get("verbosity", jt.verbosity),
        extra_vars=json.dumps(extra_vars) if extra_vars else "",
    )
    job.credentials.set(accepted.get("credentials", list(jt.credentials.all())))
    return job, ignored


def cancel(job):
    """Ask the job's runner to stop; False when the job is already done."""
    if job.status not in ("new", "pending", "waiting", "running"):
        return False
    Job.objects.filter(pk=job.pk).update(cancel_flag=True, canceled_on=timezone.now())
    return True
