"""/feed.xml read by the validator of its ecosystem, feedparser, and as plain XML: its entries'
whole bodies (the tags' feeds are the same class, tests/pages/test_tags.py)."""

import re
import time
import xml.etree.ElementTree as ET

import feedparser
from django.urls import reverse

from pages.feeds import SiteFeed, absolute_html
from pages.tags import tag_slugs
from portfolio.content.importer import import_content
from portfolio.content.models import Article
from portfolio.export.verify import xml_problems
from tests.content_builder import SITE_URL, article, write_content

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


ATOM = "{http://www.w3.org/2005/Atom}"


def atom_entries(client, path):
    """{entry id: its <content>'s text (the HTML)} of the feed at `path`, parsed as plain XML."""
    root = ET.fromstring(client.get(path).content)
    found = {}
    for entry in root.iter(ATOM + "entry"):
        content = entry.find(ATOM + "content")
        assert content.get("type") == "html" and entry.find(ATOM + "summary") is not None
        found[entry.find(ATOM + "id").text] = content.text
    return found


def absolute(body_html):
    """The body as the feed must carry it: each address of the site absolute (src, href, every
    srcset candidate), written independently of pages/feeds.py's rewriting."""
    body_html = re.sub(r'(src|href)="/', rf'\1="{SITE_URL}/', body_html)
    return re.sub(r'(srcset="|, )/media/', rf"\1{SITE_URL}/media/", body_html)


def test_entries_carry_the_whole_body_with_absolute_addresses(media_site, client):
    body = (
        "## Shots\n\n![Cover](../media/alpha/cover.png)\n\n"
        '<picture><source srcset="/media/alpha/cover.png 2x, /media/alpha/small.png 1x" type="image/png">'
        "<img src='/media/alpha/small.png' alt=\"Small\"></picture>\n\n"
        "See [the first post](first-post.md) and [away](https://example.org/a?b=1&c=2).\n"
    )
    write_content(
        media_site,
        {"articles/pictures.md": article("Pictures", date="2026-06-01", tags="[intro]", body=body)},
    )
    import_content(media_site, workers=1)
    page = f"{SITE_URL}/articles/pictures"
    for feed in ("/feed.xml", "/tags/intro/feed.xml"):
        content = atom_entries(client, feed)[page]
        body_html = Article.objects.get(slug="pictures").body_html
        assert 'srcset="/media/_v/' in body_html and "/media/_v/" in content  # the variants, resized
        expected = absolute(body_html).replace(
            "<img src='/media/alpha/small.png' alt=\"Small\">",
            f'<img src="{SITE_URL}/media/alpha/small.png" alt="Small">',
        )
        assert content == expected.replace('href="#', f'href="{page}#'), feed
        assert (
            f'href="{SITE_URL}/articles/first-post"' in content
            and 'href="https://example.org/a?b=1&amp;c=2"' in content
        )
        assert f'srcset="{SITE_URL}/media/alpha/cover.png 2x, {SITE_URL}/media/alpha/small.png 1x"' in content
        assert f'href="{page}#shots"' in content  # the heading's own link
    project = atom_entries(client, "/feed.xml")[f"{SITE_URL}/projects/alpha-one"]
    assert (
        f'src="{SITE_URL}/media/diagram.svg"' in project
        and f'href="{SITE_URL}/articles/first-post#top"' in project
    )
    assert 'href="mailto:a@example.org"' in project


def test_the_feeds_stay_well_formed_with_hostile_text(imported, client):
    hostile = "Tom & Jerry <script>alert(1)</script> ]]> </content> \u202etxt \U0001f600 \u2028"
    write_content(imported, {"articles/hostile.md": article(
        hostile.replace("\u2028", ""), date="2026-06-01", tags=f'["{hostile[:20]}", "{hostile[20:]}"]',
        body=f"{hostile}\n\n<div title='a > b' data-x=\"<\">raw</div>\n\n```\n{hostile} href=\"/x\"\n```\n",
    )})  # fmt: skip
    import_content(imported, workers=1)
    for path in ["/feed.xml", *(reverse("pages:tag-feed", args=[slug]) for slug in tag_slugs())]:
        response = client.get(path)
        assert xml_problems(path, response.content) == [], path
    content = atom_entries(client, "/feed.xml")[f"{SITE_URL}/articles/hostile"]
    assert (
        "&lt;script&gt;alert(1)&lt;/script&gt; ]]&gt; &lt;/content&gt;" in content
    )  # escaped text stays text
    assert 'href="/x"' in content, "text that looks like an attribute is left alone"


def test_only_the_address_attributes_of_tags_become_absolute():
    """Not text inside another attribute's value, nor a tag shown as text in code."""
    body = (
        '<p title="see src=x.png">a</p><a class="k" href="b">b</a>'
        '<code>&lt;a href="/c"&gt;</code><IMG SRC=/d.png>'
    )
    assert absolute_html(body, "https://example.com/articles/p") == (
        '<p title="see src=x.png">a</p><a class="k" href="https://example.com/articles/b">b</a>'
        '<code>&lt;a href="/c"&gt;</code><IMG SRC="https://example.com/d.png">'
    )


def test_an_address_no_browser_could_follow_is_left_as_written():
    """urljoin refuses a bracketed host that is no IPv6 address (the fuzz test found `//[a]/`)."""
    body = '<a href="//[a]/x">a</a><img src="http://[b/y" srcset="//[c]/z 2x, /w.png 1x">'
    assert absolute_html(body, "https://example.com/articles/p") == (
        '<a href="//[a]/x">a</a><img src="http://[b/y" srcset="//[c]/z 2x, https://example.com/w.png 1x">'
    )


HOSTILE_TAGS = ["<a href=x ", '<a title="', "<a x='", "<a =", '<img alt="a" src=', "<p ", "<a href=x>"]


def test_addresses_are_made_absolute_in_linear_time():
    """Each shape about 1 MB: `<a href=x ` repeated was cubic (5 KB: a 12.9 s render)."""
    for shape in HOSTILE_TAGS:
        body = shape * (1_000_000 // len(shape))
        started = time.perf_counter()
        absolute_html(body, "https://example.com/articles/p")
        took = time.perf_counter() - started
        assert took < 5, f"{shape!r}: {took:.1f} s"


def test_a_feed_of_a_hostile_body_renders_at_once(imported, client):
    """The reproducer: a raw HTML block of `<a href=x ` (kept as written by markdown), 1 MB."""
    body = "<div>\n" + "<a href=x " * 95_000 + ">\n</div>\n\n<a href=/y>y</a>\n"
    write_content(imported, {"articles/hostile.md": article("Hostile", date="2026-06-01", body=body)})
    import_content(imported, workers=1)
    started = time.perf_counter()
    content = atom_entries(client, "/feed.xml")[f"{SITE_URL}/articles/hostile"]
    took = time.perf_counter() - started
    assert f'<a href="{SITE_URL}/y">y</a>' in content
    assert took < 5, f"{took:.1f} s"
