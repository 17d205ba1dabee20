"""A body's table of contents and its footnotes (portfolio/content/markdown.py), on the pages that
show them, through the test client: the contents are made at import from the `##` headings and
stored; the footnotes keep the ids readers link to."""

import json
import re
from html.parser import HTMLParser

import pytest

from portfolio.content.headings import PAGE_IDS
from portfolio.content.importer import import_content
from portfolio.content.models import Reference
from tests.content_builder import FILES, UNICODE_POST_BODY, article, project, write_content

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


class Page(HTMLParser):
    """A page parsed: its ids in order, and what is wrong with its nesting (an end tag that
    closes another element, an element never closed, an HTML element closing itself)."""

    def __init__(self, text):
        super().__init__(convert_charrefs=True)
        self.ids, self.errors, self.open = [], [], []
        self.feed(text)
        self.close()
        self.errors += [f"<{tag}> never closed" for tag in self.open]

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if "id" in attrs:
            self.ids.append(attrs["id"])
        if tag not in VOID:
            self.open.append(tag)

    def handle_startendtag(self, tag, attrs):
        if tag in VOID or "svg" in self.open:  # inline SVG is XML: <path /> closes itself
            self.handle_starttag(tag, attrs)
            if tag not in VOID:
                self.open.pop()
        else:
            self.errors.append(f"<{tag} /> is not a void element")

    def handle_endtag(self, tag):
        if tag in VOID or not self.open or self.open[-1] != tag:
            self.errors.append(f"</{tag}> closes {self.open[-1:]} at {self.getpos()}")
            return
        self.open.pop()


def duplicates(ids):
    return sorted({i for i in ids if ids.count(i) > 1})


def contents(body):
    """[(id, text)] of the table of contents' links, or None without one."""
    nav = re.search(r'<nav class="toc" aria-labelledby="contents-title">(.*?)</nav>', body, re.S)
    if nav is None:
        assert 'class="toc"' not in body
        return None
    assert '<h2 id="contents-title">Contents</h2>' in nav[1]
    return re.findall(r'<li><a href="#([^"]+)">([^<]*)</a></li>', nav[1])


def prose(body):
    return body[body.index('<div class="prose">') :]


def body_headings(body):
    return re.findall(r'<h2 id="([^"]+)"', prose(body))


def test_an_article_with_three_headings_lists_them_before_its_body(get):
    _, body = get("/articles/unicode-post")
    # Unicode kept, the duplicate numbered, inline code and a link as their text (escaped once).
    assert contents(body) == [
        ("ünïcode-heading", "Ünïcode ✓ heading"),
        ("with-code-b-a-link", "With code &lt;b&gt; &amp; a link"),
        ("ünïcode-heading_1", "Ünïcode ✓ heading"),
    ]
    assert [target for target, _ in contents(body)] == body_headings(body)
    assert body.index('<nav class="toc"') < body.index('<div class="prose">')
    page = Page(body)
    assert page.errors == [] and duplicates(page.ids) == []


def test_fewer_than_three_headings_make_no_contents(get):
    for path in ["/articles/first-post", "/projects/alpha-one", "/projects/gamma"]:
        _, body = get(path)
        assert contents(body) is None, path


@pytest.fixture
def headings_site(db, tmp_path, settings):
    files = {
        **FILES,
        # Two `##` and many `###`: not enough.
        "articles/two.md": article("Two", body="## One\n\n### a\n\n### b\n\n### c\n\n## Two\n\ntext\n"),
        # Under a `#` heading, with setext `##` and a footnote in a heading.
        "articles/nested.md": article(
            "Nested",
            body="# Top\n\n## First[^n]\n\nSecond\n------\n\n### Deeper\n\n## Third\n\n[^n]: A note.\n",
        ),
        # `[TOC]` is text, not a marker: the page's contents are the only ones.
        "articles/marker.md": article("Marker", body="[TOC]\n\n## A\n\n## B\n"),
        # A project's contents come after its case study, before its body.
        "projects/long.md": project(
            "Long", extra='caseStudy:\n  problem: "p"\n', body="Intro.\n\n## Why\n\n## How\n\n## What next\n"
        ),
    }
    settings.CONTENT_DIR = write_content(tmp_path / "content", files)
    import_content(settings.CONTENT_DIR, workers=1)


def test_the_contents_rule_over_heading_levels(headings_site, client):
    def page(path):
        response = client.get(path)
        assert response.status_code == 200
        return response.content.decode()

    assert contents(page("/articles/two")) is None
    nested = page("/articles/nested")
    assert contents(nested) == [("first", "First"), ("second", "Second"), ("third", "Third")]
    assert '<h2 id="first">First<sup id="fnref:n">' in nested  # the note's reference stays in the body
    marker = page("/articles/marker")
    assert contents(marker) is None and "<p>[TOC]</p>" in marker
    long = page("/projects/long")
    assert contents(long) == [("why", "Why"), ("how", "How"), ("what-next", "What next")]
    assert (
        long.index('id="case-study-title"')
        < long.index('<nav class="toc"')
        < long.index('<div class="prose">')
    )


TEMPLATES_AROUND_A_BODY = [
    "base.html",
    "includes/*.html",
    "pages/article_detail.html",
    "pages/project_detail.html",
]


