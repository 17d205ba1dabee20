"""What a static host needs besides the files: rewrite rules for the extensionless API paths and
response headers, written once here and used both to write `_redirects`/`_headers` and to resolve
links the way a host would (so the build's verification checks what is actually deployed).

Host differences this handles:
- Cloudflare Pages applies `_redirects` before files, so `/api/v1/projects/:slug` would also catch
  `/api/v1/projects/x.json`; a rule that rewrites `.json` paths to themselves comes first. Netlify
  serves an existing file first, so there the extra rule never fires.
- Cloudflare allows 2,000 static and 100 dynamic rules: the rules below are 4 static and 4 dynamic
  however many articles there are, plus 5 static rules per alias of a renamed item and one per
  spelling of an absolute-path alias or site.yaml redirect (portfolio/content/aliases.py's `spellings`).
- A renamed item's old addresses answer 301 (portfolio/content/aliases.py). Those rules come
  first: Netlify applies the first rule that matches, and `/api/v1/projects/:slug.json` would
  catch an old `.json` address; Cloudflare counts every rule after the first dynamic one as
  dynamic. Netlify serves an existing file before a rule that is not forced (`301!`, which
  Cloudflare refuses): no file is at an old address, the import keeps every alias off the slugs
  there are and the build removes the files of a slug that is gone. nginx reads the same moves
  from its own include (`nginx_redirects`).
- Several `_headers` rules matching one path add up on Cloudflare (two Content-Types become
  `application/json, application/json`), so no two rules that match one path set the same header
  (header_rules). A rule's header replaces the host's default of that name (Cloudflare's own
  `Referrer-Policy`, `Cache-Control`...).
"""

import html
import re
from urllib.parse import unquote

from pages.negotiation import CATALOG_LINK
from pages.security import ARTICLE_PAGE, article_policy, content_security_policy, security_headers
from portfolio.content.aliases import OTHER_FILE

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

REVALIDATE = "Cache-Control: public, max-age=0, must-revalidate"
ANYONE = "Access-Control-Allow-Origin: *"
API_HEADERS = ["Content-Type: application/json", ANYONE, REVALIDATE]
# RFC 9727 discovery: pages point to the API catalog (CATALOG_LINK), API documents to their description.
SERVICE_DESC_LINK = '</openapi.json>; rel="service-desc"'
# The human pages. A `_headers` file cannot say "every .html file", so they are listed (a test
# fails when a built page is missing); every response, known or not, gets the security headers
# from `/*` in any case. A page with a markdown form (pages/negotiation.py) names it in its Link
# header: {pattern: its markdown form's address}, a placeholder filled from the page's own
# (Cloudflare fills them; Netlify does not, docs/hosting.md). A tag's pages are matched segment by
# segment (`/tags*` would match its feed too, and set its Cache-Control twice).
MARKDOWN_PAGES = {
    "/": "/index.md",
    "/projects": "/projects.md",
    "/projects/:slug": "/projects/:slug.md",
    "/projects/page/:page": "/projects/page/:page.md",
    "/articles": "/articles.md",
    "/articles/:slug": "/articles/:slug.md",
    "/articles/page/:page": "/articles/page/:page.md",
    "/stack": "/stack.md",
    "/tags": "/tags.md",
    "/tags/:tag": "/tags/:tag.md",
    "/tags/:tag/page/:page": "/tags/:tag/page/:page.md",
    "/series/:series": "/series/:series.md",
}
PAGES = ["/developers", "/search", "/contact*"]
# Every markdown file (the twins, the pages' markdown forms, the skill): a placeholder above also
# matches `/projects/x.md` and `/tags/x/page/2.md`, so this rule, after them, takes their page
# headers off (`! Name`, which Cloudflare applies in rule order) and sets the markdown file's own.
MARKDOWN_FILES = "/*.md"
STATIC = "/static/*"
# Static names carry a content hash (pages/assets.py): a changed file is a new address.
IMMUTABLE = "Cache-Control: public, max-age=31536000, immutable"
MARKDOWN = ["Content-Type: text/markdown; charset=utf-8", ANYONE]
SKILLS_INDEX = "/.well-known/agent-skills/index.json"
TEXT = ["Content-Type: text/plain; charset=utf-8", ANYONE, REVALIDATE]
ATOM = ["Content-Type: application/atom+xml; charset=utf-8", REVALIDATE]
CATALOG_TYPE = 'Content-Type: application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727"'


