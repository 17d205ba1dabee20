"""What the authoring server shows a writer: local links, the site's own 404 page with DEBUG on,
and drafts on request (SHOW_DRAFTS), which never reach a list or a machine surface."""

import re

from tests.content_builder import DRAFT_SLUG, DRAFT_TITLE, SITE_URL

from .conftest import body_of, distilled

PAGES = ["/", "/projects", "/projects/alpha-one", "/articles", "/articles/same-day", "/stack", "/developers",
         "/contact", "/contact/thanks", "/404"]  # fmt: skip


def test_links_into_the_site_are_local_except_canonical(get):
    """Pages link to the site's pages and API by path, so they work on the server that serves
    them (authoring, preview, production); only the canonical URL and og:url use SITE_URL."""
    for path in PAGES:
        _, body = get(path, status=404 if path == "/404" else 200)
        absolute = re.findall(rf'<[^>]*(?:href|src|action)="{re.escape(SITE_URL)}[^"]*"[^>]*>', body)
        assert all('rel="canonical"' in tag for tag in absolute), (path, absolute)
    _, body = get("/")
    assert '<a href="/api/v1.json">JSON API</a>' in body
    _, body = get("/developers")
    assert '<a href="/api/v1/projects.json"><code>/api/v1/projects</code></a>' in body
    assert f"curl -s {SITE_URL}/api/v1.json" in body, "the examples still name the real base URL"


def test_unknown_paths_get_the_sites_404_page_with_debug_on_too(imported, client, settings):
    paths = ["/no/such/page", "/projects/no-such-project", f"/articles/{DRAFT_SLUG}", "/static/nope.css"]
    answers = {}
    for debug in (False, True):
        settings.DEBUG = debug
        for path in paths:
            response = client.get(path)
            body = body_of(response)
            assert response.status_code == 404, path
            assert "<h1>Page not found</h1>" in body and "URLconf" not in body, (debug, path)
            # With DEBUG on, pages link the static files' plain names (hashed ones need a rebuild).
            answers.setdefault(path, set()).add(
                re.sub(r"(/static/[^\"]+)\.[0-9a-f]{12}(\.\w+\")", r"\1\2", body)
            )
        response = client.get("/api/v1/projects/no-such-project")
        assert (response.status_code, response.json()) == (404, {"detail": "Not found."})
    assert all(len(bodies) == 1 for bodies in answers.values()), "DEBUG changes nothing"


def test_without_show_drafts_a_draft_has_no_page(imported, client, settings):
    settings.SHOW_DRAFTS = False
    assert client.get(f"/articles/{DRAFT_SLUG}").status_code == 404


def test_show_drafts_renders_a_draft_with_a_banner_and_noindex(imported, client, settings):
    settings.SHOW_DRAFTS = True
    response = client.get(f"/articles/{DRAFT_SLUG}")
    body = body_of(response)
    assert response.status_code == 200 and DRAFT_TITLE in body
    assert '<p class="draft-banner" role="note"><strong>Draft</strong> · not published' in body
    assert '<meta name="robots" content="noindex">' in body
    assert 'rel="canonical"' not in body and 'type="application/json"' not in body
    published = body_of(client.get("/articles/same-day"))
    assert "draft-banner" not in published and 'rel="canonical"' in published
    # Nowhere else: no list, API document, feed, sitemap or llms.txt names it.
    for path, _statuses in distilled():
        if path != f"/articles/{DRAFT_SLUG}":
            text = body_of(client.get(path))
            assert DRAFT_SLUG not in text and DRAFT_TITLE not in text, path
    assert client.get(f"/api/v1/articles/{DRAFT_SLUG}.json").status_code == 404
    assert client.get(f"/api/v1/articles/{DRAFT_SLUG}").status_code == 404
