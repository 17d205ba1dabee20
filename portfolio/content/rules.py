"""Parse and validate content files (the rules of the content format, in one place).

Every function here is pure: bytes in, a clean record or a list of ContentError out. The importer
decides what to do with them; nothing here touches the database.
"""

import datetime
import re
from dataclasses import dataclass
from urllib.parse import unquote_to_bytes

import yaml
from django.utils.text import slugify

SLUG_RE = re.compile(r"^[a-z0-9]+(?:[-_][a-z0-9]+)*$")
SLUG_RULE = "lowercase letters and digits, with single '-' or '_' between them"

DATE_RE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
# Characters RFC 3986 allows in a URI; anything else (spaces, non-ASCII) must be percent-encoded.
URI_CHARS_RE = re.compile(r"^[A-Za-z0-9\-._~:/?#\[\]@!$&'()*+,;=%]+$")
URI_RE = re.compile(r"^https?://[^/?#]+")
# What no front-matter string or body may hold: control characters other than tab and line
# breaks, and the code points XML 1.0 cannot carry (lone surrogates, U+FFFE, U+FFFF). A feed or a
# sitemap holding one is not well-formed, and PostgreSQL refuses NUL in text.
CONTROL_RE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff\ufffe\uffff]")

# Lengths the database columns hold (models.py sizes its columns with these): longer values are
# the importer's errors, the same on SQLite (which would store them) and PostgreSQL (which would not).
LINE_MAX = 500  # titles, taglines, names, URLs: CharField(max_length=LINE_MAX)
SLUG_MAX = 200  # file names without .md: the primary keys

# YAML limits. libyaml's composer recurses once per nesting level in C, so a deep document
# overflows the C stack (a segfault, not an exception): the depth is checked on the parser's
# events first, which libyaml produces without recursion. Front matter needs three levels.
YAML_DEPTH_MAX = 20
# Nodes that aliases repeat, counted as if expanded ("billion laughs": ten aliases of ten aliases...).
YAML_ALIAS_NODES_MAX = 10_000
# Characters of one number: int("9" * 5000) raises, base-60 numbers (1:2:3...) take quadratic time.
YAML_NUMBER_CHARS_MAX = 100

# A tag's slug names its page's file (tags/<slug>.html, tags/<slug>/...): at most this many bytes
# of UTF-8, well inside the 255 a file name may have.
TAG_SLUG_MAX_BYTES = 200
# Tag slugs whose file the static hosts give another page's place: tags/index.html is what
# Cloudflare, Netlify and nginx answer at /tags/ (and /tags/index redirects there), and Cloudflare
# answers a missing address under /tags/ with the nearest 404.html. Every other slug is a plain
# page: a slug has no '.' (no `.html` name) and no '/' (no `page/<n>` path of another page).
RESERVED_TAG_SLUGS = {
    "index": "the hosts serve tags/index.html at /tags/ and redirect /tags/index there",
    "404": "Cloudflare answers a missing address under /tags/ with tags/404.html",
}

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


def _number(construct):
    """Wrap SafeConstructor's int or float constructor: a bounded length, and a named error for
    text the resolver took for a number but that is not one (`0b_`, `._`)."""

    def checked(loader, node):
        if len(node.value) > YAML_NUMBER_CHARS_MAX:
            problem = f"a number of {len(node.value)} characters (at most {YAML_NUMBER_CHARS_MAX}); quote it"
            raise yaml.constructor.ConstructorError(None, None, problem, node.start_mark)
        try:
            return construct(loader, node)
        except ValueError:
            problem = f"{node.value[:40]!r} is not a valid number; quote it to make it text"
            raise yaml.constructor.ConstructorError(None, None, problem, node.start_mark) from None

    return checked


for _tag, _construct in (
    ("tag:yaml.org,2002:int", yaml.constructor.SafeConstructor.construct_yaml_int),
    ("tag:yaml.org,2002:float", yaml.constructor.SafeConstructor.construct_yaml_float),
):
    StrictLoader.add_constructor(_tag, _number(_construct))


def yaml_error(path, line, problem):
    return invalid(path, "yaml", f"invalid YAML at line {line}: {problem}")


