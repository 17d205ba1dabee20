"""Formulas in Chromium as deployed: the built site served by nginx with the hosts' headers, so
under the Content-Security-Policy. MathML is drawn by the browser itself (no script, no webfont):
a fraction's numerator sits above its denominator, and a display formula stands on its own line.
Screenshots of the article at 360, 768 and 1280 px, light and dark, under this test's folder."""

import pytest

from tests.browser import console_errors
from tests.pages.test_browser import prefer, viewport

from .conftest import start_nginx
from .test_csp_browser import RECORD_VIOLATIONS

# (numerator's bottom, denominator's top) of the display formula's fraction, the formula's height
# and display, an inline formula's display (MathML Core's own `math`), and the inline scripts.
LAYOUT = """
const block = document.querySelector('.prose math[display="block"]');
const [numerator, denominator] = block.querySelector("mfrac").children;
const inline = document.querySelector('.prose math[display="inline"]');
return {
  fraction: [numerator.getBoundingClientRect().bottom, denominator.getBoundingClientRect().top],
  blockHeight: block.getBoundingClientRect().height,
  blockDisplay: getComputedStyle(block).display,
  inlineDisplay: getComputedStyle(inline).display,
  scripts: document.querySelectorAll('script:not([src], [type="application/ld+json"])').length,
};
"""


@pytest.mark.browser
def test_formulas_render_as_mathml_under_the_csp(built_site, background, tmp_path, chromium):
    base = start_nginx(built_site, background, tmp_path)
    driver = chromium()
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": RECORD_VIOLATIONS})
    for scheme in ["light", "dark"]:
        prefer(driver, scheme)
        for width in [360, 768, 1280]:
            viewport(driver, width)
            driver.get(base + "/articles/unicode-post")
            layout = driver.execute_script(LAYOUT)
            numerator_bottom, denominator_top = layout["fraction"]
            assert numerator_bottom <= denominator_top + 1, layout  # stacked, not in a row
            assert layout["blockHeight"] > 30 and layout["blockDisplay"] == "block", layout
            assert layout["inlineDisplay"] == "math" and layout["scripts"] == 0, layout
            assert driver.execute_script("return window.cspViolations") == []
            assert console_errors(driver) == []
            overflow = driver.execute_script("return document.documentElement.scrollWidth - innerWidth")
            assert overflow <= 0, f"scrolls sideways at {width}px"
            driver.execute_script("document.querySelector('.prose math').scrollIntoView({block: 'center'})")
            screenshot = tmp_path / f"math-{width}-{scheme}.png"
            driver.save_screenshot(str(screenshot))
            print(f"formulas at {width}px, {scheme}: {screenshot}")
