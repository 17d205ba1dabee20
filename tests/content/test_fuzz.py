"""Property: whatever a mutated content folder holds, the import either succeeds, with feeds,
sitemaps and llms.txt that stay well-formed, or fails with named errors and the database as it
was. Hypothesis mutates the front matter and bodies of the standard test content."""

import pytest
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from pages.tags import tag_slugs
from portfolio.content.importer import import_content
from portfolio.content.rules import ContentInvalid
from portfolio.export.verify import llms_txt_problems, xml_problems
from tests.content_builder import FILES

from .helpers import database_state

MARKDOWN = sorted(rel for rel in FILES if rel.endswith(".md"))
HOSTILE = [
    "!!int abc",
    "!!binary aGk=",
    "!foo x",
    "[" * 40,
    "]" * 3,
    "{",
    "&a [*a]",
    "*a",
    "&a x",
    "<<: *a",
    "0x" + "f" * 300,
    "9" * 5000,
    "1:2:3:4:5:6",
    "0b_",
    "._",
    "~",
    "null",
    "true",
    "2026-02-30",
    "'",
    '"',
    '"\\0"',
    '"\\x07"',
    '"\\ud800"',
    '"\\uffff"',
    "\x00",
    "\x07",
    "\x1b",
    "\ufffe",
    "\u2028",
    "\t",
    "\r",
    "\n",
    "\n---\n",
    "---",
    "...",
    ": ",
    "- ",
    "? ",
    "#",
    "%YAML 1.1",
    "|",
    ">",
    "]]>",
    "<![CDATA[x]]>",
    "&amp;",
    "&#0;",
    "<script>alert(1)</script>",
    "*" * 60,
    "_" * 60,
    "> " * 60,
    "`" * 30,
    "[a](" * 30,
    "<a " * 30,
    "# " * 30,
    "\\",
    "\ufeff",
    "é",
    "日本",
]
TEXT = st.text(st.characters(codec="utf-8"), max_size=40) | st.sampled_from(HOSTILE)


@st.composite
def mutations(draw):
    """(relative path, new bytes) of one mutated file."""
    rel = draw(st.sampled_from(MARKDOWN + ["site.yaml", "stack.yaml"]))
    text = FILES[rel]
    lines = text.split("\n")
    kind = draw(st.sampled_from(["value", "insert", "body", "bytes"]))
    if kind == "value":  # a front-matter line's value replaced
        index = draw(st.integers(0, len(lines) - 1))
        key = lines[index].split(":", 1)[0] if ":" in lines[index] else lines[index]
        lines[index] = f"{key}: {draw(TEXT)}"
        data = "\n".join(lines).encode()
    elif kind == "insert":  # something inserted anywhere, front matter or body
        at = draw(st.integers(0, len(text)))
        data = (text[:at] + draw(TEXT) * draw(st.integers(1, 3)) + text[at:]).encode()
    elif kind == "body" and rel.endswith(".md"):  # the body replaced by markdown-ish noise
        head = text.rsplit("---", 1)[0] + "---\n"
        data = (head + draw(TEXT) * draw(st.integers(1, 50))).encode()
    else:  # bytes spliced in (invalid UTF-8, binary)
        raw = text.encode()
        at = draw(st.integers(0, len(raw)))
        data = raw[:at] + draw(st.binary(min_size=1, max_size=16)) + raw[at:]
    return rel, data


@pytest.mark.django_db
@settings(
    # max_examples: the profile's (tests/conftest.py), fewer on a developer's machine than in CI.
    deadline=None,  # the first import in a process renders with a cold cache
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    database=None,  # no example database left in the worktree
)
@given(mutation=mutations())
def test_any_mutation_imports_or_gets_named_errors(imported, mutation):
    rel, data = mutation
    path = imported / rel
    original = path.read_bytes()
    before = database_state()
    path.write_bytes(data)
    try:
        import_content(imported, workers=1)
    except ContentInvalid as exc:
        event(f"named error: {exc.errors[0].field.split('[')[0]}")  # --hypothesis-show-statistics
        assert exc.errors
        for error in exc.errors:
            assert error.path == rel and error.field and error.message, error
        assert database_state() == before
    else:
        event("imported")
        client = Client()
        feeds = [reverse("pages:tag-feed", args=[slug]) for slug in tag_slugs()]  # the tags' too
        for url in (
            "/feed.xml",
            "/sitemap-articles.xml",
            "/sitemap-projects.xml",
            "/sitemap-tags.xml",
            *feeds,
        ):
            response = client.get(url)
            assert response.status_code == 200 and xml_problems(url, response.content) == [], url
        assert llms_txt_problems("llms.txt", client.get("/llms.txt").content) == []
    finally:
        path.write_bytes(original)
