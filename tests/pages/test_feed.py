"""/feed.xml read by the validator of its ecosystem: feedparser."""

import feedparser

from pages.feeds import SiteFeed
from tests.content_builder import SITE_URL

NEWEST_FIRST = [
    "/articles/unicode-post",
    "/articles/crlf-post",  # same date as same-day: by slug
    "/articles/same-day",
    "/projects/alpha-one",  # same date as gamma: by slug
    "/projects/gamma",
    "/projects/beta_two",
    "/articles/first-post",
    "/projects/delta",
]


def parse(get):
    response, body = get("/feed.xml")
    assert response["Content-Type"].startswith("application/atom+xml")
    feed = feedparser.parse(body)
    assert not feed.bozo, feed.get("bozo_exception")
    return feed


def test_atom_feed_parses_without_bozo(get):
    feed = parse(get)
    assert feed.version == "atom10"
    assert feed.feed.title == "Test Portfolio"
    assert feed.feed.subtitle == "A portfolio used by the test suite."
    assert feed.feed.author == "Test Author"
    assert feed.feed.id == f"{SITE_URL}/"
    assert feed.feed.updated == "2026-05-05T00:00:00+00:00"
    links = {link.rel: link.href for link in feed.feed.links}
    assert links == {"alternate": f"{SITE_URL}/", "self": f"{SITE_URL}/feed.xml"}


def test_projects_and_published_articles_newest_first(get):
    entries = parse(get).entries
    assert [entry.link for entry in entries] == [SITE_URL + path for path in NEWEST_FIRST]
    assert [entry.id for entry in entries] == [SITE_URL + path for path in NEWEST_FIRST]
    for entry in entries:
        assert entry.updated_parsed and entry.published_parsed
        assert entry.title and entry.summary


def test_entries_carry_title_summary_and_categories(get):
    entry = parse(get).entries[0]
    assert entry.title == "Ünïcode ✓ 日本語"
    assert entry.summary == "An article description"
    assert [tag.term for tag in entry.tags] == ["article", "ünï"]
    assert entry.updated == "2026-05-05T00:00:00+00:00"


def test_site_url_setting_overrides_site_yaml(get, settings):
    settings.SITE_URL = "https://example.org"
    feed = parse(get)
    assert feed.entries[0].link == "https://example.org/articles/unicode-post"
    assert "portfolio.test" not in get("/feed.xml")[1]


def test_only_the_newest_entries(get, monkeypatch):
    monkeypatch.setattr(SiteFeed, "max_entries", 3)
    entries = parse(get).entries
    assert [entry.link for entry in entries] == [SITE_URL + path for path in NEWEST_FIRST[:3]]
