"""Keep the authoring server in step with the content folder.

`manage.py runserver` wraps its WSGI handler in ContentSyncHandler: before each request it asks
whether anything in the content folder was added, edited or deleted and, if so, runs the importer,
which re-parses only the files whose bytes changed. An invalid edit is shown as the importer's list
of problems instead of the page (ContentErrorMiddleware); the database keeps the last valid content.

The lists (`/articles`, `/projects` and their API documents) are answered from memory until the
next import that changes something: at 10,000 articles a list takes tens of milliseconds to render,
the same bytes every time while the content stays as it is.

Asking is cheap: on Linux the kernel queues a change event (inotify) before the writer's call
returns, so one non-blocking read tells, exactly, with no file touched. Elsewhere the folder is
stat'ed on every request.
"""

import os
import threading
from pathlib import Path

import inotify_simple
from django.conf import settings

from . import media, schedule
from .importer import SCHEMAS, SINGLETONS, import_content
from .middleware import PROBLEM_KEY
from .rules import ContentInvalid


def stat_of(path):
    """(mtime, size) of `path`, or None when it cannot be stat'ed (gone, a link loop, unreadable):
    the importer names that problem; noticing the change is all this needs."""
    try:
        stat = os.stat(path)
    except OSError:
        return None
    return stat.st_mtime_ns, stat.st_size


def snapshot(content_dir):
    """{path: (mtime, size)} of everything the importer reads: cheap enough for every request."""
    entries = {name: stat_of(os.path.join(content_dir, name)) for name in SINGLETONS}
    for collection in SCHEMAS:
        try:
            with os.scandir(os.path.join(content_dir, collection)) as scan:
                for entry in scan:
                    entries[entry.path] = stat_of(entry.path)
        except OSError:
            entries[collection] = None
    for folder, _dirs, names in os.walk(os.path.join(content_dir, media.FOLDER)):
        for name in names:
            path = os.path.join(folder, name)
            entries[path] = stat_of(path)
    return entries


def media_folders(content_dir):
    """media/ and every folder under it (inotify watches one folder, not its subfolders)."""
    return [folder for folder, _dirs, _names in os.walk(os.path.join(content_dir, media.FOLDER))]


class Watcher:
    """changed(): has anything the importer reads changed since the last call? (True at first.)
    Then `paths`: the content files that changed (relative paths, for import_content's `only`),
    or None when that is not known (the first call, a folder or a media file changed, the
    kernel's queue overflowed, no inotify)."""

    FLAGS = inotify_simple.flags
    MASK = (
        FLAGS.CREATE | FLAGS.DELETE | FLAGS.MODIFY | FLAGS.CLOSE_WRITE | FLAGS.ATTRIB
        | FLAGS.MOVED_FROM | FLAGS.MOVED_TO | FLAGS.DELETE_SELF | FLAGS.MOVE_SELF
    )  # fmt: skip

    def __init__(self, content_dir, use_inotify=True):
        self.content_dir = str(content_dir)
        self.inotify = None
        self.seen = None
        self.paths = None
        self.folders = {}  # {watch descriptor: "" (the content folder), "projects" or "articles"}
        if use_inotify:
            try:
                self.inotify = inotify_simple.INotify()
            except OSError:  # not Linux, or no inotify instances left: stat instead
                self.inotify = None

    def watch(self):
        folders = [
            ("", self.content_dir),
            *((name, os.path.join(self.content_dir, name)) for name in SCHEMAS),
        ]
        folders += [(None, folder) for folder in media_folders(self.content_dir)]
        self.folders = {}
        for rel, folder in folders:
            try:
                wd = self.inotify.add_watch(folder, self.MASK)  # watching a folder again is a no-op
            except OSError:
                continue  # not there (yet): its creation is an event of the content folder
            self.folders[wd] = rel

    def changed(self):
        self.paths = None
        if self.inotify is None:
            current = snapshot(self.content_dir)
            changed, self.seen = current != self.seen, current
            return changed
        first, self.seen = self.seen is None, True
        events = self.inotify.read(timeout=0)
        if not first:
            self.paths = self.changed_files(events)
        if first or events:
            self.watch()  # a collection folder may have been created, or the folder replaced
        return first or bool(events)

    def changed_files(self, events):
        """The content files `events` name, or None if they may concern more than files."""
        paths = set()
        special = self.FLAGS.Q_OVERFLOW | self.FLAGS.ISDIR | self.FLAGS.IGNORED
        for event in events:
            folder = self.folders.get(event.wd)
            if folder is None or not event.name or event.mask & special:
                return None  # the media folder, a folder itself, an overflow, a watch gone
            if folder == "" and event.name not in SINGLETONS:
                return None  # a collection or media folder created, moved or deleted
            paths.add(f"{folder}/{event.name}" if folder else event.name)
        return paths


