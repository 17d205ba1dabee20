"""Search in headless Chromium against `manage.py preview` of a real build, with the keyboard
only, under the Content-Security-Policy the build's _headers sends, on a phone's width too."""

import time

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys

from tests.browser import console_errors
from tests.content_builder import FILES, article, write_content

from .conftest import distill_local
from .test_csp_browser import RECORD_VIOLATIONS
from .test_preview import preview

# A draft with a word of its own. Pagefind also matches a shorter indexed word that begins the
# word searched for ("s" for "secret"), so the word starts with letters no published word starts with.
DRAFT_WORD = "quokkaberry"
# A page whose text shows entities' spellings beside the characters they stand for: the page
# shows "&lt;" literally, then "<", "&gt;", ">", "&amp;" and "<mark>".
ESCAPES = "The zygomorph writes &amp;lt; for c < d, &amp;gt; for e > f, &amp;amp; and `<mark>` alike.\n"
ESCAPES_SHOWN = "The zygomorph writes &lt; for c < d, &gt; for e > f, &amp; and <mark> alike."


@pytest.fixture(scope="module")
def built_site(tmp_path_factory):
    """The standard test content, a draft with a word of its own and twelve articles about
    herons (more results than a search shows at first), built by the real command."""
    root = tmp_path_factory.mktemp("search")
    draft = article("Quokkaberry jam", date="2026-04-05", draft="true", body=f"The {DRAFT_WORD} harvest.\n")
    herons = {f"articles/heron-{n}.md": article(f"Heron {n}", date=f"2025-03-{n:02}", body="A heron.\n")
              for n in range(1, 13)}  # fmt: skip
    long_read = article("Storage notes", date="2025-06-01", tags="[sqlite, python]", body=LONG_READ)
    escapes = article("Escapes", body=ESCAPES)
    files = {**FILES, **herons, "articles/jam.md": draft, "articles/escapes.md": escapes}
    content = write_content(root / "content", {**files, "articles/storage.md": long_read})
    result = distill_local(content, root / "site", root / "db.sqlite3")
    assert result.returncode == 0, result.stderr
    return root / "site"


@pytest.fixture(scope="module")
def base(built_site, tmp_path_factory):
    """`manage.py preview` of the build, one for the module: the tests only read it."""
    with preview(built_site, tmp_path_factory.mktemp("preview")) as url:
        yield url


# Sentences enough that an excerpt is cut at both ends; its one match in the fourth.
LONG_READ = (
    "The first sentence sets the scene for a long read. The second sentence adds a detail or two. "
    "The third sentence goes on about disks and pages. A single file of wombatdata is enough here, "
    "and it is backed up nightly. The fifth sentence is about caches. The sixth is about the "
    "network. The seventh is about nothing much at all. The eighth closes the paragraph.\n"
)


def press(driver, *keys):
    ActionChains(driver).send_keys(*keys).perform()


def tab_to(driver, selector, limit=40):
    """Press Tab until the element matching `selector` has the focus."""
    for _ in range(limit):
        if driver.execute_script("return document.activeElement.matches(arguments[0])", selector):
            return
        press(driver, Keys.TAB)
    raise AssertionError(f"{selector}: not reached with Tab")


def wait_for(driver, script, timeout=15):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = driver.execute_script(script)
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError(f"timed out: {script}")


def status(driver):
    return driver.execute_script("return document.querySelector('[data-search-status]').textContent")


def results(driver):
    return driver.execute_script(
        "return [...document.querySelectorAll('.search-result')].map((r) => "
        "[r.querySelector('a').getAttribute('href'), r.querySelector('a').textContent, r.innerHTML])"
    )


def phone(driver):
    metrics = {"width": 360, "height": 800, "deviceScaleFactor": 1, "mobile": True}
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", metrics)


@pytest.mark.browser
@pytest.mark.parametrize("width", [1280, 360])
def test_search_with_the_keyboard_only(base, chromium, width):
    driver = chromium()
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": RECORD_VIOLATIONS})
    if width == 360:
        phone(driver)
    driver.get(base + "/articles/first-post")
    tab_to(driver, "#site-search" if width == 1280 else ".site-search button")
    if width == 1280:  # the header's field takes the words; Enter sends them to /search
        press(driver, "zeta", Keys.ENTER)
    else:  # on a phone the header shows the button only: it opens /search, whose field has the focus
        press(driver, Keys.ENTER)
        wait_for(driver, "return location.pathname === '/search'")
        assert driver.execute_script("return document.activeElement.id") == "search-input"
        press(driver, "zeta")
    wait_for(driver, "return document.querySelector('.search-result')")
    assert driver.current_url == base + "/search?q=zeta"
    assert status(driver) == "1 result for “zeta”"
    [(href, title, markup)] = results(driver)
    assert (href, title) == ("/projects/alpha-one", "Alpha One")  # the case study holds "zeta"
    assert "<mark>zeta</mark>" in markup  # the word alone, not its punctuation
    if width == 360:  # nothing wider than the phone
        assert driver.execute_script("return document.documentElement.scrollWidth") <= 360
    tab_to(driver, ".search-result a")
    press(driver, Keys.ENTER)
    wait_for(driver, "return location.pathname === '/projects/alpha-one'")

    # A draft's word finds nothing: no draft is indexed.
    driver.get(base + "/search")
    press(driver, DRAFT_WORD)
    wait_for(driver, "return document.querySelector('[data-search-status]').textContent")
    assert status(driver) == f"No results for “{DRAFT_WORD}”"
    assert results(driver) == []
    # The live region is announced; the results are a labelled list.
    region = "return document.querySelector('[data-search-status]').getAttribute('role')"
    assert driver.execute_script(region) == "status"
    assert driver.execute_script("return document.querySelector('label[for=search-input]').textContent")
    assert driver.execute_script("return window.cspViolations") == []
    assert console_errors(driver) == []


