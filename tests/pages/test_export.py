"""The surfaces as the static export renders them: through the build's internal request
(portfolio/export/render.py), whose scheme and host are not the site's. Every absolute URL must
still come from base_url."""

from django_distill.renderer import DistillRenderer

from portfolio.export.plan import targets
from portfolio.export.render import get
from tests.content_builder import DRAFT_SLUG, DRAFT_TITLE, SITE_URL


def test_export_takes_absolute_urls_from_base_url(imported):
    for target in targets():
        status, body = get(target.uri)
        assert status in target.status_codes, target.uri
        text = body.decode("latin-1")  # what is looked for is ASCII; images are bytes
        for wrong in ["None://", "//localhost", "testserver", "http://portfolio.test"]:
            assert wrong not in text, (target.uri, wrong)
        assert DRAFT_SLUG not in text and DRAFT_TITLE not in text, target.uri
        if target.uri.endswith((".xml", ".txt")):
            assert SITE_URL in text, target.uri


def test_export_file_names(imported):
    files = {}
    with DistillRenderer() as renderer:
        for pattern, params, uri in renderer.get_urls_to_render():
            files[uri] = pattern.distill_file.format(*params)
    assert files["/"] == "index.html"
    assert files["/404"] == "404.html"
    assert files["/feed.xml"] == "feed.xml" and files["/sitemap-pages.xml"] == "sitemap-pages.xml"
    site_css = next(uri for uri in files if uri.startswith("/static/pages/site."))
    assert files[site_css] == site_css.lstrip("/")
    assert files["/projects/alpha-one.md"] == "projects/alpha-one.md"
    assert files["/llms-full.txt"] == "llms-full.txt"
    assert files["/.well-known/api-catalog"] == ".well-known/api-catalog"
