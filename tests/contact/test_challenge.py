"""The proof of work: GET /api/contact/challenge, and what a post's `altcha` field makes of it.
A valid solution is stored and notified; none, an invalid, expired or replayed one, or a filled
honeypot is stored as spam, answered exactly as a success, and never notified."""

import base64
import json
import time
from urllib.parse import parse_qs

import altcha
import pytest
from django.core import mail
from django.core.management import call_command

from contact import challenge
from contact.models import ContactMessage, UsedChallenge

from .helpers import BROWSER_ACCEPT, SITE_ORIGIN, TEST_MAXNUMBER, VALID, assert_error, numbered, solve

pytestmark = pytest.mark.django_db(transaction=True)

URL = "/api/contact/challenge"


def get(client, origin=SITE_ORIGIN, **headers):
    if origin is not None:
        headers.setdefault("Origin", origin)
    return client.get(URL, headers=headers)


def test_a_challenge_is_signed_expiring_and_never_cached(client, settings):
    before = time.time()
    response = get(client)
    assert response.status_code == 200
    assert response["Cache-Control"] == "no-store"
    assert response["Access-Control-Allow-Origin"] == SITE_ORIGIN
    body = response.json()
    assert set(body) == {"algorithm", "challenge", "salt", "signature", "maxnumber"}
    assert body["algorithm"] == "SHA-256" and body["maxnumber"] == TEST_MAXNUMBER
    expires = int(parse_qs(body["salt"].split("?", 1)[1])["expires"][0])
    assert before + 600 - 1 <= expires <= time.time() + 600  # the default: 10 minutes
    assert get(client).json()["challenge"] != body["challenge"]  # a new one each time


def test_the_challenge_follows_the_settings(client, settings):
    settings.CONTACT_CHALLENGE_MAXNUMBER = 5000
    settings.CONTACT_CHALLENGE_EXPIRY = 60
    body = get(client).json()
    assert body["maxnumber"] == 5000
    assert int(parse_qs(body["salt"].split("?", 1)[1])["expires"][0]) <= time.time() + 60


def test_a_same_origin_page_is_known_by_its_referer(client):
    """Browsers send no Origin with a same-origin GET; the Referer says where it comes from."""
    response = get(client, origin=None, Referer=f"{SITE_ORIGIN}/contact")
    assert response.status_code == 200


@pytest.mark.parametrize("headers", [{}, {"Origin": "https://evil.example"}, {"Origin": "null"}])
def test_other_origins_get_403(client, headers):
    response = client.get(URL, headers=headers)
    assert_error(response, 403, "origin_not_allowed")
    assert response["Cache-Control"] == "no-store"
    assert "Access-Control-Allow-Origin" not in response


def test_only_get(client):
    response = client.post(URL, headers={"Origin": SITE_ORIGIN})
    assert_error(response, 405, "method_not_allowed")
    assert response["Allow"] == "GET"


def test_challenges_are_rate_limited_apart_from_posts(client, settings, post):
    settings.CONTACT_RATE = "2/m"
    assert [get(client).status_code for _ in range(2)] == [200, 200]
    response = get(client)
    assert_error(response, 429, "rate_limited")
    assert 1 <= int(response["Retry-After"]) <= 60
    assert post().status_code == 201  # fetching challenges cost no post


def fetched(client):
    """A challenge fetched and solved as the form's script does it."""
    return solve(get(client).json())


def test_a_solved_challenge_is_stored_as_not_spam_and_mailed(client, post):
    response = post({**VALID, "altcha": fetched(client)})
    assert response.status_code == 201 and response.json() == {"ok": True}
    message = ContactMessage.objects.get()
    assert (message.status, message.spam_reason) == ("ham", "")
    assert message.notified_at is not None and len(mail.outbox) == 1
    assert UsedChallenge.objects.count() == 1


def payload(solution, **changes):
    data = json.loads(base64.b64decode(solution))
    data.update(changes)
    return base64.b64encode(json.dumps(data).encode()).decode()


