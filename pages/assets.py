"""/static/<path>: the files django.contrib.staticfiles' finders find, served with DEBUG on or off
(the authoring server and the static export both go through this view)."""

from pathlib import Path

from django.conf import settings
from django.contrib.staticfiles import finders
from django.contrib.staticfiles.views import serve as staticfiles_serve

# collectstatic's default ignore patterns.
IGNORE_PATTERNS = ["CVS", ".*", "*~"]


def serve(request, path):
    return staticfiles_serve(request, path, insecure=True)


def favicon(request):
    """/favicon.ico: the icon old browsers, feed readers and crawlers fetch without a <link>."""
    return serve(request, "pages/favicon.ico")


def is_first_party(location):
    """A static folder of this project (pages/static, contact/static, ...), not of an installed
    package such as the admin or DRF, whose files the public site does not need."""
    location = Path(location).resolve()
    return location.is_relative_to(settings.BASE_DIR) and "site-packages" not in location.parts


def project_static_files():
    """Every first-party static file, for the export (the contact app's script included)."""
    found = set()
    for finder in finders.get_finders():
        for path, storage in finder.list(IGNORE_PATTERNS):
            if is_first_party(storage.location):
                found.add(Path(path).as_posix())
    return sorted(found)
