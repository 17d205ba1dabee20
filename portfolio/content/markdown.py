"""Markdown to HTML, done once at import (pages read the stored result)."""

import threading

import markdown
from markdown.extensions.toc import slugify_unicode

EXTENSIONS = [
    "fenced_code",
    "codehilite",
    "tables",
    "toc",
    "sane_lists",
    # Links and images to media and other items, resolved and recorded (body_links.py).
    "portfolio.content.body_links:ReferenceExtension",
]
EXTENSION_CONFIGS = {
    "codehilite": {"css_class": "highlight", "guess_lang": False},
    # A column's alignment as an `align` attribute, not `style=`: the Content-Security-Policy
    # (portfolio/export/hosts.py) allows no inline style.
    "tables": {"use_align_attribute": True},
    # Unicode-aware ids so that a heading in any script still gets an anchor.
    "toc": {"permalink": "#", "permalink_title": "Link to this section", "slugify": slugify_unicode},
}
# Part of every file's content hash: bump it when the output above changes, so that the next
# import re-renders every body instead of keeping HTML made by the old settings.
RENDER_VERSION = "2"

_local = threading.local()


def render(text):
    converter = getattr(_local, "converter", None)
    if converter is None:
        converter = _local.converter = markdown.Markdown(
            extensions=EXTENSIONS, extension_configs=EXTENSION_CONFIGS
        )
    return converter.reset().convert(text)
