"""/sitemap-index.xml and its sections, parsed as XML against the sitemaps.org schema's shape."""

import re
import xml.etree.ElementTree as ET

from portfolio.content.importer import import_content
from tests.content_builder import SITE_URL, article, project, write_content

NS = "{http://www.sitemaps.org/schemas/sitemap/0.9}"
W3C_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2}))?$")


def parse(get, path):
    response, body = get(path)
    assert response["Content-Type"] == "application/xml"
    return ET.fromstring(body.encode())


def entries(root, tag):
    found = []
    for element in root:
        assert element.tag == NS + tag
        loc, lastmod = element.find(NS + "loc").text, element.find(NS + "lastmod").text
        assert loc.startswith(SITE_URL + "/"), loc
        assert W3C_DATE.match(lastmod), lastmod
        found.append((loc, lastmod))
    return found


def test_index_lists_each_section_with_lastmod(get):
    root = parse(get, "/sitemap-index.xml")
    assert root.tag == NS + "sitemapindex"
    assert entries(root, "sitemap") == [
        (f"{SITE_URL}/sitemap-pages.xml", "2026-10-01"),
        (f"{SITE_URL}/sitemap-projects.xml", "2026-03-01"),
        (f"{SITE_URL}/sitemap-articles.xml", "2026-05-05"),
        (f"{SITE_URL}/sitemap-tags.xml", "2026-05-05"),
    ]


def test_sections_list_every_human_page_once(get):
    locs = []
    for section in ["pages", "projects", "articles"]:
        root = parse(get, f"/sitemap-{section}.xml")
        assert root.tag == NS + "urlset"
        locs += [loc for loc, _ in entries(root, "url")]
    paths = ["/", "/projects", "/articles", "/stack", "/developers", "/contact"]
    paths += [f"/projects/{slug}" for slug in ["alpha-one", "gamma", "beta_two", "delta"]]
    paths += [f"/articles/{slug}" for slug in ["unicode-post", "crlf-post", "same-day", "first-post"]]
    assert sorted(locs) == sorted(SITE_URL + path for path in paths)


def test_lastmod_is_the_date_of_what_the_page_shows(get):
    projects = dict(entries(parse(get, "/sitemap-projects.xml"), "url"))
    assert projects[f"{SITE_URL}/projects/delta"] == "2024-12-24"
    pages = dict(entries(parse(get, "/sitemap-pages.xml"), "url"))
    assert pages[f"{SITE_URL}/stack"] == "2026-10-01"
    assert pages[f"{SITE_URL}/articles"] == "2026-05-05"


def test_unknown_section_is_not_found(get):
    get("/sitemap-drafts.xml", status=404)


def test_robots_txt_names_the_sitemap_index(get):
    response, body = get("/robots.txt")
    assert response["Content-Type"] == "text/plain; charset=utf-8"
    assert f"Sitemap: {SITE_URL}/sitemap-index.xml\n" in body
    assert body.startswith("User-agent: *\n")


def test_each_sections_lastmod_is_its_newest_listed_item(imported, get):
    """The index dates a section by the newest item it lists: a new project moves it, a draft
    (listed nowhere) does not, however new."""
    write_content(imported, {
        "projects/new.md": project("New", date="2026-09-09"),
        "articles/later-draft.md": article("Later draft", date="2027-01-01", draft="true"),
    })  # fmt: skip
    import_content(imported, workers=1)
    lastmods = dict(entries(parse(get, "/sitemap-index.xml"), "sitemap"))
    assert lastmods[f"{SITE_URL}/sitemap-projects.xml"] == "2026-09-09"
    assert lastmods[f"{SITE_URL}/sitemap-articles.xml"] == "2026-05-05"
