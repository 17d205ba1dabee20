"""The owner's review of what the form received (the admin's actions, contact/admin.py).

Marking a message spam only changes its status: what was not sent yet is then never sent.
Marking one not spam makes it owed like a message that just arrived, and sends it through the
outbox at once: the mail (and the webhook, when one is set) goes out once, whichever process
sends it, and what fails stays owed for `manage.py send_contact_notifications`.
"""

import logging

from django.conf import settings
from django.db.models import Q

from . import challenge, notifications, webhooks
from .models import ContactMessage

logger = logging.getLogger(__name__)


def mark_spam(messages):
    """Mark `messages` (a queryset) spam; the count that changed."""
    return messages.exclude(status=ContactMessage.Status.SPAM).update(
        status=ContactMessage.Status.SPAM, spam_reason=challenge.MARKED
    )


def mark_not_spam(messages):
    """Mark `messages` not spam and notify each once; the count that changed."""
    changed = list(messages.filter(status=ContactMessage.Status.SPAM).values_list("pk", flat=True))
    rows = ContactMessage.objects.filter(pk__in=changed)
    rows.update(status=ContactMessage.Status.HAM, spam_reason="")
    if settings.CONTACT_WEBHOOK_URL:
        rows.filter(Q(webhook_sent_at=None)).update(webhook_owed=True)
    for message in rows.order_by("created_at", "id"):
        for tell in (notifications.notify, webhooks.deliver):
            try:
                tell(message)
            except Exception:
                logger.exception("Contact message %s marked not spam, but what followed failed", message.pk)
    return len(changed)