@pytest.mark.browser
def test_a_query_in_the_address_and_more_results(base, chromium):
    """/search?q=... searches on arrival; the words of many pages fill the list ten at a time."""
    driver = chromium()
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": RECORD_VIOLATIONS})
    driver.get(base + "/search?q=%C3%BCn%C3%AFcode")  # ünïcode
    wait_for(driver, "return document.querySelector('.search-result')")
    assert driver.execute_script("return document.getElementById('search-input').value") == "ünïcode"
    found = [href for href, _title, _markup in results(driver)]
    assert {"/projects/gamma", "/articles/unicode-post"} <= set(found)  # (and a curl example's URL)
    driver.get(base + "/search?q=heron")
    wait_for(driver, "return document.querySelectorAll('.search-result').length === 10")
    assert status(driver) == "12 results for “heron”"
    tab_to(driver, "[data-search-more]")
    press(driver, Keys.ENTER)
    wait_for(driver, "return document.querySelectorAll('.search-result').length === 12")
    assert driver.execute_script("return document.querySelector('[data-search-more]').hidden")
    # The focus moves to the first new result, where the reader goes on.
    assert driver.execute_script("return document.activeElement.closest('.search-result') === "
                                 "document.querySelectorAll('.search-result')[10]")  # fmt: skip
    assert driver.execute_script("return window.cspViolations") == []


@pytest.mark.browser
def test_without_javascript_the_header_form_still_reaches_the_search_page(base, chromium):
    driver = chromium(javascript=False)
    driver.get(base + "/stack")
    tab_to(driver, "#site-search")
    press(driver, "zeta", Keys.ENTER)
    wait_for(driver, "return location.pathname === '/search'")
    assert driver.current_url == base + "/search?q=zeta"
    assert "needs JavaScript" in driver.find_element("css selector", "main").text


@pytest.mark.browser
def test_a_result_reads_like_a_sentence_of_its_page(base, chromium):
    """The title a link, then whole sentences around the match with "…" where cut, the word
    marked without its punctuation, the tags as tags; a match in a tag does not start the excerpt."""
    driver = chromium()
    driver.get(base + "/search?q=wombatdata")
    wait_for(driver, "return document.querySelector('.search-result')")
    read = (
        "const r = document.querySelector('.search-result'); return ["
        "r.querySelector('h2 a').textContent, r.querySelector('.search-excerpt').textContent,"
        "[...r.querySelectorAll('mark')].map((m) => m.textContent),"
        "[...r.querySelectorAll('.tags li')].map((t) => t.textContent)]"
    )
    title, excerpt, marks, tags = driver.execute_script(read)
    assert title == "Storage notes"
    sentence = "A single file of wombatdata is enough here, and it is backed up nightly."
    assert excerpt.startswith(f"… {sentence}")
    assert excerpt.endswith(" …") and marks == ["wombatdata"] and tags == ["sqlite", "python"]
    assert "sqlite." not in excerpt.lower(), "the tags are not read as sentences"

    driver.get(base + "/search?q=sqlite")  # a tag of the article, no word of its text
    wait_for(driver, "return document.querySelector('.search-result')")
    found = {href: markup for href, _title, markup in results(driver)}
    excerpt = driver.execute_script(
        "return document.querySelector('.search-result a[href=\\'/articles/storage\\']')"
        ".closest('.search-result').querySelector('.search-excerpt').textContent"
    )
    assert "/articles/storage" in found and excerpt.startswith("The first sentence sets the scene")


@pytest.mark.browser
def test_an_excerpt_shows_the_text_as_the_page_shows_it(base, chromium):
    """Pagefind's excerpt escapes < and > but not &, so "&lt;" in it may be either: the excerpt
    shown is the page's own text, with the matched word as the one <mark>."""
    driver = chromium()
    driver.get(base + "/articles/escapes")
    page_text = driver.execute_script("return document.querySelector('.prose, article').innerText")
    assert ESCAPES_SHOWN in " ".join(page_text.split())
    driver.get(base + "/search?q=zygomorph")
    wait_for(driver, "return document.querySelector('.search-result')")
    excerpt = driver.execute_script(
        "const p = document.querySelector('.search-result p:not(.meta)');"
        "return [p.textContent, [...p.querySelectorAll('mark')].map((m) => m.textContent), "
        "p.children.length]"
    )
    assert ESCAPES_SHOWN in excerpt[0] and excerpt[1:] == [["zygomorph"], 1], excerpt
