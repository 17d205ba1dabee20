import sys
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from portfolio.content.importer import import_content
from portfolio.content.languages import catalog_warnings
from portfolio.content.rules import ContentInvalid
from portfolio.content.schema import migrate
from portfolio.progress import Progress


class Command(BaseCommand):
    help = (
        "Validate every file of the content folder, then sync the database to it in one "
        "transaction. On any error nothing is imported and every problem is listed."
    )

    def add_arguments(self, parser):
        parser.add_argument("--path", type=Path, help="Content folder (default: CONTENT_DIR, i.e. content/).")

    def handle(self, *args, path=None, **options):
        migrate()
        content_dir = path or settings.CONTENT_DIR
        try:
            result = import_content(content_dir, progress=Progress(sys.stderr, "parsing"))
        except ContentInvalid as exc:
            for error in exc.errors:
                self.stderr.write(str(error))
            raise CommandError(
                f"{len(exc.errors)} problem(s) in {content_dir}; nothing was imported."
            ) from None
        for warning in catalog_warnings():  # a language whose pages show English labels
            self.stderr.write(f"warning: {warning}")
        self.stdout.write(result.summary())
