"""Messages are readable in the admin, newest first, and deletable; never added or changed."""

import pytest
from django.contrib.auth.models import User

from contact.models import ContactMessage

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_client(client):
    client.force_login(User.objects.create_superuser("admin", "admin@portfolio.test", "pw"))
    return client


@pytest.fixture
def message():
    return ContactMessage.objects.create(
        name="Ada Lovelace",
        email="ada@example.com",
        message="About the engine",
        origin="https://portfolio.test",
    )


def test_list_newest_first_and_search(admin_client, message):
    newer = ContactMessage.objects.create(name="Bob", email="bob@example.com", message="Other", origin="x")
    response = admin_client.get("/admin/contact/contactmessage/")
    assert list(response.context["cl"].result_list) == [newer, message]
    response = admin_client.get("/admin/contact/contactmessage/", {"q": "engine"})
    assert response.status_code == 200
    assert list(response.context["cl"].result_list) == [message]


def test_never_added_or_changed(admin_client, message):
    change_url = f"/admin/contact/contactmessage/{message.pk}/change/"
    response = admin_client.get(change_url)
    assert response.status_code == 200
    assert "About the engine" in response.content.decode()
    assert admin_client.post(change_url, {"name": "Mallory"}).status_code == 403
    assert admin_client.get("/admin/contact/contactmessage/add/").status_code == 403
    message.refresh_from_db()
    assert message.name == "Ada Lovelace"


def test_deleted_one_by_one_or_selected(admin_client, message):
    other = ContactMessage.objects.create(name="Spam", email="spam@example.com", message="Buy", origin="x")
    delete_url = f"/admin/contact/contactmessage/{message.pk}/delete/"
    assert admin_client.post(delete_url, {"post": "yes"}).status_code == 302
    assert list(ContactMessage.objects.all()) == [other]
    admin_client.post(
        "/admin/contact/contactmessage/",
        {"action": "delete_selected", "_selected_action": [other.pk], "post": "yes"},
    )
    assert not ContactMessage.objects.exists()


def test_deleting_in_the_admin_forgets_the_sender(admin_client, message):
    """The admin's own log named the sender (`Ada Lovelace <ada@example.com>`) after the
    message was deleted; it now records the deletion by number only."""
    from django.contrib.admin.models import LogEntry

    again = ContactMessage.objects.create(name="Ada", email="ADA@example.com", message="Again", origin="x")
    admin_client.post(f"/admin/contact/contactmessage/{message.pk}/delete/", {"post": "yes"})
    admin_client.post(
        "/admin/contact/contactmessage/",
        {"action": "delete_selected", "_selected_action": [again.pk], "post": "yes"},
    )
    assert not ContactMessage.objects.exists()
    texts = [f"{e.object_repr} {e.change_message}" for e in LogEntry.objects.all()]
    assert sorted(texts) == sorted(f"message {pk} (sender forgotten) " for pk in (message.pk, again.pk))
    admin_client.get("/admin/")  # the deletions' one-time notices, shown once
    history = admin_client.get("/admin/").content.decode()  # its "Recent actions" list the log
    assert "example.com" not in history.lower().replace("admin@portfolio.test", "")
