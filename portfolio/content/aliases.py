"""Renamed items: a project's or article's `aliases` are its earlier slugs, and every old address
of the item answers 301 to the new one. The rules, in one place:

- which old addresses move, and where to (`addresses`): the page and its `.html` form, the markdown
  twin, the API document with and without `.json`;
- which aliases are published (`moves`): those of projects and published articles. A draft is
  never published anywhere, so its aliases redirect nowhere until it is published (they are
  still checked, so that publishing it cannot clash);
- the import's checks across files (`Checker`): an alias is no item's slug of the same kind and
  is listed by one item only.

The build writes `moves()` into the hosts' redirect rules (portfolio/export/hosts.py); the
authoring server answers them from `moved_to()` (pages/middleware.py).
"""

import re
from collections import defaultdict

from portfolio.reversing import reverse_slug

from .loader import ContentError, slug_of
from .models import Alias, Article, Project

COLLECTIONS = {"projects": Project, "articles": Article}
# The routes of an item's addresses, the page's first.
ROUTES = {
    "projects": ("pages:project", "pages:project-md", "api:project", "api:project-json"),
    "articles": ("pages:article", "pages:article-md", "api:article", "api:article-json"),
}
# A path that may be an item's old address: moved_to() looks its slug up, addresses() decide.
ITEM_PATH = re.compile(r"^/(?:api/v1/)?(?P<collection>projects|articles)/(?P<slug>[^/.]+)(?:\.[a-z]+)?$")


def addresses(collection, old, new):
    """[(old address, new address)] of an item whose slug was `old`: the page (and its file's
    `.html` name, which hosts also answer, to the page), the markdown twin, the API document
    with and without `.json`."""
    pairs = [(reverse_slug(route, old), reverse_slug(route, new)) for route in ROUTES[collection]]
    page = pairs[0]
    return [page, (page[0] + ".html", page[1]), *pairs[1:]]


def moves():
    """[(old address, new address)] of every alias of a published item, by collection and alias."""
    drafts = Article.objects.filter(draft=True).values("slug")
    rows = Alias.objects.exclude(collection="articles", target__in=drafts)
    return [
        pair
        for collection, old, new in rows.values_list("collection", "slug", "target")
        for pair in addresses(collection, old, new)
    ]


def moved_to(path):
    """The address `path` moved to, if it is an old address of a published item; else None."""
    match = ITEM_PATH.fullmatch(path)
    if match is None:
        return None
    collection, old = match["collection"], match["slug"]
    target = Alias.objects.filter(collection=collection, slug=old).values_list("target", flat=True).first()
    if target is None:
        return None
    if collection == "articles" and not Article.objects.published().filter(slug=target).exists():
        return None
    return dict(addresses(collection, old, target)).get(path)


class Checker:
    """The import's checks of aliases across files, against the site as this import leaves it:
    `parsed(found)` for each file parsed, `problems()` once all are in, `write()` in the import's
    transaction. Only the aliases table (small: one row per alias) and the items named by
    aliases are read, so an edit's import stays as cheap at 10,000 items."""

    def __init__(self, files, deleted):
        self.files = set(files)  # every content file discovered (all, or the edit's)
        self.deleted = set(deleted)
        self.aliases = {}  # {rel: [alias]} of the items parsed
        self.changed = set(deleted)  # items whose stored aliases no longer stand

    def parsed(self, found):
        if not found.rel.endswith(".md"):
            return
        if found.errors:
            self.changed.add(found.rel)  # its aliases are unknown: its stored ones do not stand
        elif found.fields is not None:
            self.changed.add(found.rel)
            self.aliases[found.rel] = found.fields.get("aliases", [])

    def problems(self):
        problems = []
        for collection, model in COLLECTIONS.items():
            owners = defaultdict(list)  # {alias: [rel]} after this import
            for alias, target in Alias.objects.filter(collection=collection).values_list("slug", "target"):
                rel = f"{collection}/{target}.md"
                if rel not in self.changed:
                    owners[alias].append(rel)
            for rel, aliases in self.aliases.items():
                if rel.startswith(collection + "/"):
                    for alias in aliases:
                        owners[alias].append(rel)
            items = self.items(collection, model, list(owners))
            for alias, rels in sorted(owners.items()):
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
        """Replace the stored aliases of every parsed or deleted item (in the transaction)."""
        for collection in COLLECTIONS:
            slugs = sorted(slug_of(rel) for rel in self.changed if rel.startswith(collection + "/"))
            for start in range(0, len(slugs), 500):
                Alias.objects.filter(collection=collection, target__in=slugs[start : start + 500]).delete()
        rows = (
            Alias(collection=rel.split("/")[0], slug=alias, target=slug_of(rel))
            for rel, aliases in self.aliases.items()
            for alias in aliases
        )
        Alias.objects.bulk_create(rows, batch_size=500)
