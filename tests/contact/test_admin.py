"""Messages are readable in the admin and cannot be added, changed or deleted there."""

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


def test_list_and_search(admin_client, message):
    ContactMessage.objects.create(name="Bob", email="bob@example.com", message="Other", origin="x")
    response = admin_client.get("/admin/contact/contactmessage/", {"q": "engine"})
    assert response.status_code == 200
    assert list(response.context["cl"].result_list) == [message]


def test_read_only(admin_client, message):
    change_url = f"/admin/contact/contactmessage/{message.pk}/change/"
    response = admin_client.get(change_url)
    assert response.status_code == 200
    assert "About the engine" in response.content.decode()
    assert admin_client.post(change_url, {"name": "Mallory"}).status_code == 403
    assert admin_client.get("/admin/contact/contactmessage/add/").status_code == 403
    assert admin_client.post(f"/admin/contact/contactmessage/{message.pk}/delete/").status_code == 403
    message.refresh_from_db()
    assert message.name == "Ada Lovelace"
