"""One move: read every post of SOURCE, give each a slug, its fields and its old addresses,
convert its body, and produce the files DEST gets; nothing is written here (writer.py does).

    move = Move("hugo", source, dest)   # raises NotASite
    plan = move.plan()                  # plan.outcomes: one per source file; plan.failed
"""

import datetime
import json
import posixpath
import re
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from urllib.parse import quote, unquote, urlsplit

from django.conf import settings
from django.utils.text import slugify

from portfolio.content import aliases, markdown, rules

from . import anchors, frontmatter, references
from .astro import Astro
from .hugo import Hugo
from .jekyll import Jekyll
from .markup import outside_code
from .posts import Failed, Skip, date_of, first_of, words
from .references import Media, Rewriter
from .writer import listed_languages

LIQUID_LOOP = re.compile(r"\{%-?\s*for\s+\w+\s+in\s+(?:site\.|paginator\.)")
GENERATORS = {"astro": Astro, "hugo": Hugo, "jekyll": Jekyll}
DESCRIPTION_MAX = 300
MORE = re.compile(r"^[ \t]*<!--\s*more\s*-->[ \t]*\n?", re.M | re.I)
# AstroPaper's `## Table of contents`, which its theme fills in; empty here (the site makes its own).
EMPTY_CONTENTS = re.compile(r"^#{1,6}[ \t]+table of contents[ \t#]*\n(?:[ \t]*\n)*(?=#|\Z)", re.M | re.I)


@dataclass
class Outcome:
    """One source file's line in the report."""

    rel: str
    status: str  # "converted", "skipped" or "failed"
    detail: str  # the article written, or why the file was skipped or failed
    warnings: list = field(default_factory=list)  # [(line or None, message)]
    dropped: list = field(default_factory=list)  # front matter keys the format has no place for


@dataclass
class Plan:
    outcomes: list
    files: dict  # {path under DEST: bytes}
    copies: dict  # {path under DEST: source file}
    hosts: set
    addresses: int
    languages: list = field(default_factory=list)  # site.yaml's, the default first; [] for one
    notes: list = field(default_factory=list)  # the reader's words on the old site's config
    redirects: list = field(default_factory=list)  # site.yaml's: [(old site's own address, new)]

    @property
    def failed(self):
        return [outcome for outcome in self.outcomes if outcome.status == "failed"]


# What a reference to nothing (a ref, a post_url) is replaced with: a link to it keeps only its
# text (references.Rewriter), and one anywhere else is removed (the warning said so).
MISSING = references.MISSING


