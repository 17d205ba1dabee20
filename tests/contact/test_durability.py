"""A 201 means stored: the production service (gunicorn, 2 sync workers, PostgreSQL, Redis) while
its parts fail the way they do in production: PostgreSQL stopped, restarted, hung (SIGSTOP) under
a worker that gunicorn then kills, Redis up, down or hung, the mail server refusing or hanging.

After every scenario each 2xx is matched by exactly one stored row and, once the retry command
has run, exactly one notification."""

import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from contextlib import contextmanager

import pytest

from .helpers import SERVICE_TIMINGS, SITE_ORIGIN, VALID, proven
from .mail_server import mail_server
from .receiver import receiver
from .servers import (
    ROOT,
    eventually,
    free_port,
    gunicorn,
    gunicorn_process,
    nginx,
    postgres_server,
    process_group,
    redis_process,
    request,
)
from .test_service import Service, start_service

HTTPS = {"X-Forwarded-Proto": "https"}  # what nginx says of a request it took over TLS

pytestmark = SERVICE_TIMINGS


@pytest.fixture(scope="module")
def postgres():
    with postgres_server() as cluster:
        yield cluster


@pytest.fixture
def redis(tmp_path):
    with redis_process(tmp_path) as (url, process):
        yield url, process


def post(service, data, client, timeout=10):
    """(status, body) of one JSON post from `client`, or (None, reason) when no answer came."""
    headers = {"Origin": SITE_ORIGIN, "Content-Type": "application/json", **HTTPS, **client}
    connection = http.client.HTTPConnection("127.0.0.1", service.port, timeout=timeout)
    try:
        # A fresh solution each time, as the form's script sends with every message.
        body = json.dumps(proven(data, service.env["CONTACT_CHALLENGE_HMAC_KEY"]))
        connection.request("POST", "/api/contact", body, headers)
        response = connection.getresponse()
        return response.status, response.read()
    except (OSError, http.client.HTTPException) as error:
        return None, repr(error)
    finally:
        connection.close()


def stored(service, name):
    return service.rows(f"select count(*) from contact_contactmessage where name = '{name}'")[0][0]


def send_owed(service, **overrides):
    """`manage.py send_contact_notifications` as cron runs it, with the service's environment."""
    return subprocess.run(
        [sys.executable, "manage.py", "send_contact_notifications"],
        cwd=ROOT,
        env={**service.env, **overrides},
        capture_output=True,
        text=True,
        timeout=60,
    )


@contextmanager
def running(tmp_path, redis_url, database_url, args=(), **settings):
    env = start_service(tmp_path, redis_url, database_url, **settings)
    with gunicorn(env, tmp_path, workers=2, args=args) as port:
        yield Service(port, env, tmp_path)


def test_a_retry_after_postgresql_was_down_is_stored_once(tmp_path, postgres, redis):
    with running(tmp_path, redis[0], postgres.create_database()) as service:
        client, data = service.client(), {**VALID, "name": "Down", "message": "Sent while it was down."}
        postgres.stop()
        try:
            status, body = post(service, data, client)
            assert status == 500 and json.loads(body)["error"]["code"] == "server_error"
        finally:
            postgres.start()
        assert post(service, data, client)[0] == 201  # the sender's retry
        assert post(service, data, client)[0] == 201  # and a second one
        assert stored(service, "Down") == 1
        service.delivered("Down")
        assert len(service.mails("Sent while it was down.")) == 1


def test_a_restart_while_idle_costs_no_message(tmp_path, postgres, redis):
    """Each worker holds a connection; after the restart it is stale, and is checked before use."""
    with running(tmp_path, redis[0], postgres.create_database()) as service:
        assert post(service, {**VALID, "name": "Before"}, service.client())[0] == 201
        postgres.stop()
        postgres.start()
        statuses = [post(service, {**VALID, "name": f"After {n}"}, service.client())[0] for n in range(4)]
        assert statuses == [201] * 4
        assert service.rows("select count(*) from contact_contactmessage") == [(5,)]


def test_a_worker_killed_on_a_hung_postgresql_leaves_nothing_that_answers_for_it(tmp_path, postgres, redis):
    """PostgreSQL stops answering (SIGSTOP); gunicorn kills the worker that waits for it (timeout
    3 s). Nothing of that request may answer for the sender's retry."""
    with running(tmp_path, redis[0], postgres.create_database(), args=["--timeout", "3"]) as service:
        client, data = service.client(), {**VALID, "name": "Hung", "message": "Sent while it hung."}
        assert post(service, {**VALID, "name": "Warm"}, service.client())[0] == 201
        postgres.pause()
        try:
            status, _ = post(service, data, client, timeout=20)
            assert status is None or status >= 500
        finally:
            postgres.resume()
        assert "WORKER TIMEOUT" in service.log()
        assert post(service, data, client)[0] == 201
        assert post(service, data, client)[0] == 201
        assert stored(service, "Hung") == 1
        service.delivered("Hung")
        assert len(service.mails("Sent while it hung.")) == 1


