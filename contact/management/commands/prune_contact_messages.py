"""manage.py prune_contact_messages: keep messages only as long as needed. Deletes spam older than
CONTACT_SPAM_KEEP_DAYS (30 by default) and, when CONTACT_KEEP_DAYS is set, every other message
older than that; prints what it deleted. Run it from cron beside send_contact_notifications."""

from datetime import timedelta

from django.conf import settings
from django.core.management.base import BaseCommand
from django.db.models import Q
from django.utils import timezone

from contact import notifications, webhooks
from contact.models import ContactMessage, UsedChallenge


def prune(now=None):
    """Delete what is past its keeping: (spam, other) counts. A message whose mail or webhook is
    still owed is kept whatever its age (its delivery would be lost); the next prune after it
    went out deletes it."""
    now = now or timezone.now()
    spam = ContactMessage.objects.filter(
        status=ContactMessage.Status.SPAM,
        created_at__lt=now - timedelta(days=settings.CONTACT_SPAM_KEEP_DAYS),
    ).delete()[0]
    other = 0
    if settings.CONTACT_KEEP_DAYS is not None:
        owed = Q(pk__in=[])
        if settings.CONTACT_NOTIFY_EMAIL:  # else a mail is never sent, so never owed
            owed |= Q(pk__in=notifications.owed().values("pk"))
        if settings.CONTACT_WEBHOOK_URL:
            owed |= Q(pk__in=webhooks.owed().values("pk"))
        other = (
            ContactMessage.objects.exclude(status=ContactMessage.Status.SPAM)
            .filter(created_at__lt=now - timedelta(days=settings.CONTACT_KEEP_DAYS))
            .exclude(owed)
            .delete()[0]
        )
    UsedChallenge.objects.filter(expires_at__lt=now).delete()  # refused as expired anyway
    return spam, other


class Command(BaseCommand):
    help = "Delete spam older than CONTACT_SPAM_KEEP_DAYS, and other messages older than CONTACT_KEEP_DAYS."

    def handle(self, *args, **options):
        spam, other = prune()
        kept = "kept" if settings.CONTACT_KEEP_DAYS is None else f"after {settings.CONTACT_KEEP_DAYS} days"
        self.stdout.write(
            f"Deleted {spam} spam message(s) older than {settings.CONTACT_SPAM_KEEP_DAYS} days and "
            f"{other} other message(s) ({kept})."
        )
