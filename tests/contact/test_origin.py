"""The origin allowlist that replaces credentials and the CSRF token."""

import pytest

from contact.models import ContactMessage
from contact.origins import normalize_origin

from .helpers import SITE_ORIGIN, assert_error

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "value, expected",
    [
        ("https://portfolio.test", "https://portfolio.test"),
        ("https://portfolio.test/", "https://portfolio.test"),
        ("HTTPS://Portfolio.TEST", "https://portfolio.test"),
        ("https://portfolio.test:443", "https://portfolio.test"),
        ("http://portfolio.test:80/", "http://portfolio.test"),
        ("http://127.0.0.1:8000", "http://127.0.0.1:8000"),
        ("http://[::1]:8000", "http://[::1]:8000"),
        ("https://portfolio.test/contact", None),
        ("https://portfolio.test?x", None),
        ("https://user@portfolio.test", None),
        ("https://portfolio.test:99999", None),
        ("null", None),
        ("", None),
        ("ftp://portfolio.test", None),
        ("portfolio.test", None),
    ],
)
def test_normalize_origin(value, expected):
    assert normalize_origin(value) == expected


@pytest.mark.parametrize(
    "headers",
    [
        {"Origin": SITE_ORIGIN},
        {"Origin": "HTTPS://PORTFOLIO.Test"},
        {"Origin": "https://portfolio.test:443"},
        {"Referer": f"{SITE_ORIGIN}/contact"},
        {"Referer": "https://Portfolio.test/contact?from=home#form"},
    ],
)
def test_allowed_origins(post, headers):
    assert post(origin=None, headers=headers).status_code == 201


@pytest.mark.parametrize(
    "headers",
    [
        {},  # neither header
        {"Origin": "null"},
        {"Origin": "null", "Referer": f"{SITE_ORIGIN}/contact"},  # null is not replaced by Referer
        {"Origin": "https://evil.test"},
        {"Origin": "https://evil.test", "Referer": f"{SITE_ORIGIN}/contact"},  # Origin wins
        {"Origin": "http://portfolio.test"},  # another scheme
        {"Origin": "https://portfolio.test:8443"},  # another port
        {"Origin": "https://portfolio.test.evil.test"},
        {"Origin": "https://evil-portfolio.test"},
        {"Origin": "https://portfolio.test@evil.test"},
        {"Origin": "https://portfolio.test/../"},
        {"Origin": f"{SITE_ORIGIN}, https://evil.test"},
        {"Referer": "https://evil.test/https://portfolio.test/contact"},
        {"Referer": "https://evil.test/?next=https://portfolio.test"},
        {"Referer": "/contact"},
        {"Referer": "not a url"},
    ],
)
def test_forged_missing_and_null_origins_get_403_and_store_nothing(post, headers):
    assert_error(post(origin=None, headers=headers), 403, "origin_not_allowed")
    assert not ContactMessage.objects.exists()


def test_configured_origins_tolerate_case_and_trailing_slash(post, settings):
    settings.CONTACT_ALLOWED_ORIGINS = ["HTTPS://Www.Example.COM/", "http://localhost:4321/"]
    assert post(origin="https://www.example.com").status_code == 201
    assert post(origin="http://localhost:4321").status_code == 201
    # Configuring origins replaces the default: the site's own origin is no longer implied.
    assert_error(post(origin=SITE_ORIGIN), 403, "origin_not_allowed")


def test_default_is_site_yaml_url_when_site_url_is_unset(post, settings, imported):
    settings.SITE_URL = ""  # tests/content_builder.py's site.yaml url is https://portfolio.test
    assert post(origin=SITE_ORIGIN).status_code == 201
    assert_error(post(origin="https://other.test"), 403, "origin_not_allowed")


def test_site_url_path_is_ignored(post, settings):
    settings.SITE_URL = "https://example.org/~ada"
    assert post(origin="https://example.org").status_code == 201


@pytest.mark.parametrize("origin", ["http://127.0.0.1:8000", "http://localhost:8000"])
def test_local_authoring_origins_only_with_debug(post, settings, origin):
    assert_error(post(origin=origin), 403, "origin_not_allowed")
    settings.DEBUG = True
    assert post(origin=origin).status_code == 201


def test_nothing_is_allowed_without_any_site_url(post, settings):
    settings.SITE_URL = ""  # and no site.yaml imported
    assert_error(post(origin=SITE_ORIGIN), 403, "origin_not_allowed")


def test_403_is_an_html_page_for_a_browser(post):
    response = post(origin="https://evil.test", as_json=False, headers={"Accept": "text/html"})
    assert response.status_code == 403
    assert "only accepts posts from its own site" in response.content.decode()


def test_allowed_origins_may_read_the_answer_cross_origin(post):
    response = post()
    assert response["Access-Control-Allow-Origin"] == SITE_ORIGIN
    assert "Origin" in response["Vary"]
    assert not post(origin="https://evil.test").has_header("Access-Control-Allow-Origin")


def test_cors_preflight_for_allowed_origins_only(client):
    response = client.options(
        "/api/contact",
        headers={"Origin": SITE_ORIGIN, "Access-Control-Request-Method": "POST"},
    )
    assert response.status_code == 204
    assert response["Access-Control-Allow-Origin"] == SITE_ORIGIN
    assert response["Access-Control-Allow-Methods"] == "POST"
    assert "Content-Type" in response["Access-Control-Allow-Headers"]
    refused = client.options("/api/contact", headers={"Origin": "https://evil.test"})
    assert_error(refused, 403, "origin_not_allowed")
    assert not refused.has_header("Access-Control-Allow-Origin")
