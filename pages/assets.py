"""/static/<path>: the project's static files, under content-hashed names.

The site's own files (pages/static, contact/static, ...) are hashed by Django's
ManifestStaticFilesStorage logic (`pages/site.css` -> `pages/site.8b2565fc3fc3.css`, with url()
references inside CSS rewritten to the hashed names too), held in memory: no collectstatic, no
folder to keep in sync. Pages link the hashed names whenever DEBUG is off (the build always), so a
host can cache /static/* for a year (`immutable`): a changed file gets a new name. With DEBUG on
(`make serve`), pages link the plain names, served straight from the source folders, so an edited
stylesheet shows on reload. Both names are served with DEBUG on or off; the export writes only the
hashed ones. Files of installed packages (the admin, DRF) are served plain, never exported.
"""

import functools
import mimetypes
import posixpath
from pathlib import Path

from django.conf import settings
from django.contrib.staticfiles import finders
from django.contrib.staticfiles.finders import BaseFinder
from django.contrib.staticfiles.storage import ManifestFilesMixin
from django.contrib.staticfiles.views import serve as staticfiles_serve
from django.core.exceptions import SuspiciousFileOperation
from django.core.files.storage import InMemoryStorage
from django.http import Http404, HttpResponse
from django.templatetags.static import static as django_static

# collectstatic's default ignore patterns.
IGNORE_PATTERNS = ["CVS", ".*", "*~"]


class HashedStorage(ManifestFilesMixin, InMemoryStorage):
    """ManifestStaticFilesStorage's hashing and CSS rewriting, over files held in memory."""


def favicon(request):
    """/favicon.ico: the icon old browsers, feed readers and crawlers fetch without a <link>."""
    return serve(request, "pages/favicon.ico")


def is_first_party(location):
    """A static folder of this project (pages/static, contact/static, ...), not of an installed
    package such as the admin or DRF, whose files the public site does not need."""
    location = Path(location).resolve()
    return location.is_relative_to(settings.BASE_DIR) and "site-packages" not in location.parts


def first_party_files():
    """{name: (storage, path)} of every first-party static file the finders see."""
    found = {}
    for finder in finders.get_finders():
        for path, storage in finder.list(IGNORE_PATTERNS):
            name = Path(path).as_posix()
            if is_first_party(storage.location) and name not in found:
                found[name] = (storage, path)
    return found


@functools.cache
def hashed_storage():
    """The first-party files, copied into memory and post-processed as collectstatic would.
    Computed once per process: restart a DEBUG-off server after editing a static file."""
    storage = HashedStorage()
    found = first_party_files()
    for name, (source, path) in found.items():
        with source.open(path) as handle:
            storage._save(name, handle)
    for _name, _hashed, processed in storage.post_process(found):
        if isinstance(processed, Exception):
            raise processed  # e.g. a url() in a stylesheet naming a file that does not exist
    storage.source_of = {hashed: name for name, hashed in storage.hashed_files.items()}
    return storage


class HashedNameFinder(BaseFinder):
    """Finds `pages/site.<hash>.css` as its source file, for the servers that serve /static/
    through the finders before any URL route (runserver's and the test live server's static
    handler). Only a stylesheet's url() names differ from the source: the plain names are served
    too, so its references still load. The site's own route (serve below) answers the exact bytes."""

    def check(self, **kwargs):
        return []

    def find(self, path, find_all=False, **kwargs):
        source = hashed_storage().source_of.get(path)
        found = finders.find(source) if source else None
        if not found:
            return []  # as Django's finders answer "nothing", find_all or not
        return [found] if find_all else found

    def list(self, ignore_patterns):
        return []


def url(path):
    """The address of static file `path` in a page: hashed when DEBUG is off, except on the contact
    service, whose few pages (errors, thanks) link the plain names that WhiteNoise serves there."""
    if settings.DEBUG or settings.CONTACT_SERVICE or path not in hashed_storage().hashed_files:
        return django_static(path)
    return settings.STATIC_URL + hashed_storage().hashed_files[path]


def serve(request, path):
    storage = hashed_storage()
    name = posixpath.normpath(path).lstrip("/")
    if name in storage.source_of:
        with storage.open(name) as handle:
            body = handle.read()
        content_type, encoding = mimetypes.guess_type(name)
        response = HttpResponse(body, content_type=content_type or "application/octet-stream")
        if encoding:
            response.headers["Content-Encoding"] = encoding
        return response
    if name.startswith(".."):
        raise Http404(path)
    try:
        return staticfiles_serve(request, path, insecure=True)
    except SuspiciousFileOperation:  # a path the finders refuse to join: nothing there
        raise Http404(path) from None


def project_static_files():
    """Every first-party static file under its hashed name, for the export."""
    return sorted(hashed_storage().hashed_files.values())
