"""Labels, groups, inventory sources, credential input sources, execution
environments, instances and instance groups, notification templates and
schedules, with their links to the objects of the other apps."""
from django.conf import settings
from django.db import models
from django.db.models import Q

from refsvc.jobs.models import UnifiedIdMixin
from refsvc.svc import access
from refsvc.svc.models import Credential, Host, Inventory, Organization, TimestampedModel

SOURCE_CHOICES = [
    ("file", "File, Directory or Script"),
    ("constructed", "Template additional groups and hostvars at runtime"),
    ("scm", "Sourced from a Project"),
    ("ec2", "Amazon EC2"),
    ("gce", "Google Compute Engine"),
    ("azure_rm", "Microsoft Azure Resource Manager"),
    ("vmware", "VMware vCenter"),
    ("satellite6", "Red Hat Satellite 6"),
    ("openstack", "OpenStack"),
    ("rhv", "Red Hat Virtualization"),
    ("controller", "Red Hat Ansible Automation Platform"),
    ("insights", "Red Hat Insights"),
    ("terraform", "Terraform State"),
    ("openshift_virtualization", "OpenShift Virtualization"),
]
NOTIFICATION_TYPES = [
    ("awssns", "AWS SNS"), ("email", "Email"), ("grafana", "Grafana"), ("irc", "IRC"), ("mattermost", "Mattermost"),
    ("pagerduty", "Pagerduty"), ("rocketchat", "Rocket.Chat"), ("slack", "Slack"), ("twilio", "Twilio"), ("webhook", "Webhook"),
]
PULL_CHOICES = [
    ("", "---------"),
    ("always", "Always pull container before running."),
    ("missing", "Only pull the image if not present before running."),
    ("never", "Never pull container before running."),
]
NODE_TYPES = [
    ("control", "Control plane node"), ("execution", "Execution plane node"),
    ("hybrid", "Controller and execution"), ("hop", "Message-passing node, no execution capability"),
]
NODE_STATES = [
    ("provisioning", "Provisioning"), ("provision-fail", "Provisioning Failure"), ("installed", "Installed"),
    ("ready", "Ready"), ("unavailable", "Unavailable"), ("deprovisioning", "De-provisioning"),
    ("deprovision-fail", "De-provisioning Failure"),
]


class Owned(TimestampedModel):
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")

    class Meta:
        abstract = True


class ExecutionEnvironment(Owned):
    name = models.CharField(max_length=512)
    description = models.TextField(blank=True, default="")
    organization = models.ForeignKey(Organization, null=True, blank=True, on_delete=models.CASCADE, related_name="execution_environments")
    image = models.CharField(max_length=1024)
    managed = models.BooleanField(default=False)
    credential = models.ForeignKey(Credential, null=True, blank=True, on_delete=models.SET_NULL, related_name="execution_environments")
    pull = models.CharField(max_length=16, blank=True, default="", choices=PULL_CHOICES)

    class Meta:
        ordering = ["id"]


class Label(Owned):
    name = models.CharField(max_length=512)
    organization = models.ForeignKey(Organization, on_delete=models.CASCADE, related_name="labels")
    inventories = models.ManyToManyField(Inventory, blank=True, related_name="labels")
    job_templates = models.ManyToManyField("jobs.JobTemplate", blank=True, related_name="labels")

    class Meta:
        ordering = ["name"]
        unique_together = [("name", "organization")]


