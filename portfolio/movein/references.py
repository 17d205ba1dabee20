"""Images and links in a converted body: local files copied into the content folder's media/,
links to other moved posts pointed at their new files, remote images' hosts collected for
site.yaml's `imageHosts` (the Content-Security-Policy allows them)."""

import filecmp
import posixpath
import re
from urllib.parse import quote, unquote, urlsplit

from .markup import outside_code

TITLE = r"""(?P<title>\s+(?:"[^"\n]*"|'[^'\n]*'|\([^)\n]*\)))?"""
TEXT = r"[^\[\]\n]*(?:\[[^\[\]\n]*\][^\[\]\n]*)*"
# A destination in pointy brackets holds no `<` (CommonMark's rule): each `<` then starts at most one
# search to the line's end, not one per `![a](<` before it.
TARGET = r"(?P<target><[^<>\n]+>|[^\s()]*(?:\([^\s()]*\)[^\s()]*)*)"
IMAGE = re.compile(rf"!\[(?P<text>{TEXT})\]\(\s*{TARGET}{TITLE}\s*\)")
LINK = re.compile(rf"(?<![!\]\\])\[(?P<text>{TEXT})\]\(\s*{TARGET}{TITLE}\s*\)")
DEFINITION = re.compile(r"^(?P<start> {0,3}\[[^\]\n]+\]:[ \t]*)(?P<target><[^>\n]+>|\S+)", re.M)
# An <img> tag to its `>` (or the body's end: a tag never closed is passed over in one step, not
# searched to the end again from every `<img` in it), then its src. Possessive: no backtracking.
HTML_IMAGE = re.compile(r"<img\b[^>]*+>?", re.I)
HTML_SRC = re.compile(r"""\bsrc\s*+=\s*+(?P<q>["']?)(?P<target>[^"'\s>]*+)(?P=q)""", re.I)
SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")
IMAGE_SUFFIXES = {".png", ".jpg", ".jpeg", ".gif", ".webp", ".avif", ".svg", ".bmp", ".ico"}
MARKDOWN_SUFFIXES = {".md", ".markdown", ".mdown", ".mkd", ".mkdn"}
# Addresses this site checks in a body (its media and items): a link there must resolve.
CHECKED = ("/media/", "/projects/", "/articles/")


class Media:
    """The files the move copies: {path under DEST: source file}, one name per file."""

    def __init__(self, source, dest):
        self.source = source.resolve()
        self.dest = dest
        self.copies = {}

    def place(self, slug, path):
        """The path under DEST/media/ that `path` (a file of SOURCE) is copied to."""
        stem, dot, suffix = path.name.rpartition(".")
        stem, suffix = (stem, dot + suffix) if stem else (path.name, "")
        stem = re.sub(r"[^A-Za-z0-9._-]+", "-", stem).strip("-._") or "file"
        suffix = re.sub(r"[^A-Za-z0-9.]+", "", suffix)
        for number in range(1, 10_000):
            name = stem + (f"-{number}" if number > 1 else "") + suffix
            rel = f"media/{slug}/{name}"
            planned = self.copies.get(rel)
            existing = self.dest / rel
            if planned == path or (planned is None and (not existing.exists() or _same(existing, path))):
                self.copies[rel] = path
                return f"{slug}/{name}"
        raise ValueError(f"no free name for {path.name}")

    def inside(self, path):
        """Whether `path` is a file of SOURCE (never one a `..` or a link leads out to)."""
        try:
            return path.is_file() and path.resolve().is_relative_to(self.source)
        except OSError:
            return False


def _same(a, b):
    try:
        return filecmp.cmp(a, b, shallow=False)
    except OSError:
        return False


