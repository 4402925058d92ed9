from django.db import transaction
from django.shortcuts import get_object_or_404
from rest_framework import generics, status
from rest_framework.response import Response

from refsvc.jobs import surveys
from refsvc.resources.models import InstanceGroup
from refsvc.resources.serializers import InstanceGroupSerializer
from refsvc.resources.views import Labels, NotificationTemplateLinks, OrderedLinks
from refsvc.svc import access
from refsvc.svc.models import Credential
from refsvc.svc.serializers import CredentialSerializer
from refsvc.svc.views import ApiMixin, CreatedByMixin, ResourceDetail, ResourceList, SubList, association, get_object_or_400

from .models import WorkflowApprovalTemplate, WorkflowJobTemplate, WorkflowJobTemplateNode, WorkflowJobTemplateNodeInstanceGroup
from .serializers import WorkflowApprovalTemplateSerializer, WorkflowJobTemplateNodeSerializer, WorkflowJobTemplateSerializer

RELATIONSHIPS = ("success_nodes", "failure_nodes", "always_nodes")
NODE_SEARCH = ("unified_job_template__name", "unified_job_template__description")


class WorkflowJobTemplateList(CreatedByMixin, ResourceList):
    model = WorkflowJobTemplate
    serializer_class = WorkflowJobTemplateSerializer

    def get_queryset(self):
        return access.visible(WorkflowJobTemplate, self.request.user).select_related("organization", "inventory", "created_by")



class WorkflowJobTemplateDetail(ResourceDetail):
    model = WorkflowJobTemplate
    serializer_class = WorkflowJobTemplateSerializer

    def get_queryset(self):
        return access.visible(WorkflowJobTemplate, self.request.user)


class WorkflowJobTemplateSurveySpec(surveys.SurveySpecView):
    def get_template(self):
        return self.lookup(access.visible(WorkflowJobTemplate, self.request.user), self.kwargs["pk"])


# A workflow's sub-lists are the common ones with the workflow (or its node) as parent: its
# access class says who may change them (who may change the workflow).

class WorkflowLabels(Labels):
    """/workflow_job_templates/<pk>/labels/: associate, disassociate, or create and associate."""

    parent_model, relation = WorkflowJobTemplate, "labels"


class WorkflowNotificationTemplates(NotificationTemplateLinks):
    """/workflow_job_templates/<pk>/notification_templates_{started,success,error,approvals}/."""

    parent_model = WorkflowJobTemplate


class NodeList(ResourceList):
    model = WorkflowJobTemplateNode
    serializer_class = WorkflowJobTemplateNodeSerializer
    search_fields = NODE_SEARCH

    def get_queryset(self):
        return access.visible(WorkflowJobTemplateNode, self.request.user).select_related("workflow_job_template", "unified_job_template").prefetch_related(*RELATIONSHIPS)

    def can_write_metadata(self, request, method):
        return True

    def perform_create(self, serializer):
        self.check_access("add", WorkflowJobTemplateNode, serializer.validated_data)
        serializer.save()


class NodeDetail(ResourceDetail):
    model = WorkflowJobTemplateNode
    serializer_class = WorkflowJobTemplateNodeSerializer

    def get_queryset(self):
        return access.visible(WorkflowJobTemplateNode, self.request.user)


class WorkflowNodes(NodeList):
    """/workflow_job_templates/<pk>/workflow_nodes/: the workflow's nodes; POST creates one in it."""

    def get_parent(self):
        return get_object_or_404(access.visible(WorkflowJobTemplate, self.request.user), pk=self.kwargs["pk"])

    def get_queryset(self):
        return super().get_queryset().filter(workflow_job_template=self.get_parent()).order_by("id")

    def create(self, request, *args, **kwargs):
        data = request.data.copy() if hasattr(request.data, "copy") else {}
        data["workflow_job_template"] = self.get_parent().pk
        serializer = self.get_serializer(data=data)
        serializer.is_valid(raise_exception=True)
        self.perform_create(serializer)
        return Response(serializer.data, status=status.HTTP_201_CREATED, headers={"Location": serializer.data["url"]})


def has_cycle(wfjt):
    edges = {}
    for node in wfjt.workflow_job_template_nodes.prefetch_related(*RELATIONSHIPS):
        edges[node.pk] = [c.pk for rel in RELATIONSHIPS for c in getattr(node, rel).all()]
    state = {}

    def visit(n):
        state[n] = 1
        for child in edges.get(n, []):
            if state.get(child) == 1 or (state.get(child) is None and visit(child)):
                return True
        state[n] = 2
        return False

    return any(state.get(n) is None and visit(n) for n in list(edges))


