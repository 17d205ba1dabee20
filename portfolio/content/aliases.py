"""Renamed items: a project's or article's `aliases` are its earlier slugs, and every old address
of the item answers 301 to the new one. The rules, in one place:

- which old addresses move, and where to (`addresses`): the page and its `.html` form, the markdown
  twin, the API document with and without `.json`; an absolute-path alias (`/posts/old-title/`,
  an address on a site before this one) moves to the item's page from each of its spellings
  (`spellings`: with and without its trailing slash, and its `.html` form);
- which aliases are published (`moves`): those of projects and published articles. A draft is
  never published anywhere, so its aliases redirect nowhere until it is published (they are
  still checked, so that publishing it cannot clash);
- the import's checks across files (`AliasChecker`): an alias is no item's slug of the same kind and
  is listed by one item only; a path is listed by one item only and shadows no address of the site
  (`shadowed`), the home of one of its other languages (`/fr`, site.yaml's `languages`) included.
  A translation's aliases take part in each check as an item's (their slugs in their language).
- site.yaml's `redirects` (the old site's own addresses: its home under a base path, its feed, its
  lists): each old address is checked as an absolute-path alias is, site.yaml as its owner
  (`field_of`, `owned_by`), and moves from each of its spellings (`site_moves`) to an address
  the site serves (`serves`, checked by `redirect_problems` once the import's rows are written).

The build writes `moves()` into the hosts' redirect rules (portfolio/export/hosts.py); the
authoring server answers them from `moved_to()` (pages/middleware.py).
"""

import re
from collections import defaultdict
from functools import cache, cached_property
from urllib.parse import quote, unquote

from django.db.models import Q
from django.urls import Resolver404, URLResolver, get_resolver, resolve

from portfolio.reversing import reverse_slug
from portfolio.shows import distilled, frozen_params

from .models import ITEM_MODELS, Alias, Article, Page, PathAlias, Project, Site
from .rules import ContentError, alias_path_key, alias_path_stored, slug_of, translation_of

# The routes of an item's addresses, the page's first. A standalone page has no API document.
ROUTES = {
    "projects": ("pages:project", "pages:project-md", "api:project", "api:project-json"),
    "articles": ("pages:article", "pages:article-md", "api:article", "api:article-json"),
    "pages": ("pages:page", "pages:page-md"),
}
# A path that may be an item's old address: moved_to() looks its slug up, addresses() decide.
ITEM_PATH = re.compile(r"^/(?:api/v1/)?(?P<collection>projects|articles)/(?P<slug>[^/.]+)(?:\.[a-z]+)?$")
# A path that may be a standalone page's old address (`/old`, `/old.html`, `/old.md`).
PAGE_PATH = re.compile(r"^/(?P<slug>[^/.]+)(?:\.html|\.md)?$")


def addresses(collection, old, new):
    """[(old address, new address)] of an item whose slug was `old`: the page (and its file's
    `.html` name, which hosts also answer, to the page), the markdown twin, the API document
    with and without `.json`."""
    pairs = [(reverse_slug(route, old), reverse_slug(route, new)) for route in ROUTES[collection]]
    page = pairs[0]
    return [page, (page[0] + ".html", page[1]), *pairs[1:]]


# Beginnings of the top-level names a static build writes besides its routes' files: the hosts'
# rule files (`_redirects`, `_headers`, `_redirects.nginx.conf`: portfolio/export/hosts.py) and
# `.assetsignore` (what Cloudflare Workers leaves out of the upload).
# tests/export/test_path_aliases.py checks that every top-level name of a built site is shadowed.
BUILD_FILES = ("_redirects", "_headers", ".assetsignore")
# Characters a stored path keeps as they are (rules.ALIAS_PATH_RE's, less '%').
PATH_SAFE = "/-._~!$&'()+,;=@"


# The last segment of a file's address other than a page's: `index.xml`, `feed.json`, `rss.xml`.
# A letter opens the extension, so `v1.2` and `node.js-tips` are page names.
OTHER_FILE = re.compile(r"/[^/]*\.(?!html$)[A-Za-z][A-Za-z0-9]*$")


