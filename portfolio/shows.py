"""What the pages of each frozen route show, declared beside the route.

Every GET route the static export freezes is made with `distill_path` from here: django-distill's,
with one more keyword, `shows`, saying which part of the site its pages show. A build renders a
file again only when a part it shows changed (portfolio/export/plan.py hashes each part), so a
route that shows more than it declares goes stale after an edit; one that declares nothing fails
the build, naming it.

A part shown whole is named alone: `shows=LISTS`. A part in pieces (an item, a page of a list) is
named with a format string that picks the piece from the page's URL parameters, as `distill_file`
names the file: `Shows("projects", "{}")` is the project whose slug the URL holds.
"""

from typing import NamedTuple

import django_distill
from django_distill.request import get_uri_values
from django_distill.utils import iter_url_patterns

# The parts of the site a page may show, whole or in pieces. Each includes the site's identity
# (site.yaml, in every page's header and footer) and the code that shapes the output, but `code`
# (the code alone) and `media` (a file's bytes alone).
WHOLE = {
    "site": "the site's identity alone",
    "lists": "what the lists show of every published item (no body), the stack, the parts of llms-full.txt",
    "bodies": "every published item whole, bodies included (and so what the lists show)",
    "projects": "what the lists show of every project",
    "articles": "what the lists show of every published article",
    "stack": "the stack (stack.yaml)",
    "feed": "the newest projects and articles whole, bodies included",
    "tags": "each tag's name and counts",
    "code": "the code and settings alone, not the site's identity (the static files)",
    "languages": "the pages of the site's other languages: every published translation whole, its "
    "original whole, the lists and the site's identity",
}
IN_PIECES = {
    "projects": "one project whole (its slug)",
    "articles": "one published article whole, the titles of the articles either side, of the parts "
    "of its series and of its related articles (its slug)",
    "pages": "one published standalone page whole (its slug)",
    "projects-page": "one page of /projects: its projects as the lists show them (its number)",
    "articles-page": "one page of /articles (its number)",
    "tag-page": "one page of a tag: its items as the lists show them (slug:number)",
    "tag-feed": "a tag's newest items whole (its slug)",
    "series-page": "a series' page: its name and its parts as the lists show them (its slug)",
    "series-feed": "a series' parts whole (its slug)",
    "llms-full": "one part of llms-full.txt: its items whole (its number)",
    "sitemap": "one section of the sitemap (projects, articles, tags, series: their addresses and dates; "
    "pages: as `lists`)",
    "media": "one media file's bytes, not the code (its path)",
    "card": "one item's social card: its title and date (kind:slug)",
}


class Shows(NamedTuple):
    """What the pages of a route show: a part of the site (WHOLE), or a piece of one (IN_PIECES),
    `piece` picking it from a page's URL parameters ("{}", "{}:1", "{}:{}")."""

    part: str
    piece: str = ""

    def key(self, params):
        """What one page shows, given its URL parameters: "site", "projects:tidewater"."""
        return f"{self.part}:{self.piece.format(*params)}" if self.piece else self.part

    def problem(self):
        """Why this declaration names no part of the site, or None."""
        known = IN_PIECES if self.piece else WHOLE
        if self.part not in known:
            return (
                f"shows {self.part!r}{' in pieces' if self.piece else ''}, which is none of {sorted(known)}"
            )
        return None


SITE, LISTS, BODIES, CODE = Shows("site"), Shows("lists"), Shows("bodies"), Shows("code")
LANGUAGES = Shows("languages")


def distill_path(route, view, *, shows, **kwargs):
    """django_distill.distill_path(route, view, **kwargs), whose pattern records `shows`, a Shows."""
    # Looked up when called: django-distill makes its distill_path when its app is ready.
    pattern = django_distill.distill_path(route, view, **kwargs)
    pattern.shows = shows
    return pattern


def distilled():
    """[(the route's name, its pattern)] of every route django-distill freezes, in the URL
    configuration now in use (django-distill's own registry is the one it found at start-up)."""
    return [
        (f"{namespace}:{pattern.name}" if namespace else pattern.name, pattern)
        for pattern, namespace, _ in iter_url_patterns()
        if getattr(pattern, "is_distilled", False)
    ]


def frozen_params(pattern):
    """The parameters django-distill freezes the route `pattern` with, each a tuple (() for a
    route without any)."""
    return [
        () if params is None else tuple(params) if isinstance(params, (tuple, list)) else (params,)
        for params in get_uri_values(pattern.distill_func, pattern.name)
    ]
