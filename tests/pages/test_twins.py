"""Markdown twins, /llms-full.txt and /.well-known/api-catalog on the authoring server."""

import json
import re

from pages.twins import article_markdown, project_markdown
from tests.content_builder import DRAFT_SLUG, SITE_URL

MARKDOWN = "text/markdown; charset=utf-8"


def test_project_twin_is_title_facts_then_raw_body(get):
    response, body = get("/projects/alpha-one.md")
    assert response["Content-Type"] == MARKDOWN
    assert body == (
        "# Alpha One\n\n"
        "- Tagline: A tagline\n- Status: active\n- Date: 2026-03-01\n- Stack: Python, Django\n"
        "- Source: https://github.com/example/project\n"
        f"- Page: {SITE_URL}/projects/alpha-one\n- JSON: {SITE_URL}/api/v1/projects/alpha-one.json\n\n"
        "A description\n\n"
        "## Case study\n\n- zeta: last letter first\n- alpha: first letter second\n\n"
        "# Alpha\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n```python\nprint('hi')\n```\n"
    )


def test_article_twin_keeps_unicode_and_normalised_line_endings(get):
    _, body = get("/articles/crlf-post.md")
    assert body.startswith("# CRLF post\n\n- Date: 2026-04-04\n- Page: ")
    assert body.endswith("An article description\n\nline one\nline two\n") and "\r" not in body
    _, body = get("/articles/unicode-post.md")
    assert body.startswith("# Ünïcode ✓ 日本語\n\n- Date: 2026-05-05\n- Tags: ünï\n")


def test_twin_is_its_api_document_rewritten(get):
    for kind, slug, markdown in [
        ("projects", "gamma", project_markdown),
        ("articles", "first-post", article_markdown),
    ]:
        _, document = get(f"/api/v1/{kind}/{slug}.json")
        assert get(f"/{kind}/{slug}.md")[1] == markdown(json.loads(document))


def test_pages_link_their_twin_and_unknown_or_draft_twins_are_404(get):
    _, page = get("/articles/first-post")
    assert '<link rel="alternate" type="text/markdown" href="/articles/first-post.md">' in page
    _, page = get("/projects/delta")
    assert '<link rel="alternate" type="text/markdown" href="/projects/delta.md">' in page
    assert 'type="text/markdown"' not in get("/projects")[1]
    get(f"/articles/{DRAFT_SLUG}.md", status=404)
    get("/projects/nope.md", status=404)


def test_llms_full_is_the_summary_then_every_twin_newest_first(get):
    response, body = get("/llms-full.txt")
    assert response["Content-Type"] == "text/plain; charset=utf-8"
    summary, *twins = body.split("\n---\n\n")
    assert summary == get("/llms.txt")[1].split("\n## Pages")[0]
    order = [re.search(r"^- Page: (\S+)$", twin, re.M)[1].removeprefix(SITE_URL) for twin in twins]
    assert order == [
        "/articles/unicode-post", "/articles/crlf-post", "/articles/same-day", "/projects/alpha-one",
        "/projects/gamma", "/projects/beta_two", "/articles/first-post", "/projects/delta",
    ]  # fmt: skip
    for twin, path in zip(twins, order, strict=True):
        assert twin == get(path + ".md")[1]
    assert DRAFT_SLUG not in body and "Draft body" not in body


def test_api_catalog_is_an_rfc_9727_linkset(get):
    response, body = get("/.well-known/api-catalog")
    assert response["Content-Type"] == (
        'application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727"'
    )
    assert json.loads(body) == {
        "linkset": [
            {
                "anchor": f"{SITE_URL}/api/v1",
                "service-desc": [{"href": f"{SITE_URL}/openapi.json", "type": "application/json"}],
                "service-doc": [{"href": f"{SITE_URL}/developers", "type": "text/html"}],
                "item": [{"href": f"{SITE_URL}/api/v1.json", "type": "application/json"}],
            }
        ]
    }
