"""Lists as pieces: how a list file (the articles page, its JSON, llms.txt) is told to the static
export, so that an edit of one item renders that item's piece only.

A view with a `listing(request)` classmethod answers the bytes a GET of its address answers as a
Listing: a head, one piece per item and a tail. Each item has a key that changes whenever what
the list shows of it does; the export copies the pieces whose keys the previous file holds from
that file, and asks the view to render the others (portfolio/export/render.py). At 10,000
articles, rendering the three lists whole was most of a title edit's rebuild.
"""

from collections.abc import Callable
from operator import attrgetter
from typing import NamedTuple

from django.template.loader import render_to_string

# Marks where each item of a template's list starts, and where the list ends ({{ cut }} in the
# template; empty, and so invisible, when the page is served). A NUL cannot come from the content:
# the loader refuses control characters in front matter (loader.CONTROL_RE), which is all that
# list items and the page around them show.
CUT = "\0"
# Up to this many items are read by their slugs; more, and it reads them all (one query, within
# every database's limit on parameters).
FEW = 500


class Listing(NamedTuple):
    keys: list  # one per item, in the list's order: equal keys mean equal pieces
    # render(indices) -> (head, [the pieces of those items], tail), as bytes
    render: Callable
    separator: bytes = b""  # between two items


def in_order(items, slugs, total, slug_of):
    """The rows of `items` (a queryset of `total` rows, of models or values()) with these
    `slugs`, in that order: all of them when every one is asked for, else read by their slugs,
    or all read and picked when they are more than FEW. `slug_of(row)`: a row's slug."""
    if len(slugs) == total:
        return list(items)
    # Unordered: sorting a few rows by the lists' index scans every published article first.
    some = items.filter(slug__in=slugs).order_by() if len(slugs) <= FEW else items
    found = {slug_of(row): row for row in some}
    return [found[slug] for slug in slugs]


def template_listing(request, template, context, name, items):
    """The Listing of a page that shows `items` (a queryset of projects or articles) as
    `context[name]`, through a loop that marks each item with {{ cut }}."""
    keys = items.item_keys()

    def render(indices):
        if not keys:
            return render_to_string(template, {**context, name: []}, request).encode(), [], b""
        # Never an empty list: the page would say there is nothing (its head and tail are needed).
        wanted = [keys[i][0] for i in indices] or [keys[0][0]]
        shown = in_order(items, wanted, len(keys), attrgetter("slug"))
        text = render_to_string(template, {**context, name: shown, "cut": CUT}, request)
        head, *pieces, tail = text.split(CUT)
        if len(pieces) != len(shown):
            raise ValueError(f"{template}: {len(pieces)} pieces for {len(shown)} items")
        return head.encode(), [piece.encode() for piece in pieces] if indices else [], tail.encode()

    return Listing(keys, render)
