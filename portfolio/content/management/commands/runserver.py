from django.conf import settings
from django.contrib.staticfiles.management.commands.runserver import Command as StaticRunserver
from django.core.management import call_command

from portfolio.content.autosync import ContentSyncHandler


class Command(StaticRunserver):
    help = (
        "Start the authoring server: migrates the database, imports the content folder, and "
        "re-imports changed content files before each request."
    )

    def inner_run(self, *args, **options):
        call_command("migrate", verbosity=0, interactive=False)
        super().inner_run(*args, **options)

    def get_handler(self, *args, **options):
        return ContentSyncHandler(super().get_handler(*args, **options), settings.CONTENT_DIR, self.stdout)
