"""Formulas in a markdown body: `$...$` inline and `$$...$$` on their own line, LaTeX turned into
MathML at import (latex2mathml), so a page shows math with no script and no webfont: browsers
draw MathML themselves (MathML Core).

Dollars are read as pandoc reads them (its `tex_math_dollars`), so that prose keeps its prices:
an opening `$` has a non-space character right after it, a closing `$` has a non-space character
right before it and no digit right after it ("costs $5 and $10" holds no math); `\\$` is a
literal dollar. Code spans and code blocks are never read (their patterns come first). The
markdown source, which the twins and the API's `body` publish, keeps the LaTeX.

A formula that does not convert cleanly (a converter error, an unknown command, unbalanced
braces, or a command whose output the site's Content-Security-Policy would refuse) is the
import's error naming the file and the line. Rendered without a file (markdown.Context) such a
formula is left as the text it was written as.
"""

import re
import xml.etree.ElementTree as ElementTree

from latex2mathml.converter import convert
from markdown.extensions import Extension
from markdown.inlinepatterns import InlineProcessor

from .loader import ContentError

# `$$...$$`: anything but an empty formula; `$...$`: pandoc's rules above.
DISPLAY = r"(?<!\\)\$\$(.+?)\$\$"
INLINE = r"(?<![\\$])\$(?![\s$])(.+?)(?<![\s\\])\$(?!\d)"
# After code spans (backtick, 190), before backslash escapes (180): a formula's backslashes
# are LaTeX's, and `\$` outside one is still an escape.
DISPLAY_PRIORITY, INLINE_PRIORITY = 187, 186
# Commands latex2mathml turns into attributes a page must not carry: `style` (refused by the
# Content-Security-Policy), `class` (the site's styles) and `href` (a link hidden in a formula).
REFUSED_ATTRIBUTES = ("style", "class", "href")
# latex2mathml writes a stray `&` as is: outside a matrix it is no MathML, and not XML.
SELF_CLOSED = re.compile(r"<(\w+)([^<>]*?)\s*/>")
STRAY_AMPERSAND = re.compile(r"&(?!#x?[0-9A-Fa-f]+;|[A-Za-z]+;)")


class FormulaInvalid(ValueError):
    pass


def balanced(latex):
    depth = 0
    for brace in re.findall(r"(?<!\\)(?:\\\\)*([{}])", latex):
        depth += 1 if brace == "{" else -1
        if depth < 0:
            return False
    return depth == 0


def mathml(latex, display):
    """The MathML of a formula; raises FormulaInvalid saying what is wrong."""
    if not balanced(latex):
        raise FormulaInvalid("unbalanced braces { }")
    try:
        written = convert(latex, display="block" if display else "inline")
    except Exception as exc:  # the converter's errors have no common base class
        words = re.sub(r"(?<!^)([A-Z])", r" \1", type(exc).__name__).lower().removesuffix(" error")
        raise FormulaInvalid(f"cannot be read as LaTeX ({words})") from None
    written = STRAY_AMPERSAND.sub("&amp;", written)
    try:
        tree = ElementTree.fromstring(written)
    except ElementTree.ParseError:
        raise FormulaInvalid("cannot be read as LaTeX") from None
    for element in tree.iter():
        text = (element.text or "").strip()
        if text.startswith("\\"):
            raise FormulaInvalid(f"unknown command {text}")
        if text == "&":
            raise FormulaInvalid("`&` outside a matrix or array environment")
        refused = [name for name in REFUSED_ATTRIBUTES if name in element.attrib]
        if refused:
            raise FormulaInvalid(
                f"a command making a {refused[0]} attribute (\\style, \\class, \\href) is not allowed"
            )
    # `<mspace ... />` as an element with an end tag, as the rest of the page's HTML is written.
    written = SELF_CLOSED.sub(r"<\1\2></\1>", written)
    if display:
        # A formula wider than a phone's screen scrolls on its own, and a keyboard can scroll it.
        written = written.replace('display="block"', 'display="block" tabindex="0"', 1)
    return written


class MathProcessor(InlineProcessor):
    def __init__(self, pattern, md, display):
        super().__init__(pattern, md)
        self.display = display

    def handleMatch(self, m, data):  # noqa: N802 (Python-Markdown's name)
        try:
            written = mathml(m.group(1).strip(), self.display)
        except FormulaInvalid as exc:
            document = self.md.document
            if document.rel is None:
                return None, None, None
            line = document.line_of(m.group(0))
            document.errors.append(
                ContentError(document.rel, f"line {line}", f"formula {m.group(0)!r}: {exc}")
            )
            return None, None, None
        return self.md.htmlStash.store(written), m.start(0), m.end(0)


class MathExtension(Extension):
    def extendMarkdown(self, md):  # noqa: N802 (Python-Markdown's name)
        if "$" not in md.ESCAPED_CHARS:
            md.ESCAPED_CHARS.append("$")
        md.inlinePatterns.register(MathProcessor(DISPLAY, md, display=True), "math_display", DISPLAY_PRIORITY)
        md.inlinePatterns.register(MathProcessor(INLINE, md, display=False), "math_inline", INLINE_PRIORITY)
