"""The code blocks' copy button (pages/static/pages/copy.js) in headless Chromium: one real button
per code block of a body, named, reached by keyboard, copying the block's text and saying so in a
live region; absent without JavaScript. Under the hosts' CSP: tests/export/test_csp_browser.py
loads the same pages, copy.js included, and fails on any refusal. Screenshots at 360, 768 and
1280 px, light and dark, under this test's folder."""

import re

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from tests.browser import browser_context, console_errors

from .test_browser import prefer, site, viewport  # noqa: F401  (site: the live server fixture)

pytestmark = pytest.mark.browser

CODE = "print('a line of code long enough to scroll sideways on a phone: $HOME', 1 + 2 + 3 + 4 + 5)"
ARTICLE = "/articles/unicode-post"


def grant_clipboard(driver, origin):
    """Let the page read the clipboard back (writing needs no permission after a click)."""
    permissions = ["clipboardReadWrite", "clipboardSanitizedWrite"]
    grant = {"origin": origin, "permissions": permissions, "browserContextId": browser_context(driver)}
    driver.execute_cdp_cmd("Browser.grantPermissions", grant)


def clipboard(driver):
    return driver.execute_async_script(
        "const done = arguments[0]; navigator.clipboard.readText().then(done, (e) => done('error: ' + e));"
    )


def wait_for(driver, script, timeout=3):
    driver.set_script_timeout(timeout)
    return driver.execute_async_script(
        "const [check, done] = [new Function(arguments[0]), arguments[1]];"
        "const poll = () => { const v = check(); if (v) done(v); else setTimeout(poll, 25); }; poll();",
        script,
    )


def test_each_code_block_gets_a_button_that_copies_it(site, chromium, tmp_path):  # noqa: F811
    driver = chromium()
    grant_clipboard(driver, site)
    driver.get(site + ARTICLE)
    blocks = driver.find_elements(By.CSS_SELECTOR, ".prose pre")
    buttons = driver.find_elements(By.CSS_SELECTOR, ".prose button.copy-code")
    assert len(blocks) == len(buttons) == 2  # the python block, and the one with a file name
    button = buttons[0]
    assert button.tag_name == "button" and button.get_attribute("type") == "button"
    assert button.accessible_name == "Copy code" and button.text == "Copy"
    status = driver.find_element(By.CSS_SELECTOR, "[data-copy-status]")
    assert status.get_attribute("role") == "status" and status.text == ""

    # By click: the block's text, without the trailing newline, and said in the live region.
    button.click()
    assert wait_for(driver, "return document.querySelector('[data-copy-status]').textContent") == (
        "Code copied to the clipboard"
    )
    assert button.text == "Copied"
    assert clipboard(driver) == CODE

    # By keyboard: tab to the button and press Enter (and Space).
    driver.execute_script("navigator.clipboard.writeText('')")
    driver.execute_script("document.activeElement.blur(); document.querySelector('.prose pre').focus()")
    driver.switch_to.active_element.send_keys(Keys.SHIFT, Keys.TAB)  # the button comes before its block
    assert driver.switch_to.active_element == button
    driver.switch_to.active_element.send_keys(Keys.ENTER)
    assert wait_for(driver, "return document.querySelector('[data-copy-status]').textContent")
    assert clipboard(driver) == CODE
    driver.execute_script("navigator.clipboard.writeText('')")
    driver.switch_to.active_element.send_keys(Keys.SPACE)
    assert wait_for(driver, "return document.querySelector('[data-copy-status]').textContent")
    assert clipboard(driver) == CODE
    assert console_errors(driver) == []

    for scheme in ["light", "dark"]:
        prefer(driver, scheme)
        for width in [360, 768, 1280]:
            viewport(driver, width)
            driver.get(site + ARTICLE)
            assert driver.execute_script("return document.documentElement.scrollWidth - innerWidth") <= 0
            box = driver.find_element(By.CSS_SELECTOR, ".prose .has-copy")
            driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", box)
            driver.find_element(By.CSS_SELECTOR, ".copy-code").click()
            screenshot = tmp_path / f"copy-{width}-{scheme}.png"
            driver.save_screenshot(str(screenshot))
            print(f"copy button at {width}px, {scheme}: {screenshot}")


def test_pages_without_code_and_without_javascript_have_no_button(site, chromium):  # noqa: F811
    driver = chromium(javascript=False)
    driver.get(site + ARTICLE)
    assert driver.find_elements(By.CSS_SELECTOR, ".prose pre")
    assert driver.find_elements(By.CSS_SELECTOR, "button.copy-code, [data-copy-status]") == []
    driver = chromium()
    driver.get(site + "/articles/first-post")
    assert driver.find_elements(By.CSS_SELECTOR, "button.copy-code, [data-copy-status]") == []


def test_the_script_is_a_hashed_file(get):
    _, body = get(ARTICLE)
    assert re.search(r'<script src="/static/pages/copy\.[0-9a-f]{12}\.js" defer></script>', body)
