"""The spec's rules for lists and details: count, order, bodies, drafts, apiUrl."""

from urllib.parse import urlsplit

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.content_builder import DRAFT_SLUG, DRAFT_TITLE

from .conftest import ALL_PATHS

LISTS = [("/api/v1/projects", "projects"), ("/api/v1/articles", "articles")]


@pytest.mark.parametrize("path, key", LISTS)
def test_count_is_the_number_of_items(get_json, path, key):
    document = get_json(path)
    assert list(document) == ["count", key]
    assert document["count"] == len(document[key]) > 0


@pytest.mark.parametrize("path, key", LISTS)
def test_newest_first_then_slug(get_json, path, key):
    items = get_json(path)[key]
    by_slug = sorted(items, key=lambda item: item["slug"])
    assert items == sorted(by_slug, key=lambda item: item["date"], reverse=True)


@pytest.mark.parametrize("path, key", LISTS)
def test_lists_have_no_body_and_details_always_do(get_json, path, key):
    for item in get_json(path)[key]:
        assert "body" not in item and "caseStudy" not in item
        detail = get_json(urlsplit(item["apiUrl"]).path)
        assert isinstance(detail["body"], str)
        # apiUrl is the canonical (extensionless) address of the item's detail...
        assert item["apiUrl"] == detail["apiUrl"] and not item["apiUrl"].endswith(".json")
        # ...and the detail repeats the list item, adding only what the spec adds.
        assert {k: v for k, v in detail.items() if k not in ("body", "caseStudy")} == item


@pytest.mark.parametrize("path", ALL_PATHS + ["/openapi.json"])
def test_drafts_appear_nowhere(imported, client, path):
    content = client.get(path).content.decode()
    assert DRAFT_SLUG not in content and DRAFT_TITLE not in content
    assert "Draft body" not in content


@pytest.mark.parametrize("path, key", LISTS)
def test_lists_read_two_queries_and_no_bodies(imported, client, path, key):
    """The site identity and one lean query: no markdown or HTML is read for a list."""
    with CaptureQueriesContext(connection) as queries:
        assert client.get(path).status_code == 200
    assert len(queries) == 2
    listing = queries[-1]["sql"]
    assert '"body"' not in listing and '"body_html"' not in listing
