"""Atomic, verified, incremental: the build never publishes a broken, partial or stale site."""

import io
import json
import os
import re
import time

import pytest

from portfolio.content.rules import ContentInvalid
from portfolio.export import manifest
from portfolio.export.build import build
from portfolio.export.render import IN_PLACE_MAX
from portfolio.export.state import BuildFailed, Phases
from tests.content_builder import DRAFT_TITLE, STACK_YAML, article, project, write_content

from .conftest import distill_local, tree


def leftovers(folder):
    return sorted(p.name for p in folder.parent.iterdir() if ".build-" in p.name)


def test_invalid_content_leaves_the_previous_build(site, content_dir, tmp_path):
    site()
    before = tree(tmp_path / "site")
    write_content(content_dir, {"articles/broken.md": article(status="done")})
    with pytest.raises(ContentInvalid):
        site()
    assert tree(tmp_path / "site") == before


def test_failed_verification_leaves_the_previous_build(site, content_dir, tmp_path):
    site()
    before = tree(tmp_path / "site")
    write_content(
        content_dir,
        # Raw HTML: the importer refuses a markdown link to a draft, verification catches the rest.
        {"articles/leaky.md": article("Leaky", body='See <a href="/articles/secret-draft">it</a>.\n')},
    )
    with pytest.raises(BuildFailed) as failed:
        site()
    leak = "articles/leaky.html: holds the address of unpublished articles/secret-draft.md"
    assert leak in str(failed.value)
    assert tree(tmp_path / "site") == before
    assert leftovers(tmp_path / "site") == []


def test_prose_that_repeats_a_draft_title_is_no_leak(site, content_dir, tmp_path):
    write_content(
        content_dir, {"articles/echo.md": article("Echo", body=f"{DRAFT_TITLE} is also a phrase.\n")}
    )
    site()
    assert (tmp_path / "site" / "articles" / "echo.html").exists()


def test_a_body_may_look_like_the_twins_around_it(site, content_dir, tmp_path):
    """llms-full.txt is checked by the twins it was made of, not by reading its lines: a body
    may hold a line like a twin's `- Page:` fact, or the separator between twins."""
    body = "Pages read:\n\n- Page: 12\n- Page: 13\n\n---\n\n# A heading\n"
    write_content(content_dir, {"articles/notes.md": article("Notes", body=body)})
    site()
    assert "- Page: 12\n" in (tmp_path / "site" / "llms-full.txt").read_text()


def test_a_post_written_for_github_or_hugo_builds(site, content_dir, tmp_path):
    """The email autolink, an alert, a task list, a table and a fence with attributes pass the
    build's checks (links, the feeds' XML) and reach the page and the feed as written."""
    body = (
        "Write to <someone@example.com>.\n\n> [!TIP]\n> Back up first.\n\n- [x] done\n- [ ] to do\n\n"
        "| a | b |\n|--:|---|\n| 1 | ~~2~~ |\n\n"
        "```go {linenos=true,hl_lines=[2]}\npackage main\nfunc main() {}\n```\n"
    )
    write_content(content_dir, {"articles/gfm.md": article("GFM", body=body)})
    site()
    page = (tmp_path / "site" / "articles" / "gfm.html").read_text()
    assert '<a href="mailto:someone@example.com">someone@example.com</a>' in page
    assert '<p class="markdown-alert-title">Tip</p>' in page and "<del>2</del>" in page
    assert '<th align="right">a</th>' in page and 'class="task-list-item-checkbox"' in page
    assert '<span class="hll">' in page and 'class="language-go"' in page
    assert "markdown-alert-title" in (tmp_path / "site" / "feed.xml").read_text()


def test_a_renamed_item_leaves_no_file_at_its_old_addresses(site, content_dir, tmp_path):
    """Netlify serves a file before a redirect rule: none may be left at an old address."""
    site()
    out = tmp_path / "site"
    text = (content_dir / "articles" / "first-post.md").read_text()
    (content_dir / "articles" / "first-post.md").unlink()
    write_content(
        content_dir, {"articles/first-steps.md": text.replace("tags:", "aliases: [first-post]\ntags:")}
    )
    assert site().carried > 0, "an edit, in place"
    files = tree(out)
    assert [path for path in files if "first-post" in path] == []
    assert "/articles/first-post.md /articles/first-steps.md 301\n" in files["_redirects"].decode()
    nginx = (
        "location = /api/v1/articles/first-post { return 301 /api/v1/articles/first-steps$is_args$args; }\n"
    )
    assert nginx in files["_redirects.nginx.conf"].decode()