def test_no_heading_takes_an_id_of_the_page_around_it(db, tmp_path, settings, client):
    """headings.PAGE_IDS holds every fixed id of the templates that show a body: a heading named
    like one of them gets another id, on an article and on a project."""
    root = settings.BASE_DIR / "templates"
    fixed = {
        found
        for pattern in TEMPLATES_AROUND_A_BODY
        for path in root.glob(pattern)
        for found in re.findall(r'\bid="([^"{}]+)"', path.read_text())
    }
    assert fixed <= PAGE_IDS, f"add {sorted(fixed - PAGE_IDS)} to headings.PAGE_IDS"
    headings = "".join(f"## {name.replace('-', ' ').title()}\n\ntext\n\n" for name in sorted(PAGE_IDS))
    headings += "## Main section\n\n## Fn 1\n\nA note.[^1]\n\n[^1]: The note.\n"
    files = {
        **FILES,
        "articles/ids.md": article("Ids", body=headings),
        "projects/ids.md": project("Ids", extra='caseStudy:\n  problem: "p"\n', body=headings),
    }
    settings.CONTENT_DIR = write_content(tmp_path / "content", files)
    import_content(settings.CONTENT_DIR, workers=1)
    for path in ["/articles/ids", "/projects/ids"]:
        body = client.get(path).content.decode()
        page = Page(body)
        assert page.errors == [] and duplicates(page.ids) == [], path
        assert "main-section" in body_headings(body) and "main-section_1" in body_headings(body)
        assert [target for target, _ in contents(body)] == body_headings(body), path
        assert '<main id="main"' in body and '<a class="skip-link" href="#main">' in body


def test_footnotes_link_both_ways_numbered_as_read(get):
    _, body = get("/articles/unicode-post")
    text = prose(body)
    assert '<sup id="fnref:1"><a class="footnote-ref" href="#fn:1">1</a></sup>' in text
    assert '<sup id="fnref:note"><a class="footnote-ref" href="#fn:note">2</a></sup>' in text
    notes = text[text.index('<div class="footnote">') :]
    assert notes.index('<li id="fn:1">') < notes.index('<li id="fn:note">')
    for label in ("1", "note"):
        assert re.search(rf'<a class="footnote-backref" href="#fnref:{label}" title="[^"]+">', notes), label
    assert '<a href="https://example.org/note">a link</a>' in notes
    # Under the site's Content-Security-Policy: no inline style anywhere in the page.
    assert "style=" not in body
    page = Page(body)
    assert page.errors == [] and duplicates(page.ids) == []


def test_the_api_and_the_twin_keep_the_footnotes_as_written(get):
    _, document = get("/api/v1/articles/unicode-post.json")
    assert json.loads(document)["body"] == UNICODE_POST_BODY
    _, twin = get("/articles/unicode-post.md")
    assert twin.endswith(UNICODE_POST_BODY)


def test_footnotes_in_reference_order_with_their_links_resolved(db, tmp_path, settings, client):
    body = (
        "Later[^z], sooner[^a].\n\n[^a]: Defined first, see [the post](first-post.md).\n[^z]: Defined last.\n"
    )
    settings.CONTENT_DIR = write_content(
        tmp_path / "content", {**FILES, "articles/notes.md": article(body=body)}
    )
    import_content(settings.CONTENT_DIR, workers=1)
    page = client.get("/articles/notes").content.decode()
    assert (
        '<a class="footnote-ref" href="#fn:z">1</a>' in page
        and '<a class="footnote-ref" href="#fn:a">2</a>' in page
    )
    assert page.index('<li id="fn:z">') < page.index('<li id="fn:a">')
    # A link in a note is a link of the body: rewritten to the item's page, and recorded.
    assert '<a href="/articles/first-post">the post</a>' in page
    assert Reference.objects.filter(source="articles/notes.md", target="articles/first-post", line=8).exists()


def numbered_ids(texts):
    """The ids the headings `texts` get, as the rule says: the first with a text takes its slug,
    each later one the next free slug_1, slug_2... (a text already ending in _<n> counts on)."""
    used, ids = set(), []
    for slug in texts:
        while slug in used:
            head, _, number = slug.rpartition("_")
            slug = f"{head}_{int(number) + 1}" if head and number.isdigit() else f"{slug}_1"
        used.add(slug)
        ids.append(slug)
    return ids


def test_repeated_headings_are_numbered_in_one_pass():
    """However many headings share a text, each id is found at once: a body of 20,000 took
    minutes when each search began again from the text's own slug."""
    import time

    from portfolio.content.markdown import render

    texts = ["a", "a_1", "a", "b", "a", "a_3", "a", "a_2", "b_1", "b", "a"]
    html = render("".join(f"## {text}\n\n" for text in texts)).html
    assert re.findall(r'<h2 id="([^"]+)"', html) == numbered_ids(texts)
    started = time.perf_counter()
    html = render("## c\n\n" * 20_000).html
    took = time.perf_counter() - started
    assert re.findall(r'<h2 id="([^"]+)"', html) == ["c"] + [f"c_{n}" for n in range(1, 20_000)]
    assert took < 20, f"{took:.1f} s"
