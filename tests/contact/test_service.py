"""The production contact service as docs/contact.md runs it: `CONTACT_SERVICE=1 gunicorn
portfolio.wsgi`, DEBUG off, a freshly migrated database holding no imported site, on SQLite and on
a real PostgreSQL server, with Redis, and behind nginx with deploy/contact-nginx.conf."""

import ipaddress
import itertools
import json
import os
import re
import select
import shlex
import signal
import socket
import sqlite3
import statistics
import subprocess
import sys
import threading
import time
from urllib.parse import urlencode

import pytest

from .helpers import BROWSER_ACCEPT, SERVICE_TIMINGS, SITE_ORIGIN, VALID, proven
from .servers import (
    GUNICORN,
    ROOT,
    connect,
    eventually,
    free_port,
    gunicorn,
    gunicorn_process,
    migrate,
    nginx,
    process_group,
    redis_process,
    redis_server,
    request,
    resume,
    service_env,
    tls_context,
)

IMPORT_SETTINGS = [sys.executable, "-c", "import django; django.setup()"]
FORM = "application/x-www-form-urlencoded"

pytestmark = SERVICE_TIMINGS


@pytest.fixture(scope="module")
def module_tmp(tmp_path_factory):
    return tmp_path_factory.mktemp("service")


@pytest.fixture(scope="module")
def redis_url(module_tmp):
    with redis_server(module_tmp) as url:
        yield url


@pytest.fixture(scope="module")
def create_postgres_database(shared_postgres):
    return shared_postgres.create_database


class Service:
    """A running service: its port, environment, and what its database and mailbox hold."""

    def __init__(self, port, env, tmp_path):
        self.port, self.env, self.tmp_path = port, env, tmp_path
        self.clients = itertools.count(1)

    def client(self):
        """A fresh client address (the tests' peer, 127.0.0.1, is a trusted proxy): its own
        rate limit and its own duplicates."""
        return {"X-Forwarded-For": str(ipaddress.ip_address("198.18.0.0") + next(self.clients))}

    def post(self, body, content_type="application/json", headers=None, prove=True):
        """A post to /api/contact; a dict `body` gets a fresh solution of the proof of work (as
        the form's script sends it) unless `prove` is false or it has its own."""
        headers = {"Origin": SITE_ORIGIN, "Content-Type": content_type, **self.client(), **(headers or {})}
        if isinstance(body, dict) and prove and "altcha" not in body:
            body = proven(body, self.env["CONTACT_CHALLENGE_HMAC_KEY"])
        if isinstance(body, dict):
            body = (
                json.dumps(body, ensure_ascii=False)
                if content_type == "application/json"
                else urlencode(body)
            )
        if isinstance(body, str):
            body = body.encode("utf-8", "surrogatepass")
        return request(self.port, "POST", "/api/contact", body, headers)

    def rows(self, sql):
        """The rows of one statement on the service's database (sqlite3 or psycopg directly)."""
        url = self.env["DATABASE_URL"]
        if url.startswith("sqlite"):
            with sqlite3.connect(url.removeprefix("sqlite:///")) as db:
                return db.execute(sql).fetchall()
        import psycopg

        with psycopg.connect(url.replace("postgres://", "postgresql://"), autocommit=True) as db:
            cursor = db.execute(sql)
            return cursor.fetchall() if cursor.description else []

    def execute(self, sql):
        self.rows(sql)

    def messages(self, name):
        return self.rows(f"select message from contact_contactmessage where name = '{name}'")

    def mails(self, text):
        return [p for p in (self.tmp_path / "mail").glob("*") if text in p.read_text()]

    def delivered(self, name, timeout=10):
        """Wait until every message from `name` was mailed (and posted, when a webhook is owed): the
        worker's delivery thread sends them after the answer. Once a row says so, its mail is
        sent, and can be sent no more."""
        sql = f"select count(*) from contact_contactmessage where status = 'ham' and name = '{name}'"
        assert self.rows(sql) != [(0,)], f"nothing stored from {name}"
        eventually(lambda: self.rows(f"{sql} and (notified_at is null or webhook_owed)") == [(0,)], timeout)

    def logged(self, text, timeout=10):
        """Wait until the workers logged `text` (the delivery thread's failures)."""
        eventually(lambda: text in self.log(), timeout)

    def log(self):
        return "".join(p.read_text() for p in self.tmp_path.glob("gunicorn-*.log"))


def start_service(tmp_path, redis_url, database_url, **overrides):
    settings = {
        "DATABASE_URL": database_url,
        "REDIS_URL": redis_url,
        "CONTACT_RATE": "30/m",
        "CONTACT_TRUSTED_PROXIES": "127.0.0.1",
        "SECURE_HSTS_SECONDS": "3600",
        "EMAIL_BACKEND": "django.core.mail.backends.filebased.EmailBackend",
        "EMAIL_FILE_PATH": str(tmp_path / "mail"),
    }
    env = service_env(tmp_path, **{**settings, **overrides})
    migrate(env)
    return env


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def service(request, tmp_path_factory, redis_url):
    """The service with 2 sync workers, on SQLite and on PostgreSQL, sharing the module's Redis."""
    tmp_path = tmp_path_factory.mktemp(request.param)
    if request.param == "sqlite":
        database_url = f"sqlite:///{tmp_path / 'service.sqlite3'}"
    else:
        database_url = request.getfixturevalue("create_postgres_database")()
    env = start_service(tmp_path, redis_url, database_url)
    with gunicorn(env, tmp_path, workers=2) as port:
        yield Service(port, env, tmp_path)


