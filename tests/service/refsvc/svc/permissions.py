from rest_framework import permissions

from . import access
from .models import OAuth2AccessToken


class ApiPermission(permissions.BasePermission):
    """Authenticated users only (unless the view allows anonymous access);
    a read-scoped token may not write; a view of an endpoint that is no model's names its
    access class (``endpoint_access``), which decides who may send the method."""

    def has_permission(self, request, view):
        if getattr(view, "anonymous_allowed", False):
            return True
        if not (request.user and request.user.is_authenticated):
            return False
        if request.method not in permissions.SAFE_METHODS and isinstance(request.auth, OAuth2AccessToken):
            if "write" not in (request.auth.scope or "").split():
                return False
        key = getattr(view, "endpoint_access", None)
        if key is not None:
            return access.allows(request.user, "use", key, request.method, **getattr(view, "endpoint_access_args", {}))
        return True
