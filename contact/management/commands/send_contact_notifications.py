"""manage.py send_contact_notifications: mail the owner every message nobody was told about yet.

Run it every few minutes beside the contact service (cron, a systemd timer), with the service's
environment. Exits 1 when a notification failed again, so cron reports it.
"""

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from contact.notifications import send_owed


class Command(BaseCommand):
    help = "Send the notification of every stored contact message that was not sent yet."

    def handle(self, *args, **options):
        if not settings.CONTACT_NOTIFY_EMAIL:
            self.stdout.write("CONTACT_NOTIFY_EMAIL is unset: messages are only stored, nothing to send.")
            return
        sent, failed = send_owed()
        self.stdout.write(f"Sent {sent} contact notification(s).")
        if failed:
            raise CommandError(f"{failed} notification(s) failed again; they stay owed (see the log).")