class Context:
    """What a body may point at: the moved posts and pages, by their source files and old
    addresses (drafts too: a link to one keeps only its text, as a link would leak it)."""

    def __init__(self, old_host=None, languages=()):
        self.old_host = old_host  # the old site's host name: its absolute links are its addresses
        self.languages = languages  # the site's other languages: /fr/ is the French pages' home
        self.by_name = {}  # {source name or path: {(kind, slug)}}
        self.by_address = {}  # {old address, normalised: (kind, slug)}
        self.primary = {}  # {source rel: the post's address on the old site}
        self.drafts = {}  # {(kind, slug): source rel} of the drafts
        self.made = {}  # {link this move wrote (a shortcode's, a Liquid tag's): (kind, slug)}: converted
        self.redirects = {}  # {old site's own address, normalised: its new one} (site.yaml's)
        self.sources = {}  # {(kind, slug): source rel} of the originals
        self.anchors = {}  # {source rel: {old heading id: new}} (anchors.settle) of the bodies converted
        self.from_kind = "article"  # the kind of the item whose body is being converted

    def add_names(self, post, slug, content_root):
        rel = post.rel
        names = {rel, _no_suffix(rel), post.path.stem, post.name}
        if content_root and post.path.is_relative_to(content_root):
            inside = post.path.relative_to(content_root).as_posix()
            names |= {inside, _no_suffix(inside), "/" + inside, "/" + _no_suffix(inside)}
            if post.path.stem == "index" or post.path.stem.startswith("index."):
                names |= {posixpath.dirname(inside), "/" + posixpath.dirname(inside)}
        for name in names:
            self.by_name.setdefault(name, set()).add((post.kind, slug))
        self.sources[(post.kind, slug)] = rel
        if _draft(post):
            self.drafts[(post.kind, slug)] = rel

    def to(self, item):
        """The link to `item` ((kind, slug)) from a body of the kind being converted."""
        kind, slug = item
        if kind == "page":
            link = f"../pages/{slug}.md"
        else:
            link = f"{slug}.md" if self.from_kind == "article" else f"../articles/{slug}.md"
        self.made[link] = item
        return link

    def find(self, target):
        """(link, None) to the item `target` names (Hugo's ref, Jekyll's post_url and link, a
        source file), with its fragment; (None, why not) when it names a draft or nothing."""
        path, _, fragment = target.strip().partition("#")
        path = path.strip().removeprefix("./")
        items = (
            self.by_name.get(path) or self.by_name.get(path.rstrip("/")) or self.by_name.get(_no_suffix(path))
        )
        if not items:
            return None, "no moved post or page is that one"
        if len(items) > 1:
            return None, "more than one moved post has that name"
        return self.linked(next(iter(items)), fragment)

    def linked(self, item, fragment=""):
        if item in self.drafts:
            return None, f"it is a draft ({self.drafts[item]}): a link would publish its address"
        return self.to(item) + (f"#{fragment}" if fragment else ""), None

    def address(self, address):
        """The item ((kind, slug)) whose old address `address` is, or None."""
        return self.by_address.get(_normal(address))

    def heading_ids(self, rel, path):
        """{old heading id: new} of what the link `path` in the body of `rel` names: that post's
        own headings for "" (a link inside the page), the item's for a link this move made to it
        (its original's: the file the link names, or the address raw HTML's href is written as,
        `/articles/<slug>`, `/<slug>`); None for anything else."""
        if not path:
            return self.anchors.get(rel)
        item = self.made.get(path)
        if item is None and path.startswith("/"):  # raw HTML's href: the address it publishes at
            slug = path.removeprefix("/articles/")
            item = ("article", slug) if slug != path else ("page", path[1:])
        return self.anchors.get(self.sources.get(item)) if item else None

    def redirected(self, address):
        """The address of this site that the old site's own address `address` (its home under a
        base path, its feed, its list) moves to (site.yaml's redirects), or None."""
        return self.redirects.get(_normal(address)) if address else None