def guard_yaml(text, path, first_line):
    """Refuse, from the parser's events, what the composer and constructor must never see:
    nesting deeper than YAML_DEPTH_MAX, explicit tags (`!!int`, `!!binary`, `!!python/...`: front
    matter is plain YAML), aliases inside their own anchor, and aliases that would expand past
    YAML_ALIAS_NODES_MAX nodes."""
    nodes = 0  # nodes so far, every alias counted as the nodes it repeats
    repeated = 0  # of which aliases added
    open_ = []  # (anchor, nodes before it) of each open collection
    sizes = {}  # anchor: nodes it stands for
    for event in yaml.parse(text, Loader=_BaseLoader):
        line = event.start_mark.line + first_line
        if isinstance(event, yaml.AliasEvent):
            if any(anchor == event.anchor for anchor, _ in open_):
                raise yaml_error(path, line, f"alias *{event.anchor} inside its own anchor (a loop)")
            size = sizes.get(event.anchor, 1)
            nodes, repeated = nodes + size, repeated + size
            if repeated > YAML_ALIAS_NODES_MAX:
                raise yaml_error(
                    path, line, f"aliases repeat more than {YAML_ALIAS_NODES_MAX:,} nodes in all"
                )
        elif isinstance(event, (yaml.ScalarEvent, yaml.CollectionStartEvent)):
            if event.tag is not None:
                tag = event.tag.replace("tag:yaml.org,2002:", "!!")
                raise yaml_error(path, line, f"tag {tag} is not allowed: write the plain value")
            nodes += 1
            if isinstance(event, yaml.CollectionStartEvent):
                open_.append((event.anchor, nodes - 1))
                if len(open_) > YAML_DEPTH_MAX:
                    raise yaml_error(path, line, f"nested deeper than {YAML_DEPTH_MAX} levels")
            elif event.anchor is not None:
                sizes[event.anchor] = 1
        elif isinstance(event, yaml.CollectionEndEvent):
            anchor, before = open_.pop()
            if anchor is not None:
                sizes[anchor] = nodes - before


def load_yaml(text, path, first_line=1):
    """Parse a YAML mapping; `first_line` is the file line the text starts on (for messages)."""
    try:
        guard_yaml(text, path, first_line)
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
        return repr(value) if len(value) <= 80 else f"{value[:60]!r}... ({len(value):,} characters)"
    if isinstance(value, (int, float)):
        return str(value)  # at most YAML_NUMBER_CHARS_MAX characters long
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    return type(value).__name__


def control_character(value):
    """The first character of `value` that no surface may carry: (its index, a message) or None."""
    match = CONTROL_RE.search(value)
    if match is None:
        return None
    return match.start(), f"control character U+{ord(match[0]):04X} is not allowed (tab and line breaks are)"


def string(value):
    """Any string. Every rule that accepts text goes through here, so that no string holding a
    control character reaches the database, a feed or a sitemap."""
    if not isinstance(value, str):
        raise Invalid(f"expected a string; got {describe(value)}")
    found = control_character(value)
    if found:
        raise Invalid(f"character {found[0] + 1}: {found[1]}")
    return value


def text(value):
    """A non-empty string."""
    if not isinstance(value, str) or not value.strip():
        raise Invalid(f"expected a non-empty string; got {describe(value)}")
    return string(value)


def boolean(value):
    if not isinstance(value, bool):
        raise Invalid(f"expected true or false; got {describe(value)}")
    return value


def whole_number(value):
    """An integer (not a boolean, which YAML's `true` would be), as the database's column holds it."""
    if isinstance(value, bool) or not isinstance(value, int) or not -(2**31) <= value < 2**31:
        raise Invalid(f"expected a whole number such as 1 or -2; got {describe(value)}")
    return value


def date(value):
    if isinstance(value, str) and DATE_RE.fullmatch(value):
        try:
            return datetime.date.fromisoformat(value)
        except ValueError:
            pass
    raise Invalid(f"expected a calendar date YYYY-MM-DD; got {describe(value)}")


def http_uri(value):
    if not isinstance(value, str) or not URI_RE.match(value) or not URI_CHARS_RE.fullmatch(value):
        raise Invalid(f"expected an absolute http(s) URI; got {describe(value)}")
    return value


def site_url(value):
    value = http_uri(value)
    if value.endswith("/"):
        raise Invalid(f"expected an absolute http(s) URI without a trailing slash; got {value!r}")
    return value


