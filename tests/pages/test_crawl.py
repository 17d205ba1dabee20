"""Every URL the static export writes: served with the status the export expects, and no draft
anywhere (CONTENT_FORMAT.md: no page, no feed entry, no sitemap URL, no llms.txt line)."""

import re

from portfolio.content.models import Article, Project
from tests.content_builder import DRAFT_SLUG, DRAFT_TITLE

from .conftest import distilled


def test_every_distilled_url_answers_as_the_export_expects(imported, client):
    urls = distilled()
    paths = {path for path, _ in urls}
    for expected in ["/", "/projects", "/articles", "/stack", "/developers", "/404", "/llms.txt"]:
        assert expected in paths
    for expected in [
        "/feed.xml",
        "/sitemap-index.xml",
        "/robots.txt",
        "/llms-full.txt",
        "/.well-known/api-catalog",
    ]:
        assert expected in paths
    assert [path for path in paths if re.fullmatch(r"/static/pages/site\.[0-9a-f]{12}\.css", path)]
    assert "/projects/alpha-one" in paths and "/articles/first-post" in paths
    assert "/projects/alpha-one.md" in paths and "/articles/first-post.md" in paths
    assert f"/articles/{DRAFT_SLUG}.md" not in paths
    for path, statuses in urls:
        assert client.get(path).status_code in statuses, path


def test_no_draft_anywhere(crawl):
    assert f"/articles/{DRAFT_SLUG}" not in crawl
    for path, (_status, body) in crawl.items():
        assert DRAFT_SLUG not in body, path
        assert DRAFT_TITLE not in body, path
        assert "Draft body" not in body, path


def test_draft_has_no_page(get):
    get(f"/articles/{DRAFT_SLUG}", status=404)
    get(f"/articles/{DRAFT_SLUG}.md", status=404)


def test_no_trailing_slash_forms(get):
    for path in ["/projects/", "/articles/", "/stack/", "/developers/"]:
        get(path, status=404)


def test_empty_collections_export_without_detail_pages(imported, client):
    Article.objects.all().delete()
    Project.objects.all().delete()
    urls = distilled()
    assert not [path for path, _ in urls if path.startswith(("/projects/", "/articles/"))]
    for path, statuses in urls:
        assert client.get(path).status_code in statuses, path
