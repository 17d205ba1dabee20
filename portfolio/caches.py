"""`distill-local --gc`: after the build, remove from the caches what the site no longer uses, as
Hugo's `--gc` does. The caches are named by what made them, so they only grow: an edited article
leaves its old rendered body behind, a changed image its old variants, a new title its old card,
and a new version of the code that renders the bodies a whole set of them.

Kept: the rendered body of each content file as it is now (settings.CONTENT_CACHE_DIR), the
variants of the images the site shows and the card of each item that has one
(settings.MEDIA_CACHE_DIR). Nothing else in `.cache/` is looked at. What is removed is made again
if it is ever needed: nothing is lost but the time to make it.
"""

from pathlib import Path

from django.conf import settings

from pages.cards import cached_cards
from portfolio.content.importer import cache_entries
from portfolio.content.media import variant_files


def in_use():
    return {
        *map(str, cache_entries(settings.CONTENT_DIR)),
        *map(str, variant_files().values()),
        *map(str, cached_cards()),
    }


def cache_files():
    """Every finished file of the three caches (not a temporary file another process may be
    writing now)."""
    content, media = Path(settings.CONTENT_CACHE_DIR), Path(settings.MEDIA_CACHE_DIR)
    yield from content.glob("*/*.pickle")
    yield from media.glob("*.webp")
    yield from media.glob("cards/*/*.png")


def sweep():
    """Remove every cache file the site does not use now: (files removed, their bytes)."""
    keep = in_use()
    removed = size = 0
    for path in cache_files():
        if str(path) in keep:
            continue
        try:
            bytes_ = path.stat().st_size
            path.unlink()
        except OSError:
            continue  # gone already, or not ours to remove: left as it is
        removed, size = removed + 1, size + bytes_
    return removed, size
