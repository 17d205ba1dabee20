"""A language's lists and tags in pages, as the default language's (pages/languages.py,
LanguageList over views.ListPage), its index of tags, and their versions in the other languages
(hreflang, the switcher, the sitemaps)."""

import re
import xml.etree.ElementTree as ET

import pytest

from pages import urls
from portfolio.content.importer import import_content

from .content import add_more, write_multilingual

BASE = "https://portfolio.test"


@pytest.fixture
def paged(db, tmp_path, settings):
    """The multilingual content with more French translations, one item a page: French has three
    pages of projects and two of articles, Persian one of each, Japanese none translated."""
    settings.SITE_URL, settings.LIST_PAGE_SIZE = "", 1
    folder = add_more(write_multilingual(tmp_path / "content"))
    import_content(folder, workers=1)
    return folder


def page(client, path):
    response = client.get(path)
    assert response.status_code == 200, path
    return response.content.decode()


def head_link(body, rel):
    found = re.search(rf'<link rel="{rel}" href="([^"]+)">', body)
    return found and found[1]


def alternates(body):
    return re.findall(r'<link rel="alternate" hreflang="([^"]+)" href="([^"]+)">', body)


def switcher(body):
    nav = re.search(r'<nav class="language-switcher".*?</nav>', body, re.S)[0]
    return dict((code, href) for href, code in re.findall(r'href="([^"]+)" hreflang="([^"]+)"', nav))


def distilled(name):
    """The parameters django-distill renders the route `name` with."""
    pattern = next(pattern for pattern in urls.urlpatterns if pattern.name == name)
    return list(pattern.distill_func())


def titles(body):
    return re.findall(r"<h2[^>]*>\s*<a [^>]*>([^<]+)</a>", body)


def test_a_languages_lists_have_the_defaults_pages_in_its_addresses(paged, client):
    seen, path = [], "/fr/projects"
    for number in (1, 2, 3):
        body = page(client, path)
        assert '<html lang="fr">' in body
        assert f"Page {number} sur 3" in body  # the pager's status, in French
        assert head_link(body, "prev") == {1: None, 2: "/fr/projects", 3: "/fr/projects/page/2"}[number]
        assert 'class="pager-previous" href="/fr/projects"' in body if number == 2 else True
        seen += titles(body)
        path = head_link(body, "next")
    assert path is None  # the last page has no next
    assert seen == ["Alpha Un", "Gamma fr", "Bêta Deux"]  # each once, newest first (then by slug)
    assert head_link(page(client, "/fr/articles"), "next") == "/fr/articles/page/2"
    assert head_link(page(client, "/fr/articles/page/2"), "prev") == "/fr/articles"
    assert "Page 1" not in page(client, "/fa/projects")  # one page: no pager
    # As the default's: page 1 has one address, the list's own, and no page is past the last.
    for path in ["/projects/page/1", "/fr/projects/page/1", "/fr/projects/page/4", "/fr/articles/page/3",
                 "/fa/projects/page/2", "/de/projects/page/2"]:  # fmt: skip
        assert client.get(path).status_code == 404, path


def test_a_languages_tag_pages_are_paginated_too(paged, client):
    first = page(client, "/fr/tags/introduction")
    assert head_link(first, "next") == "/fr/tags/introduction/page/2"
    second = page(client, "/fr/tags/introduction/page/2")
    assert head_link(second, "prev") == "/fr/tags/introduction" and head_link(second, "next") is None
    assert {*titles(first), *titles(second)} == {"Premier article", "Unicode fr"}
    assert client.get("/fr/tags/introduction/page/3").status_code == 404
    assert client.get("/fr/tags/introduction/page/1").status_code == 404


def test_the_distill_params_list_exactly_the_later_pages_there_are(paged, client):
    assert distilled("lang-projects-page") == [("fr", "2"), ("fr", "3")]
    assert distilled("lang-articles-page") == [("fr", "2")]
    tag_pages = distilled("lang-tag-page")
    assert ("fr", "introduction", "2") in tag_pages
    for lang, slug, number in tag_pages:  # each one is a page, and the next number is none
        assert client.get(f"/{lang}/tags/{slug}/page/{number}").status_code == 200
    for lang, slug in distilled("lang-tag"):
        numbers = [int(n) for code, s, n in tag_pages if (code, s) == (lang, slug)]
        after = max(numbers, default=1) + 1
        assert client.get(f"/{lang}/tags/{slug}/page/{after}").status_code == 404, (lang, slug)


