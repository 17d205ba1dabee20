"""Parse and validate content files (the rules of the content format, in one place).

Every function here is pure: bytes in, a clean record or a list of ContentError out. The importer
decides what to do with them; nothing here touches the database.
"""

import datetime
import re
from dataclasses import dataclass

import yaml

SLUG_RE = re.compile(r"^[a-z0-9]+(?:[-_][a-z0-9]+)*$")
DATE_RE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
# Characters RFC 3986 allows in a URI; anything else (spaces, non-ASCII) must be percent-encoded.
URI_CHARS_RE = re.compile(r"^[A-Za-z0-9\-._~:/?#\[\]@!$&'()*+,;=%]+$")
URI_RE = re.compile(r"^https?://[^/?#]+")
# One segment of a path under media/ (the format's "Media" section).
MEDIA_SEGMENT_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*$")


@dataclass(frozen=True)
class ContentError:
    """One problem in one file, printed as `path: field: what was expected; what was found`."""

    path: str
    field: str
    message: str

    def __str__(self):
        return f"{self.path}: {self.field}: {self.message}"


class ContentInvalid(Exception):
    """The content folder breaks the format; nothing was imported."""

    def __init__(self, errors):
        self.errors = sorted(errors, key=lambda e: (e.path, e.field))
        super().__init__("\n".join(map(str, self.errors)))


class Invalid(Exception):
    """Raised by a field rule; the caller adds the file and field name."""


def invalid(path, field, message):
    """A ContentInvalid holding one problem (for problems that stop a file's parsing)."""
    return ContentInvalid([ContentError(path, field, message)])


# --- YAML --------------------------------------------------------------------------------------

_BaseLoader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class StrictLoader(_BaseLoader):
    """Safe YAML that keeps dates as text (so `2026-02-30` is reported as a bad date of its field,
    not as a YAML crash) and rejects duplicate keys (the second would silently win)."""

    def construct_mapping(self, node, deep=False):
        seen = set()
        for key_node, _ in node.value:
            key = self.construct_object(key_node, deep=True)
            try:
                duplicate = key in seen
                seen.add(key)
            except TypeError:
                continue  # unhashable key: SafeConstructor reports it
            if duplicate:
                raise yaml.constructor.ConstructorError(
                    None, None, f"duplicate key {key!r}", key_node.start_mark
                )
        return super().construct_mapping(node, deep)


StrictLoader.yaml_implicit_resolvers = {
    first: [(tag, regexp) for tag, regexp in resolvers if tag != "tag:yaml.org,2002:timestamp"]
    for first, resolvers in _BaseLoader.yaml_implicit_resolvers.items()
}


def load_yaml(text, path, first_line=1):
    """Parse a YAML mapping; `first_line` is the file line the text starts on (for messages)."""
    try:
        data = yaml.load(text, Loader=StrictLoader)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + first_line}" if mark else ""
        problem = getattr(exc, "problem", None) or str(exc)
        raise invalid(path, "yaml", f"invalid YAML{where}: {problem}") from None
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise invalid(path, "yaml", f"expected a mapping of keys to values; got {describe(data)}")
    return data


# --- field rules ---------------------------------------------------------------------------------


def describe(value):
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return repr(value)
    if isinstance(value, (int, float)):
        return str(value)
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    return type(value).__name__


def string(value):
    if not isinstance(value, str):
        raise Invalid(f"expected a string; got {describe(value)}")
    return value


def text(value):
    """A non-empty string."""
    if not isinstance(value, str) or not value.strip():
        raise Invalid(f"expected a non-empty string; got {describe(value)}")
    return value


def boolean(value):
    if not isinstance(value, bool):
        raise Invalid(f"expected true or false; got {describe(value)}")
    return value


def date(value):
    if isinstance(value, str) and DATE_RE.match(value):
        try:
            return datetime.date.fromisoformat(value)
        except ValueError:
            pass
    raise Invalid(f"expected a calendar date YYYY-MM-DD; got {describe(value)}")


def http_uri(value):
    if not isinstance(value, str) or not URI_RE.match(value) or not URI_CHARS_RE.match(value):
        raise Invalid(f"expected an absolute http(s) URI; got {describe(value)}")
    return value


def site_url(value):
    value = http_uri(value)
    if value.endswith("/"):
        raise Invalid(f"expected an absolute http(s) URI without a trailing slash; got {value!r}")
    return value


def media_path(value):
    """A path under media/ (`alpha/cover.png`); that the file exists is checked with the media."""
    if not isinstance(value, str) or not all(MEDIA_SEGMENT_RE.match(part) for part in value.split("/")):
        raise Invalid(
            "expected a path under media/ such as alpha/cover.png (segments of letters, digits, "
            f"'.', '_' or '-', starting with a letter or digit); got {describe(value)}"
        )
    return value


def one_of(*choices):
    def rule(value):
        if value not in choices or not isinstance(value, str):
            raise Invalid(f"expected one of {', '.join(choices)}; got {describe(value)}")
        return value

    return rule


def list_of_strings(value):
    if not isinstance(value, list):
        raise Invalid(f"expected a list of strings; got {describe(value)}")
    for index, item in enumerate(value):
        if not isinstance(item, str):
            raise Invalid(f"expected a list of strings; item {index} is {describe(item)}")
    return value


def string_map(value):
    """A mapping of string to string, kept in the file's order as [key, value] pairs."""
    if not isinstance(value, dict):
        raise Invalid(f"expected a mapping of string to string; got {describe(value)}")
    for key, item in value.items():
        if not isinstance(key, str):
            raise Invalid(f"expected string keys; key {describe(key)} is not one (quote it)")
        if not isinstance(item, str):
            raise Invalid(f"expected a string value for {key!r}; got {describe(item)}")
    return [[key, item] for key, item in value.items()]


