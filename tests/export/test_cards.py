"""Social cards: a 1200x630 PNG for each project and published article without its own image, the
page's og:image and twitter:image pointing to it, the same bytes from the same content, and a
title edit making that card alone again."""

import io
import os
import re

import pytest
from django.test import Client
from PIL import Image

from pages import card_drawing
from portfolio.content.importer import import_content
from portfolio.content.models import Site
from portfolio.export.build import build
from tests.content_builder import DRAFT_SLUG, SITE_URL, SITE_YAML, STACK_YAML, article, project, write_content
from tests.media_content import MEDIA_FILES

from .conftest import tree

PROJECTS = ["alpha-one", "beta_two", "delta", "gamma"]
ARTICLES = ["crlf-post", "first-post", "same-day", "unicode-post"]
LONG = "A title far too long for any card " * 8


def meta(page, key):
    found = re.search(rf'<meta (?:property|name)="{re.escape(key)}" content="([^"]*)"', page)
    return found and found.group(1)


def test_each_item_without_an_image_has_a_card_its_page_shows(site, tmp_path):
    out = tmp_path / "site"
    site()
    made = sorted(str(path.relative_to(out / "cards")) for path in (out / "cards").rglob("*.png"))
    assert made == [f"articles/{s}.png" for s in ARTICLES] + [f"projects/{s}.png" for s in PROJECTS]
    assert not (out / "cards" / "articles" / f"{DRAFT_SLUG}.png").exists(), "a draft has no card"
    for kind, slug in [("projects", "gamma"), ("articles", "unicode-post")]:
        image = Image.open(out / "cards" / kind / f"{slug}.png")
        assert (image.format, image.size) == ("PNG", (1200, 630))
        page = (out / kind / f"{slug}.html").read_text()
        card = f"{SITE_URL}/cards/{kind}/{slug}.png"
        assert meta(page, "og:image") == card and meta(page, "twitter:image") == card
        assert (meta(page, "og:image:width"), meta(page, "og:image:height")) == ("1200", "630")
        assert meta(page, "twitter:card") == "summary_large_image"
        assert f'"image": "{card}"' in page, "the JSON-LD names the card too"
    # A page of no item keeps the site's image (here none).
    assert meta((out / "index.html").read_text(), "og:image") is None
    # The same content gives the same cards (a second, full build beside the first).
    first = tree(out / "cards")
    assert tree(site(tmp_path / "two", full=True).out_dir / "cards") == first and len(first) == 8


def test_an_item_with_its_own_image_keeps_it_and_has_no_card(db, settings, tmp_path):
    settings.SITE_URL = ""
    settings.CONTENT_DIR = write_content(tmp_path / "content", MEDIA_FILES)
    settings.MEDIA_CACHE_DIR = tmp_path / "cache"
    out = tmp_path / "site"
    build(out, workers=1, stderr=io.StringIO())
    assert not (out / "cards" / "projects" / "alpha-one.png").exists()
    page = (out / "projects" / "alpha-one.html").read_text()
    assert meta(page, "og:image").startswith(f"{SITE_URL}/media/alpha/")
    assert "/cards/" not in page
    assert (out / "cards" / "projects" / "delta.png").exists()
    assert (
        meta((out / "projects" / "delta.html").read_text(), "og:image")
        == f"{SITE_URL}/cards/projects/delta.png"
    )
    # The authoring server answers no card for it either.
    assert Client().get("/cards/projects/alpha-one.png").status_code == 404
    response = Client().get("/cards/projects/delta.png")
    assert response.status_code == 200 and response["Content-Type"] == "image/png"


