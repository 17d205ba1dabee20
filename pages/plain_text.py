"""Filters for the text surfaces: llms.txt, where a stray newline or bracket would break the
`- [name](url): notes` line that parsers read, and the feed's and sitemaps' XML. Plain functions:
the template environment (portfolio.jinja2) registers the llms.txt ones."""

import re

# What XML 1.0 cannot carry: C0 controls but tab and line breaks, lone surrogates, U+FFFE, U+FFFF.
NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def oneline(value):
    """Collapse all whitespace, newlines included, to single spaces."""
    return re.sub(r"\s+", " ", str(value)).strip()


def link_text(value):
    """Text that can sit between a markdown link's brackets: `]` would end the name early (and
    the llms-txt parser does not honour backslash escapes), so square brackets become round."""
    return oneline(value).replace("[", "(").replace("]", ")")


def xml_text(value):
    """Text that an XML document can hold. The importer refuses such characters in the first
    place; this keeps the feed and the sitemaps well-formed whatever reaches them (SITE_URL too)."""
    return NOT_XML.sub("", str(value))
