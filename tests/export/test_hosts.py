"""The built folder as real static hosts serve it: Cloudflare Pages (its own `wrangler pages dev`),
Netlify (its own rule parsers), nginx (deploy/nginx.conf) and a plain static server."""

import json
import os
import re
import shutil
import subprocess
import sys
from urllib.parse import quote, unquote

import pytest
from django.conf import settings

from pages.negotiation import MARKDOWN_PAGE_PATH
from portfolio.export.hosts import (
    NGINX_REDIRECTS,
    REWRITES,
    content_security_policy,
    headers_file,
    rewrite,
    served_file,
)
from tests.content_builder import IMG_SRC, MOVED, NOT_MOVED, SITE_URL
from tests.header_rules import headers_for
from tests.server import WRANGLER_START_GUARD, fetch, free_port, raw_get, wait_for
from tests.tools import missing_tool

from .conftest import start_nginx
from .test_preview import spellings

HOSTS = settings.BASE_DIR / "tests" / "hosts"
MARKDOWN_PAGE = re.compile(MARKDOWN_PAGE_PATH)
UNICODE_TAG = "/tags/" + quote("ünï")  # a tag's address in another script, as browsers send it
PAGES = ["/", "/projects", "/projects/alpha-one", "/articles", "/articles/unicode-post", "/stack",
         "/developers", "/search", "/contact", "/contact/thanks", "/tags", "/tags/python", UNICODE_TAG,
         "/projects/page/2", "/tags/python/page/2", UNICODE_TAG + "/page/2"]  # fmt: skip
# The later pages of the lists, which the standard content is too small to have (LATER_PAGES).
LATER_PAGES = {"projects/page/2.html": "projects.html", "tags/python/page/2.html": "tags/python.html",
               "tags/ünï/page/2.html": "tags/ünï.html"}  # fmt: skip


@pytest.fixture
def hosted_site(built_site, tmp_path):
    """The built site, with later pages of a list and of tags (copies of their first pages): a
    larger site's kinds of file."""
    site = tmp_path / "hosted"
    shutil.copytree(built_site, site)
    for later, first in LATER_PAGES.items():
        (site / later).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(site / first, site / later)
    return site


def api_files(site):
    return sorted(str(p.relative_to(site)) for p in (site / "api").rglob("*.json")) + ["api/v1.json"]


def header_paths(site):
    """A URL of each kind of built file: pages, twins, both API forms, the text and linkset files,
    every static file."""
    static = ["/" + str(p.relative_to(site)) for p in sorted((site / "static").rglob("*")) if p.is_file()]
    return [*PAGES, "/projects/alpha-one.md", "/articles/unicode-post.md", "/api/v1", "/api/v1.json",
            "/api/v1/projects", "/api/v1/articles/unicode-post.json", "/openapi.json",
            "/.well-known/api-catalog", "/llms.txt", "/llms-full.txt", "/feed.xml", "/tags/python/feed.xml",
            UNICODE_TAG + "/feed.xml", "/sitemap-tags.xml", "/index.md", "/projects.md", "/tags/python.md",
            UNICODE_TAG + ".md", "/robots.txt", "/.well-known/agent-skills/index.json",
            "/.well-known/agent-skills/portfolio-test/SKILL.md", *static, "/pagefind/bundles.json",
            "/pagefind/site/pagefind.js", "/pagefind/site/wasm.en.pagefind"]  # fmt: skip


def check_headers(base, site):
    """Each header `_headers` gives a URL, exactly once (two matching rules setting one header
    would show as two values, or one joined by a comma); no Link header where it names none.
    The policy's img-src names site.yaml's imageHosts."""
    assert IMG_SRC in headers_for("/")["content-security-policy"][0]
    for path in [*header_paths(site), "/no/such/page"]:
        status, headers, body = fetch(base + path)
        assert status == (404 if path == "/no/such/page" else 200), path
        expected = headers_for(path)
        assert "content-security-policy" in expected, path  # every response, pages and errors
        for name, values in expected.items():
            assert headers.get_all(name) == values, (path, name, headers.get_all(name))
        if "link" not in expected:
            assert headers.get("Link") is None, path
    for name in ["projects/alpha-one.md", "llms-full.txt", ".well-known/api-catalog", "tags/ünï/feed.xml"]:
        assert fetch(f"{base}/{quote(name)}")[2] == (site / name).read_bytes(), name


def check_host(base, site, *, json_404):
    """Every API file in both path forms, every page, llms.txt and unknown paths."""
    for name in sorted(set(api_files(site))):
        for path in ("/" + name.removesuffix(".json"), "/" + name):
            status, headers, body = fetch(base + path)
            assert (status, headers.get_all("Content-Type")) == (200, ["application/json"]), path
            assert body == (site / name).read_bytes(), path
    for path in PAGES:
        status, headers, body = fetch(base + path)
        assert status == 200, (path, status, headers.get("Location"))
        assert headers["Content-Type"].startswith("text/html"), path
        assert body == served_page(site, path), path
    status, headers, body = fetch(base + "/llms.txt")
    assert (status, headers.get_all("Content-Type")) == (200, ["text/plain; charset=utf-8"])
    assert body == (site / "llms.txt").read_bytes()
    for name in ["favicon.ico", "site.webmanifest"]:  # at the root, where browsers look
        status, _, body = fetch(f"{base}/{name}")
        assert (status, body) == (200, (site / name).read_bytes()), name
    status, _, body = fetch(base + "/no/such/page")
    assert status == 404 and body == (site / "404.html").read_bytes()
    status, _, body = fetch(base + "/api/v1/articles/secret-draft")
    assert status == 404
    if json_404:
        assert json.loads(body) == json.loads((site / "api/v1/404.html").read_bytes())
    check_moved(base)
    check_headers(base, site)


