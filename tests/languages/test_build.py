"""A real build of the multilingual content (tests/languages/content.py), verify step included."""

import re
import struct

import pytest

from .content import add_languages, add_more


@pytest.fixture
def multilingual_site(site, content_dir, tmp_path):
    add_languages(content_dir)
    site()
    return tmp_path / "site"


def test_the_build_writes_every_language_and_verifies_it(multilingual_site):
    out = multilingual_site
    for rel in [
        "index.html",
        "fr/index.html",
        "fa/index.html",
        "ja/index.html",
        "fr/articles/first-post.html",
        "fa/articles/first-post.html",
        "ja/articles/first-post.html",
        "fr/projects/alpha-one.html",
        "fa/projects/alpha-one.html",
        "fr/projects.html",
        "ja/projects.html",  # none translated: the list says so
        "fr/articles.html",
        "fr/about.html",
        "fr/feed.xml",
        "fr/tags/introduction.html",
        "fr/tags/introduction/feed.xml",
        "fr/404.html",
        "fa/404.html",
        "fr/stack.html",
        "404.html",
    ]:
        assert (out / rel).is_file(), rel
    fa = (out / "fa/articles/first-post.html").read_text()
    assert '<html lang="fa" dir="rtl">' in fa
    assert '<html lang="en">' in (out / "articles/first-post.html").read_text()
    assert '<html lang="fr">' in (out / "fr/404.html").read_text()
    assert not (out / "ja/stack.html").exists()  # no stack.ja.yaml
    # A translation's aliases move under its language's prefix, on the hosts too.
    redirects = (out / "_redirects").read_text()
    assert "/fr/articles/ancien-premier /fr/articles/first-post 301" in redirects
    assert "/fr/posts/premier/ /fr/articles/first-post 301" in redirects


def test_a_draft_translation_is_in_no_file(multilingual_site):
    out = multilingual_site
    assert not (out / "fr/articles/same-day.html").exists()
    assert not (out / "fr/articles/crlf-post.html").exists()
    for path in out.rglob("*"):
        if path.is_file() and path.suffix in (".html", ".xml", ".txt", ".json", ".md"):
            text = path.read_text(errors="replace")
            assert "Brouillon secret" not in text, path
            assert "/fr/articles/same-day" not in text, path
            assert "/fr/articles/crlf-post" not in text, path


def test_the_hosts_find_each_languages_404_page(multilingual_site):
    page = (multilingual_site / "ja/404.html").read_text()
    assert re.search(r'<html lang="ja">', page)


def test_verify_refuses_a_link_to_a_draft_translation(site, content_dir):
    from portfolio.export.state import BuildFailed

    add_languages(content_dir)
    post = content_dir / "articles/first-post.md"
    post.write_text(post.read_text() + '\n<a href="/fr/articles/same-day">raw HTML, not resolved</a>\n')
    with pytest.raises(BuildFailed) as caught:
        site()
    leak = "articles/first-post.html: holds the address of unpublished articles/same-day.fr.md"
    assert leak in str(caught.value)


def test_a_language_without_a_catalog_builds_with_a_warning(content_dir, settings, tmp_path, db):
    import io

    from portfolio.export.build import build

    settings.SITE_URL = ""
    settings.CONTENT_DIR = content_dir
    settings.LOCALE_PATHS = [tmp_path / "locale"]
    (tmp_path / "locale/fr/LC_MESSAGES").mkdir(parents=True)
    # An empty catalog (no message): GNU gettext's header alone.
    empty = struct.pack("<7I", 0x950412DE, 0, 0, 28, 28, 0, 28)
    (tmp_path / "locale/fr/LC_MESSAGES/django.mo").write_bytes(empty)
    add_languages(content_dir)
    stderr = io.StringIO()
    build(tmp_path / "site", workers=1, stderr=stderr)
    warnings = [line for line in stderr.getvalue().splitlines() if line.startswith("warning:")]
    assert warnings == [
        f"warning: site.yaml: languages: {code} has no catalog of the site's words "
        f"(locale/{code}/LC_MESSAGES/django.mo): its pages show English labels"
        for code in ("fa", "ja")
    ]
    assert "Premier article" in (tmp_path / "site/fr/articles/first-post.html").read_text()


