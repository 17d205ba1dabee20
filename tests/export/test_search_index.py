"""The search index the build writes (portfolio/export/search_index.py): what it holds, how it
is cut into bundles, and that an edit re-indexes only the bundle of the page it changed."""

import gzip
import io
import json
import os

import pytest

from portfolio.export import search_index
from portfolio.export.build import build
from portfolio.export.state import BuildFailed
from portfolio.export.verify import Verifier
from tests.content_builder import DRAFT_SLUG, DRAFT_TITLE, article, write_content

from .conftest import tree

ITEM_PAGES = {"/projects/alpha-one.html", "/projects/beta_two.html", "/projects/gamma.html",
              "/projects/delta.html", "/articles/first-post.html", "/articles/same-day.html",
              "/articles/crlf-post.html", "/articles/unicode-post.html"}  # fmt: skip


def fragments(site):
    """{bundle: {page address as Pagefind names it: fragment}} of the built index."""
    found = {}
    for path in sorted((site / "pagefind").glob("*/fragment/*.pf_fragment")):
        data = json.loads(gzip.decompress(path.read_bytes()).removeprefix(b"pagefind_dcd"))
        found.setdefault(path.parent.parent.name, {})[data["url"]] = data
    return found


def test_the_index_holds_each_published_page_once_and_no_draft(built_site):
    bundles = json.loads((built_site / "pagefind" / "bundles.json").read_bytes())["bundles"]
    assert bundles == ["/pagefind/site/", "/pagefind/0/"]  # eight items: one bundle of them
    found = fragments(built_site)
    assert set(found["site"]) == {"/stack.html", "/developers.html"}
    assert set(found["0"]) == ITEM_PAGES  # not the home page, the lists, the 404 page
    alpha = found["0"]["/projects/alpha-one.html"]
    assert alpha["meta"]["title"] == "Alpha One"
    assert "last letter first" in alpha["content"]  # the case study: the page's data-pagefind-body
    assert "Source on GitHub" not in alpha["content"] and "Test Author" not in alpha["content"]
    for pages in found.values():
        for data in pages.values():
            text = json.dumps(data, ensure_ascii=False)
            assert DRAFT_SLUG not in text and DRAFT_TITLE not in text and "Draft body" not in text
    # The first bundle carries Pagefind's script, worker and WebAssembly; the others only their
    # index (a merged bundle is searched with the first's); no bundle carries Pagefind's UI kits.
    site_files = {p.name for p in (built_site / "pagefind" / "site").iterdir()}
    assert {"pagefind.js", "pagefind-worker.js", "wasm.en.pagefind", "pagefind-entry.json"} <= site_files
    item_files = {p.name for p in (built_site / "pagefind" / "0").iterdir()}
    assert "pagefind-entry.json" in item_files and "pagefind.js" not in item_files
    assert not [p for p in (built_site / "pagefind").rglob("*") if "-ui" in p.name]


def test_bundles_are_stable_and_double_as_the_site_grows_up_to_their_most(monkeypatch):
    monkeypatch.setattr(search_index, "PAGES_PER_BUNDLE", 10)
    monkeypatch.setattr(search_index, "MAX_BUNDLES", 8)
    counts = [search_index.bundle_count(n) for n in (0, 10, 11, 20, 21, 80, 81, 1000)]
    assert counts == [1, 1, 2, 2, 4, 8, 8, 8]
    paths = [f"articles/a-{n}.html" for n in range(400)]
    first = {path: search_index.bundle_of(path, 8) for path in paths}
    assert first == {path: search_index.bundle_of(path, 8) for path in paths}  # the same every build
    sizes = [list(first.values()).count(str(n)) for n in range(8)]
    assert min(sizes) > 25, sizes  # about 50 each: the hash spreads them


@pytest.fixture
def site(db, content_dir, settings, tmp_path, monkeypatch):
    """build() into tmp_path/site in this process, the items cut into bundles of at most two."""
    settings.SITE_URL = ""
    settings.CONTENT_DIR = content_dir
    monkeypatch.setattr(search_index, "PAGES_PER_BUNDLE", 2)

    def run(**options):
        return build(tmp_path / "site", workers=2, stderr=io.StringIO(), **options)

    return run


def index_files(out):
    """{path: (inode, mtime_ns)} of the search index's files."""
    return {path: (os.stat(out / path).st_ino, os.stat(out / path).st_mtime_ns)
            for path in tree(out) if path.startswith("pagefind/")}  # fmt: skip


def bundle_of_page(out, address):
    return next(bundle for bundle, pages in fragments(out).items() if address in pages)


def test_an_edit_re_indexes_only_the_bundle_of_its_page(site, content_dir, tmp_path):
    out = tmp_path / "site"
    result = site()
    bundles = json.loads((out / "pagefind" / "bundles.json").read_bytes())["bundles"]
    assert len(bundles) == 5 and result.search == "5 of 5"  # eight items in four, and the site's
    before = index_files(out)
    edited = bundle_of_page(out, "/articles/first-post.html")
    path = content_dir / "articles" / "first-post.md"
    path.write_text(path.read_text().replace("Article body.", "A body about zebrafish."))
    result = site()
    assert result.search == "1 of 5"
    after = index_files(out)
    changed = {p for p in set(before) | set(after) if before.get(p) != after.get(p)}
    assert changed and all(p.startswith(f"pagefind/{edited}/") for p in changed), changed
    assert "zebrafish" in fragments(out)[edited]["/articles/first-post.html"]["content"]
    # The same words again (a new file, its item's key new): its bundle is indexed again, to the
    # same bytes, so no file of the index is written.
    path.write_text(path.read_text().replace("---\n", "---\n# a comment\n", 1))
    assert site().search == "1 of 5" and index_files(out) == after
    # The file saved again unchanged: nothing is indexed.
    path.write_text(path.read_text())
    assert site().search == "0 of 5" and index_files(out) == after


