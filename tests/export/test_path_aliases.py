"""Absolute-path aliases against a real build: no alias can take an address the build writes, and
nginx's include holds each old path as nginx compares it (decoded). Their 301s on every host are
checked with the other old addresses (tests/content_builder.py's MOVED, in test_hosts.py and
test_preview.py)."""

import io
import sys
import time
from urllib.parse import unquote

import pytest

from portfolio.content.aliases import shadowed
from portfolio.export.build import build
from portfolio.export.hosts import NGINX_REDIRECTS, redirect_page, served_file
from portfolio.export.state import BuildFailed
from portfolio.export.verify import Verifier
from tests.content_builder import MOVED, SITE_URL
from tests.server import fetch, free_port, wait_for

from .conftest import start_nginx, tree


def test_every_top_level_name_of_a_build_is_shadowed(built_site):
    names = sorted(entry.name for entry in built_site.iterdir())
    assert "pagefind" in names and "_redirects" in names and NGINX_REDIRECTS in names
    for entry in built_site.iterdir():
        paths = ["/" + entry.name, "/" + entry.name + "/old"] if entry.is_dir() else ["/" + entry.name]
        for path in paths:
            assert shadowed(path), path
    assert shadowed("/posts/old-title/") is None


def test_nginx_compares_decoded_paths(built_site):
    include = (built_site / NGINX_REDIRECTS).read_text()
    quoted = 'location = "/2014/05/12/café;old.html" { return 301 /articles/unicode-post$is_args$args; }'
    assert quoted in include
    assert "location = /work/alpha-project/ { return 301 /projects/alpha-one$is_args$args; }" in include
    assert "/drafts/secret" not in include  # a draft's aliases move nothing


# The pages a REDIRECT_PAGES build writes for the standard content's published aliases: each old
# page address (a slug alias's and its .html form are one file), each path's static spellings.
REDIRECT_PAGES = {
    "projects/alpha.html": "/projects/alpha-one",
    "projects/alpha_1.html": "/projects/alpha-one",
    "articles/old-unicode.html": "/articles/unicode-post",
    "work/alpha-project/index.html": "/projects/alpha-one",
    "work/alpha-project.html": "/projects/alpha-one",
    "2014/05/12/café;old.html": "/articles/unicode-post",
}


@pytest.fixture
def site(db, content_dir, settings, tmp_path):
    """build() into tmp_path/site in this process, with REDIRECT_PAGES on; the folder's files."""
    settings.SITE_URL = ""
    settings.CONTENT_DIR = content_dir
    settings.REDIRECT_PAGES = True

    def run():
        build(tmp_path / "site", workers=1, stderr=io.StringIO())
        return tree(tmp_path / "site")

    return run


def test_without_the_setting_no_old_address_is_a_file(built_site):
    assert [name for name in REDIRECT_PAGES if (built_site / name).exists()] == []


def test_each_old_page_address_is_a_page_that_sends_the_reader_on(site, settings, content_dir, tmp_path):
    files = site()
    pages = {name: data.decode() for name, data in files.items() if name in REDIRECT_PAGES}
    assert sorted(pages) == sorted(REDIRECT_PAGES)
    for name, new in REDIRECT_PAGES.items():
        url = SITE_URL + new
        page = pages[name]
        assert f'<meta http-equiv="refresh" content="0; url={url}">' in page, name
        assert f'<link rel="canonical" href="{url}">' in page and f'<a href="{url}">{url}</a>' in page, name
        assert '<meta name="robots" content="noindex">' in page, name
        assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in page, name
    assert not any(name.startswith("drafts/") or "secret-draft-v1" in name for name in files)
    # Old addresses of markdown twins and API documents have no page.
    assert "projects/alpha.md" not in files and "api/v1/projects/alpha.json" not in files
    # A plain static server (as GitHub Pages) serves each old address from them.
    served = {name for name in files if name.endswith(".html")}
    for old, new in MOVED.items():
        if not old.endswith((".md", ".json")) and not old.startswith("/api/"):
            name = served_file(unquote(old), served)
            assert name in REDIRECT_PAGES and REDIRECT_PAGES[name] == new, old
    # The host's file limit counts them.
    settings.HOST_MAX_FILES = len(files) - 1
    with pytest.raises(BuildFailed) as failed:
        site()
    assert failed.value.problems[0].startswith(f"{len(files):,} files; the host takes {len(files) - 1:,}")
    settings.HOST_MAX_FILES = len(files)
    # An edit that drops an alias removes its pages (and the folder they leave empty).
    alpha = content_dir / "projects" / "alpha-one.md"
    alpha.write_text(alpha.read_text().replace(', "/work/alpha-project/"', ""))
    edited = site()
    assert edited.keys() == files.keys() - {"work/alpha-project/index.html", "work/alpha-project.html"}
    assert not (tmp_path / "site" / "work").exists()
    build(tmp_path / "full", workers=1, stderr=io.StringIO(), full=True)
    assert tree(tmp_path / "full") == edited  # the edit's folder is the one a full build makes
    # Off again: the next build removes them.
    settings.REDIRECT_PAGES = False
    assert not set(site()) & set(REDIRECT_PAGES)


