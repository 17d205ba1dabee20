"""Formulas in a markdown body: `$...$` inline and `$$...$$` on their own line, LaTeX turned into
MathML at import (latex2mathml), so a page shows math with no script and no webfont: browsers
draw MathML themselves (MathML Core).

Dollars are read by mdit-py-plugins' dollarmath, set (markdown.parser) to read them as pandoc
does, so that prose keeps its prices: an opening `$` has a non-space character right after it
and no digit right before it, the closing `$` a non-space character right before it and no digit
right after it ("costs $5 and $10" holds no math); `\\$` is a literal dollar; `$$...$$` is a
displayed formula, inline or on lines of its own. Code spans and code blocks are never read. The
markdown source, which the twins and the API's `body` publish, keeps the LaTeX.

A formula that does not convert cleanly (a converter error, an unknown command, unbalanced
braces, or a command whose output the site's Content-Security-Policy would refuse) is the
import's error naming the file and the line. Rendered without a file (markdown.Context) such a
formula is left as the text it was written as.
"""

import html
import re
import xml.etree.ElementTree as ElementTree

from latex2mathml.converter import convert

from .body_links import line_of
from .rules import ContentError

# Commands latex2mathml turns into attributes a page must not carry: `style` (refused by the
# Content-Security-Policy), `class` (the site's styles) and `href` (a link hidden in a formula).
REFUSED_ATTRIBUTES = ("style", "class", "href")
# latex2mathml writes a stray `&` as is: outside a matrix it is no MathML, and not XML.
# Greedy up to the tag's end, the spaces before `/>` trimmed after: linear on any run of spaces.
SELF_CLOSED = re.compile(r"<(\w+)([^<>]*)/>")
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
    written = SELF_CLOSED.sub(lambda tag: f"<{tag[1]}{tag[2].rstrip()}></{tag[1]}>", written)
    if display:
        # A formula wider than a phone's screen scrolls on its own, and a keyboard can scroll it.
        written = written.replace('display="block"', 'display="block" tabindex="0"', 1)
    return written


def formula(self, tokens, index, options, env):
    """A render rule for each kind of dollarmath token: the formula's MathML, or, when it does
    not convert, the import's error (its text when rendered without a file)."""
    token = tokens[index]
    display = token.type != "math_inline"
    try:
        written = mathml(token.content.strip(), display)
    except FormulaInvalid as exc:
        context = env["context"]
        source = f"{token.markup}{token.content}{token.markup}"
        if context.rel is not None:
            at = line_of(env, source)
            env["errors"].append(ContentError(context.rel, f"line {at}", f"formula {source!r}: {exc}"))
        return html.escape(source)
    return written + "\n" if token.type == "math_block" else written


def plugin(md):
    for kind in ("math_inline", "math_inline_double", "math_block"):
        md.add_render_rule(kind, formula)
