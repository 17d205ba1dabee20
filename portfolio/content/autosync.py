"""Keep the authoring server in step with the content folder.

`manage.py runserver` wraps its WSGI handler in ContentSyncHandler: before each request it stats
the content folder (no file is read) and, when anything was added, edited or deleted, runs the
importer, which re-parses only the files whose bytes changed. An invalid edit is shown as the
importer's list of problems instead of the page; the database keeps the last valid content.
"""

import os
import threading
from html import escape

from .importer import SCHEMAS, SINGLETONS, import_content
from .loader import ContentInvalid


def snapshot(content_dir):
    """{path: (mtime, size)} of everything the importer reads: cheap enough for every request."""
    entries = {}
    for name in SINGLETONS:
        try:
            stat = os.stat(os.path.join(content_dir, name))
            entries[name] = (stat.st_mtime_ns, stat.st_size)
        except FileNotFoundError:
            entries[name] = None
    for collection in SCHEMAS:
        try:
            with os.scandir(os.path.join(content_dir, collection)) as scan:
                for entry in scan:
                    stat = entry.stat()
                    entries[entry.path] = (stat.st_mtime_ns, stat.st_size)
        except FileNotFoundError:
            entries[collection] = None
    return entries


class ContentSyncHandler:
    def __init__(self, application, content_dir, stdout):
        self.application = application
        self.content_dir = str(content_dir)
        self.stdout = stdout
        self.lock = threading.Lock()
        self.seen = None
        self.problem = None

    def sync(self):
        with self.lock:
            current = snapshot(self.content_dir)
            if current == self.seen:
                return
            try:
                result = import_content(self.content_dir, workers=1)
            except ContentInvalid as exc:
                self.problem = exc
                self.stdout.write(f"Content not imported:\n{exc}\n")
            else:
                self.problem = None
                if result.changed:
                    self.stdout.write(f"Content: {result.summary()}\n")
            self.seen = current

    def __call__(self, environ, start_response):
        self.sync()
        if self.problem is None or environ.get("PATH_INFO", "").startswith("/static/"):
            return self.application(environ, start_response)
        items = "".join(f"<li><code>{escape(str(error))}</code></li>" for error in self.problem.errors)
        page = (
            "<!doctype html><html lang=en><meta charset=utf-8><title>Content error</title>"
            "<body style='font-family:system-ui;max-width:60rem;margin:2rem auto'>"
            f"<h1>The content folder has {len(self.problem.errors)} problem(s)</h1>"
            f"<p>Nothing was imported; the site still shows the last valid content of "
            f"<code>{escape(self.content_dir)}</code>. Fix these and reload:</p><ul>{items}</ul>"
        ).encode()
        start_response(
            "500 Internal Server Error",
            [("Content-Type", "text/html; charset=utf-8"), ("Content-Length", str(len(page)))],
        )
        return [page]
