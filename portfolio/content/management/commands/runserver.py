from django.conf import settings
from django.contrib.staticfiles.handlers import StaticFilesHandler
from django.contrib.staticfiles.management.commands.runserver import Command as StaticRunserver
from django.utils.autoreload import autoreload_started, file_changed

from portfolio.content.autosync import ContentSyncHandler, content_changed, watch_content
from portfolio.content.schema import migrate
from portfolio.local_hosts import AllowedHostsOnly, ConfinedStaticFilesHandler


class Command(StaticRunserver):
    help = (
        "Start the authoring server: migrates the database, imports the content folder, and "
        "re-imports changed content files before each request; with DEBUG on, a saved content "
        "file, template or static file reloads the open page."
    )

    def run(self, **options):
        autoreload_started.connect(watch_content, dispatch_uid="content_watch")
        file_changed.connect(content_changed, dispatch_uid="content_changed")
        super().run(**options)

    def inner_run(self, *args, **options):
        migrate()
        super().inner_run(*args, **options)

    def get_handler(self, *args, **options):
        handler = super().get_handler(*args, **options)
        if isinstance(handler, StaticFilesHandler):  # DEBUG on: /static/ served from the source folders
            handler = ConfinedStaticFilesHandler(handler.application)
        handler = ContentSyncHandler(handler, settings.CONTENT_DIR, self.stdout)
        return AllowedHostsOnly(handler)