class Group(Owned):
    name = models.CharField(max_length=512)
    description = models.TextField(blank=True, default="")
    inventory = models.ForeignKey(Inventory, on_delete=models.CASCADE, related_name="groups")
    variables = models.TextField(blank=True, default="")
    hosts = models.ManyToManyField(Host, blank=True, related_name="groups")
    children = models.ManyToManyField("self", symmetrical=False, blank=True, related_name="parents")

    class Meta:
        ordering = ["name"]
        unique_together = [("name", "inventory")]

    def delete_recursive(self):
        """DELETE /groups/<id>/ as the real Group.delete_recursive: the group goes, and with it each
        descendant left without a parent, and each host left in no group by them."""
        links = Group.children.through.objects.filter(from_group__inventory=self.inventory_id)
        parents, children = {}, {}
        for link in links:
            parents.setdefault(link.to_group_id, set()).add(link.from_group_id)
            children.setdefault(link.from_group_id, set()).add(link.to_group_id)
        memberships = Group.hosts.through.objects.filter(group__inventory=self.inventory_id)
        groups_of = {}
        for membership in memberships:
            groups_of.setdefault(membership.host_id, set()).add(membership.group_id)
        marked, queue = {self.id}, [(self.id, child) for child in children.get(self.id, ())]
        while queue:
            parent, group = queue.pop(0)
            parents[group].discard(parent)
            if parents[group]:
                continue
            marked.add(group)
            queue.extend((group, child) for child in children.get(group, ()))
        hosts = [host for host, groups in groups_of.items() if groups & marked and not groups - marked]
        Group.objects.filter(id__in=marked).delete()
        Host.objects.filter(id__in=hosts).delete()


