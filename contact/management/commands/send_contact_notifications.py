"""manage.py send_contact_notifications: mail the owner every message nobody was told about yet,
and post every webhook no receiver took yet (contact/webhooks.py). Never for spam; a message whose
mail went out is never mailed again while its webhook is retried, and the other way round.

Run it every few minutes beside the contact service (cron, a systemd timer), with the service's
environment: that sets the pace of the retries. Exits 1 when a mail or a webhook failed again, so
cron reports it.
"""

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from contact import notifications, webhooks


class Command(BaseCommand):
    help = "Send the notifications (mail, webhook) of stored contact messages that were not sent yet."

    def handle(self, *args, **options):
        failed = 0
        if settings.CONTACT_NOTIFY_EMAIL:
            sent, failed = notifications.send_owed()
            self.stdout.write(f"Sent {sent} contact notification(s).")
        else:
            self.stdout.write("CONTACT_NOTIFY_EMAIL is unset: messages are only stored, nothing to send.")
        if settings.CONTACT_WEBHOOK_URL:
            posted, webhook_failed = webhooks.send_owed()
            self.stdout.write(f"Posted {posted} contact webhook(s).")
            failed += webhook_failed
        if failed:
            raise CommandError(f"{failed} notification(s) failed again; they stay owed (see the log).")
