"""What a static host needs besides the files: rewrite rules for the extensionless API paths and
response headers, written once here and used both to write `_redirects`/`_headers` and to resolve
links the way a host would (so the build's verification checks what is actually deployed).

Host differences this handles:
- Cloudflare Pages applies `_redirects` before files, so `/api/v1/projects/:slug` would also catch
  `/api/v1/projects/x.json`; a rule that rewrites `.json` paths to themselves comes first. Netlify
  serves an existing file first, so there the extra rule never fires.
- Cloudflare allows 2,000 static and 100 dynamic rules: the rules below are 4 static and 4 dynamic
  however many articles there are.
- Several `_headers` rules matching one path add up on Cloudflare (two Content-Types become
  `application/json, application/json`), so the header rules never overlap.
"""

import re

# (source, destination) of 200 rewrites, in order: the topmost matching rule wins.
REWRITES = [
    ("/api/v1", "/api/v1.json"),
    ("/api/v1/projects", "/api/v1/projects.json"),
    ("/api/v1/articles", "/api/v1/articles.json"),
    ("/api/v1/stack", "/api/v1/stack.json"),
    ("/api/v1/projects/:slug.json", "/api/v1/projects/:slug.json"),
    ("/api/v1/projects/:slug", "/api/v1/projects/:slug.json"),
    ("/api/v1/articles/:slug.json", "/api/v1/articles/:slug.json"),
    ("/api/v1/articles/:slug", "/api/v1/articles/:slug.json"),
]

API_HEADERS = ["Content-Type: application/json", "Access-Control-Allow-Origin: *"]
REVALIDATE = "Cache-Control: public, max-age=0, must-revalidate"

# (path pattern, headers); patterns never overlap, see above.
HEADERS = [
    ("/api/v1", [*API_HEADERS, REVALIDATE]),
    ("/api/v1.json", [*API_HEADERS, REVALIDATE]),
    ("/api/v1/*", [*API_HEADERS, REVALIDATE]),
    ("/openapi.json", ["Access-Control-Allow-Origin: *", REVALIDATE]),
    ("/llms.txt", ["Content-Type: text/plain; charset=utf-8", "Access-Control-Allow-Origin: *", REVALIDATE]),
    ("/feed.xml", ["Content-Type: application/atom+xml; charset=utf-8", REVALIDATE]),
    # Asset names carry no content hash, so they are cached for an hour, not forever.
    ("/static/*", ["Cache-Control: public, max-age=3600"]),
]


def redirects_file(extra_rules=()):
    lines = ["# Extensionless API paths are served from their .json files (status 200 rewrites)."]
    lines += [f"{source} {destination} 200" for source, destination in REWRITES]
    lines += list(extra_rules)
    return "\n".join(lines) + "\n"


def headers_file():
    blocks = [pattern + "".join(f"\n  {header}" for header in headers) for pattern, headers in HEADERS]
    return "\n".join(blocks) + "\n"


def _compile(source):
    # As Cloudflare's rules engine does: a placeholder matches one path segment's characters.
    pattern = re.sub(r":([A-Za-z]\w*)", r"(?P<\1>[^/]+)", re.escape(source).replace(r"\:", ":"))
    return re.compile(f"^{pattern}$")


_RULES = [(_compile(source), destination) for source, destination in REWRITES]


def rewrite(path):
    """The path a host serves for `path` after the rewrite rules (the first match wins)."""
    for regex, destination in _RULES:
        match = regex.match(path)
        if match:
            return re.sub(r":([A-Za-z]\w*)", lambda m, found=match: found.group(m.group(1)), destination)
    return path


def served_file(path, files):
    """The built file a static host answers `path` (a URL path) with, or None.

    Rewrites first, then the file itself, then "pretty URLs" (`/projects` from `projects.html`,
    `/` from `index.html`), as Cloudflare Pages and Netlify do."""
    if path.startswith("/api/v1"):
        path = rewrite(path)
    candidates = [path.lstrip("/"), path.strip("/") + ".html", (path.strip("/") + "/index.html").lstrip("/")]
    return next((candidate for candidate in candidates if candidate in files), None)