def test_a_deleted_article_leaves_nothing_behind(site, content_dir, tmp_path):
    site()
    (content_dir / "articles" / "first-post.md").unlink()
    site()
    stale = [path for path in tree(tmp_path / "site") if "first-post" in path]
    assert stale == []
    assert b"first-post" not in (tmp_path / "site" / "api/v1/articles.json").read_bytes()


EDITS = [
    ("edit a body", {"articles/first-post.md": (None, "Article body.", "A new body.")}),
    ("add a project", {"projects/zeta.md": project("Zeta", date="2026-07-07")}),
    ("delete an article", {"articles/same-day.md": None}),
    # With its alias, which now moves.
    (
        "publish the draft",
        {
            "articles/secret-draft.md": article(
                "No longer secret", date="2026-04-04", aliases="[secret-draft-v1]"
            )
        },
    ),
    ("draft an article", {"articles/crlf-post.md": article("CRLF post", date="2026-04-04", draft="true")}),
    # Its neighbour's page shows its title.
    ("retitle an article", {"articles/unicode-post.md": (None, "Ünïcode ✓ 日本語", "Retitled")}),
    ("edit the stack", {"stack.yaml": STACK_YAML.replace("Testing everything", "Shipping")}),
    ("rename the site", {"site.yaml": (None, "Test Portfolio", "Renamed Portfolio")}),
    # Tags (pages/tags.py): python's items make pages of two. A tag is spelt as its newest item
    # spells it: notes, once it has it, then delta, moved to a later date.
    ("add a tag", {"articles/first-post.md": (None, "tags: [intro, meta]", "tags: [intro, meta, Python]")}),
    (
        "add a new article with tags",
        {"articles/notes.md": article("Notes", date="2026-08-08", tags="[日本語, python]")},
    ),
    ("respell a tag", {"articles/notes.md": (None, "python]", "PYTHON]")}),
    ("remove a tag's last item", {"articles/unicode-post.md": (None, "tags: [ünï]", "tags: []")}),
    ("move an item to another date", {"projects/delta.md": (None, "date: 2024-12-24", "date: 2026-09-09")}),
    ("take a tag off a project", {"projects/gamma.md": (None, "stack: [Python, Django]", "stack: [Django]")}),
    # A rename as a writer does it: the file moved, its old slug listed in `aliases`.
    (
        "rename an article",
        {
            "articles/first-post.md": None,
            "articles/first-steps.md": article(
                "First post", date="2025-01-10", tags="[intro, meta]", aliases="[first-post]"
            ),
        },
    ),
    (
        "rename a project",
        {
            "projects/beta_two.md": None,
            "projects/beta-two.md": project(
                "Beta Two", date="2025-06-30", status="reference", stack="[]", aliases="[beta_two, beta]"
            ),
        },
    ),
    (
        "move an alias",
        {
            "projects/alpha-one.md": (None, "[alpha, alpha_1,", "[alpha,"),
            "projects/delta.md": (None, "status: active", "aliases: [alpha_1]\nstatus: active"),
        },
    ),
    (
        "move an old path",
        {
            "projects/alpha-one.md": (None, ', "/work/alpha-project/"]', "]"),
            "projects/gamma.md": (None, "status:", 'aliases: ["/work/alpha-project.html"]\nstatus:'),
        },
    ),
]