def media_path(value):
    """A path under media/ (`alpha/cover.png`); that the file exists is checked with the media."""
    if not isinstance(value, str) or not all(MEDIA_SEGMENT_RE.fullmatch(part) for part in value.split("/")):
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


# contentSignals (contentsignals.org): what the owner allows of the site's content, each yes or no.
CONTENT_SIGNALS = {"search": "yes", "ai-input": "yes", "ai-train": "no"}


def content_signals(value):
    """{search, ai-input, ai-train: yes | no}, any of them left out taking its default. YAML reads
    an unquoted yes or no as a boolean; the quoted words mean the same."""
    if not isinstance(value, dict):
        keys = ", ".join(CONTENT_SIGNALS)
        raise Invalid(f"expected a mapping of {keys} to yes or no; got {describe(value)}")
    signals = dict(CONTENT_SIGNALS)
    for key, given in value.items():
        if key not in CONTENT_SIGNALS:
            raise Invalid(f"unknown signal {describe(key)}; expected one of {', '.join(CONTENT_SIGNALS)}")
        words = {True: "yes", False: "no", "yes": "yes", "no": "no"}
        if not isinstance(given, (bool, str)) or given not in words:
            raise Invalid(f"{key}: expected yes or no; got {describe(given)}")
        signals[key] = words[given]
    return signals


def list_of_strings(value):
    if not isinstance(value, list):
        raise Invalid(f"expected a list of strings; got {describe(value)}")
    for index, item in enumerate(value):
        if not isinstance(item, str):
            raise Invalid(f"expected a list of strings; item {index} is {describe(item)}")
        try:
            string(item)
        except Invalid as exc:
            raise Invalid(f"item {index}: {exc}") from None
    return value


def slug_of(rel):
    """The slug of a project's, article's or page's file: `articles/<slug>.md`."""
    return rel.split("/", 1)[1].removesuffix(".md")


# An absolute path among `aliases`: an address the item had on a site before this one. What
# `_redirects` and nginx's include can hold as written: RFC 3986 path characters less `:` and `*`
# (the hosts' placeholders and splats), non-ASCII percent-encoded (`%C3%A9`).
ALIAS_PATH_RE = re.compile(r"/(?:[A-Za-z0-9\-._~!$&'()+,;=@/]|%[89A-Fa-f][0-9A-Fa-f])*")
ALIAS_PATH_MAX = 500
ALIAS_PATH_RULE = (
    "an absolute path such as /posts/old-title/: letters, digits, -._~!$&'()+,;=@ and '/', "
    "non-ASCII percent-encoded (%C3%A9), no query, fragment, ':' or '*'"
)


def alias_path_problem(path):
    """What is wrong with `path` as an absolute-path alias, or None."""
    if len(path) > ALIAS_PATH_MAX:
        return f"expected a path of at most {ALIAS_PATH_MAX} characters; got {len(path):,}"
    if not ALIAS_PATH_RE.fullmatch(path):
        return f"expected {ALIAS_PATH_RULE}; got {describe(path)}"
    segments = path[1:].split("/")
    if "//" in path or any(segment in (".", "..") for segment in segments):
        return f"expected a path without '//' and without '.' or '..' segments; got {describe(path)}"
    if any(segment.endswith(".html") for segment in segments[:-1]) or path.endswith(".html/"):
        return f"expected '.html' only at the end of the path; got {describe(path)}"
    try:
        unquote_to_bytes(path).decode("utf-8")
    except UnicodeDecodeError:
        return f"expected percent-encoded UTF-8; got {describe(path)}"
    return None


def alias_list(value):
    """`aliases`: earlier slugs (`old-name`) and earlier absolute paths (`/posts/old-title/`),
    none twice (a path's spellings with and without its trailing slash or `.html` are one)."""
    if not isinstance(value, list):
        raise Invalid(f"expected a list of slugs or absolute paths such as [old-name, /posts/old-name/]; "
                      f"got {describe(value)}")  # fmt: skip
    seen = {}
    for index, item in enumerate(value):
        if isinstance(item, str) and item.startswith("/"):
            problem = alias_path_problem(item)
            if problem:
                raise Invalid(f"item {index}: {problem}")
            key = alias_path_key(item)
        else:
            if isinstance(item, str) and len(item) > SLUG_MAX:
                raise Invalid(
                    f"item {index}: expected a slug of at most {SLUG_MAX} characters; got {len(item):,}"
                )
            if not isinstance(item, str) or not SLUG_RE.fullmatch(item):
                raise Invalid(
                    f"item {index}: expected a slug ({SLUG_RULE}) or an absolute path (/posts/old-name/); "
                    f"got {describe(item)}"
                )
            key = item
        if key in seen:
            first = value[seen[key]]
            same = "listed twice" if first == item else f"the same address as item {seen[key]}, {first!r}"
            raise Invalid(f"item {index}: {item!r} is {same}")
        seen[key] = index
    return value


