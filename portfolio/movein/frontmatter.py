"""Front matter as other generators write it: YAML between `---` lines, TOML between `+++`
lines (Hugo) or a JSON object (Hugo). Read leniently (unknown keys are the converter's to map or
drop), but with the content format's guards against hostile YAML, and dates kept as written."""

import json
import tomllib

import yaml

from portfolio.content import rules

# JSON's and TOML's parsers recurse once per level: Python's recursion limit is their depth limit.
TOO_DEEP = "invalid {} front matter: nested too deep"


class Unreadable(Exception):
    """The file cannot be read as a post; the message says why (the caller adds the file)."""


class LenientLoader(rules._BaseLoader):
    """Safe YAML without timestamps: `2014-05-12 10:00:00 +0200` stays text, so the date is the
    one written (a timestamp would be moved to UTC, and so to another day)."""


LenientLoader.yaml_implicit_resolvers = rules.StrictLoader.yaml_implicit_resolvers


def split(text):
    """(front matter mapping, body, format) of a post's text; raises Unreadable."""
    if text.startswith("---\n") or text == "---":
        fields, body = _between(text, "---", _yaml), "yaml"
    elif text.startswith("+++\n"):
        fields, body = _between(text, "+++", _toml), "toml"
    elif text.startswith("{"):
        try:
            fields, end = json.JSONDecoder().raw_decode(text)
        except json.JSONDecodeError as exc:
            raise Unreadable(f"invalid JSON front matter at line {exc.lineno}: {exc.msg}") from None
        except RecursionError:
            raise Unreadable(TOO_DEEP.format("JSON")) from None
        return _mapping(fields), text[end:].lstrip("\n"), "json"
    else:
        return {}, text, None
    return fields[0], fields[1], body


def _between(text, marker, parse):
    end = text.find(f"\n{marker}\n", len(marker))
    if end == -1:
        if not text.endswith(f"\n{marker}"):
            raise Unreadable(f"no closing line holding exactly '{marker}' was found")
        end = len(text) - len(marker) - 1
    return _mapping(parse(text[len(marker) + 1 : end + 1])), text[end + len(marker) + 2 :]


def _yaml(text):
    try:
        rules.guard_yaml(text, "", 2)
        return yaml.load(text, Loader=LenientLoader)
    except rules.ContentInvalid as exc:
        raise Unreadable(exc.errors[0].message) from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 2}" if mark else ""
        raise Unreadable(
            f"invalid YAML front matter{where}: {getattr(exc, 'problem', None) or exc}"
        ) from None


def _toml(text):
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise Unreadable(f"invalid TOML front matter: {exc}") from None
    except RecursionError:
        raise Unreadable(TOO_DEEP.format("TOML")) from None


def _mapping(value):
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise Unreadable("the front matter is not a mapping of keys to values")
    return value


def decode(raw):
    """Text of a file (UTF-8, a byte-order mark tolerated, line endings normalised)."""
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise Unreadable(f"not UTF-8 text (byte 0x{raw[exc.start]:02x} at offset {exc.start})") from None
    return text.replace("\r\n", "\n").replace("\r", "\n")


def read_config(path):
    """A generator's config file (TOML, YAML or JSON by its extension) as a mapping; {} if unreadable."""
    try:
        text = decode(path.read_bytes())
        if path.suffix == ".toml":
            data = tomllib.loads(text)
        elif path.suffix == ".json":
            data = json.loads(text)
        else:
            data = yaml.load(text, Loader=LenientLoader)
    except (OSError, Unreadable, ValueError, RecursionError, yaml.YAMLError):
        return {}
    return data if isinstance(data, dict) else {}
