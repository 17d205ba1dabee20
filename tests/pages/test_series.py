"""Series and related articles (pages/series.py, the content format's "Series" and "Related
articles"): the box near an article's top, each series' page, feed and markdown form, the
sitemap, the importer's rules, and the related articles at an article's end."""

import datetime
import random
import re
import xml.etree.ElementTree as ET

import feedparser
import pytest

from pages import series
from portfolio.content.importer import import_content
from portfolio.content.models import Site
from portfolio.content.rules import ContentInvalid
from tests.content_builder import article, write_content


def part(title, date, name="Building a blog", order=None, **fields):
    extra = f'series: "{name}"\n' + (f"seriesOrder: {order}\n" if order is not None else "")
    return article(title, date=date, extra=extra, **fields)


@pytest.fixture
def with_series(imported):
    write_content(imported, {
        "articles/blog-setup.md": part("Setting up", "2025-03-01", order=1, tags="[python, web]"),
        "articles/blog-deploy.md": part("Deploying", "2025-02-01", order=3, tags="[python]"),
        "articles/blog-theme.md": part("Theming", "2025-04-01", order=2, tags="[web, css]"),
        # A draft and a scheduled part: never shown, never counted.
        "articles/blog-draft.md": part("Draft part", "2025-05-01", order=4, draft="true"),
        "articles/blog-later.md": part("Later part", "2999-01-01", order=5),
        # A series of drafts alone.
        "articles/hidden.md": part("Hidden", "2025-01-01", name="Secret plans", draft="true"),
    })  # fmt: skip
    import_content(imported, workers=1)
    return imported


def box_of(body):
    """(title line, [(text, address or None for the current part)]) of an article's series box."""
    box = body.split('<nav class="series-box"')[1].split("</nav>")[0]
    title = re.sub(r"<[^>]+>", "", re.search(r'<p class="series-title"[^>]*>(.*?)</p>', box).group(1))
    parts = re.findall(r'<li>(?:<a href="([^"]+)">|<span aria-current="page">)([^<]+)<', box)
    return title, [(text, address or None) for address, text in parts]


def test_an_article_shows_its_series_in_order_by_series_order(get, with_series):
    _, body = get("/articles/blog-theme")
    assert box_of(body) == (
        "Part 2 of 3 in the series Building a blog",
        [("Setting up", "/articles/blog-setup"), ("Theming", None), ("Deploying", "/articles/blog-deploy")],
    )
    assert '<a href="/series/building-a-blog">Building a blog</a>' in body
    # Near its top: before the body.
    assert body.index('class="series-box"') < body.index('class="prose"')
    for leaked in ("Draft part", "Later part", "blog-draft", "blog-later"):
        assert leaked not in body


def test_without_orders_a_series_is_ordered_by_date_then_slug(get, imported):
    write_content(imported, {
        "articles/b-two.md": part("B", "2025-02-01", name="Dated"),
        "articles/a-two.md": part("A", "2025-02-01", name="Dated"),
        "articles/c-one.md": part("C", "2025-01-01", name="Dated"),
    })  # fmt: skip
    import_content(imported, workers=1)
    _, body = get("/articles/a-two")
    assert box_of(body) == (
        "Part 2 of 3 in the series Dated",
        [("C", "/articles/c-one"), ("A", None), ("B", "/articles/b-two")],
    )


def test_an_article_outside_any_series_has_no_box(get, with_series):
    _, body = get("/articles/first-post")
    assert "series-box" not in body


def test_the_series_page_lists_its_parts_in_order(get, with_series):
    _, body = get("/series/building-a-blog")
    assert "<h1>Building a blog</h1>" in body and "A series of 3 parts, in order." in body
    found = re.findall(r'<h2 id="article-[^"]+"><a href="([^"]+)">', body)
    assert found == ["/articles/blog-setup", "/articles/blog-theme", "/articles/blog-deploy"]
    response, markdown = get("/series/building-a-blog.md")
    assert response["Content-Type"].startswith("text/markdown")
    assert markdown.startswith("# Building a blog\n")
    lines = [line for line in markdown.splitlines() if line[:1].isdigit()]
    assert [line.split("](")[1].split(")")[0] for line in lines] == [
        "https://portfolio.test/articles/blog-setup",
        "https://portfolio.test/articles/blog-theme",
        "https://portfolio.test/articles/blog-deploy",
    ]
    assert lines[0].startswith("1. [Setting up]")


def test_the_series_feed_carries_its_parts(get, with_series):
    response, body = get("/series/building-a-blog/feed.xml")
    feed = feedparser.parse(body)
    assert feed.feed.title == "Building a blog · Test Portfolio"
    assert feed.feed.link == "https://portfolio.test/series/building-a-blog"
    assert [entry.link.rsplit("/", 1)[1] for entry in feed.entries] == [
        "blog-theme",
        "blog-setup",
        "blog-deploy",
    ]


def test_a_series_of_drafts_or_scheduled_parts_leaves_no_trace(get, with_series, client):
    assert client.get("/series/secret-plans").status_code == 404
    assert client.get("/series/secret-plans/feed.xml").status_code == 404
    assert client.get("/series/secret-plans.md").status_code == 404
    _, sitemap = get("/sitemap-series.xml")
    assert "secret-plans" not in sitemap and "https://portfolio.test/series/building-a-blog" in sitemap
    _, index = get("/sitemap-index.xml")
    assert "sitemap-series.xml" in index