def alias_path_stored(path):
    """An absolute-path alias as stored and written into the hosts' rules: its
    percent-encoding's hex digits in capitals, as browsers send them."""
    return re.sub(r"%[0-9a-f]{2}", lambda m: m[0].upper(), path)


def alias_path_key(path):
    """The address an absolute-path alias stands for, whichever spelling is written: without
    its trailing slash or `.html` (`/posts/a/`, `/posts/a` and `/posts/a.html` are one), as
    stored (alias_path_stored)."""
    path = alias_path_stored(path)
    if path != "/":
        path = path.removesuffix("/")
    return path.removesuffix(".html")


def redirect_map(value):
    """site.yaml's `redirects`: {old address of a site before this one: an address of this site},
    kept in the file's order as [old, new] pairs, stored (alias_path_stored). An old address is
    written as an absolute-path alias is (alias_path_problem), none twice (by alias_path_key); that
    it hides nothing and that the new one is served is checked across files (aliases.py)."""
    if not isinstance(value, dict):
        raise Invalid(f"expected a mapping of old address to address of this site such as {{/blog/: /}}; "
                      f"got {describe(value)}")  # fmt: skip
    seen, pairs = {}, []
    for old, new in value.items():
        if not isinstance(old, str) or not old.startswith("/"):
            raise Invalid(f"{describe(old)}: expected an old address, {ALIAS_PATH_RULE}")
        if problem := alias_path_problem(old):
            raise Invalid(f"{old!r}: {problem}")
        if not isinstance(new, str) or not new.startswith("/") or new.startswith("//"):
            raise Invalid(f"{old!r}: expected an address of this site such as /articles; got {describe(new)}")
        if problem := alias_path_problem(new):
            raise Invalid(f"{old!r}: {problem.replace('expected ', 'expected an address of this site: ', 1)}")
        key = alias_path_key(old)
        if key in seen:
            raise Invalid(f"{old!r} is the same address as {seen[key]!r}")
        seen[key] = old
        pairs.append([alias_path_stored(old), alias_path_stored(new)])
    return pairs


# A host name of site.yaml's `imageHosts` (`images.pexels.com`): labels of lowercase letters,
# digits and inner hyphens, joined by dots, as the Content-Security-Policy's `img-src` names it.
IMAGE_HOST_RE = re.compile(r"[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*")


def host_list(value):
    """site.yaml's `imageHosts`: host names whose images bodies may show, none twice."""
    if not isinstance(value, list):
        raise Invalid(f"expected a list of host names such as [images.pexels.com]; got {describe(value)}")
    for index, item in enumerate(value):
        if not isinstance(item, str) or len(item) > 253 or not IMAGE_HOST_RE.fullmatch(item):
            raise Invalid(
                f"item {index}: expected a host name such as images.pexels.com (lowercase letters, digits, "
                f"'-' and '.'; no scheme, port or path); got {describe(item)}"
            )
        if item in value[:index]:
            raise Invalid(f"item {index}: {item!r} is listed twice")
    return value


# site.yaml's `comments` (giscus, giscus.app) and `analytics` (one provider): what each needs.
GISCUS_MAPPINGS = ("pathname", "url", "title", "og:title")  # those that need no `term`
REPO_RE = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})/[A-Za-z0-9._-]{1,100}")
# An identifier written into an attribute (giscus' ids, Umami's website id, Cloudflare's token).
TOKEN_RE = re.compile(r"[A-Za-z0-9_-]{1,200}")
GOATCOUNTER_CODE_RE = re.compile(r"[a-z0-9](?:[a-z0-9-]{0,48}[a-z0-9])?")


