"""/projects and /articles in pages of settings.LIST_PAGE_SIZE items (pages/views.py, ListPage)."""

import re
import xml.etree.ElementTree as ET

import pytest

from portfolio.content.importer import import_content
from portfolio.content.models import Article, Project
from tests.content_builder import DRAFT_SLUG, SITE_URL, project, write_content

NS = "{http://www.sitemaps.org/schemas/sitemap/0.9}"
LISTS = {"projects": Project.objects.all, "articles": Article.objects.published}


def pager_link(body, rel):
    """The pager's link with `rel`, which the head names too; None when there is none."""
    nav = body.split('<nav class="pager list-pager" aria-label="Pages">')[1].split("</nav>")[0]
    found = re.search(rf'href="([^"]+)" rel="{rel}"', nav)
    head = re.search(rf'<link rel="{rel}" href="([^"]+)">', body.split("</head>")[0])
    assert (found and found[1]) == (head and head[1]), rel
    return found and found[1]


def items_on(body, kind):
    return re.findall(rf'<h2 id="{kind[:-1]}-[^"]+"><a href="/{kind}/([^"]+)">', body)


@pytest.mark.parametrize("size", [2, 3])
@pytest.mark.parametrize("kind", LISTS)
def test_following_next_visits_every_item_once_newest_first(get, settings, kind, size):
    settings.LIST_PAGE_SIZE = size
    expected = list(LISTS[kind]().values_list("slug", flat=True))  # the models' order: -date, slug
    assert len(expected) == 4 and DRAFT_SLUG not in expected
    pages = -(-len(expected) // size)
    seen, path, number, previous = [], f"/{kind}", 1, None
    while path:
        _, body = get(path)
        assert f"Page {number} of {pages}" in body
        assert pager_link(body, "prev") == previous
        items = items_on(body, kind)
        assert 0 < len(items) <= size
        seen += items
        previous, path = path, pager_link(body, "next")
        if path:
            number += 1
            assert path == f"/{kind}/page/{number}"
    assert number == pages
    assert seen == expected
    assert DRAFT_SLUG not in "".join(get(f"/{kind}/page/{n}")[1] for n in range(2, pages + 1))


@pytest.mark.parametrize("kind", LISTS)
def test_page_one_has_one_address_and_no_page_is_past_the_last(get, settings, kind):
    settings.LIST_PAGE_SIZE = 2
    get(f"/{kind}/page/2")
    for number in (0, 1, 3):
        get(f"/{kind}/page/{number}", status=404)


def test_one_page_has_no_pager(get):
    _, body = get("/articles")  # LIST_PAGE_SIZE's default holds the test content
    assert 'aria-label="Pages"' not in body and 'rel="next"' not in body
    get("/articles/page/2", status=404)


def test_every_page_is_in_the_sitemap(get, settings):
    settings.LIST_PAGE_SIZE = 3
    _, body = get("/sitemap-pages.xml")
    locations = [loc.text for loc in ET.fromstring(body.encode()).iter(NS + "loc")]
    for path in ["/projects", "/projects/page/2", "/articles", "/articles/page/2"]:
        assert SITE_URL + path in locations
    assert not [loc for loc in locations if loc.endswith("/page/3") or loc.endswith("/page/1")]


def test_a_project_called_page_keeps_its_address(db, content_dir, settings, client):
    write_content(content_dir, {"projects/page.md": project("Page", date="2020-01-01")})
    settings.SITE_URL, settings.CONTENT_DIR, settings.LIST_PAGE_SIZE = "", content_dir, 2
    import_content(content_dir, workers=1)
    assert "<h1>Page</h1>" in client.get("/projects/page").content.decode()
    later = client.get("/projects/page/3").content.decode()
    assert items_on(later, "projects") == ["page"]
