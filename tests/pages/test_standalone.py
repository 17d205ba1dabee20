"""Standalone pages (content/pages/<slug>.md) at /<slug>: imported by the real importer into
SQLite, read through the test client."""

import pytest

from portfolio.content.importer import import_content
from portfolio.content.models import Page
from tests.content_builder import FILES, write_content

ABOUT = """---
title: "About me"
description: "Who writes this site."
nav: true
order: 2
aliases: [about-me, "/who-am-i/"]
---
I write [articles](../articles/first-post.md) and keep [a colophon](colophon.md).
"""
COLOPHON = """---
title: "Colophon"
description: "How the site is made."
---
Built from markdown. See [about](../pages/about.md).
"""
WITH_PAGES = {**FILES, "pages/about.md": ABOUT, "pages/colophon.md": COLOPHON}


@pytest.fixture
def pages_site(db, tmp_path, settings):
    settings.SITE_URL = ""
    settings.CONTENT_DIR = write_content(tmp_path / "content", WITH_PAGES)
    import_content(settings.CONTENT_DIR, workers=1)
    return settings.CONTENT_DIR


def test_page_is_served_at_its_slug(pages_site, client):
    response = client.get("/about")
    assert response.status_code == 200
    html = response.content.decode()
    assert "<h1>About me</h1>" in html
    assert 'href="/articles/first-post"' in html
    assert 'href="/colophon"' in html
    assert Page.objects.get(slug="about").nav is True
