from django.shortcuts import get_object_or_404
from rest_framework import generics, status
from rest_framework.response import Response

from refsvc.jobs.models import JobTemplate
from refsvc.svc import access
from refsvc.svc.filters import FieldLookupBackend
from refsvc.svc.models import Credential, Host, Inventory, Organization
from refsvc.svc.serializers import CredentialSerializer, HostSerializer, InventorySerializer
from refsvc.svc.views import ApiMixin, ResourceDetail, ResourceList, SubList

from .models import (
    CredentialInputSource, ExecutionEnvironment, Group, Instance, InstanceGroup, InventoryInputInventory,
    InventoryInstanceGroup, InventorySource, JobTemplateInstanceGroup, Label, NotificationTemplate,
    OrganizationGalaxyCredential, OrganizationInstanceGroup, ReceptorAddress, Schedule,
)
from .serializers import (
    CredentialInputSourceSerializer, ExecutionEnvironmentSerializer, GroupSerializer, InstanceGroupSerializer,
    InstanceSerializer, InventorySourceSerializer, LabelSerializer, NotificationTemplateSerializer, ReceptorAddressSerializer,
    ScheduleSerializer,
)


class List(ResourceList):
    def get_queryset(self):
        return access.visible(self.model, self.request.user)

    def perform_create(self, serializer):
        self.check_access("add", self.model, serializer.validated_data)
        kwargs = {"created_by": self.request.user} if hasattr(self.model, "created_by") else {}
        serializer.save(**kwargs)


class Detail(ResourceDetail):
    def get_queryset(self):
        return access.visible(self.model, self.request.user)


def make(model, serializer, search=("name", "description")):
    list_view = type(model.__name__ + "List", (List,), {"model": model, "serializer_class": serializer, "search_fields": search})
    detail_view = type(model.__name__ + "Detail", (Detail,), {"model": model, "serializer_class": serializer})
    return list_view, detail_view


LabelList, LabelDetail = make(Label, LabelSerializer)
GroupList, GroupDetail = make(Group, GroupSerializer)
InventorySourceList, InventorySourceDetail = make(InventorySource, InventorySourceSerializer)
CredentialInputSourceList, CredentialInputSourceDetail = make(CredentialInputSource, CredentialInputSourceSerializer, ("description",))
ExecutionEnvironmentList, ExecutionEnvironmentDetail = make(ExecutionEnvironment, ExecutionEnvironmentSerializer)
InstanceGroupList, InstanceGroupDetail = make(InstanceGroup, InstanceGroupSerializer, ("name",))
NotificationTemplateList, NotificationTemplateDetail = make(NotificationTemplate, NotificationTemplateSerializer)
ScheduleList, ScheduleDetail = make(Schedule, ScheduleSerializer)
InstanceList, _InstanceDetail = make(Instance, InstanceSerializer, ("hostname",))


class LabelDetail(LabelDetail):
    http_method_names = ["get", "put", "patch", "head", "options"]  # labels are not deleted through the API


class InstanceDetail(_InstanceDetail):
    http_method_names = ["get", "put", "patch", "head", "options"]


class ReceptorAddressList(ApiMixin, generics.ListAPIView):
    """Receptor addresses (read only: an instance's canonical address follows its
    listener_port); nested under an instance, that instance's addresses or, for
    ``peers``, the addresses it peers to."""

    serializer_class = ReceptorAddressSerializer
    filter_backends = [FieldLookupBackend]
    model = ReceptorAddress
    search_fields = ("address",)
    relation = None

    def get_queryset(self):
        if "pk" not in self.kwargs:
            return ReceptorAddress.objects.all()
        instance = get_object_or_404(Instance, pk=self.kwargs["pk"])
        return getattr(instance, self.relation).all()


class ReceptorAddressDetail(ApiMixin, generics.RetrieveAPIView):
    serializer_class = ReceptorAddressSerializer
    model = ReceptorAddress
    queryset = ReceptorAddress.objects.all()


class GroupDetail(GroupDetail):
    def perform_destroy(self, instance):
        self.check_access("delete", instance)
        instance.delete_recursive()


# ---------------------------------------------------------------- sub-lists

def group_reach(group, relation):
    """The ids of the groups reached from ``group`` through ``relation`` ("children" or "parents"), at any depth."""
    seen, todo = set(), [group]
    while todo:
        g = todo.pop()
        for other in getattr(g, relation).all():
            if other.pk not in seen:
                seen.add(other.pk)
                todo.append(other)
    return seen


def group_descendants(group):
    return group_reach(group, "children")


class GroupChildren(SubList):
    parent_model, model, relation, serializer_class, allow_create = Group, Group, "children", GroupSerializer, True

    def create_data(self, parent, data):
        data = data.copy()
        data["inventory"] = parent.inventory_id
        return data

    def is_valid_relation(self, parent, sub):
        if sub.inventory_id != parent.inventory_id:
            return None  # refused by the access check that follows
        if sub.pk == parent.pk or parent.pk in group_descendants(sub):
            return {"error": "Cyclical Group association."}
        return None


