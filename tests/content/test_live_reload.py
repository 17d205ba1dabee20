"""`make serve` reloads the open page on every kind of edit (content, template, static file), shows
a content error's list in the page's shape, and comes back by itself once the file is fixed."""

import http.client
import itertools
import json
import os
import shutil
import sys
import time
import urllib.request
from urllib.parse import urlsplit

import pytest
from django.conf import settings

from tests.content_builder import article, write_content
from tests.server import fetch, server_process

RELOAD_SCRIPT = "django-browser-reload/reload-listener.js"
# How long an edit may take to reach the page before the test gives up: a guard against a hang,
# not a measure (an edit is seen within the autoreloader's one-second tick).
HANG_GUARD = 30


# What `manage.py runserver` runs: the project's code, templates and static files.
CODE = ["manage.py", "portfolio", "pages", "api", "contact", "templates"]
CACHES = ["SCHEMA_CACHE_DIR", "JINJA2_CACHE_DIR", "CONTENT_CACHE_DIR", "MEDIA_CACHE_DIR"]


@pytest.fixture
def project_copy(tmp_path):
    """A copy of the project's code to run the authoring server from: a test that edits a
    template or a static file edits the copy's, not the checkout's, which the tests running
    beside it (the other xdist worker's builds, their up-to-date checks) read."""
    root = tmp_path / "project"
    for name in CODE:
        source = settings.BASE_DIR / name
        if source.is_dir():
            shutil.copytree(source, root / name)  # __pycache__ too: its .pyc files stay valid
        else:
            root.mkdir(exist_ok=True)
            shutil.copy2(source, root / name)
    return root


@pytest.fixture
def authoring_server(tmp_path, content_dir, project_copy):
    """The real `manage.py runserver` with its autoreloader, as `make serve` starts it."""
    env = {
        "CONTENT_DIR": str(content_dir),
        "DATABASE_URL": f"sqlite:///{tmp_path / 'authoring.sqlite3'}",
        "DEBUG": "1",
        "SHOW_DRAFTS": "",
        # The checkout's caches, which the copy's code (the same) shares: not a cold migrate.
        **{name: str(getattr(settings, name)) for name in CACHES},
    }
    args = [sys.executable, "manage.py", "runserver", "127.0.0.1:{port}"]
    with server_process(args, env, timeout=60, cwd=project_copy) as base:
        reloader_started(base, content_dir)
        yield base


def reloader_started(base, content_dir):
    """Wait for the autoreloader's first look at the files. It runs in a thread of its own, which
    a busy start (migrations, the first import) can delay past a test's first edit, and what it
    first sees is where it starts, not a change: touch a content file until a reload comes."""
    events = ReloadEvents(base)
    try:
        for _ in range(20):
            touch(content_dir / "site.yaml")
            if events.reload_within(1.5):
                return
        raise AssertionError("the autoreloader never noticed a touched content file")
    finally:
        events.close()


class ReloadEvents:
    """The event stream the page's reload script listens to: a ping a second, `reload` on a change."""

    def __init__(self, base):
        parts = urlsplit(base)
        self.connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=10)
        self.connection.request("GET", "/__reload__/events/", headers={"Accept": "text/event-stream"})
        self.response = self.connection.getresponse()
        assert self.response.status == 200
        self.version = self.next()["versionId"]

    def next(self):
        while True:
            line = self.response.readline()
            assert line, "the stream ended: the server restarted"
            if line.startswith(b"data: "):
                return json.loads(line[len(b"data: ") :])

    def reload_within(self, seconds):
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            message = self.next()
            if message["type"] == "reload":
                return True
            assert message["versionId"] == self.version, "the server restarted instead of reloading"
        return False

    def close(self):
        self.connection.close()


def touch(path):
    """A save that changes nothing: a new mtime, the same bytes."""
    now = time.time()
    os.utime(path, (now, now))