def test_no_series_no_sitemap_section(get, client):
    assert client.get("/sitemap-series.xml").status_code == 404
    _, index = get("/sitemap-index.xml")
    assert "series" not in index
    ET.fromstring(index)


def test_the_articles_json_stays_as_the_spec_fixes_it(get, with_series):
    response = get("/api/v1/articles/blog-theme.json")[0]
    assert set(response.json()) == {"slug", "title", "description", "date", "tags", "url", "apiUrl", "body"}


ONE, TWO = "articles/x-one.md", "articles/x-two.md"
RULES = [
    (
        {ONE: part("One", "2025-01-01", order=1), TWO: part("Two", "2025-01-02")},
        "articles/x-two.md: seriesOrder: the other parts of its series (articles/x-one.md) have one: "
        "give every part a seriesOrder, or none",
    ),
    (
        {ONE: part("One", "2025-01-01", order=1), TWO: part("Two", "2025-01-02", order=1)},
        "articles/x-two.md: seriesOrder: 1 is also the seriesOrder of articles/x-one.md",
    ),
    ({ONE: article(extra="seriesOrder: 2\n")}, f"{ONE}: seriesOrder: expected only with series"),
    ({ONE: part("One", "2025-01-01", order="-1")}, f"{ONE}: seriesOrder: expected a whole number"),
    ({ONE: part("One", "2025-01-01", order='"2"')}, f"{ONE}: seriesOrder: expected a whole number"),
    ({ONE: article(extra="series: [a, b]\n")}, f"{ONE}: series: expected the name of one series"),
    (
        {ONE: part("One", "2025-01-01", name="!!!")},
        f"{ONE}: series: '!!!' has no letter or digit to make its address (/series/<slug>)",
    ),
]


@pytest.mark.parametrize("files, expected", RULES)
def test_the_rules_of_a_series(imported, files, expected):
    write_content(imported, files)
    with pytest.raises(ContentInvalid) as failed:
        import_content(imported, workers=1)
    assert expected in str(failed.value)


def test_publishing_a_part_without_an_order_is_refused(imported):
    """A draft's missing seriesOrder counts once it is published."""
    write_content(imported, {
        "articles/x-one.md": part("One", "2025-01-01", order=1),
        "articles/x-two.md": part("Two", "2025-01-02", draft="true"),
    })  # fmt: skip
    import_content(imported, workers=1)
    write_content(imported, {"articles/x-two.md": part("Two", "2025-01-02")})
    with pytest.raises(ContentInvalid, match="articles/x-two.md: seriesOrder"):
        import_content(imported, workers=1)


# --- related articles ---------------------------------------------------------------------------


def related_on(body):
    if 'class="related"' not in body:
        return []
    section = body.split('<section class="related"')[1].split("</section>")[0]
    return re.findall(r'<a href="/articles/([^"]+)">', section)


@pytest.fixture
def tagged(imported):
    write_content(imported, {
        "articles/r-base.md": article("Base", date="2025-06-01", tags="[a, b, c]"),
        "articles/r-two-old.md": article("Two old", date="2024-01-01", tags="[a, b]"),
        "articles/r-one-new.md": article("One new", date="2025-09-01", tags="[c]"),
        "articles/r-one-mid.md": article("One mid", date="2025-05-01", tags="[a]"),
        "articles/r-one-same-b.md": article("One same b", date="2025-05-01", tags="[b]"),
        "articles/r-three.md": article("Three", date="2020-01-01", tags="[A, b, C]"),
        "articles/r-draft.md": article("Draft", date="2025-06-01", tags="[a, b, c]", draft="true"),
        "articles/r-later.md": article("Later", date="2999-06-01", tags="[a, b, c]"),
    })  # fmt: skip
    import_content(imported, workers=1)
    return imported


def test_related_articles_share_the_most_tags_then_the_newest(get, tagged):
    _, body = get("/articles/r-base")
    assert related_on(body) == ["r-three", "r-two-old", "r-one-new"]
    assert body.index('class="prose"') < body.index('class="related"')
    _, body = get("/articles/r-one-mid")  # tag a: base, three, two-old (newest first)
    assert related_on(body) == ["r-base", "r-two-old", "r-three"]
    _, body = get("/articles/r-one-new")  # tag c: base, three; never padded
    assert related_on(body) == ["r-base", "r-three"]


def test_no_shared_tag_no_related_articles(get, tagged):
    _, body = get("/articles/crlf-post")  # no tags
    assert related_on(body) == [] and "Related articles" not in body


def test_the_build_ranks_related_articles_as_a_page_does(tagged, settings):
    """related_index() (the build's, of every article at once) equals related_to() (one page's)
    on random tags."""
    rng = random.Random(54)
    files = {}
    for number in range(60):
        tags = rng.sample(["p", "q", "r", "s", "t", "u"], rng.randrange(4))
        date = datetime.date(2024, 1, 1) + datetime.timedelta(days=rng.randrange(40))
        files[f"articles/z-{number}.md"] = article(
            f"Z {number}", date=date.isoformat(), tags=f"[{', '.join(tags)}]"
        )
    write_content(tagged, files)
    import_content(tagged, workers=1)
    whole = series.related_index()
    assert whole, "articles with tags"
    for slug, found in whole.items():
        assert found == series.related_to(slug), slug
    with Site.build_cache():
        assert series.related_index() == whole