def _settings(value, fields, what):
    """A mapping of exactly `fields` ({key: (rule, required)}): the checked values."""
    if not isinstance(value, dict):
        raise Invalid(f"expected a mapping of {', '.join(fields)}; got {describe(value)}")
    for key in value:
        if key not in fields:
            raise Invalid(f"{key}: unknown key; expected one of {', '.join(fields)} ({what})")
    clean = {}
    for key, (rule, required) in fields.items():
        if key not in value:
            if required:
                raise Invalid(f"{key}: required field is missing ({what})")
            continue
        try:
            clean[key] = rule(value[key])
        except Invalid as exc:
            raise Invalid(f"{key}: {exc}") from None
    return clean


def _matching(pattern, expected):
    def rule(value):
        if not isinstance(value, str) or not pattern.fullmatch(value):
            raise Invalid(f"expected {expected}; got {describe(value)}")
        return value

    return rule


def _short_text(value):
    value = text(value)
    if len(value) > 200 or "\n" in value:
        raise Invalid(f"expected one line of at most 200 characters; got {describe(value)}")
    return value


def https_script(value):
    """The address of a script on another site: https, a host, a path."""
    value = http_uri(value)
    if not value.startswith("https://"):
        raise Invalid(f"expected an https:// address; got {describe(value)}")
    return value


GISCUS = {
    "repo": (_matching(REPO_RE, "owner/name, the GitHub repository holding the discussions"), True),
    "repoId": (_matching(TOKEN_RE, "the repository's id from giscus.app (R_...)"), True),
    "category": (_short_text, True),
    "categoryId": (_matching(TOKEN_RE, "the category's id from giscus.app (DIC_...)"), True),
    "mapping": (one_of(*GISCUS_MAPPINGS), False),
}


def comments(value):
    """site.yaml's `comments`: {giscus: {repo, repoId, category, categoryId, mapping}}."""
    if not isinstance(value, dict) or list(value) != ["giscus"]:
        raise Invalid(
            f"expected {{giscus: {{repo, repoId, category, categoryId, mapping}}}}; got {describe(value)}"
        )
    try:
        giscus = _settings(value["giscus"], GISCUS, "giscus.app shows them")
    except Invalid as exc:
        raise Invalid(f"giscus: {exc}") from None
    return {"giscus": {"mapping": "pathname", **giscus}}


ANALYTICS = {
    "plausible": {"domain": (_matching(IMAGE_HOST_RE, "the site's domain as Plausible names it"), True),
                  "src": (https_script, False)},
    "umami": {"websiteId": (_matching(TOKEN_RE, "the website id Umami gives"), True),
              "src": (https_script, True)},
    "goatcounter": {"code": (_matching(GOATCOUNTER_CODE_RE, "the site's code (<code>.goatcounter.com)"),
                             True)},
    "cloudflare": {"token": (_matching(TOKEN_RE, "the site's Web Analytics token"), True)},
}  # fmt: skip


def analytics(value):
    """site.yaml's `analytics`: one provider and its settings."""
    if not isinstance(value, dict) or len(value) != 1 or next(iter(value)) not in ANALYTICS:
        raise Invalid(
            f"expected one provider of {', '.join(ANALYTICS)} with its settings; got {describe(value)}"
        )
    [(provider, given)] = value.items()
    try:
        return {provider: _settings(given, ANALYTICS[provider], provider)}
    except Invalid as exc:
        raise Invalid(f"{provider}: {exc}") from None


def tag_slug(tag):
    """The slug of a tag (an article's `tags` entry, a project's `stack` entry): its page is
    /tags/<slug>, and tags with the same slug are one tag."""
    return slugify(tag, allow_unicode=True)


def tag_list(value):
    """A list of tags: strings of at most LINE_MAX characters, each with a slug that is not
    empty (`!!!` has none) and fits a file name."""
    list_of_strings(value)
    for index, tag in enumerate(value):
        if len(tag) > LINE_MAX:
            raise Invalid(f"item {index}: expected at most {LINE_MAX} characters; got {len(tag):,}")
        slug = tag_slug(tag)
        if not slug:
            raise Invalid(
                f"item {index}: {describe(tag)} has no letter or digit to make its address "
                "(/tags/<slug>) from"
            )
        if slug in RESERVED_TAG_SLUGS:
            raise Invalid(
                f"item {index}: {describe(tag)} would have the address /tags/{slug}, which is not a "
                f"tag's to take ({RESERVED_TAG_SLUGS[slug]}); spell the tag otherwise"
            )
        if len(slug.encode()) > TAG_SLUG_MAX_BYTES:
            raise Invalid(
                f"item {index}: its address (/tags/<slug>) would be {len(slug.encode()):,} bytes long; "
                f"expected at most {TAG_SLUG_MAX_BYTES}"
            )
    return value