def test_a_title_edit_re_indexes_only_its_page_s_bundle(site, content_dir, tmp_path):
    """The pages around an article name it in their pager, which the index leaves out: they
    render again, their bundles do not change, and a search for the title finds the one page."""
    out = tmp_path / "site"
    site()
    before = index_files(out)
    path = content_dir / "articles" / "first-post.md"
    path.write_text(path.read_text().replace('"First post"', '"Zebrafish post"'))
    result = site()
    assert result.search == "1 of 5"
    edited = bundle_of_page(out, "/articles/first-post.html")
    after = index_files(out)
    changed = {p for p in set(before) | set(after) if before.get(p) != after.get(p)}
    assert changed and all(p.startswith(f"pagefind/{edited}/") for p in changed), changed
    assert "Zebrafish post" in (out / "articles" / "same-day.html").read_text()  # a neighbour
    found = [page for pages in fragments(out).values() for page, fragment in pages.items()
             if "Zebrafish" in json.dumps(fragment)]  # fmt: skip
    assert found == ["/articles/first-post.html"]


def test_a_removed_article_leaves_the_index(site, content_dir, tmp_path):
    out = tmp_path / "site"
    site()
    bundle = bundle_of_page(out, "/articles/same-day.html")
    old = set(index_files(out))
    (content_dir / "articles" / "same-day.md").unlink()
    site()
    assert not [pages for pages in fragments(out).values() if "/articles/same-day.html" in pages]
    # Its bundle's files that no longer belong to it are gone, not left beside the new ones.
    entry = json.loads((out / "pagefind" / bundle / "pagefind-entry.json").read_bytes())
    [language] = entry["languages"].values()
    metas = [p for p in set(index_files(out)) if p.startswith(f"pagefind/{bundle}/pagefind.")]
    assert metas == [f"pagefind/{bundle}/pagefind.{language['hash']}.pf_meta"]
    assert old - set(index_files(out))


def test_an_index_file_changed_by_hand_is_indexed_again(site, tmp_path):
    out = tmp_path / "site"
    site()
    entry = out / "pagefind" / "site" / "pagefind-entry.json"
    good = entry.read_bytes()
    entry.write_text("{}")
    assert site().search == "1 of 5"
    assert entry.read_bytes() == good


def test_a_searchable_page_must_mark_its_content(site, monkeypatch, tmp_path):
    """A page of ROUTES without data-pagefind-body would be left out by Pagefind: the build
    fails instead, and the previous output stays."""
    site()
    before = tree(tmp_path / "site")
    monkeypatch.setattr(search_index, "SITE_ROUTES", {*search_index.SITE_ROUTES, "pages:home"})
    with pytest.raises(BuildFailed) as failed:
        site(full=True)
    assert "pagefind/site/: Pagefind indexed 2 of its 3 pages" in str(failed.value)
    assert "data-pagefind-body" in str(failed.value)
    assert tree(tmp_path / "site") == before


def test_verification_finds_a_draft_in_the_index(content_dir):
    """Were a draft ever indexed, its fragment would name it: the build would not publish."""
    verifier = Verifier("https://portfolio.test", set(), {"paths": {}}, [(DRAFT_SLUG, DRAFT_TITLE)])
    fragment = b'pagefind_dcd{"url":"/articles/%s.html","content":"x"}' % DRAFT_SLUG.encode()
    path = "pagefind/0/fragment/en_1.pf_fragment"
    problems = verifier.check_file(path, gzip.compress(fragment))
    assert problems == [f"{path}: holds the address of unpublished articles/{DRAFT_SLUG}.md"]
    titled = b'pagefind_dcd{"url":"/x.html","meta":{"title":"%s"}}' % DRAFT_TITLE.encode()
    assert verifier.check_file("pagefind/0/fragment/en_2.pf_fragment", gzip.compress(titled))
    assert verifier.check_file("pagefind/0/fragment/en_3.pf_fragment", b"not gzip")


def test_the_draft_stays_out_when_it_is_published_and_drafted_again(site, content_dir, tmp_path):
    out = tmp_path / "site"
    site()
    write_content(content_dir, {f"articles/{DRAFT_SLUG}.md": article("Now public", date="2026-04-04")})
    site()
    assert any(f"/articles/{DRAFT_SLUG}.html" in pages for pages in fragments(out).values())
    drafted = article("Hidden", date="2026-04-04", draft="true")
    write_content(content_dir, {f"articles/{DRAFT_SLUG}.md": drafted})
    site()
    assert not any(f"/articles/{DRAFT_SLUG}.html" in pages for pages in fragments(out).values())
