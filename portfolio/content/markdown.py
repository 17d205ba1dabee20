"""Markdown to HTML, done once at import (pages read the stored result), with the body's
contents: its `##` headings, listed above the body when there are CONTENTS_MIN of them.

Python-Markdown is not linear on hostile input: a paragraph of unclosed brackets or of thousands
of links takes time quadratic in its length, and deep nesting recurses. So a body gets a CPU-time
budget linear in its size (RENDER_SECONDS + RENDER_SECONDS_PER_MB), and a body that exhausts it
or recurses too deeply is the importer's named error, not a hang or a traceback.
"""

import html
import importlib
import signal
import threading
from contextlib import contextmanager
from dataclasses import dataclass, field

import markdown
from markdown.extensions.toc import slugify_unicode

from .body_links import Document

# A body with this many `##` headings or more gets a table of contents above it.
CONTENTS_MIN = 3
# Ids the templates around a body give their own elements (base.html, the detail pages,
# includes/contents.html): a heading whose slug is one of them gets "-section" added, so that
# every id on the page stays unique. tests/pages/test_contents.py reads them from the templates.
PAGE_IDS = frozenset({"main", "case-study-title", "contents-title", "site-search"})


def heading_id(text, separator):
    """A heading's id: its text as a Unicode slug, so that a heading in any script gets one."""
    slug = slugify_unicode(text, separator)
    return f"{slug}{separator}section" if slug in PAGE_IDS else slug


EXTENSIONS = [
    # ```ts title="x.ts": still code (fences.py).
    "portfolio.content.fences:FenceInfoExtension",
    "fenced_code",
    "codehilite",
    "tables",
    "toc",
    "sane_lists",
    # `[^1]` and `[^1]: the note`: a numbered link to the note, and from the note back.
    "footnotes",
    # Links and images to media and other items, resolved and recorded (body_links.py).
    "portfolio.content.body_links:ReferenceExtension",
    # `$...$` and `$$...$$` as MathML, made at import (math.py).
    "portfolio.content.math:MathExtension",
    # `tabindex="0"` on every <pre>: a block that scrolls sideways is reachable by keyboard.
    "portfolio.content.code_blocks:FocusableCodeExtension",
]
EXTENSION_CONFIGS = {
    "codehilite": {"css_class": "highlight", "guess_lang": False},
    # A column's alignment as an `align` attribute, not `style=`: the Content-Security-Policy
    # (portfolio/export/hosts.py) allows no inline style.
    "tables": {"use_align_attribute": True},
    # No `[TOC]` marker: the contents are the page's (CONTENTS_MIN), not placed by hand.
    "toc": {"permalink": "#", "permalink_title": "Link to this section", "slugify": heading_id, "marker": ""},
    # Numbered in the order the text refers to them; U+FE0E keeps the back arrow text, not an emoji.
    "footnotes": {"USE_DEFINITION_ORDER": False, "BACKLINK_TEXT": "&#8617;&#xFE0E;"},
}
# Part of importer.IMPORT_VERSION: bump it when the output above changes, so that the next
# import re-renders every body instead of keeping HTML made by the old settings.
RENDER_VERSION = "6"


# Ordinary markdown renders at 0.6 s per MB on this machine (prose), a page of code or links in
# a few seconds: the budget leaves ample room for any real article and stops hostile ones.
RENDER_SECONDS = 1.0
RENDER_SECONDS_PER_MB = 10.0

_local = threading.local()


@dataclass(frozen=True)
class Context:
    """What a body is rendered against. Without `rel` (a body rendered outside an import) links
    and images are left as written, and a formula that does not convert stays its text."""

    rel: str | None = None  # the file whose body this is, as the importer names it
    first_line: int = 1  # the file line of the body's first line, for messages
    media: dict = field(default_factory=dict)  # {path under media/: Media} of the import
    # The item has no image of its own above the body: an image opening the body is then the
    # page's first picture.
    opens_page: bool = False


@dataclass
class Rendered:
    html: str
    contents: list  # [{"id", "name"}] of the `##` headings (contents_of)
    references: list  # [(line, target, written)]: media files, items and image hosts
    errors: list  # [ContentError]: links and formulas the import refuses


class RenderFailed(Exception):
    """The body cannot be rendered within the limits; the message says which and why."""


class _OverBudget(BaseException):
    """Raised by the CPU timer inside the renderer (BaseException: no `except Exception` in a
    library may swallow it)."""


def budget_for(text):
    return RENDER_SECONDS + RENDER_SECONDS_PER_MB * len(text.encode()) / 1_000_000


def contents_of(toc_tokens):
    """[{"id", "name"}] of the `##` headings in order (name as plain text: the template escapes
    it), or [] when there are fewer than CONTENTS_MIN."""
    found = []

    def walk(tokens):
        for token in tokens:
            if token["level"] == 2:
                found.append({"id": token["id"], "name": html.unescape(token["name"])})
            walk(token["children"])

    walk(toc_tokens)
    return found if len(found) >= CONTENTS_MIN else []


def loaded_extensions():
    """EXTENSIONS made here, as Python-Markdown would make them: given a name, it first looks
    among every installed package's entry points, and importing importlib.metadata for that
    cost 10-15 ms of every process that renders a body."""
    made = []
    for name in EXTENSIONS:
        path, _, class_name = name.partition(":")
        module = importlib.import_module(path if "." in path else f"markdown.extensions.{path}")
        configs = EXTENSION_CONFIGS.get(name, {})
        made.append(getattr(module, class_name)(**configs) if class_name else module.makeExtension(**configs))
    return made


def render(body, context=None):
    """The body's HTML, contents, references and errors; raises RenderFailed when it cannot be
    rendered within the limits."""
    context = context or Context()
    converter = getattr(_local, "converter", None)
    if converter is None:
        converter = _local.converter = markdown.Markdown(extensions=loaded_extensions())
    document = converter.document = Document(context, body)
    budget = budget_for(body)
    try:
        with cpu_budget(budget):
            body_html = converter.reset().convert(body)
            contents = contents_of(converter.toc_tokens)
            return Rendered(body_html, contents, document.references, document.errors)
    except RecursionError:
        _local.converter = None  # it stopped half-way: start the next body with a fresh one
        message = "nested too deeply to render (emphasis, lists or quotes inside each other)"
        raise RenderFailed(message) from None
    except _OverBudget:
        _local.converter = None
        raise RenderFailed(
            f"took more than {budget:.1f} s of CPU time to render, the limit for its size; "
            "look for very long paragraphs full of links, brackets or markup"
        ) from None
    finally:
        converter.document = None


@contextmanager
def cpu_budget(seconds):
    """Raise _OverBudget once this process has spent `seconds` of CPU inside the block. Signals
    reach only the main thread: elsewhere (the authoring server's request threads) the block
    runs unbounded, and the body is still bounded by CONTENT_MAX_FILE_BYTES."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def over(signum, frame):
        raise _OverBudget

    previous = signal.signal(signal.SIGPROF, over)
    signal.setitimer(signal.ITIMER_PROF, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, previous)
