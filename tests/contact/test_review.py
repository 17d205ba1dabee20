"""The owner's review in the admin: the status shown and filtered, "mark as spam", "mark as not
spam" (which notifies once, through the outbox) and delete."""

import pytest
from django.contrib.auth.models import Permission, User
from django.core import mail
from django.core.management import CommandError, call_command

from contact.models import ContactMessage

from .helpers import SERVICE_TIMINGS
from .receiver import receiver

pytestmark = pytest.mark.django_db

LIST = "/admin/contact/contactmessage/"


@pytest.fixture
def admin_client(client):
    client.force_login(User.objects.create_superuser("admin", "admin@portfolio.test", "pw"))
    return client


def make(name, status="ham", **fields):
    return ContactMessage.objects.create(
        name=name,
        email=f"{name.lower()}@example.com",
        message=f"From {name}",
        origin="x",
        status=status,
        **fields,
    )


def act(client, action, *messages):
    return client.post(LIST, {"action": action, "_selected_action": [m.pk for m in messages]}, follow=True)


def test_the_list_shows_and_filters_the_status(admin_client):
    ham, spam = make("Ada"), make("Bot", status="spam", spam_reason="missing")
    page = admin_client.get(LIST)
    assert page.status_code == 200
    text = page.content.decode()
    assert "not spam" in text and "missing" in text
    assert list(admin_client.get(LIST, {"status__exact": "spam"}).context["cl"].result_list) == [spam]
    assert list(admin_client.get(LIST, {"status__exact": "ham"}).context["cl"].result_list) == [ham]
    assert list(admin_client.get(LIST, {"spam_reason": "missing"}).context["cl"].result_list) == [spam]


def test_mark_as_spam_keeps_an_owed_notification_from_going_out(admin_client):
    message = make("Ada")  # stored, its mail still owed
    act(admin_client, "mark_spam", message)
    message.refresh_from_db()
    assert (message.status, message.spam_reason) == ("spam", "marked")
    call_command("send_contact_notifications")
    assert not mail.outbox


def test_mark_as_not_spam_notifies_once_through_the_outbox(admin_client, settings):
    with receiver() as hook:
        settings.CONTACT_WEBHOOK_URL, settings.CONTACT_WEBHOOK_SECRET = hook.url, "secret"
        spam = make("Ada", status="spam", spam_reason="missing")
        page = act(admin_client, "mark_not_spam", spam)
        assert "1 message(s) marked as not spam, their notifications queued" in page.content.decode()
        spam.refresh_from_db()
        assert (spam.status, spam.spam_reason) == ("ham", "")
        assert not mail.outbox and not hook.posts  # queued, not sent by the admin's request
        call_command("send_contact_notifications")
        spam.refresh_from_db()
        assert spam.notified_at is not None and spam.webhook_sent_at is not None
        assert len(mail.outbox) == 1 and len(hook.posts) == 1
        act(admin_client, "mark_not_spam", spam)  # again: it is not spam, nothing to send
        act(admin_client, "mark_spam", spam)
        act(admin_client, "mark_not_spam", spam)  # back: it was notified already
        call_command("send_contact_notifications")
        assert len(mail.outbox) == 1 and len(hook.posts) == 1


def test_a_failing_notification_stays_owed_for_the_command(admin_client, settings):
    settings.EMAIL_BACKEND = "tests.contact.failing_email.EmailBackend"
    spam = make("Ada", status="spam", spam_reason="invalid")
    act(admin_client, "mark_not_spam", spam)
    with pytest.raises(CommandError):
        call_command("send_contact_notifications")
    spam.refresh_from_db()
    assert spam.status == "ham" and spam.notified_at is None
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    call_command("send_contact_notifications")
    assert len(mail.outbox) == 1


@SERVICE_TIMINGS  # it times the admin's answer
def test_marking_many_with_a_hung_receiver_answers_at_once(admin_client, settings):
    """40 messages marked not spam with a receiver that never answers held the admin's request
    to gunicorn's timeout (each post waited CONTACT_WEBHOOK_TIMEOUT): the action only queues."""
    import socket
    import time

    hung = socket.socket()
    hung.bind(("127.0.0.1", 0))
    hung.listen(64)  # accepts connections (the kernel does) and never reads or answers
    try:
        settings.CONTACT_WEBHOOK_URL = f"http://127.0.0.1:{hung.getsockname()[1]}/in"
        settings.CONTACT_WEBHOOK_SECRET, settings.CONTACT_WEBHOOK_TIMEOUT = "secret", 2
        spam = [make(f"Bot{n}", status="spam", spam_reason="missing") for n in range(40)]
        started = time.perf_counter()
        page = act(admin_client, "mark_not_spam", *spam)
        assert time.perf_counter() - started < 1.5
        assert "40 message(s) marked as not spam" in page.content.decode()
        assert ContactMessage.objects.filter(status="ham", webhook_owed=True).count() == 40
    finally:
        hung.close()


def test_a_viewer_cannot_review(client):
    viewer = User.objects.create_user("viewer", password="pw", is_staff=True)
    viewer.user_permissions.add(Permission.objects.get(codename="view_contactmessage"))
    client.force_login(viewer)
    spam = make("Bot", status="spam")
    assert client.get(LIST).status_code == 200
    act(client, "mark_not_spam", spam)
    spam.refresh_from_db()
    assert spam.status == "spam" and not mail.outbox


def test_spam_is_deleted_like_any_message(admin_client):
    spam = make("Bot", status="spam")
    admin_client.post(LIST, {"action": "delete_selected", "_selected_action": [spam.pk], "post": "yes"})
    assert not ContactMessage.objects.exists()
