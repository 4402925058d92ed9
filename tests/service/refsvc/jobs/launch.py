"""What a job template prompts for at launch, and the launch itself: fields
the template does not prompt for are ignored (and reported), not rejected."""
import json

import yaml
from django.utils import timezone
from rest_framework import serializers

from refsvc.svc import access
from refsvc.resources.models import ExecutionEnvironment, InstanceGroup, Label
from refsvc.svc.models import Credential, Inventory

from .models import ACTIVE, ASK_FIELDS, Job
from .surveys import variables_needed

OTHER_ASK_FLAGS = (
    "ask_scm_branch_on_launch", "ask_diff_mode_on_launch", "ask_execution_environment_on_launch",
    "ask_labels_on_launch", "ask_forks_on_launch", "ask_job_slice_count_on_launch", "ask_timeout_on_launch",
    "ask_instance_groups_on_launch",
)
# The launch values of these flags, beside ASK_FIELDS (the real service's ask_for_vars_dict).
LAUNCH_FIELDS = dict(ASK_FIELDS, scm_branch="ask_scm_branch_on_launch", diff_mode="ask_diff_mode_on_launch",
                     execution_environment="ask_execution_environment_on_launch", labels="ask_labels_on_launch",
                     forks="ask_forks_on_launch", job_slice_count="ask_job_slice_count_on_launch",
                     timeout="ask_timeout_on_launch", instance_groups="ask_instance_groups_on_launch")
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
            "diff_mode": jt.diff_mode,
            "limit": jt.limit,
            "job_tags": jt.job_tags,
            "skip_tags": jt.skip_tags,
            "job_type": jt.job_type,
            "verbosity": jt.verbosity,
            "inventory": {"name": jt.inventory.name, "id": jt.inventory.id} if jt.inventory_id else {"name": None, "id": None},
            "scm_branch": jt.scm_branch,
            "forks": jt.forks,
            "job_slice_count": jt.job_slice_count,
            "timeout": jt.timeout,
            "execution_environment": _named(ExecutionEnvironment, jt.execution_environment),
            "instance_groups": [],
        },
    })
    # JobLaunchSerializer.get_defaults: credentials and labels only when there are some.
    data["defaults"].update(listed_defaults(credentials=[credential_summary(c) for c in jt.credentials.all()],
                                            labels=[{"id": label.id, "name": label.name} for label in jt.labels.all()]))
    return data


def listed_defaults(**lists):
    """The launch defaults that get_defaults gives only when they have items."""
    return {name: items for name, items in lists.items() if items}


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


def _object(model, user, value, field, everyone=False):
    try:
        pk = int(value)
    except (TypeError, ValueError):
        raise serializers.ValidationError({field: ["Incorrect type. Expected pk value, received %s." % type(value).__name__]})
    # Labels, instance groups and execution environments: the reference service does not model who may use them.
    obj = (model.objects.all() if everyone else access.visible(model, user)).filter(pk=pk).first()
    if obj is None:
        raise serializers.ValidationError({field: ['Invalid pk "%s" - object does not exist.' % value]})
    return obj


def _named(model, pk):
    obj = model.objects.filter(pk=pk).first() if pk else None
    return {"id": obj.id, "name": obj.name} if obj is not None else {}


def _objects(model, user, value, field):
    if not isinstance(value, list):
        raise serializers.ValidationError({field: ['Expected a list of items but got type "%s".' % type(value).__name__]})
    return [_object(model, user, v, field, everyone=True) for v in value]


def _whole(field, value, least):
    if isinstance(value, bool) or not isinstance(value, int) and not str(value).lstrip("-").isdigit():
        raise serializers.ValidationError({field: ["A valid integer is required."]})
    if int(value) < least:
        raise serializers.ValidationError({field: ["Ensure this value is greater than or equal to %d." % least]})
    return int(value)


