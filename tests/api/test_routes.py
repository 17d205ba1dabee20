"""Both path forms, the named routes, and the authoring server's 404 and 405 answers."""

import pytest
from django.test import Client
from django.urls import resolve, reverse

from .conftest import CANONICAL_PATHS, MISSING_PATHS

NOT_FOUND = b'{"detail":"Not found."}'


@pytest.mark.parametrize("path", CANONICAL_PATHS)
def test_both_path_forms_answer_the_same_bytes(imported, client, path):
    canonical, static = client.get(path), client.get(f"{path}.json")
    assert canonical.status_code == static.status_code == 200
    assert canonical["Content-Type"] == static["Content-Type"] == "application/json"
    assert canonical.content == static.content


@pytest.mark.parametrize(
    "name, kwargs, path",
    [
        ("api:index", {}, "/api/v1"),
        ("api:index-json", {}, "/api/v1.json"),
        ("api:projects", {}, "/api/v1/projects"),
        ("api:projects-json", {}, "/api/v1/projects.json"),
        ("api:project", {"slug": "beta_two"}, "/api/v1/projects/beta_two"),
        ("api:project-json", {"slug": "beta_two"}, "/api/v1/projects/beta_two.json"),
        ("api:articles", {}, "/api/v1/articles"),
        ("api:articles-json", {}, "/api/v1/articles.json"),
        ("api:article", {"slug": "first-post"}, "/api/v1/articles/first-post"),
        ("api:article-json", {"slug": "first-post"}, "/api/v1/articles/first-post.json"),
        ("api:stack", {}, "/api/v1/stack"),
        ("api:stack-json", {}, "/api/v1/stack.json"),
        ("api:openapi", {}, "/openapi.json"),
    ],
)
def test_named_routes_round_trip(name, kwargs, path):
    assert reverse(name, kwargs=kwargs) == path
    match = resolve(path)
    assert (match.view_name, match.kwargs) == (name, kwargs)


@pytest.mark.parametrize("path", ["/api/v1/", "/api/v1/projects/", "/api/v1.json/", "/openapi.json/"])
def test_no_trailing_slash_forms(imported, client, path):
    assert client.get(path).status_code == 404


@pytest.mark.parametrize("path", MISSING_PATHS + ["/api/v1/nothing", "/api/v1/projects/Not.A.Slug"])
def test_unknown_or_draft_addresses_get_a_json_404(imported, client, path):
    response = client.get(path)
    assert response.status_code == 404
    assert response["Content-Type"] == "application/json"
    assert response.content == NOT_FOUND


@pytest.mark.parametrize("method", ["post", "put", "patch", "delete"])
@pytest.mark.parametrize(
    "path", ["/api/v1", "/api/v1/projects.json", "/api/v1/articles/first-post", "/openapi.json"]
)
def test_other_methods_get_405_with_allow_not_a_csrf_403(imported, method, path):
    client = Client(enforce_csrf_checks=True)
    response = getattr(client, method)(path, data="{}", content_type="application/json")
    assert response.status_code == 405
    assert response["Allow"] == "GET, HEAD, OPTIONS"
    assert response.json() == {"detail": f'Method "{method.upper()}" not allowed.'}


def test_head_and_options(imported, client):
    head = client.head("/api/v1/projects")
    assert head.status_code == 200 and head.content == b""
    options = client.options("/api/v1/projects")
    assert options.status_code == 200 and options["Allow"] == "GET, HEAD, OPTIONS"
    assert options.content == b""


def test_json_whatever_the_request_asks_for(imported, client):
    expected = client.get("/api/v1/stack").content
    for response in [
        client.get("/api/v1/stack", HTTP_ACCEPT="text/html"),
        client.get("/api/v1/stack?format=api"),
    ]:
        assert response.status_code == 200
        assert response["Content-Type"] == "application/json"
        assert response.content == expected
