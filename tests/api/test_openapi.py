"""/openapi.json: a valid OpenAPI 3.1 document that says exactly what the spec says."""

import pytest
from openapi_spec_validator import validate

from api import openapi

SIX = ["getApiIndex", "listProjects", "getProject", "listArticles", "getArticle", "getStack"]
CANONICAL = {
    "/api/v1": "getApiIndex",
    "/api/v1/projects": "listProjects",
    "/api/v1/projects/{slug}": "getProject",
    "/api/v1/articles": "listArticles",
    "/api/v1/articles/{slug}": "getArticle",
    "/api/v1/stack": "getStack",
}

# The spec's tables: (required members, optional members) of each object.
OBJECTS = {
    "ProjectListItem": (
        {
            "slug", "title", "tagline", "description", "github", "status", "stack", "featured",
            "date", "url", "apiUrl",
        },
        set(),
    ),
    "ArticleListItem": ({"slug", "title", "description", "date", "tags", "url", "apiUrl"}, set()),
    "Stack": ({"lastUpdated", "currentFocus", "models", "dailyDrivers", "url"}, set()),
    "Model": ({"name", "type", "description"}, {"url"}),
    "DailyDriver": ({"tool", "role", "status"}, {"url"}),
    "ProjectList": ({"count", "projects"}, set()),
    "ArticleList": ({"count", "articles"}, set()),
    "ApiIndex": (
        {
            "name", "version", "description", "site", "documentation", "openapi", "llmsTxt",
            "pathNote", "endpoints", "humanPages", "contact",
        },
        set(),
    ),
    "Endpoints": ({"projects", "articles", "stack", "index"}, set()),
    "CollectionEndpoints": ({"list", "listJson", "item", "itemJson"}, set()),
    "ArticleEndpoints": ({"list", "listJson", "item", "itemJson", "note"}, set()),
    "SingleEndpoint": ({"get", "getJson"}, set()),
    "HumanPages": ({"home", "projects", "articles", "stack", "contact", "feed", "sitemap"}, set()),
    "Contact": ({"formPage", "post", "note"}, set()),
    "Error": ({"detail"}, set()),
}  # fmt: skip
OBJECTS["ProjectDetail"] = (OBJECTS["ProjectListItem"][0] | {"body", "caseStudy"}, set())
OBJECTS["ArticleDetail"] = (OBJECTS["ArticleListItem"][0] | {"body"}, set())

ENUMS = {
    ("ProjectListItem", "status"): ["active", "reference", "experimental"],
    ("Model", "type"): ["subscription", "local"],
    ("DailyDriver", "status"): ["daily", "exploring"],
    ("ApiIndex", "version"): ["v1"],
}
FORMATS = {
    "date": [("ProjectListItem", "date"), ("ArticleListItem", "date"), ("Stack", "lastUpdated")],
    "uri": [
        ("ProjectListItem", "github"), ("ProjectListItem", "url"), ("ProjectListItem", "apiUrl"),
        ("ArticleListItem", "url"), ("ArticleListItem", "apiUrl"), ("Stack", "url"),
        ("Model", "url"), ("DailyDriver", "url"), ("ApiIndex", "site"), ("ApiIndex", "openapi"),
        ("ApiIndex", "documentation"), ("ApiIndex", "llmsTxt"), ("HumanPages", "feed"),
        ("Contact", "formPage"), ("Contact", "post"), ("SingleEndpoint", "getJson"),
        ("CollectionEndpoints", "list"),
    ],
    "uri-template": [("CollectionEndpoints", "item"), ("CollectionEndpoints", "itemJson")],
}  # fmt: skip


@pytest.fixture
def served(imported, client):
    response = client.get("/openapi.json")
    assert response.status_code == 200 and response["Content-Type"] == "application/json"
    return response


def resolve(document, schema):
    while "$ref" in schema:
        schema = document["components"]["schemas"][schema["$ref"].rsplit("/", 1)[1]]
    return schema