def burst(service, data, client, count=4):
    """`count` identical posts at once (a double click reaching both workers, a retrying client)."""
    answers = []
    threads = [
        threading.Thread(target=lambda: answers.append(post(service, data, client)[0])) for _ in range(count)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return sorted(answers, key=str)


@pytest.mark.parametrize("database", ["sqlite", "postgresql"])
def test_identical_posts_at_once_store_one_row_with_redis_up_hung_or_down(
    tmp_path, postgres, redis, database
):
    redis_url, redis_server = redis
    url = postgres.create_database() if database == "postgresql" else f"sqlite:///{tmp_path / 'db.sqlite3'}"
    with running(tmp_path, redis_url, url) as service:
        for state in ("up", "hung", "down"):
            if state == "hung":
                redis_server.send_signal(signal.SIGSTOP)
            elif state == "down":
                redis_server.kill()
                redis_server.wait()
            data = {**VALID, "name": f"Redis {state}", "message": f"Clicked while Redis was {state}."}
            assert burst(service, data, service.client()) == [201] * 4, state
            assert stored(service, f"Redis {state}") == 1, state
            service.delivered(f"Redis {state}")
            assert len(service.mails(f"Clicked while Redis was {state}.")) == 1, state


@contextmanager
def silent_server():
    """A port that accepts connections and never says a word (a hung mail server or receiver)."""
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen(16)
        yield server.getsockname()[1]


def test_a_notification_that_could_not_be_sent_is_sent_later_once(tmp_path, postgres, redis):
    """The mail server refuses (a closed port): the message is stored, the sender told 201, and
    `send_contact_notifications` sends the notification later, once."""
    smtp = {
        "EMAIL_BACKEND": "",
        "EMAIL_HOST": "127.0.0.1",
        "EMAIL_PORT": str(free_port()),
        "EMAIL_USE_TLS": "0",
    }
    with running(tmp_path, redis[0], postgres.create_database(), **smtp) as service:
        client, data = service.client(), {**VALID, "name": "Unsent", "message": "The mail server was down."}
        assert post(service, data, client)[0] == 201
        assert post(service, data, client)[0] == 201
        assert stored(service, "Unsent") == 1
        # The delivery thread's try, after the answer: failed, logged, its claim released.
        service.logged("notification email failed")
        unsent = "select notified_at, notifying_since from contact_contactmessage where name = 'Unsent'"
        eventually(lambda: service.rows(unsent) == [(None, None)])

        failed = send_owed(service)  # the mail server is still down: it stays owed, cron is told
        assert failed.returncode == 1 and "1 notification(s) failed again" in failed.stderr
        file_backend = {"EMAIL_BACKEND": "django.core.mail.backends.filebased.EmailBackend"}
        assert "Sent 1 contact notification(s)." in send_owed(service, **file_backend).stdout
        assert "Sent 0 contact notification(s)." in send_owed(service, **file_backend).stdout
        assert len(service.mails("The mail server was down.")) == 1


def test_a_worker_killed_while_mailing_is_taken_over_once_its_claim_is_stale(tmp_path, postgres, redis):
    """The mail server hangs: the post is answered at once, and the worker's delivery thread waits
    for the server, the message claimed. The worker is killed then (SIGKILL: a crash, an OOM kill).
    The retry command leaves a fresh claim alone (its sender may still be sending), and sends once
    it is stale."""
    with silent_server() as smtp_port:
        smtp = {"EMAIL_BACKEND": "", "EMAIL_HOST": "127.0.0.1", "EMAIL_PORT": str(smtp_port),
                "EMAIL_USE_TLS": "0", "EMAIL_TIMEOUT": "30"}  # fmt: skip
        env = start_service(tmp_path, redis[0], postgres.create_database(), **smtp)
        with gunicorn_process(env, tmp_path, workers=2) as (port, master):
            service = Service(port, env, tmp_path)
            client, data = service.client(), {**VALID, "name": "Mailing", "message": "Killed while mailing."}
            assert post(service, data, client, timeout=2)[0] == 201
            claimed = "select count(*) from contact_contactmessage where notifying_since is not null"
            eventually(lambda: service.rows(claimed) == [(1,)])
            for pid in process_group(master)[1:]:  # the workers, not the master
                os.kill(pid, signal.SIGKILL)
            assert stored(service, "Mailing") == 1
            assert eventually(lambda: post(service, data, client)[0]) == 201  # the retry: stored already

            file_backend = {"EMAIL_BACKEND": "django.core.mail.backends.filebased.EmailBackend"}
            assert "Sent 0 contact notification(s)." in send_owed(service, **file_backend).stdout
            # The clock, moved on: the claim is now older than any send may take.
            service.execute(
                "update contact_contactmessage set notifying_since = notifying_since - interval '1 day'"
            )
            assert "Sent 1 contact notification(s)." in send_owed(service, **file_backend).stdout
            assert "Sent 0 contact notification(s)." in send_owed(service, **file_backend).stdout
            assert len(service.mails("Killed while mailing.")) == 1


def test_six_visitors_are_answered_at_once_while_the_mail_server_and_the_receiver_hang(
    tmp_path, postgres, redis
):
    """Issue 51's reproducer: a mail server that accepts and never answers (EMAIL_TIMEOUT 10 s) and
    a receiver that does the same (CONTACT_WEBHOOK_TIMEOUT 3 s) held a worker 13 s per post when
    both were sent inside the request: six visitors at once through nginx were answered in 13.2,
    13.2, 26.2 and 26.3 s, and the last two got nginx's 503 at 30 s. Now every one is answered at
    once by gunicorn's 2 workers on PostgreSQL, and each worker's thread sends after. Then the mail
    server answers, the receiver too (the command's retry): every message is mailed once and
    posted once."""
    with mail_server() as smtp, silent_server() as hung_receiver, receiver() as hook:
        env = start_service(
            tmp_path, redis[0], postgres.create_database(),
            EMAIL_BACKEND="django.core.mail.backends.smtp.EmailBackend", EMAIL_HOST="127.0.0.1",
            EMAIL_PORT=str(smtp.port), EMAIL_USE_TLS="0",
            CONTACT_WEBHOOK_URL=f"http://127.0.0.1:{hung_receiver}/", CONTACT_WEBHOOK_SECRET="secret",
        )  # fmt: skip
        with gunicorn(env, tmp_path, workers=2) as port, nginx(port, tmp_path) as edge:
            service = Service(port, env, tmp_path)
            answers = {}

            def visit(name, source, prove=True):
                data = {**VALID, "name": name}
                if prove:
                    data = proven(data, env["CONTACT_CHALLENGE_HMAC_KEY"])
                started = time.monotonic()
                status, _, _ = request(
                    edge.port, "POST", "/api/contact", json.dumps(data).encode(),
                    {"Origin": SITE_ORIGIN, "Content-Type": "application/json"}, source=source, tls=True,
                )  # fmt: skip
                answers[name] = (status, time.monotonic() - started)

            def at_once(*visits):
                threads = [threading.Thread(target=visit, args=args) for args in visits]
                for thread in threads:
                    thread.start()
                for thread in threads:
                    thread.join()

            # Both workers warmed (their database connections, their first imports) by posts that
            # deliver nothing: without a proof of work they are stored as spam.
            at_once(*[(f"Warm {n}", f"127.0.1.{n + 2}", False) for n in range(4)])
            answers.clear()
            at_once(*[(f"Visitor {n}", f"127.0.0.{n + 2}") for n in range(6)])
            print("answered:", ", ".join(f"{status} in {took:.3f} s" for status, took in answers.values()))
            assert [status for status, _ in answers.values()] == [201] * 6
            assert max(took for _, took in answers.values()) < 1
            assert smtp.connections >= 1 and not smtp.mails  # a thread waits on the hung server

            smtp.release()
            # Each worker's thread: the mail, then the webhook's 3 s, one message at a time.
            mailed = "select count(*) from contact_contactmessage where notified_at is not null"
            assert service.rows("select count(*) from contact_contactmessage where status = 'spam'") == [(4,)]
            eventually(lambda: service.rows(mailed) == [(6,)], timeout=60)
            eventually(lambda: service.log().count("its webhook failed") == 6, timeout=60)
            assert service.rows("select count(*) from contact_contactmessage where webhook_owed") == [(6,)]
            assert sorted(mail.count("From: Visitor") for mail in smtp.mails) == [1] * 6

            retry = send_owed(service, CONTACT_WEBHOOK_URL=hook.url)
            assert "Sent 0 contact notification(s)." in retry.stdout
            assert "Posted 6 contact webhook(s)." in retry.stdout
            assert "Posted 0 contact webhook(s)." in send_owed(service, CONTACT_WEBHOOK_URL=hook.url).stdout
            names = sorted(json.loads(body)["name"] for _, body, _ in hook.posts)
            assert names == [f"Visitor {n}" for n in range(6)]
            assert len(smtp.mails) == 6
