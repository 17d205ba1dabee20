"""site.yaml's comments and analytics in Chromium, on a real build served by nginx with
deploy/nginx.conf (issue 54): the comment thread (a loopback stand-in of giscus, GISCUS_ORIGIN)
loads only when the reader asks, in the theme the reader picked; and no page type meets a CSP
violation with comments or any analytics provider on."""

import time

import pytest

from tests.browser import console_errors
from tests.content_builder import SERIES, SERIES_SLUG, SITE_YAML, write_content

from .conftest import distill_local, start_nginx
from .standins import stand_in
from .test_csp_browser import PAGES, RECORD_VIOLATIONS

pytestmark = pytest.mark.browser

GISCUS = (
    "comments:\n  giscus: {repo: owner/name, repoId: R_kgDOabc, category: Comments, "
    "categoryId: DIC_kwDOabc4Cxyz, mapping: pathname}\n"
)
ARTICLE = "/articles/first-post"
# Every page type of the standard site, and a series' page and one of its parts.
EVERY_PAGE = [*PAGES, f"/series/{SERIES_SLUG}", "/articles/site-part-two"]


def build(tmp_path_factory, name, site_yaml, env=None):
    """The standard site plus a series, with `site_yaml` added to site.yaml, built by the real
    command; its folder."""
    root = tmp_path_factory.mktemp(name)
    content = write_content(root / "content")
    write_content(content, {"site.yaml": SITE_YAML + site_yaml, **SERIES})
    result = distill_local(content, root / "site", root / "db.sqlite3", "--workers", "2", env=env)
    assert result.returncode == 0, result.stderr
    return root


@pytest.fixture(scope="module")
def giscus():
    with stand_in() as server:
        yield server


@pytest.fixture(scope="module")
def commented(giscus, tmp_path_factory, module_background):
    """The base URL of the site with comments on, GISCUS_ORIGIN the stand-in's, served by nginx."""
    root = build(tmp_path_factory, "commented", GISCUS, env={"GISCUS_ORIGIN": giscus.origin})
    return start_nginx(root / "site", module_background, root)


def wait(driver, script, *args, timeout=10):
    """The value of `script` once it is truthy (fails after `timeout` seconds)."""
    deadline = time.monotonic() + timeout
    while not (value := driver.execute_script(script, *args)):
        assert time.monotonic() < deadline, f"timed out waiting for: {script}"
        time.sleep(0.05)
    return value


def until(condition, timeout=10):
    deadline = time.monotonic() + timeout
    while not (value := condition()):
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)
    return value


def browser(chromium):
    driver = chromium()
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": RECORD_VIOLATIONS})
    return driver


def violations(driver):
    return driver.execute_script("return window.cspViolations")


ASKED_OF = """return [
  ...performance.getEntriesByType("resource").map((entry) => entry.name),
  ...[...document.querySelectorAll("link[href], script[src], iframe[src]")].map((e) => e.href || e.src),
].filter((address) => address.startsWith(arguments[0]))"""


def show_comments(driver, origin):
    """Press the button and wait for the thread's frame to load; the frame's address."""
    driver.execute_script("document.querySelector('[data-comments-load]').scrollIntoView()")
    driver.find_element("css selector", "[data-comments-load]").click()
    wait(driver, "return document.querySelector('iframe.giscus-frame:not(.giscus-frame--loading)')")
    return driver.execute_script("return document.querySelector('iframe.giscus-frame').src")


def test_the_thread_loads_only_when_asked_in_the_readers_theme(commented, giscus, chromium):
    driver = browser(chromium)
    giscus.clear()
    driver.get(commented + ARTICLE)
    time.sleep(1)  # time for anything the page would fetch or connect to ahead (a preconnect)
    # Nothing reached the stand-in, not even a connection; the page names nothing of it.
    assert (giscus.connections, giscus.requests) == (0, [])
    assert driver.execute_script(ASKED_OF, giscus.origin) == []
    assert (
        driver.execute_script(
            "return document.querySelector('link[rel~=preconnect], link[rel~=dns-prefetch]')"
        )
        is None
    )

    frame = show_comments(driver, giscus.origin)
    assert frame.startswith(giscus.origin + "/widget?")
    assert sorted(set(giscus.paths())) == ["/client.js", "/default.css", "/widget"]
    assert giscus.queries("/widget")[-1]["theme"] == "light"  # the device's (headless: light)
    assert giscus.queries("/widget")[-1]["term"] == ARTICLE
    # The button is gone once pressed (hidden, and not shown by its class's display either).
    assert not driver.find_element("css selector", "[data-comments-load]").is_displayed()
    # The stylesheet client.js adds applies (style-src), the frame shows (frame-src).
    assert (
        driver.execute_script("return getComputedStyle(document.querySelector('.giscus-frame')).borderStyle")
        == "none"
    )
    # The reader's later choice of theme reaches the thread: system -> light -> dark.
    toggle = driver.find_element("css selector", "[data-theme-toggle]")
    toggle.click()
    toggle.click()
    until(lambda: [q["theme"] for q in giscus.queries("/seen")][-1:] == ["dark"])
    driver.switch_to.frame(driver.find_element("css selector", "iframe.giscus-frame"))
    assert driver.execute_script("return document.body.className") == "dark"
    driver.switch_to.default_content()
    assert violations(driver) == []
    assert console_errors(driver) == []