def spellings(path):
    """The old addresses an absolute-path alias stands for, the written one first: with and
    without its trailing slash, and its `.html` form (`/posts/a/`: also `/posts/a` and
    `/posts/a.html`; `/x/y.html`: also `/x/y`). A file's other than a page's (`/blog/index.xml`,
    a feed) is that address alone: no host serves a feed from `index.xml.html` or `index.xml/`."""
    if path.endswith(".html"):
        return [path, path.removesuffix(".html")]
    if OTHER_FILE.search(path):
        return [path]
    base = path.removesuffix("/")
    found = [base + "/", base, base + ".html"]
    return [path] + [spelling for spelling in found if spelling != path]


def path_moves(collection, path, target):
    """[(old address, new address)] of one absolute-path alias."""
    page = reverse_slug(ROUTES[collection][0], target)
    return [(spelling, page) for spelling in spellings(alias_path_stored(path))]


def published(rows):
    """The alias rows of projects and published articles and pages (a draft's aliases move
    nothing)."""
    rows = rows.exclude(collection="articles", target__in=Article.objects.filter(draft=True).values("slug"))
    return rows.exclude(collection="pages", target__in=Page.objects.filter(draft=True).values("slug"))


def moves():
    """[(old address, new address)] of every alias of a published item: the slugs' by
    collection and alias, then the paths' by path; then site.yaml's redirects."""
    rows = published(Alias.objects.all())
    paths = published(PathAlias.objects.all())
    return (
        [
            pair
            for collection, old, new in rows.values_list("collection", "slug", "target")
            for pair in addresses(collection, old, new)
        ]
        + [
            pair
            for collection, path, target in paths.values_list("collection", "path", "target")
            for pair in path_moves(collection, path, target)
        ]
        + translation_moves()
        + site_moves()
    )


def site_moves():
    """[(old address, new address)] of site.yaml's `redirects` (the old site's own addresses: its
    home under a base path, its feed, its lists), each old address from each of its spellings."""
    pairs = Site.objects.values_list("redirects", flat=True).first() or []
    return [(spelling, new) for old, new in pairs for spelling in spellings(old)]


def translation_moves():
    """[(old address, new address)] of every alias of a published translation: an earlier slug
    moves its page, `.html` and twin under its language's prefix (/fr/articles/<old>); an old path
    (a multilingual site before this one: /fr/posts/old/) moves from each spelling to its page."""
    from .languages import item_address, other_language
    from .models import Translation

    found = []
    rows = Translation.objects.published().exclude(aliases=[]).order_by("kind", "slug", "language")
    for row in rows:
        if not other_language(row.language):
            continue
        page = item_address(row.kind, row.slug, row.language)
        for alias in row.aliases:
            if alias.startswith("/"):
                found += [(spelling, page) for spelling in spellings(alias)]
            else:
                old = item_address(row.kind, alias, row.language)
                found += [(old, page), (old + ".html", page), (old + ".md", page + ".md")]
    return found


def moved_to(path):
    """The address `path` (decoded, as Django's request.path_info is) moved to, if it is an old
    address of a published item; else None."""
    if translated := dict(translation_moves()).get(quote(path, safe=PATH_SAFE)):
        return translated
    match = ITEM_PATH.fullmatch(path)
    if match is not None:
        collection, old = match["collection"], match["slug"]
    elif match := PAGE_PATH.fullmatch(path):
        collection, old = "pages", match["slug"]
    else:
        return path_moved_to(path)
    target = Alias.objects.filter(collection=collection, slug=old).values_list("target", flat=True).first()
    if target is None:
        return None if collection != "pages" else path_moved_to(path)
    model = ITEM_MODELS[collection]
    if model is not Project and not model.objects.published().filter(slug=target).exists():
        return None
    return dict(addresses(collection, old, target)).get(path)


def path_moved_to(path):
    """moved_to() of a path no item of the site has: an absolute-path alias's spelling, or one of
    site.yaml's redirects', or None. The stored path is one of the address's three spellings
    (alias_path_key)."""
    encoded = quote(path, safe=PATH_SAFE)
    key = alias_path_key(encoded)
    rows = published(PathAlias.objects.filter(path__in=[key, key + "/", key + ".html"]))
    row = rows.values_list("collection", "path", "target").first()
    return dict(path_moves(*row)).get(encoded) if row else dict(site_moves()).get(encoded)


