"""The message is saved first, then the owner is told; a failing mail server loses nothing."""

import logging

import pytest
from django.core import mail

from contact.models import ContactMessage

from .helpers import SITE_ORIGIN, VALID

pytestmark = pytest.mark.django_db


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
    with caplog.at_level(logging.ERROR, logger="contact.views"):
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
    with caplog.at_level(logging.WARNING, logger="contact.views"):
        assert post().status_code == 201
    assert ContactMessage.objects.get().notified_at is None
    assert not mail.outbox
    assert "CONTACT_NOTIFY_EMAIL unset" in caplog.text
