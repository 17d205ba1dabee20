"""manage.py export_contact_messages --format csv|json [--status spam|ham|all]: every stored
message with every field, oldest first, to standard output (CSV with a header row; JSON, one
array). The owner's copy of what the form received, e.g. before pruning."""

import csv
import json

from django.core.management.base import BaseCommand

from contact.models import ContactMessage

# Every field of a message, in the model's order (the hidden bookkeeping ones too).
FIELDS = [field.name for field in ContactMessage._meta.concrete_fields]
# A cell a spreadsheet would read as a formula (`=HYPERLINK(...)`, `+cmd|...`, `@SUM`, and the
# tab and carriage return that can precede one): OWASP's CSV injection advice.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def cell(value):
    """A CSV cell: empty for None; text a spreadsheet would run as a formula prefixed with a
    single quote, so that it shows as the text it is (the JSON export keeps values as sent)."""
    if value is None:
        return ""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def row(message):
    """{field: value}, times in ISO 8601 (UTC), empty ones as None."""
    values = {}
    for name in FIELDS:
        value = getattr(message, name)
        values[name] = value.isoformat() if hasattr(value, "isoformat") else value
    return values


class Command(BaseCommand):
    help = "Write every stored contact message (every field) as CSV or JSON to standard output."

    def add_arguments(self, parser):
        parser.add_argument("--format", choices=["csv", "json"], required=True)
        parser.add_argument("--status", choices=["spam", "ham", "all"], default="all")

    def handle(self, *args, **options):
        messages = ContactMessage.objects.order_by("created_at", "id")
        if options["status"] != "all":
            messages = messages.filter(status=options["status"])
        rows = (row(message) for message in messages.iterator())
        if options["format"] == "json":
            self.stdout.write(json.dumps(list(rows), ensure_ascii=False, indent=2))
            return
        writer = csv.DictWriter(self.stdout, fieldnames=FIELDS, lineterminator="\r\n")
        writer.writeheader()
        for values in rows:
            writer.writerow({key: cell(value) for key, value in values.items()})
