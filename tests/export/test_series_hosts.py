"""A series' page, markdown form and feed on the real hosts (issue 54): nginx with
deploy/nginx.conf and the build's include, the preview, Cloudflare Pages (`wrangler pages dev`) and
the Workers deploy (`wrangler dev`, deploy/worker.js). Each answers them with 200 and their type,
and negotiates markdown for a series' page exactly where it does for a tag's list."""

import sys

import pytest

from tests.content_builder import SERIES, SERIES_SLUG, SITE_URL, write_content
from tests.server import fetch, server_process

from .conftest import distill_local, on_pages, on_workers, start_nginx

MARKDOWN = "text/markdown; charset=utf-8"
SERIES_PAGE, TAG_PAGE = f"/series/{SERIES_SLUG}", "/tags/python"


@pytest.fixture(scope="module")
def series_site(tmp_path_factory):
    """The standard site plus a series of two parts, built by the real command."""
    root = tmp_path_factory.mktemp("series")
    content = write_content(write_content(root / "content"), SERIES)
    result = distill_local(content, root / "site", root / "db.sqlite3", "--workers", "2")
    assert result.returncode == 0, result.stderr
    return root / "site"


def check_series(base, site, *, negotiates):
    """The series' three addresses as built, with their types; Accept: text/markdown answered
    for the series' page as for a tag's (its markdown form where the host negotiates, else its
    page), and the page's Link naming its markdown form as a tag's does."""
    for path, file, content_type in [
        (SERIES_PAGE, f"series/{SERIES_SLUG}.html", "text/html"),
        (f"{SERIES_PAGE}.md", f"series/{SERIES_SLUG}.md", MARKDOWN),
        (f"{SERIES_PAGE}/feed.xml", f"series/{SERIES_SLUG}/feed.xml", "application/atom+xml"),
    ]:
        status, headers, body = fetch(base + path)
        assert status == 200, (path, status)
        assert headers["Content-Type"].startswith(content_type), (path, headers["Content-Type"])
        assert body == (site / file).read_bytes(), path
        assert headers["Content-Security-Policy"], path
    answers = {}
    for path in (TAG_PAGE, SERIES_PAGE):
        page = fetch(base + path, headers={"Accept": "text/html"})
        markdown = fetch(base + path, headers={"Accept": "text/markdown"})
        name = path.strip("/")
        assert page[0] == markdown[0] == 200, path
        assert page[2] == (site / f"{name}.html").read_bytes(), path
        assert markdown[2] == (site / f"{name}.{'md' if negotiates else 'html'}").read_bytes(), path
        if negotiates:
            assert markdown[1]["Content-Type"] == MARKDOWN, path
            assert "Accept" in (markdown[1].get("Vary") or ""), path
        link = page[1]["Link"].replace(path, "<path>")
        answers[path] = (markdown[1]["Content-Type"], markdown[1].get("Vary"), link)
    assert answers[SERIES_PAGE] == answers[TAG_PAGE]
    assert answers[SERIES_PAGE][2].startswith('<<path>.md>; rel="alternate"; type="text/markdown"')
    # An unknown series is the site's 404, however asked.
    for path in ("/series/no-such-series", "/series/no-such-series.md", "/series/no-such-series/feed.xml"):
        assert fetch(base + path, headers={"Accept": "text/markdown"})[0] == 404, path


def test_nginx(series_site, module_background, tmp_path):
    check_series(start_nginx(series_site, module_background, tmp_path), series_site, negotiates=True)


def test_the_preview(series_site, tmp_path):
    env = {"DATABASE_URL": f"sqlite:///{tmp_path / 'preview.sqlite3'}", "DEBUG": "", "SITE_URL": SITE_URL}
    args = [sys.executable, "manage.py", "preview", str(series_site), "--port", "{port}"]
    with server_process(args, env) as base:
        check_series(base, series_site, negotiates=True)


def test_cloudflare_pages(series_site, tmp_path):
    """Pages serves the files and `_headers`, without markdown by negotiation (docs/hosting.md)."""
    on_pages(series_site, tmp_path, lambda base: check_series(base, series_site, negotiates=False))


def test_cloudflare_workers(series_site, tmp_path):
    """The Workers deploy (deploy/wrangler.json, deploy/worker.js) negotiates, as for the tags."""
    on_workers(series_site, tmp_path, lambda base: check_series(base, series_site, negotiates=True))
