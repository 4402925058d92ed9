"""EDA's projects, rulebooks, activations, activation instances, event streams and audit rules
under /api/eda/v1/, on the EDA app's views (``refsvc.eda.views``: authentication, page,
filters, access), answering as eda-server's viewsets (``aap_eda/api/views/``: project.py,
rulebook.py, activation.py, event_stream.py) do: their status codes and words."""

from django.db import transaction
from django.utils import timezone
from rest_framework import generics, serializers, status
from rest_framework.exceptions import APIException, NotFound
from rest_framework.response import Response

from refsvc.eda import views as eda
from refsvc.eda.views import V1, EdaDetail, EdaList, EdaView, not_found

from . import runs, scm
from . import serializers as ser
from .models import (
    DELETING, PENDING, RUNNING, STARTING, STOPPING, UNRESPONSIVE, WORKERS_OFFLINE, Activation, RulebookProcess,
    RulebookProcessLog, AuditAction, AuditEvent, AuditRule, EventStream, Project, Rulebook,
)


def answering(form, with_base=False):
    """A read form (a function of the object, and of the service's URL ``with_base``) as the
    serializer of a view, for its lists and details (a Serializer without declared fields, so
    that drf-spectacular's document of the service can describe it)."""
    if with_base:
        def represent(self, obj):
            return form(obj, base_url(self.context["request"]))
    else:
        def represent(self, obj):
            return form(obj)
    return type("Answer", (serializers.Serializer,), {"to_representation": represent})


def base_url(request):
    return request.build_absolute_uri("/")


class Conflict(APIException):
    status_code = status.HTTP_409_CONFLICT


# -- projects

IMPORTING = (Project.PENDING, Project.RUNNING)


class ProjectList(EdaList):
    model = Project
    serializer_class = answering(ser.project_data)
    request_serializers = {"POST": ser.ProjectWriteSerializer}
    filters = {"name": "name__istartswith", "url": "url__icontains"}

    def get_queryset(self):
        return self.visible().order_by("id")

    def create(self, request, *args, **kwargs):
        serializer = ser.ProjectWriteSerializer(data=request.data, context=self.get_serializer_context())
        serializer.is_valid(raise_exception=True)
        self.check_access("add", Project, serializer.validated_data)
        with transaction.atomic():
            project = serializer.save(created_by=request.user, modified_by=request.user,
                                      import_state=Project.PENDING)
            scm.start_import(project.pk)
        return Response(ser.project_data(project), status=status.HTTP_201_CREATED)


class ProjectDetail(EdaDetail):
    model = Project
    serializer_class = answering(ser.project_read)
    answer_serializer = answering(ser.project_data)

    def get_object(self):
        project = self.visible().filter(pk=self.kwargs["pk"]).first()
        if project is None:
            raise NotFound("No Project matches the given query.")
        return project

    def update(self, request, *args, **kwargs):
        project = self.get_object()
        serializer = ser.ProjectWriteSerializer(project, data=request.data, partial=True,
                                                context=self.get_serializer_context())
        serializer.is_valid(raise_exception=True)
        self.check_access("change", project, serializer.validated_data)
        resync = bool({"url", "scm_branch", "scm_refspec"} & set(serializer.validated_data))
        with transaction.atomic():
            fields = {"modified_by": request.user}
            if resync and project.import_state not in IMPORTING:
                fields["import_state"] = Project.PENDING
            project = serializer.save(**fields)
            if resync and "import_state" in fields:
                scm.start_import(project.pk, sync=True)
        return Response(ser.project_data(project))

    def refuse_destroy(self, project):
        if project.import_state in IMPORTING:
            raise Conflict("Project Sync is running. Please try again in a moment.")
        return None


class ProjectSync(EdaView, generics.GenericAPIView):
    model = Project

    def may_write(self, method):
        return True

    def post(self, request, pk):
        with transaction.atomic():
            project = self.visible().filter(pk=pk).first()
            if project is None:
                raise NotFound("Project with ID=%s does not exist." % pk)
            self.check_access("sync", project)
            if project.import_state in IMPORTING:
                raise Conflict("Project import or sync is already running.")
            project.import_state = Project.PENDING
            project.save(update_fields=["import_state", "modified_at"])
            scm.start_import(project.pk, sync=True)
        return Response(ser.project_data(project), status=status.HTTP_202_ACCEPTED)


# -- rulebooks

class RulebookList(EdaView, generics.ListAPIView):
    model = Rulebook
    serializer_class = answering(ser.rulebook_data)
    filters = {"name": "name__icontains", "project_id": "project_id"}

    def get_queryset(self):
        return self.visible().order_by("id")


class RulebookDetail(EdaView, generics.RetrieveAPIView):
    model = Rulebook
    serializer_class = answering(ser.rulebook_data)


