"""Every answer of the API validates against its operation's schema in /openapi.json (JSON Schema
2020-12, $refs resolved, formats checked), and that check does catch drift."""

import copy
import subprocess
import sys

import pytest
from django.conf import settings

from api.schema_check import FORMATS, ResponseCheck, SchemaCheck

from .conftest import ALL_PATHS, MISSING_PATHS


@pytest.mark.parametrize("path", ALL_PATHS)
def test_every_response_matches_its_operation(imported, client, check, path):
    response = client.get(path)
    assert check.errors(path, response.json(), status=response.status_code) == []


@pytest.mark.parametrize("path", MISSING_PATHS)
def test_every_404_matches_its_operation(imported, client, check, path):
    response = client.get(path)
    assert response.status_code == 404
    assert check.errors(path, response.json(), status=404) == []


def test_paths_map_to_their_templates(check):
    assert check.template("/api/v1.json") == "/api/v1.json"
    assert check.template("/api/v1/projects/alpha-one") == "/api/v1/projects/{slug}"
    assert check.template("/api/v1/projects/alpha-one.json") == "/api/v1/projects/{slug}.json"
    with pytest.raises(LookupError):
        check.template("/api/v2")
    with pytest.raises(LookupError):
        check.schema("/api/v1/stack", status=404)


# Each mutation breaks a response in one way the contract forbids; the check must say where.
MUTATIONS = {
    "extra member": ("/api/v1/projects/alpha-one", lambda d: d.update(extra=1), "Additional properties"),
    "missing member": (
        "/api/v1/articles/crlf-post",
        lambda d: d.pop("body"),
        "'body' is a required property",
    ),
    "extra member in a list item": (
        "/api/v1/articles.json",
        lambda d: d["articles"][0].update(body="x"),
        "Additional properties",
    ),
    "missing member in a list item": (
        "/api/v1/projects",
        lambda d: d["projects"][1].pop("apiUrl"),
        "'apiUrl' is a required property",
    ),
    "null instead of an absent url": (
        "/api/v1/stack",
        lambda d: d["models"][1].update(url=None),
        "None is not of type 'string'",
    ),
    "count as a boolean": (
        "/api/v1/projects",
        lambda d: d.update(count=True),
        "True is not of type 'integer'",
    ),
    "empty url": ("/api/v1/stack", lambda d: d["dailyDrivers"][1].update(url=""), "is not a 'uri'"),
    "status outside its enum": (
        "/api/v1/projects/gamma",
        lambda d: d.update(status="archived"),
        "'archived' is not one of",
    ),
    "date with a time": (
        "/api/v1/articles",
        lambda d: d["articles"][0].update(date="2026-05-05T00:00:00Z"),
        "date",
    ),
    "relative uri": ("/api/v1", lambda d: d["humanPages"].update(feed="/feed.xml"), "is not a 'uri'"),
    "unclosed uri template": (
        "/api/v1",
        lambda d: d["endpoints"]["articles"].update(item="https://x.example/articles/{slug"),
        "is not a 'uri-template'",
    ),
    "case study value not a string": (
        "/api/v1/projects/alpha-one",
        lambda d: d["caseStudy"].update(zeta=1),
        "1 is not of type 'string'",
    ),
}


@pytest.mark.parametrize("mutation", MUTATIONS)
def test_drift_is_caught(imported, client, check, mutation):
    path, mutate, message = MUTATIONS[mutation]
    document = client.get(path).json()
    assert check.errors(path, document) == []
    broken = copy.deepcopy(document)
    mutate(broken)
    errors = check.errors(path, broken)
    assert errors and message in errors[0], errors


def test_recursive_references_are_checked_too():
    """References are inlined for speed; one that refers to itself must stay a reference."""
    node = {
        "type": "object",
        "properties": {
            "name": {"type": "string"},
            "children": {"type": "array", "items": {"$ref": "#/components/schemas/Node"}},
        },
        "additionalProperties": False,
    }
    document = {
        "paths": {
            "/tree": {
                "get": {
                    "responses": {
                        "200": {
                            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Node"}}}
                        }
                    }
                }
            }
        },
        "components": {"schemas": {"Node": node}},
    }
    check = ResponseCheck(document)
    assert check.errors("/tree", {"name": "a", "children": [{"name": "b", "children": []}]}) == []
    assert check.errors("/tree", {"name": "a", "children": [{"name": "b", "children": [{"name": 1}]}]}) == [
        "at /children/0/children/0/name: 1 is not of type 'string'"
    ]


def test_every_api_schema_gets_the_fast_check(check):
    """The build checks 10,000 files: each operation's schema must compile for the fast check
    (a keyword outside SchemaCheck.KEYWORDS would quietly make it ten times slower)."""
    for template, operations in check.document["paths"].items():
        for status, response in operations["get"]["responses"].items():
            if "application/json" in response.get("content", {}):
                path = template.replace("{slug}", "x")
                assert SchemaCheck(check.schema(path, status=int(status)), check.validator).valid, (
                    template,
                    status,
                )


def test_every_format_the_document_uses_is_checked(check):
    """Both checks know a format only from FORMATS: one missing there would pass unchecked."""
    used = set()

    def walk(node):
        if isinstance(node, dict):
            if isinstance(node.get("format"), str):
                used.add(node["format"])
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(check.document)
    assert used and used <= set(FORMATS), used - set(FORMATS)


def test_a_valid_document_needs_no_jsonschema():
    """jsonschema is imported only to explain a failure (50 ms of every build's start)."""
    code = (
        "import sys; from api.schema_check import ResponseCheck; "
        "document = {'paths': {'/x': {'get': {'responses': {'200': {'content': {'application/json': "
        "{'schema': {'type': 'object', 'properties': {'u': {'type': 'string', 'format': 'uri'}}}}}}}}}}}; "
        "check = ResponseCheck(document); "
        "assert check.errors('/x', {'u': 'https://x.example/'}) == []; "
        "assert 'jsonschema' not in sys.modules; "
        "assert check.errors('/x', {'u': 'not a uri'}); "
        "assert 'jsonschema' in sys.modules"
    )
    subprocess.run([sys.executable, "-c", code], cwd=settings.BASE_DIR, check=True, timeout=60)
