"""Serve a built folder as Cloudflare Pages serves it, for `manage.py preview` (`make preview`).

A port of the asset server `wrangler pages dev` runs (workers-sdk's
pages-shared/asset-server/handler.ts, as bundled in the wrangler pinned in tests/hosts/), kept in
the same order so the two can be read side by side:

1. `_redirects`, read from the folder: static rules by exact path, then the rules with splats or
   placeholders in file order; a 200 rule rewrites the path, any other status redirects.
2. Anything but GET and HEAD is 405.
3. Pretty URLs: `/projects` answers `projects.html`; `/projects.html`, `/index.html`, `/x/index`
   and `/projects/` answer 308 to the extensionless address; `/x` answers 308 to `/x/` when only
   `x/index.html` exists. Folders are never listed.
4. A miss answers the nearest `404.html` up the path with status 404 (`index.html` with 200 if
   there is none: Cloudflare's single-page-app fallback).
5. `_headers`, read from the folder, matched against the requested path; several matching rules
   add up, `! Name` removes a header. Then the host's own headers.

The tests compare every answer with wrangler's on the same folder (tests/export/test_preview.py).
The contact route is not a file: the command hands it to the Django application in-process.
"""

import hashlib
import mimetypes
import os
import posixpath
import re
import stat
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote, unquote

from pages.negotiation import MARKDOWN_PAGE, STANDALONE_PAGE, markdown_path, prefers_markdown

# Added to every served file, as Cloudflare does (`_headers` may replace it).
CACHE_CONTROL_BROWSER = "public, max-age=0, must-revalidate"
REDIRECT_STATUSES = {200, 301, 302, 303, 307, 308}
REASONS = {
    200: "OK", 301: "Moved Permanently", 302: "Found", 303: "See Other", 304: "Not Modified",
    307: "Temporary Redirect", 308: "Permanent Redirect", 404: "Not Found", 405: "Method Not Allowed",
}  # fmt: skip

# The types wrangler's `mime` package gives where Python's table differs, lacks the extension, or
# varies between Python versions; Python's own table answers the rest. text/* gets charset=utf-8.
WEB_TYPES = {
    "html": "text/html", "htm": "text/html", "css": "text/css", "txt": "text/plain",
    "text": "text/plain", "conf": "text/plain", "log": "text/plain", "ini": "text/plain",
    "md": "text/markdown", "markdown": "text/markdown", "csv": "text/csv", "vtt": "text/vtt",
    "yaml": "text/yaml", "yml": "text/yaml",
    "js": "application/javascript", "mjs": "application/javascript", "json": "application/json",
    "map": "application/json", "jsonld": "application/ld+json", "xml": "application/xml",
    "xsl": "application/xml", "atom": "application/atom+xml", "rss": "application/rss+xml",
    "webmanifest": "application/manifest+json", "wasm": "application/wasm", "pdf": "application/pdf",
    "toml": "application/toml", "gz": "application/gzip", "zip": "application/zip",
    "svg": "image/svg+xml", "png": "image/png", "jpg": "image/jpeg", "jpeg": "image/jpeg",
    "gif": "image/gif", "webp": "image/webp", "avif": "image/avif", "ico": "image/vnd.microsoft.icon",
    "woff": "font/woff", "woff2": "font/woff2", "ttf": "font/ttf", "otf": "font/otf",
}  # fmt: skip
_PYTHON_TYPES = mimetypes.MimeTypes()  # Python's built-in table only, not /etc/mime.types


def content_type(name):
    last = name.rsplit("/", 1)[-1].lower()
    extension = last.rsplit(".", 1)[-1] if "." in last else ""
    if not extension:
        return "application/octet-stream"
    found = WEB_TYPES.get(extension) or _PYTHON_TYPES.guess_type("x." + extension, strict=False)[0]
    found = found or "application/octet-stream"
    return f"{found}; charset=utf-8" if found.startswith("text/") and "charset" not in found else found


# The rules files. -----------------------------------------------------------------------------

_PLACEHOLDER = re.compile(r":([A-Za-z]\w*)")