class Move:
    def __init__(self, kind, source, dest):
        self.kind = kind
        self.source = Path(source)
        self.dest = Path(dest)
        self.site = GENERATORS[kind](self.source)

    def plan(self, progress=None):
        outcomes, posts = [], []
        for entry in self.site.entries():
            if isinstance(entry, Skip):
                outcomes.append(Outcome(entry.rel, "skipped", entry.reason))
            elif isinstance(entry, Failed):
                outcomes.append(Outcome(entry.rel, "failed", entry.reason))
            elif entry.kind == "page" and (why := _theme_page(entry)):
                outcomes.append(Outcome(entry.rel, "skipped", why))
            else:
                posts.append(entry)
        # Translations (a Hugo `post.fr.md`, an Astro locale's folder, a Jekyll `lang: fr`) go
        # beside their originals; the languages they bring are known before any slug is given,
        # since a page may not be named as one of them (/fr is the French pages' home).
        translations = [post for post in posts if post.language]
        posts = [post for post in posts if not post.language]
        matched = self._originals(posts, translations, outcomes)
        languages = self._languages(matched)
        self.others = tuple(listed_languages(self.dest) or languages)[1:]  # what site.yaml will list
        context = Context(urlsplit(self.site.url).hostname if self.site.url else None, self.others)
        slugs = self._slugs(posts)
        content_root = getattr(self.site, "content", None) or getattr(self.site, "blog", None)
        for post in posts:
            context.add_names(post, slugs[post.rel], content_root)
        for translation, original in matched:
            slugs[translation.rel] = slugs[original.rel]
        translations = [translation for translation, _ in matched]
        posts += translations
        moves = self._addresses(posts, slugs, context)
        redirects, notes = self._redirects(posts, slugs, moves)
        context.redirects = {_normal(old): new for old, new in redirects}
        media, hosts, files, bodies = Media(self.source, self.dest), set(), {}, {}
        # Every body first: a link to another post's heading needs the id that post's heading
        # gets (anchors.py), known once its body is converted.
        for done, post in enumerate(posts, 1):
            if progress:
                progress(done, len(posts))
            context.from_kind = post.kind
            bodies[post.rel] = self._body(post, slugs[post.rel], context, media, hosts)
        moved_ids = any(context.anchors.values())  # a heading's old id: the links to it to point
        for post in posts:
            folder = "pages" if post.kind == "page" else "articles"
            language = f".{post.language}" if post.language else ""
            outcome = Outcome(post.rel, "converted", f"{folder}/{slugs[post.rel]}{language}.md")
            body = bodies.pop(post.rel)
            if moved_ids:
                body = anchors.relink(body, partial(context.heading_ids, post.rel))
            try:
                text, outcome.dropped = self._article(post, slugs[post.rel], moves[post.rel], body, media)
            except rules.ContentInvalid as exc:  # a bug of the converter's: say so, write nothing
                outcome.status, outcome.detail = (
                    "failed",
                    f"converted into an invalid {_kind_name(post)}: {exc.errors[0]}",
                )
            else:
                existing = self.dest / outcome.detail
                if existing.exists() and existing.read_bytes() != text.encode():
                    outcome.status = "skipped"
                    outcome.detail = (
                        f"{outcome.detail} is there and differs (edited since the last move?): left as it is"
                    )
                else:
                    files[outcome.detail] = text.encode()
            outcome.warnings = post.warnings
            outcomes.append(outcome)
        outcomes.sort(key=lambda outcome: outcome.rel)
        addresses = sum(len(paths) for paths in moves.values())
        notes = getattr(self.site, "notes", []) + notes
        return Plan(outcomes, files, media.copies, hosts, addresses, languages, notes, redirects)

    def _redirects(self, posts, slugs, moves):
        """([(old address, new address)] of the old site's own addresses for site.yaml's
        `redirects` (its reader's site_moves()), [notes]): one the import would refuse (this
        site's own address, a moved post's old address or a page's) is left out, saying why."""
        taken = {_key(alias): "a moved post's old address" for found in moves.values() for alias in found}
        taken |= {f"/{slugs[post.rel]}": f"the page {slugs[post.rel]}'s address" for post in posts
                  if post.kind == "page" and not post.language}  # fmt: skip
        found, notes = [], []
        for old, new in getattr(self.site, "site_moves", list)():
            address = _address(old)
            problem = alias_problem(address, self.others) if address else "is not a path"
            problem = problem or (f"is {taken[_key(address)]}" if _key(address) in taken else None)
            if problem:
                notes.append(f"site.yaml: redirects: the old site's {old!r} left out: it {problem}")
                continue
            taken[_key(address)] = "listed"
            found.append((address, new))
        return found, notes

    def _originals(self, posts, translations, outcomes):
        """[(translation, its original)]: each translation's original is the post or page of its
        reader's key (`translation_key`: the same section and name unless the reader says
        otherwise); one with none that moved in is skipped, saying so."""
        if not translations:
            return []
        key = getattr(self.site, "translation_key", _same_name)
        originals = {key(post): post for post in posts}
        matched = []
        for translation in translations:
            original = originals.get(key(translation))
            if original is None:
                why = f"a translation ({translation.language}) of no moved post or page: move it by hand"
                outcomes.append(Outcome(translation.rel, "skipped", why))
            else:
                matched.append((translation, original))
        return matched

    def _languages(self, matched):
        """site.yaml's languages for the translations that move in: the old site's default first,
        then the others in alphabetical order; [] when none moves in."""
        codes = sorted({translation.language for translation, _ in matched})
        default = getattr(self.site, "default_language", "en")
        return [default, *(code for code in codes if code != default)] if codes else []

    def _slugs(self, posts):
        """{source rel: slug}: the front matter's `slug` or the file's (bundle's) name, made
        valid, unique in the move among items of its kind and free in DEST: an article already
        there with that slug is another one unless it has the post's title and date (this post's
        earlier move)."""
        taken, slugs = set(), {}
        for post in sorted(posts, key=lambda p: p.rel):
            written = post.fields.get("slug")
            base = make_slug(
                str(written) if isinstance(written, (str, int)) and str(written).strip() else post.name
            )
            base = self._page_slug(post, base) if post.kind == "page" else base
            slug, number = base, 1
            while (post.kind, slug) in taken or not self._free(slug, post):
                number += 1
                slug = f"{base[: rules.SLUG_MAX - 8]}-{number}"
            if slug != base:
                post.warn(f"its slug {base!r} is another {_kind_name(post)}'s: written as {slug!r}")
            taken.add((post.kind, slug))
            slugs[post.rel] = slug
        return slugs

    def _page_slug(self, post, slug):
        """A page's slug that names none of the site's own addresses (`projects`, `tags`) nor one
        of its other languages (`fr`, whose /fr/ is the French pages' home):
        aliases.page_slug_problem's rule; else `<slug>-page` (`page-<slug>` when that is one too,
        as `sitemap-x-page` is), with a warning."""
        problem = aliases.page_slug_problem(slug, self.others)
        if problem is None:
            return slug
        for other in (f"{slug[: rules.SLUG_MAX - 5]}-page", f"page-{slug[: rules.SLUG_MAX - 5]}"):
            if aliases.page_slug_problem(other, self.others) is None:
                post.warn(f"its slug {slug!r}: {problem}: written as {other!r}")
                return other
        raise AssertionError(f"no slug for the page {post.rel}")  # page-<slug> is always free

    def _free(self, slug, post):
        existing = self.dest / ("pages" if post.kind == "page" else "articles") / f"{slug}.md"
        if not existing.exists():
            return True
        try:
            fields, _, _ = frontmatter.split(frontmatter.decode(existing.read_bytes()))
        except (OSError, frontmatter.Unreadable):
            return False
        if post.kind == "page":
            return _scalar(fields.get("title")) == self._title(post)
        return _scalar(fields.get("title")) == self._title(post) and date_of(
            fields.get("date")
        ) == self._date(post)

    def _addresses(self, posts, slugs, context):
        """{source rel: [aliases]}: each published post's old addresses, the first claim of an
        address winning (with a warning naming both files)."""
        owners, moves = {}, {}
        for post in sorted(posts, key=lambda p: p.rel):
            moves[post.rel] = []
            slug, item = slugs[post.rel], (post.kind, slugs[post.rel])
            if _draft(post):  # never published: it had no address; a link to it is found all the same
                for written in self.site.old_addresses(post)[:1]:
                    address = _address(written)
                    context.primary[post.rel] = address
                    if address:
                        context.by_address.setdefault(_normal(address), item)
                continue
            for number, written in enumerate(self.site.old_addresses(post)):
                address = _address(written)
                if number == 0:
                    context.primary[post.rel] = address
                if address is None:
                    post.warn(f"old address {written!r} is not a path; left out")
                    continue
                owner = owners.setdefault(rules.alias_path_key(address), post)
                if owner is not post:
                    post.warn(f"old address {address!r} is also {owner.rel}'s: it goes to that one")
                    continue
                context.by_address[_normal(address)] = item
                alias = _alias(address, slug, post.kind, post.language)
                if alias is None or _key(alias) in map(_key, moves[post.rel]):
                    continue  # the article's own page, or another spelling of an address it has
                problem = alias_problem(alias, self.others)
                if problem:
                    post.warn(f"old address {address!r}: {problem}; left out")
                    continue
                moves[post.rel].append(alias)
        return moves

    def _body(self, post, slug, context, media, hosts):
        """The post's body converted, its references rewritten, its headings' old ids known
        (context.anchors) but the links to them not yet pointed at the new ones."""
        body = self.site.convert_body(post, post.body, context)
        body = outside_code(body, lambda part: EMPTY_CONTENTS.sub("", MORE.sub("", part)))
        body = Rewriter(self.site, post, slug, context, media, hosts).body(body)
        body = _clean(body.replace(MISSING, ""), post, "body")
        body, context.anchors[post.rel] = anchors.settle(body)
        return body

    def _article(self, post, slug, aliases, body, media):
        """(the article file's text, the keys dropped) of one post, its body converted."""
        fields, site = post.fields, self.site
        title = self._title(post)
        if not _scalar(fields.get("title")):
            post.warn(f"no title: {title!r}, from the file's name")
        if post.language:
            return self._translation(post, slug, title, body, aliases)
        if post.kind == "page":
            return self._page(post, slug, title, body, aliases)
        date = self._date(post)
        key = next((k for k in site.date_keys if date_of(fields.get(k))), None)
        if key is None and post.file_date is None:
            post.warn(f"no date: {date}, the file's modification date")
        tags = self._tags(post)
        lines = [*_head(post, title, body), f"date: {date.isoformat()}"]
        if tags:
            lines.append("tags: [" + ", ".join(map(_quoted, tags)) + "]")
        if series := _series(post):  # Hugo's `series` taxonomy (PaperMod): a list, one kept
            lines.append(f"series: {_quoted(series)}")
        if _draft(post):
            lines.append("draft: true")
        image_key, image = self._image(post, slug, media)
        if image:
            lines += [f"image: {image[0]}", f"imageAlt: {_quoted(image[1] or title)}"]
        text = _file(lines, aliases, body)
        size, limit = len(text.encode()), settings.CONTENT_MAX_FILE_BYTES
        if size > limit:  # it would not build
            message = f"{size:,} bytes is over the limit of {limit:,} bytes per file (CONTENT_MAX_FILE_BYTES)"
            raise rules.ContentInvalid([rules.ContentError(f"articles/{slug}.md", "file", message)])
        rules.parse_markdown_file(text.encode(), f"articles/{slug}.md", rules.ARTICLE)
        mapped = {*site.known, key, image_key, "series"}
        dropped = sorted(k for k in fields if k not in mapped and not (k == "draft" and fields[k] is False))
        return text, dropped

    def _translation(self, post, slug, title, body, aliases):
        """(the translation file's text, the keys dropped): what it translates (its title,
        description, tags, date, draft, body) and its old addresses; the rest is its original's."""
        fields, kind = post.fields, "pages" if post.kind == "page" else "articles"
        lines = _head(post, title, body)
        if kind == "articles":
            if any(date_of(fields.get(key)) for key in self.site.date_keys):
                lines.append(f"date: {self._date(post).isoformat()}")
            if tags := self._tags(post):
                lines.append("tags: [" + ", ".join(map(_quoted, tags)) + "]")
        if _draft(post):
            lines.append("draft: true")
        text = _file(lines, aliases, body)
        rel = f"{kind}/{slug}.{post.language}.md"
        rules.parse_markdown_file(text.encode(), rel, rules.TRANSLATIONS[kind])
        mapped = {"title", "description", "summary", "excerpt", "slug", "url", "aliases", "draft",
                  "tags", "categories", "permalink", "redirect_from", "layout", "lang", "page_id",
                  *self.site.date_keys}  # fmt: skip
        if kind == "pages":  # its place in its language's menu: read with the original's (hugo.py)
            mapped |= {"menu", "menus", "weight"}
        return text, sorted(k for k in fields if k not in mapped)

    def _page(self, post, slug, title, body, aliases):
        """(the page file's text, the keys dropped) of a standalone page."""
        fields, lines = post.fields, _head(post, title, body)
        if _draft(post):
            lines.append("draft: true")
        if post.nav is not None:
            lines += ["nav: true", f"order: {post.nav}"]
        text = _file(lines, aliases, body)
        rules.parse_markdown_file(text.encode(), f"pages/{slug}.md", rules.PAGE)
        mapped = {"title", "description", "summary", "excerpt", "slug", "url", "aliases", "permalink",
                  "redirect_from", "layout", "draft", "menu", "menus", "weight", "lang",
                  "page_id"}  # fmt: skip
        return text, sorted(k for k in fields if k not in mapped)

    def _title(self, post):
        title = _clean(_scalar(post.fields.get("title")), post, "title")
        # As Jekyll titles a post without one (Utils.titleize_slug): its name's words between
        # hyphens, each capitalised.
        return title or " ".join(word.capitalize() for word in post.name.split("-") if word) or "Untitled"

    def _date(self, post):
        """The front matter's date (the first of the generator's keys), else the file name's,
        else the file's modification date."""
        for key in self.site.date_keys:
            if date_of(post.fields.get(key)):
                return date_of(post.fields[key])
        return post.file_date or datetime.date.fromtimestamp(post.path.stat().st_mtime)

    def _tags(self, post):
        """Tags, then categories, one per tag slug, each a tag the format takes."""
        fields, tags, seen = post.fields, [], set()
        for value in (*words(fields.get("tags")), *words(fields.get("tag")), *words(fields.get("categories")),
                      *words(fields.get("category"))):  # fmt: skip
            tag = _oneline(value)
            try:
                rules.tag_list([tag])
            except rules.Invalid as exc:
                post.warn(f"tag {tag!r} left out: {str(exc).removeprefix('item 0: ')}")
                continue
            if rules.tag_slug(tag) not in seen:
                seen.add(rules.tag_slug(tag))
                tags.append(tag)
        return tags

    def _image(self, post, slug, media):
        """(key, (media path, alt)) of the post's picture when it is a local file; a remote one
        cannot be the page's image (a media path) and is reported as dropped."""
        key, value = first_of(post.fields, *self.site.image_keys)
        alt = ""
        if isinstance(value, dict):
            alt = _scalar(value.get("alt"))
            value = value.get("image") or value.get("src") or value.get("path") or value.get("url")
        if isinstance(value, list):
            value = value[0] if value else None
        if not isinstance(value, str) or not value.strip() or re.match(r"(https?:)?//", value):
            return None, None
        file = self.site.local_file(post, urlsplit(value.strip()).path)
        if file is None or not media.inside(file):
            post.warn(f"{key} {value!r}: no such file in the old site; left out")
            return key, None
        alt = alt or _scalar(post.fields.get("imageAlt") or post.fields.get("coverAlt"))
        return key, (media.place(slug, file), alt)


