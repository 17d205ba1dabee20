"""Links and images in a markdown body, resolved while it renders (a treeprocessor of
portfolio.content.markdown; the rules and the checks around them are in references.py).

Importable without Django's apps (bench/floor.py renders with the same extensions): a body
rendered without a file (markdown.Context's `rel`) has nothing resolved.
"""

import posixpath
import re
from dataclasses import dataclass, field
from html.parser import HTMLParser
from urllib.parse import unquote, urlsplit

from markdown.extensions import Extension
from markdown.treeprocessors import Treeprocessor

from portfolio.reversing import reverse_slug

from .loader import SLUG_RE, ContentError, Invalid

# `sizes` of an image in a body: the text column's width on a wide screen, the screen's less
# padding on a narrow one.
BODY_SIZES = "(min-width: 46rem) 43.5rem, calc(100vw - 2.5rem)"
# An image opening a body without a page image (in its first paragraph, or just after one) is
# the page's first picture.
LEADING_BLOCKS = 2
SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")
ITEM_ADDRESS = re.compile(r"^/(projects|articles)/([^/]+)$")
ITEM_FILE = re.compile(r"^(projects|articles)/([^/]+)\.md$")
ROUTES = {"projects": "pages:project", "articles": "pages:article"}
# The target recorded for a remote image: its host, which site.yaml's imageHosts must list
# (references.Checker), or the page's Content-Security-Policy would refuse it.
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
        "expected a media file (../media/...), an item's file (../articles/<slug>.md), "
        "a /projects/ or /articles/ address, or an absolute URL"
    )


@dataclass
class Document:
    """One markdown body being rendered (its markdown.Context), and what its references were."""

    context: object
    body: str
    references: list = field(default_factory=list)  # [(line, target, written)]
    errors: list = field(default_factory=list)

    @property
    def rel(self):
        return self.context.rel

    @property
    def first_line(self):
        return self.context.first_line

    def line_of(self, written):
        at = self.body.find(written)
        return self.first_line + (self.body.count("\n", 0, at) if at >= 0 else 0)


class ReferenceTreeprocessor(Treeprocessor):
    def run(self, root):
        document = self.md.document
        if document.rel is None:
            return
        leading = document.context.opens_page
        for element in root.iter():
            if element.tag not in ("a", "img"):
                continue
            attribute = "href" if element.tag == "a" else "src"
            written = element.get(attribute, "")
            try:
                found = resolve(document.rel, written)
            except Invalid as exc:
                line = document.line_of(written)
                document.errors.append(ContentError(document.rel, f"line {line}", f"{written!r}: {exc}"))
                continue
            if found:
                target, address = found
                document.references.append((document.line_of(written), target, written))
                element.set(attribute, address)
            if element.tag == "img":
                if found is None:
                    record_image_host(document, written)
                media = document.context.media.get(found[0].removeprefix("media/")) if found else None
                decorate(element, media, first=leading and opening(root, element))
                leading = False
        # Raw HTML is published as written: its images are found in the text.
        for block in self.md.htmlStash.rawHtmlBlocks:
            if isinstance(block, str) and "src" in block.lower():
                for url in raw_image_urls(block):
                    record_image_host(document, url)


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


def record_image_host(document, url):
    host = image_host(url.strip())
    if host is not None:
        # Raw HTML's addresses come decoded (`&amp;` is `&`): then the host finds the line.
        line = document.line_of(url if url in document.body else host)
        document.references.append((line, IMAGE_HOST + host, url))


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


def opening(root, img):
    """Whether the image is in the body's first LEADING_BLOCKS blocks (in its first viewport)."""
    return any(img in block.iter() for block in root[:LEADING_BLOCKS])


def decorate(img, media, first=False):
    """Size, loading and the variants of an <img>: known sizes mean no layout shift. The page's
    first picture is fetched at once and first (as includes/picture.html does), the others lazily."""
    if media and media.width:
        img.set("width", str(media.width))
        img.set("height", str(media.height))
    if first:
        img.set("fetchpriority", "high")
    else:
        img.set("loading", "lazy")
    img.set("decoding", "async")
    if media and media.variants:
        img.set("srcset", media.srcset)
        img.set("sizes", BODY_SIZES)


class ReferenceExtension(Extension):
    def extendMarkdown(self, md):  # noqa: N802 (Python-Markdown's name)
        # After the inline patterns (20) made the links and images, before toc (5).
        md.treeprocessors.register(ReferenceTreeprocessor(md), "references", 8)
