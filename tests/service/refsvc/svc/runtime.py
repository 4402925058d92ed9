"""Settings that change while the service runs.

They live in the database so that every worker process sees a change on its
next request. Each request loads them once (one small query) and applies the
ones Django itself reads (session cookie name and age)."""
import threading

from django.conf import settings

_local = threading.local()


def defaults() -> dict:
    return dict(settings.RUNTIME_DEFAULTS)


def load() -> dict:
    from .models import RuntimeSetting

    values = defaults()
    for row in RuntimeSetting.objects.all():
        values[row.key] = row.value
    return values


def store(changes: dict) -> None:
    from .models import RuntimeSetting

    for key, value in changes.items():
        RuntimeSetting.objects.update_or_create(key=key, defaults={"value": value})


def apply(values: dict) -> None:
    _local.values = values
    settings.SESSION_COOKIE_NAME = values["SESSION_COOKIE_NAME"]
    settings.SESSION_COOKIE_AGE = int(values["SESSION_COOKIE_AGE"])
    from .oauth2 import apply_settings

    apply_settings(values)


def current() -> dict:
    values = getattr(_local, "values", None)
    if values is None:
        values = load()
        apply(values)
    return values


def get(name):
    return current()[name]


def refresh() -> dict:
    values = load()
    apply(values)
    return values
