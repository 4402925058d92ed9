from django.db import transaction
from django.shortcuts import get_object_or_404
from rest_framework import generics, renderers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from refsvc.svc import access
from refsvc.svc.filters import FieldLookupBackend
from refsvc.svc.models import Credential
from refsvc.svc.views import ApiMixin, CreatedByMixin, ResourceDetail, ResourceList, SubList

from . import launch, projects, runner, surveys
from .models import ACTIVE, Job, JobTemplate, Project
from .serializers import JobDetailSerializer, JobSerializer, JobTemplateSerializer, ProjectSerializer


def can_change(user, obj, action="change"):
    """May ``user`` do ``action`` (change, execute, update) on a project or job template?"""
    return access.allows(user, action, obj)


class JobsResourceList(ResourceList):
    def get_queryset(self):
        return access.visible(self.model, self.request.user)



class JobsResourceDetail(ResourceDetail):
    def get_queryset(self):
        return access.visible(self.model, self.request.user)


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


class RelatedCredentials(SubList):
    """/job_templates/<pk>/credentials/ (POST {"id": N}, "disassociate": true removes) and /jobs/<pk>/credentials/."""

    parent_model = JobTemplate
    relation = "credentials"
    filter_backends = []
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
        return parent is not None and access.allows(request.user, "attach", parent, None, "credentials")

    def get_queryset(self):
        return self.get_parent().credentials.all().order_by("id")

    def post(self, request, pk):
        parent = self.get_parent()
        self.check_attach(parent)
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
        self.check_access("execute", jt)
        with transaction.atomic():
            job, ignored = launch.launch(jt, request.data, request.user)
        runner.start(job)
        data = {"job": job.id, "ignored_fields": ignored}
        data.update(JobSerializer(job, context={"request": request}).data)
        return Response(data, status=status.HTTP_201_CREATED, headers={"Location": data["url"]})


class JobTemplateSurveySpec(surveys.SurveySpecView):
    def get_template(self):
        return self.lookup(access.visible(JobTemplate, self.request.user), self.kwargs["pk"])


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
        self.check_access("delete", instance)
        instance.delete()


class JobCancel(ApiMixin, APIView):
    def get_job(self):
        return get_object_or_404(access.visible(Job, self.request.user), pk=self.kwargs["pk"])

    def get(self, request, pk):
        job = self.get_job()
        return Response({"can_cancel": job.status in ACTIVE})

    def post(self, request, pk):
        job = self.get_job()
        self.check_access("cancel", job)
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