# Series and related articles (pages/series.py): an article's page shows its series' parts and
# its related articles by title, a series' page and feed its parts.
SERIES_EDITS = [
    (
        "start a series",
        {
            "articles/part-one.md": article(
                "Part one", date="2026-02-02", tags="[python, guide]", extra='series: "The Guide"\n'
            ),
            "articles/part-two.md": article(
                "Part two", date="2026-02-03", tags="[guide]", extra='series: "The Guide"\n'
            ),
        },
    ),  # fmt: skip
    (
        "reorder a series",
        {
            "articles/part-one.md": (None, 'series: "The Guide"\n', 'series: "The Guide"\nseriesOrder: 2\n'),
            "articles/part-two.md": (None, 'series: "The Guide"\n', 'series: "The Guide"\nseriesOrder: 1\n'),
        },
    ),
    ("retitle a part", {"articles/part-one.md": (None, "Part one", "Part the first")}),
    (
        "tag a part as others are",
        {"articles/part-two.md": (None, "tags: [guide]", "tags: [guide, python, intro]")},
    ),
    ("draft a part", {"articles/part-two.md": (None, "tags:", "draft: true\ntags:")}),
    ("end the series", {"articles/part-one.md": None}),
]


def test_incremental_builds_equal_full_builds_with_series(site, content_dir, tmp_path):
    """An edit of a series or of tags renders again every page whose series box, related
    articles, series page, feed or sitemap changes: the incremental build equals a full one."""
    site()
    for name, change in SERIES_EDITS:
        apply(content_dir, change)
        result = site()
        full = tree(site(tmp_path / "full", full=True).out_dir)
        assert tree(tmp_path / "site") == full, name
        assert result.carried > 0, name
    assert not any(path.startswith("series/") for path in full)


def apply(content_dir, change):
    for rel, data in change.items():
        path = content_dir / rel
        if data is None:
            path.unlink()
        elif isinstance(data, tuple):
            path.write_text(path.read_text().replace(data[1], data[2]))
        else:
            write_content(content_dir, {rel: data})


# The edits in chains, each chain from the standard content: within a chain an edit builds on
# the ones before it (a tag added, then respelt, then its newest item moved), the chains are
# independent of each other, so each is a test of its own and the two cores share them.
CHAINS = {
    "items": [
        "edit a body", "add a project", "delete an article", "publish the draft", "draft an article",
        "retitle an article",
    ],
    "tags": [
        "add a tag", "add a new article with tags", "respell a tag", "remove a tag's last item",
        "move an item to another date", "take a tag off a project",
    ],
    "site and renames": [
        "edit the stack", "rename the site", "rename an article", "rename a project", "move an alias",
        "move an old path",
    ],
}  # fmt: skip


def test_the_chains_hold_every_edit_once():
    assert sorted(name for chain in CHAINS.values() for name in chain) == sorted(name for name, _ in EDITS)


@pytest.mark.parametrize(
    "chain", [pytest.param(chain, marks=pytest.mark.xdist_group(f"incremental-{chain}")) for chain in CHAINS]
)
def test_incremental_builds_equal_full_builds(chain, site, content_dir, tmp_path, monkeypatch, settings):
    """After each edit, both incremental builds hold what a full build of the same content holds:
    the one that updates the previous folder in place and the one that makes a new folder (as a
    build rendering more does). Both follow the same edits, so one full build serves as both's
    reference."""
    settings.LIST_PAGE_SIZE = 2  # lists of two pages, whose items the edits move across pages
    ways = {"in place": IN_PLACE_MAX, "new folder": 0}
    edits = dict(EDITS)

    def incremental(way):
        monkeypatch.setattr("portfolio.export.render.IN_PLACE_MAX", ways[way])
        return site(tmp_path / way)

    for way in ways:
        incremental(way)
    for number, name in enumerate(CHAINS[chain]):
        apply(content_dir, edits[name])
        # Taking turns: each way builds first (importing the edit) after every other edit.
        order = list(ways)[:: 1 if number % 2 else -1]
        results = {way: incremental(way) for way in order}
        full = tree(site(tmp_path / "full", full=True).out_dir)
        for way, result in results.items():
            assert tree(tmp_path / way) == full, (way, name)
            assert result.carried > 0 or name == "rename the site", (way, name)


