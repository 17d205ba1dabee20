"""POST /api/contact: each answer, and what is stored."""

import io
import json
import logging
from datetime import timedelta
from email import message_from_bytes, policy

import pytest
from django.core import mail
from django.core.management import call_command
from django.db import connection
from django.utils import timezone

from contact import dedupe
from contact.models import ContactMessage

from .helpers import BROWSER_ACCEPT, SITE_ORIGIN, VALID, assert_error, numbered

pytestmark = pytest.mark.django_db(transaction=True)


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
    assert post(body, proven=False).status_code == 201  # unproven: spam, answered as a success


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


def test_filled_honeypot_pretends_success_is_stored_as_spam_and_never_mailed(post):
    response = post({**VALID, "website": "https://spam.example"})
    assert response.status_code == 201
    assert response.json() == {"ok": True}
    browser = post(numbered(1) | {"website": "x"}, as_json=False, headers={"Accept": BROWSER_ACCEPT})
    assert browser.status_code == 303
    assert [(m.status, m.spam_reason) for m in ContactMessage.objects.all()] == [("spam", "honeypot")] * 2
    assert not mail.outbox


def test_filled_honeypot_with_invalid_fields_pretends_success_and_stores_nothing(post):
    response = post({"name": "", "email": "nope", "message": "", "website": "x"})
    assert response.status_code == 201
    assert not ContactMessage.objects.exists()


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


def test_a_name_with_line_breaks_is_mailed_with_one_line_headers(post):
    name = "Ada\nBcc: eve@example.com\x0bX-A: 1\x1cX-B: 2\x85X-C: 3\u2028X-D: 4\rX-E: 5"
    assert post({**VALID, "name": name}).status_code == 201
    (email,) = mail.outbox
    assert email.subject == "Contact form: Ada Bcc: eve@example.com X-A: 1 X-B: 2 X-C: 3 X-D: 4 X-E: 5"
    assert ContactMessage.objects.get().notified_at is not None
    sent = message_from_bytes(email.message().as_bytes(), policy=policy.default)
    headers = ["Content-Type", "MIME-Version", "Content-Transfer-Encoding", "Subject", "From", "To",
               "Date", "Message-ID", "Reply-To"]  # fmt: skip
    assert sorted(sent.keys()) == sorted(headers)


@pytest.mark.parametrize("char", ["\x0b", "\x0c", "\x1c", "\x85", "\u2028", "\x7f", "\t"])
def test_an_email_with_a_control_character_anywhere_is_refused(post, char):
    error = assert_error(post({**VALID, "email": f'"x{char}Injected"@example.org'}), 400, "invalid")
    assert set(error["fields"]) == {"email"}
    assert not ContactMessage.objects.exists() and not mail.outbox


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


def test_the_same_message_is_one_copy_across_a_window_boundary_and_two_after_a_window(settings):
    """Windows are clock-aligned: a retry just after a boundary finds the copy stored just before
    it; a whole window later the same message is a new one. (The clock is passed in.)"""
    settings.CONTACT_RATE = "5/10m"
    fields = {key: VALID[key] for key in ("name", "email", "message")}
    extra = {"origin": SITE_ORIGIN}
    start = timezone.now()
    first, created = dedupe.store("192.0.2.1", fields, now=start, **extra)
    assert created
    assert dedupe.store("192.0.2.1", fields, now=start + timedelta(minutes=10), **extra) == (first, False)
    assert dedupe.store("192.0.2.2", fields, now=start, **extra)[1]  # another client
    later, created = dedupe.store("192.0.2.1", fields, now=start + timedelta(minutes=20, seconds=1), **extra)
    assert created and later != first
    assert ContactMessage.objects.count() == 3


def test_a_copy_stored_meanwhile_is_found_when_the_database_refuses_the_second(settings):
    """Two workers check at once, both find nothing, both insert: the unique fingerprint refuses
    the second, which answers with the first's row. (Here the check is passed by a copy stored
    with another clock: its row is older than the window, its fingerprint is the current one.)"""
    fields = {key: VALID[key] for key in ("name", "email", "message")}
    now = timezone.now()
    first, _ = dedupe.store("192.0.2.1", fields, now=now, origin=SITE_ORIGIN)
    ContactMessage.objects.update(created_at=now - timedelta(days=1))
    assert dedupe.store("192.0.2.1", fields, now=now, origin=SITE_ORIGIN) == (first, False)
    assert ContactMessage.objects.count() == 1


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


def test_a_failure_after_storing_is_answered_as_success_and_the_mail_stays_owed(post, caplog):
    refuse("UPDATE", "Ada Lovelace")  # the notification's bookkeeping: its claim, then notified_at
    with caplog.at_level(logging.ERROR, logger="contact.delivery"):
        assert post().status_code == 201
    assert "stored, but what followed failed" in caplog.text
    assert post().status_code == 201  # the client's retry: stored once
    assert ContactMessage.objects.count() == 1
    assert not mail.outbox
    with connection.cursor() as cursor:
        cursor.execute("DROP TRIGGER refuse_update")
    call_command("send_contact_notifications", stdout=io.StringIO())
    call_command("send_contact_notifications", stdout=io.StringIO())
    assert len(mail.outbox) == 1
    assert ContactMessage.objects.get().notified_at is not None