def test_search_indexes_each_language_and_answers_in_it(multilingual_site):
    import json

    entry = json.loads((multilingual_site / "pagefind/site/pagefind-entry.json").read_text())
    assert {"en", "fr", "fa", "ja"} <= set(entry["languages"])  # by each page's <html lang>
    # Every French page the build marks for the index is in French's index (its stack too).
    marked = [
        page
        for page in (multilingual_site / "fr").rglob("*.html")
        if "data-pagefind-body" in page.read_text()
    ]
    assert any(page.name == "stack.html" for page in marked)
    assert entry["languages"]["fr"]["page_count"] == len(marked)
    search = (multilingual_site / "fr/search.html").read_text()
    assert '<html lang="fr">' in search and 'action="/fr/search"' in search


def test_the_preview_answers_each_languages_404_and_moves_its_aliases(multilingual_site, tmp_path):
    import sys

    from tests.server import fetch, server_process

    env = {"DATABASE_URL": f"sqlite:///{tmp_path / 'preview.sqlite3'}", "DEBUG": "", "SITE_URL": ""}
    args = [sys.executable, "manage.py", "preview", str(multilingual_site), "--port", "{port}"]
    with server_process(args, env) as base:
        status, _, body = fetch(base + "/fr/nowhere")
        assert status == 404 and b'<html lang="fr">' in body  # the nearest 404.html: fr/404.html
        status, _, body = fetch(base + "/nowhere")
        assert status == 404 and b'<html lang="en">' in body
        status, headers, _ = fetch(base + "/fr/articles/ancien-premier")
        assert (status, headers.get("Location")) == (301, "/fr/articles/first-post")
        status, _, body = fetch(base + "/fa/articles/first-post")
        assert status == 200 and b'dir="rtl"' in body


def test_the_build_writes_each_languages_later_pages_and_tags_index(site, content_dir, settings, tmp_path):
    """One item a page: French has three pages of projects, two of articles and of its tag
    "introduction"; the verify step follows their links (prev, next, the tags')."""
    settings.LIST_PAGE_SIZE = 1
    add_more(add_languages(content_dir))
    site()
    out = tmp_path / "site"
    written = [
        "fr/projects/page/2.html",
        "fr/projects/page/3.html",
        "fr/articles/page/2.html",
        "fr/tags/introduction/page/2.html",
        "fr/tags.html",
        "fa/tags.html",
        "ja/tags.html",
    ]
    for rel in written:
        assert (out / rel).is_file(), rel
    for rel in [
        "fr/projects/page/4.html",
        "fr/projects/page/1.html",
        "fa/projects/page/2.html",
        "fr/tags/introduction/page/3.html",
    ]:
        assert not (out / rel).exists(), rel
    second = (out / "fr/projects/page/2.html").read_text()
    assert '<link rel="prev" href="/fr/projects">' in second
    assert '<link rel="next" href="/fr/projects/page/3">' in second
    assert '<a href="/fr/tags/introduction">' in (out / "fr/tags.html").read_text()


def mo_file(messages):
    """A GNU gettext catalog of `messages` ({msgid: msgstr}), as msgfmt writes it."""
    ids = sorted(messages)
    keys = [key.encode() for key in ids]
    values = [messages[key].encode() for key in ids]
    start = 28 + 16 * len(ids)
    table, data = [], b""
    for text in keys + values:
        table.append((len(text), start + len(data)))
        data += text + b"\0"
    header = struct.pack("<7I", 0x950412DE, 0, len(ids), 28, 28 + 8 * len(ids), 0, 0)
    return header + b"".join(struct.pack("<2I", *entry) for entry in table) + data


def test_a_catalog_is_found_where_django_reads_it(settings, tmp_path):
    """zh-hant-tw's catalog is locale/zh_Hant-tw/ (Django's locale name, then zh's): the warning
    names that folder, and a catalog there is one Django translates with."""
    from django.utils import translation

    from portfolio.content.languages import catalog_missing

    settings.LOCALE_PATHS = [tmp_path / "locale"]
    assert catalog_missing("zh-hant-tw")
    folder = tmp_path / "locale/zh_Hant-tw/LC_MESSAGES"
    folder.mkdir(parents=True)
    (folder / "django.mo").write_bytes(
        mo_file({"": "Content-Type: text/plain; charset=UTF-8\n", "Projects": "專案"})
    )
    assert not catalog_missing("zh-hant-tw")
    with translation.override("zh-hant-tw"):
        assert translation.gettext("Projects") == "專案"
    assert catalog_missing("pt-br") and not catalog_missing("en-gb")