def test_an_edit_rewrites_only_the_files_whose_bytes_change(site, content_dir, tmp_path):
    site()
    out = tmp_path / "site"
    before = tree(out)
    inodes = {path: os.stat(out / path).st_ino for path in before}
    folder = os.stat(out).st_ino
    # A new body: the article's page, JSON and twin, llms-full.txt, and the feeds that carry it
    # whole (the site's, its tags'); no list, no tag page.
    apply(content_dir, EDITS[0][1])
    result = site()
    assert os.stat(out).st_ino == folder, "an edit updates the folder in place"
    assert leftovers(out) == []
    after = tree(out)
    changed = sorted(path for path in after if os.stat(out / path).st_ino != inodes.get(path))
    assert [path for path in changed if not path.startswith("pagefind/")] == [
        "api/v1/articles/first-post.json", "articles/first-post.html", "articles/first-post.md",
        "feed.xml", "llms-full.txt", "tags/intro/feed.xml", "tags/meta/feed.xml",
    ]  # fmt: skip
    # Its bundle of the search index is made again: only its files with new bytes are written.
    assert all(after[path] != before.get(path) for path in changed)
    assert (result.rendered, result.written) == (7, 7), "no list shows a body: only the item and feeds"
    # New bytes that change no output (a comment): the same files render again, and stay; the
    # item's bundle of the search index is made again, to the same bytes.
    write_content(content_dir, {"articles/first-post.md": (content_dir / "articles/first-post.md")
                                .read_text().replace("---\n", "---\n# a comment\n", 1)})  # fmt: skip
    inodes = {path: os.stat(out / path).st_ino for path in tree(out)}
    result = site()
    assert result.rendered == 7 and result.written == 0 and result.search == "1 of 2"
    assert all(os.stat(out / path).st_ino == inode for path, inode in inodes.items())


def test_lists_with_no_items_and_then_one(site, content_dir, tmp_path):
    """A list with no item is its page saying so; its first item, and its last removed, are
    edits like any other (incremental equals full)."""
    for path in [*(content_dir / "articles").glob("*.md"), *(content_dir / "projects").glob("*.md")]:
        path.unlink()
    out = tmp_path / "site"
    site()
    assert b"No articles yet." in (out / "articles.html").read_bytes()
    assert json.loads((out / "api/v1/projects.json").read_bytes()) == {"count": 0, "projects": []}
    for change in ({"articles/first.md": article("First", date="2026-01-01")},
                   {"projects/first.md": project("First", date="2026-01-01")},
                   {"articles/first.md": None}):  # fmt: skip
        apply(content_dir, change)
        site()
        assert tree(out) == tree(site(tmp_path / "full", full=True).out_dir), change
    assert b"No articles yet." in (out / "articles.html").read_bytes()


def test_a_new_draft_is_looked_for_in_every_file_that_changes(site, content_dir, tmp_path):
    """An article turned draft: every file that still names it fails the build, llms-full.txt
    (another article's body links to it) included."""
    html = 'See <a href="/articles/first-post">it</a>.\n'  # raw HTML: the importer lets it by
    write_content(content_dir, {"articles/pointer.md": article("Pointer", date="2025-01-01", body=html)})
    site()
    drafted = article("First post", date="2025-01-10", draft="true")
    write_content(content_dir, {"articles/first-post.md": drafted})
    with pytest.raises(BuildFailed) as failed:
        site()
    assert "llms-full.txt: holds the address of unpublished articles/first-post.md" in str(failed.value)


def test_a_title_edit_renders_only_the_pages_that_show_titles(site, content_dir, tmp_path):
    """What the routes declare they show (portfolio/shows.py): the sitemaps show addresses and
    dates, the project pages projects, the 404 page and openapi.json only the site's identity: an
    article's new title leaves them."""

    def keys():  # of the pages and documents (the search index's bundles: test_search_index.py)
        files = manifest.read(tmp_path / "site")["files"]
        return {path: entry[0] for path, entry in files.items() if not path.startswith("pagefind/")}

    site()
    before = keys()
    apply(content_dir, EDITS[5][1])  # retitle an article
    site()
    changed = {path for path, key in keys().items() if key != before.get(path)}
    assert {"articles.html", "api/v1/articles.json", "index.html", "llms.txt", "feed.xml"} <= changed
    kept = {"projects.html", "api/v1/projects.json", "sitemap-articles.xml", "sitemap-projects.xml",
            "stack.html", "404.html", "openapi.json", "robots.txt", "tags.html", "sitemap-tags.xml",
            "tags/python.html"}  # fmt: skip
    assert {"tags/ünï.html", "tags/ünï/feed.xml"} <= changed, "the retitled article's tag"
    assert not changed & kept


