"""The scripts in another language, in headless Chromium: the copy button and the theme toggle say
what the page's data-words give them (portfolio/jinja2.py script_words), here in French, the
site's default for this test (settings.LANGUAGE_CODE: no language is activated)."""

import pytest
from selenium.webdriver.common.by import By

from .test_browser import prefer

pytestmark = pytest.mark.browser


@pytest.fixture
def french_site(imported, live_server, settings):
    settings.SITE_URL = live_server.url
    settings.LANGUAGE_CODE = "fr"
    return live_server.url


def test_the_copy_button_and_the_theme_toggle_speak_french(french_site, chromium):
    driver = chromium()
    prefer(driver, "light")
    driver.get(french_site + "/projects/alpha-one")
    assert (
        driver.find_element(By.CSS_SELECTOR, ".skip-link").get_attribute("textContent") == "Aller au contenu"
    )
    button = driver.find_element(By.CSS_SELECTOR, ".prose button.copy-code")
    assert (button.text, button.accessible_name) == ("Copier", "Copier le code")
    toggle = driver.find_element(By.CSS_SELECTOR, "[data-theme-toggle]")
    assert toggle.accessible_name == "Thème : système"
    toggle.click()
    assert toggle.accessible_name == "Thème : clair"
