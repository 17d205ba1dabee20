"""What lines up, measured in headless Chromium at 320, 360, 768 and 1280 px, light and dark, on
every page type: the header's margins, the cards' status badges, the lists' text column, an
article's tables, images and code blocks on one right edge, and nothing in <main> wider than its
column (what scrolls sideways, code, scrolls inside its own box)."""

import os
from pathlib import Path

import pytest

from tests.content_builder import article

from .test_browser import prefer, viewport
from .test_look import LOOK_FILES, driver  # noqa: F401  (the look's content: pictures, a wide diagram, a long stack)

pytestmark = pytest.mark.browser

WIDTHS = [320, 360, 768, 1280]
# A diagram drawn as SVG: too small to read as a list's thumbnail, so none there.
DIAGRAM = (
    '<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="300" viewBox="0 0 1200 300">'
    '<rect width="1200" height="300" fill="#ffffff"/><text x="20" y="150" font-size="24">a</text></svg>'
)
EDGES_BODY = (
    "Text.\n\n| tool | role | since |\n|---|---|---|\n| sqlite | store | 2020 |\n\n"
    "![A cover](../media/cover.png)\n\n"
    "```python\nprint('a line of code long enough to scroll sideways on a phone', 1 + 2 + 3 + 4 + 5)\n```\n"
)
FILES = {
    **LOOK_FILES,
    "media/diagram.svg": DIAGRAM,
    "articles/edges.md": article(
        "A table, a picture and code on one right edge, with a title long enough to fill the column",
        date="2026-02-02",
        extra='image: diagram.svg\nimageAlt: "A pipeline diagram"\n',
        body=EDGES_BODY,
    ),
}
PAGES = [
    "/",
    "/projects",
    "/articles",
    "/articles/unicode-post",
    "/articles/edges",
    "/projects/alpha-one",
    "/stack",
    "/search",
    "/developers",
    "/tags",
    "TAG",
    "/contact",
    "/no-such-page",
]

MEASURE = """
const width = document.documentElement.clientWidth;
const box = (node) => node.getBoundingClientRect();
// The header: the name's left margin and the last control's right margin.
const header = document.querySelector('.site-header .wrap');
const shown = (node) => box(node).width && getComputedStyle(node).visibility !== 'hidden';
const controls = [...header.children].filter(shown);
const firstLine = controls.filter((node) => Math.abs(box(node).top - box(controls[0]).top) < 20);
const left = box(header.querySelector('.site-name')).left;
const right = width - Math.max(...firstLine.map((node) => box(node).right));
// Elements of <main> past the right edge of their column (the .wrap they are in), but those
// inside a box that scrolls sideways on purpose.
const wider = [];
for (const node of document.querySelectorAll('main *')) {
  const column = node.parentElement.closest('.wrap');
  if (!column || node.closest('pre, .table-scroll, .highlight, .visually-hidden, .skip-link')) continue;
  const style = getComputedStyle(column);
  const edge = box(column).right - parseFloat(style.paddingRight);
  const r = box(node);
  if (r.width && r.right > edge + 1) wider.push(`${node.tagName}.${node.className}: ${r.right} > ${edge}`);
}
// Each row of cards: the tops of their status lines.
const rows = {};
for (const card of document.querySelectorAll('.cards > .card')) {
  const meta = card.querySelector('article > .meta');
  if (meta) (rows[Math.round(box(card).top)] ||= []).push(Math.round(box(meta).top));
}
// The lists' text column: the width of each entry's heading.
const columns = [...document.querySelectorAll('.entries article > :is(h2, h3)')]
  .map((h) => Math.round(box(h).width));
const nav = header.querySelector('nav');
// An article's tables, images and code blocks: their right edges.
// (a table's by its last cell: a table's box can be wider than the table drawn in it).
const edges = [...document.querySelectorAll('.prose :is(tr:first-child > :last-child, img, pre, .highlight)')]
  .filter(shown).map((node) => Math.round(box(node).right));
// A list's thumbnail: none narrower than 8rem, so what it draws stays readable.
const thumbs = [...document.querySelectorAll('.entries article img')].filter(shown)
  .map((img) => Math.round(box(img).width));
return {left, right, edges, thumbs, navCut: nav.scrollWidth - nav.clientWidth,
        overflow: document.documentElement.scrollWidth - width, wider: wider.slice(0, 5),
        rows: Object.values(rows), columns};
"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("width", WIDTHS)
def test_everything_lines_up(site, driver, width, scheme, tmp_path):  # noqa: F811
    if width < 768:  # a phone: its scrollbars overlay the page, they take no width
        metrics = {"width": width, "height": 800, "deviceScaleFactor": 1, "mobile": True}
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", metrics)
    else:
        viewport(driver, width)
    prefer(driver, scheme)
    shots = Path(os.environ.get("SCREENSHOTS_DIR") or tmp_path)  # to look at what is not measured
    shots.mkdir(parents=True, exist_ok=True)
    for path in PAGES:
        if path == "TAG":  # a tag's page: the first on /tags
            driver.get(site + "/tags")
            path = driver.find_element("css selector", ".tag-index a").get_attribute("pathname")
        driver.get(site + path)
        found = driver.execute_script(MEASURE)
        shot = f"{path.strip('/').replace('/', '-') or 'home'}-{width}-{scheme}.png"
        driver.save_screenshot(str(shots / shot))
        where = f"{path} at {width} px, {scheme}"
        assert abs(found["left"] - found["right"]) <= 1, (
            f"{where}: header margins {found['left']} / {found['right']}"
        )
        assert found["navCut"] <= 0, f"{where}: the header's links are cut by {found['navCut']} px"
        assert found["overflow"] <= 0, f"{where}: the page scrolls sideways by {found['overflow']} px"
        assert found["wider"] == [], f"{where}: wider than the column"
        for row in found["rows"]:
            assert len(set(row)) == 1, f"{where}: the badges of one row of cards at {row}"
        assert len(set(found["columns"])) <= 1, f"{where}: the lists' text columns {found['columns']}"
        assert max(found["edges"], default=0) - min(found["edges"], default=0) <= 1, (
            f"{where}: tables, images and code end at {found['edges']}"
        )
        assert all(w >= 128 for w in found["thumbs"]), f"{where}: thumbnails {found['thumbs']} px wide"
    if width >= 768:  # the SVG diagram: no thumbnail in the list (a phone shows it full width)
        driver.get(site + "/articles")
        assert (
            driver.execute_script(
                "return [...document.querySelectorAll('.entries img[src$=\".svg\"]')]"
                ".filter((img) => img.getBoundingClientRect().width).length"
            )
            == 0
        )


@pytest.fixture
def site(served):
    return served(FILES)
