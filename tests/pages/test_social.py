"""Social cards, JSON-LD, profile links and item images on the human pages."""

import json
import re
from pathlib import Path

import pytest
from django.conf import settings

from .conftest import body_of

SITE = "https://portfolio.test"
PAGES = ["/", "/projects", "/projects/alpha-one", "/projects/beta_two", "/articles", "/articles/first-post",
         "/stack", "/developers", "/contact", "/404"]  # fmt: skip


def meta(page, key):
    found = re.search(rf'<meta (?:property|name)="{re.escape(key)}" content="([^"]*)"', page)
    return found[1] if found else None


def json_ld(page):
    blocks = re.findall(r'<script type="application/ld\+json">(.*?)</script>', page, re.S)
    assert len(blocks) == 1
    return {node["@type"]: node for node in json.loads(blocks[0])["@graph"]}


@pytest.fixture
def pages(media_site, client):
    found = {}
    for path in PAGES:
        response = client.get(path)
        assert response.status_code == (404 if path == "/404" else 200), path
        found[path] = body_of(response)
    return found


def test_every_page_has_a_social_card_with_a_served_image(pages, client):
    for path, page in pages.items():
        assert meta(page, "og:title") and meta(page, "og:description"), path
        assert meta(page, "twitter:card") == "summary_large_image", path
        image = meta(page, "og:image")
        assert image.startswith((SITE + "/media/", SITE + "/cards/")), path
        assert meta(page, "twitter:image") == image, path
        assert client.get(image.removeprefix(SITE)).status_code == 200, path
    assert meta(pages["/projects/alpha-one"], "og:image") == f"{SITE}/media/alpha/cover.png"
    assert meta(pages["/projects/alpha-one"], "og:image:alt") == "The alpha cover"
    # An item with no image of its own has its generated card (pages/cards.py); a page of no item
    # the site's image.
    assert meta(pages["/projects/beta_two"], "og:image") == f"{SITE}/cards/projects/beta_two.png"
    assert meta(pages["/projects/beta_two"], "og:image:alt") == "Beta Two"
    assert meta(pages["/articles/first-post"], "og:image") == f"{SITE}/cards/articles/first-post.png"
    assert meta(pages["/stack"], "og:image") == f"{SITE}/media/site/card.png"
    assert meta(pages["/"], "og:image:width") == "1200"


def test_without_any_image_the_card_is_a_summary(imported, client):
    page = body_of(client.get("/stack"))  # no item, no site image
    assert meta(page, "twitter:card") == "summary"
    assert meta(page, "og:image") is None
    page = body_of(client.get("/projects/alpha-one"))  # an item: its generated card
    assert meta(page, "twitter:card") == "summary_large_image"
    assert meta(page, "og:image").endswith("/cards/projects/alpha-one.png")


def test_json_ld_describes_the_owner_site_and_item(pages):
    for path, page in pages.items():
        nodes = json_ld(page)
        assert nodes["Person"]["name"] == "Test Author", path
        assert nodes["Person"]["sameAs"] == ["https://github.com/example"]
        assert nodes["WebSite"]["url"] == f"{SITE}/" and nodes["WebSite"]["name"] == "Test Portfolio"
    post = json_ld(pages["/articles/first-post"])["BlogPosting"]
    assert post["headline"] == "First post" and post["datePublished"] == "2025-01-10"
    assert post["author"]["name"] == "Test Author" and post["url"] == f"{SITE}/articles/first-post"
    code = json_ld(pages["/projects/alpha-one"])["SoftwareSourceCode"]
    assert code["name"] == "Alpha One" and code["codeRepository"] == "https://github.com/example/project"
    assert code["image"] == f"{SITE}/media/alpha/cover.png" and code["url"] == f"{SITE}/projects/alpha-one"
    assert set(json_ld(pages["/stack"])) == {"Person", "WebSite"}


def test_profile_links_are_rel_me(pages):
    for path, page in pages.items():
        assert '<a href="https://github.com/example" rel="me">GitHub</a>' in page, path


def test_cards_and_pages_show_the_item_image_with_its_size(pages):
    card = re.search(r'<img class="card-image"[^>]*>', pages["/projects"])[0]
    assert 'src="/media/alpha/cover.png"' in card and 'width="1600" height="900"' in card
    assert 'alt="The alpha cover"' in card and "srcset=" in card
    assert 'fetchpriority="high"' in card and "loading=" not in card  # the list's first picture
    hero = re.search(r'<img class="page-image"[^>]*>', pages["/projects/alpha-one"])[0]
    assert 'fetchpriority="high"' in hero and "loading=" not in hero


def test_media_is_served_and_nothing_else(media_site, client):
    response = client.get("/media/alpha/small.png")
    assert response.status_code == 200 and response["Content-Type"] == "image/png"
    assert b"".join(response.streaming_content) == (media_site / "media/alpha/small.png").read_bytes()
    srcset = re.search(r'srcset="([^"]*)"', body_of(client.get("/projects/alpha-one")))[1]
    variant = srcset.split(",")[0].split()[0]
    assert client.get(variant).status_code == 200 and client.get(variant)["Content-Type"] == "image/webp"
    # A variant in the cache that no published image has (an older version of an image, another
    # width of this one) is not served.
    key, width = variant.removeprefix("/media/_v/").removesuffix(".webp").split("-")
    cache = Path(settings.MEDIA_CACHE_DIR)
    (cache / f"{'0' * 20}-{width}.webp").write_bytes(b"stale")
    (cache / f"{key}-7.webp").write_bytes(b"not a width of it")
    for path in (
        "/media/.hidden-notes.txt",
        "/media/nope.png",
        "/media/_v/nope-480.webp",
        f"/media/_v/{'0' * 20}-{width}.webp",
        f"/media/_v/{key}-7.webp",
        f"/media/_v/{key}-0{width}.webp",
        "/media/../site.yaml",
    ):
        assert client.get(path).status_code == 404, path
