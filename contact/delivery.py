"""Answered at once, delivered after: the mail and the webhook of a message just stored are sent by
one background thread of the process that stored it, never inside the sender's request.

A request only hands the message's id over, once its row is committed (`transaction.on_commit`),
and is answered; the thread (started on the first hand-over, a daemon) takes the ids one at a time
and delivers each through the outbox (contact/outbox.py): it claims the mail and the webhook first,
so a message is sent once whichever process gets to it, the cron's
`manage.py send_contact_notifications` included. A mail server that accepts and never answers
then holds this thread, for EMAIL_TIMEOUT, and no gunicorn worker: the service keeps answering.

Nothing here has to survive: the row is the record. What the thread could not send stays owed;
what it had not reached when its process ended (a restart, a crash, more than QUEUE_SIZE waiting)
was never claimed; a claim whose process died goes stale. `send_contact_notifications` sends all
of it, once. The same code runs under gunicorn (one thread per worker, started after the fork),
the authoring server and the preview.
"""

import logging
import os
import threading
import time
from collections import deque

from django.db import OperationalError, connections, transaction

from . import notifications, webhooks
from .models import ContactMessage

logger = logging.getLogger(__name__)

# Seconds between tries when SQLite is locked by another writer (the request storing the next
# message): each try claims first, so none sends twice.
LOCKED_WAITS = (0.05, 0.2, 1.0)

# Ids waiting for the thread, at most (each a message's two sends, each up to its timeout). Past
# it a message is left owed for send_contact_notifications.
QUEUE_SIZE = 100

_lock = threading.Lock()
_courier = None


def after_commit(message):
    """Deliver `message` (just stored, not spam) once its row is committed, after the answer."""
    transaction.on_commit(lambda: hand_over(message.pk))


def hand_over(pk):
    """Queue message `pk` for this process's thread; past QUEUE_SIZE it stays owed (logged)."""
    if not courier().take(pk):
        logger.warning(
            "Contact message %s stored; %s wait already: left to the retry command", pk, QUEUE_SIZE
        )


def drain(timeout):
    """Wait until everything handed over in this process was tried; False after `timeout` seconds."""
    with _lock:
        current = _courier
    return current is None or current.pid != os.getpid() or current.wait_idle(timeout)


def courier():
    """This process's courier, started now if it has none: a process forked from one that had a
    thread (gunicorn's --preload) has its queue but not its thread."""
    global _courier
    with _lock:
        if _courier is None or _courier.pid != os.getpid() or not _courier.thread.is_alive():
            _courier = Courier()
        return _courier


def deliver(pk):
    """The mail, then the webhook, of message `pk`, each unless another process holds its claim or
    sent it already (or the message went meanwhile: forgotten, marked spam)."""
    message = ContactMessage.objects.filter(pk=pk).first()
    if message is None:
        return
    for tell in (notifications.notify, webhooks.deliver):
        for wait in (*LOCKED_WAITS, None):
            try:
                tell(message)
            except OperationalError as exc:
                if wait is not None and "locked" in str(exc):
                    time.sleep(wait)  # SQLite's writer lock, held by a request for a moment
                    continue
                logger.exception("Contact message %s stored, but what followed failed", pk)
            except Exception:
                logger.exception("Contact message %s stored, but what followed failed", pk)
            break


class Courier:
    """One daemon thread and the ids it has to deliver, one at a time."""

    def __init__(self):
        self.pid = os.getpid()
        self.waiting = deque()
        self.busy = False
        self.changed = threading.Condition()
        self.thread = threading.Thread(target=self.run, name="contact-delivery", daemon=True)
        self.thread.start()

    def take(self, pk):
        with self.changed:
            if len(self.waiting) >= QUEUE_SIZE:
                return False
            self.waiting.append(pk)
            self.changed.notify_all()
            return True

    def wait_idle(self, timeout):
        with self.changed:
            return self.changed.wait_for(lambda: not self.waiting and not self.busy, timeout)

    def run(self):
        while True:
            with self.changed:
                self.busy = False
                self.changed.notify_all()
                self.changed.wait_for(lambda: self.waiting)
                pk = self.waiting.popleft()
                self.busy = True
            try:
                deliver(pk)
            except Exception:  # the database, say: the message stays owed; the thread goes on
                logger.exception("Contact message %s stored, but what followed failed", pk)
            finally:
                # This thread's connections, as a request's end closes a request's: none is kept
                # open while the thread waits.
                connections.close_all()
