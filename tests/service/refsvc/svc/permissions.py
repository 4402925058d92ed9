from rest_framework import permissions

from .models import OAuth2AccessToken


class ApiPermission(permissions.BasePermission):
    """Authenticated users only (unless the view allows anonymous access);
    a read-scoped token may not write."""

    def has_permission(self, request, view):
        if getattr(view, "anonymous_allowed", False):
            return True
        if not (request.user and request.user.is_authenticated):
            return False
        if request.method not in permissions.SAFE_METHODS and isinstance(request.auth, OAuth2AccessToken):
            if "write" not in (request.auth.scope or "").split():
                return False
        return True
