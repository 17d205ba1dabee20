"""Step 1 of a build: every URL to freeze, the file it becomes, and what it depends on.

django-distill is the one registry of URLs (`distill_path` in each app's urls.py: the route, its
parameters and its file name); this module asks the URL configuration for them. What each file
depends on is what its route declares its pages show (`shows`, portfolio/shows.py, beside the
route): this module hashes each part of the site a page may show (Keys), and a file whose key is
the previous build's, and which is still as that build left it, is carried over instead of
rendered again: the plan says which. A route that declares nothing fails the build.
"""

import hashlib
from collections import Counter
from inspect import getfullargspec
from itertools import groupby
from typing import NamedTuple

from django.conf import settings
from django.db import connection
from django.urls import reverse
from django_distill.request import generate_filename

from contact.hosting import redirect_rules
from pages import series as series_
from pages.feeds import SiteFeed
from pages.twins import llms_full_parts
from portfolio.content import aliases, importer, languages
from portfolio.content.models import (
    Article,
    MediaFile,
    Page,
    Project,
    Site,
    Stack,
    StackTranslation,
    Tagging,
    Translation,
)
from portfolio.reversing import slug_reverser
from portfolio.shows import Shows, distilled, frozen_params

from . import hosts, manifest
from .state import BuildFailed


class Target(NamedTuple):  # a tuple: 30,000 of them are made in a few milliseconds
    uri: str  # "/projects/tidewater"
    path: str  # "projects/tidewater.html", relative to the output folder
    status_codes: tuple
    depends: str  # what it shows, its route's Shows.key(params): "lists", "projects:tidewater"
    route: str = ""  # the URL's name, "pages:project"
    params: tuple = ()  # its parameters, ("tidewater",)


def declarations(routes):
    """{route name: its Shows}; BuildFailed naming each route that declares no part of the site."""
    shows, problems = {}, []
    for name, pattern in routes:
        declared = getattr(pattern, "shows", None)
        if not isinstance(declared, Shows):
            problems.append(
                f"route {name} ({pattern.pattern}): declares no `shows`, what its pages show "
                "(make it with portfolio.shows.distill_path)"
            )
        elif problem := declared.problem():
            problems.append(f"route {name} ({pattern.pattern}): {problem}")
        shows[name] = declared
    if problems:
        raise BuildFailed(problems)
    return shows


def targets():
    """Every URL to freeze, from django-distill's routes (their parameters and file names), each
    with what its route declares it shows."""
    routes = distilled()
    shows = declarations(routes)
    found = []
    shared = {}  # {distill_func: its parameters}: an item's page, JSON and twin share one
    for name, pattern in routes:
        func = pattern.distill_func
        # A function given the view's name may answer each route differently.
        memo = (func, name) if "view_name" in getfullargspec(func).args else func
        if memo not in shared:
            shared[memo] = frozen_params(pattern)
        reverse_one = slug_reverser(name)
        status_codes = tuple(pattern.distill_status_codes)
        for params in shared[memo]:
            uri = reverse_one(params[0]) if len(params) == 1 else reverse(name, args=params)
            path = generate_filename(pattern.distill_file, uri, params) or uri.lstrip("/")
            found.append(Target(uri, path, status_codes, shows[name].key(params), name, params))
    return found


# The parts a file of one item (or of the code) shows: the rest show more than one item.
DETAIL = ("projects:", "articles:", "pages:", "media:", "card:")


def is_global(target):
    """Does `target` show more than one item (a list, an index, the site's identity)?"""
    return target.depends != "code" and not target.depends.startswith(DETAIL)


def hash_of(*parts):
    """A hash of the parts' text, each ended by a NUL (an edit's build hashes 10,000 items)."""
    return hashlib.sha256("\0".join(map(str, parts)).encode() + b"\0").hexdigest()


def code_hash():
    """A hash of the code and settings that shape the output, so a change to either rebuilds all."""
    digest = hashlib.sha256()
    for path in manifest.code_files():  # requirements.txt last
        digest.update(str(path.relative_to(settings.BASE_DIR)).encode() + b"\0" + path.read_bytes())
    digest.update(Site.load().base_url.encode())
    digest.update(getattr(settings, "CONTACT_SERVICE_URL", "").encode())
    digest.update(settings.GISCUS_ORIGIN.encode())
    return digest.hexdigest()


