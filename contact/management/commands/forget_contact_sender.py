"""manage.py forget_contact_sender EMAIL: a sender's request to be forgotten. Deletes every stored
message from that address, in any case (Ada@Example.com is ada@example.com, Ü is ü), and prints
the count."""

from django.core.management.base import BaseCommand, CommandError

from contact.models import ContactMessage


class Command(BaseCommand):
    help = "Delete every contact message sent from EMAIL (any case); print how many."

    def add_arguments(self, parser):
        parser.add_argument("email")

    def handle(self, *args, **options):
        email = options["email"].strip()
        if "@" not in email:
            raise CommandError(f"{options['email']!r} is not an email address.")
        # Compared in Python: SQLite's case-insensitive match folds ASCII letters only.
        wanted = email.casefold()
        matches = [pk for pk, address in ContactMessage.objects.values_list("pk", "email").iterator()
                   if address.casefold() == wanted]  # fmt: skip
        deleted = ContactMessage.objects.filter(pk__in=matches).delete()[0] if matches else 0
        self.stdout.write(f"Deleted {deleted} message(s) from {email}.")
