"""Links and images in a markdown body, resolved while it renders (a core rule of
portfolio.content.markdown's parser; the rules and the checks around them are in references.py).

Importable without Django's apps (bench/floor.py renders with the same parser): a body rendered
without a file (markdown.Context's `rel`) has nothing resolved.
"""

import posixpath
import re
from html.parser import HTMLParser
from urllib.parse import unquote, urlsplit

from portfolio.reversing import reverse_slug

from .rules import SLUG_RE, ContentError, Invalid

# `sizes` of an image in a body: the text column's width on a wide screen, the screen's less
# padding on a narrow one.
BODY_SIZES = "(min-width: 46rem) 43.5rem, calc(100vw - 2.5rem)"
# An image opening a body without a page image (in its first block, or the one after it) is the
# page's first picture.
LEADING_BLOCKS = 2
SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")
ITEM_ADDRESS = re.compile(r"^/(projects|articles)/([^/]+)$")
ITEM_FILE = re.compile(r"^(projects|articles|pages)/([^/]+)\.md$")
ROUTES = {"projects": "pages:project", "articles": "pages:article", "pages": "pages:page"}
# The target recorded for a remote image: its host, which site.yaml's imageHosts must list
# (references.ReferenceChecker), or the page's Content-Security-Policy would refuse it.
IMAGE_HOST = "image-host:"


def resolve(rel, url):
    """(target, address) of a reference in the file `rel`: target "media/<path>" or
    "<collection>/<slug>", address what the published page links to. None for what is left
    alone. Raises Invalid for a relative link to anything else."""
    if not url or url.startswith(("#", "?", "//")) or SCHEME.match(url):
        return None
    raw_path = re.match(r"[^?#]*", url)[0]
    path, rest = unquote(raw_path), url[len(raw_path) :]
    if path.startswith("/"):
        found = ITEM_ADDRESS.fullmatch(path)
        if path.startswith("/media/"):
            return "media/" + posixpath.normpath(path[len("/media/") :]), url
        if found and SLUG_RE.fullmatch(found[2]):
            return f"{found[1]}/{found[2]}", url
        return None  # another page of the site (/stack, /feed.xml)
    joined = posixpath.normpath(posixpath.join(posixpath.dirname(rel), path))
    found = ITEM_FILE.fullmatch(joined)
    if joined.startswith("media/"):
        return joined, "/" + joined + rest
    if found and SLUG_RE.fullmatch(found[2]):
        return f"{found[1]}/{found[2]}", reverse_slug(ROUTES[found[1]], found[2]) + rest
    raise Invalid(
        "expected a media file (../media/...), an item's or a page's file (../articles/<slug>.md, "
        "../pages/<slug>.md), "
        "a /projects/ or /articles/ address, or an absolute URL"
    )


def line_of(env, written):
    """The file line where `written` first appears in the body being rendered."""
    body, context = env["body"], env["context"]
    at = body.find(written)
    return context.first_line + (body.count("\n", 0, at) if at >= 0 else 0)


def resolve_links(state):
    """A core rule, after the inline rules made the links and images: resolve each, record it,
    and give the images their size, loading and variants."""
    env = state.env
    context = env["context"]
    if context.rel is None:
        return
    leading = context.opens_page
    block = 0  # top-level blocks read so far
    for token in state.tokens:
        if token.level == 0 and token.nesting >= 0:
            block += 1
        if token.type in ("html_block", "html_inline"):
            record_raw_images(env, token.content)
        if token.type != "inline":
            continue
        for child in token.children or ():
            if child.type == "html_inline":
                record_raw_images(env, child.content)
            elif child.type in ("link_open", "image"):
                resolve_one(env, child, state.md, first=leading and block <= LEADING_BLOCKS)
                leading = leading and child.type != "image"


def resolve_one(env, token, md, first):
    context = env["context"]
    attribute = "href" if token.type == "link_open" else "src"
    written = token.attrGet(attribute) or ""
    # As the author wrote it, for messages: markdown-it percent-encodes what it keeps (`été`).
    shown = md.normalizeLinkText(written)
    try:
        found = resolve(context.rel, written)
    except Invalid as exc:
        line = line_of(env, shown)
        env["errors"].append(ContentError(context.rel, f"line {line}", f"{shown!r}: {exc}"))
        return
    if found:
        target, address = found
        env["resolved"].append((line_of(env, shown), target, shown))
        token.attrSet(attribute, address)
    if token.type == "image":
        if found is None:
            record_image_host(env, written)
        media = context.media.get(found[0].removeprefix("media/")) if found else None
        decorate(token, media, first=first)


def record_raw_images(env, text):
    """Raw HTML is published as written: its images' hosts are recorded from its text."""
    if "src" in text.lower():
        for url in raw_image_urls(text):
            record_image_host(env, url)


def image_host(url):
    """The host of a remote image's URL (`https://images.pexels.com/x.jpg`, `//host/x.png`), with
    its port if it names one; None for the site's own images and what is no image address."""
    if not url.startswith("//") and not re.match(r"(?i)https?:", url):
        return None
    try:
        parts = urlsplit(url)
        host, port = (parts.hostname or ""), parts.port
    except ValueError:
        return url.split("/")[2] if url.count("/") >= 2 else url
    return f"{host}:{port}" if port else host


def record_image_host(env, url):
    host = image_host(url.strip())
    if host is not None:
        # Raw HTML's addresses come decoded (`&amp;` is `&`): then the host finds the line.
        line = line_of(env, url if url in env["body"] else host)
        env["resolved"].append((line, IMAGE_HOST + host, url))


class ImageSources(HTMLParser):
    """The addresses of the images in raw HTML: each <img>'s `src` and `srcset`, each <source>'s
    `srcset` (inside <picture>)."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.urls = []

    def handle_starttag(self, tag, attrs):
        values = dict(attrs)
        if tag == "img" and values.get("src"):
            self.urls.append(values["src"])
        if tag in ("img", "source") and values.get("srcset"):
            self.urls += [
                candidate.split()[0] for candidate in values["srcset"].split(",") if candidate.strip()
            ]


def raw_image_urls(text):
    parser = ImageSources()
    parser.feed(text)
    parser.close()
    return parser.urls


def decorate(img, media, first=False):
    """Size, loading and the variants of an image token: known sizes mean no layout shift. The
    page's first picture is fetched at once and first (as includes/picture.html does), the others
    lazily."""
    if media and media.width:
        img.attrSet("width", str(media.width))
        img.attrSet("height", str(media.height))
    if first:
        img.attrSet("fetchpriority", "high")
    else:
        img.attrSet("loading", "lazy")
    img.attrSet("decoding", "async")
    if media and media.variants:
        img.attrSet("srcset", media.srcset)
        img.attrSet("sizes", BODY_SIZES)


def plugin(md):
    md.core.ruler.push("resolve_links", resolve_links)