def series_name(value):
    """An article's `series`: the name of the one series it is a part of. Its page is
    /series/<slug>, the slug made as a tag's (tag_slug), with a tag's rules."""
    if not isinstance(value, str):
        raise Invalid(f"expected the name of one series (a string); got {describe(value)}")
    try:
        tag_list([value])
    except Invalid as exc:
        raise Invalid(str(exc).removeprefix("item 0: ").replace("/tags/", "/series/")) from None
    return value


def counting_number(value):
    """A whole number (0, 1, 2...), as YAML writes it unquoted."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise Invalid(f"expected a whole number (0, 1, 2...); got {describe(value)}")
    if value > 2**31 - 1:
        raise Invalid(f"expected at most {2**31 - 1:,}; got {value:,}")
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
        for part in (key, item):
            try:
                string(part)
            except Invalid as exc:
                raise Invalid(f"{describe(key)}: {exc}") from None
    return [[key, item] for key, item in value.items()]


@dataclass(frozen=True)
class Field:
    rule: object
    required: bool = True
    default: object = None
    max_length: int | None = None  # characters the database column holds (LINE_MAX)


def records(schema):
    """A list of mappings, each checked against `schema` (used by stack.yaml)."""
    return ("records", schema)


PROJECT = {
    "title": Field(text, max_length=LINE_MAX),
    "tagline": Field(text, max_length=LINE_MAX),
    "description": Field(text),
    "github": Field(http_uri, max_length=LINE_MAX),
    "status": Field(one_of("active", "reference", "experimental")),
    "stack": Field(tag_list),
    "featured": Field(boolean, required=False, default=False),
    "date": Field(date),
    "caseStudy": Field(string_map, required=False, default=[]),
    "image": Field(media_path, required=False, default=""),
    "imageAlt": Field(text, required=False, default=""),
    "aliases": Field(alias_list, required=False, default=[]),
}

ARTICLE = {
    "title": Field(text, max_length=LINE_MAX),
    "description": Field(text),
    "date": Field(date),
    "tags": Field(tag_list, required=False, default=[]),
    "draft": Field(boolean, required=False, default=False),
    "image": Field(media_path, required=False, default=""),
    "imageAlt": Field(text, required=False, default=""),
    "aliases": Field(alias_list, required=False, default=[]),
    "series": Field(series_name, required=False, default=""),
    "seriesOrder": Field(counting_number, required=False, default=None),
}

# A standalone page, at /<slug>: an article's fields less its date, tags and image, and its place
# in the site's header.
PAGE = {
    "title": Field(text, max_length=LINE_MAX),
    "description": Field(text),
    "draft": Field(boolean, required=False, default=False),
    "nav": Field(boolean, required=False, default=False),
    "order": Field(whole_number, required=False, default=0),
    "aliases": Field(alias_list, required=False, default=[]),
}

# A translation (`articles/<slug>.<lang>.md`): what it may write; the rest is its original's.
TRANSLATED = {
    "title": Field(text, required=False, default="", max_length=LINE_MAX),
    "description": Field(text, required=False, default=""),
    "draft": Field(boolean, required=False, default=False),
    "aliases": Field(alias_list, required=False, default=[]),
}
TRANSLATIONS = {
    "projects": {**TRANSLATED, "tagline": Field(text, required=False, default="", max_length=LINE_MAX),
                 "date": Field(date, required=False, default=None)},
    "articles": {**TRANSLATED, "date": Field(date, required=False, default=None),
                 "tags": Field(tag_list, required=False, default=None)},
    "pages": TRANSLATED,
}  # fmt: skip

# A language's code: `fr`, `fa`, `zh-hans` (BCP 47's language and an optional subtag, lowercase,
# as Django names its languages and as a translation's file name carries it).
LANGUAGE_RE = re.compile(r"[a-z]{2,3}(?:-[a-z0-9]{2,8}){0,2}")
LANGUAGE_RULE = "a language code such as fr, fa, zh-hans or zh-hant-tw (lowercase)"
TRANSLATION_NAME_RE = re.compile(r"(?P<slug>[a-z0-9]+(?:[-_][a-z0-9]+)*)\.(?P<lang>[^./]+)\.md")


def translation_of(rel):
    """(original slug, language) of a translation's file (`articles/<slug>.<lang>.md`), or None."""
    if "/" not in rel:
        return None
    found = TRANSLATION_NAME_RE.fullmatch(rel.split("/", 1)[-1])
    return (found["slug"], found["lang"]) if found else None


