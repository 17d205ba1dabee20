"""`manage.py preview` answers as Cloudflare Pages does: the same status, Content-Type, Location
and body as `wrangler pages dev` on the same built folder, and the contact form works."""

import json
import re
import shutil
import subprocess
import sys
from urllib.parse import quote

import pytest
from django.conf import settings

from tests.contact.helpers import BROWSER_ACCEPT, VALID
from tests.content_builder import MOVED, NOT_MOVED, SITE_URL
from tests.server import WRANGLER_START_GUARD, fetch, free_port, raw_get, server_process
from tests.tools import missing_tool

from .conftest import WRANGLER, WRANGLER_ENV

UNKNOWN = [
    "/no/such/page", "/projects/no-such-project", "/articles/secret-draft", "/api/v1/articles/secret-draft",
    "/api/v1/articles/secret-draft.json", "/api/v1/", "/api/v1/nope/deeper", "/api/v1/projects/", "/static/",
    "/static/pages/", "/static/nope.css", "/docs", "/docs/", "/nothing.md", "/a%20b", "/%E2%9C%93",
]  # fmt: skip
PRETTY = [
    "/index.html", "/index", "/projects.html", "/projects/", "/projects/alpha-one.html", "/404",
    "/404.html", "/api/v1/404.html", "/contact/", "/contact/thanks.html", "/a/../projects",
    "/projects?page=2", "/projects.html?page=2", "/docs/index.html", "/docs/index", "/docs/",
    # A tag's pages in another script: other spellings of the same bytes, and of other bytes.
    "/tags/", "/tags.html", "/tags/python/", "/tags/%C3%BCn%C3%AF/", "/tags/%C3%BCn%C3%AF.html",
    "/tags/%c3%bcn%c3%af", "/tags/u%CC%88n%C3%AF", "/tags/%C3%BCn%C3%AF/feed.xml",
]  # fmt: skip
# Rules another engineer might add: the preview must follow the files, not a copy of today's rules.
EXTRA_REDIRECTS = (
    "/old-projects /projects 301\n/go/* /articles/:splat 302\n/see /stack 303\n/p/:slug /projects/:slug 200\n"
)
EXTRA_HEADERS = (
    "/projects/*.md\n  Content-Type: text/markdown; charset=utf-8\n"
    "/projects/*\n  X-Extra: one\n  ! Referrer-Policy\n"
)
EXTRA_PATHS = ["/old-projects", "/go/first-post?x=1", "/see", "/p/alpha-one", "/projects/alpha-one.md",
               "/site.webmanifest", "/docs", "/data.unknownext", "/README"]  # fmt: skip


@pytest.fixture(scope="module")
def site(built_site, tmp_path_factory):
    """The built folder plus what a later build may hold: markdown twins, a manifest, a folder
    with an index, files of other types, more rules."""
    folder = tmp_path_factory.mktemp("preview") / "site"
    shutil.copytree(built_site, folder)
    (folder / "projects" / "alpha-one.md").write_text("# Alpha one\n")
    (folder / "notes.md").write_text("# Notes\n")
    (folder / "site.webmanifest").write_text("{}")
    (folder / "docs").mkdir()
    (folder / "docs" / "index.html").write_text("<!doctype html><title>docs</title>")
    (folder / "data.unknownext").write_bytes(b"\x00\x01")
    (folder / "README").write_text("plain")
    with open(folder / "_redirects", "a") as rules:
        rules.write(EXTRA_REDIRECTS)
    with open(folder / "_headers", "a") as rules:
        rules.write(EXTRA_HEADERS)
    return folder


def preview(folder, tmp_path):
    env = {"DATABASE_URL": f"sqlite:///{tmp_path / 'preview.sqlite3'}", "DEBUG": "", "SITE_URL": SITE_URL}
    return server_process([sys.executable, "manage.py", "preview", str(folder), "--port", "{port}"], env)


@pytest.fixture(scope="module")
def wrangler(site):
    if not WRANGLER.exists():
        missing_tool("wrangler is not installed (make test runs npm ci in tests/hosts)")
    args = [str(WRANGLER), "pages", "dev", str(site), "--ip", "127.0.0.1", "--port", "{port}",
            "--compatibility-date", "2026-04-01", "--inspector-port", str(free_port())]  # fmt: skip
    for attempt in (1, 2):  # a cold first start of the Workers runtime has been seen to time out
        try:
            # wrangler keeps its state in .wrangler/ under the working folder: not in the checkout.
            with server_process(args, WRANGLER_ENV, timeout=WRANGLER_START_GUARD, cwd=site.parent) as base:
                yield base
            return
        except RuntimeError:
            if attempt == 2:
                raise


