"""The tag pages (pages/tags.py, the content format's "Tags"): /tags, /tags/<slug> in pages,
/tags/<slug>/feed.xml, the pills linking them, and their place in the sitemap and llms.txt.

The standard test content's tags: python (the article same-day spells it so, the projects
alpha-one, gamma and delta `Python`), Django (those projects), intro and meta (first-post), ünï
(unicode-post); the draft has none, and drafts added here never count."""

import re
import xml.etree.ElementTree as ET
from urllib.parse import quote

import feedparser
import pytest
from llms_txt import parse_llms_file

from portfolio.content.importer import import_content
from tests.content_builder import SITE_URL, article, write_content

from .test_pagination import pager_link

UNICODE = "/tags/" + quote("ünï")  # /tags/%C3%BCn%C3%AF


def tag_index(body):
    """[(address, name, count)] of /tags, in its order."""
    index = body.split('<ul class="tag-index">')[1].split("</ul>")[0]
    return re.findall(r'<a href="([^"]+)">([^<]+) <span class="tag-count">(\d+)<', index)


def items_on(body):
    """The addresses of the items a tag page lists, in order."""
    return re.findall(r'<h2 id="(?:project|article)-[^"]+"><a href="([^"]+)">', body)


@pytest.fixture
def drafts_too(imported, settings):
    """The test content plus drafts using an existing tag and a tag of their own."""
    write_content(imported, {
        "articles/draft-a.md": article("Draft A", date="2027-01-01", draft="true", tags="[python, drafted]"),
        "articles/draft-b.md": article("Draft B", date="2027-01-02", draft="true", tags="[PYTHON]"),
    })  # fmt: skip
    import_content(imported, workers=1)
    return imported


def test_the_index_lists_every_tag_with_its_count_by_slug(get, drafts_too):
    _, body = get("/tags")
    assert tag_index(body) == [
        ("/tags/django", "Django", "3"),
        ("/tags/intro", "intro", "1"),
        ("/tags/meta", "meta", "1"),
        ("/tags/python", "python", "4"),  # not the drafts', nor their spelling
        (UNICODE, "ünï", "1"),
    ]
    assert "drafted" not in body


def test_a_tag_page_lists_its_items_newest_first_then_by_slug(get, drafts_too):
    _, body = get("/tags/python")
    assert "<h1>python</h1>" in body and "3 projects and 1 article, newest first." in body
    assert items_on(body) == [
        "/articles/same-day",
        "/projects/alpha-one",
        "/projects/gamma",
        "/projects/delta",
    ]
    assert "Draft" not in body
    get("/tags/drafted", status=404)
    get("/tags/drafted/feed.xml", status=404)


def test_tags_with_one_slug_are_one_tag_spelt_as_its_newest_item(get, imported):
    write_content(
        imported,
        {"articles/newest.md": article("Newest", date="2026-07-07", tags="[PyThOn, Django REST framework]")},
    )
    import_content(imported, workers=1)
    _, body = get("/tags/python")
    assert "<h1>PyThOn</h1>" in body and "3 projects and 2 articles" in body
    # Each item's own pills keep its spelling, and link the one page.
    assert '<a href="/tags/python">Python</a>' in body and '<a href="/tags/python">PyThOn</a>' in body
    _, body = get("/tags/django-rest-framework")
    assert "<h1>Django REST framework</h1>" in body


def test_the_lists_link_the_tags(get):
    for path in ["/articles", "/projects"]:
        assert '<a href="/tags">by tag</a>' in get(path)[1], path


def test_an_item_spelling_one_tag_twice_counts_once(get, imported):
    write_content(
        imported, {"articles/twice.md": article("Twice", date="2026-07-07", tags="[Meta, meta, intro]")}
    )
    import_content(imported, workers=1)
    assert ("/tags/meta", "Meta", "2") in tag_index(get("/tags")[1])
    assert items_on(get("/tags/meta")[1]) == ["/articles/twice", "/articles/first-post"]


def test_every_pill_links_its_tag(get):
    _, body = get("/articles")
    assert f'<li><a href="{UNICODE}">ünï</a></li>' in body
    _, body = get("/articles/first-post")
    # On a page search indexes, the tags are its Pagefind metadata too (search.js shows them as tags).
    pill = '<a href="/tags/{0}">{0}</a>'
    assert """<ul class="tags" aria-label="Tags" data-pagefind-meta='tags:["intro", "meta"]'>""" in body
    assert f"{pill.format('intro')}</li><li>{pill.format('meta')}" in body
    for path in ["/", "/projects"]:  # a project's stack
        _, body = get(path)
        assert '<ul class="tags" aria-label="Stack"><li><a href="/tags/python">Python</a></li>' in body, path
    _, body = get("/projects/alpha-one")
    stack = """<ul class="tags" aria-label="Stack" data-pagefind-meta='tags:["Python", "Django"]'><li>"""
    assert stack in body
    for path in re.findall(r'<a href="(/tags/[^"]+)"', get("/projects/alpha-one")[1]):
        get(path)


