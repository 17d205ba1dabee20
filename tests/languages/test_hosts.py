"""Markdown by negotiation for the pages whose addresses the hosts cannot tell from the site's own
(a standalone page, /about, and its translation, /fr/about) and for translated items, on every
host that negotiates: the authoring server, the preview, nginx and the Workers deploy. Each
answers the form the build wrote, says `Vary: Accept` and names the form in its Link; a page of
the same shape without a form (/developers, /fr/projects) is only ever its page."""

import json
import subprocess
import sys

import pytest

from tests.contact.helpers import BROWSER_ACCEPT
from tests.export.conftest import distill_local, on_workers, start_nginx
from tests.export.test_hosts import HOSTS, url_paths
from tests.header_rules import headers_for
from tests.server import fetch, manage_py_server, server_process
from tests.tools import missing_tool

from .content import write_multilingual

MARKDOWN = "text/markdown; charset=utf-8"
CATALOG = '</.well-known/api-catalog>; rel="api-catalog"'
FORMS = ["/about", "/fr/about", "/fr/articles/first-post", "/fa/projects/alpha-one", "/projects"]
WITHOUT_FORM = ["/developers", "/search", "/fr/projects", "/fr/search", "/fr/stack"]


@pytest.fixture(scope="module")
def content(tmp_path_factory):
    return write_multilingual(tmp_path_factory.mktemp("languages") / "content")


@pytest.fixture(scope="module")
def built(content):
    out = content.parent / "site"
    result = distill_local(content, out, content.parent / "db.sqlite3", "--workers", "2")
    assert result.returncode == 0, result.stderr
    return out


def varies(headers):
    return "accept" in [
        v.strip().lower() for value in headers.get_all("Vary") or [] for v in value.split(",")
    ]


def check(base, site, *, static_host=True):
    for path in FORMS:
        status, headers, body = fetch(base + path, headers={"Accept": "text/markdown"})
        assert (status, headers["Content-Type"]) == (200, MARKDOWN), path
        assert body == (site / (path.lstrip("/") + ".md")).read_bytes(), path
        assert varies(headers), path
        assert headers.get_all("Link") == [CATALOG], path
        status, headers, body = fetch(base + path, headers={"Accept": BROWSER_ACCEPT})
        assert status == 200 and headers["Content-Type"].startswith("text/html"), path
        assert body == (site / (path.lstrip("/") + ".html")).read_bytes(), path
        assert varies(headers), path
        form_link = f'<{path}.md>; rel="alternate"; type="text/markdown"'
        assert headers.get_all("Link") == [f"{form_link}, {CATALOG}"], path
    for path in WITHOUT_FORM:
        status, headers, body = fetch(base + path, headers={"Accept": "text/markdown"})
        assert status == 200 and headers["Content-Type"].startswith("text/html"), path
        assert not varies(headers), path
        if static_host:
            assert body == (site / (path.lstrip("/") + ".html")).read_bytes(), path
    for path in ("/fr/feed.xml", "/fr/tags/introduction/feed.xml"):  # a language's feeds, typed
        status, headers, _ = fetch(base + path)
        assert (status, headers["Content-Type"]) == (200, "application/atom+xml; charset=utf-8"), path
    for path in ("/no-such-page", "/fr/no-such-page", "/fr/articles/no-such-post"):
        assert fetch(base + path, headers={"Accept": "text/markdown"})[0] == 404, path
    # The nearest 404 page: a language's under its prefix, at any depth; the site's elsewhere.
    fr, fa, en = b'<html lang="fr">', b'<html lang="fa" dir="rtl">', b'<html lang="en">'
    for path, root in [
        ("/fr/no/such/page", fr),
        ("/fa/nowhere", fa),
        ("/nowhere/at/all", en),
        ("/de/nowhere", en),
    ]:
        status, _, body = fetch(base + path)
        assert status == 404 and root in body, path


def test_the_build_names_each_form_in_headers(built):
    """`_headers` (Cloudflare Pages and Workers, Netlify, the preview) gives each page of FORMS a
    Link to its form, and none to a file under a language's folders that is not a page."""
    rules = (built / "_headers").read_text()
    assert "\n/fr/about\n  Link: </fr/about.md>" in rules
    assert "\n/fr/articles/:slug\n  Link: </fr/articles/:slug.md>" in rules
    assert "/:lang" not in rules


def test_the_authoring_server(built, content, tmp_path):
    env = {"CONTENT_DIR": str(content), "DATABASE_URL": f"sqlite:///{tmp_path / 'a.sqlite3'}", "DEBUG": ""}
    with manage_py_server(["runserver", "--noreload", "127.0.0.1:{port}"], env) as base:
        check(base, built, static_host=False)


def test_the_preview(built, tmp_path):
    env = {"DATABASE_URL": f"sqlite:///{tmp_path / 'preview.sqlite3'}", "DEBUG": "", "SITE_URL": ""}
    with server_process(
        [sys.executable, "manage.py", "preview", str(built), "--port", "{port}"], env
    ) as base:
        check(base, built)


def test_nginx(built, module_background, tmp_path):
    check(start_nginx(built, module_background, tmp_path), built)


def test_cloudflare_workers(built, tmp_path):
    on_workers(built, tmp_path, lambda base: check(base, built))


def built_rules(site):
    """(pattern, headers) of the built `_headers`, as tests/header_rules.py reads header_rules()."""
    rules = []
    for line in (site / "_headers").read_text().splitlines():
        if line.startswith("  "):
            rules[-1][1].append(line.strip())
        elif line:
            rules.append((line, []))
    return rules


def test_no_header_is_set_twice_and_netlify_reads_the_rules(built):
    """The languages' rules (their items' forms, their feeds' type, their pages) add no second
    value of a header to any built file, as Cloudflare would join them; Netlify parses them all."""
    rules = built_rules(built)
    assert any(pattern == "/fa/articles/:slug" for pattern, _ in rules)
    for path in url_paths(built):
        headers = headers_for(path, rules)
        assert all(len(values) == 1 for values in headers.values()), (path, headers)
    if not (HOSTS / "node_modules" / "@netlify" / "headers-parser").exists():
        missing_tool("Netlify's parsers are not installed (make test runs npm ci in tests/hosts)")
    result = subprocess.run(
        ["node", "netlify_rules.mjs", str(built)], cwd=HOSTS, capture_output=True, text=True, check=True
    )
    assert json.loads(result.stdout)["errors"] == []
