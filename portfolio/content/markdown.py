"""Markdown to HTML, done once at import (pages read the stored result), with the body's
contents: its `##` headings, listed above the body when there are CONTENTS_MIN of them.

Bodies are CommonMark (0.31.2) with GitHub's tables, `~~strikethrough~~`, task lists and alerts,
as Hugo, Astro, GitHub and editors' previews read them: markdown-it-py, whose own tests run the
CommonMark spec, with mdit-py-plugins' footnotes and dollar math. The site's additions, each in
a module of its own: heading ids and their `#` link (headings.py), highlighted code blocks and
their fence attributes (code_blocks.py, fences.py), footnotes with stable ids (footnotes.py),
formulas as MathML (math.py), links and images resolved (body_links.py).
tests/content/test_commonmark.py runs every example of the spec through render().

markdown-it is linear in its input and bounds nesting (NESTING_MAX); a body nested deeper is
refused. A CPU-time budget linear in the body's size (RENDER_SECONDS + RENDER_SECONDS_PER_MB)
stays as a guard, so that a plugin's slow path on some input is the importer's named error, not
a hang.
"""

import signal
import threading
from contextlib import contextmanager
from dataclasses import dataclass, field

from markdown_it import MarkdownIt
from mdit_py_plugins.dollarmath import dollarmath_plugin
from mdit_py_plugins.footnote import footnote_plugin

from portfolio.interrupts import unreported

from . import body_links, code_blocks, footnotes, headings, math

# Part of importer.IMPORT_VERSION: bump it when the output changes, so that the next import
# re-renders every body instead of keeping HTML made by the old settings.
RENDER_VERSION = "7"
# Blocks (quotes, lists) and inline markup (emphasis, links) inside each other: deeper than any
# real post, far below Python's recursion limit.
NESTING_MAX = 50

# Generous for any real article; the budget guards, it is not expected to be reached.
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
    contents: list  # [{"id", "name"}] of the `##` headings (headings.contents)
    references: list  # [(line, target, written)]: media files, items and image hosts
    errors: list  # [ContentError]: links and formulas the import refuses


class RenderFailed(Exception):
    """The body cannot be rendered within the limits; the message says which and why."""


class _OverBudget(BaseException):
    """Raised by the CPU timer inside the renderer (BaseException: no `except Exception` in a
    library may swallow it)."""


def budget_for(text):
    return RENDER_SECONDS + RENDER_SECONDS_PER_MB * len(text.encode()) / 1_000_000


def parser():
    """The site's markdown-it: CommonMark, GFM's tables, strikethrough, task lists and alerts,
    and the additions above. One per thread (a parser keeps no state between bodies)."""
    md = MarkdownIt(
        "commonmark",
        {"maxNesting": NESTING_MAX, "tasklists": True, "tasklists_editable": False, "alerts": True},
    )
    md.enable(["table", "strikethrough"])
    # `[^1]` and `[^1]: the note`, numbered in the order the text refers to them.
    md.use(footnote_plugin, inline=False)
    # `$...$` as pandoc reads it (no space inside the dollars, no digit after the closing one:
    # "costs $5 and $10" is prose), `$$...$$` inline or on lines of its own.
    md.use(dollarmath_plugin, allow_labels=False, allow_space=False, allow_digits=False, double_inline=True)
    for plugin in (headings.plugin, code_blocks.plugin, footnotes.plugin, math.plugin, body_links.plugin):
        md.use(plugin)
    md.core.ruler.push("gfm_markup", gfm_markup)
    md.add_render_rule("list_item_open", list_item_open)
    return md


def list_item_open(self, tokens, index, options, env):
    """A task list's item: its box is a picture of its state (disabled, hidden from assistive
    technology, which would read an unlabelled form field), and the state is said in words."""
    token = tokens[index]
    opening = self.renderToken(tokens, index, options, env)
    if "checked" not in (token.meta or {}):
        return opening
    checked, state = (' checked=""', "Done") if token.meta["checked"] else ("", "To do")
    box = f'<input class="task-list-item-checkbox" type="checkbox" disabled=""{checked} aria-hidden="true">'
    return f'{opening}{box}<span class="visually-hidden">{state}: </span>'


