"""Standalone pages (content/pages/<slug>.md) at /<slug>: imported by the real importer into
SQLite, read through the test client."""

import json
import xml.etree.ElementTree as ET

import pytest

from portfolio.content.importer import import_content
from portfolio.content.models import Page
from portfolio.content.rules import ContentInvalid
from tests.content_builder import FILES, SITE_URL, article, write_content

from .conftest import body_of

ABOUT = """---
title: "About me"
description: "Who writes this site."
nav: true
order: 2
aliases: [about-me, "/who-am-i/"]
---
I write [articles](../articles/first-post.md) and keep [a colophon](colophon.md).
"""
COLOPHON = """---
title: "Colophon"
description: "How the site is made."
---
Built from markdown.
"""
DRAFT = """---
title: "Secret plans"
description: "Not yet."
draft: true
nav: true
---
Nothing to see.
"""
LINKING = article("Links to the about page", date="2026-05-05", body="See [me](../pages/about.md#top).\n")
WITH_PAGES = {
    **FILES,
    "pages/about.md": ABOUT,
    "pages/colophon.md": COLOPHON,
    "pages/plans.md": DRAFT,
    "articles/links-about.md": LINKING,
}


def import_files(folder, files):
    return import_content(write_content(folder, files), workers=1)


@pytest.fixture
def pages_site(db, tmp_path, settings):
    settings.SITE_URL = ""
    settings.CONTENT_DIR = tmp_path / "content"
    import_files(settings.CONTENT_DIR, WITH_PAGES)
    return settings.CONTENT_DIR


def test_a_page_is_served_at_its_slug_with_its_body_rendered(pages_site, client):
    response = client.get("/about")
    assert response.status_code == 200
    html = response.content.decode()
    assert "<h1>About me</h1>" in html
    assert 'href="/articles/first-post"' in html  # an item's file, resolved
    assert 'href="/colophon"' in html  # another page's file
    assert '<link rel="alternate" type="text/markdown" href="/about.md">' in html
    assert 'type="application/json"' not in html  # no API document
    assert client.get("/about").headers["Link"].startswith('</about.md>; rel="alternate"')


def test_an_article_links_to_a_page_by_its_file(pages_site, client):
    html = client.get("/articles/links-about").content.decode()
    assert 'href="/about#top"' in html


def test_the_header_links_the_nav_pages_in_their_order(pages_site, client):
    html = client.get("/").content.decode()
    header = html.split('<nav aria-label="Main">', 1)[1].split("</nav>", 1)[0]
    assert '<a href="/about">About me</a>' in header
    assert header.index(">Developers<") < header.index(">About me<") < header.index(">Contact<")
    assert "/colophon" not in header  # no nav: true
    assert "Secret plans" not in header  # a draft
    assert '<a href="/about" aria-current="page">' in client.get("/about").content.decode()


def test_the_markdown_twin(pages_site, client):
    response = client.get("/about.md")
    assert response["Content-Type"] == "text/markdown; charset=utf-8"
    assert response.content.decode() == (
        f"# About me\n\n- Page: {SITE_URL}/about\n\nWho writes this site.\n\n"
        "I write [articles](../articles/first-post.md) and keep [a colophon](colophon.md).\n"
    )
    negotiated = client.get("/about", headers={"Accept": "text/markdown"})
    assert negotiated.content == response.content and "Accept" in negotiated["Vary"]
    # The site's own one-segment pages have no form: negotiation leaves them be.
    developers = client.get("/developers", headers={"Accept": "text/markdown"})
    assert developers["Content-Type"].startswith("text/html")


def test_a_draft_page_is_nowhere(pages_site, client):
    assert client.get("/plans").status_code == 404
    assert client.get("/plans.md").status_code == 404
    for path in ("/llms.txt", "/sitemap-pages.xml", "/"):
        assert "plans" not in client.get(path).content.decode().lower(), path


def test_sitemap_and_llms_txt_list_the_published_pages(pages_site, client):
    tree = ET.fromstring(client.get("/sitemap-pages.xml").content)
    locations = [loc.text for loc in tree.iter("{http://www.sitemaps.org/schemas/sitemap/0.9}loc")]
    assert f"{SITE_URL}/about" in locations and f"{SITE_URL}/colophon" in locations
    llms = client.get("/llms.txt").content.decode()
    assert f"- [About me]({SITE_URL}/about.md): Who writes this site. (page: {SITE_URL}/about)" in llms
    pages_section = llms.split("## Pages", 1)[1].split("## Machine URLs", 1)[0]
    assert "About me" in pages_section


def test_pages_are_never_among_the_articles(pages_site, client):
    paths = ["/articles", "/articles.md", "/feed.xml", "/api/v1/articles.json", "/api/v1/projects.json",
             "/api/v1.json", "/tags", "/llms-full.txt"]  # fmt: skip
    for path in paths:
        text = body_of(client.get(path))
        text = text.split("<main", 1)[-1].split("</main>", 1)[0]  # a page's header links it
        assert "About me" not in text and "Who writes this site." not in text, path
    for kind in ("articles", "projects"):
        items = json.loads(client.get(f"/api/v1/{kind}.json").content)[kind]
        assert not any(item["slug"] in ("about", "colophon") for item in items)
    assert client.get("/api/v1/articles/about.json").status_code == 404
    index = json.loads(client.get("/api/v1.json").content)
    assert set(index["humanPages"]) == {"home", "projects", "articles", "stack", "contact", "feed", "sitemap"}


