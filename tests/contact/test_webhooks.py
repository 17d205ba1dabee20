"""The webhook: every message that is not spam, POSTed once as signed JSON after the answer (by the
process's delivery thread) within one deadline; a failing one is retried by
send_contact_notifications, never twice, never for spam, and the retry never mails the owner again."""

import hashlib
import hmac
import json
import re
import socket
import threading
import time

import pytest
from django.conf import settings
from django.core import mail
from django.core.management import call_command
from django.core.management.base import CommandError

from contact import delivery, webhooks
from contact.models import ContactMessage

from .helpers import SERVICE_TIMINGS, VALID, numbered
from .receiver import receiver

pytestmark = [pytest.mark.django_db(transaction=True), SERVICE_TIMINGS]

SECRET = "a webhook secret only the receiver knows"


@pytest.fixture
def hook(settings):
    with receiver() as hook:
        settings.CONTACT_WEBHOOK_URL = hook.url
        settings.CONTACT_WEBHOOK_SECRET = SECRET
        yield hook


def docs_check():
    """The receiver's check of the signature as docs/contact.md shows it, run as it stands."""
    docs = (settings.BASE_DIR / "docs" / "contact.md").read_text()
    [block] = [b for b in re.findall(r"```python\n(.*?)```", docs, re.S) if "def verified" in b]
    namespace = {}
    exec(block, namespace)  # noqa: S102 (our own documentation's example)
    return namespace["verified"]


def verified(headers, body):
    return docs_check()(SECRET.encode(), body, headers["X-Signature-256"])


def test_the_documented_check_is_the_signature():
    body = b'{"id": 1}'
    right = "sha256=" + hmac.new(SECRET.encode(), body, hashlib.sha256).hexdigest()
    assert docs_check()(SECRET.encode(), body, right)
    assert not docs_check()(b"another secret", body, right)


def test_a_message_is_posted_once_as_signed_json(post, hook):
    assert post().status_code == 201
    message = ContactMessage.objects.get()
    [(headers, body, path)] = hook.posts
    assert path == "/hooks/contact?from=portfolio"
    assert headers["Content-Type"] == "application/json" and verified(headers, body)
    assert json.loads(body) == {
        "id": message.pk,
        "name": VALID["name"],
        "email": VALID["email"],
        "message": VALID["message"],
        "received": message.created_at.isoformat(),
    }
    assert message.webhook_sent_at is not None and not message.webhook_owed
    assert len(mail.outbox) == 1
    call_command("send_contact_notifications")
    assert len(hook.posts) == 1 and len(mail.outbox) == 1  # never twice


def test_a_forged_body_fails_the_check(post, hook):
    post()
    headers, body, _ = hook.posts[0]
    assert not verified(headers, body.replace(b"Ada", b"Eve"))


def test_spam_is_never_posted(post, hook):
    assert post(proven=False).status_code == 201
    assert post({**numbered(1), "website": "x"}).status_code == 201
    call_command("send_contact_notifications")
    assert hook.posts == [] and not mail.outbox


@pytest.mark.parametrize("failure", [500, 503, 404, "refused", "timeout"])
def test_a_failing_receiver_is_retried_by_the_command_until_it_succeeds(post, hook, settings, failure):
    settings.CONTACT_WEBHOOK_TIMEOUT = 0.5
    if failure == "refused":
        with socket.socket() as sock:  # a port nothing listens on
            sock.bind(("127.0.0.1", 0))
            settings.CONTACT_WEBHOOK_URL = f"http://127.0.0.1:{sock.getsockname()[1]}/"
    elif failure == "timeout":
        hook.answers = [("slow", 1.5)]
    else:
        hook.answers = [failure, failure]
    assert post().status_code == 201  # answered as a success all the same
    message = ContactMessage.objects.get()
    assert message.webhook_owed and message.webhook_sent_at is None
    assert message.notified_at is not None and len(mail.outbox) == 1

    if failure not in ("refused", "timeout"):
        with pytest.raises(CommandError, match="1 notification"):  # failed again: cron mails the owner
            call_command("send_contact_notifications")
    settings.CONTACT_WEBHOOK_URL = hook.url
    call_command("send_contact_notifications")
    message.refresh_from_db()
    assert message.webhook_sent_at is not None and not message.webhook_owed
    received = [json.loads(body)["id"] for _, body, _ in hook.posts]
    assert received[-1] == message.pk
    assert len(mail.outbox) == 1  # the retried webhook never mailed the owner again
    call_command("send_contact_notifications")
    assert len(hook.posts) == len(received)  # and it is never posted again


