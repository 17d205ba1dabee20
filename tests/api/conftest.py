import pytest

from api import openapi
from api.schema_check import ResponseCheck
from tests.content_builder import DRAFT_SLUG

PROJECT_SLUGS = ["alpha-one", "gamma", "beta_two", "delta"]  # newest first, then slug
ARTICLE_SLUGS = ["unicode-post", "crlf-post", "same-day", "first-post"]  # published ones only

# Every GET address of the API for the standard test content, in its canonical form.
CANONICAL_PATHS = [
    "/api/v1",
    "/api/v1/projects",
    *[f"/api/v1/projects/{slug}" for slug in PROJECT_SLUGS],
    "/api/v1/articles",
    *[f"/api/v1/articles/{slug}" for slug in ARTICLE_SLUGS],
    "/api/v1/stack",
]
ALL_PATHS = CANONICAL_PATHS + [f"{path}.json" for path in CANONICAL_PATHS]
MISSING_PATHS = [
    f"/api/v1/articles/{DRAFT_SLUG}",
    f"/api/v1/articles/{DRAFT_SLUG}.json",
    "/api/v1/projects/no-such-project",
    "/api/v1/projects/no-such-project.json",
    "/api/v1/articles/no-such-article",
    "/api/v1/articles/no-such-article.json",
]


@pytest.fixture
def get_json(imported, client):
    """GET a path of the API: asserts a 200 JSON answer and returns the decoded body."""

    def get(path):
        response = client.get(path)
        assert response.status_code == 200, (path, response.content)
        assert response["Content-Type"] == "application/json"
        return response.json()

    return get


@pytest.fixture
def document(imported):
    return openapi.generate()


@pytest.fixture
def check(document):
    return ResponseCheck(document)
