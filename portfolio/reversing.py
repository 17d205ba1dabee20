"""reverse() once per route rather than once per URL, for routes with one slug parameter.

A route's URL for a slug is its URL for a placeholder with the slug put in: reverse() leaves
slug characters as they are. A build reverses every item's address on several surfaces (the
lists, llms.txt, the feed, the sitemap) and every URL it freezes: at 10,000 articles, over a
second of reverse() calls.
"""

import re
from functools import partial

from django.conf import settings
from django.urls import NoReverseMatch, get_script_prefix, get_urlconf, reverse

PLACEHOLDER = "reverseplaceholder"
SLUG = re.compile(r"[-a-zA-Z0-9_]+")  # Django's slug converter; str and path accept it too

_templates = {}


def reverse_slug(name, slug):
    """reverse(name, args=[slug]) for a route whose parameter is a slug, str or path."""
    return _fill(_template(name), name, slug)


def slug_reverser(name):
    """reverse_slug() for many slugs of one route: the urlconf and script prefix (thread-locals,
    most of a call's cost) are read once, when it is made."""
    return partial(_fill, _template(name), name)


def _template(name):
    """The route's URL with PLACEHOLDER for its slug, or None where that cannot stand in."""
    key = (get_urlconf() or settings.ROOT_URLCONF, get_script_prefix(), name)
    if key not in _templates:
        try:
            template = reverse(name, args=[PLACEHOLDER])
        except NoReverseMatch:  # a converter the placeholder does not fit (int, uuid)
            template = None
        _templates[key] = template if template and template.count(PLACEHOLDER) == 1 else None
    return _templates[key]


def _fill(template, name, slug):
    if template is None or not (isinstance(slug, str) and SLUG.fullmatch(slug)):
        return reverse(name, args=[slug])
    return template.replace(PLACEHOLDER, slug)
