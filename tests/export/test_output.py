"""The exported folder: every URL the site serves, as the authoring server serves it."""

import json
import re

import pytest

from portfolio.export.hosts import REWRITES
from portfolio.export.plan import targets
from tests.content_builder import DRAFT_SLUG, DRAFT_TITLE

from .conftest import tree

EXPECTED = [
    "index.html",
    "projects.html",
    "projects/alpha-one.html",
    "projects/beta_two.html",
    "articles.html",
    "articles/unicode-post.html",
    "stack.html",
    "developers.html",
    "contact.html",
    "contact/thanks.html",
    "404.html",
    "api/v1.json",
    "api/v1/projects.json",
    "api/v1/projects/gamma.json",
    "api/v1/articles.json",
    "api/v1/articles/crlf-post.json",
    "api/v1/stack.json",
    "openapi.json",
    "llms.txt",
    "feed.xml",
    "sitemap-index.xml",
    "robots.txt",
    "favicon.ico",
    "site.webmanifest",
    "projects/alpha-one.md",
    "articles/unicode-post.md",
    "llms-full.txt",
    ".well-known/api-catalog",
    "_headers",
    "_redirects",
    "_redirects.nginx.conf",
]


def test_every_surface_is_exported(built_site):
    files = tree(built_site)
    assert [path for path in EXPECTED if path not in files] == []
    assert len([p for p in files if re.fullmatch(r"api/v1/articles/[^/]+\.json", p)]) == 4
    assert len([p for p in files if re.fullmatch(r"articles/[^/]+\.html", p)]) == 4
    assert len([p for p in files if re.fullmatch(r"articles/[^/]+\.md", p)]) == 4
    static = [p for p in files if p.startswith("static/")]
    assert [p for p in static if re.fullmatch(r"static/pages/site\.[0-9a-f]{12}\.css", p)]
    assert [p for p in static if re.fullmatch(r"static/pages/theme\.[0-9a-f]{12}\.js", p)]
    assert [p for p in static if not re.search(r"\.[0-9a-f]{12}\.\w+$", p)] == []  # hashed names only


def test_no_draft_anywhere(built_site):
    for path, data in tree(built_site).items():
        assert DRAFT_SLUG.encode() not in data and DRAFT_TITLE.encode() not in data, path


def test_extensionless_api_paths_are_rewrites_not_files(built_site):
    files = tree(built_site)
    assert "api/v1/projects" not in files and "api/v1/stack" not in files
    redirects = files["_redirects"].decode()
    for source, destination in REWRITES:
        assert f"{source} {destination} 200" in redirects


def test_counts_and_links_are_consistent(built_site):
    projects = json.loads((built_site / "api/v1/projects.json").read_bytes())
    assert projects["count"] == len(projects["projects"]) == 4
    for item in projects["projects"]:
        assert item["apiUrl"] == f"https://portfolio.test/api/v1/projects/{item['slug']}"
        assert (built_site / f"api/v1/projects/{item['slug']}.json").exists()
        assert (built_site / f"projects/{item['slug']}.html").exists()


@pytest.mark.django_db
def test_parity_with_the_authoring_server(built_site, imported, client):
    """For every frozen URL, the file's bytes are the authoring server's response body."""
    frozen = targets()
    assert len(frozen) > 30
    for target in frozen:
        response = client.get(target.uri)
        assert response.status_code in target.status_codes, target.uri
        body = b"".join(response.streaming_content) if response.streaming else response.content
        assert (built_site / target.path).read_bytes() == body, target.uri