def test_a_title_edit_renders_only_the_list_page_that_shows_it(site, content_dir, tmp_path, settings):
    """Each page of a list has its own key: a retitled article re-renders its page of
    /articles, not the others nor the projects' pages."""
    settings.LIST_PAGE_SIZE = 2

    def keys():  # of the pages and documents (the search index's bundles: test_search_index.py)
        files = manifest.read(tmp_path / "site")["files"]
        return {path: entry[0] for path, entry in files.items() if not path.startswith("pagefind/")}

    site()
    before = keys()
    assert {"articles.html", "articles/page/2.html", "projects.html", "projects/page/2.html"} <= set(before)
    assert "articles/page/3.html" not in before
    apply(content_dir, EDITS[5][1])  # retitle unicode-post, the newest article: on page 1
    site()
    changed = {path for path, key in keys().items() if key != before.get(path)}
    assert "articles.html" in changed
    assert not changed & {"articles/page/2.html", "projects.html", "projects/page/2.html"}
    apply(content_dir, {"articles/first-post.md": (None, "First post", "First of all")})  # page 2
    before = keys()
    site()
    changed = {path for path, key in keys().items() if key != before.get(path)}
    assert "articles/page/2.html" in changed and "articles.html" not in changed
    assert "First of all" in (tmp_path / "site" / "articles/page/2.html").read_text()


def test_tag_pages_render_again_only_when_they_show_the_edit(site, content_dir, tmp_path, settings):
    """A tag's pages show what the lists show of its items: a new body re-renders only the feeds
    that carry it whole, a new title only the tag pages that list the item (and their feeds);
    /tags and the tags' sitemap show names, counts and dates, neither."""
    settings.LIST_PAGE_SIZE = 2

    def keys():
        return {path: entry[0] for path, entry in manifest.read(tmp_path / "site")["files"].items()}

    site()
    before = keys()
    # python: same-day, alpha-one, gamma | delta; django: alpha-one, gamma | delta
    assert {"tags/python.html", "tags/python/page/2.html", "tags/django/page/2.html"} <= set(before)
    tag_files = {path for path in before if path.startswith("tags") or path == "sitemap-tags.xml"}
    apply(content_dir, EDITS[0][1])  # a new body for first-post (intro, meta)
    site()
    changed = {path for path, key in keys().items() if key != before.get(path)}
    assert changed & tag_files == {"tags/intro/feed.xml", "tags/meta/feed.xml"}
    before = keys()
    apply(content_dir, {"projects/delta.md": (None, "Delta", "Delta renamed")})
    site()
    changed = {path for path, key in keys().items() if key != before.get(path)}
    # The pages' markdown forms show what their pages show: the same two, again.
    assert changed & tag_files == {"tags/python/page/2.html", "tags/django/page/2.html",
                                   "tags/python/page/2.md", "tags/django/page/2.md",
                                   "tags/python/feed.xml", "tags/django/feed.xml"}  # fmt: skip
    assert "Delta renamed" in (tmp_path / "site" / "tags/python/page/2.html").read_text()
    assert "[Delta renamed](" in (tmp_path / "site" / "tags/python/page/2.md").read_text()


def test_a_rebuild_with_no_change_leaves_the_folder_alone(site, tmp_path):
    site()
    folder = os.stat(tmp_path / "site").st_ino
    result = site()
    assert (result.rendered, result.written) == (0, 0) and result.carried > 30
    assert os.stat(tmp_path / "site").st_ino == folder, "up to date: not even swapped"


def test_refuses_to_replace_what_is_not_a_build(site, tmp_path, settings):
    with pytest.raises(BuildFailed, match="refusing to replace this folder"):
        site(settings.BASE_DIR)
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "notes.txt").write_text("keep me")
    with pytest.raises(BuildFailed, match="not empty and not a previous build; use --force"):
        site(mine)
    assert (mine / "notes.txt").read_text() == "keep me"
    site(mine, force=True)
    assert not (mine / "notes.txt").exists() and (mine / "index.html").exists()


