"""The production contact service: `CONTACT_SERVICE=1 gunicorn portfolio.wsgi`."""

import sqlite3
import subprocess
import sys

import pytest
from django.core import mail

from contact.models import ContactMessage

from .helpers import SITE_ORIGIN, VALID
from .servers import GUNICORN, ROOT, gunicorn, migrate, redis_server, request, service_env

IMPORT_SETTINGS = [sys.executable, "-c", "import django; django.setup()"]


@pytest.mark.parametrize(
    "overrides, complaint",
    [
        ({"SECRET_KEY": ""}, "needs a real SECRET_KEY"),
        ({"SECRET_KEY": "django-insecure-local-authoring-only"}, "needs a real SECRET_KEY"),
        ({"SECRET_KEY": "django-insecure-" + "x" * 40}, "needs a real SECRET_KEY"),
        ({"SECRET_KEY": "short"}, "needs a real SECRET_KEY"),
        ({"DEBUG": "1"}, "refuses to run with DEBUG on"),
    ],
)
def test_the_service_refuses_to_start_insecure(tmp_path, overrides, complaint):
    result = subprocess.run(
        IMPORT_SETTINGS, cwd=ROOT, env=service_env(tmp_path, **overrides), capture_output=True, text=True
    )
    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr and complaint in result.stderr


def test_gunicorn_exits_with_the_reason_when_the_key_is_insecure(tmp_path):
    env = service_env(tmp_path, SECRET_KEY="")
    result = subprocess.run(
        [str(GUNICORN), "portfolio.wsgi", "--bind", "127.0.0.1:0", "--workers", "1"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert result.returncode != 0
    assert "needs a real SECRET_KEY" in result.stderr


def test_the_service_urlconf_exposes_only_the_contact_route(client, settings, db):
    settings.ROOT_URLCONF = "contact.service_urls"
    assert client.post(
        "/api/contact", VALID, content_type="application/json", headers={"Origin": SITE_ORIGIN}
    )
    assert ContactMessage.objects.count() == 1
    assert mail.outbox
    for path in ["/", "/contact", "/contact/thanks", "/admin/", "/api/v1", "/static/contact/contact.js"]:
        assert client.get(path).status_code == 404, path


def test_the_service_shows_a_browsers_form_errors_with_links_to_the_site(post, settings, imported):
    settings.ROOT_URLCONF = "contact.service_urls"
    settings.SITE_URL = SITE_ORIGIN
    response = post({**VALID, "email": "not an address"}, as_json=False, headers={"Accept": "text/html"})
    assert response.status_code == 400 and response["Content-Type"].startswith("text/html")
    page = response.content.decode()
    assert "Enter a valid email address" in page
    assert f'href="{SITE_ORIGIN}/projects"' in page, "the service is another host: links go to the site"


def test_the_admin_only_when_asked(tmp_path):
    env = service_env(tmp_path, CONTACT_SERVICE_ADMIN="1")
    migrate(env)
    with gunicorn(env, tmp_path) as port:
        status, headers, _ = request(port, "GET", "/admin/")
        assert status == 302 and headers["Location"].startswith("/admin/login/")
        assert request(port, "GET", "/contact")[0] == 404


def test_gunicorn_serves_only_the_contact_route_and_the_limit_spans_two_processes(tmp_path):
    """Two gunicorn processes sharing one Redis: the counts of both add up to one limit."""
    with redis_server(tmp_path) as redis_url:
        env = service_env(tmp_path, REDIS_URL=redis_url, CONTACT_RATE="3/1m")
        migrate(env)
        with gunicorn(env, tmp_path) as first, gunicorn(env, tmp_path) as second:
            post = {"body": VALID, "headers": {"Origin": SITE_ORIGIN}}
            statuses = [request(port, "POST", "/api/contact", **post)[0] for port in (first, second) * 3]
            assert statuses == [201, 201, 201, 429, 429, 429]
            status, headers, body = request(second, "POST", "/api/contact", **post)
            assert status == 429 and 1 <= int(headers["Retry-After"]) <= 60
            assert b'"rate_limited"' in body

            assert request(first, "POST", "/api/contact", VALID, {"Origin": "https://evil.test"})[0] == 403
            assert request(first, "GET", "/api/contact")[0] == 405
            for path in [
                "/",
                "/contact",
                "/contact/thanks",
                "/admin/",
                "/api/v1",
                "/static/contact/contact.js",
            ]:
                assert request(first, "GET", path)[0] == 404, path
    with sqlite3.connect(tmp_path / "service.sqlite3") as db:
        assert db.execute("select count(*) from contact_contactmessage").fetchone() == (3,)