def header_rules(pages=(), languages=()):
    """(path pattern, headers) of `_headers`; `pages`: the addresses of the standalone pages and
    their translations (`/about`, `/fr/about`), each naming its markdown form as the pages of
    MARKDOWN_PAGES do; `languages`: the codes of the site's other languages, whose items name
    theirs and whose feeds are typed (`/:lang/projects/:slug` would match /cards/projects/x.png).
    Several rules may match one path (Cloudflare and Netlify apply them all), but never two that
    set the same header: Cloudflare would join the values (two Content-Types become `application/json,
    application/json`). `/*` holds the security headers, so no other rule may set them."""
    page = [f"Link: {CATALOG_LINK}", REVALIDATE]
    index = [*API_HEADERS, f"Link: {CATALOG_LINK}, {SERVICE_DESC_LINK}"]
    document = [*API_HEADERS, f"Link: {SERVICE_DESC_LINK}"]
    forms = [*MARKDOWN_PAGES.items(), *((page, page + ".md") for page in pages)]
    forms += [
        (f"/{code}/{kind}/:slug", f"/{code}/{kind}/:slug.md")
        for code in languages
        for kind in ("projects", "articles")
    ]
    feeds = ["/feed.xml", "/tags/:tag/feed.xml", "/series/:series/feed.xml"]
    feeds += [f"/{code}{feed}" for code in languages for feed in feeds[:2]]
    return [
        *security_rules(languages),
        *((pattern, [f"Link: {markdown_link(form)}, {CATALOG_LINK}", REVALIDATE]) for pattern, form in forms),
        *((pattern, page) for pattern in PAGES),
        (MARKDOWN_FILES, ["! Link", "! Cache-Control", *MARKDOWN, f"Link: {CATALOG_LINK}", REVALIDATE]),
        ("/api/v1", index),
        ("/api/v1.json", index),
        # Placeholders, not `/api/v1/*`, which Netlify also matches to /api/v1 and /api/v1.json.
        ("/api/v1/:collection", document),
        ("/api/v1/:collection/:slug", document),
        ("/openapi.json", [ANYONE, REVALIDATE]),
        ("/.well-known/api-catalog", [CATALOG_TYPE, ANYONE, REVALIDATE]),
        (SKILLS_INDEX, ["Content-Type: application/json", ANYONE, REVALIDATE]),
        ("/llms.txt", TEXT),
        ("/llms-full*", TEXT),  # llms-full.txt and its parts, llms-full-<n>.txt
        *((feed, ATOM) for feed in feeds),
        (STATIC, [IMMUTABLE]),
    ]


# With comments on, the paths whose pages are not an article's (`/articles/:slug`, its twin too):
# each gets the site's policy beside `/*`'s, which is the articles'. A browser enforces every
# policy a response carries (Cloudflare joins the two values with a comma, Netlify sends both),
# so these get the narrower: the site's. The first five stand under each other language's
# `/<code>` too: all its pages but its articles (`/fr/articles/:slug`, comments too). An address
# under no path of the site's (unknown: answered with 404.html) keeps the articles' policy.
NOT_ARTICLES = ["/", "/:page", "/articles/page/*", "/projects/*", "/tags/*", "/series/*", "/contact/*",
                "/api/*", "/static/*", "/media/*", "/pagefind/*", "/cards/*", "/.well-known/*"]  # fmt: skip


def security_rules(languages=()):
    """The rules of the security headers: `/*` alone, or, when the articles' pages have a policy
    of their own (comments), `/*` with it and the site's policy on every other path."""
    if article_policy() is None:
        return [("/*", security_headers())]
    site = f"Content-Security-Policy: {content_security_policy()}"
    everywhere = security_headers("/articles/:slug")  # an article's page's (ARTICLE_PAGE)
    others = [f"/{code}{pattern}" for code in languages for pattern in NOT_ARTICLES[:5]]
    return [("/*", everywhere), *((pattern, [site]) for pattern in NOT_ARTICLES + others)]


# The include of deploy/nginx.conf that holds the moves, written beside `_redirects`.
NGINX_REDIRECTS = "_redirects.nginx.conf"
PLAIN_PATH = re.compile(r"[A-Za-z0-9/._~-]+")

# What `wrangler deploy` (deploy/wrangler.json) leaves out of a Worker's static assets.
ASSETS_IGNORE = ".assetsignore"


def assets_ignore():
    """`.assetsignore`: nginx's include is no asset (Workers read `_headers` and `_redirects`
    themselves and serve neither)."""
    return f"{NGINX_REDIRECTS}\n{ASSETS_IGNORE}\n"


