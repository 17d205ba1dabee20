"""`manage.py runserver` picks up edits on the next request, and shows an invalid edit's errors."""

import os
import sqlite3
from urllib.parse import quote

import pytest

from portfolio.content.autosync import Watcher
from portfolio.content.middleware import PROBLEM_KEY
from portfolio.content.rules import ContentError, ContentInvalid
from tests.content_builder import MOVED, article, write_content
from tests.server import fetch, manage_py_server, raw_get
from tests.tools import missing_tool


def titles(db_path):
    with sqlite3.connect(db_path) as connection:
        return {row[0] for row in connection.execute("select title from content_article")}


@pytest.fixture
def authoring_server(tmp_path, content_dir):
    db_path = tmp_path / "authoring.sqlite3"
    env = {"CONTENT_DIR": str(content_dir), "DATABASE_URL": f"sqlite:///{db_path}", "DEBUG": ""}
    with manage_py_server(["runserver", "--noreload", "127.0.0.1:{port}"], env) as base:
        yield base, db_path


def test_edits_show_on_the_next_request_and_errors_replace_the_page(authoring_server, content_dir):
    base, db_path = authoring_server
    assert "First post" in titles(db_path), "migrated and imported on the first request"

    write_content(content_dir, {"articles/first-post.md": article("First post, edited")})
    (content_dir / "articles" / "same-day.md").unlink()
    write_content(content_dir, {"articles/brand-new.md": article("Brand new")})
    assert fetch(base + "/admin/login/")[0] == 200
    assert {"First post, edited", "Brand new"} <= titles(db_path)
    assert "Same day published" not in titles(db_path)

    write_content(content_dir, {"articles/brand-new.md": article("Brand new", status="done")})
    status, headers, body = fetch(base + "/admin/login/")
    assert status == 500 and headers["Content-Type"].startswith("text/html")
    assert "articles/brand-new.md: status: unknown key" in body.decode()
    assert "Brand new" in titles(db_path), "the last valid content stays"

    # Another file's edit does not hide it: after an invalid edit, every file is looked at.
    write_content(content_dir, {"articles/first-post.md": article("First post, again")})
    assert "articles/brand-new.md: status: unknown key" in fetch(base + "/admin/login/")[2].decode()

    write_content(content_dir, {"articles/brand-new.md": article("Brand new, fixed")})
    assert fetch(base + "/admin/login/")[0] == 200
    assert {"Brand new, fixed", "First post, again"} <= titles(db_path)


@pytest.mark.parametrize("use_inotify", [True, False], ids=["inotify", "stat"])
def test_the_watcher_sees_every_kind_of_change(content_dir, use_inotify):
    watcher = Watcher(content_dir, use_inotify=use_inotify)
    assert watcher.changed(), "the first call always imports"
    assert not watcher.changed()
    for change in (
        lambda: write_content(content_dir, {"articles/first-post.md": article("Edited")}),
        lambda: write_content(content_dir, {"projects/new.md": article("New")}),
        lambda: (content_dir / "articles" / "same-day.md").unlink(),
        lambda: (content_dir / "stack.yaml").write_text((content_dir / "stack.yaml").read_text() + "\n"),
        # Hostile entries are the importer's to name: the watcher only notices them.
        lambda: os.symlink(content_dir / "articles" / "loop.md", content_dir / "articles" / "loop.md"),
        lambda: write_content(content_dir, {"media/shot.png": b"png"}),
        lambda: os.symlink(content_dir / "media" / "loop.png", content_dir / "media" / "loop.png"),
    ):
        change()
        assert watcher.changed()
        assert not watcher.changed()


def test_lists_are_answered_from_memory_until_the_content_changes(authoring_server, content_dir):
    base, db_path = authoring_server
    assert "First post" in fetch(base + "/articles")[2].decode()
    # Behind the server's back: a cached list does not see it, a page that is not cached does.
    with sqlite3.connect(db_path) as connection:
        connection.execute(
            "update content_article set title = 'Changed in the database' where slug = 'first-post'"
        )
    assert "Changed in the database" not in fetch(base + "/articles")[2].decode()
    assert "Changed in the database" in fetch(base + "/articles/first-post")[2].decode()
    # A content edit imports and empties the cache: the list shows the file's new title.
    write_content(content_dir, {"articles/first-post.md": article("First post, edited")})
    body = fetch(base + "/articles")[2].decode()
    assert "First post, edited" in body and "Changed in the database" not in body
    status, headers, api = fetch(base + "/api/v1/articles")
    assert (
        status == 200
        and headers["Content-Type"].startswith("application/json")
        and b"First post, edited" in api
    )


def test_the_watcher_names_the_files_that_changed(content_dir):
    watcher = Watcher(content_dir)
    if watcher.inotify is None:
        missing_tool("no inotify here: every change is a full import")
    assert watcher.changed() and watcher.paths is None, "the first import looks at everything"
    write_content(content_dir, {"articles/first-post.md": article("Edited")})
    assert watcher.changed() and watcher.paths == {"articles/first-post.md"}
    (content_dir / "articles" / "same-day.md").unlink()
    (content_dir / "stack.yaml").write_text((content_dir / "stack.yaml").read_text() + "\n")
    assert watcher.changed() and watcher.paths == {"articles/same-day.md", "stack.yaml"}
    for change in (
        lambda: write_content(content_dir, {"media/shot.png": b"png"}),  # may change how items render
        lambda: (content_dir / "articles" / "folder").mkdir(),
        lambda: (content_dir / "notes").mkdir(),
    ):
        change()
        assert watcher.changed() and watcher.paths is None


