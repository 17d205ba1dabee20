"""The contact form and its errors in the language of the page that sent it (docs/languages.md):
a page in another language posts with `?lang=`, and the service answers a person in it."""

import pytest
from django.utils import translation

from .helpers import BROWSER_ACCEPT, SITE_ORIGIN

pytestmark = pytest.mark.django_db


def send(client, query, data, accept="application/json"):
    return client.post(
        "/api/contact" + query,
        data,
        content_type="application/json",
        headers={"Origin": SITE_ORIGIN, "Accept": accept},
    )


def test_the_form_page_says_its_language_to_the_service(client):
    assert 'action="/api/contact"' in client.get("/contact").content.decode()
    with translation.override("fr"):
        page = client.get("/contact").content.decode()
    assert 'action="/api/contact?lang=fr"' in page and "Envoyer" in page


def test_errors_in_the_language_of_the_page(client):
    english = send(client, "", {}).json()["error"]
    assert english["message"] == "Some fields need attention."
    assert english["fields"]["name"] == ["This field is required."]
    french = send(client, "?lang=fr", {"name": 3, "email": "", "message": ""}).json()["error"]
    assert french["message"] == "Certains champs sont à corriger."
    assert french["fields"]["name"] == ["Doit être du texte."]
    japanese = send(client, "?lang=ja", {}).json()["error"]
    assert japanese["message"] == "入力内容に確認が必要な項目があります。"
    assert japanese["fields"]["email"] == ["この項目は必須です。"]  # Django's own catalog
    # A language the site does not have, or none: English.
    assert send(client, "?lang=xx", {}).json()["error"]["message"] == "Some fields need attention."


def test_the_error_page_in_the_language_of_the_page(client):
    page = send(client, "?lang=de", {}, accept=BROWSER_ACCEPT).content.decode()
    assert "Ihre Nachricht wurde nicht gesendet" in page and "Einige Felder müssen korrigiert werden." in page
    assert "<strong>Name</strong>" in page and "<strong>E-Mail</strong>" in page
    assert "Message not sent" not in page
    english = send(client, "", {}, accept=BROWSER_ACCEPT).content.decode()
    assert "<strong>Email</strong>: This field is required." in english