def answered_at_once_and_tried_within(post, seconds):
    """A post is answered within a second; its delivery (the mail, then the webhook: the thread
    the answer did not wait for) is over within `seconds` of the answer."""
    started = time.monotonic()
    response = post(wait=False)
    answered = time.monotonic() - started
    assert response.status_code == 201 and answered < 1, answered
    assert delivery.drain(timeout=seconds), "the webhook outlived its deadline"
    return True


def test_a_slow_receiver_does_not_hold_the_answer(post, hook, settings):
    settings.CONTACT_WEBHOOK_TIMEOUT = 1
    hook.answers = [("slow", 5)]
    assert answered_at_once_and_tried_within(post, 2.5)
    assert ContactMessage.objects.get().webhook_owed


def test_a_receiver_that_dribbles_its_answer_is_cut_at_the_timeout(post, settings):
    """Each byte within the socket's timeout, but the whole answer far past it."""
    settings.CONTACT_WEBHOOK_TIMEOUT = 1
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    settings.CONTACT_WEBHOOK_URL = f"http://127.0.0.1:{listener.getsockname()[1]}/"

    def dribble():
        connection, _ = listener.accept()
        connection.recv(65536)
        for byte in b"HTTP/1.1 200 OK\r\nX-Slow: " + b"x" * 20:
            try:
                connection.send(bytes([byte]))
            except OSError:
                break
            time.sleep(0.4)
        connection.close()

    thread = threading.Thread(target=dribble, daemon=True)
    thread.start()
    assert answered_at_once_and_tried_within(post, 2.5)
    assert ContactMessage.objects.get().webhook_owed
    listener.close()


def test_a_lookup_that_hangs_is_within_the_one_deadline(post, hook, settings, monkeypatch):
    """No socket timeout bounds the name's lookup: a resolver that never answers held the post
    for as long as it liked. The lookup (the standard library's, made to hang here; no DNS server
    of the test's own can be put in the system's way) counts against CONTACT_WEBHOOK_TIMEOUT."""
    settings.CONTACT_WEBHOOK_TIMEOUT = 1
    settings.CONTACT_WEBHOOK_URL = hook.url.replace("127.0.0.1", "hooks.example")
    looked_up = []
    real_getaddrinfo = socket.getaddrinfo

    def hung_getaddrinfo(host, *args, **kwargs):
        if host == "hooks.example":
            looked_up.append(host)
            time.sleep(5)
        return real_getaddrinfo(host, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", hung_getaddrinfo)
    assert answered_at_once_and_tried_within(post, 2.5)
    assert looked_up and ContactMessage.objects.get().webhook_owed and not hook.posts


def test_the_looked_up_address_is_posted_to_with_the_host_named(post, hook, settings, monkeypatch):
    real_getaddrinfo = socket.getaddrinfo
    monkeypatch.setattr(
        socket, "getaddrinfo",
        lambda host, *a, **k: real_getaddrinfo("127.0.0.1" if host == "hooks.example" else host, *a, **k),
    )  # fmt: skip
    settings.CONTACT_WEBHOOK_URL = hook.url.replace("127.0.0.1", "hooks.example")
    assert post().status_code == 201
    [(headers, _, _)] = hook.posts
    assert headers["Host"].startswith("hooks.example:")
    assert not ContactMessage.objects.get().webhook_owed


def test_without_a_url_nothing_is_owed(post):
    post()
    assert not ContactMessage.objects.get().webhook_owed


def test_a_claimed_webhook_is_not_posted_by_another_process(hook, settings):
    settings.CONTACT_WEBHOOK_URL = ""  # stored owed, not posted yet
    message = ContactMessage.objects.create(
        name="Ada", email="ada@example.com", message="Hi", origin="x", webhook_owed=True
    )
    settings.CONTACT_WEBHOOK_URL = hook.url
    assert webhooks.claim(message.pk)  # a request is posting it
    assert webhooks.send_owed() == (0, 0)  # the command leaves it alone
    assert hook.posts == []