class RulebookJson(RulebookDetail):
    """The rulebook with its rulesets parsed (eda-server answers them as JSON)."""

    def retrieve(self, request, *args, **kwargs):
        rulebook = self.get_object()
        data = ser.rulebook_data(rulebook)
        data["rulesets"] = ser.yaml.safe_load(rulebook.rulesets)
        return Response(data)


class RulebookSources(EdaView, generics.ListAPIView):
    model = Rulebook
    serializer_class = answering(ser.source_data)

    def list(self, request, *args, **kwargs):
        rulebook = self.visible().filter(pk=kwargs["pk"]).first()
        if rulebook is None:
            raise NotFound("Rulebook with ID=%s does not exist." % kwargs["pk"])
        try:
            sources = scm.sources_of(rulebook.rulesets)
        except (ser.yaml.YAMLError, AttributeError, TypeError):
            return Response({"errors": "Failed to parse rulebook data"}, status=status.HTTP_400_BAD_REQUEST)
        page = self.paginate_queryset(sources)
        return self.get_paginated_response([ser.source_data(source) for source in page])


# -- activations

BUSY = (STARTING, STOPPING, DELETING, RUNNING, UNRESPONSIVE)


def activation_or_404(view, pk):
    activation = view.visible(Activation).filter(pk=pk).first()
    if activation is None:
        raise NotFound("No Activation matches the given query.")
    return activation


class ActivationList(EdaList):
    model = Activation
    serializer_class = answering(ser.activation_list_data, with_base=True)
    request_serializers = {"POST": ser.ActivationWriteSerializer}
    filters = {"name": "name__icontains", "status": "status__istartswith",
               "decision_environment_id": "decision_environment_id", "project_id": "project_id"}

    def create(self, request, *args, **kwargs):
        serializer = ser.ActivationWriteSerializer(data=request.data, context=self.get_serializer_context())
        serializer.is_valid(raise_exception=True)
        self.check_access("add", Activation, serializer.validated_data)
        with transaction.atomic():
            activation = serializer.save(user=request.user, created_by=request.user, modified_by=request.user,
                                         log_tracking_id=str(ser.uuid.uuid4()))
            if activation.is_enabled:
                runs.start(activation)
            # read before the commit starts the run: the answer is the pending activation, as EDA's is
            data = ser.activation_read(activation, base_url(request))
        return Response(data, status=status.HTTP_201_CREATED)


class ActivationDetail(EdaDetail):
    model = Activation
    serializer_class = answering(ser.activation_read, with_base=True)

    def get_object(self):
        return activation_or_404(self, self.kwargs["pk"])

    def update(self, request, *args, **kwargs):
        activation = self.get_object()
        if activation.is_enabled or activation.status in BUSY + (WORKERS_OFFLINE,):
            return Response("Activation is not in disabled mode and in stopped status",
                            status=status.HTTP_409_CONFLICT)
        serializer = ser.ActivationWriteSerializer(activation, data=request.data, partial=True,
                                                   context=self.get_serializer_context())
        serializer.is_valid(raise_exception=True)
        self.check_access("change", activation, serializer.validated_data)
        enable = serializer.validated_data.pop("is_enabled", False)
        with transaction.atomic():
            activation = serializer.save(user=request.user, modified_by=request.user, edited_by=request.user,
                                         edited_at=timezone.now())
            if enable:
                activation.is_enabled = True
                activation.save(update_fields=["is_enabled", "modified_at"])
                runs.start(activation)
            data = ser.activation_read(activation, base_url(request))   # before the run starts, as on create
        return Response(data)

    def destroy(self, request, *args, **kwargs):
        activation = self.get_object()
        self.check_access("delete", activation)
        # eda-server marks it deleting and its worker deletes it; nothing runs here to wait for
        with transaction.atomic():
            runs.stop(activation)
            activation.delete()
        return Response(status=status.HTTP_204_NO_CONTENT)


