"""The webhook: every message that is not spam, POSTed once as signed JSON to CONTACT_WEBHOOK_URL.

Like the mail (contact/notifications.py) and apart from it: a message stored while the URL is set
owes its webhook (`webhook_owed`) until a receiver answered 2xx. The process that stored it posts
it once the sender was answered (its delivery thread, contact/delivery.py), for at most
CONTACT_WEBHOOK_TIMEOUT seconds in all; whatever failed (5xx, refused, timeout) is tried again by
`manage.py send_contact_notifications`, which never mails the owner again for it. A sender claims
the row first (`webhook_since`), so two processes never post it at once. A receiver that took a
post but answered too late gets it again: the `id` lets it drop the second.

The body is `{"id", "name", "email", "message", "received"}`; `X-Signature-256: sha256=<hex>` is the
HMAC-SHA256 of those exact bytes with CONTACT_WEBHOOK_SECRET (docs/contact.md shows the check).
"""

import hashlib
import hmac
import http.client
import json
import logging
import socket
import threading
import time
from datetime import timedelta
from urllib.parse import urlsplit

from django.conf import settings
from django.utils import timezone

from . import outbox
from .models import ContactMessage

logger = logging.getLogger(__name__)


class Refused(Exception):
    """The receiver answered, but not 2xx."""


def owed():
    """The messages whose webhook no receiver took yet, oldest first (spam never is)."""
    return ContactMessage.objects.filter(
        webhook_owed=True, webhook_sent_at=None, status=ContactMessage.Status.HAM
    ).order_by("created_at", "id")


def claim(pk):
    """True when this process may post message `pk` (and now must). A claim older than a minute
    belonged to a process that died: a post takes at most CONTACT_WEBHOOK_TIMEOUT."""
    lifetime = timedelta(seconds=max(60, 10 * settings.CONTACT_WEBHOOK_TIMEOUT))
    return outbox.claim(owed(), pk, "webhook_since", lifetime)


def deliver(message):
    """Post a message just stored (from the delivery thread), unless another process is on it; True
    when this call delivered it. A failure is logged and leaves it owed."""
    if not settings.CONTACT_WEBHOOK_URL:
        return False
    return claim(message.pk) and send(message)


def body(message):
    return json.dumps(
        {
            "id": message.pk,
            "name": message.name,
            "email": message.email,
            "message": message.message,
            "received": message.created_at.isoformat(),
        },
        ensure_ascii=False,
    ).encode()


def signature(data):
    return "sha256=" + hmac.new(settings.CONTACT_WEBHOOK_SECRET.encode(), data, hashlib.sha256).hexdigest()


def send(message):
    """Post a claimed message; record it, or release the claim for a later try."""
    try:
        post(body(message))
    except Exception as exc:
        logger.warning("Contact message %s stored, but its webhook failed: %s", message.pk, exc)
        outbox.record(ContactMessage.objects.filter(pk=message.pk), webhook_since=None)
        return False
    outbox.record(
        ContactMessage.objects.filter(pk=message.pk),
        webhook_sent_at=timezone.now(),
        webhook_since=None,
        webhook_owed=False,
    )
    return True


def post(data):
    """POST `data` to the receiver; Refused unless it answers 2xx, OSError when it cannot be
    reached or takes longer than CONTACT_WEBHOOK_TIMEOUT in all: one deadline for the name's
    lookup (which no socket timeout bounds), the connection and the answer (the socket's timeout
    bounds each read; the timer a receiver that dribbles its answer)."""
    url = urlsplit(settings.CONTACT_WEBHOOK_URL)
    deadline = time.monotonic() + settings.CONTACT_WEBHOOK_TIMEOUT
    kind = http.client.HTTPSConnection if url.scheme == "https" else http.client.HTTPConnection
    port = url.port or (443 if url.scheme == "https" else 80)
    address = resolve(url.hostname, port, settings.CONTACT_WEBHOOK_TIMEOUT)
    remaining = deadline - time.monotonic()
    if remaining <= 0:
        raise TimeoutError(f"looking up {url.hostname} took the whole CONTACT_WEBHOOK_TIMEOUT")
    # The address just looked up, not the name again; the Host header and TLS still name the host.
    connection = kind(url.hostname, port, timeout=remaining)
    connection._create_connection = lambda _, timeout, source: socket.create_connection(
        address, timeout, source
    )
    timer = threading.Timer(remaining, cut, [connection])
    timer.start()
    try:
        connection.request(
            "POST",
            (url.path or "/") + (f"?{url.query}" if url.query else ""),
            body=data,
            headers={
                "Content-Type": "application/json",
                "User-Agent": "portfolio-contact-webhook",
                "X-Signature-256": signature(data),
            },
        )
        status = connection.getresponse().status
    finally:
        timer.cancel()
        connection.close()
    if not 200 <= status < 300:
        raise Refused(f"the receiver answered {status}")


def resolve(host, port, timeout):
    """(address, port) of `host`, looked up in a thread of its own so that the lookup has a
    deadline: TimeoutError past `timeout` (the abandoned lookup ends on its own, sending nothing)."""
    found = {}

    def lookup():
        try:
            found["addresses"] = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
        except OSError as exc:
            found["error"] = exc

    thread = threading.Thread(target=lookup, daemon=True, name="webhook-lookup")
    thread.start()
    thread.join(timeout)
    if thread.is_alive():
        raise TimeoutError(f"looking up {host} took over {timeout} s")
    if "error" in found:
        raise found["error"]
    return found["addresses"][0][4][:2]


def cut(connection):
    """The deadline: end the connection, so the read waiting on it fails at once."""
    sock = connection.sock
    if sock is not None:
        try:
            sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass


def send_owed():
    """Post every owed webhook no other process is posting: (sent, failed) counts."""
    if not settings.CONTACT_WEBHOOK_URL:
        return 0, 0
    return outbox.send_owed(owed(), claim, send)
