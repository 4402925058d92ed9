"""Query-string filtering as the real service does it: any field lookup
(`name`, `inventory`, `name__icontains`, `inventory__name`, ...), `or__` and
`not__` prefixes, `search`, and `order_by`."""
from django.core.exceptions import EmptyResultSet, FieldDoesNotExist, FieldError, ValidationError as DjangoValidationError
from django.db import models
from django.db.models import Q
from rest_framework.exceptions import ParseError
from rest_framework.filters import BaseFilterBackend

from .models import RESOURCE_KINDS, ansible_id

RESERVED = {"page", "page_size", "order_by", "search", "format", "callback", "all_pages"}
FORBIDDEN = {"password", "token", "token_checksum", "client_secret", "inputs"}
LOOKUPS = {
    "exact", "iexact", "contains", "icontains", "startswith", "istartswith", "endswith", "iendswith",
    "in", "isnull", "gt", "gte", "lt", "lte", "regex", "iregex",
}


def _convert(field, lookup, value):
    if lookup == "isnull":
        return value.lower() in ("true", "1", "yes")
    if lookup == "in":
        return [_convert(field, "exact", v) for v in value.split(",")]
    if isinstance(field, models.BooleanField):
        if value.lower() in ("true", "1", "yes"):
            return True
        if value.lower() in ("false", "0", "no"):
            return False
        raise ParseError("Invalid boolean value: %s" % value)
    if value.lower() in ("none", "null") and getattr(field, "null", False) and lookup == "exact":
        return None
    return value


def _with_ansible_id(queryset, kind_key, value):
    """The primary keys of the shared objects whose resource id is ``value`` (a UUID)."""
    wanted = str(models.UUIDField().to_python(value))
    return [pk for pk in queryset.values_list("pk", flat=True) if ansible_id(kind_key, pk) == wanted]


def _resolve(model, key):
    """Check `key` (Django lookup syntax) against the model; returns (orm_key, last field, lookup)."""
    parts = key.split("__")
    lookup = "exact"
    if len(parts) > 1 and parts[-1] in LOOKUPS:
        lookup = parts.pop()
    field = None
    current = model
    for i, part in enumerate(parts):
        if part in FORBIDDEN:
            raise ParseError("Filtering on %s is not allowed." % part)
        try:
            field = current._meta.get_field(part)
        except FieldDoesNotExist:
            raise ParseError("Invalid field name: %s" % part)
        if field.is_relation and i < len(parts) - 1:
            current = field.related_model
        elif field.is_relation:
            field = field.target_field
    return "__".join(parts) + "__" + lookup, field, lookup


class FieldLookupBackend(BaseFilterBackend):
    def filter_queryset(self, request, queryset, view):
        model = queryset.model
        and_q = Q()
        or_q = Q()
        has_or = False
        try:
            # a view's own ``rest_filters_reserved_names`` (as django-ansible-base's backend takes them): the
            # names it filters on itself
            reserved = RESERVED | set(getattr(view, "rest_filters_reserved_names", ()))
            for key, values in request.query_params.lists():
                if key in reserved:
                    continue
                negate = False
                is_or = False
                name = key
                if name.startswith("or__"):
                    name, is_or = name[4:], True
                elif name.startswith("not__"):
                    name, negate = name[5:], True
                elif name.startswith("chain__"):
                    name = name[7:]
                name = view.filter_aliases.get(name, name) if hasattr(view, "filter_aliases") else name
                kind_key = RESOURCE_KINDS.get(model.__name__) if name == "resource__ansible_id" else None
                head, _, rest = name.partition("__")
                # A model's ``filter_any``: a field of the real service that is one of several columns here.
                names = [column + ("__" + rest if rest else "") for column in getattr(model, "filter_any", {}).get(head, ())] or [name]
                resolved = [] if kind_key is not None else [_resolve(model, each) for each in names]
                for value in values:
                    if kind_key is not None:
                        pks = _with_ansible_id(queryset, kind_key, value)
                        q = Q(pk__in=pks) if pks else Q(pk__isnull=True)  # an empty IN cannot be written as SQL
                    else:
                        q = Q()
                        for orm_key, field, lookup in resolved:
                            q |= Q(**{orm_key: _convert(field, lookup, value)})
                    if negate:
                        q = ~q
                    if is_or:
                        or_q |= q
                        has_or = True
                    else:
                        and_q &= q
            queryset = queryset.filter(and_q)
            if has_or:
                queryset = queryset.filter(or_q)
            search = request.query_params.get("search")
            if search:
                sq = Q()
                for fname in getattr(view, "search_fields", ("name", "description")):
                    sq |= Q(**{fname + "__icontains": search})
                queryset = queryset.filter(sq)
            order_by = request.query_params.get("order_by")
            if order_by:
                keys = []
                for item in order_by.split(","):
                    item = item.strip()
                    if not item:
                        continue
                    bare = item.lstrip("-")
                    _resolve(model, bare)
                    keys.append(item)
                queryset = queryset.order_by(*keys)
            # Evaluate lazily but check the SQL is valid now (a queryset that can match nothing,
            # such as none(), has no SQL).
            try:
                str(queryset.query)
            except EmptyResultSet:
                pass
        except (FieldError, DjangoValidationError, ValueError, TypeError) as exc:
            raise ParseError(str(exc))
        return queryset.distinct() if has_or else queryset