# The routes of the standalone pages (pages/urls.py): `/<slug>` and `/<slug>.md`, at the top
# level. Not the site's own addresses: the pages' slugs are checked against those. Nor are the
# other languages' routes (`lang-*`, under `/<lang>/`, a language the content names).
STANDALONE_ROUTES = ("page", "page-md")


@cache
def reserved_names():
    """(names, prefixes): the first segments of the site's own addresses, from its routes (each
    route's first segment, and its file's: `index.html`) and the build's other files. A path
    alias whose first segment is one of the names (or the name and `.html`), or starts with
    one of the prefixes (a route such as `llms-full-<int:part>.txt`), would shadow them. Every
    address a route resolves has such a first segment (a route opening with a converter or a
    regular expression gives the prefix "", which every path starts with), so no path needs
    resolving."""
    names, prefixes = set(), set(BUILD_FILES)

    def first_segment(text):
        return text.removeprefix("^").split("/", 1)[0]

    def add(route):
        segment = first_segment(route)
        literal = re.match(r"[^<>()\\\[\]?*+$^|{}]*", segment)[0]
        if literal != segment:
            prefixes.add(literal)
        else:
            names.add(segment)

    def walk(patterns, prefix):
        for pattern in patterns:
            route = prefix + str(pattern.pattern).removeprefix("^")
            if isinstance(pattern, URLResolver):
                walk(pattern.url_patterns, route)
                continue
            if pattern.name in STANDALONE_ROUTES or (pattern.name or "").startswith("lang-"):
                continue  # /<slug>: the content's pages, whose slugs are checked against the rest
            add(route)
            if getattr(pattern, "distill_file", None):
                add(pattern.distill_file)

    walk(get_resolver().url_patterns, "")
    names.discard("")  # the home page: the path "/" itself, checked apart
    return frozenset(names), frozenset(prefixes)


def shadowed(path, languages=()):
    """The site's own address that the absolute-path alias `path` would shadow, or None.
    `languages`: the codes of the site's other languages (language_codes()), whose homes (`/fr/`)
    and lists, tags and feeds (`/fr/projects`, language_names()) are the site's too; any other
    address under them (`/fr/posts/old/`, a translation's old address) is not reserved."""
    names, prefixes = reserved_names()
    for spelling in spellings(alias_path_stored(path)):
        decoded = unquote(spelling)
        segment, *rest = decoded[1:].split("/", 1)
        if not segment:
            return "/"
        if {segment, segment.removesuffix(".html")} & names or segment.startswith(tuple(prefixes)):
            return "/" + segment
        code = segment.removesuffix(".html")
        if code in languages and not "".join(rest):
            return f"/{code}/"
        if segment in languages:
            under = "".join(rest).split("/", 1)[0]
            if {under, under.removesuffix(".html")} & language_names():
                return f"/{segment}/{under.removesuffix('.html')}"
    return None


@cache
def language_names():
    """The first segments of a language's own addresses after its code (`projects` of
    /fr/projects, `feed.xml`, `tags`...), from the routes and their files (`index.html`, the
    home's in a build): an old address there would hide them. Its standalone pages' (/fr/<slug>)
    are the content's, checked as the default language's."""
    names = set()

    def walk(patterns, prefix):
        for pattern in patterns:
            route = prefix + str(pattern.pattern).removeprefix("^")
            if isinstance(pattern, URLResolver):
                walk(pattern.url_patterns, route)
            elif (pattern.name or "").startswith("lang-") and route.startswith("<lang:lang>/"):
                if pattern.name.removeprefix("lang-") not in STANDALONE_ROUTES:
                    names.add(route.removeprefix("<lang:lang>/").split("/", 1)[0])
                    file = getattr(pattern, "distill_file", None) or ""
                    if file.startswith("{}/"):
                        names.add(file.removeprefix("{}/").split("/", 1)[0])

    walk(get_resolver().url_patterns, "")
    names.discard("")  # the language's home: /fr/ itself, checked apart
    return frozenset(names)