def _clean(field, value, user):
    """The launch value of ``field``, checked and converted."""
    if field == "labels":
        return _objects(Label, user, value, "labels")
    if field == "instance_groups":
        return _objects(InstanceGroup, user, value, "instance_groups")
    if field == "execution_environment":
        return _object(ExecutionEnvironment, user, value, "execution_environment", everyone=True).id
    if field in ("forks", "timeout", "job_slice_count"):
        # JobLaunchSerializer: forks and job_slice_count at least 0 (a job of 0 slices is launched), timeout any.
        return _whole(field, value, {"forks": 0, "timeout": -2147483648, "job_slice_count": 0}[field])
    if field == "diff_mode":
        if not isinstance(value, bool):
            raise serializers.ValidationError({"diff_mode": ["Must be a valid boolean."]})
        return value
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


def survey_variables(jt):
    """The variables of the template's enabled survey (None when it has none)."""
    if not (jt.survey_enabled and jt.survey_spec):
        return None
    return set(i.get("variable") for i in jt.survey_spec.get("spec", []) if isinstance(i, dict))


def split_survey_vars(jt, given):
    """Without ask_variables_on_launch, the real service still takes the survey's variables from
    extra_vars; the others are ignored, except those equal to the template's own."""
    survey = survey_variables(jt)
    if not survey:
        return {}, given
    given = _parse_extra_vars(given)
    own = _parse_extra_vars(jt.extra_vars)
    taken = dict((k, v) for k, v in given.items() if k in survey)
    rest = dict((k, v) for k, v in given.items() if k not in survey and (k not in own or own[k] != v))
    return taken, rest


def launch(jt, data, user):
    """Create the job of a launch; returns (job, ignored_fields). Raises ValidationError."""
    accepted, ignored = prompted(jt, data, LAUNCH_FIELDS, lambda field, value: _clean(field, value, user))
    if "extra_vars" in ignored:
        taken, rest = split_survey_vars(jt, ignored.pop("extra_vars"))
        if taken:
            accepted["extra_vars"] = taken
        if rest:
            ignored["extra_vars"] = rest
    inventory = accepted.get("inventory", jt.inventory)
    if inventory is None:
        raise serializers.ValidationError({"resources_needed_to_start": [INVENTORY_MISSING]})
    extra_vars = _parse_extra_vars(jt.extra_vars)
    extra_vars.update(accepted.get("extra_vars", {}))
    job = Job.objects.create(
        name=jt.name, description=jt.description, job_template=jt, status="pending", launched_by=user,
        job_type=accepted.get("job_type", jt.job_type), inventory=inventory, project=jt.project,
        playbook=jt.playbook, forks=accepted.get("forks", jt.forks), timeout=accepted.get("timeout", jt.timeout),
        scm_branch=accepted.get("scm_branch", jt.scm_branch), diff_mode=accepted.get("diff_mode", jt.diff_mode),
        job_slice_count=accepted.get("job_slice_count", jt.job_slice_count),
        execution_environment=accepted.get("execution_environment", jt.execution_environment),
        limit=accepted.get("limit", jt.limit), job_tags=accepted.get("job_tags", jt.job_tags),
        skip_tags=accepted.get("skip_tags", jt.skip_tags), verbosity=accepted.get("verbosity", jt.verbosity),
        extra_vars=json.dumps(extra_vars) if extra_vars else "",
        force_handlers=jt.force_handlers, start_at_task=jt.start_at_task, use_fact_cache=jt.use_fact_cache,
        allow_simultaneous=jt.allow_simultaneous,
    )
    job.credentials.set(accepted.get("credentials", list(jt.credentials.all())))
    job.labels.set(accepted.get("labels", list(jt.labels.all())))
    job.instance_groups.set(accepted.get("instance_groups", []))
    return job, ignored


def cancel(job):
    """Ask the job's runner to stop; False when the job is already done."""
    if job.status not in ACTIVE:
        return False
    Job.objects.filter(pk=job.pk).update(cancel_flag=True, canceled_on=timezone.now())
    return True
