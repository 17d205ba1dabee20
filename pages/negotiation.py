"""Markdown by content negotiation: a human page asked for with `Accept: text/markdown` (what
coding agents send) answers its markdown form, the file beside its HTML one with `.md` for `.html`
(`/projects/alpha` is projects/alpha.md, its twin; `/` is index.md; pages/markdown_forms.py).

One rule for every host: `prefers_markdown()` here (the authoring server's middleware below and
the preview), deploy/worker.js (Cloudflare Workers) and the maps of deploy/nginx.conf decide the
same way, and the tests ask each host the same table of Accept headers.
"""

import re

from django.urls import Resolver404, resolve
from django.utils.encoding import iri_to_uri

MARKDOWN_TYPE = "text/markdown"
# RFC 9727 discovery: every page points to the API catalog (the hosts' headers too).
CATALOG_LINK = '</.well-known/api-catalog>; rel="api-catalog"'
# The addresses of those pages, as the static hosts see them (deploy/worker.js and
# deploy/nginx.conf hold the same expression; a test compares them). A tag's slug may be
# percent-encoded; no segment holds a dot (`/projects/x.md` is a file, not a page).
MARKDOWN_PAGE_PATH = (
    r"^/$|^/(projects|articles|stack|tags)$|^/(projects|articles|tags|series)/[^/.]+$"
    r"|^/(projects|articles)/page/[0-9]+$|^/tags/[^/.]+/page/[0-9]+$"
    r"|^/[a-z]{2,3}(-[a-z0-9]{2,8}){0,2}/(projects|articles)/[^/.]+$"
)
MARKDOWN_PAGE = re.compile(MARKDOWN_PAGE_PATH)
# A standalone page's address (/about, content/pages/; /fr/about, its translation): one segment
# without a dot, or two under a language's code. The site's own pages of that shape (/developers,
# /search, /fr/projects) have no markdown form, so the address alone cannot say: a page of this
# shape has one where its address plus `.md` is its form's (the authoring server resolves both,
# markdown_form()) or, on the static hosts, where the build wrote that file (deploy/worker.js and
# deploy/nginx.conf hold this expression too; a test compares them).
STANDALONE_PAGE_PATH = r"^/[^/.]+$|^/[a-z]{2,3}(-[a-z0-9]{2,8}){0,2}/[^/.]+$"
STANDALONE_PAGE = re.compile(STANDALONE_PAGE_PATH)
_Q = re.compile(r"^q=([0-9](?:\.[0-9]{0,3})?)$")


def accepted(header):
    """[(type, subtype, q)] of an Accept header; a range whose q cannot be read counts as q=1."""
    ranges = []
    for part in (header or "").split(","):
        media, *params = (piece.strip() for piece in part.split(";"))
        if "/" not in media:
            continue
        main, sub = (side.strip().lower() for side in media.split("/", 1))
        q = 1.0
        for param in params:
            match = _Q.match(param.replace(" ", "").lower())
            if match:
                q = min(float(match[1]), 1.0)
        ranges.append((main, sub, q))
    return ranges


def quality(ranges, media_type):
    """The q the most specific range matching `media_type` gives it (RFC 9110, 12.5.1), 0 if none."""
    main, sub = media_type.split("/")
    for wanted in ((main, sub), (main, "*"), ("*", "*")):
        found = [q for m, s, q in ranges if (m, s) == wanted]
        if found:
            return max(found)
    return 0.0


def prefers_markdown(header):
    """Whether an Accept header names text/markdown and ranks it above text/html (whose q is
    that of text/html, text/* or */*, the most specific given). A tie, `*/*`, `text/*`, a
    browser's Accept or none: HTML, the page's own form. Markdown is only answered to a client
    that names it."""
    ranges = accepted(header)
    markdown = max((q for main, sub, q in ranges if (main, sub) == ("text", "markdown")), default=0.0)
    return markdown > 0 and markdown > quality(ranges, "text/html")


def markdown_path(path):
    """The address of a page's markdown form: its own plus `.md`, `/index.md` for `/`."""
    return "/index.md" if path == "/" else path + ".md"


def markdown_name(name):
    """The name of the route of a page's markdown form (pages/urls.py declares the two at once)."""
    return f"{name}-md"


def markdown_form(path, page=None):
    """The decoded path of the markdown form of the page at `path`, or None when it has none: when
    its address plus `.md` is the route named for its page's. `page`: the path's match, when
    Django already made it for the page's view."""
    if not MARKDOWN_PAGE.match(path) and not STANDALONE_PAGE.match(path):
        return None  # none of the pages with a form (a build's JSON, twins and cards among them)
    try:
        page, form = page or resolve(path), resolve(markdown_path(path))
    except Resolver404:
        return None
    return markdown_path(path) if form.view_name == markdown_name(page.view_name) else None


def link_header(markdown):
    """The Link value naming a page's markdown form."""
    return f'<{iri_to_uri(markdown)}>; rel="alternate"; type="{MARKDOWN_TYPE}"'


class MarkdownNegotiationMiddleware:
    """On the authoring server (and the build, which asks with no Accept): a page with a markdown
    form says so (`Link`, `Vary: Accept`), and answers it to an Accept that prefers it."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.method not in ("GET", "HEAD"):
            return self.get_response(request)
        path = request.path_info
        # Only a client that prefers markdown needs the form before the view runs; for the rest,
        # the page's own match, made for its view, saves resolving each page's address twice.
        markdown = markdown_form(path) if prefers_markdown(request.headers.get("Accept")) else None
        answering_markdown = markdown is not None
        if answering_markdown:
            request.path_info = markdown  # resolved after this: the markdown form's view answers
        response = self.get_response(request)
        if not answering_markdown:
            markdown = markdown_form(path, request.resolver_match)
        if markdown is None:
            return response
        vary = [v.strip() for v in response.get("Vary", "").split(",") if v.strip()]
        response["Vary"] = ", ".join([*vary, "Accept"] if "Accept" not in vary else vary)
        if response.status_code == 200:
            # As the hosts' headers: the page names its form, a markdown file only the catalog.
            response["Link"] = (
                CATALOG_LINK if answering_markdown else f"{link_header(markdown)}, {CATALOG_LINK}"
            )
        return response
