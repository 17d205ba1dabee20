"""Filters for the plain-text surfaces (llms.txt), where a stray newline or bracket would break
the `- [name](url): notes` line that parsers read. Plain functions: the template environment
(portfolio.jinja2) registers them."""

import re


def oneline(value):
    """Collapse all whitespace, newlines included, to single spaces."""
    return re.sub(r"\s+", " ", str(value)).strip()


def link_text(value):
    """Text that can sit between a markdown link's brackets: `]` would end the name early (and
    the llms-txt parser does not honour backslash escapes), so square brackets become round."""
    return oneline(value).replace("[", "(").replace("]", ")")