def check_moved(base):
    """A renamed item's old addresses answer 301 to its new ones (the query kept); a draft's
    aliases move nothing."""
    for old, new in MOVED.items():
        status, headers, _ = fetch(base + old)
        assert (status, headers["Location"]) == (301, new), old
        assert fetch(base + new)[0] == 200, new
    status, headers, _ = fetch(base + "/projects/alpha_1?ref=old")
    assert (status, headers["Location"]) == (301, "/projects/alpha-one?ref=old")
    for old in NOT_MOVED:
        assert fetch(base + old)[0] == 404, old


def served_page(site, path):
    """The bytes of the built page at `path`."""
    name = unquote(path).strip("/") or "index"
    return (site / f"{name}.html").read_bytes()


def test_cloudflare_pages(hosted_site, background, imported):
    wrangler = HOSTS / "node_modules" / ".bin" / "wrangler"
    if not wrangler.exists():
        missing_tool("wrangler is not installed (make test runs npm ci in tests/hosts)")
    env = {**os.environ, "WRANGLER_SEND_METRICS": "false", "CLOUDFLARE_CF_FETCH_ENABLED": "false"}
    # The first start after `npm ci` has been seen to give up waiting for the Workers runtime (a
    # cold 120 MB binary); a second start works. Any other failure fails the test.
    for attempt in (1, 2):
        port = free_port()
        process = background(
            [wrangler, "pages", "dev", str(hosted_site), "--ip", "127.0.0.1", "--port", str(port),
             "--compatibility-date", "2026-04-01", "--inspector-port", str(free_port())],
            env=env, cwd=hosted_site.parent,
        )  # fmt: skip
        try:
            wait_for(f"http://127.0.0.1:{port}/", process, timeout=WRANGLER_START_GUARD)
            break
        except RuntimeError:
            if attempt == 2:
                raise
    check_host(f"http://127.0.0.1:{port}", hosted_site, json_404=True)


def test_netlify_parses_the_rules(hosted_site, imported):
    if not (HOSTS / "node_modules" / "@netlify" / "redirect-parser").exists():
        missing_tool("Netlify's parsers are not installed (make test runs npm ci in tests/hosts)")
    result = subprocess.run(
        ["node", "netlify_rules.mjs", str(hosted_site)], cwd=HOSTS, capture_output=True, text=True, check=True
    )
    parsed = json.loads(result.stdout)
    assert parsed["errors"] == []
    rules = [(r["from"], r["to"], r["status"], r["force"]) for r in parsed["redirects"]]
    # Netlify applies the first rule that matches: the moves before the rewrites, which would
    # otherwise send an old `.json` address to a missing file.
    moves = rules[: -len(REWRITES)]
    assert len({old for old, _, _, _ in moves}) == len(moves)  # wrangler ignores a repeated source
    assert {old: new for old, new, _, _ in moves}.items() >= MOVED.items()
    assert {(status, force) for _, _, status, force in moves} == {(301, False)}
    assert rules[len(moves) :] == [(source, destination, 200, False) for source, destination in REWRITES]
    # Nor forced: Netlify serves a file before such a rule, and no old address is a file.
    files = {str(path.relative_to(hosted_site)) for path in hosted_site.rglob("*") if path.is_file()}
    assert [old for old, _, _, _ in moves if served_file(old, files)] == []
    headers = {rule["for"]: rule["values"] for rule in parsed["headers"]}
    assert headers["/api/v1/:collection/:slug"]["Content-Type"] == "application/json"
    assert headers["/llms.txt"]["Content-Type"] == "text/plain; charset=utf-8"
    # Every built file's address gets, as Netlify matches `_headers` (against the rewrite target,
    # with its own expressions), the headers Cloudflare gives it, each from one rule only, but
    # where Netlify neither fills placeholders nor removes headers (`! Name`): a page's Link to
    # its markdown form and the markdown files' headers (docs/hosting.md).
    rules = [(re.compile(rule["regexp"], re.I), rule["values"]) for rule in parsed["headers"]]
    for path in url_paths(hosted_site):
        found = {}
        for regexp, values in rules:
            if regexp.match(rewrite(path)):
                for name, value in values.items():
                    found.setdefault(name.lower(), []).append(value)
        assert found == headers_for(path, netlify=True), path
        if not re.search(r"/(projects|articles|tags)/|\.md$", path):
            assert found == headers_for(path), path


