"""What lines up, measured in headless Chromium at 320, 360, 768 and 1280 px, light and dark:
the header's margins, the cards' status badges, the lists' text column, and nothing in <main>
wider than its column (what scrolls sideways, code and tables, scrolls inside its own box)."""

import os
from pathlib import Path

import pytest

from .test_browser import prefer, viewport
from .test_look import driver, site  # noqa: F401  (the look's content: pictures, a wide diagram, a long stack)

pytestmark = pytest.mark.browser

WIDTHS = [320, 360, 768, 1280]
PAGES = ["/", "/projects", "/articles", "/articles/unicode-post", "/projects/alpha-one", "/stack", "/search"]

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
return {left, right, navCut: nav.scrollWidth - nav.clientWidth,
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