# Pages that show every item and depend on nothing but the content and the code (a code change
# restarts the server). Cached per path, query string and Accept header.
CACHED_PATHS = {"/", "/articles", "/projects", "/api/v1/articles", "/api/v1/projects",
                "/api/v1/articles.json", "/api/v1/projects.json"}  # fmt: skip


class ContentSyncHandler:
    def __init__(self, application, content_dir, stdout):
        self.application = application
        self.content_dir = str(content_dir)
        self.watcher = Watcher(content_dir)
        self.stdout = stdout
        self.lock = threading.Lock()
        self.problem = None
        self.cache = {}  # (path, query, accept) -> (generation, status, headers, body)
        self.generation = 0  # bumped by every import that changed something
        self.day = schedule.build_date()  # the date scheduled articles were last judged by

    def sync(self):
        with self.lock:
            changed, day = self.watcher.changed(), schedule.build_date()
            if not changed and day == self.day:
                return
            # A new day may bring a scheduled article due: the import looks (schedule.shifted).
            self.day = day
            # After an invalid edit every file is looked at again: it may not be the only one.
            only = (self.watcher.paths if changed else []) if self.problem is None else None
            try:
                result = import_content(self.content_dir, workers=1, only=only)
            except ContentInvalid as exc:
                self.problem = exc
                self.stdout.write(f"Content not imported:\n{exc}\n")
            else:
                self.problem = None
                if result.changed:
                    self.generation += 1
                    self.cache.clear()
                    self.stdout.write(f"Content: {result.summary()}\n")

    def __call__(self, environ, start_response):
        self.sync()
        if self.problem is not None:  # ContentErrorMiddleware answers with the list
            environ[PROBLEM_KEY] = self.problem
            return self.application(environ, start_response)
        if environ.get("REQUEST_METHOD") != "GET" or environ.get("PATH_INFO") not in CACHED_PATHS:
            return self.application(environ, start_response)
        key = (environ["PATH_INFO"], environ.get("QUERY_STRING", ""), environ.get("HTTP_ACCEPT", ""))
        generation, hit = self.generation, self.cache.get(key)
        if hit and hit[0] == generation:
            start_response(hit[1], hit[2])
            return [hit[3]]
        answer = {}

        def capture(status, headers, exc_info=None):
            answer.update(status=status, headers=headers)
            return start_response(status, headers, exc_info)

        response = self.application(environ, capture)
        try:
            body = b"".join(response)
        finally:
            if hasattr(response, "close"):
                response.close()
        cookies = any(name.lower() == "set-cookie" for name, _ in answer["headers"])
        # Not if an import ran meanwhile: this answer may show the content from before it.
        if answer["status"].startswith("200 ") and not cookies and generation == self.generation:
            self.cache[key] = (generation, answer["status"], answer["headers"], body)
        return [body]


# Live reload (django-browser-reload, DEBUG on). Django's autoreloader, which already polls the
# code once a second, polls the content folder too; a content edit reloads the open page instead of
# restarting the server, and that page's request re-imports (ContentSyncHandler). Connected by
# the runserver command only.


def watch_content(sender, **kwargs):
    """autoreload_started: add the content folder to what the reloader polls."""
    sender.watch_dir(Path(settings.CONTENT_DIR), "**/*")


def content_changed(sender, file_path, **kwargs):
    """file_changed: for a content file, tell the open pages to reload (True: no restart)."""
    if Path(settings.CONTENT_DIR) not in Path(file_path).parents:
        return None
    if settings.BROWSER_RELOAD:
        from django_browser_reload.views import trigger_reload_soon  # its module connects signals

        trigger_reload_soon()
    return True
