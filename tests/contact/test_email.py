"""The message is saved first, then the owner is told; a failing mail server loses nothing."""

import io
import logging
from datetime import timedelta

import pytest
from django.core import mail
from django.core.management import CommandError, call_command
from django.utils import timezone

from contact import notifications
from contact.models import ContactMessage

from .helpers import SITE_ORIGIN, VALID, numbered

pytestmark = pytest.mark.django_db(transaction=True)


def test_notification_goes_to_the_owner_with_reply_to_the_sender(post):
    assert post().status_code == 201
    (email,) = mail.outbox
    assert email.to == ["owner@portfolio.test"]
    assert email.reply_to == [VALID["email"]]
    assert email.subject == f"Contact form: {VALID['name']}"
    assert VALID["message"] in email.body
    assert f"Origin: {SITE_ORIGIN}" in email.body


def test_a_failing_email_backend_is_logged_and_the_message_kept(post, settings, caplog):
    settings.EMAIL_BACKEND = "tests.contact.failing_email.EmailBackend"
    with caplog.at_level(logging.ERROR, logger="contact.notifications"):
        response = post()
    assert response.status_code == 201
    assert response.json() == {"ok": True}
    message = ContactMessage.objects.get()
    assert message.message == VALID["message"]
    assert message.notified_at is None  # visible in the admin as "not notified"
    (record,) = caplog.records
    assert "notification email failed" in record.getMessage()
    assert record.exc_info[0].__name__ == "SMTPConnectError"


def test_without_a_notify_address_messages_are_only_stored(post, settings, caplog):
    settings.CONTACT_NOTIFY_EMAIL = ""
    with caplog.at_level(logging.WARNING, logger="contact.notifications"):
        assert post().status_code == 201
    assert ContactMessage.objects.get().notified_at is None
    assert not mail.outbox
    assert "CONTACT_NOTIFY_EMAIL unset" in caplog.text


def send_owed():
    out = io.StringIO()
    call_command("send_contact_notifications", stdout=out)
    return out.getvalue()


def test_what_could_not_be_sent_is_sent_by_the_command_once(post, settings):
    settings.EMAIL_BACKEND = "tests.contact.failing_email.EmailBackend"
    assert post().status_code == 201
    assert post(numbered(1)).status_code == 201
    with pytest.raises(CommandError, match="2 notification"):
        send_owed()  # the mail server is still down: they stay owed
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    assert send_owed() == "Sent 2 contact notification(s).\n"
    assert send_owed() == "Sent 0 contact notification(s).\n"
    assert [m.body.count(VALID["name"]) for m in mail.outbox] == [1, 1]
    assert not ContactMessage.objects.filter(notified_at=None).exists()


def test_a_claim_is_left_to_its_sender_until_it_is_stale(post, settings):
    """Another process is sending (its claim is fresh): the command leaves it alone. Once the
    claim is older than any send may take, its process died: the command sends it."""
    settings.EMAIL_BACKEND = "tests.contact.failing_email.EmailBackend"
    assert post().status_code == 201
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    now = timezone.now()
    ContactMessage.objects.update(notifying_since=now)
    assert send_owed() == "Sent 0 contact notification(s).\n"
    ContactMessage.objects.update(notifying_since=now - notifications.claim_lifetime() - timedelta(seconds=1))
    assert send_owed() == "Sent 1 contact notification(s).\n"
    assert len(mail.outbox) == 1


def test_every_copy_of_a_notification_has_the_same_message_id(post):
    """A copy sent again after a crash is one mail to the owner's mail client."""
    assert post().status_code == 201
    message = ContactMessage.objects.get()
    first, again = notifications.email(message).message(), notifications.email(message).message()
    assert first["Message-ID"] == again["Message-ID"] == mail.outbox[0].message()["Message-ID"]
    assert first["Message-ID"].endswith("@portfolio.test>")


def test_without_a_notify_address_the_command_says_so(settings):
    settings.CONTACT_NOTIFY_EMAIL = ""
    assert "CONTACT_NOTIFY_EMAIL is unset" in send_owed()