@dataclass(frozen=True)
class Field:
    rule: object
    required: bool = True
    default: object = None


def records(schema):
    """A list of mappings, each checked against `schema` (used by stack.yaml)."""
    return ("records", schema)


PROJECT = {
    "title": Field(text),
    "tagline": Field(text),
    "description": Field(text),
    "github": Field(http_uri),
    "status": Field(one_of("active", "reference", "experimental")),
    "stack": Field(list_of_strings),
    "featured": Field(boolean, required=False, default=False),
    "date": Field(date),
    "caseStudy": Field(string_map, required=False, default=[]),
    "image": Field(media_path, required=False, default=""),
    "imageAlt": Field(text, required=False, default=""),
}

ARTICLE = {
    "title": Field(text),
    "description": Field(text),
    "date": Field(date),
    "tags": Field(list_of_strings, required=False, default=[]),
    "draft": Field(boolean, required=False, default=False),
    "image": Field(media_path, required=False, default=""),
    "imageAlt": Field(text, required=False, default=""),
}

STACK_MODEL = {
    "name": Field(string),
    "type": Field(one_of("subscription", "local")),
    "description": Field(string),
    "url": Field(http_uri, required=False, default=""),
}

DAILY_DRIVER = {
    "tool": Field(string),
    "role": Field(string),
    "url": Field(http_uri, required=False, default=""),
    "status": Field(one_of("daily", "exploring")),
}

STACK = {
    "lastUpdated": Field(date),
    "currentFocus": Field(string),
    "models": Field(records(STACK_MODEL)),
    "dailyDrivers": Field(records(DAILY_DRIVER)),
}

SITE_LINK = {
    "name": Field(text),
    "url": Field(http_uri),
}

SITE = {
    "title": Field(text),
    "description": Field(text),
    "author": Field(text),
    "url": Field(site_url),
    "image": Field(media_path, required=False, default=""),
    "links": Field(records(SITE_LINK), required=False, default=[]),
}


def check(data, schema, path, errors, prefix=""):
    """Apply `schema` to the mapping `data`; append every problem to `errors`."""
    clean = {}
    for key in data:
        if key not in schema:
            known = ", ".join(schema)
            errors.append(ContentError(path, f"{prefix}{key}", f"unknown key; expected one of {known}"))
    for key, field in schema.items():
        name = f"{prefix}{key}"
        if key not in data:
            if field.required:
                errors.append(ContentError(path, name, "required field is missing"))
            else:
                clean[key] = field.default
            continue
        value = data[key]
        if isinstance(field.rule, tuple):  # records(schema)
            clean[key] = check_records(value, field.rule[1], path, errors, name)
            continue
        try:
            clean[key] = field.rule(value)
        except Invalid as exc:
            errors.append(ContentError(path, name, str(exc)))
    return clean


def check_records(value, schema, path, errors, name):
    if not isinstance(value, list):
        errors.append(ContentError(path, name, f"expected a list of mappings; got {describe(value)}"))
        return []
    items = []
    for index, item in enumerate(value):
        if not isinstance(item, dict):
            errors.append(ContentError(path, f"{name}[{index}]", f"expected a mapping; got {describe(item)}"))
            continue
        items.append(check(item, schema, path, errors, prefix=f"{name}[{index}]."))
    return items


# --- files ---------------------------------------------------------------------------------------


def decode(raw, path):
    """UTF-8 (a byte-order mark tolerated), line endings normalised to \\n."""
    try:
        text_ = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        byte = raw[exc.start]
        message = f"expected UTF-8 text; byte 0x{byte:02x} at offset {exc.start} is not valid UTF-8"
        raise invalid(path, "encoding", message) from None
    return text_.replace("\r\n", "\n")


def split_front_matter(text_, path):
    """Return (front matter text, body) of a markdown file."""
    if not text_.startswith("---\n"):
        raise invalid(path, "front matter", "expected the file to start with a line holding exactly '---'")
    end = text_.find("\n---\n", 3)  # from the opening line's newline: the block may be empty
    if end == -1:
        if not text_.endswith("\n---"):
            raise invalid(path, "front matter", "no closing line holding exactly '---' was found")
        end = len(text_) - 4
    return text_[4 : end + 1], text_[end + 5 :]


def parse_markdown_file(raw, path, schema):
    """Return (clean front matter, body) or raise ContentInvalid with every problem found."""
    text_ = decode(raw, path)
    front_matter, body = split_front_matter(text_, path)
    data = load_yaml(front_matter, path, first_line=2)
    errors = []
    clean = check(data, schema, path, errors)
    check_image_alt(data, path, errors)
    if errors:
        raise ContentInvalid(errors)
    return clean, body


def check_image_alt(data, path, errors):
    """`imageAlt` goes with `image`: a picture needs its text, and a text without a picture is
    almost always a misspelt or forgotten `image`."""
    if "image" in data and "imageAlt" not in data:
        errors.append(
            ContentError(path, "imageAlt", "required with image: a short text saying what it shows")
        )
    elif "imageAlt" in data and "image" not in data:
        errors.append(ContentError(path, "imageAlt", "expected only with image; there is no image here"))


def parse_yaml_file(raw, path, schema):
    data = load_yaml(decode(raw, path), path)
    errors = []
    clean = check(data, schema, path, errors)
    if errors:
        raise ContentInvalid(errors)
    return clean
