"""A content folder with media: the standard test site plus images, references and links."""

from io import BytesIO

import pytest
from PIL import Image

from portfolio.content.importer import import_content

from .content_builder import FILES, SITE_YAML, article, project, write_content


def png(width, height, colour="#2563eb"):
    buffer = BytesIO()
    Image.new("RGB", (width, height), colour).save(buffer, "PNG")
    return buffer.getvalue()


SVG = b'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 320 120"><rect width="320" height="120"/></svg>'

MEDIA_FILES = {
    **FILES,
    "site.yaml": SITE_YAML
    + 'image: site/card.png\nlinks:\n  - name: GitHub\n    url: "https://github.com/example"\n',
    "media/site/card.png": png(1200, 630),
    "media/alpha/cover.png": png(1600, 900),  # wider than the layout: variants
    "media/alpha/small.png": png(300, 200),  # narrower: none
    "media/diagram.svg": SVG,
    "media/.hidden-notes.txt": b"not published",
    "projects/alpha-one.md": project(
        "Alpha One",
        date="2026-03-01",
        featured="true",
        extra='image: alpha/cover.png\nimageAlt: "The alpha cover"\n',
        body="Intro.\n\n![A small shot](../media/alpha/small.png)\n\n![Diagram](/media/diagram.svg)\n\n"
        "Read [the post](../articles/first-post.md#top) or [the other one](/articles/same-day), "
        "[elsewhere](https://example.org/x.md) and [mail](mailto:a@example.org).\n",
    ),
    "articles/first-post.md": article(
        "First post",
        date="2025-01-10",
        tags="[intro, meta]",
        body="![Cover, big](../media/alpha/cover.png)\n\nSee [same day](same-day.md).\n",
    ),
}


@pytest.fixture(scope="module")
def shared_cache(tmp_path_factory):
    """One variant cache for the module: each test's import then resizes nothing."""
    return tmp_path_factory.mktemp("cache")


@pytest.fixture
def media_site(db, tmp_path, settings, shared_cache):
    settings.SITE_URL = ""
    settings.MEDIA_CACHE_DIR = shared_cache
    content = write_content(tmp_path / "content", MEDIA_FILES)
    settings.CONTENT_DIR = content
    import_content(content, workers=1)
    return content