def assert_error(response, status, code):
    got_status, headers, body = response
    assert got_status == status, body
    assert headers["Content-Type"] == "application/json"
    error = json.loads(body)["error"]
    assert json.loads(body) == {"ok": False, "error": error}
    assert set(error) == {"status", "code", "message", "fields"}
    assert (error["status"], error["code"]) == (status, code)
    return error


# What a client may send that the database cannot store or the parser chokes on: the same 4xx on
# both databases, never a 500 (a DataError, an encoding error, a RecursionError).
HOSTILE = [
    (json.dumps({**VALID, "name": "\ud800"}), "application/json", 400, "invalid"),
    (
        '{"name": "Ada", "email": "ada@example.com", "message": "x\\udfffy"}',
        "application/json",
        400,
        "invalid",
    ),
    (json.dumps({**VALID, "message": "nul \x00 inside"}), "application/json", 400, "invalid"),
    (json.dumps({**VALID, "name": "x" * 201}), "application/json", 400, "invalid"),
    (json.dumps({**VALID, "name": "é" * 201}), "application/json", 400, "invalid"),  # 402 bytes
    (json.dumps({**VALID, "message": "ü" * 5001}), "application/json", 400, "invalid"),
    (json.dumps({**VALID, "email": "a" * 245 + "@example.com"}), "application/json", 400, "invalid"),
    ("name=a%00b&email=ada%40example.com&message=x", FORM, 400, "invalid"),
    ("name=%ED%A0%80&email=ada%40example.com&message=x", FORM, 400, "bad_encoding"),
    ('{"name": ' + "[" * 15_000 + "]" * 15_000 + "}", "application/json", 400, "bad_json"),
    ('{"x": ' + "9" * 20_000 + "}", "application/json", 400, "bad_json"),
    ('{"name": "Ada", "name": "Eve"}', "application/json", 400, "bad_json"),
    ('{"x": Infinity}', "application/json", 400, "bad_json"),
    ('"just a string"', "application/json", 400, "bad_json"),
    (b"\xff\xfe{}", "application/json", 400, "bad_encoding"),
    (json.dumps(VALID), "application/json; charset=iso-8859-1", 415, "unsupported_media_type"),
    (json.dumps(VALID), "text/plain; charset=utf-8", 415, "unsupported_media_type"),
    (json.dumps(VALID), "multipart/form-data; boundary=x", 415, "unsupported_media_type"),
    (json.dumps(VALID), "", 415, "unsupported_media_type"),
    ("x" * 33_000, FORM, 413, "too_large"),
]


def test_every_hostile_body_gets_its_4xx_on_both_databases(service):
    for body, content_type, status, code in HOSTILE:
        assert_error(service.post(body, content_type), status, code)
    assert service.rows("select count(*) from contact_contactmessage") == [(0,)]
    assert "Traceback" not in service.log()


def test_limits_are_inclusive_on_both_databases(service):
    data = {"name": "é" * 200, "email": "a" * 242 + "@example.com", "message": "👋" * 5000}
    status, _, body = service.post(data)
    assert status == 201, body
    assert service.messages("é" * 200) == [("👋" * 5000,)]


def test_each_error_is_a_page_for_a_browser_with_no_imported_site(service):
    """A browser's plain form post gets an HTML page in the site's look for every error."""
    browser = {"Accept": BROWSER_ACCEPT}
    answers = {
        400: service.post({**VALID, "email": "nope"}, FORM, browser),
        403: service.post(VALID, FORM, {**browser, "Origin": "https://evil.test"}),
        413: service.post("x" * 33_000, FORM, browser),
        415: service.post("name=Ada", "text/plain", browser),
    }
    limited = service.client()
    # 30 a clock-aligned minute (CONTACT_RATE): posts straddling a minute's end may take 60 before
    # the 429 (contact/ratelimit.py), so up to 61.
    for _ in range(61):
        status, headers, body = service.post({}, FORM, {**browser, **limited})
        if status == 429:
            break
    answers[429] = (status, headers, body)
    for status, (got, headers, body) in answers.items():
        assert got == status, body
        assert headers["Content-Type"] == "text/html; charset=utf-8"
        page = body.decode()
        assert "<h1>Your message was not sent</h1>" in page
        assert '<link rel="stylesheet" href="/static/pages/site.css">' in page
        # The service is another host: the header names the site and links to its pages.
        assert re.search(
            r'<a class="site-name" href="https://portfolio.test/">.*?portfolio.test</span>', page, re.S
        )
        assert f'href="{SITE_ORIGIN}/contact"' in page
    assert "<strong>Email</strong>: Enter a valid email address." in answers[400][2].decode()
    assert answers[429][1]["Retry-After"]
    # Every static file the pages name is served by the service itself (WhiteNoise).
    for path in set(re.findall(r'(?:href|src)="(/static/[^"]+)"', page)):
        assert request(service.port, "GET", path)[0] == 200, path
    status, headers, css = request(service.port, "GET", "/static/pages/site.css")
    assert status == 200 and headers["Content-Type"].startswith("text/css")
    assert css == (ROOT / "pages" / "static" / "pages" / "site.css").read_bytes()


