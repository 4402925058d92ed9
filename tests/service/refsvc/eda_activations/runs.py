"""An activation's runs, as eda-server's activation manager moves their statuses
(``aap_eda/services/activation/activation_manager.py``, ``status_manager.py``), without
ansible-rulebook: the reference service starts no container.

- start (an enabled activation made, ``enable/``): the activation is pending; then, as EDA's
  worker does, an instance is made ``starting`` (the activation too) and, where EDA would wait
  for the container, both are ``running`` at once, their ``status_message`` saying that
  nothing runs (``NOT_RUN``), and the instance's log says so;
- stop (``disable/``): the latest instance ``stopping`` then ``stopped`` (``ended_at``), the
  activation ``stopped`` with "Stop requested by user.";
- restart (``restart/``): a stop, the activation ``pending`` with "Restart requested by user. ",
  then a start of a new instance and ``restart_count`` one more (EDA counts a restart the user
  asks for, as its ``start(is_restart=True)`` does).

The start runs in a thread once the request's transaction has committed (EDA's is a task of
its workers): the request answers while the activation is pending.
"""

import threading

from django.db import close_old_connections, connection, transaction
from django.utils import timezone

from .models import (
    ENDED, PENDING, RUNNING, STARTING, STATUS_MESSAGES, STOPPED, STOPPING, Activation, RulebookProcess,
    RulebookProcessLog,
)

NOT_RUN = "The reference service does not run rulebooks: no ansible-rulebook was started, the status is simulated."
STOP_MESSAGE = "Stop requested by user."
RESTART_MESSAGE = "Restart requested by user. "


def set_status(activation, status, message=None):
    activation.status = status
    activation.status_message = message or STATUS_MESSAGES.get(status)
    activation.status_updated_at = timezone.now()
    Activation.objects.filter(pk=activation.pk).update(status=activation.status,
                                                       status_message=activation.status_message,
                                                       status_updated_at=activation.status_updated_at)


def set_instance_status(instance, status, message=None):
    instance.status = status
    instance.status_message = message or STATUS_MESSAGES.get(status)
    instance.updated_at = timezone.now()
    if status in ENDED:
        instance.ended_at = instance.updated_at
    RulebookProcess.objects.filter(pk=instance.pk).update(status=instance.status,
                                                             status_message=instance.status_message,
                                                             updated_at=instance.updated_at,
                                                             ended_at=instance.ended_at)


def write_log(instance, text):
    now = timezone.now()
    RulebookProcessLog.objects.create(activation_instance=instance, log=text, log_timestamp=int(now.timestamp()),
                                         log_created_at=now)


def _start(activation_id, is_restart):
    try:
        with transaction.atomic():
            activation = Activation.objects.filter(pk=activation_id).first()
            if activation is None or not activation.is_enabled:
                return
            latest = activation.latest_instance()
            if latest is not None and latest.status in (STARTING, RUNNING):
                return
            instance = RulebookProcess.objects.create(
                name=activation.name, status=STARTING, status_message=STATUS_MESSAGES[STARTING],
                git_hash=activation.git_hash, activation=activation, organization_id=activation.organization_id,
                queue_name="activation")
            set_status(activation, STARTING)
            if is_restart:
                Activation.objects.filter(pk=activation.pk).update(restart_count=activation.restart_count + 1)
        with transaction.atomic():
            write_log(instance, NOT_RUN)
            set_instance_status(instance, RUNNING, NOT_RUN)
            set_status(activation, RUNNING, NOT_RUN)
    finally:
        close_old_connections()
        connection.close()


def start(activation, is_restart=False):
    """The activation (enabled, saved) pending, and started once the transaction commits."""
    set_status(activation, PENDING, RESTART_MESSAGE if is_restart else None)

    def run():
        threading.Thread(target=_start, args=(activation.pk, is_restart), daemon=True,
                         name="eda-activation-%d" % activation.pk).start()

    transaction.on_commit(run)


def stop(activation, message=STOP_MESSAGE):
    """The latest instance stopped (stopping first), the activation stopped."""
    latest = activation.latest_instance()
    if latest is not None and latest.status not in ENDED:
        set_instance_status(latest, STOPPING)
        set_instance_status(latest, STOPPED, message)
    set_status(activation, STOPPED, message)


def restart(activation):
    stop(activation)
    start(activation, is_restart=True)