def _head(post, title, body):
    """The front matter's first lines, every file's: its title and its description (the post's,
    else the body's first paragraph, else the title)."""
    _, description = first_of(post.fields, "description", "summary", "excerpt")
    description = _oneline(_scalar(description)) or first_paragraph(body) or title
    return [
        "---",
        f"title: {_quoted(title)}",
        f"description: {_quoted(_clean(description, post, 'description'))}",
    ]


def _file(lines, aliases, body):
    """A markdown file's text: the front matter's `lines`, then its `aliases`, then the body."""
    if aliases:
        lines = [*lines, "aliases:", *(f"  - {_quoted(alias)}" for alias in aliases)]
    return "\n".join(lines) + "\n---\n" + body.strip("\n") + "\n"


def make_slug(text):
    """A valid slug from any text: ASCII letters and digits, single hyphens."""
    slug = slugify(text).replace("_", "-")
    slug = re.sub(r"-{2,}", "-", slug).strip("-")[: rules.SLUG_MAX].rstrip("-")
    return slug or "post"


def first_paragraph(body):
    """The text of the body's first paragraph of prose (never a heading, list, quote, code,
    table, image or HTML, as the site's renderer reads the body), at most DESCRIPTION_MAX
    characters, cut at a word with an ellipsis."""
    for text in markdown.prose(body):
        if text.startswith("{"):
            continue  # kramdown's {: .class} or {:toc}, a Liquid tag left over
        if len(text) > DESCRIPTION_MAX:
            text = text[:DESCRIPTION_MAX].rsplit(" ", 1)[0].rstrip(",;:") + "…"
        return text
    return ""


