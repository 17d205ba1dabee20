"""Telling the owner about a stored message: once, and never lost.

The process that stored a message mails it once the sender was answered (its delivery thread,
contact/delivery.py). Whatever it could not send (the mail server down, the worker killed mid-send)
stays owed: `notified_at` is empty, and `manage.py send_contact_notifications` (run every few
minutes by cron or a systemd timer) sends it.

Each sender first claims the message (`notifying_since`, one UPDATE that only one process can win),
so the delivery thread and the command never both send it. A claim is released when the send fails
and taken over once it is stale: its process died without saying how the send went. Only then can
a mail go out twice (sent, then the process died before recording it); every copy carries the same
Message-ID, so mail clients show one.
"""

import logging
from datetime import timedelta
from urllib.parse import urlsplit

from django.conf import settings
from django.core.mail import EmailMessage
from django.utils import timezone

from . import outbox
from .models import ContactMessage

logger = logging.getLogger(__name__)


def claim_lifetime():
    """How long a send may take before its claim is taken over: an SMTP send is a handful of
    exchanges, each bounded by EMAIL_TIMEOUT, and gunicorn kills a request long before this."""
    return timedelta(seconds=max(60, 10 * settings.EMAIL_TIMEOUT))


def owed():
    """The messages nobody was told about yet, oldest first (spam never is)."""
    return ContactMessage.objects.filter(notified_at=None, status=ContactMessage.Status.HAM).order_by(
        "created_at", "id"
    )


def claim(pk):
    """True when this process may send message `pk`'s notification (and now must)."""
    return outbox.claim(owed(), pk, "notifying_since", claim_lifetime())


def notify(message):
    """Mail the owner about a message just stored (from the delivery thread), unless another
    process is on it; True when this call sent it. A failure is logged and leaves it owed."""
    if not settings.CONTACT_NOTIFY_EMAIL:
        logger.warning("Contact message %s stored; nobody told (CONTACT_NOTIFY_EMAIL unset)", message.pk)
        return False
    return claim(message.pk) and send(message)


def send(message):
    """Send a claimed notification; record it, or release the claim for a later try."""
    try:
        email(message).send()
    except Exception:
        logger.exception("Contact message %s stored, but its notification email failed", message.pk)
        outbox.record(ContactMessage.objects.filter(pk=message.pk), notifying_since=None)
        return False
    outbox.record(
        ContactMessage.objects.filter(pk=message.pk), notified_at=timezone.now(), notifying_since=None
    )
    return True


def email(message):
    """The notification. Every header is one line: the name's whitespace (line breaks included)
    is folded to spaces, and the form refuses control characters in the address."""
    domain = urlsplit(settings.SITE_URL).hostname or "localhost"
    stamp = message.created_at.strftime("%Y%m%d%H%M%S%f")
    return EmailMessage(
        subject=f"Contact form: {' '.join(message.name.split())}",
        body=f"From: {message.name} <{message.email}>\nOrigin: {message.origin}\n\n{message.message}\n",
        to=[settings.CONTACT_NOTIFY_EMAIL],
        reply_to=[message.email],
        headers={"Message-ID": f"<contact-{message.pk}-{stamp}@{domain}>"},
    )


def send_owed():
    """Send every owed notification that no other process is sending: (sent, failed) counts."""
    return outbox.send_owed(owed(), claim, send)