def addresses(site):
    """Every sitemap address, every API file in both forms, every file by its path."""
    paths = set()
    for sitemap in site.glob("sitemap-*.xml"):
        paths.update(
            loc.removeprefix(SITE_URL) or "/"
            for loc in re.findall(r"<loc>([^<]+)</loc>", sitemap.read_text())
        )
    for name in site.rglob("*.json"):
        path = "/" + str(name.relative_to(site))
        paths.update({path, path.removesuffix(".json")})
    # A file named in another script (a tag's page) is asked for percent-encoded, as browsers do.
    paths.update("/" + quote(str(name.relative_to(site))) for name in site.rglob("*") if name.is_file())
    # wrangler's dev server answers the first two with a 502 of its own, and serves nginx's include
    # as a file: the preview answers 404 to all three (test_the_preview_never_serves_the_rules_files).
    paths -= {"/_headers", "/_redirects", "/_redirects.nginx.conf"}
    return sorted(paths)


def answer(base, path, method="GET"):
    status, headers, body = fetch(base + path, method=method)
    return status, headers.get_all("Content-Type"), headers.get("Location"), body


def wrangler_answer(base, path, method="GET"):
    """wrangler's answer, its Location percent-encoded: it sends the decoded path of a pretty-URL
    redirect as raw bytes (`/tags/ünï` as Latin-1), which the preview encodes as UTF-8, as a
    header must be for a tag in any script (`/tags/日本語` has no Latin-1 form at all)."""
    status, types, location, body = answer(base, path, method)
    return status, types, location and quote(location, safe="/%:@!$&'()*+,;=-._~[]|^?#"), body


def test_the_preview_answers_as_wrangler_does(site, wrangler, tmp_path):
    paths = addresses(site)
    assert {"/projects/alpha-one", "/api/v1/projects", "/api/v1/projects.json", "/feed.xml"} <= set(paths)
    assert {"/tags", "/tags/%C3%BCn%C3%AF", "/tags/%C3%BCn%C3%AF.html", "/tags/python/feed.xml"} <= set(paths)
    paths += UNKNOWN + PRETTY + EXTRA_PATHS + list(MOVED) + NOT_MOVED + ["/projects/alpha?x=1"]
    with preview(site, tmp_path) as ours:
        theirs = {path: wrangler_answer(wrangler, path) for path in paths}
        differences = [(path, answer(ours, path)[:3], theirs[path][:3])
                       for path in paths if answer(ours, path) != theirs[path]]  # fmt: skip
        assert differences == []
        for path in ["/projects", "/no/such/page", "/api/v1/projects"]:
            assert answer(ours, path, "HEAD") == wrangler_answer(wrangler, path, "HEAD"), path
        # Spot checks of what "the same" means here.
        status, types, _, body = answer(ours, "/projects")
        assert (status, types) == (200, ["text/html; charset=utf-8"]) and body == (
            site / "projects.html"
        ).read_bytes()
        assert answer(ours, "/projects.html")[:3] == (308, None, "/projects")
        assert answer(ours, "/api/v1/projects")[1] == ["application/json"]
        status, types, _, body = answer(ours, "/api/v1/nope/deeper")
        assert (status, json.loads(body)) == (404, json.loads((site / "api/v1/404.html").read_bytes()))
        assert answer(ours, "/docs")[:3] == (308, None, "/docs/")
        assert answer(ours, "/static/pages/")[0] == 404  # no folder listing
        assert answer(ours, "/notes.md")[1] == ["text/markdown; charset=utf-8"]
        assert answer(ours, "/site.webmanifest")[1] == ["application/manifest+json"]
        assert answer(ours, "/go/first-post?x=1")[:3] == (
            302,
            ["text/plain;charset=UTF-8"],
            "/articles/first-post?x=1",
        )
        for old, new in MOVED.items():  # a renamed item's old addresses
            assert (answer(ours, old)[0], answer(ours, old)[2]) == (301, new), old
        _, headers, _ = fetch(ours + "/projects/alpha-one")
        assert headers["X-Extra"] == "one" and "Referrer-Policy" not in headers
        status, types, _, body = answer(ours, "/tags/%C3%BCn%C3%AF")
        assert (status, types, body) == (
            200,
            ["text/html; charset=utf-8"],
            (site / "tags/ünï.html").read_bytes(),
        )
        assert answer(ours, "/tags/python/feed.xml")[1] == ["application/atom+xml; charset=utf-8"]


