"""OPTIONS answers shaped like the real service's: `actions.GET` lists every
field with its type and whether it can be filtered on; `actions.POST` (list)
or `actions.PUT` (detail) lists the writable fields, for users who may write."""
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.utils.encoding import force_str
from rest_framework import exceptions, serializers
from rest_framework.metadata import BaseMetadata
from rest_framework.relations import RelatedField
from rest_framework.request import clone_request

NOT_FILTERABLE = {"type", "url", "related", "summary_fields", "password", "token", "refresh_token", "auth", "external_account", "ldap_dn", "total_hosts", "is_system_auditor", "kind_display"}


def field_type(name, field):
    if name == "id":
        return "integer"
    if name in ("variables", "extra_vars"):
        return "json"
    if isinstance(field, RelatedField) or (isinstance(field, serializers.PrimaryKeyRelatedField)):
        return "id"
    if isinstance(field, serializers.SerializerMethodField):
        if name == "type":
            return "choice"
        return "object"
    if isinstance(field, serializers.BooleanField):
        return "boolean"
    if isinstance(field, serializers.IntegerField):
        return "integer"
    if isinstance(field, serializers.DateTimeField):
        return "datetime"
    if isinstance(field, serializers.ChoiceField):
        return "choice"
    if isinstance(field, serializers.JSONField):
        return "json"
    if isinstance(field, (serializers.DictField,)):
        return "object"
    return "string"


def field_info(name, field, serializer, write=False):
    info = {"type": field_type(name, field)}
    info["label"] = force_str(field.label) if field.label else name.replace("_", " ").capitalize()
    if field.help_text:
        info["help_text"] = force_str(field.help_text)
    if write:
        info["required"] = bool(field.required)
        if not field.required and field.default is not serializers.empty and not callable(field.default):
            info["default"] = field.default
        if getattr(field, "max_length", None):
            info["max_length"] = field.max_length
    else:
        info["filterable"] = name not in NOT_FILTERABLE
    if name == "type" and type_name(serializer):
        info["choices"] = [[type_name(serializer), type_name(serializer).replace("_", " ").title()]]
    elif isinstance(field, serializers.ChoiceField):
        info["choices"] = [[k, force_str(v)] for k, v in field.choices.items()]
    return info


class Metadata(BaseMetadata):
    def determine_metadata(self, request, view):
        data = {
            "name": view.get_view_name(),
            "description": view.get_view_description(),
            "renders": [r.media_type for r in view.renderer_classes],
            "parses": [p.media_type for p in view.parser_classes],
        }
        if not hasattr(view, "get_serializer"):
            if getattr(view, "empty_metadata", False):
                # A view of the real service whose serializer has no fields (a survey spec).
                actions = {"GET": {}}
                if "POST" in view.allowed_methods and may_write(view, request, "POST"):
                    actions = {"POST": {}, "GET": {}}
                data["actions"] = actions
            return data
        try:
            serializer = view.get_serializer()
        except Exception:
            return data
        actions = {}
        fields = serializer.fields
        actions["GET"] = {name: field_info(name, f, serializer) for name, f in fields.items() if not getattr(f, "write_only", False)}
        excluded = set(getattr(view, "metadata_post_exclude", ()))
        for method in ("POST", "PUT"):
            if method in view.allowed_methods and may_write(view, request, method):
                actions[method] = {name: field_info(name, f, serializer, write=True) for name, f in fields.items()
                                   if not f.read_only and not (method == "POST" and name in excluded)}
        if "POST" in actions and attaches(view):
            # A sub-list that attaches objects takes their "id" (the real metadata keeps
            # that read-only field); one that cannot create takes nothing else.
            id_info = {"type": "integer", "required": False, "hidden": False, "label": "ID",
                       "help_text": "Database ID for this %s." % (type_name(serializer) or "object").replace("_", " "),
                       "filterable": True}
            others = actions["POST"] if creates(view) else {}
            actions["POST"] = dict({"id": id_info}, **others)
        data["actions"] = actions
        if type_name(serializer):
            data["types"] = [type_name(serializer)]
        data["search_fields"] = list(getattr(view, "search_fields", ()))
        data["related_search_fields"] = []
        roles = model_role_fields(getattr(getattr(serializer, "Meta", None), "model", None))
        if roles:
            data["object_roles"] = roles
        from rest_framework.mixins import ListModelMixin

        if isinstance(view, ListModelMixin) and getattr(view, "paginator", None) is not None:
            data["max_page_size"] = view.paginator.max_page_size
        return data


def type_name(serializer):
    """The object type a serializer of the controller names (``type``); None for the serializers
    that are not the controller's (the gateway's, django-ansible-base's)."""
    return getattr(serializer, "type_name", None)


def may_write(view, request, method):
    """Whether the OPTIONS answer lists ``method``'s writable fields: the view's own rule
    (``can_write_metadata``), or, for a view that has none (django-ansible-base's), its permission
    classes asked about that method, as DRF's SimpleMetadata asks them."""
    own = getattr(view, "can_write_metadata", None)
    if own is not None:
        return own(request, method)
    view.request = clone_request(request, method)
    try:
        view.check_permissions(view.request)
    except (exceptions.APIException, PermissionDenied, Http404):
        return False
    finally:
        view.request = request
    return True


def attaches(view):
    """Whether the view is a sub-list that associates existing objects (POST {"id": N})."""
    value = getattr(view, "attach_metadata", None)
    if value is None:
        value = bool(getattr(view, "parent_model", None)) and getattr(view, "allow_attach", False)
    return value


def creates(view):
    value = getattr(view, "create_metadata", None)
    if value is None:
        value = getattr(view, "allow_create", True)
    return value


def model_role_fields(model):
    """The role fields of a model, as the real OPTIONS lists them in object_roles."""
    if model is None:
        return []
    from refsvc.rbac.registry import kind_of

    kind = kind_of(model)
    return list(kind.role_fields) if kind is not None else []
