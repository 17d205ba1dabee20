"""Every human page in headless Chromium, from a live server: no console error, nothing wider than
a phone's screen, and screenshots of the home page under this test's temporary folder."""

import pytest
from django_distill.renderer import DistillRenderer

from tests.browser import console_errors


def human_pages():
    """Every HTML page the export writes (every project and article included), but the 404."""
    return [
        uri
        for pattern, _params, uri in DistillRenderer().get_urls_to_render()
        if (pattern.distill_file or "").endswith(".html") and pattern.distill_status_codes == (200,)
    ]


def overflow(driver):
    return driver.execute_script("return document.documentElement.scrollWidth - window.innerWidth")


@pytest.mark.browser
def test_human_pages_in_chromium(imported, live_server, settings, chromium, tmp_path):
    # Absolute links (canonical, feed, JSON twins) then point at the live server, not production.
    settings.SITE_URL = live_server.url
    pages = human_pages()
    assert {"/", "/projects", "/articles/unicode-post", "/stack", "/developers"} <= set(pages)
    driver = chromium()
    for width, height in [(1280, 900), (390, 844)]:
        driver.set_window_size(width, height)
        for path in pages:
            driver.get(live_server.url + path)
            assert driver.find_element("css selector", "h1").text, path
            assert driver.execute_script("return document.styleSheets.length") == 2, path
            assert console_errors(driver) == [], path
            assert overflow(driver) <= 0, f"{path} scrolls sideways at {width}px"
        driver.get(live_server.url + "/")
        screenshot = tmp_path / f"home-{width}.png"
        driver.save_screenshot(str(screenshot))
        print(f"home page at {width}px: {screenshot}")

    driver.get(live_server.url + "/no-such-page")
    assert driver.find_element("css selector", "h1").text == "Page not found"
    # The only error allowed is the 404 status of the page itself.
    assert all("404" in entry["message"] for entry in console_errors(driver))
