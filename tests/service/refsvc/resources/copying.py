"""<resource>/<id>/copy/: GET says whether the user may copy the object
({"can_copy": ...}; a workflow's says more); POST {"name": ...} makes a copy under that name and
answers 201 with it, as the real service's CopyAPIView does. A copy keeps the
object's fields and the relations the real service keeps at copy
(FIELDS_TO_PRESERVE_AT_COPY): a job template's credentials, labels, instance
groups and survey; an inventory's hosts, groups and instance groups; a
workflow's nodes, their edges and approval templates. The real service copies
an inventory's hosts and groups in a background task; this one copies them
before it answers."""
import copy

from django.db import transaction
from rest_framework import status
from rest_framework.response import Response

from refsvc.svc import access

from refsvc.jobs import views as jobs_views
from refsvc.svc import views as svc_views
from refsvc.workflows import views as workflows_views
from refsvc.workflows.models import WorkflowApprovalTemplate

from . import views as resources_views
from .models import Group, InventoryInstanceGroup, JobTemplateInstanceGroup


def clone(obj, **changes):
    """A new row holding ``obj``'s fields, with ``changes``."""
    new = copy.copy(obj)
    new.pk = new.id = None
    new._state = copy.copy(obj._state)
    new._state.adding = True
    new._state.fields_cache = {}
    for field, value in changes.items():
        setattr(new, field, value)
    new.save()
    return new


def copy_job_template(old, new):
    new.credentials.set(old.credentials.all())
    new.labels.set(old.labels.all())
    for link in old.instance_group_links.all():
        JobTemplateInstanceGroup.objects.create(job_template=new, instance_group=link.instance_group, position=link.position)


def copy_inventory(old, new):
    for link in old.instance_group_links.all():
        InventoryInstanceGroup.objects.create(inventory=new, instance_group=link.instance_group, position=link.position)
    hosts = dict((host.id, clone(host, inventory=new)) for host in old.hosts.all())
    groups = dict((group.id, clone(group, inventory=new)) for group in Group.objects.filter(inventory=old))
    for group_id, group in groups.items():
        original = Group.objects.get(pk=group_id)
        group.hosts.set([hosts[h.id] for h in original.hosts.all() if h.id in hosts])
        group.children.set([groups[g.id] for g in original.children.all() if g.id in groups])


def copy_workflow(old, new):
    new.labels.set(old.labels.all())
    nodes = {}
    for node in old.workflow_job_template_nodes.all():
        changes = {"workflow_job_template": new}
        template = node.unified_job_template
        if template is not None and template.kind == "workflow_approval_template":
            # An approval node gets an approval template of its own, as on the real service.
            approval = WorkflowApprovalTemplate.objects.get(pk=template.pk)
            changes["unified_job_template_id"] = clone(approval).pk
        nodes[node.id] = (node, clone(node, **changes))
    for node, copied in nodes.values():
        copied.credentials.set(node.credentials.all())
        copied.labels.set(node.labels.all())
        for relationship in ("success_nodes", "failure_nodes", "always_nodes"):
            getattr(copied, relationship).set([nodes[child.id][1] for child in getattr(node, relationship).all()])


class CopyMixin:
    http_method_names = ["get", "post", "head", "options"]
    relations = None
    # A workflow's copy view says more (WorkflowJobTemplateCopy.get): whether the copy needs
    # the user's input, and which related objects the user could not copy ("all" when none).
    detailed = False

    def may_copy(self, obj):
        return access.allows(self.request.user, "copy", obj)

    def get(self, request, *args, **kwargs):
        can_copy = self.may_copy(self.get_object())
        if not self.detailed:
            return Response({"can_copy": can_copy})
        unable = [] if can_copy else ["all"]
        return Response({
            "can_copy": can_copy,
            "can_copy_without_user_input": can_copy,
            "templates_unable_to_copy": unable,
            "credentials_unable_to_copy": unable,
            "inventories_unable_to_copy": list(unable),
        })

    def post(self, request, *args, **kwargs):
        obj = self.get_object()
        self.check_access("copy", obj)
        name = request.data.get("name") if isinstance(request.data, dict) else None
        if not isinstance(name, str) or not name.strip():
            return Response({"name": ["This field is required."]}, status=status.HTTP_400_BAD_REQUEST)
        if name == obj.name:
            # CopySerializer.validate
            message = "The original object is already named %s, a copy from it cannot have the same name." % name
            return Response({"__all__": [message]}, status=status.HTTP_400_BAD_REQUEST)
        with transaction.atomic():
            changes = {"name": name}
            if hasattr(obj, "created_by_id"):
                changes["created_by"] = request.user
            new = clone(obj, **changes)
            if self.relations is not None:
                self.relations(obj, new)
        data = self.get_serializer(new).data
        return Response(data, status=status.HTTP_201_CREATED, headers={"Location": data.get("url", "")})


def copy_view(detail, relations=None, detailed=False):
    return type("Copy" + detail.__name__, (CopyMixin, detail),
                {"relations": staticmethod(relations) if relations else None, "detailed": detailed})


COPYABLE = [
    ("credentials", copy_view(svc_views.CredentialDetail)),
    ("inventories", copy_view(svc_views.InventoryDetail, copy_inventory)),
    ("job_templates", copy_view(jobs_views.JobTemplateDetail, copy_job_template)),
    ("notification_templates", copy_view(resources_views.NotificationTemplateDetail)),
    ("projects", copy_view(jobs_views.ProjectDetail)),
    ("workflow_job_templates", copy_view(workflows_views.WorkflowJobTemplateDetail, copy_workflow, detailed=True)),
]