def url_paths(site):
    """The address of every built file (pages without .html, API files in both forms)."""
    for file in sorted(site.rglob("*")):
        name = str(file.relative_to(site))
        if not file.is_file() or name in ("_headers", "_redirects", NGINX_REDIRECTS):
            continue
        if name.endswith(".html"):
            yield "/" + name.removesuffix(".html").removesuffix("index")
        else:
            yield "/" + name
        if name.startswith("api/") and name.endswith(".json"):
            yield "/" + name.removesuffix(".json")


def test_header_rules_cover_every_page_and_never_set_a_header_twice(hosted_site, imported):
    for path in url_paths(hosted_site):
        headers = headers_for(path)
        assert all(len(values) == 1 for values in headers.values()), (path, headers)
        assert "content-security-policy" in headers and "x-content-type-options" in headers, path
        page = (hosted_site / (path.strip("/") or "index")).with_suffix(".html")
        if page.is_file() and "." not in path.rsplit("/", 1)[1] and path not in ("/404", "/api/v1/404"):
            # A page built by a new route needs its pattern in hosts.PAGES (or MARKDOWN_PAGES, with
            # the address of its markdown form, when it has one).
            catalog = '</.well-known/api-catalog>; rel="api-catalog"'
            if MARKDOWN_PAGE.match(path):
                form = "/index.md" if path == "/" else path + ".md"
                assert headers["link"] == [f'<{form}>; rel="alternate"; type="text/markdown", {catalog}'], (
                    path
                )
            else:
                assert headers["link"] == [catalog], path
            assert headers["cache-control"] == ["public, max-age=0, must-revalidate"], path
        if path.endswith(".md"):  # the twins, the markdown forms, the skill
            assert headers["content-type"] == ["text/markdown; charset=utf-8"], path
            assert headers["link"] == ['</.well-known/api-catalog>; rel="api-catalog"'], path
        if path.startswith("/static/"):
            assert headers["cache-control"] == ["public, max-age=31536000, immutable"], path
            assert re.search(r"\.[0-9a-f]{12}\.\w+$", path), path  # immutable only under a hashed name


def test_nginx_with_the_documented_config(hosted_site, background, tmp_path, imported):
    base = start_nginx(hosted_site, background, tmp_path)
    check_host(base, hosted_site, json_404=True)
    _, headers, _ = fetch(f"{base}/site.webmanifest")
    assert headers["Content-Type"] == "application/manifest+json"
    assert IMG_SRC in headers["Content-Security-Policy"]  # site.yaml's imageHosts, from the include
    for name in ["_redirects", "_headers", NGINX_REDIRECTS]:  # the hosts' rules are not pages
        # However the path is spelled (nginx decodes, then resolves); no linked folder: a build
        # makes none (the preview's own test adds one, as a writer's folder may hold one).
        for path in [path for path in spellings(name) if "root-link" not in path]:
            status, _, body = raw_get(base, path.encode())
            # 400: nginx refuses a path that climbs above the root (`/x%2f..%2f..`) outright.
            assert status in (400, 404) and body != (hosted_site / name).read_bytes(), path
        assert raw_get(base, f"/{name}".encode())[::2] == (404, (hosted_site / "404.html").read_bytes())


def test_the_docs_link_the_tested_nginx_config():
    """docs/hosting.md points at deploy/nginx.conf, the file these tests run, rather than a copy
    of it that could drift."""
    assert (settings.BASE_DIR / "deploy" / "nginx.conf").is_file()
    assert "(../deploy/nginx.conf)" in (settings.BASE_DIR / "docs" / "hosting.md").read_text()


def test_a_plain_static_server_serves_the_json_paths(built_site, background):
    port = free_port()
    process = background(
        [
            sys.executable,
            "-m",
            "http.server",
            "--bind",
            "127.0.0.1",
            "--directory",
            str(built_site),
            str(port),
        ]
    )
    wait_for(f"http://127.0.0.1:{port}/", process)
    for name in api_files(built_site):
        status, headers, body = fetch(f"http://127.0.0.1:{port}/{name}")
        assert (status, headers["Content-Type"]) == (200, "application/json"), name
        assert body == (built_site / name).read_bytes()


def test_csp_lets_the_form_reach_a_contact_service_on_another_origin(imported, settings):
    settings.CONTACT_SERVICE_URL = "https://contact.example.net"
    csp = content_security_policy()
    assert "form-action 'self' https://contact.example.net;" in csp
    assert "connect-src 'self' https://contact.example.net;" in csp  # contact.js posts with fetch
    # Scripts: the site's files, which may compile WebAssembly (the search); no inline script, no eval.
    assert "script-src 'self' 'wasm-unsafe-eval';" in csp and "frame-ancestors 'none'" in csp
    assert "unsafe-inline" not in csp and "'unsafe-eval'" not in csp
    settings.CONTACT_SERVICE_URL = SITE_URL + "/service"  # the site's own origin: 'self' says it
    assert "form-action 'self';" in content_security_policy()
    settings.CONTACT_SERVICE_URL = ""
    assert f"Content-Security-Policy: {content_security_policy()}" in headers_file()