@pytest.mark.parametrize(
    "stored, device, expected",
    [(None, "dark", "dark"), ("dark", "light", "dark"), ("light", "dark", "light")],
)
def test_the_thread_opens_in_the_theme_the_reader_picked(
    commented, giscus, chromium, stored, device, expected
):
    """The stored choice (theme.js: localStorage) wins over the device's; without one, the device's."""
    driver = browser(chromium)
    driver.execute_cdp_cmd(
        "Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": device}]}
    )
    driver.get(commented + "/")
    if stored:
        driver.execute_script("localStorage.setItem('theme', arguments[0])", stored)
    driver.get(commented + ARTICLE)
    frame = show_comments(driver, giscus.origin)
    assert f"theme={expected}" in frame
    driver.switch_to.frame(driver.find_element("css selector", "iframe.giscus-frame"))
    assert driver.execute_script("return document.body.className") == expected
    driver.switch_to.default_content()
    assert violations(driver) == []


def test_no_violation_on_any_page_with_comments_on(commented, giscus, chromium):
    driver = browser(chromium)
    for path in EVERY_PAGE:
        driver.get(commented + path)
        if path.startswith("/articles/"):
            show_comments(driver, giscus.origin)
        assert violations(driver) == [], path
        errors = [e for e in console_errors(driver) if not e["message"].startswith(f"{commented}{path} - ")]
        assert errors == [], path


# --- analytics -----------------------------------------------------------------------------------

# Plausible's and Umami's script address is the owner's to set (`src`): a loopback stand-in over
# https (its certificate accepted by the browser), which records the page views the script sends.
# GoatCounter's and Cloudflare's are fixed: the browser cannot reach them (no network), which it
# reports as a failed load, not as a violation: the policy let the request go.
PROVIDERS = {
    "plausible": "plausible: {{domain: portfolio.test, src: '{origin}/js/script.js'}}",
    "umami": "umami: {{websiteId: 94db1cb1-74f4, src: '{origin}/script.js'}}",
    "goatcounter": "goatcounter: {{code: mysite}}",
    "cloudflare": "cloudflare: {{token: abc123}}",
}
# Where the fixed providers' scripts send (connect-src; docs/hosting.md).
SENDS_TO = {
    "goatcounter": "https://mysite.goatcounter.com/count",
    "cloudflare": "https://cloudflareinsights.com/cdn-cgi/rum",
}


@pytest.fixture(scope="module")
def analytics_stand_in(tmp_path_factory):
    with stand_in(tls_folder=tmp_path_factory.mktemp("tls")) as server:
        yield server


@pytest.fixture(scope="module", params=list(PROVIDERS))
def with_analytics(request, analytics_stand_in, tmp_path_factory, module_background):
    """(provider, base URL) of the site with that provider on, served by nginx."""
    provider = request.param
    setting = PROVIDERS[provider].format(origin=analytics_stand_in.origin)
    root = build(tmp_path_factory, provider, f"analytics:\n  {setting}\n")
    return provider, start_nginx(root / "site", module_background, root)


# The scripts of another origin in <head>: the provider's.
SCRIPT = """return [...document.querySelectorAll("head script[src]")].map((s) => s.src)
  .filter((s) => !s.startsWith(location.origin))"""
FETCH = "return fetch(arguments[0], {method: 'POST', mode: 'no-cors'}).then(() => 'sent', (e) => e.name)"
FIXED_SRC = {
    "goatcounter": "https://gc.zgo.at/count.js",
    "cloudflare": "https://static.cloudflareinsights.com/beacon.min.js",
}
ENDPOINT = {"plausible": "/api/event", "umami": "/api/send"}


def test_no_violation_on_any_page_with_each_analytics_provider(with_analytics, analytics_stand_in, chromium):
    provider, base = with_analytics
    own = provider in ENDPOINT  # its script on the stand-in
    driver = browser(chromium)
    driver.execute_cdp_cmd("Security.setIgnoreCertificateErrors", {"ignore": True})
    analytics_stand_in.clear()
    for number, path in enumerate(EVERY_PAGE, 1):
        driver.get(base + path)
        [src] = driver.execute_script(SCRIPT)
        if own:
            assert src.startswith(analytics_stand_in.origin + "/"), path
            # The page view reached the stand-in: script-src and connect-src let it.
            until(lambda n=number: analytics_stand_in.paths().count(ENDPOINT[provider]) == n)
        else:
            assert src == FIXED_SRC[provider], path
        assert violations(driver) == [], path
        errors = [
            e["message"] for e in console_errors(driver) if not e["message"].startswith(f"{base}{path} - ")
        ]
        if own:
            assert errors == [], path
        else:  # the script's failed load (no network), and nothing else
            failed = f"{src} - Failed to load resource: net::ERR_"
            assert all(e.startswith(failed) for e in errors), (path, errors)
    if not own:
        # Where the script would send: the policy lets it go (a network error, no violation); to
        # anywhere else it refuses (so a refusal would have been seen).
        assert driver.execute_script(FETCH, SENDS_TO[provider]) == "TypeError"
        assert violations(driver) == []
        assert driver.execute_script(FETCH, "https://elsewhere.example/count") == "TypeError"
        assert [v for v in violations(driver) if v.startswith("connect-src https://elsewhere.example")]