def test_a_tag_in_another_script_works_end_to_end(get, client):
    _, body = get(UNICODE)
    assert "<h1>ünï</h1>" in body and items_on(body) == ["/articles/unicode-post"]
    assert f'<link rel="canonical" href="{SITE_URL}{UNICODE}">' in body
    _, feed = get(UNICODE + "/feed.xml")
    assert feedparser.parse(feed).feed.links[1].href == f"{SITE_URL}{UNICODE}/feed.xml"


def test_a_tag_page_links_its_feed(get):
    _, body = get("/tags/python")
    head = body.split("</head>")[0]
    feed = '<link rel="alternate" type="application/atom+xml" title="python · Test Portfolio"'
    assert f'{feed} href="/tags/python/feed.xml">' in head
    assert '<a href="/tags/python/feed.xml">Atom feed</a>' in body


def test_a_tag_feed_holds_its_items_newest_first(get):
    response, body = get("/tags/python/feed.xml")
    assert response["Content-Type"].startswith("application/atom+xml")
    feed = feedparser.parse(body)
    assert not feed.bozo, feed.get("bozo_exception")
    assert feed.feed.title == "python · Test Portfolio"
    assert {link.rel: link.href for link in feed.feed.links} == {
        "alternate": f"{SITE_URL}/tags/python", "self": f"{SITE_URL}/tags/python/feed.xml"
    }  # fmt: skip
    assert [entry.link for entry in feed.entries] == [
        f"{SITE_URL}{path}"
        for path in ["/articles/same-day", "/projects/alpha-one", "/projects/gamma", "/projects/delta"]
    ]
    assert feed.entries[0].content[0].value == "<p>Article body.</p>"


@pytest.mark.parametrize("size", [1, 2, 3])
def test_tag_pages_are_paginated_as_the_lists(get, settings, size):
    settings.LIST_PAGE_SIZE = size
    expected = ["/articles/same-day", "/projects/alpha-one", "/projects/gamma", "/projects/delta"]
    pages = -(-len(expected) // size)
    seen, path, number, previous = [], "/tags/python", 1, None
    while path:
        _, body = get(path)
        assert f"Page {number} of {pages}" in body and "<title>python" in body
        assert pager_link(body, "prev") == previous
        seen += items_on(body)
        previous, path = path, pager_link(body, "next")
        if path:
            number += 1
            assert path == f"/tags/python/page/{number}"
    assert (number, seen) == (pages, expected)
    for missing in (0, 1, pages + 1):
        get(f"/tags/python/page/{missing}", status=404)


def test_unknown_tags_are_not_found(get):
    for path in ["/tags/nope", "/tags/nope/feed.xml", "/tags/nope/page/2", "/tags/python/", "/tags/"]:
        get(path, status=404)


def test_every_tag_page_is_in_the_sitemap(get, settings):
    settings.LIST_PAGE_SIZE = 2
    _, body = get("/sitemap-tags.xml")
    ns = "{http://www.sitemaps.org/schemas/sitemap/0.9}"
    urls = {
        url.find(ns + "loc").text: url.find(ns + "lastmod").text
        for url in ET.fromstring(body.encode()).iter(ns + "url")
    }
    paths = ["/tags", "/tags/django", "/tags/django/page/2", "/tags/intro", "/tags/meta", "/tags/python",
             "/tags/python/page/2", UNICODE]  # fmt: skip
    assert list(urls) == [SITE_URL + path for path in paths]
    assert urls[f"{SITE_URL}/tags/python/page/2"] == "2026-04-04"  # the tag's newest item
    assert urls[f"{SITE_URL}/tags"] == "2026-05-05"
    _, index = get("/sitemap-index.xml")
    assert f"<loc>{SITE_URL}/sitemap-tags.xml</loc>" in index


def test_llms_txt_lists_every_tag(get):
    sections = parse_llms_file(get("/llms.txt")[1]).sections
    assert [(link.title, link.url) for link in sections["Tags"]] == [
        (name, SITE_URL + path)
        for name, path in [
            ("Django", "/tags/django"),
            ("intro", "/tags/intro"),
            ("meta", "/tags/meta"),
            ("python", "/tags/python"),
            ("ünï", UNICODE),
        ]  # fmt: skip
    ]
    assert sections["Tags"][3].desc.startswith("3 projects and 1 article, newest first (Atom feed:")
    assert {link.title: link.url for link in sections["Pages"]}["Tags"] == f"{SITE_URL}/tags"


def test_a_site_with_no_tags(get, imported):
    for path in [*(imported / "articles").glob("*.md"), *(imported / "projects").glob("*.md")]:
        path.unlink()
    import_content(imported, workers=1)
    assert "No tags yet." in get("/tags")[1]
    get("/tags/python", status=404)
