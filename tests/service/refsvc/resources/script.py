"""GET /api/v2/inventories/<id>/script/: an inventory as Ansible's JSON
inventory-script format, as the real service builds it for its own jobs and
for awx.awx's inventory plugin (awx/api/views/inventory.py InventoryScriptView,
awx/main/models/inventory.py Inventory.get_script_data).

Query parameters, each true when given a non-empty value (the real view takes
``bool()`` of the string, so ``hostvars=0`` is true as well): ``hostvars`` adds
``_meta.hostvars``, ``towervars`` adds ``remote_host_enabled``, ``remote_host_id``,
``remote_tower_enabled`` and ``remote_tower_id`` to each host's variables, ``all`` includes disabled hosts;
``host=NAME`` answers that host's variables alone (404 when it is not there, or
disabled without ``all``). ``subset=sliceNofM`` keeps every M-th host from the
N-th, in name order.
"""
import re

import yaml
from django.shortcuts import get_object_or_404
from rest_framework import generics
from rest_framework.exceptions import ParseError
from rest_framework.response import Response

from refsvc.svc import access
from refsvc.svc.models import Inventory
from refsvc.svc.views import ApiMixin

from .models import Group


def variables_dict(text):
    """Variables kept as JSON or YAML text; {} for anything that is not a mapping."""
    try:
        data = yaml.safe_load(text) if text else None
    except yaml.YAMLError:
        return {}
    return data if isinstance(data, dict) else {}


def slice_params(subset):
    match = re.match(r"slice(?P<number>\d+)of(?P<step>\d+)", subset)
    if not match:
        raise ParseError("Could not parse subset as slice specification.")
    number, step = int(match.group("number")), int(match.group("step"))
    if number > step:
        raise ParseError("Slice number must be less than total number of slices.")
    if number < 1:
        raise ParseError("Slice number must be 1 or higher.")
    return number, step


def script_data(inventory, hostvars=False, towervars=False, show_all=False, slice_number=1, slice_count=1):
    hosts = inventory.hosts.all() if show_all else inventory.hosts.filter(enabled=True)
    hosts = list(hosts.order_by("name"))
    if slice_count > 1:
        hosts = hosts[slice_number - 1::slice_count]
    names = set(host.name for host in hosts)
    data = {"all": {}}
    everyone = data["all"]
    inventory_vars = variables_dict(inventory.variables)
    if inventory_vars:
        everyone["vars"] = inventory_vars
    if inventory.kind == "smart":
        everyone["hosts"] = [host.name for host in hosts]
    else:
        # in name order, as Group's Meta orders them
        groups = list(Group.objects.filter(inventory=inventory).order_by("name").prefetch_related("hosts", "children"))
        grouped = set()
        group_names = []
        for group in groups:
            info = {}
            members = [host.name for host in group.hosts.order_by("id") if host.name in names]
            grouped.update(members)
            children = [child.name for child in group.children.order_by("id")]
            if members:
                info["hosts"] = members
            if children:
                info["children"] = children
            group_vars = variables_dict(group.variables)
            if group_vars:
                info["vars"] = group_vars
            if info:
                data[group.name] = info
            group_names.append(group.name)
        everyone["hosts"] = [host.name for host in hosts if host.name not in grouped]
        if group_names:
            everyone["children"] = group_names
    if hostvars:
        meta = data.setdefault("_meta", {}).setdefault("hostvars", {})
        for host in hosts:
            meta[host.name] = variables_dict(host.variables)
            if towervars:
                for prefix in ("host", "tower"):
                    meta[host.name].update({"remote_%s_enabled" % prefix: str(host.enabled).lower(), "remote_%s_id" % prefix: host.id})
    return data


class InventoryScript(ApiMixin, generics.GenericAPIView):
    def get(self, request, pk):
        inventory = get_object_or_404(access.visible(Inventory, request.user), pk=pk)
        params = request.query_params
        show_all = bool(params.get("all", ""))
        subset = params.get("subset", "")
        if subset and not subset.startswith("slice"):
            raise ParseError("Subset does not use any supported syntax.")
        number, count = slice_params(subset) if subset else (1, 1)
        hostname = params.get("host", "")
        if hostname:
            hosts = inventory.hosts.all() if show_all else inventory.hosts.filter(enabled=True)
            return Response(variables_dict(get_object_or_404(hosts, name=hostname).variables))
        return Response(script_data(inventory, hostvars=bool(params.get("hostvars", "")),
                                    towervars=bool(params.get("towervars", "")), show_all=show_all,
                                    slice_number=number, slice_count=count))
