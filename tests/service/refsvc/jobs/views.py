from django.db import transaction
from django.shortcuts import get_object_or_404
from rest_framework import generics, renderers, status
from rest_framework.exceptions import PermissionDenied
from rest_framework.response import Response
from rest_framework.views import APIView

from refsvc.svc import access
from refsvc.svc.filters import FieldLookupBackend
from refsvc.svc.models import Credential
from refsvc.svc.views import ApiMixin, CreatedByMixin, ResourceDetail, ResourceList

from . import launch, projects, runner, surveys
from .models import ACTIVE, Job, JobTemplate, Project
from .serializers import JobDetailSerializer, JobSerializer, JobTemplateSerializer, ProjectSerializer


def can_change(user, obj, action="change"):
    """May ``user`` do ``action`` (change, execute, ...) on a project or job template?"""
    from refsvc.rbac.registry import has_perm

    if user.is_superuser:
        return True
    if getattr(obj, "created_by_id", None) == user.id:
        return True
    if access.is_org_admin(user, obj.organization):
        return True
    return not isinstance(obj, Job) and has_perm(user, obj, action)


class JobsResourceList(ResourceList):
    def get_queryset(self):
        return access.visible(self.model, self.request.user)

    def perform_create(self, serializer):
        data = serializer.validated_data
        org = data.get("organization") or (data.get("project").organization if data.get("project") else None)
        if not (self.request.user.is_superuser or access.is_org_admin(self.request.user, org)):
            raise PermissionDenied()
        serializer.save(**self.extra_save_kwargs())


class JobsResourceDetail(ResourceDetail):
    def get_queryset(self):
        return access.visible(self.model, self.request.user)

    def check_change(self, obj, data=None):
        if not can_change(self.request.user, obj):
            raise PermissionDenied()


class ProjectList(CreatedByMixin, JobsResourceList):
    model = Project
    serializer_class = ProjectSerializer


class ProjectDetail(JobsResourceDetail):
    model = Project
    serializer_class = ProjectSerializer

    def perform_update(self, serializer):
        # The user who changes an SCM field launches the update that follows.
        serializer.instance._acting_user = self.request.user
        super().perform_update(serializer)


class ProjectPlaybooks(ApiMixin, APIView):
    """The playbook names of a project: a plain JSON list, not a page."""

    def get(self, request, pk):
        project = get_object_or_404(access.visible(Project, request.user), pk=pk)
        return Response(projects.playbooks(project))


class JobTemplateList(CreatedByMixin, JobsResourceList):
    model = JobTemplate
    serializer_class = JobTemplateSerializer


class JobTemplateDetail(JobsResourceDetail):
    model = JobTemplate
    serializer_class = JobTemplateSerializer


class RelatedCredentials(ApiMixin, generics.ListAPIView):
    """/job_templates/<pk>/credentials/ (POST {"id": N}, "disassociate": true removes) and /jobs/<pk>/credentials/."""

    parent_model = JobTemplate
    # The real job template's list creates and attaches (its OPTIONS offers "id" and
    # the credential fields); a job's list is read only.
    create_metadata = True
    metadata_post_exclude = ("user", "team")

    @property
    def attach_metadata(self):
        return self.parent_model is JobTemplate

    def get_serializer_class(self):
        from refsvc.svc.serializers import CredentialSerializer

        return CredentialSerializer

    def can_write_metadata(self, request, method):
        if method != "POST" or self.parent_model is not JobTemplate:
            return False
        parent = access.visible(JobTemplate, request.user).filter(pk=self.kwargs["pk"]).first()
        return parent is not None and can_change(request.user, parent)

    def get_parent(self):
        return get_object_or_404(access.visible(self.parent_model, self.request.user), pk=self.kwargs["pk"])

    def get_queryset(self):
        return self.get_parent().credentials.all().order_by("id")

    def post(self, request, pk):
        parent = self.get_parent()
        if self.parent_model is not JobTemplate or not can_change(request.user, parent):
            raise PermissionDenied()
        try:
            cred = access.visible(Credential, request.user).get(pk=int(request.data.get("id")))
        except (TypeError, ValueError, Credential.DoesNotExist):
            return Response({"msg": "Related object not found."}, status=400)
        if request.data.get("disassociate"):
            parent.credentials.remove(cred)
        else:
            parent.credentials.add(cred)
        return Response(status=204)