class ActivationAction(EdaView, generics.GenericAPIView):
    """enable/, disable/, restart/ (no body) and copy/ (``ActivationCopy``)."""

    model = Activation
    action = None

    def request_serializer(self, method):
        return ser.ActivationCopySerializer if self.action == "copy" else serializers.Serializer

    def may_write(self, method):
        return True

    def post(self, request, pk):
        activation = activation_or_404(self, pk)
        self.check_access(self.action, activation)
        with transaction.atomic():
            return getattr(self, "do_" + self.action)(request, activation)

    @staticmethod
    def _invalid(activation):
        """eda-server's ``is_activation_valid`` (its PostActivationSerializer's errors as text), for what can
        go stale after the activation was made: its decision environment deleted (a deleted rulebook is
        allowed)."""
        if activation.decision_environment_id is None:
            return str({"decision_environment_id": "Decision Environment is needed"})
        return None

    def do_enable(self, request, activation):
        if activation.is_enabled:
            return Response(status=status.HTTP_204_NO_CONTENT)
        if activation.status in BUSY:
            return Response("Activation not enabled due to current activation status",
                            status=status.HTTP_409_CONFLICT)
        error = self._invalid(activation)
        if error:
            runs.set_status(activation, "error", error)
            return Response({"errors": error}, status=status.HTTP_400_BAD_REQUEST)
        activation.is_enabled = True
        activation.failure_count = 0
        activation.save(update_fields=["is_enabled", "failure_count", "modified_at"])
        runs.start(activation)
        return Response(status=status.HTTP_204_NO_CONTENT)

    def do_disable(self, request, activation):
        if activation.is_enabled:
            activation.is_enabled = False
            activation.save(update_fields=["is_enabled", "modified_at"])
            runs.stop(activation)
        return Response(status=status.HTTP_204_NO_CONTENT)

    def do_restart(self, request, activation):
        if not activation.is_enabled:
            return Response({"detail": "Activation is disabled and cannot be run."},
                            status=status.HTTP_403_FORBIDDEN)
        error = self._invalid(activation)
        if error:
            runs.stop(activation)
            runs.set_status(activation, "error", error)
            return Response({"errors": error}, status=status.HTTP_400_BAD_REQUEST)
        runs.restart(activation)
        return Response(status=status.HTTP_204_NO_CONTENT)

    def do_copy(self, request, source):
        asked = ser.ActivationCopySerializer(data=request.data)
        asked.is_valid(raise_exception=True)
        name = asked.validated_data["name"]
        if source.rulebook_id is None:
            raise serializers.ValidationError({"rulebook_id": ["Rulebook with id None does not exist"]})
        rulebook = source.rulebook
        # disabled, never started: the model's default status, pending (eda-server's copy)
        copy = Activation.objects.create(
            name=name, description=source.description, is_enabled=False, organization_id=source.organization_id,
            decision_environment_id=source.decision_environment_id, rulebook=rulebook, extra_var=source.extra_var,
            user=source.user, restart_policy=source.restart_policy, awx_token_id=source.awx_token_id,
            log_level=source.log_level, k8s_service_name=source.k8s_service_name,
            source_mappings=source.source_mappings, skip_audit_events=source.skip_audit_events,
            rulebook_name=rulebook.name, rulebook_rulesets=source.rulebook_rulesets,
            rulebook_rulesets_sha256=source.rulebook_rulesets_sha256,
            git_hash=rulebook.project.git_hash if rulebook.project else "", project=rulebook.project,
            log_tracking_id=str(ser.uuid.uuid4()), enable_persistence=source.enable_persistence,
            rule_engine_credential_id=source.rule_engine_credential_id, restart_on_project_update=False,
            status=PENDING, created_by=request.user, modified_by=request.user)
        copy.eda_credentials.set(source.eda_credentials.all())
        copy.event_streams.set(source.event_streams.all())
        return Response(ser.activation_read(copy, base_url(request)), status=status.HTTP_201_CREATED)


class ActivationInstances(EdaView, generics.ListAPIView):
    model = RulebookProcess
    serializer_class = answering(ser.instance_data)
    filters = {"name": "name__icontains", "status": "status__istartswith"}

    def get_queryset(self):
        if not self.visible(Activation).filter(pk=self.kwargs["pk"]).exists():
            raise NotFound("Activation with ID=%s does not exist." % self.kwargs["pk"])
        return RulebookProcess.objects.filter(activation_id=self.kwargs["pk"]).order_by("id")


# -- activation instances

class ActivationInstanceList(EdaView, generics.ListAPIView):
    model = RulebookProcess
    serializer_class = answering(ser.instance_data)
    filters = ActivationInstances.filters

    def get_queryset(self):
        return self.visible().order_by("id")


class ActivationInstanceDetail(EdaView, generics.RetrieveAPIView):
    model = RulebookProcess
    serializer_class = answering(ser.instance_data)


class ActivationInstanceLogs(EdaView, generics.ListAPIView):
    model = RulebookProcessLog
    serializer_class = answering(ser.instance_log_data)
    filters = {"log": "log__icontains"}

    def get_queryset(self):
        if not self.visible(RulebookProcess).filter(pk=self.kwargs["pk"]).exists():
            raise NotFound("Activation Instance with ID=%s does not exist." % self.kwargs["pk"])
        return RulebookProcessLog.objects.filter(activation_instance_id=self.kwargs["pk"]).order_by("id")


# -- event streams

