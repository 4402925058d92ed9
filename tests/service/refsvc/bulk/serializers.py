"""The bulk actions: many hosts created or deleted, or many jobs launched, in one
request. Validation, limits and answers follow the real BulkHostCreateSerializer,
BulkHostDeleteSerializer and BulkJobLaunchSerializer."""
from django.utils import timezone
from rest_framework import serializers
from rest_framework.exceptions import PermissionDenied

from refsvc.conf.views import render
from refsvc.svc import access
from refsvc.svc.models import Host, Inventory
from refsvc.svc.serializers import VariablesField

NOT_FOUND_OR_DENIED = "Hosts do not exist or you lack permission to delete it"


def limit(name):
    """The current value of a setting of the bulk category."""
    return int(render("bulk")[name])


class BulkHostSerializer(serializers.ModelSerializer):
    variables = VariablesField()

    class Meta:
        model = Host
        fields = ("name", "enabled", "instance_id", "description", "variables")
        validators = []


class BulkHostCreateSerializer(serializers.Serializer):
    inventory = serializers.PrimaryKeyRelatedField(queryset=Inventory.objects.all(), write_only=True)
    hosts = serializers.ListField(child=BulkHostSerializer(), allow_empty=False, max_length=100000, write_only=True)

    def validate(self, attrs):
        user = self.context["request"].user
        inv = attrs["inventory"]
        if inv.kind != "":
            raise serializers.ValidationError("Hosts can only be created in manual inventories (not smart or constructed types).")
        if len(attrs["hosts"]) > limit("BULK_HOST_MAX_CREATE"):
            raise serializers.ValidationError("Number of hosts exceeds system setting BULK_HOST_MAX_CREATE")
        if not access.allows(user, "add", Host, {"inventory": inv}):
            raise serializers.ValidationError("Inventory with id %d not found or lack permissions to add hosts." % inv.id)
        current = set(inv.hosts.values_list("name", flat=True))
        names = [host["name"] for host in attrs["hosts"]]
        duplicates = [n for n in names if n in current or names.count(n) > 1]
        if duplicates:
            raise serializers.ValidationError("Hostnames must be unique in an inventory. Duplicates found: %s" % duplicates)
        org = inv.organization
        if org is not None and org.max_hosts > 0:
            in_org = Host.objects.filter(inventory__organization=org)
            active = in_org.values("name").distinct().count()
            known = in_org.filter(name__in=names).values("name").distinct().count()
            if active + len(set(names)) - known > org.max_hosts:
                raise PermissionDenied("You have already reached the maximum number of %s hosts allowed for your "
                                       "organization. Contact your System Administrator for assistance." % org.max_hosts)
        return attrs

    def create(self, validated_data):
        inv, now = validated_data["inventory"], timezone.now()
        # AWX 24.6.1 makes them with Host.objects.bulk_create, which calls no save(): no created_by (nor modified_by)
        hosts = [Host(inventory=inv, created=now, modified=now, **attrs) for attrs in validated_data["hosts"]]
        created = []
        for host in hosts:  # saved one by one so that each gets its id on every database
            host.save()
            created.append(host)
        inv_url = "/api/v2/inventories/%d/" % inv.id
        answer = []
        for host in created:
            item = dict((key, getattr(host, key)) for key in ("name", "enabled", "instance_id", "description", "variables"))
            item.update(id=host.id, url="/api/v2/hosts/%d/" % host.id, inventory=inv_url)
            answer.append(item)
        return {"url": inv_url, "hosts": answer}


class BulkHostDeleteSerializer(serializers.Serializer):
    hosts = serializers.ListField(allow_empty=False, max_length=100000, write_only=True)

    def validate(self, attrs):
        user = self.context["request"].user
        most = limit("BULK_HOST_MAX_DELETE")
        if len(attrs["hosts"]) > most:
            raise serializers.ValidationError({"ERROR": "Number of hosts exceeds system setting BULK_HOST_MAX_DELETE",
                                               "BULK_HOST_MAX_DELETE": most, "Hosts_count": len(attrs["hosts"])})
        try:
            found = list(Host.objects.filter(pk__in=attrs["hosts"]).select_related("inventory"))
        except (TypeError, ValueError):
            raise serializers.ValidationError({"hosts": ["A host id must be an integer."]})
        missing = [h for h in attrs["hosts"] if h not in set(host.id for host in found)]
        if missing:
            raise serializers.ValidationError({"hosts": dict.fromkeys(missing, NOT_FOUND_OR_DENIED)})
        inventories = dict((host.inventory_id, host.inventory) for host in found)
        denied = dict((inv.name, "Lack permissions to delete hosts from this inventory.")
                      for inv in inventories.values() if not access.can_change(user, inv))
        if denied:
            raise PermissionDenied({"inventories": denied})
        wrong_kind = dict((inv.name, "Hosts can only be deleted from manual inventories.")
                          for inv in inventories.values() if inv.kind != "")
        if wrong_kind:
            raise serializers.ValidationError({"inventories": wrong_kind})
        attrs["found"] = found
        return attrs

    def delete(self, validated_data):
        answer = dict((host.id, "The host %s was deleted" % host.name) for host in validated_data["found"])
        Host.objects.filter(pk__in=list(answer)).delete()
        return {"hosts": answer}