def test_a_card_drawn_once_is_read_back_from_the_cache(site, settings, tmp_path):
    settings.MEDIA_CACHE_DIR = tmp_path / "media-cache"
    site(tmp_path / "one")
    kept = sorted((tmp_path / "media-cache" / "cards").rglob("*.png"))
    assert len(kept) == 8, "each card drawn is kept"
    # Drawing twice gives the same bytes: the cache never changes what a build publishes.
    made = (tmp_path / "one" / "cards" / "projects" / "gamma.png").read_bytes()
    assert made == card_drawing.render("Gämma ✓ ünïcode", Site.load().title, "Project")
    # A new output folder reads the kept cards instead of drawing them again.
    for path in kept:
        path.write_bytes(b"kept " + path.name.encode())
    site(tmp_path / "two")
    assert {p.read_bytes()[:5] for p in (tmp_path / "two" / "cards").rglob("*.png")} == {b"kept "}


def test_a_title_edit_makes_that_card_alone_again(site, content_dir, tmp_path):
    out = tmp_path / "site"
    site()
    before = tree(out / "cards")
    inodes = {path: os.stat(out / "cards" / path).st_ino for path in before}
    path = content_dir / "articles" / "same-day.md"
    path.write_text(path.read_text().replace("Same day published", "Same day, a new title"))
    site()
    after = tree(out / "cards")
    changed = sorted(p for p in after if os.stat(out / "cards" / p).st_ino != inodes[p])
    assert changed == ["articles/same-day.png"]
    assert after["articles/same-day.png"] != before["articles/same-day.png"]
    # A new body alone leaves every card be.
    path.write_text(path.read_text().replace("Article body.", "Another body."))
    inodes = {path: os.stat(out / "cards" / path).st_ino for path in after}
    site()
    assert all(os.stat(out / "cards" / p).st_ino == inode for p, inode in inodes.items())


def test_a_long_title_wraps_and_ends_with_an_ellipsis():
    lines = card_drawing.wrap(
        LONG,
        card_drawing.TITLE_SIZE,
        700,
        card_drawing.WIDTH - 2 * card_drawing.MARGIN,
        card_drawing.TITLE_LINES,
    )
    assert len(lines) == card_drawing.TITLE_LINES and lines[-1].endswith("…")
    assert all(
        card_drawing.width(line, card_drawing.TITLE_SIZE, 700) <= card_drawing.WIDTH - 2 * card_drawing.MARGIN
        for line in lines
    )
    assert card_drawing.wrap("Short", card_drawing.TITLE_SIZE, 700, 1040, 4) == ["Short"]
    # A word wider than a line is cut, not lost.
    assert "".join(card_drawing.wrap("x" * 60, card_drawing.TITLE_SIZE, 700, 1040, 4)) == "x" * 60


def test_every_script_and_emoji_draw_with_the_shipped_fonts():
    # Each character finds a font that has it (none falls back to Noto Sans's missing-glyph box).
    for text in [
        "日本語の記事",
        "한국어",
        "中文标题",
        "🚀✨🎉",
        "Ελληνικά",
        "Кириллица",
        "עברית",
        "العربية",
        "हिन्दी",
        "ไทย",
    ]:
        assert all(ord(c) in card_drawing.characters(card_drawing.font_for(c)) for c in text), text
    png = card_drawing.render("静的サイト 🚀 " + LONG, "Ada’s portfolio ✓", "1 January 2026")
    assert Image.open(io.BytesIO(png)).size == (1200, 630)


@pytest.mark.django_db
def test_the_authoring_server_serves_a_card_for_a_long_cjk_and_emoji_title(client, settings, tmp_path):
    title = "日本語のタイトル 🚀 with emoji ✨ " + LONG
    content = write_content(
        tmp_path / "content",
        {
            "site.yaml": SITE_YAML,
            "stack.yaml": STACK_YAML,
            "projects/p.md": project("Plain"),
            "articles/a.md": article(title.replace('"', "")),
        },
    )
    settings.SITE_URL = ""
    settings.CONTENT_DIR = content
    import_content(content, workers=1)
    response = client.get("/cards/articles/a.png")
    assert response.status_code == 200
    assert Image.open(io.BytesIO(response.content)).size == (1200, 630)
    assert client.get("/cards/articles/none.png").status_code == 404
