"""The owner's review of what the form received (the admin's actions, contact/admin.py).

Marking a message spam only changes its status: what was not sent yet is then never sent.
Marking one not spam makes it owed like a message that just arrived: its mail (and its webhook,
when one is set) is queued in the outbox, and `manage.py send_contact_notifications` sends it,
once, whichever process does. The action sends nothing itself: 40 messages marked with a hung
webhook receiver held the admin's request to gunicorn's 30 s timeout, and it died half-way.
"""

from django.conf import settings
from django.db.models import Q

from . import challenge
from .models import ContactMessage


def mark_spam(messages):
    """Mark `messages` (a queryset) spam; the count that changed."""
    return messages.exclude(status=ContactMessage.Status.SPAM).update(
        status=ContactMessage.Status.SPAM, spam_reason=challenge.MARKED
    )


def mark_not_spam(messages):
    """Mark `messages` not spam, their notifications queued (owed); the count that changed."""
    changed = list(messages.filter(status=ContactMessage.Status.SPAM).values_list("pk", flat=True))
    rows = ContactMessage.objects.filter(pk__in=changed)
    rows.update(status=ContactMessage.Status.HAM, spam_reason="")
    if settings.CONTACT_WEBHOOK_URL:
        rows.filter(Q(webhook_sent_at=None)).update(webhook_owed=True)
    return len(changed)