def test_verification_checks_the_redirect_pages():
    files = {"articles/new.html", "articles/old.html", "posts/gone.html"}
    openapi = {"paths": {}}
    pages = {"articles/old.html": redirect_page(SITE_URL + "/articles/new"),
             "posts/gone.html": redirect_page(SITE_URL + "/articles/missing")}  # fmt: skip
    verifier = Verifier(SITE_URL, files, openapi, [], redirect_pages=pages)
    assert verifier.check_redirect_pages(lambda path: pages[path].encode()) == [
        f"posts/gone.html: links to {SITE_URL}/articles/missing, which no built file serves"
    ]


@pytest.mark.browser
def test_a_browser_follows_a_redirect_page(site, settings, background, chromium, tmp_path):
    """As on GitHub Pages (a plain static server, no rules, no headers): the old address's page
    sends Chromium on, without JavaScript, to the item's page. (This server, unlike GitHub Pages,
    does not serve `/projects/alpha` from projects/alpha.html: the file's own name is asked.)"""
    port = free_port()
    settings.SITE_URL = f"http://127.0.0.1:{port}"
    site()
    process = background([sys.executable, "-m", "http.server", "--bind", "127.0.0.1", "--directory",
                          str(tmp_path / "site"), str(port)])  # fmt: skip
    wait_for(f"http://127.0.0.1:{port}/", process)
    driver = chromium(javascript=False)
    for old, new in [("/work/alpha-project/", "/projects/alpha-one"),
                     ("/projects/alpha.html", "/projects/alpha-one"),
                     ("/2014/05/12/caf%C3%A9;old.html", "/articles/unicode-post")]:  # fmt: skip
        driver.get(f"http://127.0.0.1:{port}{old}")
        deadline = time.monotonic() + 10
        while not driver.current_url.endswith(new) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert driver.current_url == f"http://127.0.0.1:{port}{new}", old


# site.yaml's redirects (the old site's own addresses) as a build writes them for each host: an old
# page's every spelling, a feed's address alone, percent-encoding decoded for nginx.
SITE_REDIRECTS = 'redirects:\n  /blog/: /\n  /blog/index.xml: /feed.xml\n  "/caf%c3%a9/": /articles\n'
SITE_MOVED = {
    "/blog/": "/",
    "/blog": "/",
    "/blog.html": "/",
    "/blog/index.xml": "/feed.xml",
    "/caf%C3%A9/": "/articles",
    "/caf%C3%A9": "/articles",
    "/caf%C3%A9.html": "/articles",
}


def test_site_yaml_s_redirects_on_the_hosts(db, content_dir, settings, tmp_path, background):
    settings.SITE_URL = ""
    settings.CONTENT_DIR = content_dir
    (content_dir / "site.yaml").write_text((content_dir / "site.yaml").read_text() + SITE_REDIRECTS)
    build(tmp_path / "site", workers=1, stderr=io.StringIO())
    redirects = (tmp_path / "site" / "_redirects").read_text().splitlines()
    for old, new in SITE_MOVED.items():
        assert f"{old} {new} 301" in redirects, old
    assert not [line for line in redirects if line.startswith(("/blog/index.xml/", "/blog/index.xml.html"))]
    include = (tmp_path / "site" / NGINX_REDIRECTS).read_text()
    assert "location = /blog/index.xml { return 301 /feed.xml$is_args$args; }" in include
    assert 'location = "/café/" { return 301 /articles$is_args$args; }' in include
    base = start_nginx(tmp_path / "site", background, tmp_path)
    for old, new in SITE_MOVED.items():
        status, headers, _ = fetch(base + old)
        assert (status, headers["Location"].removeprefix(base)) == (301, new), old
        assert fetch(base + new)[0] == 200, new
    status, headers, _ = fetch(base + "/blog/index.xml?from=reader")
    assert (status, headers["Location"].removeprefix(base)) == (301, "/feed.xml?from=reader")


def test_site_yaml_s_redirects_as_pages_leave_a_feed_out(site, content_dir):
    """For GitHub Pages, the old home is a page that sends the reader on; the old feed is none (a
    feed reader follows no page, and the host would not serve blog/index.xml.html at its address)."""
    (content_dir / "site.yaml").write_text((content_dir / "site.yaml").read_text() + SITE_REDIRECTS)
    files = site()
    assert {"blog/index.html", "blog.html"} <= set(files)
    assert '<meta http-equiv="refresh" content="0; url=' in files["blog/index.html"].decode()
    assert not [name for name in files if name.startswith("blog/index.xml")]
