import pytest
from django_distill.renderer import DistillRenderer

from portfolio.content.importer import import_content
from tests.content_builder import write_content


def body_of(response):
    """The body of any response, streamed (static files) or not, as text; an image's bytes as
    latin-1 (one character each), so a search for ASCII text (a draft's slug) still finds it."""
    data = b"".join(response.streaming_content) if response.streaming else response.content
    return data.decode("latin-1" if response["Content-Type"].startswith("image/") else "utf-8")


def distilled():
    """(path, response status codes the export accepts) of every URL the static export writes."""
    urls = DistillRenderer().get_urls_to_render()
    return [(uri, pattern.distill_status_codes) for pattern, _params, uri in urls]


@pytest.fixture
def crawl(imported, client):
    """{path: (status, body)} of every distilled URL, fetched through the test client."""
    pages = {}
    for path, _statuses in distilled():
        response = client.get(path)
        pages[path] = (response.status_code, body_of(response))
    return pages


@pytest.fixture
def get(imported, client):
    """get(path) -> (response, body text), asserting the status (200 unless told)."""

    def fetch(path, status=200):
        response = client.get(path)
        assert response.status_code == status, (path, response.status_code)
        return response, body_of(response)

    return fetch


@pytest.fixture
def served(db, tmp_path, settings, live_server, shared_cache):
    """A factory for the browser tests: served(files) imports those content files and returns the
    live server's address."""

    def serve(files):
        settings.SITE_URL = live_server.url
        settings.MEDIA_CACHE_DIR = shared_cache
        settings.CONTENT_DIR = write_content(tmp_path / "content", files)
        import_content(settings.CONTENT_DIR, workers=1)
        return live_server.url

    return serve