def test_the_command_reports_content_errors_and_keeps_the_folder(built_site, tmp_path):
    content = write_content(tmp_path / "content")
    write_content(content, {"projects/bad.md": project(status="done")})
    before = tree(built_site)
    result = distill_local(content, built_site, tmp_path / "db.sqlite3")
    assert result.returncode == 1
    assert (
        "projects/bad.md: status: expected one of active, reference, experimental; got 'done'"
        in result.stderr
    )
    assert "nothing was built" in result.stderr
    assert tree(built_site) == before


def test_debug_pages_are_never_frozen(built_site, tmp_path):
    content = write_content(tmp_path / "content")
    result = distill_local(content, tmp_path / "site", tmp_path / "db.sqlite3", env={"DEBUG": "1"})
    assert result.returncode == 0, result.stderr
    assert tree(tmp_path / "site") == tree(built_site), "DEBUG=1 builds the same site, 404 page included"


def test_the_sample_content_exports(db, settings, tmp_path):
    settings.SITE_URL = ""
    settings.CONTENT_DIR = settings.BASE_DIR / "content"
    result = build(tmp_path / "site", workers=1, stderr=io.StringIO())
    files = tree(tmp_path / "site")
    samples = sorted(p.stem for p in (settings.BASE_DIR / "content" / "projects").glob("*.md"))
    assert [slug for slug in samples if f"api/v1/projects/{slug}.json" not in files] == []
    assert [slug for slug in samples if f"projects/{slug}.html" not in files] == []
    assert result.files == len(files) and b"ada-brennan.dev" in files["llms.txt"]


