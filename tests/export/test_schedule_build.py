"""Scheduled articles in incremental builds, by the real command: an article dated after the
build's date (BUILD_DATE) is in no file; the first build on or after its date publishes it, though
no file changed (never "Up to date" past a due date); a later date that changes no article is
"Up to date"; going back in time takes it out again. The build's verification (lists against
detail files, feeds, sitemaps, llms.txt, no draft referenced) checks each result whole."""

import json

from tests.content_builder import FILES, article, write_content

from .conftest import distill_local

SLUG, TITLE = "tomorrows-post", "Tomorrow's post title"


def naming(site):
    return sorted(
        str(path.relative_to(site))
        for path in site.rglob("*")
        if path.is_file() and "pagefind" not in path.parts and SLUG.encode() in path.read_bytes()
    )


def test_a_scheduled_article_is_published_by_the_first_build_on_its_date(tmp_path):
    files = dict(FILES) | {f"articles/{SLUG}.md": article(TITLE, date="2026-06-02", tags="[later]")}
    content, site, db = write_content(tmp_path / "content", files), tmp_path / "site", tmp_path / "db.sqlite3"

    def build(day):
        result = distill_local(content, site, db, env={"BUILD_DATE": day})
        assert result.returncode == 0, result.stderr
        return result.stdout

    assert build("2026-06-01").startswith("Built ")
    assert naming(site) == [] and not (site / "articles" / f"{SLUG}.html").exists()
    window = json.loads((tmp_path / ".site.manifest").read_text())["schedule"]
    assert window == ["2026-05-05", "2026-06-02"]  # the latest published date, the next due one
    assert "nothing changed" in build("2026-06-01")

    assert build("2026-06-02").startswith("Built ")  # its day: no file changed, still built
    named = naming(site)
    for path in ["articles.html", f"articles/{SLUG}.html", f"articles/{SLUG}.md", "feed.xml", "llms.txt",
                 f"api/v1/articles/{SLUG}.json", "api/v1/articles.json", "tags/later.html"]:  # fmt: skip
        assert path in named, (path, named)
    assert "nothing changed" in build("2026-06-02")
    assert "nothing changed" in build("2026-06-09")  # a later day that changes no article

    assert build("2026-06-01").startswith("Built ")  # back in time: absent again
    assert naming(site) == []