def test_a_foreign_host_gets_400_even_for_what_is_answered_from_memory(authoring_server):
    """DNS rebinding: a page elsewhere names its own host, resolved to 127.0.0.1. Nothing is
    answered to it, not a cached list, not a static file, not the API."""
    base, _ = authoring_server
    paths = ["/", "/articles", "/projects", "/api/v1/articles", "/api/v1/projects.json",
             "/articles/first-post", "/static/pages/site.css", "/no/such/page"]  # fmt: skip
    for path in paths:
        fetch(base + path)  # a local request first: the lists are now in memory
        assert fetch(base + path, headers={"Host": "rebound.example"})[0] == 400, path
        assert fetch(base + path, headers={"Host": "localhost"})[0] in (200, 404), path


def test_a_renamed_file_s_old_addresses_move_while_writing(authoring_server, content_dir):
    """Old addresses answer 301 on the real server; then a rename as a writer does it while it
    runs (the file moved, its old slug listed in `aliases`) moves them on the next request."""
    base, _ = authoring_server
    assert fetch(base + "/articles/first-post")[0] == 200
    for old, new in MOVED.items():
        status, headers, _ = fetch(base + old)
        assert (status, headers["Location"]) == (301, new), old
    text = (content_dir / "articles" / "first-post.md").read_text()
    (content_dir / "articles" / "first-post.md").unlink()
    write_content(
        content_dir, {"articles/first-steps.md": text.replace("tags:", "aliases: [first-post]\ntags:")}
    )
    for old, new in [("/articles/first-post", "/articles/first-steps"),
                     ("/api/v1/articles/first-post.json", "/api/v1/articles/first-steps.json")]:  # fmt: skip
        status, headers, _ = fetch(base + old)
        assert (status, headers["Location"]) == (301, new), old
    assert fetch(base + "/articles/first-steps")[0] == 200


@pytest.mark.parametrize("count, words", [(1, "1 problem;"), (2, "2 problems;")])
def test_the_error_page_is_in_the_site_s_frame_and_counts_in_words(client, imported, count, words):
    # What autosync puts in the request's environ while the content folder is invalid.
    errors = [ContentError(f"articles/x{n}.md", "status", "unknown key") for n in range(count)]
    response = client.get("/articles/", **{PROBLEM_KEY: ContentInvalid(errors)})
    page = response.content.decode()
    assert response.status_code == 500
    assert '<header class="site-header">' in page and '<footer class="site-footer">' in page
    assert f"The content folder has {words}" in page and "problem(s)" not in page
    assert "articles/x0.md: status: unknown key" in page
    assert "<style" not in page, "the site's stylesheet, no inline style (its CSP)"


def test_addresses_in_any_script_answer_as_on_the_host(authoring_server, content_dir):
    """A tag's pages in a script without a Latin-1 form answer, asked raw or percent-encoded (the
    static-files handler failed on the decoded path the host check wrote back: a 500); unknown
    non-ASCII addresses are 404s. A real socket with a timeout: a hang fails, it does not block."""
    base, _ = authoring_server
    write_content(content_dir, {"articles/nihongo.md": article("日本語の記事", tags="[日本語]")})
    nihongo = "/tags/" + quote("日本語")
    for path in ["/tags/日本語", nihongo, nihongo.lower(), nihongo + "/feed.xml", "/articles/nihongo"]:
        status, _, body = raw_get(base, path.encode())
        assert status == 200 and "日本語の記事" in body.decode(), (path, status)
    assert raw_get(base, "/tags/ünï".encode())[0] == raw_get(base, b"/tags/%C3%BCn%C3%AF")[0] == 200
    unknown = ["/static/日本語.css", "/static/" + quote("日本語.css"), nihongo + "/nope", "/%FF", "/tags/%FF"]
    for path in unknown:
        assert raw_get(base, path.encode())[0] == 404, path


def test_a_static_path_out_of_the_static_folders_is_a_404(tmp_path, content_dir):
    """With DEBUG on, /static/ is served from the source folders (Django's static handler, whose
    finders refused these with an exception: a 500); nothing outside them is ever served."""
    env = {
        "CONTENT_DIR": str(content_dir),
        "DATABASE_URL": f"sqlite:///{tmp_path / 'a.sqlite3'}",
        "DEBUG": "1",
    }
    with manage_py_server(["runserver", "--noreload", "127.0.0.1:{port}"], env) as base:
        for path in [b"/static/..%2f..%2fportfolio/settings.py", b"/static/../../portfolio/settings.py",
                     b"/static/pages/..%2f..%2f..%2fmanage.py", b"/static/%2e%2e/%2e%2e/manage.py",
                     b"/static/.."]:  # fmt: skip
            status, _, body = raw_get(base, path)
            assert status == 404 and b"SECRET_KEY" not in body and b"DJANGO_SETTINGS" not in body, path
        assert raw_get(base, b"/static/pages/site.css")[0] == 200
