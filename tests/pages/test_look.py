"""The phone look, in headless Chromium from a live server: the stack's tools table reflows on a
phone, list thumbnails show a wide image whole, each page's first picture alone is fetched at
once and first, and pictures are dimmed in the dark theme only."""

import pytest
from selenium.common.exceptions import TimeoutException
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from tests.content_builder import FILES, UNICODE_POST_BODY, article, project
from tests.media_content import png

from .test_browser import prefer, viewport

pytestmark = pytest.mark.browser

LONG_TOOL = "sentence_transformers_all_MiniLM_L6_v2_quantised"  # no break opportunity at all
LONG_ROLE = "Retrieval-augmented generation experiments, evaluated every night against held-out questions"
STACK_YAML = f"""lastUpdated: 2026-10-01
currentFocus: "Testing the look"
models:
  - name: "Local"
    type: local
    description: "A local model"
dailyDrivers:
  - tool: "{LONG_TOOL}"
    role: "{LONG_ROLE}"
    url: "https://tool.example"
    status: exploring
  - tool: "A notebook and a pencil"
    role: "Design before code"
    status: daily
"""
WIDE = 'image: wide.png\nimageAlt: "A wide diagram"\n'
COVER = 'image: cover.png\nimageAlt: "A cover"\n'
LOOK_FILES = {
    **FILES,
    "stack.yaml": STACK_YAML,
    "media/wide.png": png(1200, 300, "#eef2f8"),  # a light diagram, four times as wide as tall
    "media/cover.png": png(1600, 900),
    # The first featured project (home) and the first card of /projects: a wide image.
    "projects/alpha-one.md": project(
        "Alpha One",
        date="2026-03-01",
        featured="true",
        extra=WIDE,
        body="Intro.\n\n![In the body](../media/cover.png)\n",
    ),
    "projects/beta_two.md": project("Beta Two", date="2025-06-30", featured="true", extra=COVER),
    # The newest article (first on /articles): a wide image; the next one a 16:9 one.
    "articles/unicode-post.md": article(
        "Ünïcode ✓ 日本語", date="2026-05-05", extra=WIDE, body=UNICODE_POST_BODY
    ),
    "articles/same-day.md": article("Same day published", date="2026-04-04", extra=COVER),
    # No image of its own, a body that opens with one: that one is the page's first picture.
    "articles/first-post.md": article(
        "First post", date="2025-01-10", body="![Opening](../media/cover.png)\n\nText.\n"
    ),
}
# (path, what the page's first picture is): every page type with pictures, and one without.
PAGES = [
    ("/", "the first featured project's card"),
    ("/projects", "the first project's card"),
    ("/articles", "the newest article's thumbnail"),
    ("/projects/alpha-one", "the project's own image"),
    ("/articles/unicode-post", "the article's own image"),
    ("/articles/first-post", "the image opening the body"),
    ("/stack", None),
]


@pytest.fixture
def site(served):
    return served(LOOK_FILES)


@pytest.fixture
def driver(chromium):
    return chromium()


CELLS = """
const table = document.querySelector("table.drivers"), box = table.parentElement;
return {
  table: table.getBoundingClientRect().width, box: box.clientWidth, boxScroll: box.scrollWidth,
  display: getComputedStyle(table).display,
  clipped: [...table.querySelectorAll("tbody :is(th, td)")]
    .filter((cell) => cell.scrollWidth > cell.clientWidth)
    .map((cell) => `${cell.textContent.trim()}: ${cell.scrollWidth} > ${cell.clientWidth}`),
  text: table.innerText,
};
"""


def accessible(driver):
    """(role, name) of each node of Chromium's accessibility tree: what a screen reader gets."""
    nodes = driver.execute_cdp_cmd("Accessibility.getFullAXTree", {})["nodes"]
    return [
        (node["role"]["value"], node.get("name", {}).get("value"))
        for node in nodes
        if not node.get("ignored")
    ]


def test_the_stack_table_reflows_on_a_phone_and_stays_a_table(site, driver):
    for width in (360, 768, 1280):
        viewport(driver, width)
        driver.get(site + "/stack")
        found = driver.execute_script(CELLS)
        assert found["clipped"] == [], (width, found["clipped"])
        assert found["table"] <= found["box"] + 0.5 and found["boxScroll"] <= found["box"], (width, found)
        # Everything is shown: the long tool, its whole role and its status, under their labels.
        for text in (LONG_TOOL, LONG_ROLE, "Exploring", "Daily"):
            assert text.lower() in found["text"].lower(), (width, text)
        assert found["display"] == ("block" if width == 360 else "table"), width
        if width == 360:  # each cell says what it is, the header row being out of sight
            assert "ROLE" in found["text"] and "STATUS" in found["text"]
            header = driver.find_element(By.CSS_SELECTOR, "table.drivers thead")
            assert header.size["height"] <= 1
        nodes = accessible(driver)
        roles = [role for role, _ in nodes]
        assert roles.count("table") == 1 and roles.count("row") == 3, (width, roles)
        assert [name for role, name in nodes if role == "columnheader"] == ["TOOL", "ROLE", "STATUS"], width
        assert [name for role, name in nodes if role == "rowheader"] == [LONG_TOOL, "A notebook and a pencil"]
        # A cell is named by its content alone: its visible label is not read twice.
        cells = [name for role, name in nodes if role == "cell"]
        assert cells == [LONG_ROLE, "Exploring", "Design before code", "Daily"], (width, cells)