def test_the_contact_form_works_in_the_preview(built_site, tmp_path):
    with preview(built_site, tmp_path) as base:
        body = json.dumps(VALID).encode()
        json_post = {"Content-Type": "application/json", "Accept": "application/json"}
        status, _, answer_body = fetch(base + "/api/contact", body, {**json_post, "Origin": base}, "POST")
        assert (status, json.loads(answer_body)) == (201, {"ok": True})
        localhost = base.replace("127.0.0.1", "localhost")
        assert fetch(base + "/api/contact", body, {**json_post, "Origin": localhost}, "POST")[0] == 201
        status, _, _ = fetch(
            base + "/api/contact", body, {**json_post, "Origin": "https://evil.example"}, "POST"
        )
        assert status == 403
        # A browser's plain form post lands on the thanks page, which the preview serves.
        form = b"name=Ada&email=ada%40example.com&message=Hi"
        headers = {
            "Content-Type": "application/x-www-form-urlencoded",
            "Accept": BROWSER_ACCEPT,
            "Origin": base,
        }
        status, answer_headers, _ = fetch(base + "/api/contact", form, headers, "POST")
        assert (status, answer_headers["Location"]) == (303, base + "/contact/thanks")
        assert fetch(base + "/contact/thanks")[0] == 200
        # Other methods on files are refused, as the host refuses them.
        assert fetch(base + "/projects", b"x", {"Origin": base}, "POST")[0] == 405