def tampered_cases(client, settings):
    """(name, altcha field) of every kind of invalid solution."""
    good = fetched(client)
    data = json.loads(base64.b64decode(good))
    settings.CONTACT_CHALLENGE_HMAC_KEY = "other key, other service" * 2
    other_key = solve(challenge.create())
    settings.CONTACT_CHALLENGE_HMAC_KEY = ""
    # Our key, but made without an expiry (never by this service): no expiry, no trust.
    made = altcha.create_challenge_v1(hmac_key=challenge.hmac_key(), max_number=TEST_MAXNUMBER)
    timeless = solve({**made.to_dict(), "maxnumber": made.max_number})
    return [
        ("not base64", "%%%not base64%%%"),
        ("not JSON", base64.b64encode(b"{nope").decode()),
        ("not an object", base64.b64encode(b"[1, 2]").decode()),
        ("a wrong number", payload(good, number=(data["number"] + 1) % (TEST_MAXNUMBER + 1))),
        ("a number as text", payload(good, number=str(data["number"]))),
        ("another algorithm", payload(good, algorithm="SHA-1")),
        ("a forged signature", payload(good, signature="0" * 64)),
        ("a longer expiry", payload(good, salt=data["salt"].replace("expires=", "expires=9"))),
        ("an expiry cut off", payload(good, salt=data["salt"].split("?")[0] + "&")),
        ("signed without an expiry", timeless),
        ("signed with another key", other_key),
        ("missing fields", base64.b64encode(json.dumps({"number": 1}).encode()).decode()),
        ("far too long", "A" * 5000),
    ]


def assert_spam(response, reason, count=1):
    assert response.status_code == 201 and response.json() == {"ok": True}
    assert [(m.status, m.spam_reason) for m in ContactMessage.objects.all()] == [("spam", reason)] * count
    assert not mail.outbox


def test_no_solution_is_spam_answered_as_a_success_and_never_mailed(post):
    assert_spam(post(proven=False), "missing")
    browser = post(numbered(1), as_json=False, proven=False, headers={"Accept": BROWSER_ACCEPT})
    assert browser.status_code == 303 and browser["Location"] == f"{SITE_ORIGIN}/contact/thanks"
    assert ContactMessage.objects.filter(status="spam").count() == 2
    call_command("send_contact_notifications")  # the outbox never sends spam
    assert not mail.outbox


def test_every_invalid_solution_is_spam(client, settings, post):
    cases = tampered_cases(client, settings)
    for n, (name, field) in enumerate(cases):
        response = post({**numbered(n), "altcha": field})
        assert response.status_code == 201 and response.json() == {"ok": True}, name
        assert ContactMessage.objects.get(message=numbered(n)["message"]).spam_reason == "invalid", name
    assert not mail.outbox
    assert not UsedChallenge.objects.exists()


def test_an_expired_solution_is_spam(post, settings):
    settings.CONTACT_CHALLENGE_EXPIRY = 60
    old = solve(challenge.create(now=time.time() - 61))
    assert_spam(post({**VALID, "altcha": old}), "expired")


def test_a_solution_is_used_once(client, post):
    solution = fetched(client)
    assert post({**numbered(1), "altcha": solution}).status_code == 201
    replay = post({**numbered(2), "altcha": solution})
    assert replay.status_code == 201 and replay.json() == {"ok": True}
    first, second = ContactMessage.objects.order_by("id")
    assert (first.status, second.status, second.spam_reason) == ("ham", "spam", "replayed")
    assert len(mail.outbox) == 1


def test_a_retry_with_the_same_solution_is_the_same_message(client, post):
    """A double click or a retry sends the same body again: one message, not a replay."""
    body = {**VALID, "altcha": fetched(client)}
    assert [post(body).status_code for _ in range(2)] == [201, 201]
    assert ContactMessage.objects.get().status == "ham"
    assert len(mail.outbox) == 1


def test_a_filled_honeypot_is_spam_even_with_a_solution(client, post):
    assert_spam(post({**VALID, "website": "https://spam.example", "altcha": fetched(client)}), "honeypot")


def test_validation_errors_stay_errors_without_a_solution(post):
    error = assert_error(post({**VALID, "email": "nope"}, proven=False), 400, "invalid")
    assert set(error["fields"]) == {"email"}
    assert not ContactMessage.objects.exists()


def test_spent_solutions_are_forgotten_once_expired(client, post, settings):
    assert post({**numbered(1), "altcha": fetched(client)}).status_code == 201
    UsedChallenge.objects.update(expires_at="2000-01-01T00:00:00Z")
    assert post({**numbered(2), "altcha": fetched(client)}).status_code == 201
    assert UsedChallenge.objects.count() == 1  # the expired record went when the next was spent