class JobTemplateLaunch(ApiMixin, APIView):
    def get_template(self):
        return get_object_or_404(access.visible(JobTemplate, self.request.user), pk=self.kwargs["pk"])

    def get(self, request, pk):
        return Response(launch.launch_info(self.get_template()))

    def post(self, request, pk):
        jt = self.get_template()
        if not can_change(request.user, jt, "execute"):
            raise PermissionDenied()
        with transaction.atomic():
            job, ignored = launch.launch(jt, request.data, request.user)
        runner.start(job)
        data = {"job": job.id, "ignored_fields": ignored}
        data.update(JobSerializer(job, context={"request": request}).data)
        return Response(data, status=status.HTTP_201_CREATED, headers={"Location": data["url"]})


class JobTemplateSurveySpec(surveys.SurveySpecView):
    def get_template(self):
        return self.lookup(access.visible(JobTemplate, self.request.user), self.kwargs["pk"])

    def can_change(self, user, obj):
        return can_change(user, obj)


class JobList(ApiMixin, generics.ListAPIView):
    model = Job
    serializer_class = JobSerializer

    def get_queryset(self):
        qs = access.visible(Job, self.request.user).select_related("job_template", "inventory", "project", "launched_by")
        if "pk" in self.kwargs:
            qs = qs.filter(job_template_id=self.kwargs["pk"])
        return qs
    filter_backends = [FieldLookupBackend]


class JobDetail(ApiMixin, generics.RetrieveDestroyAPIView):
    model = Job
    serializer_class = JobDetailSerializer

    def get_queryset(self):
        return access.visible(Job, self.request.user)

    def perform_destroy(self, instance):
        if not can_change(self.request.user, instance.job_template or instance):
            raise PermissionDenied()
        if instance.status in ACTIVE:
            raise PermissionDenied("Cannot delete running job resource.")
        instance.delete()


class JobCancel(ApiMixin, APIView):
    def get_job(self):
        return get_object_or_404(access.visible(Job, self.request.user), pk=self.kwargs["pk"])

    def get(self, request, pk):
        job = self.get_job()
        return Response({"can_cancel": job.status in ACTIVE})

    def post(self, request, pk):
        job = self.get_job()
        if not can_change(request.user, job.job_template or job):
            raise PermissionDenied()
        if not launch.cancel(job):
            return self.http_method_not_allowed(request)
        return Response(status=202)


class TextRenderer(renderers.BaseRenderer):
    media_type = "text/plain"
    format = "txt"
    charset = "utf-8"

    def render(self, data, accepted_media_type=None, renderer_context=None):
        return data.encode("utf-8") if isinstance(data, str) else renderers.JSONRenderer().render(data)


class AnsiRenderer(TextRenderer):
    format = "ansi"


class JobStdout(ApiMixin, APIView):
    """?format=txt (or ansi): the output as text; JSON otherwise ({"range", "content"})."""

    renderer_classes = [renderers.JSONRenderer, TextRenderer, AnsiRenderer]

    def get_queryset(self):
        return access.visible(Job, self.request.user)

    def get(self, request, pk):
        job = get_object_or_404(self.get_queryset(), pk=pk)
        text = job.result_stdout
        if request.accepted_renderer.format in ("txt", "ansi"):
            return Response(text)
        lines = text.count("\n")
        return Response({"range": {"start": 0, "end": lines, "absolute_end": lines}, "content": text})
