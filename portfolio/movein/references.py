"""Images and links in a converted body: local files copied into the content folder's media/,
links to other moved posts pointed at their new files, remote images' hosts collected for
site.yaml's `imageHosts` (the Content-Security-Policy allows them)."""

import filecmp
import posixpath
import re
from urllib.parse import unquote, urlsplit

from portfolio.content.aliases import shadowed

from .markup import outside_code
from .posts import MARKDOWN_SUFFIXES

# What a reference to nothing (a ref, a post_url) is replaced with by shortcodes.py and liquid.py,
# its warning given: a link to it keeps only its text here, and convert.py removes any other.
MISSING = "\x01missing\x01"

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
        self.cursor = 0  # where in the post's source the last reference warned about was

    def body(self, text):
        return outside_code(text, self._part)

    def _part(self, text):
        text = IMAGE.sub(self._markdown_image, text)
        text = HTML_IMAGE.sub(self._html_image, text)
        text = LINK.sub(self._markdown_link, text)
        return DEFINITION.sub(self._definition, text)

    def warn(self, message, written):
        """A warning at the line of the source where `written` is (searched forward from the last
        one found, then from the start once: never the whole body once per reference)."""
        at = self.post.body.find(written, self.cursor)
        if at < 0:
            at = self.post.body.find(written, 0, self.cursor)
        if at >= 0:
            self.cursor = at
        self.post.warn(message, at if at >= 0 else None)

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
        new = self.link(_target(match["target"]), match["text"])
        if new is None:
            return match["text"]
        return f"[{match['text']}]({new}{match['title'] or ''})"

    def _definition(self, match):
        target = _target(match["target"])
        is_image = posixpath.splitext(urlsplit(target).path)[1].lower() in IMAGE_SUFFIXES
        new = self.image(target) if is_image else self.link(target, "")
        if new is None:  # a definition cannot be text: a link to nowhere of this site's
            return match["start"] + "#"
        return match["start"] + new

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
            self.warn(f"image {target!r}: no such file in the old site; left out (its text kept)", target)
        return copied

    def link(self, target, text):
        """The link's new address, or None to keep only its text (a link to a draft, or to an
        address of the old site that nothing moved in answers, with a warning)."""
        if MISSING in target:
            return None  # a ref or post_url to nothing: its warning is given
        parts = urlsplit(target)
        fragment = f"#{parts.fragment}" if parts.fragment else ""
        query = f"?{parts.query}" if parts.query else ""
        if parts.hostname and parts.hostname == self.context.old_host:  # the old site's own address
            item = self.context.address(parts.path)
            if item:
                return self._to(item, target, fragment)
            if moved := self.context.redirected(parts.path):  # its home, feed or list: site.yaml's
                return moved + query + fragment
        if not target or SCHEME.match(target) or target.startswith(("#", "//", "?")):
            return target
        path = unquote(parts.path)
        suffix = posixpath.splitext(path)[1].lower()
        if parts.path in self.context.made:  # made by a shortcode or a Liquid tag
            return target
        if suffix in MARKDOWN_SUFFIXES:  # a link to another post's source file
            source_rel = self._source_rel(path)
            if source_rel:
                found, why = self.context.find(source_rel)
                if found or "draft" in (why or ""):
                    return self._found(found, why, target, fragment)
        address = path if path.startswith("/") else self._absolute(path)
        item = self.context.address(address) if address else None
        if item:
            return self._to(item, target, fragment)
        if moved := self.context.redirected(address):  # the old site's home, feed or list
            return moved + query + fragment
        if suffix and suffix not in (".html", ".htm") and suffix not in MARKDOWN_SUFFIXES:
            copied = self._copy(parts.path)
            if copied:
                return copied
        base = getattr(self.site, "base_path", "")
        home = getattr(self.site, "home", base)  # Hugo's /en/ with defaultContentLanguageInSubdir
        if address in ("/", base + "/", base, home + "/", home):
            return "/" + (f"?{parts.query}" if parts.query else "") + fragment  # the home page
        own = path.startswith("/") and not path.startswith(CHECKED) and shadowed(path, self.context.languages)
        if own and not (base and path.startswith(base + "/")):
            return target  # an address this site has too (/tags/..., /feed.xml)
        self.warn(
            f"link {target!r}: nothing moved in is there (no post, page or file of the old site's); "
            "its text kept",
            target,
        )
        return None

    def _to(self, item, target, fragment):
        found, why = self.context.linked(item)
        return self._found(found, why, target, fragment)

    def _found(self, found, why, target, fragment):
        if found is None:
            self.warn(f"link {target!r}: {why}; its text kept", target)
            return None
        return found + fragment

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
