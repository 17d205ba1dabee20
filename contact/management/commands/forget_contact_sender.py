"""manage.py forget_contact_sender EMAIL: a sender's request to be forgotten. Deletes every stored
message from that address in any case and Unicode form (Ada@Example.com is ada@example.com, Ü is
ü however it is composed), and every admin log entry naming it (contact/forget.py); prints the
counts."""

from django.core.management.base import BaseCommand, CommandError

from contact import forget


class Command(BaseCommand):
    help = (
        "Delete every contact message sent from EMAIL (any case or Unicode form) and the admin "
        "log's entries naming it."
    )

    def add_arguments(self, parser):
        parser.add_argument("email")

    def handle(self, *args, **options):
        email = options["email"].strip()
        if "@" not in email:
            raise CommandError(f"{options['email']!r} is not an email address.")
        deleted, entries = forget.forget(email)
        self.stdout.write(f"Deleted {deleted} message(s) from {email}.")
        if entries:
            self.stdout.write(f"Deleted {entries} admin log entries about them or naming the address.")
