"""axe-core's WCAG 2.0 and 2.1 A and AA rules on every page type, as deployed (the built site
served by nginx with deploy/nginx.conf, so under the hosts' CSP), at 360 and 1280 px, light and
dark: not one violation. axe-core is pinned in tests/hosts/package.json (`make test` installs it)
and injected through WebDriver, which the page's CSP does not govern."""

import json
import time

import pytest
from django.conf import settings

from tests.pages.test_browser import prefer, viewport
from tests.tools import missing_tool

from .conftest import start_nginx

AXE = settings.BASE_DIR / "tests" / "hosts" / "node_modules" / "axe-core" / "axe.min.js"
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
# Every page type: the home page, both lists, an item of each kind (the article holds code,
# formulas, footnotes and contents; the project code and a table), the tags and a tag, the search
# with results, the stack, the developers page, the contact form, and the 404 page.
PAGES = ["/", "/projects", "/articles", "/projects/alpha-one", "/articles/unicode-post", "/tags",
         "/tags/python", "/search?q=alpha", "/stack", "/developers", "/contact", "/no/such/page"]  # fmt: skip

RUN_AXE = """
const [tags, done] = arguments;
axe.run(document, {runOnly: {type: "tag", values: tags}, resultTypes: ["violations"]}).then(
  (results) => done(results.violations.map((v) => ({
    id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.map((n) => n.target.join(" ") + ": " + n.failureSummary),
  }))),
  (error) => done([{id: "axe failed", nodes: [String(error)]}]),
);
"""


def search_results(driver):
    deadline = time.monotonic() + 15
    while not driver.execute_script("return document.querySelector('.search-result a')"):
        assert time.monotonic() < deadline, "the search showed no result"
        time.sleep(0.1)


def violations(driver, base, pages, on_page=lambda path: None):
    """{page, width and scheme: axe's violations} of `pages` at 360 and 1280 px, light and dark;
    `on_page(path)` runs once each page has loaded, before axe."""
    if not AXE.exists():
        missing_tool("axe-core is not installed in tests/hosts (make test installs it with npm)")
    axe = AXE.read_text()
    driver.set_script_timeout(60)
    found = {}
    for width in [360, 1280]:
        viewport(driver, width)
        for scheme in ["light", "dark"]:
            prefer(driver, scheme)
            for path in pages:
                driver.get(base + path)
                on_page(path)
                driver.execute_script(axe)
                if seen := driver.execute_async_script(RUN_AXE, TAGS):
                    found[f"{path} at {width}px, {scheme}"] = seen
    return found


@pytest.mark.browser
def test_no_page_type_has_an_accessibility_violation(built_site, background, tmp_path, chromium):
    def on_page(path):
        if path.startswith("/search"):
            search_results(driver)

    driver = chromium()
    found = violations(driver, start_nginx(built_site, background, tmp_path), PAGES, on_page)
    assert found == {}, json.dumps(found, indent=1, ensure_ascii=False)