def alias_problem(alias, languages=()):
    """Why the content format would refuse `alias`, or None. `languages`: the site's other
    languages' codes, whose homes, lists and feeds (`/fr/`, `/fr/projects`) are its own."""
    try:
        rules.ARTICLE["aliases"].rule([alias])
    except rules.Invalid as exc:
        return str(exc).removeprefix("item 0: ")
    own = aliases.shadowed(alias, languages) if alias.startswith("/") else None
    return f"is this site's own address {own}" if own else None


def _key(alias):
    return rules.alias_path_key(alias) if alias.startswith("/") else alias


def _alias(address, slug, kind="article", language=None):
    """The alias that keeps `address` working: none when it is the item's own page (a
    translation's under /<language>: /fr/about for pages/about.fr.md), the slug when it was an
    /articles/<slug> page (/fr/articles/<slug> for a translation), else the path."""
    stem = _normal(address)
    prefix = f"/{language}" if language else ""
    if stem == prefix + (f"/{slug}" if kind == "page" else f"/articles/{slug}"):
        return None
    if kind == "page":
        return address
    old = stem.removeprefix(prefix + "/articles/") if stem.startswith(prefix + "/articles/") else ""
    return old if rules.SLUG_RE.fullmatch(old) else address


def _address(written):
    """An old address as a path, non-ASCII percent-encoded (as the content format writes one);
    None for what is not a path."""
    if not isinstance(written, str) or not written.strip():
        return None
    path = urlsplit(written.strip()).path
    if not path.startswith("/") or path == "/":
        return None
    return quote(unquote(path), safe=aliases.PATH_SAFE)


