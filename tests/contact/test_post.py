"""POST /api/contact: each answer, and what is stored."""

import json
import logging
import time

import pytest
from django.core import mail
from django.db import connection

from contact.models import ContactMessage

from .helpers import BROWSER_ACCEPT, SITE_ORIGIN, VALID, assert_error, numbered

pytestmark = pytest.mark.django_db


def test_json_message_is_stored_and_answered_201(post):
    response = post(headers={"User-Agent": "pytest"})
    assert response.status_code == 201
    assert response.json() == {"ok": True}
    message = ContactMessage.objects.get()
    assert (message.name, message.email, message.message) == (VALID["name"], VALID["email"], VALID["message"])
    assert message.origin == SITE_ORIGIN
    assert message.client_address == "127.0.0.1"
    assert message.user_agent == "pytest"
    assert message.notified_at is not None


def test_form_encoded_message_from_a_script_gets_json(post):
    response = post(as_json=False)
    assert response.status_code == 201
    assert response.json() == {"ok": True}
    assert ContactMessage.objects.get().message == VALID["message"]


def test_plain_browser_form_post_is_redirected_to_the_thanks_page(post):
    response = post(as_json=False, headers={"Accept": BROWSER_ACCEPT})
    assert response.status_code == 303
    assert response["Location"] == f"{SITE_ORIGIN}/contact/thanks"
    assert ContactMessage.objects.count() == 1


def test_unicode_survives(post):
    data = {**VALID, "name": "Zoë Ωmega 山田", "message": "Grüße 👋"}
    assert post(data).status_code == 201
    assert post(data, as_json=False).status_code == 201
    assert set(ContactMessage.objects.values_list("name", "message")) == {(data["name"], data["message"])}


@pytest.mark.parametrize(
    "data, fields",
    [
        ({}, {"name", "email", "message"}),
        ({**VALID, "name": "   "}, {"name"}),
        ({**VALID, "name": "x" * 201}, {"name"}),
        ({**VALID, "email": "not-an-email"}, {"email"}),
        ({**VALID, "email": "a" * 245 + "@example.com"}, {"email"}),
        ({**VALID, "message": ""}, {"message"}),
        ({**VALID, "message": "x" * 5001}, {"message"}),
        ({**VALID, "name": 42, "message": ["a"]}, {"name", "message"}),
    ],
)
def test_invalid_fields_get_400_with_per_field_errors(post, data, fields):
    error = assert_error(post(data), 400, "invalid")
    assert set(error["fields"]) == fields
    assert all(isinstance(m, str) for messages in error["fields"].values() for m in messages)
    assert not ContactMessage.objects.exists()
    assert not mail.outbox


def test_limits_are_inclusive(post):
    data = {"name": "x" * 200, "email": "a" * 242 + "@example.com", "message": "y" * 5000}
    assert len(data["email"]) == 254
    assert post(data).status_code == 201


def test_invalid_plain_form_post_gets_an_html_page_listing_the_errors(post):
    response = post({**VALID, "email": "nope"}, as_json=False, headers={"Accept": BROWSER_ACCEPT})
    assert response.status_code == 400
    assert response["Content-Type"].startswith("text/html")
    html = response.content.decode()
    assert "Your message was not sent" in html
    assert "<strong>Email</strong>: Enter a valid email address." in html
    assert f'href="{SITE_ORIGIN}/contact"' in html


@pytest.mark.parametrize("method", ["get", "put", "patch", "delete", "head"])
def test_other_methods_get_405_with_allow(client, method):
    response = getattr(client, method)("/api/contact", headers={"Origin": SITE_ORIGIN})
    assert response.status_code == 405
    assert response["Allow"] == "OPTIONS, POST"
    if method != "head":
        assert_error(response, 405, "method_not_allowed")


def test_over_32_kb_gets_413_and_stores_nothing(post):
    error = assert_error(post({**VALID, "message": "x" * (32 * 1024)}), 413, "too_large")
    assert "32768" in error["message"]
    assert not ContactMessage.objects.exists()