# What no list, feed, sitemap or index shows (the body, and the importer's record of the file):
# a change to these alone re-renders only the item's own page and JSON.
DETAIL_ONLY = {"body", "body_html", "contents", "source_path", *importer.STATE}


def listed(queryset, *also):
    """What the global pages can show of each item: every field but the detail-only ones, as
    the database holds them (hashed, not read: no JSON decoding of 10,000 rows' fields), then
    the fields `also` names."""
    fields = [f.attname for f in queryset.model._meta.concrete_fields if f.attname not in DETAIL_ONLY]
    # In the lists' order (-date, slug), which the articles' listing index holds: no sort.
    sql, params = queryset.order_by("-date", "slug").values_list(*fields, *also).query.sql_with_params()
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return fields, cursor.fetchall()


class Keys:
    """The dependency key of each target: equal keys mean equal output."""

    def __init__(self, code=None):
        self.code = code or code_hash()
        # Each collection read once, in the lists' order: what the lists show, then the content
        # hash, which they do not show.
        fields, projects = listed(Project.objects, "content_hash")
        p_slug, p_title, p_date = fields.index("slug"), fields.index("title"), fields.index("date")
        fields, articles = listed(Article.objects.published(), "content_hash")
        a_slug, a_title, a_date = fields.index("slug"), fields.index("title"), fields.index("date")
        self.media = dict(MediaFile.objects.values_list("path", "content_hash"))
        site = Site.objects.values_list("content_hash", flat=True).get()
        stack = Stack.objects.values_list("content_hash", flat=True).get()
        # Every page's header links to the standalone pages with `nav: true`: part of the identity.
        nav = list(Page.objects.in_nav().values_list("slug", "title", "order"))
        # Every page links to its versions in the site's other languages (hreflang, the switcher):
        # with translations, they are part of the identity (without, the key is as it was).
        translations = sorted(
            (*key, sorted(found.items())) for key, found in languages.published_translations().items()
        )
        if stacks := sorted(StackTranslation.objects.values_list("language", "content_hash")):
            translations.append(("stack", stacks))
        self.site = hash_of(self.code, site, nav, *([translations] if translations else []))
        # An item's page, JSON and twin show the item and the site; an article's page also links
        # to the articles before and after it in the list, by title. Made here in one pass (30,000
        # targets share 10,000 of them).
        # `own`: what the item's page shows of the item alone (the search index's part of it).
        around = ["", *(f"{row[a_slug]}\0{row[a_title]}" for row in articles), ""]
        # An article's page also shows its series (every part's title, in order) and its related
        # articles (their titles and dates): pages/series.py, the same functions its view reads.
        titles = {row[a_slug]: (row[a_title], row[a_date]) for row in articles}
        every_series = series_.all_series()
        shown_series = {}
        for found in every_series:
            box = (found.name, [(slug, titles[slug][0]) for slug, _ in found.parts])
            shown_series.update((slug, box) for slug, _ in found.parts)
        related = series_.related_index()
        self.own = {f"projects:{row[p_slug]}": hash_of(self.site, row[p_slug], row[-1]) for row in projects}
        # A standalone page shows itself and the site; llms.txt and the sitemap list the pages.
        pages = Page.objects.published().order_by("slug")
        pages = list(pages.values_list("slug", "title", "description", "content_hash"))
        self.own.update((f"pages:{row[0]}", hash_of(self.site, row[0], row[-1])) for row in pages)
        self.memo = dict(self.own)
        # A social card shows its item's title and date and the site's name: a body edit keeps it.
        self.cards = {f"projects:{row[p_slug]}": hash_of(self.site, row[p_title]) for row in projects}
        self.cards.update(
            (f"articles:{row[a_slug]}", hash_of(self.site, row[a_title], row[a_date])) for row in articles
        )
        for i, row in enumerate(articles):
            slug = row[a_slug]
            own = self.own[f"articles:{slug}"] = hash_of(self.site, slug, row[-1])
            shown = (shown_series.get(slug), [(other, *titles[other]) for other in related.get(slug, ())])
            self.memo[f"articles:{slug}"] = hash_of(own, around[i], around[i + 2], shown)
        # As text once, each row's and the whole list's (the same text as str() of the list):
        # each hash would make it again from every row.
        texts = {
            kind: [str(row[:-1]) for row in rows]
            for kind, rows in (("projects", projects), ("articles", articles))
        }
        listed_projects = f"[{', '.join(texts['projects'])}]"
        listed_articles = f"[{', '.join(texts['articles'])}]"
        # llms.txt lists the parts of the full text, and each part holds its items' whole files.
        parts = llms_full_parts()
        size = settings.LIST_PAGE_SIZE  # the sitemap lists the lists' pages
        listed_pages = [row[:-1] for row in pages]
        # The series there are (the sitemap's index names their section when there is one).
        series_dates = [(found.slug, found.latest) for found in every_series]
        self.all = hash_of(
            self.site, stack, listed_projects, listed_articles, listed_pages, len(parts), size, series_dates
        )
        hashes = {("projects", row[p_slug]): row[-1] for row in projects}
        hashes.update((("articles", row[a_slug]), row[-1]) for row in articles)
        for number, items in enumerate(parts, 1):
            shown = [(*item, hashes[item]) for item in items]
            budget = settings.LLMS_FULL_PART_BYTES  # part 1 names it
            self.memo[f"llms-full:{number}"] = hash_of(self.site, number, len(parts), budget, shown)
        # Each page of a human list shows its own items (what the lists show of them) and links to
        # the pages around it: an edit re-renders the page holding the item, a new item every page.
        for kind, rows in texts.items():
            count = max(1, -(-len(rows) // size))  # an empty list is one page saying so
            for number in range(1, count + 1):
                shown = rows[(number - 1) * size : number * size]
                self.memo[f"{kind}-page:{number}"] = hash_of(self.site, kind, number, count, *shown)
        # The feeds show their newest items whole: the site's, of the newest of both lists.
        newest = SiteFeed.max_entries
        feed = hash_of(self.site, "feed", newest, projects[:newest], articles[:newest])
        items = {
            ("projects", row[p_slug]): (text, row[-1], row[p_date])
            for row, text in zip(projects, texts["projects"], strict=True)
        }
        items.update(
            (("articles", row[a_slug]), (text, row[-1], row[a_date]))
            for row, text in zip(articles, texts["articles"], strict=True)
        )
        tags = self.tag_keys(items)
        # A series' page shows its name and what the lists show of its parts, in order; its feed
        # their bodies too.
        for found in every_series:
            keys = [("articles", slug) for slug, _ in found.parts]
            self.memo[f"series-page:{found.slug}"] = hash_of(
                self.site, "series", found.slug, found.name, *(items[key][0] for key in keys)
            )
            whole = [f"{items[key][0]}\0{items[key][1]}" for key in keys]
            self.memo[f"series-feed:{found.slug}"] = hash_of(
                self.site, "series-feed", found.slug, found.name, *whole
            )
        # The parts shown whole (portfolio/shows.py's WHOLE) and the sitemap's sections.
        self.shows = {
            "site": self.site,
            "lists": self.all,
            "bodies": hash_of(self.all, "bodies", list(hashes.items())),
            "code": self.code,
            "languages": hash_of(self.all, "languages", list(hashes.items()), translations),
            "feed": feed,
            **tags,
            "projects": hash_of(self.site, "projects", listed_projects),
            "articles": hash_of(self.site, "articles", listed_articles),
            "stack": hash_of(self.site, "stack", stack),
            "sitemap:pages": self.all,  # every page of the lists, dated by the newest items
            "sitemap:projects": hash_of(self.site, [(row[p_slug], row[p_date]) for row in projects]),
            "sitemap:articles": hash_of(self.site, [(row[a_slug], row[a_date]) for row in articles]),
            "sitemap:series": hash_of(self.site, "series-dates", series_dates),
        }

    def tag_keys(self, items):
        """The keys of each tag's pages and feed (into memo), and of /tags and the tags' sitemap
        section (returned). `items`: {(kind, slug): (list fields as text, content hash, date)} of every
        published item: a tag's page shows what the lists show of its items, its feed their
        bodies too."""
        size, newest = settings.LIST_PAGE_SIZE, SiteFeed.max_entries
        uses = Tagging.objects.order_by("slug", "-date", "item", "-kind").values_list(
            "slug", "name", "kind", "item"
        )
        with connection.cursor() as cursor:  # as listed() reads: no model made
            cursor.execute(*uses.query.sql_with_params())
            uses = cursor.fetchall()
        index, dates = [], []
        for slug, group in groupby(uses, key=lambda use: use[0]):
            group = list(group)  # newest first: the first names the tag and dates it
            name, keys = group[0][1], [(kind, item) for _, _, kind, item in group]
            counts = [sum(kind == wanted for kind, _ in keys) for wanted in ("projects", "articles")]
            count = max(1, -(-len(keys) // size))
            for number in range(1, count + 1):
                shown = [f"{key[0]}\0{items[key][0]}" for key in keys[(number - 1) * size : number * size]]
                self.memo[f"tag-page:{slug}:{number}"] = hash_of(
                    self.site, "tag", slug, name, counts, number, count, *shown
                )
            whole = [f"{key[0]}\0{items[key][0]}\0{items[key][1]}" for key in keys[:newest]]
            self.memo[f"tag-feed:{slug}"] = hash_of(self.site, "tag-feed", slug, name, *whole)
            index.append((slug, name, counts))
            dates.append((slug, count, items[keys[0]][2]))
        return {
            "tags": hash_of(self.site, "tags", index),
            "sitemap:tags": hash_of(self.site, "tag-dates", dates),
        }

    def __call__(self, target):
        """The key of `target`; the files with the same dependency share one."""
        key = self.memo.get(target.depends)
        if key is None:
            key = self.memo[target.depends] = self.key_of(target)
        return key

    def key_of(self, target):
        if target.depends in self.shows:
            return self.shows[target.depends]
        part, piece = target.depends.split(":", 1)
        if part == "card":
            if piece not in self.cards:
                raise LookupError(f"{target.uri}: no published item {piece}")
            return hash_of(part, piece, self.cards[piece])
        if part == "media":  # not the code: a code change need not copy every image again
            return hash_of(part, piece, self.media.get(piece, ""))
        if part in ("projects", "articles", "pages"):
            raise LookupError(f"{target.uri}: no published item {target.depends}")
        raise LookupError(f"{target.uri} (route {target.route}): no {part} {piece!r} to show")


def draft_translations():
    """[(file, address, title)] of every translation that is not published (a draft, scheduled, or
    of a draft original): verify refuses its address anywhere."""
    published = Translation.objects.published().values("pk")
    rows = Translation.objects.exclude(pk__in=published).order_by("source_path")
    return [
        (row.source_path, languages.item_address(row.kind, row.slug, row.language), row.title)
        for row in rows
        if languages.other_language(row.language)  # the import refuses any other
    ]


def drafts_key(state):
    """What the manifest records of the drafts: a build whose drafts changed searches the files
    it carries over for them again. The same as before languages when no translation is a draft."""
    return hash_of(state.drafts, *([state.draft_translations] if state.draft_translations else []))


def plan(state):
    """Fill in `state`'s targets, their keys, and which of them to render: those whose file the
    previous build's output cannot stand for."""
    state.targets = targets()
    duplicates = [path for path, n in Counter(t.path for t in state.targets).items() if n > 1]
    if duplicates:
        raise BuildFailed([f"{path}: written by more than one URL" for path in sorted(duplicates)])
    key_of = Keys()
    state.keys = {target.path: key_of(target) for target in state.targets}
    state.own_keys = key_of.own
    state.code = key_of.code
    state.base_url = Site.load().base_url
    state.drafts = sorted(Article.objects.filter(draft=True).values_list("slug", "title"))
    state.draft_translations = draft_translations()
    moves = aliases.moves()
    state.host_files = {
        "_headers": hosts.headers_file(languages.page_addresses(), languages.other_codes()),
        "_redirects": hosts.redirects_file(redirect_rules(), moves),
        hosts.NGINX_REDIRECTS: hosts.nginx_redirects(moves),
        hosts.ASSETS_IGNORE: hosts.assets_ignore(),
    }
    state.redirect_pages = hosts.redirect_pages(moves, state.base_url) if settings.REDIRECT_PAGES else {}
    state.host_files.update(state.redirect_pages)
    if taken := sorted(set(state.redirect_pages) & {target.path for target in state.targets}):
        raise BuildFailed(
            [f"{path}: an old address's redirect page and a page of the site" for path in taken]
        )
    previous = state.previous.get("files", {})
    state.carried, state.to_render = [], []
    for target in state.targets:
        entry = previous.get(target.path)
        if entry and entry[0] == state.keys[target.path] and target.path not in state.altered:
            state.carried.append(target)
        else:
            state.to_render.append(target)
