"""What keeps a reader on an article: the other parts of its series (front matter `series`,
`seriesOrder`: models.SeriesPart) and the articles related to it by its tags (models.Tagging).
Both read only the importer's indexes, which hold published articles alone: no draft or scheduled
article is ever a part or a related article.

A series is ordered by `seriesOrder` when its parts have one (the importer refuses a series where
some have and some have not), else by date, then slug. Its slug is made as a tag's
(rules.tag_slug), its name is its newest part's spelling.

An article's related articles are up to RELATED others sharing a tag with it: more shared tags
first, then the newest, then by slug. During a build (the site pinned) they are computed once for
every article (related_index(), which the build's plan hashes too); on the authoring server, for
the one article asked for (related_to()). Both rank with `rank()`.
"""

from collections import Counter, defaultdict
from itertools import groupby
from typing import NamedTuple

from django.urls import reverse
from django.utils.translation import ngettext

from portfolio.content.models import Article, SeriesPart, Site, Tagging
from portfolio.reversing import reverse_slug

RELATED = 3


class Series(NamedTuple):
    slug: str
    name: str  # as its newest part spells it
    parts: list  # [(article slug, date)] in the series' order

    @property
    def address(self):
        return reverse_slug("pages:series", self.slug)

    @property
    def feed_address(self):
        return reverse("pages:series-feed", kwargs={"slug": self.slug})

    @property
    def latest(self):
        return max(date for _, date in self.parts)

    @property
    def counted(self):
        """ "3 parts", in the active language."""
        count = len(self.parts)
        return ngettext("%(count)s part", "%(count)s parts", count) % {"count": count}


def _series(rows):
    """Series of SeriesPart rows (slug, name, article, order, date) ordered by slug."""
    found = []
    for slug, group in groupby(rows, key=lambda row: row[0]):
        group = list(group)
        name = max(group, key=lambda row: (row[4], row[2]))[1]  # the newest part's spelling
        if all(row[3] is not None for row in group):
            group.sort(key=lambda row: (row[3], row[4], row[2]))
        else:
            group.sort(key=lambda row: (row[4], row[2]))
        found.append(Series(slug, name, [(row[2], row[4]) for row in group]))
    return found


FIELDS = ("slug", "name", "article", "order", "date")


def all_series():
    """Every series with a published part, by slug."""
    return _series(SeriesPart.objects.order_by("slug").values_list(*FIELDS))


def series(slug):
    """The series of `slug`, or None when no published article is a part of it."""
    found = _series(SeriesPart.objects.filter(slug=slug).values_list(*FIELDS))
    return found[0] if found else None


def series_slugs():
    """django-distill's parameters of the series' pages and feeds."""
    yield from SeriesPart.objects.order_by("slug").values_list("slug", flat=True).distinct()


def parts_of(found, fields):
    """The published articles of a series, in its order, each loaded with `fields`."""
    slugs = [slug for slug, _ in found.parts]
    articles = {a.slug: a for a in Article.objects.published().filter(slug__in=slugs).only(*fields)}
    return [articles[slug] for slug in slugs if slug in articles]


class SeriesBox(NamedTuple):
    """What an article's page shows of its series: "Part N of M" and every part, linked."""

    series: Series
    parts: list  # [(slug, title, address)]
    position: int  # 1-based


def series_box(slug):
    """The series box of the published article `slug`, or None."""
    part = SeriesPart.objects.filter(article=slug).values_list("slug", flat=True).first()
    if part is None:
        return None
    found = series(part)
    articles = parts_of(found, ("slug", "title"))
    parts = [(a.slug, a.title, a.get_absolute_url()) for a in articles]
    position = next(i for i, (s, _, _) in enumerate(parts, 1) if s == slug)
    return SeriesBox(found, parts, position)


def rank(shared, dated):
    """The sort key of a related article: more shared tags, then newer, then by slug.
    `dated`: (date, slug)."""
    return (-shared, -dated[0].toordinal(), dated[1])


def related_to(slug):
    """The slugs of the articles related to the published article `slug`, best first (one
    query of the tags' index: every use of the article's tags)."""
    mine = Tagging.objects.filter(kind=Tagging.Kind.ARTICLES, item=slug).values("slug")
    uses = Tagging.objects.filter(kind=Tagging.Kind.ARTICLES, slug__in=mine).exclude(item=slug)
    shared, dates = Counter(), {}
    for item, date in uses.values_list("item", "date"):
        shared[item] += 1
        dates[item] = date
    best = sorted(shared, key=lambda item: rank(shared[item], (dates[item], item)))
    return best[:RELATED]


@Site.build_cached
def related_index():
    """{article slug: [related slugs, best first]} of every published article with a tag.
    Articles with the same set of tags rank every other article alike, and within such a group
    only the newest count: so each group's newest RELATED + 1 are the only candidates it offers,
    and each set of tags is ranked once against the groups sharing a tag with it."""
    tags_of, dates = defaultdict(set), {}
    for tag, item, date in Tagging.objects.filter(kind=Tagging.Kind.ARTICLES).values_list(
        "slug", "item", "date"
    ):
        tags_of[item].add(tag)
        dates[item] = date
    groups = defaultdict(list)
    for item, tags in tags_of.items():
        groups[frozenset(tags)].append((dates[item], item))
    newest = {
        tags: sorted(members, key=lambda dated: rank(0, dated))[: RELATED + 1]
        for tags, members in groups.items()
    }
    with_tag = defaultdict(list)
    for tags in groups:
        for tag in tags:
            with_tag[tag].append(tags)
    found = {}
    for tags, members in groups.items():
        others = {other for tag in tags for other in with_tag[tag]}
        candidates = sorted(
            (rank(len(tags & other), dated), dated[1]) for other in others for dated in newest[other]
        )
        ranked = [item for _, item in candidates]
        for _, item in members:
            found[item] = [other for other in ranked if other != item][:RELATED]
    return found


def related(slug):
    """The articles related to the published article `slug`, best first, with their titles,
    dates and addresses."""
    slugs = related_index().get(slug, []) if Site.has_build_cache() else related_to(slug)
    articles = {
        a.slug: a for a in Article.objects.published().filter(slug__in=slugs).only("slug", "title", "date")
    }
    return [articles[s] for s in slugs if s in articles]
