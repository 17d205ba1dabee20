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
