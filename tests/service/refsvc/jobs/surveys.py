"""Survey specs of job templates and workflow job templates: GET/POST/DELETE
`survey_spec/`, checked as the real service checks them."""
from django.shortcuts import get_object_or_404
from rest_framework.response import Response
from rest_framework.views import APIView

from refsvc.svc import access
from refsvc.svc.views import ApiMixin

ENCRYPTED = "$encrypted$"
TYPES = {"text": str, "textarea": str, "password": str, "multiplechoice": str, "multiselect": str, "integer": int, "float": (float, int)}


def _error(text):
    return Response({"error": text}, status=400)


def validate(new_spec, old_spec):
    """None when ``new_spec`` is acceptable (password defaults resolved in place), else the 400 answer."""
    if not isinstance(new_spec, dict):
        return _error("Survey spec must be a JSON object.")
    errors = {}
    for field, expect, label in (("name", str, "string"), ("description", str, "string"), ("spec", list, "list of items")):
        if field not in new_spec:
            errors["error"] = "Field '%s' is missing from survey spec." % field
        elif not isinstance(new_spec[field], expect):
            errors["error"] = "Expected %s for field '%s', received %s type." % (label, field, type(new_spec[field]).__name__)
    if isinstance(new_spec.get("spec"), list) and len(new_spec["spec"]) < 1:
        errors["error"] = "'spec' doesn't contain any items."
    if errors:
        return Response(errors, status=400)
    old = {item.get("variable"): item for item in (old_spec or {}).get("spec", []) if isinstance(item, dict)}
    variables = set()
    for idx, item in enumerate(new_spec["spec"]):
        if not isinstance(item, dict):
            return _error("Survey question %s is not a json object." % idx)
        for field in ("type", "question_name", "variable", "required"):
            if field not in item:
                return _error("'%s' missing from survey question %s" % (field, idx))
            kind, label = (bool, "boolean") if field == "required" else (str, "string")
            if not isinstance(item[field], kind):
                return _error("'%s' in survey question %s expected to be %s." % (field, idx, label))
        if item["variable"] in variables:
            return _error("'variable' '%s' duplicated in survey question %s." % (item["variable"], idx))
        variables.add(item["variable"])
        qtype = item["type"]
        if qtype not in TYPES:
            return _error("'%s' in survey question %s is not one of '%s' allowed question types." % (qtype, idx, ", ".join(TYPES)))
        if "default" in item and item["default"] != "":
            if not isinstance(item["default"], TYPES[qtype]) or isinstance(item["default"], bool):
                label = qtype if qtype in ("integer", "float") else "string"
                return _error("Default value %s in survey question %s expected to be %s." % (item["default"], idx, label))
        for key in ("min", "max"):
            if key in item and item[key] is not None and not isinstance(item[key], int):
                return _error("The %s limit in survey question %s expected to be integer." % (key, idx))
        if qtype in ("multiplechoice", "multiselect"):
            if "choices" not in item:
                return _error("Survey question %s of type %s must specify choices." % (idx, qtype))
            if not isinstance(item["choices"], (list, str)):
                return _error("Choices in survey question %s of type %s must be a string or a list." % (idx, qtype))
        default = item.get("default")
        if isinstance(default, str) and default.startswith(ENCRYPTED):
            if qtype != "password":
                return _error("$encrypted$ is a reserved keyword for password question defaults, survey question %s is type %s." % (idx, qtype))
            previous = old.get(item["variable"], {})
            if not isinstance(previous.get("default"), str):
                return _error("$encrypted$ is a reserved keyword, may not be used for new default in position %s." % idx)
            item["default"] = previous["default"]
    return None


def display(spec):
    """The spec as GET shows it: password defaults hidden."""
    spec = dict(spec or {})
    if isinstance(spec.get("spec"), list):
        items = []
        for item in spec["spec"]:
            if isinstance(item, dict) and item.get("type") == "password" and item.get("default") not in (None, ""):
                item = dict(item, default=ENCRYPTED)
            items.append(item)
        spec["spec"] = items
    return spec


def variables_needed(obj):
    if not obj.survey_enabled:
        return []
    return [i["variable"] for i in (obj.survey_spec or {}).get("spec", []) if isinstance(i, dict) and i.get("required") and i.get("default") in (None, "")]


class SurveySpecView(ApiMixin, APIView):
    """Subclasses give get_template(); who changes a survey is who may change its template."""

    empty_metadata = True  # OPTIONS: "actions" {"POST": {}, "GET": {}}, as the real view's empty serializer gives

    def can_write_metadata(self, request, method):
        try:
            return access.allows(request.user, "change", self.get_template())
        except Exception:
            return False

    def get(self, request, pk):
        return Response(display(self.get_template().survey_spec))

    def post(self, request, pk):
        obj = self.get_template()
        self.check_access("change", obj)
        answer = validate(request.data, obj.survey_spec)
        if answer is not None:
            return answer
        obj.survey_spec = request.data
        obj.save(update_fields=["survey_spec", "modified"])
        return Response()

    def delete(self, request, pk):
        obj = self.get_template()
        self.check_access("change", obj)
        obj.survey_spec = {}
        obj.save(update_fields=["survey_spec", "modified"])
        return Response()  # 200, no body (the real view's `Response()`)

    @staticmethod
    def lookup(queryset, pk):
        return get_object_or_404(queryset, pk=pk)