def test_django_distills_usual_options_are_accepted(tmp_path):
    content = write_content(tmp_path / "content")
    result = distill_local(
        content, tmp_path / "site", tmp_path / "db.sqlite3",
        "--force", "--collectstatic", "--exclude-staticfiles", "--parallel-render", "2", "--quiet",
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("Built ") and (tmp_path / "site" / "index.html").exists()


def busy(seconds):
    end = time.process_time() + seconds
    while time.process_time() < end:
        pass


def test_a_phase_counts_the_cpu_time_of_the_children_it_reaped():
    phases = Phases()
    with phases("work"):
        pid = os.fork()
        if pid == 0:
            busy(0.3)
            os._exit(0)
        os.waitpid(pid, 0)
    assert phases.cpu["work"] >= 0.25, "the child's CPU time counts"


def test_a_rebuild_with_no_change_is_answered_before_importing(tmp_path):
    """The fingerprint in the manifest: equal inputs and untouched output answer at once, any
    difference (content, settings, an output file) runs the real build, which puts it right. The
    first build's summary gives each phase's wall and CPU time."""
    content, out, db = write_content(tmp_path / "content"), tmp_path / "site", tmp_path / "db.sqlite3"
    first = distill_local(content, out, db, "--workers", "1")
    assert first.returncode == 0, first.stderr
    step = r"[\d.]+/[\d.]+ s"
    steps = rf"import ([\d.]+)/([\d.]+) s, plan {step}, render {step}, search {step}, verify {step}, "
    steps += rf"publish {step}\)"
    assert re.search(r"\(wall/CPU: " + steps, first.stdout), first.stdout
    answered = distill_local(content, out, db, "--workers", "1")
    assert answered.returncode == 0 and "nothing changed since the last build" in answered.stdout
    index = out / "index.html"
    before = index.read_bytes()
    index.write_bytes(b"tampered")  # an output file not as recorded: rebuilt from the database
    rebuilt = distill_local(content, out, db, "--workers", "1")
    assert rebuilt.returncode == 0 and rebuilt.stdout.startswith("Built"), rebuilt.stdout
    assert index.read_bytes() == before
    twin = out / "articles" / "first-post.md"
    twin_before = twin.read_bytes()
    twin.write_bytes(b"tampered")
    assert distill_local(content, out, db, "--workers", "1").returncode == 0
    assert twin.read_bytes() == twin_before
    assert "nothing changed" in distill_local(content, out, db).stdout
    edited = next((content / "articles").glob("*.md"))
    edited.write_text(edited.read_text() + "\nOne more line.\n")
    after_edit = distill_local(content, out, db, "--workers", "1")
    assert after_edit.stdout.startswith("Built"), after_edit.stdout
    other_site = distill_local(content, out, db, "--workers", "1", env={"SITE_URL": "https://x.example"})
    assert other_site.stdout.startswith("Built"), other_site.stdout


def test_the_fingerprint_sees_a_touched_file_and_gives_up_on_linked_folders(content_dir, settings):
    settings.CONTENT_DIR = content_dir
    first = manifest.inputs({})
    assert first and manifest.inputs({}) == first
    edited = next((content_dir / "articles").glob("*.md"))
    os.utime(edited, ns=(0, 0))
    assert manifest.inputs({}) != first
    settings.SITE_URL = "https://elsewhere.example"
    assert manifest.inputs({}) not in (first, None)
    (content_dir / "linked").symlink_to(content_dir / "articles", target_is_directory=True)
    assert manifest.inputs({}) is None, "a linked folder could change unseen"


def test_an_edit_in_place_removes_what_the_site_no_longer_has_and_emptied_folders(
    site, content_dir, tmp_path
):
    svg = '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"></svg>'
    write_content(content_dir, {"media/old/shape.svg": svg, "media/kept.svg": svg})
    site()
    out = tmp_path / "site"
    assert (out / "media/old/shape.svg").is_file()
    folder = os.stat(out).st_ino
    (content_dir / "media/old/shape.svg").unlink()
    result = site()
    assert os.stat(out).st_ino == folder and result.carried > 0, "updated in place"
    assert not (out / "media/old").exists() and (out / "media/kept.svg").is_file()
    assert tree(out) == tree(site(tmp_path / "full", full=True).out_dir)


def url_of(slug):
    return f"https://portfolio.test/articles/{slug}"


def test_a_large_full_text_is_in_parts_each_item_once_newest_first(site, content_dir, tmp_path, settings):
    """Over LLMS_FULL_PART_BYTES, llms-full.txt is cut into parts linked from llms.txt: every
    published item in exactly one part, newest first across them, no draft in any; an edit
    renders only the part that holds the item."""
    settings.LLMS_FULL_PART_BYTES = 1500
    out = tmp_path / "site"
    site()
    files = tree(out)
    names = ["llms-full.txt", *sorted((p for p in files if re.fullmatch(r"llms-full-\d+\.txt", p)),
                                      key=lambda p: int(p[10:-4]))]  # fmt: skip
    assert len(names) >= 3
    llms = files["llms.txt"].decode()
    for number, name in enumerate(names, 1):
        assert f"- [Full text, part {number} of {len(names)}](https://portfolio.test/{name})" in llms
    pages = [re.findall(r"^- Page: (\S+)$", files[name].decode(), re.M) for name in names]
    assert all(pages), "no empty part"
    listed = (
        json.loads(files["api/v1/articles.json"])["articles"]
        + json.loads(files["api/v1/projects.json"])["projects"]
    )
    newest_first = [item["url"] for item in sorted(listed, key=lambda item: item["date"], reverse=True)]
    assert sorted(sum(pages, [])) == sorted(newest_first) and len(sum(pages, [])) == len(listed)
    dates = {item["url"]: item["date"] for item in listed}
    held = [dates[url] for url in sum(pages, [])]
    assert held == sorted(held, reverse=True), "newest first across the parts"
    assert not any(DRAFT_TITLE.encode() in files[name] for name in names)

    apply(content_dir, EDITS[0][1])  # a new body for first-post
    [holder] = [name for name, urls in zip(names, pages, strict=True) if url_of("first-post") in urls]
    result = site()
    changed = {path for path, data in tree(out).items() if files.get(path) != data}
    changed = {path for path in changed if not path.startswith("pagefind/")}  # test_search_index.py
    item = {"api/v1/articles/first-post.json", "articles/first-post.html", "articles/first-post.md"}
    feeds = {"feed.xml", "tags/intro/feed.xml", "tags/meta/feed.xml"}  # they carry the body too
    assert changed == {*item, *feeds, holder}, changed
    assert result.rendered == 7
    assert tree(out) == tree(site(tmp_path / "full", full=True).out_dir)
