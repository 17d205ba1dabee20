from urllib.parse import urlencode

import pytest
from django.core.cache import cache

from contact import challenge, delivery, ratelimit

from .helpers import SITE_ORIGIN, TEST_MAXNUMBER, VALID, delivered, solve
from .servers import postgres_server


@pytest.fixture(scope="session")
def shared_postgres():
    """One PostgreSQL cluster for the modules that only make databases in it (each test its own
    database); a module that stops or hangs its server starts a cluster of its own."""
    with postgres_server() as cluster:
        yield cluster


@pytest.fixture(autouse=True)
def contact_settings(settings, monkeypatch):
    """Known contact settings for every test; the rate high enough not to get in the way."""
    settings.SITE_URL = SITE_ORIGIN
    settings.DEBUG = False
    settings.CONTACT_ALLOWED_ORIGINS = []
    settings.CONTACT_RATE = "100/m"
    settings.CONTACT_TRUSTED_PROXIES = 0
    settings.CONTACT_NOTIFY_EMAIL = "owner@portfolio.test"
    settings.CONTACT_SERVICE_URL = ""
    settings.CONTACT_CROSS_ORIGIN = False
    settings.CONTACT_CHALLENGE_MAXNUMBER = TEST_MAXNUMBER
    settings.CONTACT_WEBHOOK_URL = ""
    settings.CONTACT_WEBHOOK_SECRET = ""
    cache.clear()
    # A test whose cache failed must not leave the next one without a cache.
    monkeypatch.setattr(ratelimit, "_cache_down_until", 0.0)
    yield settings
    # What a test handed to the delivery thread is tried before its settings and rows go.
    assert delivery.drain(timeout=30), "the delivery thread is still busy"


@pytest.fixture
def post(client, db):
    """post(data, origin=SITE_ORIGIN, as_json=True, proven=True, headers={...}): a POST to
    /api/contact, with a fresh solution of the proof of work (as the form's script sends it)
    unless `proven` is false or `data` has its own `altcha`. The mail and the webhook go after the
    answer: it returns once the delivery thread tried them, unless `wait` is false.

    Delivery needs the message's row committed (`transaction.on_commit`): the tests that look at
    what was delivered are transactional (`django_db(transaction=True)`)."""

    def send(data=None, origin=SITE_ORIGIN, as_json=True, proven=True, wait=True, **extra):
        data = VALID if data is None else data
        if proven and isinstance(data, dict) and "altcha" not in data:
            data = {**data, "altcha": solve(challenge.create())}
        headers = dict(extra.pop("headers", {}))
        if origin is not None:
            headers.setdefault("Origin", origin)
        if as_json:
            body, content_type = data, "application/json"
        else:
            body, content_type = urlencode(data), "application/x-www-form-urlencoded"
        response = client.post("/api/contact", body, content_type=content_type, headers=headers, **extra)
        if wait:
            delivered()
        return response

    return send
