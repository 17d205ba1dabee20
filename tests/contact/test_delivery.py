"""Answered at once, delivered after: a post is answered before its mail and webhook are sent (by
the process's delivery thread, contact/delivery.py), whatever the mail server and the receiver
do, and each is still sent once."""

import io
import logging
import time

import pytest
from django.core.management import call_command

from contact import delivery
from contact.models import ContactMessage

from .helpers import delivered, numbered
from .mail_server import mail_server
from .receiver import receiver

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def smtp(settings):
    """A hung mail server as Django's SMTP backend reaches it (no TLS, no login)."""
    with mail_server() as server:
        settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
        settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", server.port
        settings.EMAIL_USE_TLS = settings.EMAIL_USE_SSL = False
        settings.EMAIL_HOST_USER = settings.EMAIL_HOST_PASSWORD = ""
        settings.EMAIL_TIMEOUT = 10
        yield server


def timed(post, data):
    started = time.monotonic()
    response = post(data, wait=False)
    return response, time.monotonic() - started


def wait_until(check, timeout=10):
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, "not within the timeout"
        time.sleep(0.02)


def test_a_hung_mail_server_and_receiver_do_not_hold_the_answer_and_the_mail_goes_once_it_answers(
    post, smtp, settings
):
    with receiver() as hook:
        settings.CONTACT_WEBHOOK_URL, settings.CONTACT_WEBHOOK_SECRET = hook.url, "secret"
        hook.answers = [("slow", 2)]  # answers within CONTACT_WEBHOOK_TIMEOUT (3 s), slowly
        response, took = timed(post, numbered(1))
        print(f"answered in {took:.3f} s with the mail server hung")
        assert response.status_code == 201 and took < 1
        wait_until(lambda: smtp.connections == 1)  # the thread is at the mail server, waiting
        message = ContactMessage.objects.get()
        assert message.notified_at is None and message.notifying_since is not None  # claimed
        assert not delivery.drain(timeout=0.5)

        smtp.release()
        delivered()
        message.refresh_from_db()
        assert message.notified_at is not None and message.webhook_sent_at is not None
        assert (message.notifying_since, message.webhook_since) == (None, None)
        assert len(smtp.mails) == 1 and "Message number 1." in smtp.mails[0]
        assert len(hook.posts) == 1
        call_command("send_contact_notifications", stdout=io.StringIO())
        assert len(smtp.mails) == 1 and len(hook.posts) == 1  # once


def test_a_mail_server_that_never_answers_leaves_the_mail_owed_for_the_command(post, smtp, settings, caplog):
    settings.EMAIL_TIMEOUT = 1
    with caplog.at_level(logging.ERROR, logger="contact.notifications"):
        answers = []
        for n in range(3):
            answers.append(timed(post, numbered(n)))
            # The next visitor comes while the thread waits for the mail server, not while it
            # writes its claim: two writers at once fail at once on the tests' in-memory SQLite
            # (shared cache), where a file database (the service's) waits for the other.
            wait_until(lambda n=n: smtp.connections == n + 1)
        print("answered in", ", ".join(f"{took:.3f} s" for _, took in answers))
        assert [(response.status_code, took < 1) for response, took in answers] == [(201, True)] * 3
        delivered()  # each tried in turn, each given up after EMAIL_TIMEOUT
    assert caplog.text.count("notification email failed") == 3
    assert list(ContactMessage.objects.values_list("notified_at", "notifying_since")) == [(None, None)] * 3
    assert smtp.mails == []

    smtp.release()
    out = io.StringIO()
    call_command("send_contact_notifications", stdout=out)
    assert out.getvalue() == "Sent 3 contact notification(s).\n"
    assert sorted(mail.count("Message number") for mail in smtp.mails) == [1, 1, 1]


def test_past_the_queue_a_message_is_left_owed_for_the_command(post, smtp, monkeypatch, caplog):
    monkeypatch.setattr(delivery, "QUEUE_SIZE", 1)
    with caplog.at_level(logging.WARNING, logger="contact.delivery"):
        post(numbered(1), wait=False)  # taken by the thread, which waits for the mail server
        wait_until(lambda: smtp.connections == 1)
        post(numbered(2), wait=False)  # waits in the queue
        response, took = timed(post, numbered(3))  # one too many: left owed
    assert response.status_code == 201 and took < 1
    assert "left to the retry command" in caplog.text
    smtp.release()
    delivered()
    assert sorted(m.message for m in ContactMessage.objects.filter(notified_at=None)) == ["Message number 3."]
    call_command("send_contact_notifications", stdout=io.StringIO())
    assert sorted(mail.count("Message number") for mail in smtp.mails) == [1, 1, 1]
    assert not ContactMessage.objects.filter(notified_at=None).exists()


def test_a_message_marked_spam_before_its_turn_is_never_sent(post, smtp):
    post(numbered(1), wait=False)
    wait_until(lambda: smtp.connections == 1)
    post(numbered(2), wait=False)
    ContactMessage.objects.filter(message="Message number 2.").update(status="spam", spam_reason="marked")
    smtp.release()
    delivered()
    assert len(smtp.mails) == 1 and "Message number 1." in smtp.mails[0]
