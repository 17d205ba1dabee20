"""A body's headings: each gets an id made of its text and a `#` link to itself inside it, and
the `##` headings are the body's contents, listed above it when there are CONTENTS_MIN of them.

The ids are the ones readers have linked to since the site began (Python-Markdown's `toc` with
its Unicode slugs): the heading's text, lower-cased, without punctuation, words joined by `-`,
in any script; a second heading of the same text gets `_1`, a third `_2`; a heading with no
letters at all `_1`.
"""

import html
import re

# A body with this many `##` headings or more gets a table of contents above it.
CONTENTS_MIN = 3
# Ids the templates around a body give their own elements (base.html, the detail pages,
# includes/contents.html): a heading whose slug is one of them gets "-section" added, so that
# every id on the page stays unique. tests/pages/test_contents.py reads them from the templates.
PAGE_IDS = frozenset(
    {
        "main",
        "case-study-title",
        "contents-title",
        "site-search",
        "series-title",
        "related-title",
        "comments-title",
    }
)
SEPARATOR = "-"
NUMBERED = re.compile(r"^(.*)_([0-9]+)$")
# The inline tokens whose text a heading's id and name are made of (raw HTML tags are not text).
TEXT_TOKENS = {"text", "code_inline", "math_inline", "math_inline_double"}


def heading_id(text):
    """A heading's id before it is made unique: its text as a Unicode slug."""
    slug = re.sub(r"[^\w\s-]", "", text).strip().lower()
    slug = re.sub(rf"[{SEPARATOR}\s]+", SEPARATOR, slug)
    return f"{slug}{SEPARATOR}section" if slug in PAGE_IDS else slug


def unique(slug, used, searched):
    """`slug`, else the first of slug_1, slug_2... that `used` does not hold. `searched` keeps
    where the search from each slug ended: `used` only grows, so the next search from it starts
    there (a body of n headings with one text takes n steps, not n²/2)."""
    start, slug = slug, searched.get(slug, slug)
    while slug in used or not slug:
        numbered = NUMBERED.match(slug)
        slug = f"{numbered[1]}_{int(numbered[2]) + 1}" if numbered else f"{slug}_1"
    used.add(slug)
    searched[start] = slug
    return slug


def plain_text(inline):
    """The text of a heading's inline token, as a reader sees it."""
    parts = []
    for child in inline.children or ():
        if child.type in TEXT_TOKENS:
            parts.append(child.content)
        elif child.type in ("softbreak", "hardbreak"):
            parts.append("\n")
    return "".join(parts)


def give_ids(state):
    """A core rule: every heading's id, in the order they come."""
    used, searched = set(), {}
    tokens = state.tokens
    for index, token in enumerate(tokens):
        if token.type == "heading_open":
            text = plain_text(tokens[index + 1])
            token.attrSet("id", unique(heading_id(text), used, searched))
            token.meta["name"] = " ".join(text.split())


def heading_close(self, tokens, index, options, env):
    opening = tokens[index - 2]
    anchor = html.escape(opening.attrGet("id") or "")
    link = f'<a class="headerlink" href="#{anchor}" title="Link to this section">#</a>' if anchor else ""
    return f"{link}</{tokens[index].tag}>\n"


def contents(tokens):
    """[{"id", "name"}] of the `##` headings in order (name as plain text: the template escapes
    it), or [] when there are fewer than CONTENTS_MIN."""
    found = [
        {"id": token.attrGet("id"), "name": token.meta["name"]}
        for token in tokens
        if token.type == "heading_open" and token.tag == "h2"
    ]
    return found if len(found) >= CONTENTS_MIN else []


def plugin(md):
    md.core.ruler.push("heading_ids", give_ids)
    md.add_render_rule("heading_close", heading_close)