def test_without_later_pages_the_params_are_empty(paged, settings):
    settings.LIST_PAGE_SIZE = 50
    assert (
        distilled("lang-projects-page") == distilled("lang-articles-page") == distilled("lang-tag-page") == []
    )


def test_a_languages_tags_index_lists_its_tags_and_its_pages_lead_to_it(paged, client):
    index = page(client, "/fr/tags")
    assert "<h1>Étiquettes</h1>" in index
    listed = re.search(r'<ul class="tag-index">.*?</ul>', index, re.S)[0]
    links = re.findall(r'<li><a href="([^"]+)">', listed)
    assert "/fr/tags/introduction" in links and "/fr/tags/m%C3%A9ta" in links
    assert all(link.startswith("/fr/tags/") for link in links)
    assert 'href="/tags/intro"' not in index  # the default language's tag
    assert '<p class="breadcrumb"><a href="/fr/tags">' in page(client, "/fr/tags/introduction")
    assert '<a href="/fr/tags">par étiquette</a>' in page(client, "/fr/projects")
    assert '<p class="breadcrumb"><a href="/tags">' in page(client, "/tags/intro")  # the default's
    assert 'href="/ja/tags/intro"' in page(client, "/ja/tags")  # no tags of its own: its original's


def test_the_tags_indexes_are_each_others_versions(paged, client):
    prefixes = [("en", ""), ("fr", "/fr"), ("fa", "/fa"), ("ja", "/ja"), ("x-default", "")]
    expected = [(code, f"{BASE}{prefix}/tags") for code, prefix in prefixes]
    assert alternates(page(client, "/tags")) == expected
    assert alternates(page(client, "/fr/tags")) == expected
    assert switcher(page(client, "/fa/tags"))["en"] == "/tags"


def test_a_later_page_has_its_versions_where_the_list_is_as_long(paged, client):
    expected = [("en", f"{BASE}/projects/page/2"), ("fr", f"{BASE}/fr/projects/page/2"),
                ("x-default", f"{BASE}/projects/page/2")]  # fmt: skip
    assert alternates(page(client, "/projects/page/2")) == expected
    assert alternates(page(client, "/fr/projects/page/2")) == expected
    # Where a language's list is shorter, the switcher leads to its list; to the tags where it
    # has no such tag.
    assert switcher(page(client, "/projects/page/4")) == {
        "en": "/projects/page/4", "fr": "/fr/projects", "fa": "/fa/projects", "ja": "/ja/projects"
    }  # fmt: skip
    assert alternates(page(client, "/projects/page/4")) == []  # no other version
    assert switcher(page(client, "/fr/tags/introduction/page/2")) == {
        "en": "/tags", "fr": "/fr/tags/introduction/page/2", "fa": "/fa/tags", "ja": "/ja/tags"
    }  # fmt: skip


def test_the_sitemaps_list_each_languages_later_pages_and_tags(paged, client):
    ns = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9", "x": "http://www.w3.org/1999/xhtml"}

    def locations(section):
        root = ET.fromstring(client.get(f"/sitemap-{section}.xml").content)
        return {url.find("s:loc", ns).text: url for url in root.findall("s:url", ns)}

    pages = locations("pages")
    for path in ["/fr/projects/page/2", "/fr/projects/page/3", "/fr/articles/page/2", "/projects/page/4"]:
        assert BASE + path in pages, path
    assert f"{BASE}/fa/projects/page/2" not in pages and f"{BASE}/fr/projects/page/4" not in pages
    hreflangs = {link.get("hreflang") for link in pages[f"{BASE}/fr/projects/page/3"].findall("x:link", ns)}
    assert hreflangs == {"en", "fr", "x-default"}
    tags = locations("tags")
    for path in ["/tags", "/fr/tags", "/ja/tags", "/fr/tags/introduction", "/fr/tags/introduction/page/2",
                 "/fr/tags/m%C3%A9ta", "/tags/intro"]:  # fmt: skip
        assert BASE + path in tags, path
    assert f"{BASE}/fr/tags/introduction/page/3" not in tags and f"{BASE}/tags/introduction" not in tags


def test_a_languages_home_and_404_lead_to_its_own_lists(paged, client):
    home = page(client, "/fr/")
    assert '<a href="/fr/projects">Tous les projets</a>' in home
    assert '<a href="/fr/articles">Tous les articles</a>' in home
    assert '<a class="button" href="/fr/projects">' in home
    missing = client.get("/fr/404").content.decode()
    assert 'href="/fr/"' in missing and 'href="/fr/projects"' in missing and 'href="/fr/articles"' in missing
    english = page(client, "/")
    assert '<a href="/projects">All projects</a>' in english
