"""Each endpoint returns exactly the document the spec describes for the test content."""

import json

import pytest

from portfolio.content.importer import import_content
from tests.content_builder import FILES, STACK_YAML, article, write_content

from . import expected
from .conftest import ARTICLE_SLUGS, PROJECT_SLUGS


def test_project_list(get_json):
    assert get_json("/api/v1/projects") == expected.project_list()


@pytest.mark.parametrize("slug", PROJECT_SLUGS)
def test_project_detail(get_json, slug):
    assert get_json(f"/api/v1/projects/{slug}") == expected.project_detail(slug)


def test_case_study_keeps_the_authors_key_order(imported, client):
    body = client.get("/api/v1/projects/alpha-one").json(object_pairs_hook=list)
    case_study = dict(body)["caseStudy"]
    assert [key for key, _ in case_study] == ["zeta", "alpha"]


def test_article_list(get_json):
    assert get_json("/api/v1/articles") == expected.article_list()


@pytest.mark.parametrize("slug", ARTICLE_SLUGS)
def test_article_detail(get_json, slug):
    assert get_json(f"/api/v1/articles/{slug}") == expected.article_detail(slug)


def test_stack_omits_urls_the_content_does_not_give(get_json):
    assert get_json("/api/v1/stack") == expected.stack()


def test_index_document(get_json):
    document = get_json("/api/v1")
    description = document.pop("description")
    path_note = document.pop("pathNote")
    articles_note = document["endpoints"]["articles"].pop("note")
    contact_note = document["contact"].pop("note")
    assert document == expected.index()
    assert "read-only" in description.lower() and "no api keys" in description.lower()
    assert "contact form" in description and "origin-restricted" in description
    assert ".json" in path_note and "extensionless" in path_note
    assert "drafts are excluded" in articles_note
    assert "not an integration endpoint" in contact_note


def test_item_templates_keep_the_slug_placeholder_literally(imported, client):
    raw = client.get("/api/v1").content.decode()
    assert "/api/v1/projects/{slug}.json" in raw and "%7Bslug%7D" not in raw


def test_absolute_uris_come_from_site_url_not_the_request(imported, client, settings):
    settings.SITE_URL = "https://example.org/portfolio"
    base = settings.SITE_URL
    client.defaults["HTTP_HOST"] = "localhost"
    assert client.get("/api/v1/projects").json() == expected.project_list(base)
    assert client.get("/api/v1/articles/crlf-post").json() == expected.article_detail("crlf-post", base)
    assert client.get("/api/v1/stack").json() == expected.stack(base)
    assert client.get("/api/v1").json()["endpoints"]["index"]["getJson"] == f"{base}/api/v1.json"
    for path in ["/api/v1", "/api/v1/projects", "/api/v1/stack", "/openapi.json"]:
        assert b"localhost" not in client.get(path).content


def test_empty_collections_and_no_optional_urls(db, tmp_path, settings, client):
    """Content the sample does not have: no projects, only a draft, no url anywhere."""
    files = {
        "site.yaml": FILES["site.yaml"],
        "stack.yaml": STACK_YAML.replace('    url: "https://models.example/hosted"\n', "").replace(
            '    url: "https://editor.example"\n', ""
        ),
        "articles/only-draft.md": article("Only a draft", draft="true"),
    }
    settings.SITE_URL = ""
    import_content(write_content(tmp_path / "content", files), workers=1)
    assert client.get("/api/v1/projects").json() == {"count": 0, "projects": []}
    assert client.get("/api/v1/articles").json() == {"count": 0, "articles": []}
    stack = client.get("/api/v1/stack").json()
    assert all("url" not in entry for entry in stack["models"] + stack["dailyDrivers"])
    assert client.get("/api/v1/articles/only-draft").status_code == 404


def test_unicode_is_sent_as_utf8_not_escaped(imported, client):
    raw = client.get("/api/v1/articles").content
    assert "Ünïcode ✓ 日本語".encode() in raw
    assert json.loads(raw)["articles"][0]["title"] == "Ünïcode ✓ 日本語"