def hiding(path, where):
    """The import's message for an absolute-path alias that shadowed() the address `where`."""
    return (
        f"{path!r} would hide the site's own address {where}: expected an old address the site does not use"
    )


def language_codes():
    """The codes of the site's languages other than the default, as this import leaves site.yaml
    (its row is written as it is parsed, before the checks across files): each has its pages
    under /<code>/, so no standalone page and no old address may be /<code>."""
    from .languages import languages

    return frozenset(lang.code for lang in languages(Site.objects.first())[1:])


def stems(names):
    """{stem: name} of first segments without their extension: a page at /feed beside /feed.xml,
    at /index beside /index.html, would be taken for the site's own."""
    found = {}
    for name in sorted(names):
        stem = name.split(".", 1)[0]
        if stem:
            found.setdefault(stem, name)
    return found


@cache
def reserved_stems():
    """{stem: the site's own first segment}: what a standalone page's slug may not be (the first
    segments of the site's addresses, reserved_names(), by stem)."""
    return stems(reserved_names()[0])


@cache
def language_stems():
    """{stem: a language's own first segment}: what a translated page's earlier slug may not be
    (/fr/<alias> beside /fr/projects, /fr/feed.xml, the home's fr/index.html)."""
    return stems(language_names())


def page_slug_problem(slug, languages=(), language=None):
    """Why a standalone page may not be at /<slug> (its slug, or one of its earlier slugs), or None.
    `languages`: the codes of the site's other languages (language_codes()): /fr would stand beside
    /fr/, the home of the French pages (and fr.html beside fr/index.html in a build).
    `language`: the code of a translated page's, which is at /<language>/<slug> among that
    language's own addresses (language_stems()); its slug is its original's, checked as such, and
    an earlier slug `fr` there (/ja/fr) is no home."""
    if language is not None:
        taken = language_stems().get(slug)
        return (
            f"/{language}/{slug} would be taken for the site's own address /{language}/{taken}"
            if taken
            else None
        )
    if slug in languages:
        return f"/{slug} would be taken for the site's pages in {slug} (/{slug}/, site.yaml's languages)"
    taken = reserved_stems().get(slug)
    if taken is None:
        prefix = next((p for p in sorted(reserved_names()[1]) if p and slug.startswith(p)), None)
        if prefix is None:
            return None
        taken = prefix + "..."
    return f"/{slug} would be taken for the site's own address /{taken}"


def written_in(rel):
    """The language of a translation's file (`fr` of articles/post.fr.md); "" for an original's."""
    translation = translation_of(rel)
    return translation[1] if translation else ""


def page_address(rel, slug=None):
    """The address of the page of the file `rel` (/about; /fr/about for pages/about.fr.md), or its
    earlier address as `slug` (/about-me; /fr/a-propos)."""
    translation = translation_of(rel)
    if translation is None:
        return "/" + (slug or slug_of(rel))
    return f"/{translation[1]}/{slug or translation[0]}"


def redirect_problems():
    """Each of site.yaml's redirects moves to an address the site serves (serves()): checked once
    the import's rows are written, since the item, tag or language it names may be this import's."""
    pairs = Site.objects.values_list("redirects", flat=True).first() or []
    return [
        ContentError(
            SITE_FILE,
            "redirects",
            f"{old!r}: expected an address this site serves (/, /articles, /feed.xml, a page's /about...); "
            f"got {new!r}, which it does not",
        )
        for old, new in pairs
        if not serves(new)
    ]


def serves(path):
    """Whether a build writes a page or file at `path` (percent-encoded): it resolves to a route
    django-distill freezes, with parameters among those it freezes (a published article's slug, a
    tag there is, one of site.yaml's languages). Never an old address: no route's parameters are."""
    try:
        match = resolve(unquote(path))
    except Resolver404:
        return False
    pattern = dict(distilled()).get(match.view_name)
    if pattern is None:
        return False
    given = tuple(map(str, match.args or match.kwargs.values()))
    return any(tuple(map(str, params)) == given for params in frozen_params(pattern))


# site.yaml, whose `redirects` are old addresses as the items' absolute-path aliases are.
SITE_FILE = "site.yaml"


