"""Steps of the social-auth pipeline of the reference service."""
from refsvc.svc.models import UserProfile


def mark_external(strategy, user=None, is_new=False, **kwargs):
    """A user created by an SSO login is an external ("social") account."""
    if user is not None and is_new:
        UserProfile.objects.update_or_create(user=user, defaults={"external_account": "social"})


def mark_login(strategy, user=None, **kwargs):
    """Count the login in the request log, like a session login."""
    request = getattr(strategy, "request", None)
    if request is not None and user is not None:
        request.svc_login = True
        request.svc_auth = "sso"