def test_a_declared_length_over_32_kb_is_refused_before_reading(client):
    # The header alone decides: the (short) body is never read.
    response = client.post(
        "/api/contact",
        json.dumps(VALID),
        content_type="application/json",
        headers={"Origin": SITE_ORIGIN},
        CONTENT_LENGTH=str(32 * 1024 + 1),
    )
    assert_error(response, 413, "too_large")


def test_a_body_of_exactly_32_kb_is_read(post):
    padding = 32 * 1024 - len(json.dumps({**VALID, "pad": ""}))
    body = {**VALID, "pad": "p" * padding}
    assert len(json.dumps(body)) == 32 * 1024
    assert post(body).status_code == 201


@pytest.mark.parametrize(
    "body, content_type, code",
    [
        (b'{"name": "\xff\xfe"}', "application/json", "bad_encoding"),
        (b"name=Ada&message=caf\xe9", "application/x-www-form-urlencoded", "bad_encoding"),
        (b"name=Ada&message=caf%E9&email=a%40b.test", "application/x-www-form-urlencoded", "bad_encoding"),
        (b'{"name": ', "application/json", "bad_json"),
        (b'["a list"]', "application/json", "bad_json"),
    ],
)
def test_undecodable_bodies_get_400(client, body, content_type, code):
    response = client.post("/api/contact", body, content_type=content_type, headers={"Origin": SITE_ORIGIN})
    assert_error(response, 400, code)
    assert not ContactMessage.objects.exists()


def test_other_content_types_get_415(client):
    response = client.post("/api/contact", VALID, headers={"Origin": SITE_ORIGIN})  # multipart
    assert_error(response, 415, "unsupported_media_type")


def test_filled_honeypot_pretends_success_and_stores_nothing(post):
    response = post({**VALID, "website": "https://spam.example"})
    assert response.status_code == 201
    assert response.json() == {"ok": True}
    browser = post({**VALID, "website": "x"}, as_json=False, headers={"Accept": BROWSER_ACCEPT})
    assert browser.status_code == 303
    assert not ContactMessage.objects.exists()
    assert not mail.outbox


def test_empty_honeypot_is_fine(post):
    assert post({**VALID, "website": ""}).status_code == 201
    assert ContactMessage.objects.count() == 1


def deep(levels):
    return "[" * levels + "]" * levels


@pytest.mark.parametrize(
    "body, content_type, status, code",
    [
        (json.dumps({**VALID, "name": "\ud800"}), "application/json", 400, "invalid"),  # a lone surrogate
        (
            '{"name": "Ada", "email": "ada@example.com", "message": "\\udfff"}',
            "application/json",
            400,
            "invalid",
        ),
        (json.dumps({**VALID, "message": "a\x00b"}), "application/json", 400, "invalid"),
        (f'{{"name": {deep(100_000)}}}'[:30_000], "application/json", 400, "bad_json"),
        ('{"name": ' + deep(15_000) + "}", "application/json", 400, "bad_json"),  # deep, under 32 KB
        ('{"x": ' + "9" * 20_000 + "}", "application/json", 400, "bad_json"),  # over the digit limit
        ('{"x": NaN, "name": "Ada"}', "application/json", 400, "bad_json"),
        ('{"name": "Ada", "name": "Eve"}', "application/json", 400, "bad_json"),
        (
            "name=%ED%A0%80&email=a%40b.test&message=x",
            "application/x-www-form-urlencoded",
            400,
            "bad_encoding",
        ),
        ("name=a%00b&email=ada%40example.com&message=x", "application/x-www-form-urlencoded", 400, "invalid"),
        (json.dumps(VALID), "application/json; charset=latin-1", 415, "unsupported_media_type"),
        (json.dumps(VALID), "application/json; charset=utf-16", 415, "unsupported_media_type"),
        (json.dumps(VALID), "text/plain", 415, "unsupported_media_type"),
        (json.dumps(VALID), "application/json-patch+json", 415, "unsupported_media_type"),
        (json.dumps(VALID), "multipart/form-data; boundary=", 415, "unsupported_media_type"),
        (json.dumps(VALID), ";;;", 415, "unsupported_media_type"),
    ],
)
def test_hostile_bodies_get_4xx_and_store_nothing(client, body, content_type, status, code):
    response = client.post("/api/contact", body, content_type=content_type, headers={"Origin": SITE_ORIGIN})
    assert_error(response, status, code)
    assert not ContactMessage.objects.exists()