# What of an image is drawn in its box, from its object-fit and its own proportions (its
# width and height attributes: a lazy image may not be loaded yet).
DRAWN = """
return [...document.querySelectorAll(arguments[0])].map((img) => {
  const style = getComputedStyle(img), rect = img.getBoundingClientRect();
  const px = (...names) => names.reduce((sum, name) => sum + parseFloat(style[name]), 0);
  const width = rect.width - px("borderLeftWidth", "borderRightWidth", "paddingLeft", "paddingRight");
  const height = rect.height - px("borderTopWidth", "borderBottomWidth", "paddingTop", "paddingBottom");
  const w = +img.getAttribute("width"), h = +img.getAttribute("height");
  const fits = {contain: Math.min(width / w, height / h), cover: Math.max(width / w, height / h), none: 1,
                "scale-down": Math.min(1, width / w, height / h)};
  const fit = style.objectFit;
  const distorted = fit === "fill" && Math.abs(width / height - w / h) > 0.02;
  const scale = fits[fit] ?? Math.min(width / w, height / h);
  const cropped = w * scale > width + 0.5 || h * scale > height + 0.5;
  return {src: img.getAttribute("src"), fit, cropped, distorted, width, height};
});
"""


@pytest.mark.parametrize("width", [360, 1280])
def test_list_thumbnails_show_a_wide_image_whole(site, driver, width):
    viewport(driver, width)
    for path, selector in [
        ("/", ".card img, .entries img"),
        ("/projects", ".card img"),
        ("/articles", ".entries img"),
    ]:
        driver.get(site + path)
        drawn = driver.execute_script(DRAWN, selector)
        wide = [image for image in drawn if image["src"] == "/media/wide.png"]
        assert wide, (path, drawn)
        for image in drawn:
            assert not image["cropped"] and not image["distorted"], (path, width, image)


PICTURES = """
return [...document.images].map((img) => {
  const rect = img.getBoundingClientRect();
  return {src: img.getAttribute("src"), high: img.getAttribute("fetchpriority") === "high",
          lazy: img.getAttribute("loading") === "lazy", top: rect.top + scrollY};
});
"""


@pytest.mark.parametrize("width", [360, 1280])
def test_the_first_picture_alone_is_fetched_at_once_and_first(site, driver, width):
    viewport(driver, width)
    for path, first in PAGES:
        driver.get(site + path)
        pictures = driver.execute_script(PICTURES)
        high = [p for p in pictures if p["high"]]
        if first is None:
            assert high == [] and all(p["lazy"] for p in pictures), path
            continue
        assert high == [pictures[0]], f"{path}: {first} should be the one fetched first ({pictures})"
        assert not pictures[0]["lazy"] and all(p["lazy"] for p in pictures[1:]), (path, pictures)
        # It is the first in reading order, and within the first screen at 1280 px.
        assert pictures[0]["top"] == min(p["top"] for p in pictures), (path, pictures)
        if width == 1280:
            assert pictures[0]["top"] < driver.execute_script("return innerHeight"), (path, first)


DIM = "brightness(0.9)"


def pictures_become(driver, expected):
    """Wait until every picture in <main> has the filter `expected` (it changes with a short
    transition), and say whether it did."""
    script = "return [...document.querySelectorAll('main img')].map((img) => getComputedStyle(img).filter)"
    try:
        WebDriverWait(driver, 3).until(lambda d: set(d.execute_script(script)) == {expected})
    except TimeoutException:
        return False
    return True


def test_pictures_are_dimmed_in_the_dark_theme_only(site, driver):
    viewport(driver, 1280)
    prefer(driver, "light")
    driver.get(site + "/")
    assert pictures_become(driver, "none")
    prefer(driver, "dark")  # the device's dark theme
    assert pictures_become(driver, DIM)
    assert driver.find_element(By.CSS_SELECTOR, ".site-logo").value_of_css_property("filter") == "none"

    # Under the pointer, a picture is whole again.
    picture = driver.find_element(By.CSS_SELECTOR, "main img")
    ActionChains(driver).move_to_element(picture).perform()
    WebDriverWait(driver, 3).until(lambda d: picture.value_of_css_property("filter") == "none")
    ActionChains(driver).move_by_offset(0, -300).perform()
    WebDriverWait(driver, 3).until(lambda d: picture.value_of_css_property("filter") == DIM)
    # And with the keyboard's focus on its card's link.
    driver.execute_script("document.querySelector('.card h3 a').focus()")
    WebDriverWait(driver, 3).until(lambda d: picture.value_of_css_property("filter") == "none")
    driver.execute_script("document.activeElement.blur()")

    # The visitor's choice wins over the device's, both ways (the toggle: system, light, dark).
    toggle = driver.find_element(By.CSS_SELECTOR, "[data-theme-toggle]")
    toggle.click()  # light on a dark device
    assert pictures_become(driver, "none")
    prefer(driver, "light")
    toggle.click()  # dark on a light device
    assert pictures_become(driver, DIM)
    driver.get(site + "/articles/first-post")  # remembered, on a picture in a body
    assert pictures_become(driver, DIM)