class Rewriter:
    """Rewrites one post's references (see the module's docstring)."""

    def __init__(self, site, post, slug, context, media, hosts):
        self.site, self.post, self.slug = site, post, slug
        self.context, self.media, self.hosts = context, media, hosts

    def body(self, text):
        return outside_code(text, self._part)

    def _part(self, text):
        text = IMAGE.sub(self._markdown_image, text)
        text = HTML_IMAGE.sub(self._html_image, text)
        text = LINK.sub(self._markdown_link, text)
        return DEFINITION.sub(self._definition, text)

    def _markdown_image(self, match):
        new = self.image(_target(match["target"]))
        if new is None:
            return match["text"]
        return f"![{match['text']}]({new}{match['title'] or ''})"

    def _html_image(self, match):
        whole = match[0]
        src = HTML_SRC.search(whole) if whole.endswith(">") else None
        if src is None:
            return whole
        new = self.image(src["target"])
        if new is None:
            return ""
        start, end = src.span("target")
        return whole[:start] + new + whole[end:]

    def _markdown_link(self, match):
        new = self.link(_target(match["target"]))
        if new is None:
            return match["text"]
        return f"[{match['text']}]({new}{match['title'] or ''})"

    def _definition(self, match):
        target = _target(match["target"])
        is_image = posixpath.splitext(urlsplit(target).path)[1].lower() in IMAGE_SUFFIXES
        new = self.image(target) if is_image else self.link(target)
        return match["start"] + (new if new is not None else target)

    def image(self, target):
        """The image's new address, or None to leave it out (a local file that is not there)."""
        if target.startswith("//"):
            target = "https:" + target
        if re.match(r"https?://", target, re.I):
            host = (urlsplit(target).hostname or "").lower()
            if host:
                self.hosts.add(host)
            return target
        if not target or SCHEME.match(target) or target.startswith("#"):
            return target
        copied = self._copy(target)
        if copied is None:
            self.post.warn(f"image {target!r}: no such file in the old site; left out (its text kept)")
        return copied

    def link(self, target):
        """The link's new address, or None to keep only its text."""
        parts = urlsplit(target)
        if parts.hostname and parts.hostname == self.context.old_host:  # the old site's own address
            found = self.context.address_link(parts.path)
            if found:
                return found + (f"#{parts.fragment}" if parts.fragment else "")
        if not target or SCHEME.match(target) or target.startswith(("#", "//", "?")):
            return target
        fragment = f"#{parts.fragment}" if parts.fragment else ""
        path = unquote(parts.path)
        suffix = posixpath.splitext(path)[1].lower()
        if path.removesuffix(".md") in self.context.slugs:  # made by a shortcode or a Liquid tag
            return target
        if suffix in MARKDOWN_SUFFIXES:  # a link to another post's source file
            source_rel = self._source_rel(path)
            found = self.context.item_link(source_rel) if source_rel else None
            if found:
                return found + fragment
        address = path if path.startswith("/") else self._absolute(path)
        found = self.context.address_link(address) if address else None
        if found:
            return found + fragment
        if suffix and suffix not in (".html", ".htm") and suffix not in MARKDOWN_SUFFIXES:
            copied = self._copy(parts.path)
            if copied:
                return copied
        if address and address.startswith(CHECKED):
            self.post.warn(f"link {target!r}: no page of this site is there; its text kept")
            return None
        if address and not path.startswith("/"):
            return (
                quote(address, safe="/%:@!$&'()*+,;=~-._")
                + (f"?{parts.query}" if parts.query else "")
                + fragment
            )
        return target

    def _copy(self, target):
        path = unquote(urlsplit(target).path)
        file = self.site.local_file(self.post, path)
        if file is None or not self.media.inside(file):
            return None
        return "../media/" + self.media.place(self.slug, file)

    def _absolute(self, path):
        """A relative link resolved against the post's address on the old site."""
        page = self.context.primary.get(self.post.rel)
        if page is None:
            return None
        base = page if page.endswith("/") else posixpath.dirname(page) + "/"
        return posixpath.normpath(posixpath.join(base, path)) + ("/" if path.endswith("/") else "")

    def _source_rel(self, path):
        file = self.site.local_file(self.post, path)
        try:
            return file.resolve().relative_to(self.media.source).as_posix()
        except (OSError, ValueError):
            return None


def _target(written):
    return written[1:-1] if written.startswith("<") and written.endswith(">") else written
