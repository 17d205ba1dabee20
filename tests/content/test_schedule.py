"""Scheduled articles (portfolio/content/schedule.py): an article dated after the build's date
(BUILD_DATE) is absent from every surface a draft is absent from, and the first import on or after
its date publishes it though its file did not change; the authoring server with SHOW_DRAFTS shows
it with a "Scheduled for <date>" banner."""

import datetime
import io

import pytest
from django.core.exceptions import ImproperlyConfigured

from portfolio.content.autosync import ContentSyncHandler
from portfolio.content.importer import import_content
from portfolio.content.models import Article, Tagging
from portfolio.settings import env_date
from tests.content_builder import article, write_content
from tests.pages.conftest import body_of, distilled

from .helpers import assert_named_error

SLUG, TITLE, DAY = "tomorrows-post", "Tomorrow's post title", datetime.date(2026, 6, 2)
FILE = article(
    TITLE, date=DAY.isoformat(), tags="[later-tag]", body="Due [soon](../articles/first-post.md).\n"
)


def surfaces(client):
    """{path: text} of every URL a build would write."""
    return {path: body_of(client.get(path)) for path, _statuses in distilled()}


def naming(pages):
    return sorted(
        path for path, text in pages.items() if SLUG in text or TITLE in text or "later-tag" in text
    )


@pytest.fixture
def scheduled(imported, settings):
    settings.BUILD_DATE = DAY - datetime.timedelta(days=1)
    write_content(imported, {f"articles/{SLUG}.md": FILE})
    import_content(imported, workers=1)
    return imported


def test_an_article_after_the_build_date_is_published_on_its_day(scheduled, client, settings):
    row = Article.objects.get(slug=SLUG)
    assert (row.draft, row.scheduled) == (True, True) and row.body_html  # rendered, waiting
    assert naming(surfaces(client)) == []
    assert client.get(f"/articles/{SLUG}").status_code == 404
    assert client.get(f"/api/v1/articles/{SLUG}.json").status_code == 404
    assert not Tagging.objects.filter(item=SLUG).exists()

    settings.BUILD_DATE = DAY  # the day comes: the same file, untouched, is published
    result = import_content(scheduled, workers=1)
    assert result.updated == 1
    row = Article.objects.get(slug=SLUG)
    assert (row.draft, row.scheduled) == (False, False)
    pages = surfaces(client)
    named = naming(pages)
    expected = ["/articles", "/feed.xml", "/llms.txt", "/tags/later-tag", f"/articles/{SLUG}",
                f"/api/v1/articles/{SLUG}.json", "/api/v1/articles.json",
                "/sitemap-articles.xml"]  # fmt: skip
    assert set(expected) <= set(named), named
    assert "Scheduled for" not in pages[f"/articles/{SLUG}"]
    assert import_content(scheduled, workers=1).updated == 0  # published once, then left alone

    settings.BUILD_DATE = DAY - datetime.timedelta(days=3)  # back in time: held back again
    import_content(scheduled, workers=1)
    assert Article.objects.get(slug=SLUG).scheduled and naming(surfaces(client)) == []


def test_show_drafts_shows_it_with_a_scheduled_banner(scheduled, client, settings):
    settings.SHOW_DRAFTS = True
    body = body_of(client.get(f"/articles/{SLUG}"))
    assert '<p class="draft-banner" role="note"><strong>Scheduled for 2026-06-02</strong>' in body
    assert "Due <a" in body  # its body, rendered
    assert '<meta name="robots" content="noindex">' in body
    assert (
        naming({path: text for path, text in surfaces(client).items() if path != f"/articles/{SLUG}"}) == []
    )


def test_a_link_to_a_scheduled_article_is_refused_as_one_to_a_draft(scheduled):
    write_content(scheduled, {"articles/early.md": article(body=f"See [it](../articles/{SLUG}.md).\n")})
    assert_named_error(scheduled, "articles/early.md", "line 6", "is a draft")


def test_build_date_must_be_a_date(monkeypatch):
    for value in ["2026-6-1", "tomorrow", "20260601", "2026-02-30"]:
        monkeypatch.setenv("BUILD_DATE", value)
        with pytest.raises(ImproperlyConfigured, match="BUILD_DATE: expected a date YYYY-MM-DD"):
            env_date("BUILD_DATE")
    monkeypatch.setenv("BUILD_DATE", "2026-06-01")
    assert env_date("BUILD_DATE") == datetime.date(2026, 6, 1)


def test_the_authoring_server_publishes_it_when_the_day_changes(db, content_dir, settings):
    """No file changes at midnight: the authoring server's sync looks again when the date does."""
    settings.CONTENT_DIR, settings.SITE_URL = content_dir, ""
    settings.BUILD_DATE = DAY - datetime.timedelta(days=1)
    write_content(content_dir, {f"articles/{SLUG}.md": FILE})
    handler = ContentSyncHandler(lambda environ, start_response: [], content_dir, io.StringIO())
    handler.sync()  # the first request imports everything
    assert Article.objects.get(slug=SLUG).scheduled
    handler.sync()
    generation = handler.generation
    settings.BUILD_DATE = DAY
    handler.sync()
    assert not Article.objects.get(slug=SLUG).draft and handler.generation == generation + 1