class NodeChildren(SubList, NodeList):
    """/workflow_job_template_nodes/<pk>/{success,failure,always}_nodes/: POST {"id": N}
    links a node of the same workflow, with "disassociate" unlinks; without "id" a new
    node of the workflow is created and linked."""

    parent_model = WorkflowJobTemplateNode
    relationship = None
    search_fields = NODE_SEARCH

    def can_write_metadata(self, request, method):
        return True

    def get_queryset(self):
        return getattr(self.get_parent(), self.relationship).all().order_by("id")

    def post(self, request, pk):
        parent = self.get_parent()
        relation = getattr(parent, self.relationship)
        if not isinstance(request.data, dict):
            return Response("invalid type for post data", status=400)
        if "disassociate" not in request.data and not request.data.get("id"):
            data = dict(request.data)
            data["workflow_job_template"] = parent.workflow_job_template_id
            serializer = self.get_serializer(data=data)
            serializer.is_valid(raise_exception=True)
            self.check_access("attach", parent, None, self.relationship)
            with transaction.atomic():
                sub = serializer.save()
                relation.add(sub)
            data = self.get_serializer(sub).data
            return Response(data, status=201, headers={"Location": data["url"]})
        sub_id, disassociate, error = association(request, "Workflow Job Template Node")
        if error:
            return error
        sub = get_object_or_400(WorkflowJobTemplateNode.objects.all(), sub_id)
        self.check_access("unattach" if disassociate else "attach", parent, sub, self.relationship)
        if disassociate:
            relation.remove(sub)
            return Response(status=204)
        if parent.pk == sub.pk:
            return Response({"Error": "Cycle detected."}, status=400)
        others = [r for r in RELATIONSHIPS if r != self.relationship]
        if any(getattr(parent, r).filter(pk=sub.pk).exists() for r in others):
            return Response({"Error": "Relationship not allowed."}, status=400)
        with transaction.atomic():
            relation.add(sub)
            if has_cycle(parent.workflow_job_template):
                transaction.set_rollback(True)
                return Response({"Error": "Cycle detected."}, status=400)
        return Response(status=204)


class NodeCredentials(SubList):
    """/workflow_job_template_nodes/<pk>/credentials/: POST {"id": N} adds, with "disassociate" removes."""

    serializer_class = CredentialSerializer
    parent_model, relation = WorkflowJobTemplateNode, "credentials"

    def get_queryset(self):
        return self.get_parent().credentials.all().order_by("id")

    def post(self, request, pk):
        node = self.get_parent()
        sub_id, disassociate, error = association(request, "Credential")
        if error:
            return error
        cred = get_object_or_400(access.visible(Credential, request.user), sub_id)
        self.check_access("unattach" if disassociate else "attach", node, cred, self.relation)
        if disassociate:
            node.credentials.remove(cred)
        else:
            node.credentials.add(cred)
        return Response(status=204)


class NodeLabels(Labels):
    """/workflow_job_template_nodes/<pk>/labels/."""

    parent_model, relation = WorkflowJobTemplateNode, "labels"


class NodeInstanceGroups(OrderedLinks):
    """/workflow_job_template_nodes/<pk>/instance_groups/ (ordered)."""

    parent_model, relation = WorkflowJobTemplateNode, "instance_groups"
    model, serializer_class = InstanceGroup, InstanceGroupSerializer
    link_model, link_parent, link_child = WorkflowJobTemplateNodeInstanceGroup, "node", "instance_group"


class NodeCreateApproval(ApiMixin, generics.GenericAPIView):
    """/workflow_job_template_nodes/<pk>/create_approval_template/: POST {name, description, timeout}."""

    serializer_class = WorkflowApprovalTemplateSerializer

    def get_node(self):
        return get_object_or_404(access.visible(WorkflowJobTemplateNode, self.request.user), pk=self.kwargs["pk"])

    def get(self, request, pk):
        self.get_node()
        return Response({"name": "", "description": "", "timeout": None})

    def post(self, request, pk):
        node = self.get_node()
        self.check_access("change", node)
        serializer = self.get_serializer(data=request.data)
        if not serializer.is_valid():
            return Response(serializer.errors, status=400)
        with transaction.atomic():
            approval = serializer.save()
            node.unified_job_template_id = approval.pk
            node.save(update_fields=["unified_job_template", "modified"])
        return Response(self.get_serializer(approval).data, status=201)


class ApprovalTemplateDetail(ApiMixin, generics.RetrieveUpdateDestroyAPIView):
    serializer_class = WorkflowApprovalTemplateSerializer
    queryset = WorkflowApprovalTemplate.objects.all()
    endpoint_access = "superuser"  # read by all, changed by a superuser only
