"""The site's tags (the content format's "Tags"): every published article's `tags` and every
project's `stack` entries, one tag per slug (rules.tag_slug), read from the index the importer
keeps (models.Tagging, which never holds a draft's tags). A tag's items are newest first, then by
slug, a project before an article of the same date and slug, as the feed merges them; a tag is
shown with the spelling of the first of them, its newest item."""

import functools
import re
from typing import NamedTuple

from django.db.models import Count, Max, OuterRef, Q, Subquery
from django.urls import reverse
from django.utils.translation import gettext, ngettext

from portfolio.content.languages import page_prefix
from portfolio.content.models import Article, Project, Tagging
from portfolio.content.rules import tag_slug
from portfolio.reversing import reverse_slug

NEWEST = ("-date", "item", "-kind")


class TagConverter:
    """`<tag:slug>`: a tag's slug, which slugify(allow_unicode=True) makes of word characters and
    hyphens in any script; Django's `<slug:>` takes ASCII only."""

    regex = r"[-\w]+"

    def to_python(self, value):
        return value

    def to_url(self, value):
        if not re.fullmatch(self.regex, value):
            raise ValueError(value)
        return value


class Tag(NamedTuple):
    slug: str
    name: str  # as its newest item spells it
    projects: int
    articles: int
    latest: object  # the date of its newest item

    @property
    def count(self):
        return self.projects + self.articles

    @property
    def counted(self):
        """ "2 projects and 1 article": what the tag holds, in words (in the active language)."""
        n, m = self.projects, self.articles
        projects = ngettext("%(count)s project", "%(count)s projects", n) % {"count": n}
        articles = ngettext("%(count)s article", "%(count)s articles", m) % {"count": m}
        if n and m:
            return gettext("%(projects)s and %(articles)s") % {"projects": projects, "articles": articles}
        return projects if n else articles if m else ""

    @property
    def address(self):
        return reverse_slug("pages:tag", self.slug)

    @property
    def feed_address(self):
        return reverse("pages:tag-feed", kwargs={"slug": self.slug})


def tags(slug=None):
    """Every tag, by slug (only the one of `slug`, when given)."""
    rows = Tagging.objects.all() if slug is None else Tagging.objects.filter(slug=slug)
    newest = Tagging.objects.filter(slug=OuterRef("slug")).order_by(*NEWEST).values("name")[:1]
    rows = (
        rows.order_by("slug")
        .values("slug")
        .annotate(
            projects=Count("id", filter=Q(kind=Tagging.Kind.PROJECTS)),
            articles=Count("id", filter=Q(kind=Tagging.Kind.ARTICLES)),
            latest=Max("date"),
        )
        # After the counts, so that it is not grouped by: grouped, it would run once per row.
        .annotate(name=Subquery(newest))
    )
    return [Tag(**row) for row in rows]


def tag(slug):
    """The tag of `slug`, or None when no published item has it."""
    found = tags(slug)
    return found[0] if found else None


def tagged(slug):
    """The index rows of a tag's items, newest first: what its pages paginate."""
    return Tagging.objects.filter(slug=slug).order_by(*NEWEST).only("kind", "item")


def items_of(taggings, project_fields, article_fields):
    """(kind, item) of the projects and published articles of `taggings`, in their order, each
    loaded with the fields named."""
    slugs = {kind: [t.item for t in taggings if t.kind == kind] for kind in Tagging.Kind.values}
    projects = Project.objects.filter(slug__in=slugs["projects"]).only(*project_fields)
    found = {("projects", p.slug): p for p in projects}
    articles = Article.objects.published().filter(slug__in=slugs["articles"]).only(*article_fields)
    found.update((("articles", a.slug), a) for a in articles)
    return [(key[0], found[key]) for key in ((t.kind, t.item) for t in taggings) if key in found]


@functools.lru_cache(maxsize=10_000)
def _slug(name):
    return tag_slug(name)


def tag_address(name):
    """The address of the page of the tag `name` (as an item spells it): each pill links it."""
    return page_prefix.get() + reverse_slug("pages:tag", _slug(name))


def tag_slugs():
    """django-distill's parameters of the tag pages and feeds."""
    yield from Tagging.objects.order_by("slug").values_list("slug", flat=True).distinct()
