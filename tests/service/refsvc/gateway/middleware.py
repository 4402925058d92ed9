"""The layout of the gateway: the controller's API, which the service's apps serve under
/api/, answers under /api/controller/ (its links and Location headers say so too), as the
controller behind a platform gateway does (its OPTIONAL_API_URLPATTERN_PREFIX
"controller"); the controller's own /api/v2/ is not reachable through the gateway."""
import re

from django.conf import settings
from django.http import JsonResponse

from . import hub

CONTROLLER = "/api/controller/"
# Paths of the controller's API as its apps write them, and what the gateway makes of them.
_LINK = re.compile(rb'(?<=")/api/(v2/|o/|login/|logout/)')
_LOCATION = re.compile(r"^(https?://[^/]+)?/api/(v2/|o/|login/|logout/)")
# What the gateway itself serves under /api/ (everything else there is the controller's).
GATEWAY_PATHS = ("/api/gateway/",)
# Event-Driven Ansible's API, which the gateway serves beside its own (refsvc/eda/, installed in this layout only).
EDA_PATHS = ("/api/eda/",)


class LayoutMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        path = request.path_info
        if path.startswith(CONTROLLER) and settings.GATEWAY_CONTROLLER:
            # A real controller answers (refsvc.gateway.controller): its paths and links as they are.
            request.svc_controller = True
            return self.get_response(request)
        if path.startswith(CONTROLLER):
            if path.startswith(CONTROLLER + "eda/"):
                # EDA's API is not the controller's
                return JsonResponse({"detail": "The requested resource could not be found."}, status=404)
            request.path_info = "/api/" + path[len(CONTROLLER):]
            request.path = request.path_info
            request.svc_controller = True
            return self._controller_response(self.get_response(request))
        request.svc_controller = False
        if hub.is_hub_path(path):
            # The real Hub behind the gateway answers (refsvc.gateway.hub).
            return self.get_response(request)
        if path.startswith(GATEWAY_PATHS):
            from refsvc.gateway import auditor

            auditor.ensure()     # the gateway's own role definition, made at its first request
        if path == "/api/" or path.startswith(GATEWAY_PATHS + EDA_PATHS) or not path.startswith("/api/"):
            return self.get_response(request)
        # /api/v2/, /api/o/, /api/login/ ...: the controller's, not served at the gateway.
        return JsonResponse({"detail": "The requested resource could not be found."}, status=404)

    @staticmethod
    def _controller_response(response):
        location = response.get("Location")
        if location:
            response["Location"] = _LOCATION.sub(lambda m: (m.group(1) or "") + CONTROLLER + m.group(2), location)
        if getattr(response, "streaming", False):
            return response
        content_type = response.get("Content-Type", "")
        if content_type.startswith(("application/json", "text/html")) and response.content:
            response.content = _LINK.sub(CONTROLLER.encode() + rb"\1", response.content)
            if response.has_header("Content-Length"):
                response["Content-Length"] = str(len(response.content))
        return response