def field_of(rel):
    """The field that lists a file's old addresses."""
    return "redirects" if rel == SITE_FILE else "aliases"


def owned_by(rel):
    """`rel` as the owner of an old address, in a message."""
    return "one of site.yaml's redirects" if rel == SITE_FILE else f"an alias of {rel}"


class AliasChecker:
    """The import's checks of aliases across files, against the site as this import leaves it:
    `parsed(found)` for each file parsed, `problems()` once all are in (before their rows are
    written: the tables hold the unchanged files' as they were), `write()` in the import's
    transaction. A translation's aliases (`articles/<slug>.<lang>.md`, stored in its row) are
    checked with the originals', by the same rules: its slugs among its kind's in its language
    (they move /fr/articles/<alias>), its paths among every file's, a translated page's
    addresses (/fr/<slug>, /fr/<alias>) as the default language's pages'. Only the aliases
    tables (small: one row per alias), the translations with aliases and the translated pages,
    and the items named by aliases are read, so an edit's import stays as cheap at 10,000 items."""

    def __init__(self, files, deleted):
        self.files = set(files)  # every content file discovered (all, or the edit's)
        self.deleted = set(deleted)
        self.aliases = {}  # {rel: [slug alias]} of the items and translations parsed
        self.paths = {}  # {rel: [absolute-path alias]} of the items and translations parsed
        self.changed = set(deleted)  # files whose stored aliases no longer stand
        self.pages = set()  # the standalone pages and their translations parsed
        self.redirects = None  # site.yaml's redirects' old addresses, when it is parsed

    @cached_property
    def languages(self):
        """The site's other languages' codes, read once the files are parsed (site.yaml's included)."""
        return language_codes()

    def parsed(self, found):
        if found.rel == SITE_FILE and found.fields is not None:
            self.redirects = [old for old, _ in found.fields["redirects"]]
        if not found.rel.endswith(".md"):
            return
        if found.errors:
            self.changed.add(found.rel)  # its aliases are unknown: its stored ones do not stand
        elif found.fields is not None:
            self.changed.add(found.rel)
            if found.rel.startswith("pages/"):
                self.pages.add(found.rel)
            written = found.fields.get("aliases", [])
            self.aliases[found.rel] = [alias for alias in written if not alias.startswith("/")]
            self.paths[found.rel] = [alias_path_stored(alias) for alias in written if alias.startswith("/")]

    @cached_property
    def stored_translations(self):
        """[(rel, aliases)] of the stored translations whose file is unchanged (read before the
        parsed ones' rows are written): those with aliases, and every translated page (its
        address is taken)."""
        from .models import Translation

        rows = Translation.objects.filter(Q(kind="pages") | ~Q(aliases=[])).order_by("source_path")
        return [row for row in rows.values_list("source_path", "aliases") if row[0] not in self.changed]

    def problems(self):
        return self.slug_problems() + self.path_problems() + self.page_problems() + self.language_problems()

    def path_problems(self):
        """A path shadows no address of the site, and is one file's only (by its address:
        `/a/` and `/a.html` are one), an original's or a translation's."""
        problems = []
        for rel, paths in [*self.paths.items(), (SITE_FILE, self.redirects or [])]:
            for path in paths:
                if own := shadowed(path, self.languages):
                    problems.append(ContentError(rel, field_of(rel), hiding(path, own)))
        for entries in self.path_owners().values():
            entries.sort(key=lambda entry: (self.rewritten(entry[0]), entry))  # unchanged files first
            first_rel, first_path = entries[0]
            for rel, path in entries[1:]:
                same = "also" if path == first_path else f"the address of {first_path!r},"
                message = f"{path!r} is {same} {owned_by(first_rel)}: an old address belongs to one item"
                problems.append(ContentError(rel, field_of(rel), message))
        return problems

    def rewritten(self, rel):
        """Whether the old addresses `rel` lists are this import's (the file was parsed)."""
        return rel in self.paths or (rel == SITE_FILE and self.redirects is not None)

    @cached_property
    def stored_paths(self):
        """[(collection, path, target)] of the stored absolute-path aliases, read once for the
        checks that ask (path_problems, page_problems): write() changes them only after."""
        return list(PathAlias.objects.values_list("collection", "path", "target"))

    def path_owners(self):
        """{address: [(rel, path)]} of the absolute-path aliases after this import."""
        owners = defaultdict(list)
        for collection, path, target in self.stored_paths:
            rel = f"{collection}/{target}.md"
            if rel not in self.changed:
                owners[alias_path_key(path)].append((rel, path))
        for rel, aliases in self.stored_translations:
            for path in aliases:
                if path.startswith("/"):
                    owners[alias_path_key(path)].append((rel, path))
        for rel, paths in self.paths.items():
            for path in paths:
                owners[alias_path_key(path)].append((rel, path))
        redirects = self.redirects
        if redirects is None:  # site.yaml unchanged: its stored redirects stand
            redirects = [old for old, _ in Site.objects.values_list("redirects", flat=True).first() or []]
        for path in redirects:
            owners[alias_path_key(path)].append((SITE_FILE, path))
        return owners

    def page_problems(self):
        """A standalone page's slug and earlier slugs are none of the site's own addresses
        (page_slug_problem; a translation's earlier slugs none of its language's), and no
        absolute-path alias is a page's address, old or new (`/about/`, `/about.html`, `/about.md`
        when there is a page `about`; `/fr/about/` when it has a French translation)."""
        problems = []
        for rel in sorted(self.pages):
            language = written_in(rel) or None
            if not language and (problem := page_slug_problem(slug_of(rel), self.languages)):
                problems.append(ContentError(rel, "file name", f"{problem}: name the page otherwise"))
            for alias in self.aliases.get(rel, []):
                if problem := page_slug_problem(alias, self.languages, language):
                    problems.append(ContentError(rel, "aliases", f"{alias!r}: {problem}"))
        taken = {}  # {"/<slug>": (rel, what)} of the pages' addresses after this import
        for slug in Page.objects.values_list("slug", flat=True):
            if (rel := f"pages/{slug}.md") not in self.deleted:
                taken["/" + slug] = (rel, "the address of")
        for alias, target in Alias.objects.filter(collection="pages").values_list("slug", "target"):
            if (rel := f"pages/{target}.md") not in self.changed:
                taken["/" + alias] = (rel, "an earlier address of")
        written = [row for row in self.stored_translations if row[0].startswith("pages/")]
        written += [(rel, self.aliases.get(rel, [])) for rel in self.pages]
        for rel, aliases in written:
            taken[page_address(rel)] = (rel, "the address of")
            earlier = (page_address(rel, alias) for alias in aliases if not alias.startswith("/"))
            taken.update((address, (rel, "an earlier address of")) for address in earlier)
        for key, entries in sorted(self.path_owners().items()):
            page, what = taken.get(key.removesuffix(".md"), (None, None))
            for rel, path in entries if page else ():
                message = f"{path!r} is {what} {page}: expected an old address the site does not use"
                if self.rewritten(rel) or page not in self.pages:
                    problems.append(ContentError(rel, field_of(rel), message))
                else:  # a new or renamed page took an unchanged file's old address
                    problems.append(
                        ContentError(page, "file name", f"its address is {path!r}, {owned_by(rel)}")
                    )
        return problems

    def language_problems(self):
        """The unchanged files that site.yaml's languages may have just come to take (a page
        `fr`, an earlier slug `fr`, an old address `/fr` or `/fr/projects`, when it lists fr): the
        files parsed are checked with the rest (page_problems, path_problems), as
        page_slug_problem and shadowed tell."""
        codes = sorted(self.languages)
        problems = []
        for slug in Page.objects.filter(slug__in=codes).order_by("slug").values_list("slug", flat=True):
            if (rel := f"pages/{slug}.md") not in self.changed:
                problem = page_slug_problem(slug, codes)
                problems.append(ContentError(rel, "file name", f"{problem}: name the page otherwise"))
        rows = Alias.objects.filter(collection="pages", slug__in=codes).order_by("target", "slug")
        for alias, target in rows.values_list("slug", "target"):
            if (rel := f"pages/{target}.md") not in self.changed:
                problem = page_slug_problem(alias, codes)
                problems.append(ContentError(rel, "aliases", f"{alias!r}: {problem}"))
        under = Q(path__in=[f"/{code}{end}" for code in codes for end in ("", ".html")])
        for code in codes:
            under |= Q(path__startswith=f"/{code}/")
        rows = PathAlias.objects.filter(under).order_by("collection", "target", "path")
        stored = [
            (f"{c}/{target}.md", [path])
            for c, path, target in rows.values_list("collection", "path", "target")
        ]
        for rel, aliases in stored + self.stored_translations:
            for path in aliases:
                where = path.startswith("/") and rel not in self.changed and shadowed(path, codes)
                if where:
                    problems.append(ContentError(rel, "aliases", hiding(path, where)))
        return problems

    def slug_problems(self):
        """An alias is no item's slug of its kind (its own included), and one file's only: of
        its kind, and for a translation of its language too (its old addresses are under its
        prefix: /fr/articles/<alias>)."""
        problems = []
        for collection, model in ITEM_MODELS.items():
            owners = defaultdict(list)  # {(language, alias): [rel]} after this import ("": originals')
            for alias, target in Alias.objects.filter(collection=collection).values_list("slug", "target"):
                rel = f"{collection}/{target}.md"
                if rel not in self.changed:
                    owners[("", alias)].append(rel)
            for rel, aliases in [*self.stored_translations, *self.aliases.items()]:
                if rel.startswith(collection + "/"):
                    for alias in aliases:
                        if not alias.startswith("/"):
                            owners[(written_in(rel), alias)].append(rel)
            items = self.items(collection, model, sorted({alias for _, alias in owners}))
            for (_, alias), rels in sorted(owners.items()):
                rels.sort(key=lambda rel: (rel in self.aliases, rel))  # unchanged files first
                item = f"{collection}/{alias}.md"
                for rel in rels:
                    if item == rel:
                        problems.append(ContentError(rel, "aliases", f"{alias!r} is this file's own slug"))
                    elif item in items and rel in self.aliases:
                        message = (
                            f"{alias!r} is the slug of {item}: an alias is an earlier slug no item has now"
                        )
                        problems.append(ContentError(rel, "aliases", message))
                    elif item in items:  # a new file took the slug of an unchanged file's alias
                        message = (
                            f"its slug is an alias of {rel}: remove it there, or name this file otherwise"
                        )
                        problems.append(ContentError(item, "file name", message))
                for rel in rels[1:]:  # the problem is told in the file that changed
                    message = f"{alias!r} is also an alias of {rels[0]}: an earlier slug belongs to one item"
                    problems.append(ContentError(rel, "aliases", message))
        return problems

    def items(self, collection, model, slugs):
        """The files among `collection/<slug>.md` that there are after this import."""
        found = set()
        for start in range(0, len(slugs), 500):
            rows = model.objects.filter(slug__in=slugs[start : start + 500]).values_list("slug", flat=True)
            found.update(f"{collection}/{slug}.md" for slug in rows)
        found -= self.deleted
        found.update(rel for slug in slugs if (rel := f"{collection}/{slug}.md") in self.files)
        return found

    def write(self):
        """Replace the stored aliases of every parsed or deleted item (in the transaction). A
        translation's are its row's (importer.translation_row), written with it."""
        originals = [rel for rel in self.changed if not translation_of(rel)]
        for collection in ITEM_MODELS:
            slugs = sorted(slug_of(rel) for rel in originals if rel.startswith(collection + "/"))
            for start in range(0, len(slugs), 500):
                for model in (Alias, PathAlias):
                    model.objects.filter(
                        collection=collection, target__in=slugs[start : start + 500]
                    ).delete()
        rows = (
            Alias(collection=rel.split("/")[0], slug=alias, target=slug_of(rel))
            for rel, aliases in self.aliases.items()
            if not translation_of(rel)
            for alias in aliases
        )
        Alias.objects.bulk_create(rows, batch_size=500)
        paths = (
            PathAlias(collection=rel.split("/")[0], path=path, target=slug_of(rel))
            for rel, paths in self.paths.items()
            if not translation_of(rel)
            for path in paths
        )
        PathAlias.objects.bulk_create(paths, batch_size=500)
