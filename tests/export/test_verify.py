"""The build's checks, on hand-made files: what they catch and what they must let through."""

import json

import pytest

from portfolio.export.plan import Target
from portfolio.export.verify import Verifier

BASE = "https://portfolio.test"
FILES = {
    "index.html",
    "articles.html",
    "articles/kept.html",
    "api/v1/articles.json",
    "api/v1/articles/kept.json",
}


@pytest.fixture
def verifier(imported, client):
    openapi = json.loads(client.get("/openapi.json").content)
    return Verifier(BASE, FILES, openapi, [("secret-draft", "Secret draft title"), ("ünï", "Ünï “quoted”")])


@pytest.mark.parametrize(
    ("body", "kind"),
    [
        ('<a href="/articles/secret-draft">x</a>', "address"),
        (f"<loc>{BASE}/articles/secret-draft</loc>", "address"),
        ('{"apiUrl":"https://portfolio.test/api/v1/articles/secret-draft"}', "address"),
        ("- [x](https://portfolio.test/api/v1/articles/secret-draft.json): y", "address"),
        ('{"slug":"secret-draft"}', "slug"),
        ('{"title":"Secret draft title"}', "title"),
        ('{"title":"Ünï “quoted”"}', "title"),
        ('{"title":"\\u00dcn\\u00ef \\u201cquoted\\u201d"}', "title"),
    ],
)
def test_draft_references_are_caught(verifier, body, kind):
    assert verifier.draft_leaks("f", body.encode()) == [
        f"f: holds the {kind} of draft articles/"
        + ("ünï.md" if "n" in body and "ï" in body or "\\u00dc" in body else "secret-draft.md")
    ]


@pytest.mark.parametrize(
    "body",
    [
        "<p>Secret draft title is also a phrase people use.</p>",
        '<a href="/articles/secret-draft-two">a longer slug</a>',
        '{"slug":"secret-draft-two","title":"Secret draft title, the sequel"}',
    ],
)
def test_prose_and_longer_slugs_are_not_leaks(verifier, body):
    assert verifier.draft_leaks("f", body.encode()) == []


def test_links_must_resolve_to_built_files(verifier):
    assert verifier.check_link("llms.txt", f"{BASE}/articles/kept") == []
    assert verifier.check_link("llms.txt", f"{BASE}/api/v1/articles/kept") == []
    assert verifier.check_link("llms.txt", "https://elsewhere.example/x") == []
    assert verifier.check_link("llms.txt", f"{BASE}/articles/gone") == [
        f"llms.txt: links to {BASE}/articles/gone, which no built file serves"
    ]


def test_api_files_must_match_openapi_and_their_counts(verifier):
    target = Target("/api/v1/articles.json", "api/v1/articles.json", (200,), "global")
    body = json.dumps({"count": 2, "articles": [], "extra": 1}).encode()
    problems = verifier.check_api_json(target, body)
    assert any("Additional properties are not allowed ('extra'" in p for p in problems), problems
    assert "api/v1/articles.json: count is 2 but the list holds 0" in problems
