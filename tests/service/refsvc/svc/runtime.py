"""Settings that change while the service runs.

They live in the database so that every worker process sees a change on its
next request. Each request applies the ones Django itself reads (session cookie
name and age). A change also writes a new token into the instance's
``runtime-settings.token`` once it is committed, and a process loads the settings
from the database again only when that token is not the one it loaded them under:
a query on every request cost more than many of the requests themselves."""
import os
import threading
import uuid

from django.conf import settings
from django.db import transaction

_local = threading.local()
_cache_lock = threading.Lock()
_cache = {"token": None, "values": None}


def _token_path():
    return os.path.join(str(settings.INSTANCE_DIR), "runtime-settings.token")


def _read_token():
    """The current token; the first reader of an instance makes one."""
    path = _token_path()
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        pass
    except OSError:
        return None
    else:
        with os.fdopen(fd, "w", encoding="ascii") as f:
            f.write(uuid.uuid4().hex)
    try:
        with open(path, encoding="ascii") as f:
            return f.read().strip() or None
    except OSError:
        return None


def _write_token():
    _local.writing = False
    path = _token_path()
    temp = "%s.%d.%d" % (path, os.getpid(), threading.get_ident())
    with open(temp, "w", encoding="ascii") as f:
        f.write(uuid.uuid4().hex)
    os.replace(temp, path)


def changed(**_kwargs):
    """A runtime setting was saved or deleted (post_save and post_delete of RuntimeSetting):
    the new token is written once the change is committed, so that no process loads the
    settings before the change is there and keeps them under the new token. Until then, this
    thread reads them from the database (its own transaction sees the change)."""
    _local.writing = True
    transaction.on_commit(_write_token)


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


def refresh(new_request=False) -> dict:
    """The settings as they are now (the token is read before the database: a change
    committed in between gives a new token, so what is loaded is never kept under a stale one)."""
    if new_request:
        _local.writing = False
    writing = getattr(_local, "writing", False)
    token = None if writing else _read_token()
    with _cache_lock:
        if token is not None and token == _cache["token"]:
            apply(_cache["values"])
            return _cache["values"]
    values = load()
    apply(values)
    if token is not None:
        with _cache_lock:
            _cache.update(token=token, values=values)
    return values