class InventorySource(UnifiedIdMixin, Owned):
    unified_kind = "inventory_source"
    name = models.CharField(max_length=512)
    description = models.TextField(blank=True, default="")
    inventory = models.ForeignKey(Inventory, on_delete=models.CASCADE, related_name="inventory_sources")
    source = models.CharField(max_length=32, blank=True, default="", choices=SOURCE_CHOICES)
    source_path = models.CharField(max_length=1024, blank=True, default="")
    source_vars = models.TextField(blank=True, default="")
    source_project = models.ForeignKey("jobs.Project", null=True, blank=True, on_delete=models.CASCADE, related_name="scm_inventory_sources")
    scm_branch = models.CharField(max_length=1024, blank=True, default="")
    credentials = models.ManyToManyField(Credential, blank=True, related_name="inventory_sources")
    enabled_var = models.TextField(blank=True, default="")
    enabled_value = models.TextField(blank=True, default="")
    host_filter = models.TextField(blank=True, default="")
    limit = models.TextField(blank=True, default="")
    overwrite = models.BooleanField(default=False)
    overwrite_vars = models.BooleanField(default=False)
    timeout = models.IntegerField(default=0)
    verbosity = models.PositiveIntegerField(default=1)
    update_on_launch = models.BooleanField(default=False)
    update_cache_timeout = models.PositiveIntegerField(default=0)
    execution_environment = models.ForeignKey(ExecutionEnvironment, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")

    class Meta:
        ordering = ["inventory", "name"]

    def unified_organization_id(self, row):
        # The real InventorySource.save takes the inventory's organization when it is created.
        if row is not None:
            return row.organization_id
        return self.inventory.organization_id if self.inventory_id else None


class CredentialInputSource(Owned):
    description = models.TextField(blank=True, default="")
    target_credential = models.ForeignKey(Credential, on_delete=models.CASCADE, related_name="input_sources")
    source_credential = models.ForeignKey(Credential, on_delete=models.CASCADE, related_name="target_input_sources")
    input_field_name = models.CharField(max_length=1024)
    metadata = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["id"]
        unique_together = [("target_credential", "input_field_name")]


class CredentialOwner(models.Model):
    """The user a credential was created for (`user` on creation)."""

    credential = models.ForeignKey(Credential, on_delete=models.CASCADE, related_name="owner_links")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")


class Instance(TimestampedModel):
    hostname = models.CharField(max_length=250, unique=True)
    uuid = models.CharField(max_length=40, default="")
    version = models.CharField(max_length=120, blank=True, default="")
    ip_address = models.CharField(max_length=50, blank=True, default="")
    capacity = models.PositiveIntegerField(default=0)
    capacity_adjustment = models.DecimalField(max_digits=3, decimal_places=2, default=1)
    cpu = models.DecimalField(max_digits=4, decimal_places=1, default=0)
    memory = models.BigIntegerField(default=0)
    cpu_capacity = models.IntegerField(default=0)
    mem_capacity = models.IntegerField(default=0)
    enabled = models.BooleanField(default=True)
    managed_by_policy = models.BooleanField(default=True)
    managed = models.BooleanField(default=False)
    node_type = models.CharField(max_length=16, choices=NODE_TYPES, default="execution")
    node_state = models.CharField(max_length=16, choices=NODE_STATES, default="installed")
    # Outbound links: receptor addresses of other instances (listener_port and
    # peers_from_control_nodes are those of the instance's canonical address).
    peers = models.ManyToManyField("ReceptorAddress", blank=True, related_name="peers_from")
    last_seen = models.DateTimeField(null=True, default=None)
    last_health_check = models.DateTimeField(null=True, default=None)
    errors = models.TextField(blank=True, default="")

    class Meta:
        ordering = ["hostname"]


class ReceptorAddress(models.Model):
    """An address an instance listens on; the canonical one is its host name
    and listener port, made and removed through the instance."""

    instance = models.ForeignKey(Instance, on_delete=models.CASCADE, related_name="receptor_addresses")
    address = models.CharField(max_length=255)
    port = models.IntegerField(null=True, default=None)
    protocol = models.CharField(max_length=10, default="tcp", choices=[("tcp", "TCP"), ("ws", "WS"), ("wss", "WSS")])
    websocket_path = models.CharField(max_length=255, blank=True, default="")
    is_internal = models.BooleanField(default=False)
    canonical = models.BooleanField(default=False)
    peers_from_control_nodes = models.BooleanField(default=False)

    class Meta:
        ordering = ["id"]


class InstanceGroup(TimestampedModel):
    name = models.CharField(max_length=250, unique=True)
    instances = models.ManyToManyField(Instance, blank=True, related_name="rampart_groups")
    is_container_group = models.BooleanField(default=False)
    credential = models.ForeignKey(Credential, null=True, blank=True, on_delete=models.SET_NULL, related_name="instancegroups")
    policy_instance_percentage = models.IntegerField(default=0)
    policy_instance_minimum = models.IntegerField(default=0)
    policy_instance_list = models.JSONField(default=list, blank=True)
    pod_spec_override = models.TextField(blank=True, default="")
    max_concurrent_jobs = models.IntegerField(default=0)
    max_forks = models.IntegerField(default=0)

    class Meta:
        ordering = ["id"]


class OrganizationInstanceGroup(models.Model):
    organization = models.ForeignKey(Organization, on_delete=models.CASCADE, related_name="instance_group_links")
    instance_group = models.ForeignKey(InstanceGroup, on_delete=models.CASCADE, related_name="+")
    position = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["position", "id"]
        unique_together = [("organization", "instance_group")]


class OrganizationGalaxyCredential(models.Model):
    organization = models.ForeignKey(Organization, on_delete=models.CASCADE, related_name="galaxy_credential_links")
    credential = models.ForeignKey(Credential, on_delete=models.CASCADE, related_name="+")
    position = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["position", "id"]
        unique_together = [("organization", "credential")]


class InventoryInstanceGroup(models.Model):
    inventory = models.ForeignKey(Inventory, on_delete=models.CASCADE, related_name="instance_group_links")
    instance_group = models.ForeignKey(InstanceGroup, on_delete=models.CASCADE, related_name="+")
    position = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["position", "id"]
        unique_together = [("inventory", "instance_group")]


class JobTemplateInstanceGroup(models.Model):
    """The instance groups a job template prefers, in order."""

    job_template = models.ForeignKey("jobs.JobTemplate", on_delete=models.CASCADE, related_name="instance_group_links")
    instance_group = models.ForeignKey(InstanceGroup, on_delete=models.CASCADE, related_name="+")
    position = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["position", "id"]
        unique_together = [("job_template", "instance_group")]


class InventoryInputInventory(models.Model):
    """The input inventories of a constructed inventory, in order."""

    constructed_inventory = models.ForeignKey(Inventory, on_delete=models.CASCADE, related_name="input_inventory_links")
    input_inventory = models.ForeignKey(Inventory, on_delete=models.CASCADE, related_name="+")
    position = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["position", "id"]
        unique_together = [("constructed_inventory", "input_inventory")]


class NotificationTemplate(Owned):
    name = models.CharField(max_length=512)
    description = models.TextField(blank=True, default="")
    organization = models.ForeignKey(Organization, on_delete=models.CASCADE, related_name="notification_templates")
    notification_type = models.CharField(max_length=32, choices=NOTIFICATION_TYPES)
    notification_configuration = models.JSONField(default=dict, blank=True)
    messages = models.JSONField(null=True, blank=True, default=None)
    # Organization associations (notification_templates_{started,success,error,approvals}).
    organizations_started = models.ManyToManyField(Organization, blank=True, related_name="notification_templates_started")
    organizations_success = models.ManyToManyField(Organization, blank=True, related_name="notification_templates_success")
    organizations_error = models.ManyToManyField(Organization, blank=True, related_name="notification_templates_error")
    organizations_approvals = models.ManyToManyField(Organization, blank=True, related_name="notification_templates_approvals")
    job_templates_started = models.ManyToManyField("jobs.JobTemplate", blank=True, related_name="notification_templates_started")
    job_templates_success = models.ManyToManyField("jobs.JobTemplate", blank=True, related_name="notification_templates_success")
    job_templates_error = models.ManyToManyField("jobs.JobTemplate", blank=True, related_name="notification_templates_error")
    projects_started = models.ManyToManyField("jobs.Project", blank=True, related_name="notification_templates_started")
    projects_success = models.ManyToManyField("jobs.Project", blank=True, related_name="notification_templates_success")
    projects_error = models.ManyToManyField("jobs.Project", blank=True, related_name="notification_templates_error")
    inventory_sources_started = models.ManyToManyField("InventorySource", blank=True, related_name="notification_templates_started")
    inventory_sources_success = models.ManyToManyField("InventorySource", blank=True, related_name="notification_templates_success")
    inventory_sources_error = models.ManyToManyField("InventorySource", blank=True, related_name="notification_templates_error")

    class Meta:
        ordering = ["name"]
        unique_together = [("organization", "name")]


class Schedule(Owned):
    name = models.CharField(max_length=512)
    description = models.TextField(blank=True, default="")
    # What the schedule launches: exactly one of these.
    job_template = models.ForeignKey("jobs.JobTemplate", null=True, blank=True, on_delete=models.CASCADE, related_name="schedules")
    project = models.ForeignKey("jobs.Project", null=True, blank=True, on_delete=models.CASCADE, related_name="schedules")
    inventory_source = models.ForeignKey(InventorySource, null=True, blank=True, on_delete=models.CASCADE, related_name="schedules")
    workflow_job_template = models.ForeignKey("workflows.WorkflowJobTemplate", null=True, blank=True, on_delete=models.CASCADE,
                                              related_name="schedules")
    enabled = models.BooleanField(default=True)
    rrule = models.CharField(max_length=255)
    dtstart = models.DateTimeField(null=True, default=None)
    dtend = models.DateTimeField(null=True, default=None)
    next_run = models.DateTimeField(null=True, default=None)
    # Launch-time values (prompts); None = not set.
    extra_data = models.JSONField(default=dict, blank=True)
    inventory = models.ForeignKey(Inventory, null=True, blank=True, on_delete=models.SET_NULL, related_name="schedules")
    execution_environment = models.ForeignKey(ExecutionEnvironment, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    scm_branch = models.CharField(max_length=1024, null=True, blank=True, default=None)
    job_type = models.CharField(max_length=64, null=True, blank=True, default=None)
    job_tags = models.TextField(null=True, blank=True, default=None)
    skip_tags = models.TextField(null=True, blank=True, default=None)
    limit = models.TextField(null=True, blank=True, default=None)
    diff_mode = models.BooleanField(null=True, default=None)
    verbosity = models.PositiveIntegerField(null=True, blank=True, default=None)
    forks = models.PositiveIntegerField(null=True, blank=True, default=None)
    job_slice_count = models.PositiveIntegerField(null=True, blank=True, default=None)
    timeout = models.IntegerField(null=True, blank=True, default=None)
    credentials = models.ManyToManyField(Credential, blank=True, related_name="schedules")
    labels = models.ManyToManyField(Label, blank=True, related_name="schedules")
    instance_groups = models.ManyToManyField(InstanceGroup, blank=True, related_name="schedules")

    class Meta:
        ordering = ["-next_run", "id"]

    # The real service's one column, ``?unified_job_template=<id>`` (ids are shared by the kinds).
    filter_any = {"unified_job_template": ("job_template", "project", "inventory_source", "workflow_job_template")}

    @property
    def unified_job_template(self):
        return self.job_template or self.project or self.inventory_source or self.workflow_job_template


# How each model reaches its organization (None: not organization-scoped).
ORG_PATH = {
    Label: "organization", Group: "inventory__organization", InventorySource: "inventory__organization",
    CredentialInputSource: "target_credential__organization", ExecutionEnvironment: "organization",
    NotificationTemplate: "organization", Schedule: None, Instance: None, InstanceGroup: None,
}
SUPERUSER_ONLY = (Instance, InstanceGroup)


@access.rule(Label, Group, InventorySource, CredentialInputSource, NotificationTemplate)
def _by_organization(qs, user):
    """What the user's organizations hold."""
    return qs.filter(**{ORG_PATH[qs.model] + "__in": access.organizations_of(user)})


@access.rule(ExecutionEnvironment)
def _execution_environments(qs, user):
    return qs.filter(Q(organization__isnull=True) | Q(organization__in=access.organizations_of(user)))


@access.rule(Schedule)
def _schedules(qs, user):
    return qs.filter(Q(inventory_source__inventory__organization__in=access.organizations_of(user)) | Q(created_by=user))


@access.rule(*SUPERUSER_ONLY)
def _everyone(qs, user):
    # Read by everyone; only a superuser changes them (may_write).
    return qs


def organization_of(model, data, obj=None):
    path = ORG_PATH.get(model)
    if not path:
        return None
    first, _, rest = path.partition("__")
    value = data.get(first) if first in data else getattr(obj, first, None)
    for part in rest.split("__") if rest else []:
        value = getattr(value, part, None)
    return value


@access.register(Label, Group, InventorySource, CredentialInputSource, ExecutionEnvironment, NotificationTemplate,
                 Schedule, Instance, InstanceGroup)
class ResourceAccess(access.Access):
    """An administrator of the organization the object belongs to changes it; groups and
    inventory sources are changed by who may change their inventory; schedules, instances and
    instance groups by a superuser only. A change never counts as a move here."""

    def writes(self, user, data, obj=None):
        if self.model in SUPERUSER_ONLY or self.model is Schedule:
            return False
        if self.model in (Group, InventorySource):
            inv = data.get("inventory") or getattr(obj, "inventory", None)
            return inv is not None and access.can_change(user, inv)
        return access.is_org_admin(user, organization_of(self.model, data, obj))

    def can_add(self, user, data):
        return self.writes(user, data)

    def can_add_related(self, user, data):
        return self.writes(user, data)

    def can_change(self, user, obj, data=None):
        return self.writes(user, data or {}, obj)

    def can_move(self, user, obj, data):
        return True

    def can_update(self, user, obj):
        # An inventory source's update/: who may change the source.
        return self.can_change(user, obj)

    def refuse_change(self, user, obj, data=None):
        # A managed execution environment is changed by nobody.
        return access.DENIED if getattr(obj, "managed", False) and self.model is ExecutionEnvironment else None

    def refuse_delete(self, user, obj):
        if self.model is InstanceGroup and obj.name in ("default", "controlplane"):
            return access.DENIED
        return self.refuse_change(user, obj)
