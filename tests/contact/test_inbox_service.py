"""The owner's inbox on the production service (gunicorn's 2 workers, DEBUG off, Redis), on SQLite
and on a real PostgreSQL server: the challenge, every spam case, the webhook and its retry, the
admin's review, the export, the pruning and the erasure; and the challenge and the form posted
without JavaScript through nginx."""

import csv
import hashlib
import hmac
import io
import json
import subprocess
import sys
from urllib.parse import urlencode

import pytest

from .helpers import BROWSER_ACCEPT, SERVICE_TIMINGS, SITE_ORIGIN, VALID, signed_challenge, solve
from .receiver import receiver
from .servers import ROOT, eventually, gunicorn, nginx, redis_server
from .servers import request as http_request
from .test_service import FORM, PASSWORD, AdminLogin, Service, start_service

pytestmark = SERVICE_TIMINGS

SECRET = "the receiver's shared secret"
RETRIED = "select count(*) from contact_contactmessage where name = 'Retried' and notified_at is not null"


@pytest.fixture(scope="module")
def redis_url(tmp_path_factory):
    with redis_server(tmp_path_factory.mktemp("inbox-redis")) as url:
        yield url


@pytest.fixture(scope="module")
def postgres(shared_postgres):
    return shared_postgres


def manage(env, *args):
    """A management command as cron or the owner runs it, with the service's environment."""
    result = subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )
    return result


def get_challenge(port, client, tls=False):
    return http_request(
        port, "GET", "/api/contact/challenge", headers={"Origin": SITE_ORIGIN, **client}, tls=tls
    )


def signed_by_secret(headers, body):
    expected = "sha256=" + hmac.new(SECRET.encode(), body, hashlib.sha256).hexdigest()
    return hmac.compare_digest(expected, headers["X-Signature-256"])


@pytest.mark.parametrize("database", ["sqlite", "postgresql"])
def test_the_inbox_on_the_production_service(tmp_path, redis_url, database, request):
    database_url = (
        f"sqlite:///{tmp_path / 'service.sqlite3'}"
        if database == "sqlite"
        else request.getfixturevalue("postgres").create_database()
    )
    with receiver() as hook:
        env = start_service(
            tmp_path,
            redis_url,
            database_url,
            CONTACT_SERVICE_ADMIN="1",
            CONTACT_WEBHOOK_URL=hook.url,
            CONTACT_WEBHOOK_SECRET=SECRET,
        )
        owner = {"DJANGO_SUPERUSER_USERNAME": "owner", "DJANGO_SUPERUSER_PASSWORD": PASSWORD,
                 "DJANGO_SUPERUSER_EMAIL": "owner@portfolio.test"}  # fmt: skip
        assert manage({**env, **owner}, "createsuperuser", "--noinput").returncode == 0
        with gunicorn(env, tmp_path, workers=2) as port:
            service = Service(port, env, tmp_path)

            # The real challenge, solved as the page's script does: stored, mailed and posted once.
            client = service.client()
            status, headers, body = get_challenge(port, client)
            assert status == 200 and headers["Cache-Control"] == "no-store", body
            assert headers["Access-Control-Allow-Origin"] == SITE_ORIGIN
            challenge = json.loads(body)
            assert challenge["maxnumber"] == 1000 and challenge["algorithm"] == "SHA-256"
            solution = solve(challenge)
            data = {**VALID, "name": "Real One", "message": "Proven.", "altcha": solution}
            assert service.post(data, headers=client)[0] == 201
            assert service.post(data, headers=client)[0] == 201  # the retry: the same message
            assert service.rows("select status from contact_contactmessage where name = 'Real One'") == [
                ("ham",)
            ]
            service.delivered("Real One")  # after the answer, by the worker's delivery thread
            assert len(service.mails("Proven.")) == 1
            [(hook_headers, hook_body, _)] = hook.posts
            assert signed_by_secret(hook_headers, hook_body) and json.loads(hook_body)["name"] == "Real One"

            # Every spam case: answered as a success, stored as spam, never notified.
            expired = solve(signed_challenge(env["CONTACT_CHALLENGE_HMAC_KEY"], expires_in=-5))
            JSON = "application/json"
            cases = {
                "missing": ({"name": "Spam missing"}, FORM, {"Accept": BROWSER_ACCEPT}, False),
                "invalid": ({"name": "Spam invalid", "altcha": "bm90IHNvbHZlZA=="}, JSON, {}, True),
                "expired": ({"name": "Spam expired", "altcha": expired}, JSON, {}, True),
                "replayed": ({"name": "Spam replayed", "altcha": solution}, JSON, {}, True),
                "honeypot": ({"name": "Spam honeypot", "website": "x"}, JSON, {}, True),
            }  # fmt: skip
            for reason, (fields, content_type, extra, prove) in cases.items():
                status, answer_headers, answer = service.post(
                    {**VALID, "message": f"Spam: {reason}", **fields}, content_type, extra, prove=prove
                )
                if content_type == FORM:
                    assert status == 303 and answer_headers["Location"] == f"{SITE_ORIGIN}/contact/thanks"
                else:
                    assert (status, json.loads(answer)) == (201, {"ok": True}), reason
            rows = service.rows(
                "select spam_reason from contact_contactmessage where status = 'spam' order by id"
            )
            assert [row[0] for row in rows] == list(cases)
            result = manage(env, "send_contact_notifications")
            assert result.returncode == 0, result.stderr
            assert "Sent 0 contact notification(s)." in result.stdout
            assert "Posted 0 contact webhook(s)." in result.stdout
            assert not service.mails("Spam:") and len(hook.posts) == 1

            # A failing receiver: retried by the command, never twice, never mailed again.
            hook.answers = [503]
            assert service.post({**VALID, "name": "Retried", "message": "Hook later."})[0] == 201
            # The delivery thread's try: the mail goes, the receiver's 503 leaves the post owed.
            eventually(lambda: len(hook.posts) == 2)
            released = f"{RETRIED} and webhook_owed and webhook_since is null"
            eventually(lambda: service.rows(released) == [(1,)])
            result = manage(env, "send_contact_notifications")
            assert result.returncode == 0 and "Posted 1 contact webhook(s)." in result.stdout, result.stderr
            assert [json.loads(body)["name"] for _, body, _ in hook.posts] == [
                "Real One",
                "Retried",
                "Retried",
            ]
            assert "Posted 0" in manage(env, "send_contact_notifications").stdout
            assert len(service.mails("Hook later.")) == 1

            # The admin's review: filtered by status; "mark as not spam" notifies once.
            admin = AdminLogin(port).token()
            assert admin.login("owner", PASSWORD)[0] == 302
            status, _, page, _ = admin.send("GET", "/admin/contact/contactmessage/?status__exact=spam")
            assert status == 200 and page.count(b'name="_selected_action"') == len(cases)
            token = admin.cookies["csrftoken"]
            [(pk,)] = service.rows("select id from contact_contactmessage where name = 'Spam missing'")
            form = {"csrfmiddlewaretoken": token, "action": "mark_not_spam", "index": "0",
                    "select_across": "0", "_selected_action": pk}  # fmt: skip
            for _ in range(2):  # twice: notified once
                status, _, page, _ = admin.send(
                    "POST", "/admin/contact/contactmessage/", urlencode(form),
                    {"Content-Type": FORM, "Origin": admin.origin, "Referer": admin.origin + "/admin/"},
                )  # fmt: skip
                assert status == 302, page
            assert service.rows(f"select status from contact_contactmessage where id = {pk}") == [("ham",)]
            assert not service.mails("Spam: missing")  # queued: the next run of the command sends it
            assert "Sent 1 contact notification(s)." in manage(env, "send_contact_notifications").stdout
            assert "Sent 0 contact notification(s)." in manage(env, "send_contact_notifications").stdout
            assert len(service.mails("Spam: missing")) == 1
            assert [json.loads(body)["id"] for _, body, _ in hook.posts].count(pk) == 1

            # The export, every field, by status.
            exported = manage(env, "export_contact_messages", "--format", "csv", "--status", "spam")
            records = list(csv.DictReader(io.StringIO(exported.stdout)))
            assert sorted(r["spam_reason"] for r in records) == sorted(set(cases) - {"missing"})
            assert {"id", "name", "email", "message", "created_at", "status", "webhook_sent_at"} <= set(
                records[0]
            )
            everything = json.loads(manage(env, "export_contact_messages", "--format", "json").stdout)
            assert len(everything) == 7 and everything[0]["name"] == "Real One"

            # Pruning: spam past its 30 days goes; other messages are kept.
            older = (
                "created_at - interval '40 days'"
                if database == "postgresql"
                else "datetime(created_at, '-40 days')"
            )
            service.execute(f"update contact_contactmessage set created_at = {older}")
            pruned = manage(env, "prune_contact_messages")
            assert (
                "Deleted 4 spam message(s) older than 30 days and 0 other message(s) (kept)." in pruned.stdout
            )
            assert service.rows("select count(*) from contact_contactmessage") == [(3,)]

            # Erasure: every message of one address, any case.
            forgotten = manage(env, "forget_contact_sender", VALID["email"].upper())
            assert forgotten.stdout.strip() == f"Deleted 3 message(s) from {VALID['email'].upper()}."
            assert service.rows("select count(*) from contact_contactmessage") == [(0,)]
            assert "Traceback" not in service.log()


