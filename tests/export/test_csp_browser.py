"""Every page type in Chromium under the Content-Security-Policy the hosts send (the built site
served by nginx with deploy/nginx.conf): nothing the pages use is refused."""

import time

import pytest

from tests.browser import console_errors

from .conftest import start_nginx

PAGES = ["/", "/projects", "/projects/alpha-one", "/articles", "/articles/unicode-post", "/stack",
         "/developers", "/search?q=alpha", "/contact", "/contact/thanks", "/tags", "/tags/python",
         "/tags/%C3%BCn%C3%AF", "/no/such/page"]  # fmt: skip

# Runs before any script of the page (DevTools protocol; the page's CSP does not apply to it).
RECORD_VIOLATIONS = """
window.cspViolations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.cspViolations.push(`${event.violatedDirective} ${event.blockedURI} ${event.sourceFile}`);
});
"""


@pytest.mark.browser
def test_every_page_type_loads_under_the_csp(built_site, background, tmp_path, chromium):
    base = start_nginx(built_site, background, tmp_path)
    driver = chromium()
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": RECORD_VIOLATIONS})
    for path in PAGES:
        driver.get(base + path)
        assert driver.execute_script("return document.styleSheets.length") == 2, path
        assert driver.execute_script("return window.cspViolations") == [], path
        errors = [e for e in console_errors(driver) if not e["message"].startswith(f"{base}{path} - ")]
        assert errors == [], path  # (the unknown page's own 404 is the one expected error)
        if path == "/contact":  # its script was fetched, not refused
            scripts = "return performance.getEntriesByType('resource').map((entry) => entry.name)"
            assert [name for name in driver.execute_script(scripts) if "/static/contact/contact." in name]
        if path.startswith("/search"):  # the search ran: Pagefind's script, worker and WebAssembly
            first = "return document.querySelector('.search-result a')?.pathname"
            deadline = time.monotonic() + 15
            while not driver.execute_script(first) and time.monotonic() < deadline:
                time.sleep(0.1)
            assert driver.execute_script(first) == "/projects/alpha-one"
            assert driver.execute_script("return window.cspViolations") == [], path
    # The policy is in force, and a refusal would be seen: an inline style is refused.
    driver.execute_script(
        "document.head.append(Object.assign(document.createElement('style'), {textContent: 'p {}'}))"
    )
    assert [v for v in driver.execute_script("return window.cspViolations") if v.startswith("style-src")]
