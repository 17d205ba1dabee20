"""The offer of a page in the reader's language (templates/includes/language_offer.html,
pages/static/pages/languages.js): each other version of the page, offered in its own language;
in Chromium, shown for the first of the browser's languages the page is written in when that is
not the page's, never again once dismissed or once the reader picks a language."""

import re

import pytest

from pages.context_processors import offer_words
from portfolio.content.importer import import_content
from portfolio.content.languages import Language
from tests.browser import console_errors
from tests.content_builder import write_content
from tests.export.conftest import start_nginx

from .content import add_languages, write_multilingual

OFFER = re.compile(
    r'<p class="wrap" lang="([^"]+)" dir="(ltr|rtl)" data-offer="[^"]+" hidden>\s*'
    r'<a href="([^"]+)" hreflang="[^"]+">([^<]+)</a>'
)


def offers(client, path):
    response = client.get(path)
    assert response.status_code == 200, path
    return OFFER.findall(response.content.decode())


@pytest.fixture
def multilingual(db, tmp_path, settings):
    settings.SITE_URL = ""
    import_content(write_multilingual(tmp_path / "content"), workers=1)


def test_each_other_version_is_offered_in_its_own_language(multilingual, client):
    assert offers(client, "/articles/first-post") == [
        ("fr", "ltr", "/fr/articles/first-post", "Lire cette page en français"),
        ("fa", "rtl", "/fa/articles/first-post", "این صفحه را به فارسی بخوانید"),
        ("ja", "ltr", "/ja/articles/first-post", "このページを日本語で読む"),
    ]
    assert offers(client, "/fr/about") == [("en", "ltr", "/about", "Read this page in English")]
    assert ("fr", "ltr", "/fr/", "Lire cette page en français") in offers(client, "/")


def test_a_page_in_one_language_offers_nothing(multilingual, client):
    page = client.get("/articles/unicode-post").content.decode()  # not translated
    assert "data-language-offer" not in page and "/static/pages/languages." not in page
    assert "/static/pages/languages." in client.get("/articles/first-post").content.decode()


def test_a_one_language_site_has_no_offer(db, tmp_path, settings, client):
    settings.SITE_URL = ""
    import_content(write_content(tmp_path / "content"), workers=1)
    page = client.get("/articles/first-post").content.decode()
    assert "data-language-offer" not in page and "/static/pages/languages." not in page


def test_a_language_without_a_catalog_is_offered_by_its_name():
    assert offer_words(Language("it", "Italiano")) == ("Italiano", "Dismiss")
    assert offer_words(Language("en-gb", "English")) == ("Read this page in English", "Dismiss")
    assert offer_words(Language("de", "Deutsch")) == ("Diese Seite auf Deutsch lesen", "Schließen")


# --- in the browser ------------------------------------------------------------------------------


@pytest.fixture
def served(site, content_dir, tmp_path, background):
    add_languages(content_dir)
    site()
    return start_nginx(tmp_path / "site", background, tmp_path)


def reading(driver, accept_language):
    """The tab's browser languages (navigator.languages) as a reader's would be."""
    agent = driver.execute_script("return navigator.userAgent")
    driver.execute_cdp_cmd(
        "Emulation.setUserAgentOverride", {"userAgent": agent, "acceptLanguage": accept_language}
    )


def shown(driver):
    """(lang, link text, href) of the offer shown, or None."""
    return driver.execute_script(
        """const box = document.querySelector('[data-language-offer]');
        const offer = box && [...box.querySelectorAll('[data-offer]')].find(p => !p.hidden);
        if (!box || box.hidden || !offer || !offer.offsetHeight) return null;
        const link = offer.querySelector('a');
        return [offer.lang, link.textContent, link.getAttribute('href')];"""
    )


@pytest.mark.browser
def test_the_reader_is_offered_their_language_once(served, chromium, tmp_path):
    driver = chromium()
    reading(driver, "de-DE,fr-CA;q=0.9,en;q=0.5")  # no German version: French comes first
    driver.get(served + "/articles/first-post")
    assert shown(driver) == ["fr", "Lire cette page en français", "/fr/articles/first-post"]
    for scheme in ("light", "dark"):
        driver.execute_cdp_cmd(
            "Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": scheme}]}
        )
        for width in (360, 768, 1280):
            driver.set_window_size(width, 900)
            driver.save_screenshot(str(tmp_path / f"offer-{width}-{scheme}.png"))
            overflow = driver.execute_script("return document.scrollingElement.scrollWidth - innerWidth")
            assert overflow <= 0, (width, scheme)
    assert not console_errors(driver)
    driver.find_element("css selector", "[data-offer='fr'] [data-dismiss]").click()
    assert shown(driver) is None
    driver.get(served + "/articles/first-post")
    assert shown(driver) is None  # dismissed: never again

    driver = chromium(javascript=True)
    driver.execute_script("localStorage.clear()")
    reading(driver, "en-US,fr;q=0.8")  # the page's own language comes first: nothing
    driver.get(served + "/articles/first-post")
    assert shown(driver) is None
    reading(driver, "fa-IR,en;q=0.5")
    driver.get(served + "/fr/articles/first-post")
    assert shown(driver) == ["fa", "این صفحه را به فارسی بخوانید", "/fa/articles/first-post"]
    assert (
        driver.execute_script("return getComputedStyle(document.querySelector('[data-offer=fa]')).direction")
        == "rtl"
    )
    driver.get(served + "/articles/unicode-post")  # in English only
    assert shown(driver) is None
    # Picking a language in the switcher is a choice: no offer after it.
    driver.get(served + "/articles/first-post")
    assert shown(driver)[0] == "fa"
    driver.find_element("css selector", ".language-switcher a[hreflang='en']").click()
    driver.get(served + "/fr/articles/first-post")
    assert shown(driver) is None
