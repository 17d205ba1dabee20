"""Images and links in a converted body: local files copied into the content folder's media/,
links to other moved posts pointed at their new files, remote images' hosts collected for
site.yaml's `imageHosts` (the Content-Security-Policy allows them).

A link is read as the old site's address: a path under the old site's base path (Jekyll's
`baseurl`, the path of Hugo's `baseURL`) as written, and a root-relative one that is not under it
(`/2021/02/14/x/`, as Jekyll's `{{ site.baseurl }}/...` and `relative_url` are left by liquid.py:
the path alone) with the base path put before it. Raw HTML's links and images (`<a href>`,
`<img src>`) are read as markdown's are, and written as the addresses the site publishes
(`/articles/<slug>`, `/<page>`, `/media/...`): the site publishes raw HTML as written, never
resolving its references as it does a markdown link's (`other.md`)."""

import bisect
import filecmp
import posixpath
import re
from urllib.parse import quote, unquote, urlsplit, urlunsplit

from portfolio.content.aliases import PATH_SAFE, shadowed

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
# An <a> tag to its `>` (the same way: linear), then its href (not a `data-href`).
HTML_LINK = re.compile(r"<a\b[^>]*+>?", re.I)
HTML_HREF = re.compile(r"""(?<![\w-])href\s*+=\s*+(?P<q>["']?)(?P<target>[^"'\s>]*+)(?P=q)""", re.I)
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
        # A part's warnings, given when it is done (_part): [(place in the part as it came, order,
        # message, written)]; the reference being rewritten; the part's passes' edits so far.
        self.pending, self.match, self.edits = None, None, []

    def body(self, text):
        return outside_code(text, self._part)

    def _part(self, text):
        """A part of the body (no code in it) with its references rewritten: each kind read left
        to right, one kind after the other (a link's text may hold an image, converted first).
        Their warnings are given once the part is done, in the order of the references they are
        about in the part, each at the line of the source where its reference is: each searched
        for from just after the one before (the same link written twice warns at each line)."""
        self.pending, self.edits = [], []
        for pattern, change in (
            (IMAGE, self._markdown_image),
            (HTML_IMAGE, self._html_image),
            (HTML_LINK, self._html_link),
            (LINK, self._markdown_link),
            (DEFINITION, self._definition),
        ):
            done = []  # this pass's edits: (start, end) in its text, (start, end) in what it makes

            def replace(match, change=change, done=done):
                self.match = match
                new = change(match)
                start = match.start() + (done[-1][3] - done[-1][1] if done else 0)  # in what it makes
                done.append((match.start(), match.end(), start, start + len(new)))
                return new

            text = pattern.sub(replace, text)
            self.edits.append(done)
        for _, _, message, written in sorted(self.pending, key=lambda warning: warning[:2]):
            self._warn_at_source(message, written)
        self.pending = None
        return text

    def warn(self, message, written):
        """A warning about the reference being rewritten, whose text in the source is `written`
        (given when its part is done: _part); at once when no part is being rewritten."""
        if self.pending is None:
            self._warn_at_source(message, written)
            return
        # Its place: where `written` is in the reference (a link's target comes after the images
        # of its text, whose warnings come first).
        match = self.match
        at = match.start() + max(0, match[0].find(written))
        self.pending.append((_place_before(self.edits, at), len(self.pending), message, written))

    def _warn_at_source(self, message, written):
        """A warning at the line of the source where `written` is: searched forward from just after
        the last one found, then from the start once (never the whole body once per reference)."""
        at = self.post.body.find(written, self.cursor)
        if at < 0:
            at = self.post.body.find(written, 0, self.cursor)
        if at >= 0:
            self.cursor = at + 1
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
        return whole[:start] + self._published(new) + whole[end:]

    def _html_link(self, match):
        whole = match[0]
        href = HTML_HREF.search(whole) if whole.endswith(">") else None
        if href is None:
            return whole
        new = self.link(href["target"], "")
        if new is None:  # its text kept: an <a> without an href is no link
            return whole[: href.start()].rstrip() + whole[href.end() :]
        start, end = href.span("target")
        return whole[:start] + self._published(new) + whole[end:]

    def _published(self, reference):
        """What raw HTML links to for `reference` as a markdown body writes it: the address the
        site publishes an item's file at (`/articles/<slug>`, `/<slug>` for a page), `/media/...`
        for a copied file; anything else as it is."""
        path, hash_, fragment = reference.partition("#")
        item = self.context.made.get(path)
        if item:
            kind, slug = item
            path = f"/{slug}" if kind == "page" else f"/articles/{slug}"
        elif path.startswith("../media/"):
            path = path.removeprefix("..")
        return path + hash_ + fragment

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
        base = getattr(self.site, "base_path", "")
        if path.startswith("/"):
            inside, address = self._old_address(path)
            item = self.context.address(path) or self.context.address(address)
        else:
            inside, address = None, self._absolute(path)
            item = self.context.address(address) if address else None
        if item:
            return self._to(item, target, fragment)
        if moved := self.context.redirected(address):  # the old site's home, feed or list
            return moved + query + fragment
        if suffix and suffix not in (".html", ".htm") and suffix not in MARKDOWN_SUFFIXES:
            copied = self._copy(parts.path)
            if copied:
                return copied
        home = getattr(self.site, "home", base)  # Hugo's /en/ with defaultContentLanguageInSubdir
        if address in ("/", base + "/", base, home + "/", home):
            return "/" + (f"?{parts.query}" if parts.query else "") + fragment  # the home page
        if inside and not inside.startswith(CHECKED) and shadowed(inside, self.context.languages):
            # An address this site has too (/tags/..., /feed.xml), the old site's base path out.
            if inside == path:
                return target
            return urlunsplit(parts._replace(path=quote(inside, safe=PATH_SAFE)))
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

    def _old_address(self, path):
        """(the root-relative `path` without the old site's base path, the address the old site
        served it at: under its base path): `/notes/x/` and `/x/` are both (`/x/`, `/notes/x/`)
        when the base path is `/notes`."""
        base = getattr(self.site, "base_path", "")
        if not base:
            return path, path
        if path == base or path.startswith(base + "/"):
            return path[len(base) :] or "/", path
        return path, base + path

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


def _place_before(edits, at):
    """Where the place `at` of the text the passes `edits` made was in the text they started
    from: each pass's edits, [(start, end) in its text, (start, end) in what it made], undone
    from the last pass to the first (a place inside an edit is the edit's start)."""
    for done in reversed(edits):
        index = bisect.bisect_right(done, at, key=lambda edit: edit[2]) - 1
        if index >= 0:
            start, end, new_start, new_end = done[index]
            at = start if at < new_end else end + at - new_end
    return at


def _target(written):
    return written[1:-1] if written.startswith("<") and written.endswith(">") else written