def test_the_challenge_through_nginx(tmp_path, redis_url):
    env = start_service(tmp_path, redis_url, f"sqlite:///{tmp_path / 'service.sqlite3'}")
    with gunicorn(env, tmp_path) as port, nginx(port, tmp_path) as edge:
        status, headers, body = get_challenge(edge.port, {}, tls=True)
        assert status == 200 and headers["Cache-Control"] == "no-store", body
        data = {**VALID, "altcha": solve(json.loads(body))}
        status, _, answer = http_request(
            edge.port, "POST", "/api/contact", json.dumps(data).encode(),
            {"Origin": SITE_ORIGIN, "Content-Type": "application/json"}, tls=True,
        )  # fmt: skip
        assert status == 201, answer
        # The form as a browser without JavaScript posts it (no solution): thanked through nginx
        # as straight, kept as spam, never mailed.
        status, headers, answer = http_request(
            edge.port, "POST", "/api/contact",
            urlencode({**VALID, "message": "Sent without JavaScript.", "website": ""}).encode(),
            {"Origin": SITE_ORIGIN, "Content-Type": FORM, "Accept": BROWSER_ACCEPT}, tls=True,
        )  # fmt: skip
        assert status == 303 and headers["Location"] == f"{SITE_ORIGIN}/contact/thanks", answer
        service = Service(port, env, tmp_path)
        assert service.rows("select status, spam_reason from contact_contactmessage order by id") == [
            ("ham", ""),
            ("spam", "missing"),
        ]
        service.delivered(VALID["name"])
        assert len(service.mails("Hello there.")) == 1 and not service.mails("Sent without JavaScript.")
        # Another site's page gets no challenge, through nginx as straight.
        status, _, body = get_challenge(edge.port, {"Origin": "https://evil.example"}, tls=True)
        assert status == 403 and json.loads(body)["error"]["code"] == "origin_not_allowed"