def test_the_charset_may_be_utf_8_in_any_spelling(client):
    for n, charset in enumerate(["utf-8", "UTF-8", "utf8"]):
        body = json.dumps(numbered(n))
        content_type = f"application/json; charset={charset}"
        response = client.post(
            "/api/contact", body, content_type=content_type, headers={"Origin": SITE_ORIGIN}
        )
        assert response.status_code == 201, charset


@pytest.mark.parametrize(
    "accept", ["text/html;q=nonsense", ";;;", "*/*;q=2", "text/html;level=" + "1" * 5000]
)
def test_odd_accept_headers_are_answered(post, accept):
    assert post(headers={"Accept": accept}).status_code in (201, 303)


def test_a_name_with_a_newline_is_mailed_with_a_one_line_subject(post):
    assert post({**VALID, "name": "Ada\nBcc: eve@example.com"}).status_code == 201
    (email,) = mail.outbox
    assert email.subject == "Contact form: Ada Bcc: eve@example.com"
    assert ContactMessage.objects.get().notified_at is not None


def test_the_same_message_again_is_stored_and_mailed_once(post):
    assert post().status_code == 201
    assert post(as_json=False, headers={"Accept": BROWSER_ACCEPT}).status_code == 303  # sent again
    assert ContactMessage.objects.count() == 1
    assert len(mail.outbox) == 1
    # Another message, or the same one from another client, is stored.
    assert post(numbered(1)).status_code == 201
    assert post(REMOTE_ADDR="192.0.2.9").status_code == 201
    assert ContactMessage.objects.count() == 3
    assert len(mail.outbox) == 3


def test_the_same_message_after_the_window_is_stored_again(post, settings):
    settings.CONTACT_RATE = "100/1s"
    assert post().status_code == 201
    time.sleep(1.05)
    assert post().status_code == 201
    assert ContactMessage.objects.count() == 2


def refuse(operation, name):
    """A database trigger that refuses an INSERT or UPDATE of messages from `name`: a real
    failure at that step, on SQLite (the tests' database)."""
    with connection.cursor() as cursor:
        cursor.execute(
            f"CREATE TRIGGER refuse_{operation.lower()} BEFORE {operation} ON contact_contactmessage "
            f"WHEN NEW.name = '{name}' BEGIN SELECT RAISE(ABORT, 'refused by the test'); END"
        )


def test_a_failure_before_storing_answers_500_server_error(post, caplog):
    refuse("INSERT", "Refused")
    with caplog.at_level(logging.ERROR, logger="contact.views"):
        error = assert_error(post({**VALID, "name": "Refused"}), 500, "server_error")
    assert error["fields"] == {}
    assert "Contact request failed" in caplog.text and "refused by the test" in caplog.text
    page = post({**VALID, "name": "Refused"}, as_json=False, headers={"Accept": BROWSER_ACCEPT})
    assert page.status_code == 500 and page["Content-Type"].startswith("text/html")
    assert "Something went wrong on our side" in page.content.decode()
    assert not ContactMessage.objects.exists()
    # The claim on the message was released: once the database takes it, it is stored.
    with connection.cursor() as cursor:
        cursor.execute("DROP TRIGGER refuse_insert")
    assert post({**VALID, "name": "Refused"}).status_code == 201
    assert ContactMessage.objects.count() == 1


def test_a_failure_after_storing_is_logged_and_answered_as_success(post, caplog):
    refuse("UPDATE", "Ada Lovelace")  # the notification's bookkeeping (notified_at)
    with caplog.at_level(logging.ERROR, logger="contact.views"):
        assert post().status_code == 201
    assert "stored, but what followed failed" in caplog.text
    assert post().status_code == 201  # the client's retry: stored once, mailed once
    assert ContactMessage.objects.count() == 1
    assert len(mail.outbox) == 1
