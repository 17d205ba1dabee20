"""Every human page in headless Chromium, from a live server: no console error, nothing wider than
the screen at 1280 px and on a 360 px phone in light and dark, the theme toggle, and screenshots
of the home page under this test's temporary folder."""

import pytest
from django_distill.renderer import DistillRenderer
from selenium.webdriver.common.by import By

from tests.browser import console_errors

pytestmark = pytest.mark.browser

# site.css's --bg in each theme, as getComputedStyle reports it.
BACKGROUND = {"light": "rgb(252, 252, 253)", "dark": "rgb(17, 22, 29)"}


def human_pages():
    """Every HTML page the export writes (every project and article included), but the 404."""
    return [
        uri
        for pattern, _params, uri in DistillRenderer().get_urls_to_render()
        if (pattern.distill_file or "").endswith(".html") and pattern.distill_status_codes == (200,)
    ]


def overflow(driver):
    return driver.execute_script("return document.documentElement.scrollWidth - window.innerWidth")


def background(driver):
    return driver.execute_script("return getComputedStyle(document.body).backgroundColor")


def prefer(driver, scheme):
    """The device's colour scheme, as prefers-color-scheme reports it."""
    features = [{"name": "prefers-color-scheme", "value": scheme}]
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": features})


def viewport(driver, width, height=800):
    """A viewport exactly `width` CSS pixels wide (the window has a frame around it)."""
    driver.set_window_size(width, height)
    inner = driver.execute_script("return window.innerWidth")
    driver.set_window_size(2 * width - inner, height)


@pytest.fixture
def site(imported, live_server, settings):
    # Absolute links (canonical, feed, JSON twins) then point at the live server, not production.
    settings.SITE_URL = live_server.url
    return live_server.url


def test_human_pages_in_chromium(site, chromium, tmp_path):
    pages = human_pages()
    assert {"/", "/projects", "/articles/unicode-post", "/stack", "/developers", "/contact", "/tags",
            "/tags/python", "/tags/%C3%BCn%C3%AF"} <= set(pages)  # fmt: skip
    driver = chromium()
    for width, scheme in [(1280, "light"), (360, "light"), (360, "dark")]:
        viewport(driver, width)
        prefer(driver, scheme)
        for path in pages:
            driver.get(site + path)
            assert driver.find_element(By.CSS_SELECTOR, "h1").text, path
            assert driver.execute_script("return document.styleSheets.length") == 2, path
            assert console_errors(driver) == [], path
            assert background(driver) == BACKGROUND[scheme], (path, scheme)
            assert overflow(driver) <= 0, f"{path} scrolls sideways at {width}px ({scheme})"
            if width == 360:  # the navigation fits the phone: all five links within the screen
                right = driver.execute_script(
                    "return Math.max(...[...document.querySelectorAll('nav[aria-label=Main] a')]"
                    ".map((a) => a.getBoundingClientRect().right))"
                )
                assert right <= 360, f"{path}: the navigation is cut at {right}px"
        driver.get(site + "/")
        screenshot = tmp_path / f"home-{width}-{scheme}.png"
        driver.save_screenshot(str(screenshot))
        print(f"home page at {width}px, {scheme}: {screenshot}")

    driver.get(site + "/no-such-page")
    assert driver.find_element(By.CSS_SELECTOR, "h1").text == "Page not found"
    # The only error allowed is the 404 status of the page itself.
    assert all("404" in entry["message"] for entry in console_errors(driver))


# Runs before any of the page's own scripts: notes <html data-theme> when <body> first appears,
# before which nothing can be painted.
RECORD_THEME_AT_BODY = """
new MutationObserver((changes, observer) => {
  if (document.body) {
    window.themeAtBody = document.documentElement.getAttribute("data-theme");
    observer.disconnect();
  }
}).observe(document, {childList: true, subtree: true});
"""


def test_theme_toggle_is_remembered_and_set_before_the_first_paint(site, chromium):
    driver = chromium()
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": RECORD_THEME_AT_BODY})
    prefer(driver, "light")
    driver.get(site + "/")
    toggle = driver.find_element(By.CSS_SELECTOR, "[data-theme-toggle]")
    assert toggle.is_displayed() and toggle.accessible_name == "Theme: system"
    assert background(driver) == BACKGROUND["light"]

    toggle.click()  # system -> light: the device is light, so nothing changes but the label
    assert (toggle.accessible_name, background(driver)) == ("Theme: light", BACKGROUND["light"])
    toggle.click()  # light -> dark
    assert driver.execute_script("return localStorage.getItem('theme')") == "dark"
    assert (toggle.accessible_name, background(driver)) == ("Theme: dark", BACKGROUND["dark"])

    # Remembered on the next page, and already there before anything could be painted.
    driver.get(site + "/projects/alpha-one")
    assert driver.execute_script("return window.themeAtBody") == "dark"
    assert background(driver) == BACKGROUND["dark"]
    # The code colours follow the chosen theme, not the device's.
    code = driver.find_element(By.CSS_SELECTOR, ".highlight").value_of_css_property("background-color")
    assert code == "rgba(13, 17, 23, 1)"  # github-dark

    # Chosen light on a dark device stays light; back to "system" follows the device again.
    prefer(driver, "dark")
    toggle = driver.find_element(By.CSS_SELECTOR, "[data-theme-toggle]")
    toggle.click()  # dark -> system
    assert driver.execute_script("return localStorage.getItem('theme')") is None
    assert background(driver) == BACKGROUND["dark"]
    toggle.click()  # system -> light
    driver.refresh()
    assert driver.execute_script("return window.themeAtBody") == "light"
    assert background(driver) == BACKGROUND["light"]


def test_without_javascript_the_device_decides_and_the_toggle_is_hidden(site, chromium):
    driver = chromium(javascript=False)
    prefer(driver, "dark")
    driver.get(site + "/")
    assert driver.find_element(By.TAG_NAME, "html").get_attribute("data-theme") is None
    assert background(driver) == BACKGROUND["dark"]
    assert not driver.find_element(By.CSS_SELECTOR, "[data-theme-toggle]").is_displayed()


def test_search_before_any_build_says_how_in_one_line(site, chromium, settings, tmp_path):
    """The authoring server before the first build: its list of index bundles is empty, and the
    search page says what to run (README's Quick start says it too)."""
    from selenium.webdriver.support.wait import WebDriverWait

    settings.SEARCH_BUILD_DIR = tmp_path / "no-build-yet"
    driver = chromium()
    driver.get(site + "/search?q=anything")
    status = "return document.querySelector('[data-search-status]').textContent"
    said = WebDriverWait(driver, 15).until(lambda d: d.execute_script(status))
    assert said == "No search index yet: run make build once, then search again (make build updates it)."
    assert console_errors(driver) == []