def test_a_message_is_stored_mailed_and_thanked_once(service):
    client = service.client()
    data = {**VALID, "name": "Once Only", "message": "Pressed twice."}
    first = service.post(data, FORM, {"Accept": BROWSER_ACCEPT, **client})
    assert first[0] == 303 and first[1]["Location"] == f"{SITE_ORIGIN}/contact/thanks"
    again = service.post(data, "application/json", client)  # the retry after a dropped connection
    assert again[0] == 201 and json.loads(again[2]) == {"ok": True}
    assert service.messages("Once Only") == [("Pressed twice.",)]
    service.delivered("Once Only")
    assert len(service.mails("Pressed twice.")) == 1

    status, headers, body = request(service.port, "GET", "/contact/thanks")
    assert status == 200 and headers["Content-Type"] == "text/html; charset=utf-8"
    assert "<h1>Thank you</h1>" in body.decode()
    assert re.search(r'<a [^>]*href="https://portfolio.test/">Back to the home page</a>', body.decode())


def test_a_double_click_reaching_both_workers_at_once_is_stored_once(service):
    client = service.client()
    data = {**VALID, "name": "Double Click", "message": "Clicked twice at once."}
    answers = []
    threads = [
        threading.Thread(target=lambda: answers.append(service.post(data, headers=client))) for _ in "ab"
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(answer[0] for answer in answers) == [201, 201]
    assert len(service.messages("Double Click")) == 1
    service.delivered("Double Click")
    assert len(service.mails("Clicked twice at once.")) == 1


def test_unexpected_failures_answer_500_server_error_and_nothing_after_storing_does(service):
    """Real failures, made by the database: a trigger refuses to store messages from one name, and
    another refuses the notification's bookkeeping (the UPDATE of notified_at) for a second one."""
    postgres = not service.env["DATABASE_URL"].startswith("sqlite")
    if not postgres:
        statements = [
            "CREATE TRIGGER refuse_insert BEFORE INSERT ON contact_contactmessage WHEN NEW.name = 'Refused'"
            " BEGIN SELECT RAISE(ABORT, 'refused by the test'); END",
            "CREATE TRIGGER refuse_update BEFORE UPDATE ON contact_contactmessage WHEN NEW.name = 'Unbooked'"
            " BEGIN SELECT RAISE(ABORT, 'refused by the test'); END",
        ]
    else:
        statements = [
            "CREATE FUNCTION refuse() RETURNS trigger LANGUAGE plpgsql AS"
            " $$ BEGIN RAISE EXCEPTION 'refused by the test'; END $$",
            "CREATE TRIGGER refuse_insert BEFORE INSERT ON contact_contactmessage FOR EACH ROW"
            " WHEN (NEW.name = 'Refused') EXECUTE FUNCTION refuse()",
            "CREATE TRIGGER refuse_update BEFORE UPDATE ON contact_contactmessage FOR EACH ROW"
            " WHEN (NEW.name = 'Unbooked') EXECUTE FUNCTION refuse()",
        ]
    for statement in statements:
        service.execute(statement)

    error = assert_error(service.post({**VALID, "name": "Refused"}), 500, "server_error")
    assert error["fields"] == {}
    status, headers, body = service.post({**VALID, "name": "Refused"}, FORM, {"Accept": BROWSER_ACCEPT})
    assert status == 500 and headers["Content-Type"] == "text/html; charset=utf-8"
    assert "Something went wrong on our side" in body.decode()
    assert service.messages("Refused") == []

    client = service.client()
    data = {**VALID, "name": "Unbooked", "message": "Stored, then the bookkeeping fails."}
    assert service.post(data, headers=client)[0] == 201
    assert service.post(data, headers=client)[0] == 201  # the client's retry
    assert len(service.messages("Unbooked")) == 1
    service.logged("stored, but what followed failed")  # by the delivery thread, after the answer
    # The notification could not be claimed: it stays owed, and the retry command sends it.
    assert not service.mails("Stored, then the bookkeeping fails.")
    service.execute("DROP TRIGGER refuse_update" + (" ON contact_contactmessage" if postgres else ""))
    command = [sys.executable, "manage.py", "send_contact_notifications"]
    subprocess.run(command, cwd=ROOT, env=service.env, check=True, capture_output=True, timeout=60)
    assert len(service.mails("Stored, then the bookkeeping fails.")) == 1
    # Every answer carries the security headers, errors included.
    for _, headers, _ in [service.post({**VALID, "name": "Refused"}), service.post({})]:
        assert headers["X-Content-Type-Options"] == "nosniff"
        assert headers["Referrer-Policy"] == "same-origin"
        assert headers["X-Frame-Options"] == "DENY"


def test_every_other_answer_keeps_the_shape(service):
    assert_error(request(service.port, "GET", "/api/contact"), 405, "method_not_allowed")
    assert_error(request(service.port, "GET", "/"), 404, "not_found")
    assert_error(request(service.port, "GET", "/admin/"), 404, "not_found")  # CONTACT_SERVICE_ADMIN unset
    assert_error(request(service.port, "GET", "/contact"), 404, "not_found")
    assert_error(request(service.port, "GET", "/api/v1"), 404, "not_found")
    assert_error(
        request(service.port, "POST", "/api/contact", b"{}", {"Host": "evil.test"}), 400, "bad_request"
    )


def test_hsts_only_over_https(service):
    _, headers, _ = service.post(VALID, headers={"X-Forwarded-Proto": "https"})
    assert headers["Strict-Transport-Security"] == "max-age=3600; includeSubDomains"
    # Plain HTTP is redirected before the view, without HSTS (browsers ignore it there anyway).
    status, headers, _ = service.post(VALID, headers={"X-Forwarded-Proto": "http"})
    assert status == 301 and headers["Location"] == f"https://127.0.0.1:{service.port}/api/contact"
    assert "Strict-Transport-Security" not in headers


@pytest.mark.parametrize(
    "overrides, complaint",
    [
        ({"SECRET_KEY": ""}, "needs a real SECRET_KEY"),
        ({"SECRET_KEY": "django-insecure-local-authoring-only"}, "needs a real SECRET_KEY"),
        ({"SECRET_KEY": "django-insecure-" + "x" * 40}, "needs a real SECRET_KEY"),
        ({"SECRET_KEY": "short"}, "needs a real SECRET_KEY"),
        ({"DEBUG": "1"}, "refuses to run with DEBUG on"),
    ],
)
def test_the_service_refuses_to_start_insecure(tmp_path, overrides, complaint):
    result = subprocess.run(
        IMPORT_SETTINGS, cwd=ROOT, env=service_env(tmp_path, **overrides), capture_output=True, text=True
    )
    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr and complaint in result.stderr


def test_gunicorn_exits_with_the_reason_when_the_key_is_insecure(tmp_path):
    env = service_env(tmp_path, SECRET_KEY="")
    result = subprocess.run(
        [str(GUNICORN), "portfolio.wsgi", "--bind", "127.0.0.1:0", "--workers", "1"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert result.returncode != 0
    assert "needs a real SECRET_KEY" in result.stderr


@pytest.mark.parametrize(
    "overrides, named",
    [
        ({"CONTACT_KEEP_DAYS": "0"}, "CONTACT_KEEP_DAYS=0 keeps nothing"),
        ({"CONTACT_WEBHOOK_URL": "https://hooks.example:99999/in", "CONTACT_WEBHOOK_SECRET": "s"},
         "CONTACT_WEBHOOK_URL='https://hooks.example:99999/in' does not parse"),
        ({"CONTACT_WEBHOOK_TIMEOUT": "nan"}, "CONTACT_WEBHOOK_TIMEOUT=nan is no deadline"),
    ],
)  # fmt: skip
def test_a_setting_that_cannot_work_fails_the_checks_and_the_start(tmp_path, overrides, named):
    env = service_env(tmp_path, **overrides)
    check = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert check.returncode != 0 and named in check.stderr, check.stdout + check.stderr
    result = subprocess.run(
        [str(GUNICORN), "portfolio.wsgi", "--bind", "127.0.0.1:0", "--workers", "1"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=30,
    )  # fmt: skip
    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr and named in result.stderr


def test_the_admin_is_styled_when_asked(tmp_path):
    env = service_env(tmp_path, CONTACT_SERVICE_ADMIN="1", CONTACT_TRUSTED_PROXIES="127.0.0.1")
    migrate(env)
    with gunicorn(env, tmp_path) as port:
        status, headers, _ = request(port, "GET", "/admin/")
        assert status == 302 and headers["Location"].startswith("/admin/login/")
        status, _, page = request(port, "GET", "/admin/login/")
        assert status == 200
        stylesheet = re.search(rb'<link rel="stylesheet" href="(/static/admin/css/[^"]+)"', page)[1].decode()
        status, headers, css = request(port, "GET", stylesheet)
        assert status == 200 and headers["Content-Type"].startswith("text/css") and css
        assert_error(request(port, "GET", "/contact"), 404, "not_found")


def test_two_processes_share_one_limit_and_a_hung_redis_is_waited_for_once_per_process(tmp_path):
    """Two gunicorn processes sharing one Redis: the counts of both add up to one limit. Then the
    Redis process is stopped (not dead: the kernel still accepts connections; nothing answers):
    each process waits for it once (its 0.25 s socket timeout), then leaves it alone."""
    with redis_process(tmp_path) as (redis_url, redis):
        env = start_service(
            tmp_path, redis_url, f"sqlite:///{tmp_path / 'service.sqlite3'}", CONTACT_RATE="3/1m"
        )
        with gunicorn(env, tmp_path) as first, gunicorn(env, tmp_path) as second:
            services = [Service(port, env, tmp_path) for port in (first, second)]
            client = {"X-Forwarded-For": "192.0.2.1"}
            posts = [(s, {**VALID, "message": f"Number {n}"}) for n, s in enumerate(services * 3)]
            assert [s.post(data, headers=client)[0] for s, data in posts] == [201, 201, 201, 429, 429, 429]
            failed = "The contact cache failed: no rate limit"
            assert failed not in services[0].log()

            redis.send_signal(signal.SIGSTOP)
            timings = []
            try:
                for n, service in enumerate(services * 3):
                    started = time.monotonic()
                    status, _, _ = service.post(
                        {**VALID, "message": f"While Redis hangs {n}"}, headers=client
                    )
                    timings.append(time.monotonic() - started)
                    assert status == 201  # past the limit, but the limit is not applied
                # Still stopped: every post was answered without Redis, and each process tried it
                # once (its first post, the one failure logged), not on every post.
                assert redis.poll() is None and stopped(redis.pid)
            finally:
                redis.send_signal(signal.SIGCONT)
            print(f"posts while Redis hangs: {', '.join(f'{t:.2f}' for t in timings)} s")
            assert len(services[0].rows("select id from contact_contactmessage")) == 3 + 6
            assert services[0].log().count(failed) == 2, services[0].log()


def stopped(pid):
    """Is the process stopped (by SIGSTOP)? Its state in /proc/<pid>/stat."""
    with open(f"/proc/{pid}/stat") as handle:
        return handle.read().rsplit(")", 1)[1].split()[0] == "T"


def dribble(port, count, source="127.0.0.1", tls=False):
    """`count` clients that send their headers and the first byte of a 1,000-byte body, then wait."""
    sockets = []
    for _ in range(count):
        sock = socket.create_connection(("127.0.0.1", port), timeout=5, source_address=(source, 0))
        sockets.append(tls_context().wrap_socket(sock) if tls else sock)
    # Every connection made (TLS handshakes take a while on a busy machine) before any request
    # starts: the server's body timeout then runs from about the same moment for all of them.
    for sock in sockets:
        sock.sendall(
            b"POST /api/contact HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            b"X-Forwarded-Proto: https\r\n"  # as nginx sends it: else gunicorn redirects at once
            b"Origin: " + SITE_ORIGIN.encode() + b"\r\nContent-Length: 1000\r\n\r\n{"
        )
    return sockets


def timed_post(port, timeout, source="127.0.0.1", tls=False):
    """Seconds one normal post takes, or None when it gets no answer within `timeout`."""
    started = time.monotonic()
    connection = connect(port, source, tls, timeout)
    try:
        body = json.dumps({**VALID, "message": f"Normal post {started}"})
        headers = {"Origin": SITE_ORIGIN, "Content-Type": "application/json", "X-Forwarded-Proto": "https"}
        connection.request("POST", "/api/contact", body, headers)
        assert connection.getresponse().status == 201
    except TimeoutError:
        return None
    finally:
        connection.close()
    return time.monotonic() - started


def unanswered(sockets):
    """Are all `sockets` still open with nothing to read (no answer, no close), right now?"""
    readable, _, _ = select.select(sockets, [], [], 0)
    return readable == []


def test_behind_nginx_dribbling_clients_do_not_hold_the_workers(tmp_path, redis_url):
    """4 clients dribble their bodies. Straight to gunicorn's 2 sync workers they hold both and a
    normal post waits; through nginx (deploy/contact-nginx.conf) it is answered at once."""
    env = start_service(tmp_path, redis_url, f"sqlite:///{tmp_path / 'service.sqlite3'}")
    with gunicorn(env, tmp_path, workers=2) as service_port, nginx(service_port, tmp_path) as edge:
        port = edge.port
        slow = dribble(port, 4, tls=True)
        try:
            through_nginx = timed_post(port, timeout=30, tls=True)  # a guard against a hang
            # Answered while the 4 still hold their connections, unanswered: none held a worker.
            held_meanwhile = unanswered(slow)
            direct_slow = dribble(service_port, 2)
            try:
                direct = timed_post(service_port, timeout=3)
            finally:
                for sock in direct_slow:
                    sock.close()
        finally:
            for sock in slow:
                sock.close()
        print(
            f"a normal post with 4 dribbling clients: through nginx "
            f"{'no answer in 30 s' if through_nginx is None else f'{through_nginx:.3f} s'}; "
            f"straight to gunicorn: {'no answer in 3 s' if direct is None else f'{direct:.3f} s'}"
        )
        assert through_nginx is not None and held_meanwhile
        # The control: without nginx, the workers are held. A negative, seen only as no answer
        # for a while: a loaded machine makes it slower, never answered sooner.
        assert direct is None

        # A client (127.0.0.2: not the trusted proxy) cannot choose its address through nginx:
        # what it sends in X-Forwarded-For is left of what nginx appends.
        data, spoofed = (
            {**VALID, "name": "Spoofer"},
            {"Origin": SITE_ORIGIN, "X-Forwarded-For": "203.0.113.77"},
        )
        assert request(port, "POST", "/api/contact", data, spoofed, source="127.0.0.2", tls=True)[0] == 201
        service = Service(service_port, env, tmp_path)
        stored = service.rows("select client_address from contact_contactmessage where name = 'Spoofer'")
        assert stored == [("127.0.0.2",)]
        # The 32 KB limit at the edge keeps the error shape.
        assert_error(
            request(
                port,
                "POST",
                "/api/contact",
                b"x" * 40_000,
                {"Origin": SITE_ORIGIN, "Content-Type": "application/json"},
                tls=True,
            ),
            413,
            "too_large",
        )


def test_the_docs_link_the_tested_nginx_file():
    """docs/contact.md points at deploy/contact-nginx.conf, the file these tests run, rather than
    a copy of it that could drift."""
    assert (ROOT / "deploy" / "contact-nginx.conf").is_file()
    assert "(../deploy/contact-nginx.conf)" in (ROOT / "docs" / "contact.md").read_text()


def test_upstream_failures_answer_503_in_the_shape(tmp_path, redis_url):
    """gunicorn down (nginx's 502) and hung (504, after proxy_read_timeout) are both answered 503
    in the JSON shape, as docs/contact.md says; the service answers again once it resumes."""
    # Nothing listens on a fresh free port: what a stopped gunicorn leaves.
    with nginx(free_port(), tmp_path) as edge:
        response = request(edge.port, "POST", "/api/contact", VALID, {"Origin": SITE_ORIGIN}, tls=True)
        assert_error(response, 503, "unavailable")
        assert response[1]["Retry-After"] == "60"

    env = start_service(tmp_path, redis_url, f"sqlite:///{tmp_path / 'service.sqlite3'}")
    timeout = {"proxy_read_timeout 30s;": "proxy_read_timeout 2s;"}
    with gunicorn_process(env, tmp_path, workers=2) as (service_port, process):
        with nginx(service_port, tmp_path, timeout) as edge:
            stopped = process_group(process)
            assert len(stopped) == 3  # the master and its 2 workers
            for pid in stopped:
                os.kill(pid, signal.SIGSTOP)  # the kernel still accepts connections; nothing answers
            try:
                response = request(
                    edge.port, "POST", "/api/contact", VALID, {"Origin": SITE_ORIGIN}, tls=True
                )
            finally:
                resume(process)
            assert_error(response, 503, "unavailable")
            # nginx waited for gunicorn (proxy_read_timeout), rather than failing to reach it.
            error_log = (edge.folder / "error.log").read_text()
            assert "upstream timed out" in error_log and "while reading response header" in error_log
            data = {**VALID, "message": "After the hang."}
            assert (
                request(edge.port, "POST", "/api/contact", data, {"Origin": SITE_ORIGIN}, tls=True)[0] == 201
            )


def answered(sockets, count, guard=30):
    """Wait for `count` of `sockets` to be answered (`guard`: seconds before giving up on a hang);
    return each socket's status (None: no answer yet)."""
    statuses, pending, deadline = {}, set(sockets), time.monotonic() + guard
    while len(statuses) < count:
        readable, _, _ = select.select(list(pending), [], [], max(0, deadline - time.monotonic()))
        assert readable, f"{len(statuses)} answers of the {count} awaited"
        for sock in readable:
            statuses[sock] = sock.recv(4096).split(b" ", 2)[1].decode()
            pending.discard(sock)
    return [int(statuses[sock]) if sock in statuses else None for sock in sockets]


def burst(port, bodies, headers, source):
    """(status, headers, body) of one TLS post of each of `bodies`, all sent before any answer is
    read, one connection each."""
    connections = []
    try:
        for body in bodies:
            connection = connect(port, source, tls=True, timeout=30)
            connections.append(connection)
            connection.request(
                "POST", "/api/contact", json.dumps(body).encode(),
                {"X-Forwarded-Proto": "https", "Content-Type": "application/json", **headers},
            )  # fmt: skip
        answers = []
        for connection in connections:
            response = connection.getresponse()
            answers.append((response.status, dict(response.getheaders()), response.read()))
        return answers
    finally:
        for connection in connections:
            connection.close()


def test_the_edge_limits_each_address_with_429_in_the_shape(tmp_path, redis_url):
    """One address cannot hold every nginx connection (limit_conn 10) nor post past the edge's
    rate (10/minute, a burst of 10); other addresses are served meanwhile."""
    env = start_service(tmp_path, redis_url, f"sqlite:///{tmp_path / 'service.sqlite3'}")
    with gunicorn(env, tmp_path, workers=2) as service_port, nginx(service_port, tmp_path) as edge:
        slow = dribble(edge.port, 60, source="127.0.0.3", tls=True)
        try:
            statuses = answered(slow, 50)
            held = [sock for sock, status in zip(slow, statuses, strict=True) if status is None]
            data, headers = {**VALID, "name": "Beside the flood"}, {"Origin": SITE_ORIGIN}
            started = time.monotonic()
            status, _, _ = request(
                edge.port, "POST", "/api/contact", data, headers, source="127.0.0.4", tls=True
            )
            elapsed = time.monotonic() - started
            # Answered while the 10 held connections are still held, unanswered.
            held_meanwhile = unanswered(held)
        finally:
            for sock in slow:
                sock.close()
        print(f"60 dribbling connections from one address: {len(held)} held, {statuses.count(429)} refused "
              f"429; a post from another address: {status} in {elapsed:.3f} s")  # fmt: skip
        assert len(held) == 10 and statuses.count(429) == 50, statuses
        assert "limiting connections by zone" in (edge.folder / "error.log").read_text()
        assert status == 201 and held_meanwhile

        # The burst reaches nginx at once, before any answer is read: the rate refills one post in
        # 6 s, so posts sent one after another on a loaded machine could earn a 12th.
        answered_burst = burst(edge.port, [{**VALID, "message": f"Burst {n}"} for n in range(12)],
                               headers, source="127.0.0.5")  # fmt: skip
        statuses = [status for status, _, _ in answered_burst]
        assert sorted(statuses) == [201] * 11 + [429], statuses
        refused = answered_burst[statuses.index(429)]
        error = assert_error(refused, 429, "rate_limited")
        assert error["fields"] == {} and refused[1]["Retry-After"] == "60"


def documented_environment(tmp_path, **overrides):
    """The service's environment as docs/contact.md's deploy block exports it; its placeholders
    (the key, the databases) replaced by working values."""
    docs = (ROOT / "docs" / "contact.md").read_text()
    block = re.search(r"^export CONTACT_SERVICE=1 .*?[^\\]$", docs, re.M | re.S)[0]
    documented = dict(item.split("=", 1) for item in shlex.split(block.replace("\\\n", " "))[1:])
    assert {"ALLOWED_HOSTS", "CONTACT_TRUSTED_PROXIES", "SECURE_HSTS_SECONDS"} <= set(documented)
    del documented["SECRET_KEY"], documented["DATABASE_URL"]  # service_env's: a key, a SQLite file
    env = service_env(tmp_path, **{**documented, **overrides})
    migrate(env)  # the documented next step; drf-spectacular's deploy check reads the database
    return env


@pytest.mark.parametrize("admin", ["", "1"])
def test_check_deploy_is_clean_with_the_documented_settings(tmp_path, admin):
    env = documented_environment(tmp_path, CONTACT_SERVICE_ADMIN=admin)
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues" in result.stdout, result.stdout
    assert "WARNING" not in result.stdout + result.stderr


class AdminLogin:
    """One client of the admin login: its cookies and CSRF token. Straight to gunicorn the client
    is named by X-Forwarded-For (the peer, 127.0.0.1, is a trusted proxy); through nginx (tls) by
    its source address, and nginx sends the Host without the port, as on 443."""

    def __init__(self, port, client=None, source="127.0.0.1", tls=False):
        self.port, self.source, self.tls = port, source, tls
        self.headers = {"X-Forwarded-For": client} if client else {}
        self.origin = "https://127.0.0.1" if tls else f"https://127.0.0.1:{port}"
        self.cookies = {}

    def send(self, method, path, body=None, headers=None):
        connection = connect(self.port, self.source, self.tls)
        try:
            headers = {"X-Forwarded-Proto": "https", **self.headers, **(headers or {})}
            if self.cookies:
                headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
            connection.request(method, path, body, headers)
            response = connection.getresponse()
            set_cookies = response.msg.get_all("Set-Cookie") or []
            for line in set_cookies:
                name, value = line.split(";", 1)[0].split("=", 1)
                self.cookies[name] = value
            return response.status, response, response.read(), set_cookies
        finally:
            connection.close()

    def token(self):
        status, _, page, _ = self.send("GET", "/admin/login/")
        assert status == 200, page
        self.csrf = re.search(rb'name="csrfmiddlewaretoken" value="([^"]+)"', page)[1].decode()
        return self

    def login(self, username, password):
        """(status, seconds, response, body, Set-Cookie lines) of one login attempt."""
        body = urlencode(
            {"csrfmiddlewaretoken": self.csrf, "username": username, "password": password, "next": "/admin/"}
        )
        headers = {"Content-Type": FORM, "Origin": self.origin}
        started = time.monotonic()
        status, response, page, set_cookies = self.send("POST", "/admin/login/", body, headers)
        return status, time.monotonic() - started, response, page, set_cookies


PASSWORD = "correct horse battery staple"


def admin_service_env(tmp_path, redis_url):
    env = start_service(
        tmp_path, redis_url, f"sqlite:///{tmp_path / 'service.sqlite3'}", CONTACT_SERVICE_ADMIN="1"
    )
    subprocess.run(
        [sys.executable, "manage.py", "createsuperuser", "--noinput"],
        cwd=ROOT,
        env={**env, "DJANGO_SUPERUSER_USERNAME": "owner", "DJANGO_SUPERUSER_PASSWORD": PASSWORD,
             "DJANGO_SUPERUSER_EMAIL": "owner@portfolio.test"},
        check=True,
        capture_output=True,
        timeout=60,
    )  # fmt: skip
    return env


def test_an_admin_session_made_over_https_is_not_accepted_over_http(tmp_path, redis_url):
    env = admin_service_env(tmp_path, redis_url)
    with gunicorn(env, tmp_path) as port, nginx(port, tmp_path) as edge:
        browser = AdminLogin(port).token()
        status, _, response, _, set_cookies = browser.login("owner", PASSWORD)
        assert status == 302 and response.getheader("Location") == "/admin/"
        flags = {line.split("=", 1)[0]: line.lower() for line in set_cookies}
        assert "; secure" in flags["sessionid"] and "; httponly" in flags["sessionid"]
        assert "; secure" in flags["csrftoken"]
        status, _, page, _ = browser.send("GET", "/admin/")
        assert status == 200 and b"Site administration" in page

        # The same session cookie over plain HTTP: redirected to HTTPS before any view.
        status, response, page, _ = browser.send("GET", "/admin/", headers={"X-Forwarded-Proto": "http"})
        assert status == 301 and response.getheader("Location") == f"https://127.0.0.1:{port}/admin/"
        assert b"Site administration" not in page
        # nginx's plain-HTTP server never proxies: 308 (a POST stays a POST) to HTTPS.
        cookie = {"Cookie": f"sessionid={browser.cookies['sessionid']}"}
        for method, path in [("GET", "/admin/"), ("POST", "/api/contact")]:
            status, headers, body = request(edge.http_port, method, path, b"{}", cookie)
            assert status == 308 and headers["Location"] == f"https://127.0.0.1{path}", body
        assert not re.search(r"GET /admin/ .* 200", (tmp_path / f"gunicorn-{port}.log").read_text())


def test_admin_login_locks_per_client_and_per_account(tmp_path, redis_url):
    """5 failures from one client lock that client out (for every account); 5 failures for one
    account lock the account (from everywhere). Locked-out attempts are answered 429 before any
    password is hashed, so they are fast."""
    env = admin_service_env(tmp_path, redis_url)
    with gunicorn(env, tmp_path, workers=2) as port:
        guesser = AdminLogin(port, client="198.51.100.1").token()
        # The 5th failure is hashed, then answered as the lockout.
        assert [guesser.login(f"user{n}", "guess")[0] for n in range(5)] == [200] * 4 + [429]
        assert guesser.login("owner", PASSWORD)[0] == 429  # this client is locked out
        status, _, _, _, _ = AdminLogin(port, client="198.51.100.2").token().login("owner", PASSWORD)
        assert status == 302  # another client is not, nor is the account

        attacker = AdminLogin(port, client="198.51.100.3").token()
        attempts = [attacker.login("owner", f"guess {n}") for n in range(40)]
        statuses = [status for status, *_ in attempts]
        # The account's 5th failure: client 198.51.100.1's refused attempt above counted too.
        assert statuses == [200] * 3 + [429] * 37
        status, _, response, page, _ = attacker.login("owner", PASSWORD)
        assert status == 429 and b"Account locked" in page
        # The account is locked from every address: the owner waits out the 15 minutes (or runs
        # manage.py axes_reset_username owner).
        status, _, _, page, _ = AdminLogin(port, client="198.51.100.4").token().login("owner", PASSWORD)
        assert status == 429 and b"Account locked" in page

        hashed = statistics.median(seconds for _, seconds, *_ in attempts[:4])
        locked = statistics.median(seconds for _, seconds, *_ in attempts[4:])
        print(f"login attempt, median: a wrong password {hashed:.3f} s, a locked-out one {locked:.3f} s")
        assert locked < hashed / 2
        assert "Traceback" not in (tmp_path / f"gunicorn-{port}.log").read_text()


def test_login_guesses_through_nginx_do_not_slow_the_contact_route(tmp_path, redis_url):
    """4 clients (127.0.0.11-14), 8 connections each, guess passwords for ever-new usernames (so the
    per-account lock does not help) through nginx for 5 s, while contact posts are timed."""
    env = admin_service_env(tmp_path, redis_url)
    with gunicorn(env, tmp_path, workers=2) as service_port, nginx(service_port, tmp_path) as edge:

        def timed_posts(count, pause=0.0):
            timings = []
            for _ in range(count):
                timings.append(timed_post(edge.port, 30, source="127.0.0.4", tls=True))  # a hang's guard
                time.sleep(pause)
            assert None not in timings, timings
            return timings

        idle = timed_posts(3)
        # What one guess costs the worker that takes it (a password hash), on this machine as loaded
        # as it is now: a post queued behind the guesses would wait for at least one.
        timer = AdminLogin(service_port, client="198.51.100.9").token()
        hashing = statistics.median(timer.login(f"timing{n}", "wrong")[1] for n in range(3))
        clients = [AdminLogin(edge.port, source=f"127.0.0.{n}", tls=True).token() for n in range(11, 15)]
        answered, names, deadline = [], itertools.count(), time.monotonic() + 5

        def guess(client):
            while time.monotonic() < deadline:
                status, _, response, _, _ = client.login(f"guess{next(names)}", "wrong")
                answered.append((status, response.getheader("Content-Type")))
                if status == 429:
                    time.sleep(0.2)  # a bounded loop, not a busy one

        threads = [threading.Thread(target=guess, args=(c,)) for c in clients for _ in range(8)]
        for thread in threads:
            thread.start()
        try:
            time.sleep(0.5)
            flooded = timed_posts(5, pause=0.6)  # spread over the flood
        finally:
            for thread in threads:
                thread.join(timeout=15)
        hashed = sum(status == 200 for status, _ in answered)
        edge_refused = sum(status == 429 and kind == "application/json" for status, kind in answered)
        locked = sum(status == 429 and kind.startswith("text/html") for status, kind in answered)
        print(
            f"login flood: {len(answered)} attempts, {hashed} answered 'wrong password', {locked} refused"
            f" by axes, {edge_refused} by nginx; contact post median: idle"
            f" {statistics.median(idle):.3f} s, during the flood {statistics.median(flooded):.3f} s"
            f" (a password hash {hashing:.3f} s)"
            f" ({', '.join(f'{t:.2f}' for t in flooded)})"
        )
        assert set(status for status, _ in answered) <= {200, 429}
        assert hashed <= 4 * 4 and edge_refused  # each client: 5 failures at most, then locked
        # Quicker than a wait behind one guess; at least a second allowed on a fast machine.
        assert statistics.median(flooded) < max(1, hashing), (flooded, hashing)
        assert "Traceback" not in (tmp_path / f"gunicorn-{service_port}.log").read_text()