def group_ancestors(group):
    return group_reach(group, "parents")


class GroupAllHosts(ApiMixin, generics.ListAPIView):
    """The hosts of a group and of all the groups below it (GET only), by name as
    the real Host model orders them."""

    serializer_class = HostSerializer
    filter_backends = [FieldLookupBackend]

    def get_queryset(self):
        group = get_object_or_404(access.visible(Group, self.request.user), pk=self.kwargs["pk"])
        groups = group_descendants(group) | {group.pk}
        return access.visible(Host, self.request.user).filter(groups__in=groups).distinct().order_by("name", "id")


class GroupPotentialChildren(ApiMixin, generics.ListAPIView):
    """The groups of the inventory that may become children: neither the group
    itself nor one of its ancestors or descendants (GET only)."""

    serializer_class = GroupSerializer
    filter_backends = [FieldLookupBackend]

    def get_queryset(self):
        group = get_object_or_404(access.visible(Group, self.request.user), pk=self.kwargs["pk"])
        excluded = {group.pk} | group_ancestors(group) | group_descendants(group)
        return access.visible(Group, self.request.user).filter(inventory_id=group.inventory_id).exclude(pk__in=excluded)


class GroupHosts(SubList):
    parent_model, model, relation, serializer_class, allow_create = Group, Host, "hosts", HostSerializer, True

    def create_data(self, parent, data):
        data = data.copy()
        data["inventory"] = parent.inventory_id
        return data


class HostGroups(SubList):
    parent_model, model, relation, serializer_class, allow_create = Host, Group, "groups", GroupSerializer, True

    def create_data(self, parent, data):
        data = data.copy()
        data["inventory"] = parent.inventory_id
        return data


class InventoryGroups(SubList):
    parent_model, model, relation, serializer_class, allow_create, parent_key = Inventory, Group, "groups", GroupSerializer, True, "inventory"


class InventorySources(SubList):
    parent_model, model, relation, serializer_class, allow_create, parent_key = (
        Inventory, InventorySource, "inventory_sources", InventorySourceSerializer, True, "inventory")


class CredentialInputSources(SubList):
    parent_model, model, relation, serializer_class, allow_create, parent_key = (
        Credential, CredentialInputSource, "input_sources", CredentialInputSourceSerializer, True, "target_credential")


class OrderedLinks(SubList):
    """An ordered many-to-many relation kept in a link table (`link_model`)."""

    link_model = None
    link_parent = None
    link_child = None

    def get_queryset(self):
        parent = self.get_parent()
        links = self.link_model.objects.filter(**{self.link_parent: parent}).order_by("position", "id")
        ids = [getattr(link, self.link_child + "_id") for link in links]
        objects = {o.pk: o for o in self.model.objects.filter(pk__in=ids)}
        return [objects[i] for i in ids if i in objects]

    def filter_queryset(self, queryset):
        return queryset

    def add(self, parent, sub):
        links = self.link_model.objects.filter(**{self.link_parent: parent})
        if not links.filter(**{self.link_child: sub}).exists():
            last = links.order_by("-position").first()
            self.link_model.objects.create(**{self.link_parent: parent, self.link_child: sub, "position": (last.position + 1) if last else 0})

    def remove(self, parent, sub):
        self.link_model.objects.filter(**{self.link_parent: parent, self.link_child: sub}).delete()


class OrganizationInstanceGroups(OrderedLinks):
    parent_model, model, serializer_class = Organization, InstanceGroup, InstanceGroupSerializer
    link_model, link_parent, link_child = OrganizationInstanceGroup, "organization", "instance_group"


class InventoryInstanceGroups(OrderedLinks):
    parent_model, model, serializer_class = Inventory, InstanceGroup, InstanceGroupSerializer
    link_model, link_parent, link_child = InventoryInstanceGroup, "inventory", "instance_group"


class JobTemplateInstanceGroups(OrderedLinks):
    parent_model, model, serializer_class = JobTemplate, InstanceGroup, InstanceGroupSerializer
    link_model, link_parent, link_child = JobTemplateInstanceGroup, "job_template", "instance_group"


class InventoryInputInventories(OrderedLinks):
    parent_model, model, serializer_class = Inventory, Inventory, InventorySerializer
    link_model, link_parent, link_child = InventoryInputInventory, "constructed_inventory", "input_inventory"

    def is_valid_relation(self, parent, sub):
        if sub.kind == "constructed":
            return {"error": "You cannot add a constructed inventory to another constructed inventory."}
        return None


class OrganizationGalaxyCredentials(OrderedLinks):
    parent_model, model, serializer_class = Organization, Credential, CredentialSerializer
    link_model, link_parent, link_child = OrganizationGalaxyCredential, "organization", "credential"

    def is_valid_relation(self, parent, sub):
        if sub.credential_type.kind != "galaxy":
            return {"msg": "Credential must be a Galaxy credential, not {}.".format(sub.credential_type.name)}
        return None