def test_aliases_answer_301(pages_site, client):
    moves = [("/about-me", "/about"), ("/about-me.html", "/about"), ("/about-me.md", "/about.md"),
             ("/who-am-i/", "/about"), ("/who-am-i", "/about"), ("/who-am-i.html", "/about")]  # fmt: skip
    for old, new in moves:
        response = client.get(old)
        assert (response.status_code, response["Location"]) == (301, new), old


def test_the_site_own_addresses_still_answer(pages_site, client):
    for path in ("/contact", "/stack", "/developers", "/search", "/projects", "/tags"):
        assert client.get(path).status_code == 200, path


@pytest.mark.parametrize(
    ("slug", "taken"),
    [("projects", "/projects"), ("contact", "/contact"), ("api", "/api"), ("feed", "/feed.xml"),
     ("llms", "/llms.txt"), ("robots", "/robots.txt"), ("openapi", "/openapi.json"), ("index", "/index.html"),
     ("sitemap-pages", "/sitemap-..."), ("llms-full-2", "/llms-full-..."), ("pagefind", "/pagefind"),
     ("media", "/media"), ("static", "/static"), ("admin", "/admin"), ("404", "/404")],
)  # fmt: skip
def test_a_page_may_not_take_the_site_own_address(db, tmp_path, slug, taken):
    with pytest.raises(ContentInvalid) as caught:
        import_files(tmp_path / "content", {**FILES, f"pages/{slug}.md": COLOPHON})
    assert [str(error) for error in caught.value.errors] == [
        f"pages/{slug}.md: file name: /{slug} would be taken for the site's own address {taken}: "
        "name the page otherwise"
    ]


def test_aliases_that_collide(db, tmp_path):
    reserved = ABOUT.replace("aliases: [about-me,", "aliases: [stack,")
    with pytest.raises(ContentInvalid) as caught:
        import_files(tmp_path / "a", {**FILES, "pages/about.md": reserved, "pages/colophon.md": COLOPHON})
    assert [str(e) for e in caught.value.errors] == [
        "pages/about.md: aliases: 'stack': /stack would be taken for the site's own address /stack"
    ]
    # An article's old address may not be a page's.
    moved = article("Moved", aliases='["/about/"]')
    with pytest.raises(ContentInvalid) as caught:
        files = {**FILES, "pages/about.md": ABOUT, "pages/colophon.md": COLOPHON, "articles/moved.md": moved}
        import_files(tmp_path / "b", files)
    assert [str(e) for e in caught.value.errors] == [
        "articles/moved.md: aliases: '/about/' is the address of pages/about.md: expected an old address the "
        "site does not use"
    ]
    # A page's earlier slug may not be another page's slug.
    with pytest.raises(ContentInvalid) as caught:
        import_files(tmp_path / "c", {**FILES, "pages/about.md": ABOUT.replace("about-me", "colophon"),
                                      "pages/colophon.md": COLOPHON})  # fmt: skip
    assert [str(e) for e in caught.value.errors] == [
        "pages/about.md: aliases: 'colophon' is the slug of pages/colophon.md: an alias is an earlier "
        "slug no item has now"
    ]


def test_front_matter_rules(db, tmp_path):
    bad = '---\ntitle: "X"\norder: first\ndate: 2026-01-01\n---\n'
    with pytest.raises(ContentInvalid) as caught:
        import_files(tmp_path / "content", {**FILES, "pages/bad.md": bad})
    assert [str(e) for e in caught.value.errors] == [
        "pages/bad.md: date: unknown key; expected one of title, description, draft, nav, order, aliases",
        "pages/bad.md: description: required field is missing",
        "pages/bad.md: order: expected a whole number such as 1 or -2; got 'first'",
        "pages/bad.md: order: expected only with nav: true; this page is not in the header",
    ]


def test_a_link_to_a_missing_or_draft_page_is_refused(db, tmp_path):
    body = "See [plans](../pages/plans.md) and [none](../pages/none.md).\n"
    files = {**FILES, "pages/plans.md": DRAFT, "articles/x.md": article("X", body=body)}
    with pytest.raises(ContentInvalid) as caught:
        import_files(tmp_path / "content", files)
    assert [str(e) for e in caught.value.errors] == [
        "articles/x.md: line 6: references '../pages/plans.md', but pages/plans.md is a draft "
        "(a link would leak it)",
        "articles/x.md: line 6: references '../pages/none.md', but pages/none.md does not exist",
    ]


def test_the_admin_lists_pages_read_only(pages_site, admin_client):
    response = admin_client.get("/admin/content/page/")
    assert response.status_code == 200 and "About me" in response.content.decode()
    assert admin_client.get("/admin/content/page/add/").status_code == 403
    assert Page.objects.get(slug="about").order == 2