def _normal(address):
    """What an old address is looked up by: the content format's key of a path alias (its spellings
    with and without the trailing slash or `.html` are one: rules.alias_path_key), and a folder's
    `index.html` as the folder, which the old site's host served at its address."""
    return rules.alias_path_key(re.sub(r"/index\.html$", "/", address or ""))


def _no_suffix(path):
    return posixpath.splitext(path)[0]


def _kind_name(post):
    return "page" if post.kind == "page" else "article"


def _theme_page(page):
    """Why a standalone page of the old site is not moved in (its theme made it), or None."""
    layout = _scalar(page.fields.get("layout")) or _scalar(page.fields.get("type"))
    if layout and not page.body.strip():
        return f"a page its theme made (layout {layout!r}), with no text: this site makes its own"
    if LIQUID_LOOP.search(page.body):
        return "a page the old theme's Liquid fills (a loop over the posts): this site makes its own lists"
    return None


def _same_name(post):
    """What a translation and its original share, unless the reader says otherwise: their kind,
    section and name (Hugo's `post.fr.md` and `post.md`, an Astro locale's `fr/post.md`)."""
    return (post.kind, post.section, post.name)


def _draft(post):
    return post.draft or post.fields.get("draft") in (True, "true", "yes")


def _scalar(value):
    if isinstance(value, bool) or value is None:
        return ""
    return str(value).strip() if isinstance(value, (str, int, float)) else ""


def _oneline(text):
    return re.sub(r"\s+", " ", text).strip()


def _quoted(text):
    return json.dumps(text, ensure_ascii=False)


def _clean(text, post, what):
    """`text` without the control characters the format refuses (reported)."""
    cleaned = rules.CONTROL_RE.sub("", text)
    if cleaned != text:
        post.warn(f"{what}: control characters removed")
    return cleaned


def _series(post):
    """The post's series (Hugo's `series`, a list or one name): its first, a warning naming the
    rest (an article is a part of one series), or "" when it has none the format takes."""
    value = post.fields.get("series")
    names = [_oneline(name) for name in words([value] if isinstance(value, str) else value)]
    if len(names) > 1:
        post.warn(f"series: {', '.join(map(repr, names[1:]))} left out: an article is a part of one series")
    for name in names[:1]:
        try:
            return rules.series_name(name)
        except rules.Invalid as exc:
            post.warn(f"series {name!r} left out: {exc}")
    return ""