class InstanceGroupInstances(SubList):
    parent_model, model, relation, serializer_class = InstanceGroup, Instance, "instances", InstanceSerializer


class InstanceInstanceGroups(SubList):
    parent_model, model, relation, serializer_class = Instance, InstanceGroup, "rampart_groups", InstanceGroupSerializer


class OrganizationExecutionEnvironments(SubList):
    parent_model, model, relation, serializer_class, allow_create, parent_key = (
        Organization, ExecutionEnvironment, "execution_environments", ExecutionEnvironmentSerializer, True, "organization")


class OrganizationCredentials(SubList):
    """The organization's credentials; POST creates one in it (no attaching), as the real
    OrganizationCredentialList does."""

    parent_model, model, relation, serializer_class, allow_create, parent_key = (
        Organization, Credential, "credentials", CredentialSerializer, True, "organization")
    allow_attach = False
    metadata_post_exclude = ("user", "team")

    def get_queryset(self):
        parent = self.get_parent()
        return access.visible(Credential, self.request.user).filter(organization=parent)


class OrganizationNotificationTemplates(SubList):
    parent_model, model, relation, serializer_class, allow_create, parent_key = (
        Organization, NotificationTemplate, "notification_templates", NotificationTemplateSerializer, True, "organization")


class NotificationTemplateLinks(SubList):
    """notification_templates_{started,success,error,approvals} of an organization or job template."""

    model, serializer_class, allow_create = NotificationTemplate, NotificationTemplateSerializer, True


class Labels(SubList):
    model, serializer_class, allow_create = Label, LabelSerializer, True

    def after_remove(self, sub):
        # A label used nowhere any more goes away.
        if not (sub.inventories.exists() or sub.job_templates.exists() or sub.schedules.exists()
                or sub.workflow_job_templates.exists() or sub.workflow_job_template_nodes.exists()):
            sub.delete()


class TemplateSchedules(SubList):
    """/job_templates|projects|inventory_sources/<id>/schedules/: list, and create for that template."""

    model, serializer_class, allow_create, allow_attach = Schedule, ScheduleSerializer, True, False
    parent_field = None

    def get_parent(self):
        return get_object_or_404(self.parent_model.objects.all(), pk=self.kwargs["pk"])

    def get_queryset(self):
        return Schedule.objects.filter(**{self.parent_field: self.get_parent()})

    def create_data(self, parent, data):
        data = data.copy()
        data["unified_job_template"] = parent.pk
        return data

    def get_serializer_context(self):
        context = super().get_serializer_context()
        if "pk" in self.kwargs and self.request.method == "POST":
            context["ujt"] = (self.parent_field, self.get_parent())
        return context

    def post(self, request, *args, **kwargs):
        if isinstance(request.data, dict) and "id" not in request.data and "disassociate" not in request.data:
            parent = self.get_parent()
            serializer = self.get_serializer(data=self.create_data(parent, request.data))
            serializer.is_valid(raise_exception=True)
            self.check_access("add", Schedule, serializer.validated_data)
            sub = serializer.save(created_by=request.user)
            data = self.get_serializer(sub).data
            return Response(data, status=status.HTTP_201_CREATED, headers={"Location": data["url"]})
        return super().post(request, *args, **kwargs)


class InventorySourceCredentials(SubList):
    """/inventory_sources/<id>/credentials/: the source's one credential, as the real
    InventorySourceCredentialsList (the credential's kind is checked when the source is saved)."""

    parent_model, model, relation, serializer_class = InventorySource, Credential, "credentials", CredentialSerializer

    def is_valid_relation(self, parent, sub):
        if parent.credentials.exists():
            return {"msg": "Source already has credential assigned."}
        return None


class ScheduleCredentials(SubList):
    """/schedules/<id>/credentials/: the credentials a schedule gives its template on launch, checked
    as the real service checks a saved launch configuration's credentials."""

    parent_model, model, relation, serializer_class = Schedule, Credential, "credentials", CredentialSerializer

    def is_valid_relation(self, parent, sub):
        ujt = parent.unified_job_template
        if ujt is None:
            return {"msg": "Cannot assign credential when related template is null."}
        if parent.job_template_id is None:
            return {"msg": "Related template cannot accept credentials on launch."}
        if any(value == "ASK" for value in (sub.inputs or {}).values()):
            return {"msg": "Credential that requires user input on launch cannot be used in saved launch configuration."}
        if not ujt.ask_credential_on_launch:
            return {"msg": "Related template is not configured to accept credentials on launch."}
        if parent.credentials.filter(credential_type=sub.credential_type).exists():
            return {"msg": "This launch configuration already provides a %s credential." % sub.credential_type.name}
        if ujt.credentials.filter(pk=sub.pk).exists():
            return {"msg": "Related template already uses %s credential." % sub.name}
        return None


class ScheduleInstanceGroups(SubList):
    """/schedules/<id>/instance_groups/: attached and detached without further checks, as on the real service."""

    parent_model, model, relation, serializer_class = Schedule, InstanceGroup, "instance_groups", InstanceGroupSerializer