def test_the_preview_refuses_a_folder_that_is_not_a_build(tmp_path):
    result = subprocess.run(
        [sys.executable, "manage.py", "preview", str(tmp_path), "--port", str(free_port())],
        cwd=settings.BASE_DIR, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert result.returncode != 0 and "make build" in result.stderr


def test_the_preview_stays_local(built_site, tmp_path):
    """Only files whose real path is inside the folder are served (a linked folder inside it may
    point anywhere), and only to the preview's own host names (no DNS rebinding)."""
    folder = tmp_path / "site"
    shutil.copytree(built_site, folder)
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_text("not the site's")
    (folder / "outside-link").symlink_to(outside)
    (folder / "inside-link").symlink_to(folder / "projects")
    with preview(folder, tmp_path) as base:
        assert fetch(base + "/outside-link/secret.txt")[0] == 404
        assert fetch(base + "/inside-link/alpha-one")[0] == 200
        assert fetch(base + "/projects")[0] == 200
        for path in ("/", "/projects", "/api/v1/projects.json", "/no/such/page", "/api/contact"):
            assert fetch(base + path, headers={"Host": "rebound.example"})[0] == 400, path


RULES_FILES = ["_redirects", "_headers", "_redirects.nginx.conf"]


def spellings(name):
    """Paths a client may send for the rules file `name`: encoded dot segments and slashes,
    every character encoded, a backslash, doubled slashes, other letter cases, a linked folder."""
    every_byte = "".join(f"%{byte:02X}" for byte in name.encode())
    return [f"/{name}", f"/x/../{name}", f"/x/%2e%2e/{name}", f"/x/%2E%2E/{name}", f"/x/.%2e/{name}",
            f"/x/%2e./{name}", f"/x%2f..%2f{name}", f"/x%2F%2E%2E%2F{name}", f"//{name}", f"/./{name}",
            f"/%2e/{name}", f"/{every_byte}", f"/x\\..\\{name}", f"/x/..%5C{name}", f"/{name.upper()}",
            f"/{name.capitalize()}", f"/{name}/", f"/{name}?x=1", f"/root-link/{name}", f"/{name}.html",
            f"/%2F{name}", f"/x/..//{name}"]  # fmt: skip


def test_the_preview_never_serves_the_rules_files(built_site, tmp_path):
    folder = tmp_path / "site"
    shutil.copytree(built_site, folder)
    (folder / "root-link").symlink_to(folder)  # a linked folder leading back to the root
    for name in RULES_FILES:
        assert (folder / name).is_file(), name
    with preview(folder, tmp_path) as base:
        for name in RULES_FILES:
            for path in spellings(name):
                status, _, body = raw_get(base, path.encode())
                assert status == 404 and body == (folder / "404.html").read_bytes(), path
        assert raw_get(base, b"/x/%2e%2e/projects")[0] == 200  # the same spellings of a page answer it
        assert raw_get(base, b"/root-link/projects")[0] == 200


NIHONGO = "/tags/" + quote("日本語")  # /tags/%E6%97%A5%E6%9C%AC%E8%AA%9E


def test_every_address_in_any_script_answers_and_every_location_is_encoded(built_site, tmp_path):
    """A tag in a script without a Latin-1 form: its pages answer raw and percent-encoded, every
    redirect names it percent-encoded (wsgiref cannot send it otherwise, and the answer hung), and
    an error answers 500 instead of hanging."""
    folder = tmp_path / "site"
    shutil.copytree(built_site, folder)
    tag = folder / "tags" / "日本語"
    (tag / "page").mkdir(parents=True)
    shutil.copyfile(folder / "tags" / "ünï.html", folder / "tags" / "日本語.html")
    shutil.copyfile(folder / "tags" / "ünï.html", tag / "page" / "2.html")
    shutil.copyfile(folder / "tags" / "ünï" / "feed.xml", tag / "feed.xml")
    with open(folder / "_redirects", "a") as rules:
        rules.write("/old-tag /tags/日本語 301\n/spaced /articles/a%20b 301\n")
    with open(folder / "_headers", "a") as rules:
        rules.write("/broken-header\n  X-Note: 日本語\n")
    page = (folder / "tags" / "日本語.html").read_bytes()
    with preview(folder, tmp_path) as base:
        for path in ["/tags/日本語", NIHONGO, NIHONGO.lower()]:
            status, headers, body = raw_get(base, path.encode())
            assert (status, headers["content-type"], body) == (200, "text/html; charset=utf-8", page), path
        for path in [NIHONGO + "/page/2", "/tags/日本語/feed.xml"]:
            assert raw_get(base, path.encode())[0] == 200, path
        moves = {
            "/tags/日本語/": NIHONGO, NIHONGO + "/": NIHONGO, "/tags/日本語.html": NIHONGO,
            NIHONGO + "/page/2.html": NIHONGO + "/page/2", NIHONGO + "/page/2/": NIHONGO + "/page/2",
            "/tags/日本語/index": NIHONGO + "/", "/tags/日本語/?q=1": NIHONGO + "?q=1",
            "/old-tag": NIHONGO, "/spaced": "/articles/a%20b",
        }  # fmt: skip
        for path, location in moves.items():
            status, headers, _ = raw_get(base, path.encode())
            assert status in (301, 302, 308) and headers["location"] == location, (path, status, headers)
        assert raw_get(base, b"/broken-header")[0] == 500
        assert raw_get(base, b"/projects")[0] == 200  # and the server goes on


def test_the_preview_links_only_markdown_forms_that_exist(site, tmp_path):
    """The `_headers` rule of `/articles/:slug` names `/articles/:slug.md` for any slug: the 404 of
    an article that does not exist said its markdown form was at /articles/x.md."""
    with preview(site, tmp_path) as base:
        status, headers, _ = fetch(base + "/articles/no-such-article")
        assert status == 404
        assert "no-such-article.md" not in (headers.get("Link") or "")
        status, headers, _ = fetch(base + "/projects/alpha-one")  # its form is there (the fixture's)
        assert status == 200 and '</projects/alpha-one.md>; rel="alternate"' in headers["Link"]
        assert "api-catalog" in headers["Link"]  # the other links stay


def test_the_preview_honours_a_list_of_etags(site, tmp_path):
    with preview(site, tmp_path) as base:
        status, headers, _ = fetch(base + "/projects/alpha-one")
        etag = headers["ETag"]
        for value in [etag, f'"a", {etag}', f'"a",{etag} , "b"', f'W/"a", W/{etag}', "*", " * "]:
            assert fetch(base + "/projects/alpha-one", headers={"If-None-Match": value})[0] == 304, value
        for value in ['"a", "b"', etag[:-1] + 'x"']:
            assert fetch(base + "/projects/alpha-one", headers={"If-None-Match": value})[0] == 200, value