def rule_regex(pattern):
    """As Cloudflare's rules engine: `*` is a splat (anything), `:name` one path segment."""
    regex = "(?P<splat>.*)".join(re.escape(part) for part in pattern.split("*"))
    regex = re.sub(r":([A-Za-z]\w*)", r"(?P<\1>[^/]+)", regex.replace(r"\:", ":"))
    return re.compile(regex)  # matched against the whole path (fullmatch)


def fill(template, groups):
    for name, value in groups.items():
        template = template.replace(f":{name}", value)
    return template


@dataclass
class Rules:
    static_redirects: dict = field(default_factory=dict)  # path: (status, to)
    dynamic_redirects: list = field(default_factory=list)  # (regex, status, to)
    # {path line: (regex, {name: value}, [names to remove])}: as in wrangler, a later rule for the
    # same path replaces the earlier one, in the earlier one's place.
    headers: dict = field(default_factory=dict)
    problems: list = field(default_factory=list)

    @classmethod
    def read(cls, folder):
        rules = cls()
        redirects, headers = Path(folder, "_redirects"), Path(folder, "_headers")
        if redirects.is_file():
            rules._parse_redirects(redirects.read_text(errors="replace"))
        if headers.is_file():
            rules._parse_headers(headers.read_text(errors="replace"))
        return rules

    def _parse_redirects(self, text):
        seen, static_allowed = set(), True
        for number, line in enumerate(text.split("\n"), 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            tokens = re.sub(r"\s+#.*$", "", line).split()
            if len(tokens) not in (2, 3) or "://" in tokens[0]:
                self.problems.append(f"_redirects:{number}: expected `/from /to [status]`: {line}")
                continue
            tokens[0] = "/" + tokens[0].lstrip("/") if not tokens[0].startswith("/") else tokens[0]
            source, target, status = tokens[0], tokens[1], tokens[2] if len(tokens) == 3 else "302"
            if not status.isdigit() or int(status) not in REDIRECT_STATUSES:
                self.problems.append(f"_redirects:{number}: status must be 200, 301, 302, 303, 307 or 308")
                continue
            if source in seen or (int(status) == 200 and "://" in target):
                self.problems.append(f"_redirects:{number}: ignored (duplicate, or a 200 to another host)")
                continue
            seen.add(source)
            if static_allowed and "*" not in source and not _PLACEHOLDER.search(source):
                self.static_redirects[source] = (int(status), target)
            else:
                static_allowed = False  # after the first dynamic rule, every rule is dynamic
                self.dynamic_redirects.append((rule_regex(source), int(status), target))

    def _parse_headers(self, text):
        pattern = None
        for number, line in enumerate(text.split("\n"), 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            if line.startswith("/") or re.match(r"\S+://", line):
                # A rule for a full URL (`https://host/*`) names a host: it never matches here.
                pattern = (rule_regex(line) if line.startswith("/") else re.compile("(?!)"), {}, [])
                self.headers[line] = pattern
            elif pattern is None:
                self.problems.append(f"_headers:{number}: a path must come before headers: {line}")
            elif line.startswith("! "):
                pattern[2].append(line[2:].strip().lower())
            elif ":" in line:
                name, value = (part.strip() for part in line.split(":", 1))
                if not name or " " in name or not value:
                    self.problems.append(f"_headers:{number}: expected `Name: value`: {line}")
                    continue
                previous = pattern[1].get(name.lower())
                pattern[1][name.lower()] = f"{previous}, {value}" if previous else value
            else:
                self.problems.append(f"_headers:{number}: expected `Name: value`: {line}")

    def redirect_for(self, path):
        if path in self.static_redirects:
            return self.static_redirects[path]
        for regex, status, target in self.dynamic_redirects:
            match = regex.fullmatch(path)
            if match:
                return status, fill(target, match.groupdict())
        return None

    def headers_for(self, path):
        for regex, values, removed in self.headers.values():
            match = regex.fullmatch(path)
            if match:
                yield {name: fill(value, match.groupdict()) for name, value in values.items()}, removed


# Answers. -------------------------------------------------------------------------------------


class Headers:
    """Case-insensitive response headers that keep appended values apart, as fetch's do."""

    def __init__(self):
        self.items = []  # [name, value]

    def get(self, name):
        values = [value for key, value in self.items if key.lower() == name.lower()]
        return ", ".join(values) if values else None

    def set(self, name, value):
        self.delete(name)
        self.items.append([name, value])

    def append(self, name, value):
        current = self.get(name)
        self.set(name, f"{current}, {value}" if current is not None else value)

    def delete(self, name):
        self.items = [item for item in self.items if item[0].lower() != name.lower()]


@dataclass
class Answer:
    status: int
    headers: Headers
    body: bytes = b""

    @property
    def status_line(self):
        return f"{self.status} {REASONS.get(self.status, '')}".strip()


# What a URL path may hold unescaped (RFC 3986's pchar and '/'), as URL parsers leave it.
URL_SAFE = "/:@!$&'()*+,;=-._~[]|^"
# Files a host never serves, in any letter case (a case-insensitive file system would find
# `/_Redirects`): Cloudflare's and Netlify's rules, nginx's include of deploy/nginx.conf.
RULES_FILES = {"_redirects", "_headers", "_redirects.nginx.conf", "_worker.js"}


def _resolve(path):
    """`path` with its dot segments and repeated slashes resolved, its trailing slash kept."""
    resolved = posixpath.normpath(path) if path not in ("", "/") else "/"
    if path.endswith("/") and resolved != "/":
        resolved += "/"
    return "/" + resolved.lstrip("/")


def normalize(raw_path):
    """The path as a URL parser leaves it: dot segments resolved, unsafe characters escaped."""
    return _resolve(quote(raw_path, safe=URL_SAFE + "%"))


def canonical(raw_path):
    """The one spelling of a request's path that every rule and the file lookup see: percent-
    decoded (UTF-8; other bytes kept as the file system's bytes), a backslash read as a slash
    (as browsers read it), then dot segments resolved, those written `%2e` or made by an encoded
    slash included: `/x/%2e%2e/_redirects` and `/x%2f..%2f_redirects` are `/_redirects`."""
    return _resolve(unquote(raw_path.replace("\\", "/"), errors="surrogateescape"))


def encoded(path):
    """A canonical path as a URL's path: UTF-8, percent-encoded (so a Location header is ASCII)."""
    return quote(path.encode("utf-8", "surrogateescape"), safe=URL_SAFE)


class StaticHost:
    """One built folder and its rules; `answer()` is one request. Rules are re-read when the files
    change, as `wrangler pages dev` does."""

    def __init__(self, folder):
        self.folder = Path(folder).resolve()
        self._rules, self._rules_key = None, None

    @property
    def rules(self):
        key = tuple(_stat_key(self.folder / name) for name in ("_redirects", "_headers"))
        if key != self._rules_key:
            self._rules, self._rules_key = Rules.read(self.folder), key
        return self._rules

    def find(self, path):
        """The file for a decoded URL path, or None: regular files only (no folder, no symlink)
        whose real path lies inside the folder (a linked folder inside it may point anywhere),
        never the rules files themselves, however the path reaches them."""
        candidate = Path(posixpath.normpath(str(self.folder) + "/" + path.lstrip("/")))
        try:
            real = Path(os.path.realpath(candidate))
            if not real.is_relative_to(self.folder):
                return None
            if real.relative_to(self.folder).as_posix().lower() in RULES_FILES:
                return None
            return candidate if stat.S_ISREG(candidate.lstat().st_mode) else None
        except (OSError, ValueError):
            return None

    def answer(self, method, raw_path, query="", request_headers=None):
        """One request, negotiated as deploy/worker.js does on Cloudflare Workers: a page with a
        markdown form answers it to an Accept that prefers markdown (pages/negotiation.py), and
        both its answers say `Vary: Accept`. A standalone page's address has a form where the
        build wrote one."""
        request_headers = request_headers or {}
        pathname = encoded(canonical(raw_path))
        always_form = MARKDOWN_PAGE.match(pathname)  # a standalone page's form only where built
        if method not in ("GET", "HEAD") or not (always_form or STANDALONE_PAGE.match(pathname)):
            return self._answer(method, raw_path, query, request_headers)
        form = markdown_path(pathname)
        if prefers_markdown(request_headers.get("accept")):
            answer = self._answer(method, form, query, request_headers)
            if answer.status in (200, 304):
                answer.headers.append("Vary", "Accept")
                return answer
            if not always_form:
                return self._answer(method, raw_path, query, request_headers)
        elif not always_form and self._answer("HEAD", form, "", {}).status != 200:
            return self._answer(method, raw_path, query, request_headers)
        answer = self._answer(method, raw_path, query, request_headers)
        answer.headers.append("Vary", "Accept")
        return answer

    def _answer(self, method, raw_path, query, request_headers):
        path = canonical(raw_path)
        search = f"?{query}" if query else ""
        rules = self.rules
        answer = self._respond(method, path, search, rules, request_headers)
        self._attach_headers(answer, encoded(path), rules)
        self._drop_missing_alternates(answer)
        if answer.status == 404:
            answer.headers.delete("Cache-Control")
            answer.headers.append("Cache-Control", "no-store")
        if method == "HEAD" or answer.status == 304:
            answer.body = b""
        return answer

    def _respond(self, method, pathname, search, rules, request_headers):
        """`pathname` is canonical(): decoded, its dot segments resolved. The rules files match
        it as a URL path; the host's own redirects encode the path they name."""
        redirect = rules.redirect_for(encoded(pathname))
        if redirect:
            status, target = redirect
            if status == 200:
                pathname = _path_of(target)
            else:
                return self._redirect(status, _location(target, search), strip=False)
        if method not in ("GET", "HEAD"):
            return Answer(405, Headers())
        find, serve = self.find, self._serve

        def moved(status, path):
            return self._redirect(status, encoded(path) + search)

        if pathname.endswith("/"):
            if file := find(pathname + "index.html"):
                return serve(file, request_headers)
            if pathname.endswith("/index/"):
                return moved(308, f"/{pathname[1 : -len('index/')]}")
            if find(pathname[:-1] + ".html"):
                return moved(308, f"/{pathname[1:-1]}")
            return self._not_found(pathname)
        if file := find(pathname):
            if not pathname.endswith(".html"):
                return serve(file, request_headers)
            extensionless = pathname[: -len(".html")]
            if extensionless.endswith("/index"):
                return moved(308, extensionless[: -len("index")])
            if find(extensionless) or extensionless == "/":
                return serve(file, request_headers)
            return moved(308, extensionless)
        if pathname.endswith("/index"):
            return moved(308, f"/{pathname[1 : -len('index')]}")
        if file := find(pathname + ".html"):
            return serve(file, request_headers)
        if find(pathname + "/index.html"):
            return moved(308, f"{pathname}/")
        return self._not_found(pathname)

    def _serve(self, file, request_headers):
        body = file.read_bytes()
        etag = '"' + hashlib.blake2b(body, digest_size=16).hexdigest() + '"'
        headers = Headers()
        headers.set("ETag", etag)
        headers.set("Content-Type", content_type(file.name))
        if none_match(request_headers.get("if-none-match"), etag):
            return Answer(304, Headers())
        if "authorization" not in request_headers and "range" not in request_headers:
            headers.append("Cache-Control", CACHE_CONTROL_BROWSER)
        return Answer(200, headers, body)

    @staticmethod
    def _redirect(status, location, strip=True):
        """A redirect as Cloudflare words it: a 308 has no body, the others one line of text.
        Its own redirects never start with `//` (no open redirect); `_redirects` rules may."""
        if strip:
            location = re.sub(r"^(/|%2F|%2f|%5C|%5c|%09|\s|\\)+(.*)", r"/\2", location)
        # Percent-encoded UTF-8 whatever the rule or the path held: a header is Latin-1 bytes, and
        # a value that is not would fail the answer after its status line was sent.
        location = quote(location, safe=URL_SAFE + "%?#")
        headers = Headers()
        headers.set("Location", location)
        if status == 308:
            return Answer(status, headers)
        headers.set("Content-Type", "text/plain;charset=UTF-8")
        return Answer(status, headers, f"Redirecting to {location}".encode())

    def _not_found(self, pathname):
        folder = pathname
        while folder:
            folder = folder[: folder.rfind("/")]
            if file := self.find(f"{folder}/404.html"):
                headers = Headers()
                headers.set("Content-Type", content_type(file.name))
                return Answer(404, headers, file.read_bytes())
        if file := self.find("/index.html"):  # no 404.html anywhere: the single-page-app fallback
            return self._serve(file, {})
        return Answer(404, Headers())

    def _drop_missing_alternates(self, answer):
        """Take out of the Link header each `rel="alternate"` naming a file of this site that
        the folder does not hold: the `_headers` rule of `/articles/:slug` names
        `/articles/:slug.md` for any slug, the 404 of `/articles/x` included."""
        links = answer.headers.get("Link")
        if links is None:
            return
        kept = [
            link
            for link in LINK_VALUES.split(links)
            if not (
                (target := LINK_TARGET.match(link))
                and 'rel="alternate"' in link
                and target[1].startswith("/")
                and not self.find(canonical(target[1]))
            )
        ]
        answer.headers.delete("Link")
        if kept:
            answer.headers.set("Link", ", ".join(kept))

    @staticmethod
    def _attach_headers(answer, pathname, rules):
        headers = answer.headers
        had_type = headers.get("Content-Type") is not None
        headers.set("Access-Control-Allow-Origin", "*")
        headers.set("Referrer-Policy", "strict-origin-when-cross-origin")
        if had_type:
            headers.set("X-Content-Type-Options", "nosniff")
        seen = set()
        for values, removed in rules.headers_for(pathname):
            for name in removed:
                headers.delete(name)
            for name, value in values.items():
                if name in seen:
                    headers.append(name, value)
                else:
                    headers.set(name, value)
                    seen.add(name)


# The values of a Link header (`<target>; params, <target>; params`) and a value's target.
LINK_VALUES = re.compile(r",\s*(?=<)")
LINK_TARGET = re.compile(r"\s*<([^<>]*)>")


def none_match(header, etag):
    """Whether an If-None-Match header names `etag` (weak comparison, RFC 9110 13.1.2): `*`, or
    a list of tags, any of them weak (`"a", W/"b"`)."""
    if not header:
        return False
    if header.strip() == "*":
        return True
    tags = {tag.removeprefix("W/") for tag in re.findall(r'(?:W/)?"[^"]*"', header)}
    return etag.removeprefix("W/") in tags


def _stat_key(path):
    try:
        info = path.stat()
        return info.st_mtime_ns, info.st_size, info.st_ino
    except OSError:
        return None


def _path_of(target):
    """The canonical path of a rewrite target (which may carry a query)."""
    return canonical(target.split("?", 1)[0].split("#", 1)[0])


def _location(target, search):
    """A redirect's Location: same-origin targets as a path; the request's query unless the
    target has its own."""
    if "://" in target:
        base, _, fragment = target.partition("#")
        if "?" in base:
            return target
        return base + search + (f"#{fragment}" if fragment else "")
    base, _, fragment = target.partition("#")
    path, has_query, query = base.partition("?")
    return (
        normalize(path)
        + (f"?{query}" if has_query and query else search)
        + (f"#{fragment}" if fragment else "")
    )


class PreviewApplication:
    """WSGI: the contact route goes to Django (`django_app`), everything else to the folder."""

    def __init__(self, folder, django_app, django_paths=()):
        self.host = StaticHost(folder)
        self.django_app = django_app
        self.django_paths = set(django_paths)

    def __call__(self, environ, start_response):
        if environ.get("PATH_INFO") in self.django_paths:
            return self.django_app(environ, start_response)
        raw_path = environ.get("preview.raw_path") or quote(environ.get("PATH_INFO", "/").encode("latin-1"))
        request_headers = {
            key[5:].replace("_", "-").lower(): value
            for key, value in environ.items()
            if key.startswith("HTTP_")
        }
        answer = self.host.answer(
            environ["REQUEST_METHOD"].upper(), raw_path, environ.get("QUERY_STRING", ""), request_headers
        )
        headers = [(name, value) for name, value in answer.headers.items]
        headers.append(("Content-Length", str(len(answer.body))))
        start_response(answer.status_line, headers)
        return [answer.body]
