"""A Persian (right to left) and a Japanese page in Chromium at 360 and 1280 px, from a real build
served by nginx with deploy/nginx.conf: the Persian layout mirrors, neither scrolls sideways, and
the header's switcher leads to the other versions. Screenshots are kept in the test's folder."""

from pathlib import Path

import manimgx_fonts_cjk
import pytest

from tests.browser import console_errors
from tests.export.conftest import start_nginx
from tests.pages.test_browser import viewport

from .content import add_languages

pytestmark = pytest.mark.browser

PAGES = ["/fa/articles/first-post", "/ja/articles/first-post", "/fa/projects/alpha-one", "/fa/"]


@pytest.fixture
def served(site, content_dir, tmp_path, background):
    add_languages(content_dir)
    site()
    return start_nginx(tmp_path / "site", background, tmp_path)


@pytest.fixture
def cjk_font(tmp_path, monkeypatch):
    """This machine's fonts have no CJK face (a Japanese reader's would): Chromium is given the
    Noto Sans CJK of requirements.txt (the social cards' font) through fontconfig, its flags as
    tests/browser.py sets them."""
    folder = Path(manimgx_fonts_cjk.__file__).parent
    config = tmp_path / "fonts.conf"
    config.write_text(
        '<?xml version="1.0"?><!DOCTYPE fontconfig SYSTEM "fonts.dtd"><fontconfig>'
        '<include ignore_missing="yes">/etc/fonts/fonts.conf</include>'
        f"<dir>{folder}</dir><cachedir>{tmp_path / 'fontconfig'}</cachedir></fontconfig>"
    )
    monkeypatch.setenv("FONTCONFIG_FILE", str(config))


@pytest.mark.parametrize("width", [360, 1280])
def test_persian_mirrors_and_japanese_reads_at_both_widths(served, cjk_font, chromium, tmp_path, width):
    driver = chromium()
    driver.set_window_size(width, 900)
    for path in PAGES:
        driver.get(served + path)
        name = path.strip("/").replace("/", "-")
        driver.save_screenshot(str(tmp_path / f"{name}-{width}.png"))
        state = driver.execute_script(
            """const main = document.querySelector('main .wrap, main > *');
            const h1 = document.querySelector('h1').getBoundingClientRect();
            const box = main.getBoundingClientRect();
            return {direction: getComputedStyle(document.documentElement).direction,
                    lang: document.documentElement.lang,
                    overflow: document.scrollingElement.scrollWidth - window.innerWidth,
                    h1Start: getComputedStyle(document.querySelector('h1')).direction === 'rtl'
                        ? box.right - h1.right : h1.left - box.left};"""
        )
        assert state["lang"] == path.split("/")[1]
        assert state["direction"] == ("rtl" if path.startswith("/fa/") else "ltr"), path
        assert state["overflow"] <= 0, (path, width, state)
        assert state["h1Start"] < 40, (path, width, state)  # the title starts where its language reads from
        assert not console_errors(driver), path
        # The site's name stays in the header beside the switcher's row.
        assert driver.execute_script("return document.querySelector('.site-name span').offsetWidth") > 50
    links = driver.execute_script(
        "return [...document.querySelectorAll('.language-switcher a')].map(a => a.getAttribute('href'))"
    )
    assert links == ["/", "/fr/", "/fa/", "/ja/"]


def test_the_arrows_point_the_way_each_language_reads(served, chromium):
    """An arrow is not mirrored with its text: on a right-to-left page the link back to the list
    points right and the "all articles" link left (site.css's --back and --on)."""
    driver = chromium()
    arrows = {}
    for path, selector, side in [
        ("/fa/articles/first-post", ".breadcrumb a", "::before"),
        ("/ja/articles/first-post", ".breadcrumb a", "::before"),
        ("/fa/", ".section-head a", "::after"),
        ("/fr/", ".section-head a", "::after"),
    ]:
        driver.get(served + path)
        arrows[path] = driver.execute_script(
            "return getComputedStyle(document.querySelector(arguments[0]), arguments[1]).content",
            selector,
            side,
        )
    assert arrows == {
        "/fa/articles/first-post": '"→ "',
        "/ja/articles/first-post": '"← "',
        "/fa/": '" ←"',
        "/fr/": '" →"',
    }


def test_every_header_link_is_in_sight_in_a_language_of_longer_words(served, chromium):
    """French's "Développeurs" makes the header's links wider than a 360 px phone: the last ones
    go to a second row, none clipped by the nav's edge."""
    driver = chromium()
    viewport(driver, 360)
    driver.get(served + "/fr/tags")
    outside = driver.execute_script(
        """const nav = document.querySelector('.site-header nav').getBoundingClientRect();
        return [...document.querySelectorAll('.site-header nav a')]
            .filter((a) => { const box = a.getBoundingClientRect();
                             return box.right > nav.right + 1 || box.left < nav.left - 1; })
            .map(a => a.textContent);"""
    )
    assert outside == []
