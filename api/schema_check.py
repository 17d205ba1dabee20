"""Check a JSON document against the response schema /openapi.json gives its address.

For the tests, and for anything that must prove a frozen file matches the contract:

    check = ResponseCheck(openapi.generate())
    check.errors("/api/v1/projects/alpha-one.json", json.loads(data))   # [] when it conforms

JSON Schema Draft 2020-12 (what OpenAPI 3.1 schemas are), `$ref`s resolved inside the document,
the formats the document uses (`date`, `uri`, `uri-template`) checked by FORMATS, with
rfc3986-validator and uri-template (requirements.txt). fastjsonschema makes the common case, a
valid document, fast (SchemaCheck); jsonschema, imported only when a document fails, explains.
"""

import datetime
import re
from functools import cached_property
from urllib.parse import unquote

import fastjsonschema
import uri_template
from rfc3986_validator import validate_rfc3986

DOCUMENT_URI = "urn:portfolio:openapi"
# A path parameter is one segment without a dot, so `/projects/{slug}` never claims
# `/projects/x.json`, which belongs to `/projects/{slug}.json`.
PARAMETER = r"[^/.]+"
DATE = re.compile(r"\d{4}-\d{2}-\d{2}", re.ASCII)


def is_date(instance):
    try:
        return not isinstance(instance, str) or bool(
            DATE.fullmatch(instance) and datetime.date.fromisoformat(instance)
        )
    except ValueError:
        return False


def is_uri(instance):
    return not isinstance(instance, str) or bool(validate_rfc3986(instance, rule="URI"))


def is_uri_template(instance):
    return not isinstance(instance, str) or uri_template.validate(instance)


# The formats openapi.json uses, checked alike by both libraries (jsonschema's own checks depend on
# which optional packages happen to be installed; rfc3987, for one, changes what `uri` accepts).
# tests/api/test_contract.py fails if the document uses a format missing here.
FORMATS = {"date": is_date, "uri": is_uri, "uri-template": is_uri_template}


class ResponseCheck:
    def __init__(self, document):
        self.document = document
        self.checks = {}
        self.templates = [
            (re.compile("^" + re.sub(r"\\\{\w+\\\}", PARAMETER, re.escape(template)) + "$"), template)
            for template in document["paths"]
        ]

    def template(self, path):
        """The `paths` key that addresses a concrete path (`/api/v1/projects/{slug}.json`)."""
        for regex, template in self.templates:
            if regex.fullmatch(path):
                return template
        raise LookupError(f"{path}: no operation of the OpenAPI document has this path")

    def schema(self, path, status=200, method="get"):
        """The response schema of `path`, its local references inlined."""
        template = self.template(path)
        if str(status) not in self.document["paths"][template][method]["responses"]:
            raise LookupError(f"{method.upper()} {path}: status {status} is not documented")
        content = self.document["paths"][template][method]["responses"][str(status)]["content"]
        return self.inline(content["application/json"]["schema"])

    def validator(self, schema):
        """jsonschema's validator of `schema` (a recursive reference resolves in the document)."""
        from jsonschema import Draft202012Validator, FormatChecker
        from referencing import Registry
        from referencing.jsonschema import DRAFT202012

        checker = FormatChecker(formats=())
        for name, function in FORMATS.items():
            checker.checks(name)(function)
        registry = Registry().with_resource(DOCUMENT_URI, DRAFT202012.create_resource(self.document))
        return Draft202012Validator(schema, registry=registry, format_checker=checker)

    def inline(self, node, chain=()):
        """`node` with each local `$ref` replaced by what it points at: looking a reference up
        on every validation doubled the cost of checking 10,000 files. A recursive reference
        stays a reference, into the registry."""
        if isinstance(node, list):
            return [self.inline(item, chain) for item in node]
        if not isinstance(node, dict):
            return node
        ref = node.get("$ref")
        if not (isinstance(ref, str) and ref.startswith("#/")):
            return {key: self.inline(value, chain) for key, value in node.items()}
        siblings = {key: self.inline(value, chain) for key, value in node.items() if key != "$ref"}
        if ref in chain:
            return {"$ref": f"{DOCUMENT_URI}{ref}", **siblings}
        target = self.document
        for part in ref[2:].split("/"):
            target = target[unquote(part).replace("~1", "/").replace("~0", "~")]
        target = self.inline(target, (*chain, ref))
        return {"allOf": [target], **siblings} if siblings else target

    def errors(self, path, instance, status=200, method="get"):
        """Every way `instance` breaks the schema, as `at /json/path: message` lines."""
        key = (self.template(path), str(status), method)
        if key not in self.checks:
            self.checks[key] = SchemaCheck(self.schema(path, status, method), self.validator)
        return self.checks[key].errors(instance)


class SchemaCheck:
    """One schema's check. jsonschema is the reference and explains what is wrong; a function
    compiled by fastjsonschema answers "valid?" about ten times faster (a build checks 10,000
    files), and is used only for schemas made of keywords both libraries read alike, with the
    same format checks. It can only let jsonschema speak sooner, never silence it; jsonschema
    (50 ms to import) is not even loaded while every document is valid.
    `validator(schema)`: makes jsonschema's validator, when one is needed."""

    KEYWORDS = {"type", "properties", "required", "additionalProperties", "items", "enum", "format"}
    KEYWORDS |= {"title", "description", "readOnly", "example"}  # annotations, not checked

    def __init__(self, schema, validator):
        self.schema = schema
        self.make_validator = validator
        self.valid = None
        if keywords(schema) <= self.KEYWORDS:
            self.valid = fastjsonschema.compile(schema, formats=FORMATS)

    @cached_property
    def validator(self):
        return self.make_validator(self.schema)

    def errors(self, instance):
        if self.valid is not None:
            try:
                self.valid(instance)
                return []
            except fastjsonschema.JsonSchemaValueException:
                pass
        return [
            f"at /{'/'.join(map(str, error.absolute_path))}: {error.message}"
            for error in sorted(
                self.validator.iter_errors(instance), key=lambda e: list(map(str, e.absolute_path))
            )
        ]


def keywords(schema):
    """Every keyword a schema and its subschemas use (unknown ones' subschemas are not walked:
    the keyword itself already rules the fast check out)."""
    if not isinstance(schema, dict):
        return set()
    found = set(schema)
    for name in ("items", "additionalProperties"):
        found |= keywords(schema.get(name))
    for subschema in schema.get("properties", {}).values():
        found |= keywords(subschema)
    return found