def gfm_markup(state):
    """A core rule: a table column's alignment as an `align` attribute, not `style=` (the
    Content-Security-Policy, portfolio/export/hosts.py, allows no inline style), and
    strikethrough as <del>, as GitHub writes them."""
    for token in state.tokens:
        if token.type in ("th_open", "td_open"):
            style = token.attrGet("style") or ""
            if style.startswith("text-align:"):
                del token.attrs["style"]
                token.attrSet("align", style.removeprefix("text-align:"))
        elif token.type == "inline":
            for child in token.children or ():
                if child.type in ("s_open", "s_close"):
                    child.tag = "del"


def thread_parser():
    md = getattr(_local, "md", None)
    if md is None:
        md = _local.md = parser()
    return md


def render(body, context=None):
    """The body's HTML, contents, references and errors; raises RenderFailed when it cannot be
    rendered within the limits."""
    md = thread_parser()
    env = new_env(body, context)
    budget = budget_for(body)
    try:
        with cpu_budget(budget):
            tokens = md.parse(body, env)
            if too_deep(tokens):
                raise RenderFailed(f"nested more than {NESTING_MAX} levels deep (lists, quotes or emphasis)")
            html = md.renderer.render(tokens, md.options, env)
    except RecursionError:
        raise RenderFailed(
            "nested too deeply to render (emphasis, lists or quotes inside each other)"
        ) from None
    except _OverBudget:
        raise RenderFailed(
            f"took more than {budget:.1f} s of CPU time to render, the limit for its size; "
            "look for very long paragraphs full of links, brackets or markup"
        ) from None
    return Rendered(html, headings.contents(tokens), env["resolved"], env["errors"])


def new_env(body, context=None):
    return {"context": context or Context(), "body": body, "resolved": [], "errors": []}


def prose(body):
    """The plain text of each of the body's top-level paragraphs, in order (the move-in makes
    descriptions of them): never a heading, list, quote, code block, table or raw HTML, and a
    paragraph holding only images or tags has none, nor one with a comment (a part the move-in
    hid: its text reads with a gap, "The title is and...")."""
    previous = None
    for token in thread_parser().parse(body, new_env(body)):
        opened, previous = previous, token.type
        if token.type != "inline" or token.level != 1 or not token.map or opened != "paragraph_open":
            continue  # a heading's text, a table's cell
        if any(
            child.type == "html_inline" and child.content.startswith("<!--") for child in token.children or ()
        ):
            continue
        text = " ".join(headings.plain_text(token).split())
        if text:
            yield text


def too_deep(tokens):
    """Whether markdown-it reached its nesting limit, where it stops reading what is inside (the
    rest of the body would be lost without a word)."""
    for token in tokens:
        if token.level >= NESTING_MAX - 1:
            return True
        if token.children and any(child.level >= NESTING_MAX - 1 for child in token.children):
            return True
    return False


@contextmanager
def cpu_budget(seconds):
    """Raise _OverBudget once this process has spent `seconds` of CPU inside the block. Signals
    reach only the main thread: elsewhere (the authoring server's request threads) the block
    runs unbounded, and the body is still bounded by CONTENT_MAX_FILE_BYTES."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def over(signum, frame):
        # Raised where the signal lands, which may be code that cannot pass it on (a finalizer
        # run by a garbage collection loses it): armed again, until it stops the body.
        signal.setitimer(signal.ITIMER_PROF, 0.01)
        raise _OverBudget

    previous = signal.signal(signal.SIGPROF, over)
    signal.setitimer(signal.ITIMER_PROF, seconds)
    try:
        with unreported(_OverBudget):
            yield
    finally:
        while True:  # the re-armed signal may land here too: disarm until it has not
            try:
                signal.setitimer(signal.ITIMER_PROF, 0)
                signal.signal(signal.SIGPROF, previous)
                break
            except _OverBudget:
                continue
