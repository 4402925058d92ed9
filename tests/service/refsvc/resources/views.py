from django.db import transaction
from django.shortcuts import get_object_or_404
from rest_framework import generics, status
from rest_framework.exceptions import PermissionDenied
from rest_framework.response import Response

from refsvc.jobs.models import JobTemplate
from refsvc.svc import access
from refsvc.svc.filters import FieldLookupBackend
from refsvc.svc.models import Credential, Host, Inventory, Organization
from refsvc.svc.serializers import CredentialSerializer, HostSerializer, InventorySerializer
from refsvc.svc.views import ApiMixin, ResourceDetail, ResourceList

from .models import (
    ORG_PATH, SUPERUSER_ONLY, CredentialInputSource, ExecutionEnvironment, Group, Instance, InstanceGroup, InventoryInputInventory,
    InventoryInstanceGroup, InventorySource, JobTemplateInstanceGroup, Label, NotificationTemplate,
    OrganizationGalaxyCredential, OrganizationInstanceGroup, ReceptorAddress, Schedule,
)
from .serializers import (
    CredentialInputSourceSerializer, ExecutionEnvironmentSerializer, GroupSerializer, InstanceGroupSerializer,
    InstanceSerializer, InventorySourceSerializer, LabelSerializer, NotificationTemplateSerializer, ReceptorAddressSerializer,
    ScheduleSerializer,
)
def organization_of(model, data, obj=None):
    path = ORG_PATH.get(model)
    if not path:
        return None
    first, _, rest = path.partition("__")
    value = data.get(first) if first in data else getattr(obj, first, None)
    for part in rest.split("__") if rest else []:
        value = getattr(value, part, None)
    return value


def may_write(user, model, data, obj=None):
    if user.is_superuser:
        return True
    if model in SUPERUSER_ONLY or model is Schedule:
        return False
    if model in (Group, InventorySource):
        inv = data.get("inventory") or getattr(obj, "inventory", None)
        return inv is not None and access.can_change(user, inv)
    return access.is_org_admin(user, organization_of(model, data, obj))


class List(ResourceList):
    def get_queryset(self):
        return access.visible(self.model, self.request.user)

    def perform_create(self, serializer):
        if not may_write(self.request.user, self.model, serializer.validated_data):
            raise PermissionDenied()
        kwargs = {"created_by": self.request.user} if hasattr(self.model, "created_by") else {}
        serializer.save(**kwargs)


class Detail(ResourceDetail):
    def get_queryset(self):
        return access.visible(self.model, self.request.user)

    def check_change(self, obj, data=None):
        if not may_write(self.request.user, self.model, data or {}, obj):
            raise PermissionDenied()

    def perform_update(self, serializer):
        self.check_change(serializer.instance, serializer.validated_data)
        serializer.save()


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


class ExecutionEnvironmentDetail(ExecutionEnvironmentDetail):
    def check_change(self, obj, data=None):
        if obj.managed:
            raise PermissionDenied()
        super().check_change(obj, data)


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
        self.check_change(instance)
        instance.delete_recursive()


class InstanceGroupDetail(InstanceGroupDetail):
    def perform_destroy(self, instance):
        self.check_change(instance)
        if instance.name in ("default", "controlplane"):
            raise PermissionDenied()
        instance.delete()


# ---------------------------------------------------------------- sub-lists

class SubList(ApiMixin, generics.ListAPIView):
    """A related list: GET lists it; POST {"id": N} associates an object, {"id": N,
    "disassociate": true} removes it (204); without "id", a view that allows it
    creates the object and associates it (201)."""

    filter_backends = [FieldLookupBackend]
    parent_model = None
    relation = None          # attribute of the parent giving the related manager
    parent_key = None        # field of the child set to the parent on creation (a 1-n relation)
    allow_create = False
    allow_attach = True

    def get_parent(self):
        return get_object_or_404(access.visible(self.parent_model, self.request.user), pk=self.kwargs["pk"])

    def related(self, parent):
        return getattr(parent, self.relation)

    def get_queryset(self):
        return self.related(self.get_parent()).all()

    def check_parent(self, parent):
        if self.parent_model in (Organization, Inventory, Host, Credential):
            allowed = access.can_change(self.request.user, parent)
        else:
            allowed = may_write(self.request.user, self.parent_model, {}, parent)
        if not allowed:
            raise PermissionDenied()

    def is_valid_relation(self, parent, sub):
        return None

    def add(self, parent, sub):
        self.related(parent).add(sub)

    def remove(self, parent, sub):
        self.related(parent).remove(sub)

    def create_data(self, parent, data):
        data = data.copy()
        if self.parent_key:
            data[self.parent_key] = parent.pk
        return data

    def post(self, request, *args, **kwargs):
        if not isinstance(request.data, dict):
            return Response("invalid type for post data", status=400)
        parent = self.get_parent()
        sub_id = request.data.get("id", None)
        title = self.model._meta.verbose_name.title()
        if "disassociate" in request.data:
            if not sub_id:
                return Response({"msg": '"id" is required to disassociate'}, status=400)
            if not isinstance(sub_id, int) or isinstance(sub_id, bool):
                return Response({"msg": '"id" field must be an integer.'}, status=400)
            sub = self.model.objects.filter(pk=sub_id).first()
            if sub is None:
                return Response({"detail": "%s matching query does not exist." % self.model.__name__}, status=400)
            self.check_parent(parent)
            with transaction.atomic():
                if self.parent_key:
                    sub.delete()
                else:
                    self.remove(parent, sub)
                self.after_remove(sub)
            return Response(status=204)
        if sub_id and (not isinstance(sub_id, int) or isinstance(sub_id, bool)):
            return Response({"msg": '"id" field must be an integer.'}, status=400)
        if not sub_id:
            if not self.allow_create:
                return Response({"msg": "%s 'id' field is missing." % title}, status=400)
            serializer = self.get_serializer(data=self.create_data(parent, request.data))
            serializer.is_valid(raise_exception=True)
            if not may_write(request.user, self.model, serializer.validated_data) and not request.user.is_superuser:
                raise PermissionDenied()
            with transaction.atomic():
                kwargs = {"created_by": request.user} if hasattr(self.model, "created_by") else {}
                sub = serializer.save(**kwargs)
                if not self.parent_key:
                    self.add(parent, sub)
            data = self.get_serializer(sub).data
            return Response(data, status=201, headers={"Location": data["url"]})
        sub = self.model.objects.filter(pk=sub_id).first()
        if sub is None:
            return Response({"detail": "%s matching query does not exist." % self.model.__name__}, status=400)
        self.check_parent(parent)
        errors = self.is_valid_relation(parent, sub)
        if errors is not None:
            return Response(errors, status=400)
        if self.parent_key:
            if getattr(sub, self.parent_key + "_id") != parent.pk:
                raise PermissionDenied()
        else:
            self.add(parent, sub)
        return Response(status=204)

    def after_remove(self, sub):
        pass


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
            raise PermissionDenied()
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

    def is_valid_relation(self, parent, sub):
        if sub.inventory_id != parent.inventory_id:
            raise PermissionDenied()
        return None


class HostGroups(SubList):
    parent_model, model, relation, serializer_class, allow_create = Host, Group, "groups", GroupSerializer, True

    def create_data(self, parent, data):
        data = data.copy()
        data["inventory"] = parent.inventory_id
        return data

    def is_valid_relation(self, parent, sub):
        if sub.inventory_id != parent.inventory_id:
            raise PermissionDenied()
        return None


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
            if not request.user.is_superuser:
                raise PermissionDenied()
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
