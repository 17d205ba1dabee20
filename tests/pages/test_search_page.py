"""/search and the header's search form as the authoring server answers them, and the last
build's index it answers /pagefind/ with."""

import json
import re

from .conftest import distilled

HEADER_FORM = re.compile(
    r'<form class="site-search( is-here)?" role="search" action="/search" method="get">\s*'
    r'<label class="visually-hidden" for="site-search">Search the site</label>\s*'
    r'<input id="site-search" type="search" name="q"'
)


def test_every_page_has_the_search_form_hidden_in_its_place_on_the_search_page(get):
    pages = []
    for path, statuses in distilled():
        if statuses == (200,) and not path.startswith("/static/"):
            response, body = get(path)
            if response["Content-Type"].startswith("text/html"):
                pages.append(path)
                # On /search the page's own field takes the words; the header's form keeps its place.
                form = HEADER_FORM.search(body)
                assert form and bool(form.group(1)) == (path == "/search"), path
    assert {"/", "/search", "/projects/alpha-one", "/articles/first-post", "/contact"} <= set(pages)
    _, body = get("/no/such/page", status=404)
    assert not HEADER_FORM.search(body).group(1)


def test_the_search_page(get):
    response, body = get("/search?q=anything")
    # A labelled field that submits to itself without JavaScript, a live region for the count,
    # the list the results go in; its script a file (the CSP allows no inline script).
    assert '<form class="search-form" role="search" action="/search" method="get" data-search-form>' in body
    assert '<label for="search-input">' in body and 'id="search-input" type="search" name="q"' in body
    assert '<p class="search-status" id="search-status" role="status" data-search-status></p>' in body
    assert '<ol class="search-results" aria-label="Results" data-search-results></ol>' in body
    assert re.search(r'<script src="/static/pages/search\.[0-9a-f]{12}\.js" defer></script>', body)
    assert not re.search(r"<script(?![^>]*\b(?:src=|type=\"application/ld\+json\"))", body)
    assert "<noscript>" in body and "style=" not in body


def test_only_the_pages_worth_finding_mark_their_content(get):
    for path in ["/projects/alpha-one", "/articles/first-post", "/stack", "/developers"]:
        assert body_marks(get(path)[1]) == 1, path
    for path in ["/", "/projects", "/articles", "/search", "/contact"]:
        assert body_marks(get(path)[1]) == 0, path


def body_marks(body):
    return body.count("data-pagefind-body")


def test_the_authoring_server_answers_the_last_builds_index(get, client, settings, tmp_path):
    settings.SEARCH_BUILD_DIR = tmp_path / "dist"
    response, body = get("/pagefind/bundles.json")  # no build yet: no bundle, and no error
    assert json.loads(body) == {"bundles": []}
    get("/pagefind/site/pagefind.js", status=404)
    (tmp_path / "dist" / "pagefind" / "site").mkdir(parents=True)
    (tmp_path / "dist" / "pagefind" / "bundles.json").write_text('{"bundles": ["/pagefind/site/"]}')
    (tmp_path / "dist" / "pagefind" / "site" / "pagefind.js").write_text("export {};")
    (tmp_path / "secret.txt").write_text("not the index")
    assert json.loads(get("/pagefind/bundles.json")[1]) == {"bundles": ["/pagefind/site/"]}
    response, body = get("/pagefind/site/pagefind.js")
    assert body == "export {};" and "javascript" in response["Content-Type"]
    client.raise_request_exception = False  # Django refuses a path out of the folder: 400
    assert client.get("/pagefind/%2e%2e/secret.txt").status_code == 400
    assert client.get("/pagefind/site/%2e%2e/%2e%2e/secret.txt").status_code == 400