class EventStreamList(EdaList):
    model = EventStream
    serializer_class = answering(ser.event_stream_data, with_base=True)
    request_serializers = {"POST": ser.EventStreamWriteSerializer}
    filters = {"name": "name__istartswith", "test_mode": "test_mode__bool"}

    def get_queryset(self):
        return self.visible().order_by("-created_at", "-id")

    def create(self, request, *args, **kwargs):
        serializer = ser.EventStreamWriteSerializer(data=request.data, context=self.get_serializer_context())
        serializer.is_valid(raise_exception=True)
        self.check_access("add", EventStream, serializer.validated_data)
        with transaction.atomic():
            stream = serializer.save(owner=request.user, created_by=request.user, modified_by=request.user)
        return Response(ser.event_stream_data(stream, base_url(request)), status=status.HTTP_201_CREATED)


class EventStreamDetail(EdaDetail):
    model = EventStream
    serializer_class = answering(ser.event_stream_data, with_base=True)
    request_serializers = {"PATCH": ser.EventStreamWriteSerializer}

    def refuse_destroy(self, stream):
        used = stream.activations.count()
        if used:
            raise Conflict("Event stream '%s' is being referenced by %d activation(s) and cannot be deleted"
                           % (stream.name, used))
        return None


class EventStreamActivations(EdaView, generics.ListAPIView):
    model = Activation
    serializer_class = answering(ser.activation_list_data, with_base=True)
    filters = ActivationList.filters

    def get_queryset(self):
        if not self.visible(EventStream).filter(pk=self.kwargs["pk"]).exists():
            raise NotFound("EventStream with ID=%s does not exist." % self.kwargs["pk"])
        return self.visible().filter(event_streams__id=self.kwargs["pk"]).order_by("id")


# -- audit rules (nothing fires here: the lists are empty)

class AuditRuleList(EdaView, generics.ListAPIView):
    model = AuditRule
    serializer_class = answering(ser.audit_rule_data)
    filters = {"name": "name__icontains", "status": "status__icontains", "activation_instance_id":
               "activation_instance_id", "job_instance_id": "job_instance_id", "organization_id": "organization_id",
               "rule_uuid": "rule_uuid", "ruleset_uuid": "ruleset_uuid", "ruleset_name": "ruleset_name__icontains",
               "id": "id"}
    search_fields = ("name",)

    def get_queryset(self):
        return self.visible().order_by("-fired_at")


class AuditRuleDetail(EdaView, generics.RetrieveAPIView):
    model = AuditRule
    serializer_class = answering(lambda rule: ser.audit_rule_data(rule, detail=True))


class AuditRuleActions(EdaView, generics.ListAPIView):
    model = AuditAction
    serializer_class = answering(ser.audit_action_data)
    filters = {"name": "name__icontains", "status": "status__icontains", "url": "url__icontains"}
    search_fields = ("name",)

    def get_queryset(self):
        rule = self.visible(AuditRule).filter(pk=self.kwargs["pk"]).first()
        if rule is None:
            not_found("AuditRule", self.kwargs["pk"])
        return AuditAction.objects.filter(audit_rule=rule, rule_fired_at=rule.fired_at).order_by("id")


class AuditRuleEvents(EdaView, generics.ListAPIView):
    model = AuditEvent
    serializer_class = answering(ser.audit_event_data)
    filters = {"source_name": "source_name__icontains", "source_type": "source_type__icontains"}
    search_fields = ("source_name",)

    def get_queryset(self):
        rule = self.visible(AuditRule).filter(pk=self.kwargs["pk"]).first()
        if rule is None:
            not_found("AuditRule", self.kwargs["pk"])
        return AuditEvent.objects.filter(audit_actions__audit_rule=rule,
                                         audit_actions__rule_fired_at=rule.fired_at).distinct().order_by("-received_at")


# -- what refers to a credential or a decision environment (the EDA app's lists of them)

def _reference(kind, path, obj):
    return {"type": kind, "id": obj.pk, "name": obj.name, "uri": "%s%s/%d/" % (V1, path, obj.pk)}


def credential_references(credential):
    from django.db.models import Q

    return ([_reference("Activation", "activations", a)
             for a in Activation.objects.filter(eda_credentials=credential).order_by("id")]
            + [_reference("Project", "projects", p) for p in Project.objects.filter(
                Q(eda_credential=credential) | Q(signature_validation_credential=credential)).order_by("id")]
            + [_reference("EventStream", "event-streams", s)
               for s in EventStream.objects.filter(eda_credential=credential).order_by("id")])


def decision_environment_references(environment):
    return [_reference("Activation", "activations", a)
            for a in Activation.objects.filter(decision_environment=environment).order_by("id")]


eda.CREDENTIAL_REFERENCES.append(credential_references)
eda.DECISION_ENVIRONMENT_REFERENCES.append(decision_environment_references)
eda.ROOT.update({"project-list": "projects/", "rulebook-list": "rulebooks/", "activation-list": "activations/",
                 "activationinstance-list": "activation-instances/", "auditrule-list": "audit-rules/",
                 "eventstream-list": "event-streams/"})