def redirects_file(extra_rules=(), moves=()):
    """`_redirects`: the moves of renamed items (301), the API's rewrites, then `extra_rules`."""
    lines = ["# Old addresses (front matter `aliases`, site.yaml's `redirects`)."] if moves else []
    lines += [f"{old} {new} 301" for old, new in moves]
    lines += ["# Extensionless API paths are served from their .json files (status 200 rewrites)."]
    lines += [f"{source} {destination} 200" for source, destination in REWRITES]
    lines += list(extra_rules)
    return "\n".join(lines) + "\n"


def nginx_redirects(moves):
    """The include of deploy/nginx.conf's server: the Content-Security-Policy (its `img-src`
    names site.yaml's imageHosts) in `$portfolio_csp`, which the server's add_header sends, then
    an exact location per old address, which wins over every other location. The query is kept,
    as Cloudflare and Netlify keep it."""
    lines = ["# The site's Content-Security-Policy, written by the build (as in _headers)."]
    lines += [f'set $portfolio_csp "{content_security_policy()}";']
    if articles := article_policy():  # comments: the articles' pages have their own
        lines += [f'if ($uri ~ "{ARTICLE_PAGE.pattern}") {{ set $portfolio_csp "{articles}"; }}']
    lines += ["# Old addresses (front matter `aliases`, site.yaml's `redirects`), written by the build."]
    lines += [f"location = {nginx_location(old)} {{ return 301 {new}$is_args$args; }}" for old, new in moves]
    return "\n".join(lines) + "\n"


def nginx_location(path):
    """An exact location's path: nginx compares it with the request's decoded path, so a
    percent-encoded path (an absolute-path alias, `/caf%C3%A9/`) is written decoded, and quoted
    when it holds more than plain path characters (`;` would end the directive)."""
    decoded = unquote(path)
    return decoded if PLAIN_PATH.fullmatch(decoded) else f'"{decoded}"'


def redirect_pages(moves, base_url):
    """{file: HTML} for a host without redirect rules (settings.REDIRECT_PAGES: GitHub Pages):
    each old page address a static file can hold, as a page that sends the reader on, as Hugo
    writes its aliases: a meta refresh, the canonical link, a plain link, and noindex. The
    markdown twins', API documents' and feeds' old addresses are left out: no page can stand for
    them."""
    pages = {}
    for old, new in moves:
        name = redirect_page_file(old)
        if name:
            pages.setdefault(name, redirect_page(base_url + new))
    return pages


def redirect_page_file(old):
    """The file a static host serves the old address `old` from, or None for an old address of
    a file other than a page (a markdown twin, an API document, a feed: `/blog/index.xml`):
    `/posts/a/` is posts/a/index.html, `/posts/a` and `/posts/a.html` are posts/a.html (GitHub
    Pages serves `/posts/a` from it)."""
    path = unquote(old)
    if path.startswith("/api/") or OTHER_FILE.search(path):
        return None
    if path.endswith("/"):
        return path[1:] + "index.html"
    return path[1:] if path.endswith(".html") else path[1:] + ".html"


def redirect_page(url):
    url = html.escape(url)
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        # Shown for a moment, or where refresh is off: readable on a phone and in dark mode.
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        '<meta name="color-scheme" content="light dark">\n'
        f"<title>Moved to {url}</title>\n"
        f'<link rel="canonical" href="{url}">\n'
        '<meta name="robots" content="noindex">\n'
        f'<meta http-equiv="refresh" content="0; url={url}">\n'
        f'</head>\n<body>\n<p>This page has moved to <a href="{url}">{url}</a>.</p>\n</body>\n</html>\n'
    )


def headers_file(pages=(), languages=()):
    rules = header_rules(pages, languages)
    blocks = [pattern + "".join(f"\n  {header}" for header in headers) for pattern, headers in rules]
    return "\n".join(blocks) + "\n"


def markdown_link(form):
    """The Link value naming a page's markdown form (pages.negotiation.link_header's)."""
    return f'<{form}>; rel="alternate"; type="text/markdown"'


def rule_pattern(source):
    """A `_headers` or `_redirects` path pattern as Cloudflare's rules engine reads it: a
    placeholder matches one path segment's characters, a splat anything."""
    pattern = re.sub(r":([A-Za-z]\w*)", r"(?P<\1>[^/]+)", re.escape(source).replace(r"\:", ":"))
    pattern = pattern.replace(re.escape("*"), ".*")  # a `_headers` splat matches anything
    return re.compile(f"^{pattern}$")


_RULES = [(rule_pattern(source), destination) for source, destination in REWRITES]


def rewrite(path):
    """The path a host serves for `path` after the rewrite rules (the first match wins)."""
    for regex, destination in _RULES:
        match = regex.fullmatch(path)
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