def test_is_a_valid_openapi_3_1_document(served):
    document = served.json()
    validate(document)
    assert document["openapi"].startswith("3.1.")
    assert document["info"]["version"] == "1.0.0"
    assert document["info"]["title"] == "Test Portfolio API"
    assert document["servers"] == [{"url": "https://portfolio.test", "description": "The published site"}]


def test_servers_follow_site_url_not_the_request(imported, client, settings):
    settings.SITE_URL = "https://example.org"
    client.defaults["HTTP_HOST"] = "localhost"
    assert client.get("/openapi.json").json()["servers"][0]["url"] == "https://example.org"


def test_same_bytes_every_time(served, imported, client):
    assert openapi.render(openapi.generate()) == served.content == client.get("/openapi.json").content


def test_the_six_operations_in_both_path_forms(document):
    operations = {
        path: {method: op["operationId"] for method, op in item.items()}
        for path, item in document["paths"].items()
    }
    expected = {path: {"get": op_id} for path, op_id in CANONICAL.items()}
    expected |= {f"{path}.json": {"get": f"{op_id}Json"} for path, op_id in CANONICAL.items()}
    assert operations == expected
    assert sorted(CANONICAL.values()) == sorted(SIX)


def test_every_operation_answers_json_and_only_slug_operations_document_a_404(document):
    for path, item in document["paths"].items():
        responses = item["get"]["responses"]
        assert set(responses) == ({"200", "404"} if "{slug}" in path else {"200"}), path
        for response in responses.values():
            assert list(response["content"]) == ["application/json"]
            assert response["description"]
        if "{slug}" in path:
            (parameter,) = item["get"]["parameters"]
            assert parameter["in"] == "path" and parameter["name"] == "slug" and parameter["required"]
            assert parameter["schema"]["type"] == "string"


def test_the_contact_route_is_only_described_as_out_of_scope(document):
    assert not any("contact" in path for path in document["paths"])
    description = document["info"]["description"]
    assert "POST /api/contact" in description and "not an integration endpoint" in description


@pytest.mark.parametrize("name", sorted(OBJECTS))
def test_objects_have_exactly_the_spec_members_and_reject_others(document, name):
    schema = document["components"]["schemas"][name]
    required, optional = OBJECTS[name]
    assert schema["type"] == "object"
    assert set(schema["properties"]) == required | optional
    assert set(schema["required"]) == required
    assert schema["additionalProperties"] is False


def test_case_study_is_the_one_open_map_of_strings(document):
    schema = document["components"]["schemas"]["ProjectDetail"]["properties"]["caseStudy"]
    assert schema == {"type": "object", "additionalProperties": {"type": "string"}}
    open_objects = []

    def walk(node, where):
        if isinstance(node, dict):
            if node.get("type") == "object" and node.get("additionalProperties") is not False:
                open_objects.append(where)
            for key, value in node.items():
                walk(value, f"{where}/{key}")
        elif isinstance(node, list):
            for index, value in enumerate(node):
                walk(value, f"{where}/{index}")

    walk(document, "")
    assert open_objects == ["/components/schemas/ProjectDetail/properties/caseStudy"]


@pytest.mark.parametrize("where, values", ENUMS.items())
def test_enums(document, where, values):
    name, field = where
    schema = resolve(document, document["components"]["schemas"][name]["properties"][field])
    assert schema == {"type": "string", "enum": values}


@pytest.mark.parametrize("fmt, where", [(fmt, where) for fmt, places in FORMATS.items() for where in places])
def test_formats(document, fmt, where):
    name, field = where
    assert document["components"]["schemas"][name]["properties"][field] == {"type": "string", "format": fmt}


def test_a_read_view_without_an_operation_is_refused_by_name():
    from django.core.exceptions import ImproperlyConfigured

    from api.serializers import ErrorSerializer
    from api.views import ReadView

    class Undescribed(ReadView):
        serializer_class = ErrorSerializer

    with pytest.raises(ImproperlyConfigured, match="Undescribed declares no `operation`"):
        Undescribed().schema.get_operation_id()
