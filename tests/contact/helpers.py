"""Shared by the contact tests."""

import base64
import json
from datetime import UTC, datetime, timedelta

import altcha
import pytest

from contact import delivery

# The tests of the production service's processes and of what it must do in time (a hung Redis
# waited for once, dribbling clients, a slow webhook receiver, a stale claim taken over): one
# xdist unit (tests/scheduling.py), so that they run one after another and never beside each
# other, and the PostgreSQL cluster they share is started once.
SERVICE_TIMINGS = pytest.mark.xdist_group("contact-service-timings")

SITE_ORIGIN = "https://portfolio.test"  # the origin of tests/content_builder.py's SITE_URL
VALID = {"name": "Ada Lovelace", "email": "ada@example.com", "message": "Hello there.\nSecond line."}


def numbered(n):
    """VALID with a message of its own: the same message twice is stored once (a double click)."""
    return {**VALID, "message": f"Message number {n}."}


BROWSER_ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"


def assert_error(response, status, code):
    """The one JSON error shape."""
    assert response.status_code == status, response.content
    assert response["Content-Type"] == "application/json"
    body = response.json()
    assert set(body) == {"ok", "error"} and body["ok"] is False
    assert set(body["error"]) == {"status", "code", "message", "fields"}
    assert body["error"]["status"] == status
    assert body["error"]["code"] == code
    assert isinstance(body["error"]["message"], str) and body["error"]["message"]
    assert isinstance(body["error"]["fields"], dict)
    return body["error"]


# The tests' challenges hide a number up to this (the setting's default makes a browser work
# for a while): a solution costs the tests a millisecond.
TEST_MAXNUMBER = 1000


def solve(challenge):
    """The `altcha` field for a challenge as GET /api/contact/challenge answers it, solved as the
    form's script does (the altcha package's own solver)."""
    found = altcha.solve_challenge_v1(
        challenge["challenge"], challenge["salt"], challenge["algorithm"], challenge["maxnumber"]
    )
    assert found is not None, challenge
    payload = {key: challenge[key] for key in ("algorithm", "challenge", "salt", "signature")}
    return base64.b64encode(json.dumps({**payload, "number": found.number}).encode()).decode()


def signed_challenge(hmac_key, expires_in=600, maxnumber=TEST_MAXNUMBER):
    """A challenge as a service with `hmac_key` hands out (for the tests of a running service that
    are not about the challenge: no request spent on fetching one)."""
    made = altcha.create_challenge_v1(
        altcha.ChallengeOptionsV1(
            max_number=maxnumber,
            hmac_key=hmac_key,
            expires=datetime.now(UTC) + timedelta(seconds=expires_in),
        )
    )
    return {
        "algorithm": made.algorithm,
        "challenge": made.challenge,
        "salt": made.salt,
        "signature": made.signature,
        "maxnumber": made.max_number,
    }


def proven(data, hmac_key):
    """`data` with a fresh solution (the form's script sends one with every message)."""
    return {**data, "altcha": solve(signed_challenge(hmac_key))}


def delivered(timeout=10):
    """Wait (at most `timeout` seconds) until this process's delivery thread tried everything
    handed to it: the mail and the webhook go after the answer (contact/delivery.py)."""
    assert delivery.drain(timeout), f"still delivering after {timeout} s"