def stack_translation_of(rel):
    """The language of a translation of stack.yaml (`stack.<lang>.yaml`), or None."""
    found = STACK_TRANSLATION_NAME_RE.fullmatch(rel)
    return found["lang"] if found else None


def language_code(value):
    value = string(value)
    if not LANGUAGE_RE.fullmatch(value):
        raise Invalid(f"expected {LANGUAGE_RULE}; got {describe(value)}")
    return value


LANGUAGE = {
    "code": Field(language_code),
    "title": Field(text, required=False, default="", max_length=LINE_MAX),
    "description": Field(text, required=False, default=""),
    "name": Field(text, required=False, default="", max_length=LINE_MAX),
}

STACK_MODEL = {
    "name": Field(string, max_length=LINE_MAX),
    "type": Field(one_of("subscription", "local")),
    "description": Field(string),
    "url": Field(http_uri, max_length=LINE_MAX, required=False, default=""),
}

DAILY_DRIVER = {
    "tool": Field(string, max_length=LINE_MAX),
    "role": Field(string, max_length=LINE_MAX),
    "url": Field(http_uri, max_length=LINE_MAX, required=False, default=""),
    "status": Field(one_of("daily", "exploring")),
}

STACK = {
    "lastUpdated": Field(date),
    "currentFocus": Field(string),
    "models": Field(records(STACK_MODEL)),
    "dailyDrivers": Field(records(DAILY_DRIVER)),
}

# A translation of stack.yaml (`stack.<lang>.yaml`): any of its fields, each list whole.
STACK_TRANSLATION = {
    "lastUpdated": Field(date, required=False, default=None),
    "currentFocus": Field(string, required=False, default=""),
    "models": Field(records(STACK_MODEL), required=False, default=None),
    "dailyDrivers": Field(records(DAILY_DRIVER), required=False, default=None),
}
STACK_TRANSLATION_NAME_RE = re.compile(r"stack\.(?P<lang>[^./]+)\.yaml")

SITE_LINK = {
    "name": Field(text),
    "url": Field(http_uri),
}

SITE = {
    "title": Field(text, max_length=LINE_MAX),
    "description": Field(text),
    "author": Field(text, max_length=LINE_MAX),
    "url": Field(site_url, max_length=LINE_MAX),
    "image": Field(media_path, required=False, default=""),
    "links": Field(records(SITE_LINK), required=False, default=[]),
    "contentSignals": Field(content_signals, required=False, default=CONTENT_SIGNALS),
    "imageHosts": Field(host_list, required=False, default=[]),
    "redirects": Field(redirect_map, required=False, default=[]),
    "comments": Field(comments, required=False, default={}),
    "analytics": Field(analytics, required=False, default={}),
    "languages": Field(records(LANGUAGE), required=False, default=[]),
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
            if field.max_length and len(clean[key]) > field.max_length:
                size = len(clean[key])
                raise Invalid(f"expected at most {field.max_length} characters; got {size:,}")
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
    text_ = text_.replace("\r\n", "\n")
    found = control_character(text_)
    if found:  # a binary file that happens to be UTF-8, or a stray NUL in the body
        raise invalid(path, "text", f"line {text_.count(chr(10), 0, found[0]) + 1}: {found[1]}")
    return text_


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
    if "image" in schema:
        check_image_alt(data, path, errors)
    if "nav" in schema:
        check_nav_order(data, path, errors)
    if "seriesOrder" in schema and "seriesOrder" in data and "series" not in data:
        errors.append(ContentError(path, "seriesOrder", "expected only with series; there is no series here"))
    if errors:
        raise ContentInvalid(errors)
    return clean, body


def check_nav_order(data, path, errors):
    """`order` places a page among the header's links: without `nav: true` it places nothing,
    and is almost always a forgotten `nav`."""
    if "order" in data and data.get("nav") is not True:
        message = "expected only with nav: true; this page is not in the header"
        errors.append(ContentError(path, "order", message))


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
