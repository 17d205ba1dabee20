"""A moved blog builds with no edit, and every old address answers 301 with the article's page:
in the build's `_redirects` (Cloudflare, Netlify), on the preview and on nginx with
deploy/nginx.conf; for GitHub Pages (REDIRECT_PAGES=1) each is a page that sends the reader on."""

import re
import sys

import pytest

from portfolio.content.aliases import spellings
from tests.export.conftest import distill_local, start_nginx
from tests.server import fetch, server_process

from .helpers import SITES, move

SITE_URL = "https://moved.example.org"


def old_addresses(dest):
    """{old address: new page} of every alias the move wrote, each spelling of a path."""
    found = {}
    for article in sorted((dest / "articles").glob("*.md")):
        text = article.read_text()
        if "draft: true" in text:
            continue
        for alias in re.findall(r'^  - "(.+)"$', text, re.M):
            slug, _, language = article.stem.partition(".")  # a translation: under its language
            page = f"/{language}/articles/{slug}" if language else f"/articles/{slug}"
            found.update({spelling: page for spelling in spellings(alias)} if alias.startswith("/") else
                         {f"/articles/{alias}": page})  # fmt: skip
    return found


@pytest.fixture(scope="module", params=["astro", "hugo", "jekyll"])
def moved(request, tmp_path_factory):
    """(the built site, {old address: new page}) of one generator's sample site."""
    root = tmp_path_factory.mktemp(request.param)
    move(request.param, SITES / request.param, root / "content")
    result = distill_local(root / "content", root / "site", root / "db.sqlite3", env={"SITE_URL": SITE_URL})
    assert result.returncode == 0, result.stderr
    return root / "site", old_addresses(root / "content")


def test_every_old_address_is_a_rule_of_the_hosts(moved):
    site, addresses = moved
    assert len(addresses) >= 4
    rules = (site / "_redirects").read_text().splitlines()
    for old, new in addresses.items():
        assert f"{old} {new} 301" in rules, old


def test_every_old_address_moves_on_the_preview(moved, tmp_path):
    site, addresses = moved
    env = {"DATABASE_URL": f"sqlite:///{tmp_path / 'preview.sqlite3'}", "DEBUG": "", "SITE_URL": SITE_URL}
    with server_process([sys.executable, "manage.py", "preview", str(site), "--port", "{port}"], env) as base:
        for old, new in addresses.items():
            status, headers, _ = fetch(base + old + "?from=old")
            assert (status, headers["Location"]) == (301, new + "?from=old"), old
            assert fetch(base + new)[0] == 200


def test_every_old_address_moves_on_nginx(moved, background, tmp_path):
    site, addresses = moved
    base = start_nginx(site, background, tmp_path)
    for old, new in addresses.items():
        status, headers, _ = fetch(base + old)
        assert (status, headers["Location"]) == (301, new), old


def test_for_github_pages_each_old_address_is_a_page(tmp_path):
    move("jekyll", SITES / "jekyll", tmp_path / "content")
    env = {"SITE_URL": SITE_URL, "REDIRECT_PAGES": "1"}
    result = distill_local(tmp_path / "content", tmp_path / "site", tmp_path / "db.sqlite3", env=env)
    assert result.returncode == 0, result.stderr
    page = (tmp_path / "site/jekyll/update/2014/05/12/welcome-to-jekyll.html").read_text()
    url = f"{SITE_URL}/articles/welcome-to-jekyll"
    assert f'<meta http-equiv="refresh" content="0; url={url}">' in page
    assert (tmp_path / "site/relay-board/index.html").read_text().count(
        f"{SITE_URL}/articles/relay-board"
    ) >= 2