class ReloadWorker:
    """The page's reload worker as Chromium's DevTools protocol shows it. django-browser-reload's
    script starts a shared worker that holds the event stream; each page load starts a new one
    (the previous ends with its page), and an edit made before the new one has its stream open
    is not seen by it: it reloads the page only on messages that reach it."""

    def __init__(self, driver):
        import websocket  # selenium's own dependency

        address = driver.capabilities["goog:chromeOptions"]["debuggerAddress"]
        with urllib.request.urlopen(f"http://{address}/json/version", timeout=10) as response:
            url = json.load(response)["webSocketDebuggerUrl"]
        self.socket = websocket.create_connection(url, suppress_origin=True, timeout=HANG_GUARD)
        self.numbers = itertools.count(1)
        self.workers, self.last = set(), None
        self.call("Target.setDiscoverTargets", discover=True)  # reports the targets, then each change

    def receive(self):
        message = json.loads(self.socket.recv())
        if message.get("method") in {"Target.targetCreated", "Target.targetInfoChanged"}:
            info = message["params"]["targetInfo"]
            if info["type"] == "shared_worker":
                self.workers.add(info["targetId"])
        elif message.get("method") == "Target.targetDestroyed":
            self.workers.discard(message["params"]["targetId"])
        return message

    def call(self, method, session=None, **params):
        number = next(self.numbers)
        command = {"id": number, "method": method, "params": params}
        self.socket.send(json.dumps({**command, "sessionId": session} if session else command))
        while True:
            message = self.receive()
            if message.get("id") == number:
                assert "error" not in message, message
                return message["result"]

    def connected(self):
        """Wait for the loaded page's worker (a new one, not the previous page's) to start and to
        get its stream's first message: from then on it sees every edit."""
        while not self.workers - {self.last}:
            self.receive()  # the worker's creation, as an event
        (self.last,) = self.workers - {self.last}
        session = self.call("Target.attachToTarget", targetId=self.last, flatten=True)["sessionId"]
        # The worker's own state, set by its first message (the ping the server sends as the stream
        # opens). Nothing in the worker announces it, so it is read until set.
        has_stream = "typeof currentVersionId !== 'undefined' && currentVersionId !== null"
        deadline = time.monotonic() + HANG_GUARD
        while not self.call("Runtime.evaluate", session, expression=has_stream)["result"].get("value"):
            assert time.monotonic() < deadline, "the reload worker never opened its event stream"
            time.sleep(0.05)
        self.call("Target.detachFromTarget", sessionId=session)

    def close(self):
        self.socket.close()


def test_every_kind_of_edit_reloads_the_page(authoring_server, content_dir, project_copy):
    status, _, body = fetch(authoring_server + "/articles/first-post")
    assert status == 200 and RELOAD_SCRIPT in body.decode()
    events = ReloadEvents(authoring_server)
    try:
        write_content(content_dir, {"articles/first-post.md": article("First post, live")})
        assert events.reload_within(HANG_GUARD), "a content edit"
        assert "First post, live" in fetch(authoring_server + "/articles/first-post")[2].decode()

        touch(project_copy / "templates" / "pages" / "article_detail.html")
        assert events.reload_within(HANG_GUARD), "a template edit"
        touch(project_copy / "pages" / "static" / "pages" / "site.css")
        assert events.reload_within(HANG_GUARD), "a static file edit"

        write_content(content_dir, {"articles/first-post.md": article("Broken", status="done")})
        assert events.reload_within(HANG_GUARD), "an invalid content edit"
        problem = "articles/first-post.md: status: unknown key"
        status, headers, body = fetch(authoring_server + "/articles/first-post")
        page = body.decode()
        assert status == 500 and headers["Content-Type"] == "text/html; charset=utf-8"
        assert problem in page and RELOAD_SCRIPT in page, "the error page reloads by itself too"
        assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in page
        # In the site's frame, counted in words: "1 problem", not "1 problem(s)".
        assert '<header class="site-header">' in page and '<footer class="site-footer">' in page
        assert "The content folder has 1 problem;" in page and "problem(s)" not in page
        assert "<style" not in page, "no inline style: the site's stylesheet, under its CSP"
        for path in ["/api/v1/articles/first-post", "/api/v1/projects.json", "/openapi.json"]:
            status, headers, body = fetch(authoring_server + path)
            assert (status, headers["Content-Type"]) == (500, "application/json"), path
            answer = json.loads(body)
            assert any(problem in error for error in answer["errors"]) and "1 problem" in answer["detail"]
        assert fetch(authoring_server + "/static/pages/site.css")[0] == 200

        write_content(content_dir, {"articles/first-post.md": article("First post, fixed")})
        assert events.reload_within(HANG_GUARD), "the fix"
        status, _, body = fetch(authoring_server + "/articles/first-post")
        assert status == 200 and "First post, fixed" in body.decode()
    finally:
        events.close()


def test_the_open_page_follows_the_edits_in_a_browser(authoring_server, content_dir, chromium):
    from selenium.webdriver.support.wait import WebDriverWait

    driver = chromium()
    worker = ReloadWorker(driver)
    try:
        driver.get(authoring_server + "/articles/first-post")
        assert driver.title.startswith("First post")
        worker.connected()
        started = time.monotonic()
        write_content(content_dir, {"articles/first-post.md": article("Seen without a click")})
        WebDriverWait(driver, HANG_GUARD).until(lambda d: d.title.startswith("Seen without a click"))
        print(f"content edit -> page reloaded in {time.monotonic() - started:.2f} s")

        # The reloaded page has a new worker: an edit before it connects would go unseen (CI
        # missed one, once, under load).
        worker.connected()
        write_content(content_dir, {"articles/first-post.md": article("Broken", status="done")})
        WebDriverWait(driver, HANG_GUARD).until(lambda d: d.title.startswith("Content error · "))
        assert "articles/first-post.md: status: unknown key" in driver.page_source
        worker.connected()
        write_content(content_dir, {"articles/first-post.md": article("Back by itself")})
        WebDriverWait(driver, HANG_GUARD).until(lambda d: d.title.startswith("Back by itself"))
    finally:
        worker.close()
