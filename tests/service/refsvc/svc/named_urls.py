"""Named URLs, as the real service's URLModificationMiddleware and named URL graph
(awx/main/middleware.py, awx/main/utils/named_url_graph.py) serve them:
``/api/v2/<resource>/<named>/...`` is served as ``/api/v2/<resource>/<pk>/...``.

A name is the object's fields joined by ``+``, then those of the objects it hangs on
(depth first, in the order of ``NAMED_URL_FORMATS``), joined by ``++``; ``[+]`` stands
for a ``+`` inside a value; an empty part leaves that object (and what hangs on it) out
of the match. A name that parses but names nothing becomes pk 0 (a 404 after the
authentication check); one that does not parse is left as it is; a job template may
also be named by its name alone (the oldest organization's wins). All digits are a pk.
"""
import urllib.parse

from django.apps import apps

# resource: (app label, model, fields, [(foreign key, resource), ...])
GRAPH = {
    "execution_environments": ("resources", "ExecutionEnvironment", ["name"], []),
    "organizations": ("svc", "Organization", ["name"], []),
    "teams": ("rbac", "Team", ["name"], [("organization", "organizations")]),
    "credential_types": ("svc", "CredentialType", ["name", "kind"], []),
    "credentials": ("svc", "Credential", ["name"], [("credential_type", "credential_types"), ("organization", "organizations")]),
    "notification_templates": ("resources", "NotificationTemplate", ["name"], [("organization", "organizations")]),
    "job_templates": ("jobs", "JobTemplate", ["name"], [("organization", "organizations")]),
    "projects": ("jobs", "Project", ["name"], [("organization", "organizations")]),
    "inventories": ("svc", "Inventory", ["name"], [("organization", "organizations")]),
    "hosts": ("svc", "Host", ["name"], [("inventory", "inventories")]),
    "groups": ("resources", "Group", ["name"], [("inventory", "inventories")]),
    "inventory_sources": ("resources", "InventorySource", ["name"], [("inventory", "inventories")]),
    "instance_groups": ("resources", "InstanceGroup", ["name"], []),
    "workflow_job_templates": ("workflows", "WorkflowJobTemplate", ["name"], [("organization", "organizations")]),
    "workflow_job_template_nodes": ("workflows", "WorkflowJobTemplateNode", ["identifier"],
                                    [("workflow_job_template", "workflow_job_templates")]),
    "labels": ("resources", "Label", ["name"], [("organization", "organizations")]),
    "applications": ("svc", "OAuth2Application", ["name"], [("organization", "organizations")]),
    "users": ("auth", "User", ["username"], []),
    "instances": ("resources", "Instance", ["hostname"], []),
}
PREFIX = "/api/v2/"


def _model(resource):
    app, name = GRAPH[resource][:2]
    return apps.get_model(app, name)


def _process(resource, prefix, names, idx, kwargs):
    if idx >= len(names):
        return idx, False
    if not names[idx]:
        return idx + 1, True
    fields, adj = GRAPH[resource][2], GRAPH[resource][3]
    parts = names[idx].split("+")
    if len(parts) != len(fields):
        return idx, False
    for field, value in zip(fields, parts):
        kwargs[prefix + field] = urllib.parse.unquote(value)
    idx += 1
    for fk, child in adj:
        idx, ok = _process(child, prefix + fk + "__", names, idx, kwargs)
        if not ok:
            return idx, False
    return idx, True


# The characters a name part spells as percent escapes (URL_PATH_RESERVED_CHARSET).
RESERVED = {c: urllib.parse.quote(c, safe="") for c in ";/?:@=&[]"}


def _encode(value):
    text = "" if value is None else str(value)
    for char, escaped in RESERVED.items():
        text = text.replace(char, escaped)
    return text.replace("+", "[+]")


def named_url_of(resource, obj):
    """The named URL of ``obj`` as the real serializers give it in ``related.named_url``
    (GraphNode.generate_named_url): each object's fields, then those it hangs on, depth
    first, an empty part for an empty foreign key; None for a resource without one."""
    if resource not in GRAPH:
        return None
    parts = []

    def walk(node, item):
        fields, adj = GRAPH[node][2], GRAPH[node][3]
        parts.append("+".join(_encode(getattr(item, field, "")) for field in fields))
        for fk, child in adj:
            target = getattr(item, fk, None)
            if target is None:
                parts.append("")
            else:
                walk(child, target)

    walk(resource, obj)
    return PREFIX + resource + "/" + "++".join(parts) + "/"


def query_kwargs(resource, named):
    """The lookups a named URL stands for, or None when it does not parse."""
    if named.isdigit() and int(named) > 0:
        return None
    names = named.replace("[+]", "%2B").split("++")
    kwargs = {}
    idx, ok = _process(resource, "", names, 0, kwargs)
    return kwargs if ok and idx == len(names) else None


def to_pk(resource, named):
    kwargs = query_kwargs(resource, named)
    model = _model(resource)
    if kwargs is not None:
        match = model.objects.filter(**kwargs).order_by("pk").first()
        return str(match.pk) if match else "0"
    if resource == "job_templates" and "++" not in named:
        jt = model.objects.filter(name=urllib.parse.unquote(named)).order_by("organization__created").first()
        if jt is not None:
            return str(jt.pk)
    return named


def convert(path):
    if not path.startswith(PREFIX):
        return path
    parts = path[len(PREFIX):].split("/")
    if len(parts) < 2 or parts[0] not in GRAPH or not parts[1]:
        return path
    pk = to_pk(parts[0], parts[1])
    rest = [p for p in parts[2:] if p]
    return PREFIX + "/".join([parts[0], pk] + rest) + "/"


class NamedUrlMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        old = request.path_info
        new = convert(old)
        if new != old:
            request.environ["awx.named_url_rewritten"] = request.path
            request.path = request.path.replace(old, new)
            request.path_info = new
        return self.get_response(request)
