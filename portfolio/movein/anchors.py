"""Headings' own ids: `## Install it {#install}` (kramdown's header id; Hugo's Goldmark reads any
attributes there, `{#install .wide}`, `{id="install"}`), and kramdown's attribute list on the
line after a heading (or before it), `{: #install}`. This site's renderer reads none: the text
would show, and the heading would have the id its renderer makes of its text (headings.py).

The attribute block is taken out of the heading, its id left as a mark at the end of the
heading's line (what is not an id, a class, is dropped with a warning). Once the body is
converted, settle() takes the marks out and reads the id the renderer gives each marked heading
(its own parse of the body: its slug rule, its numbering of repeated headings), and relink()
points the links to the old id at it: the post's own (`[see](#install)`), and other posts' to
its old address with that fragment (`/2020/01/02/post/#install`), which references.py made
links to the post's file (`post.md#install`).
"""

import re
from urllib.parse import unquote

from portfolio.content import markdown

from .markup import outside_code, parse
from .references import DEFINITION, LINK

# A heading's old id, as the mark left at the end of its line until settle() takes it out:
# private-use characters (_clean() in convert.py removes control characters, not these).
MARK_START, MARK_END = "\ue000anchor:", "\ue001"
MARKED = re.compile(f"{MARK_START}([^{MARK_END}\\n]*){MARK_END}")
KRAMDOWN, GOLDMARK = "kramdown", "Goldmark"
# kramdown's header id (its HEADER_ID): {#id} ending the heading's text, after a space.
HEADER_ID = re.compile(r"\{#(?P<id>[A-Za-z][\w:-]*)\}")
# Goldmark's attributes (parser/attribute.go): `#id` and `.class` (letters, digits and `_-:.`, any
# character beyond ASCII), `name=value` (a quoted string, or up to a space, `,` or `}`), between
# spaces or commas. Possessive: a block that does not end as one is never split another way.
NAME = r"""[^\s!"#$%&'()*+,/;<=>?@\[\\\]^`{|}~]*+"""
VALUE = r"""(?:"(?:[^"\\\n]|\\.)*+"|'[^'\n]*+'|[^\s,{}"']++)"""
KEY = r"[A-Za-z_:][A-Za-z0-9_:.-]*+"
ATTRIBUTE = re.compile(rf"(?P<kind>[#.])(?P<name>{NAME})|(?P<key>{KEY})[ \t]*=[ \t]*(?P<value>{VALUE})")
ATTRIBUTES = re.compile(rf"\{{[ \t]*+(?:(?>[#.]{NAME}|{KEY}[ \t]*=[ \t]*{VALUE})[ \t]*+,?[ \t]*+)*+\}}")
# A line that may be a heading's ending with attributes, an ATX heading's (in a quote or a list
# item too) or a setext heading's text (the parse says which are headings): no body without one
# is parsed for them.
CANDIDATE = re.compile(r"^[ \t>*+\d.)-]*#{1,6}[ \t][^\n]*\}[ \t#]*$|\}[ \t]*\n[ \t>]*(?:=+|-+)[ \t]*$", re.M)
HREF = re.compile(r"""(?P<start>\bhref[ \t]*=[ \t]*)(?P<q>["'])(?P<target>[^"'\s<>]*)(?P=q)""", re.I)


def mark(old_id):
    return f"{MARK_START}{old_id}{MARK_END}"


def heading_attributes(post, body, original, reader, tokens=None):
    """`body` with the attribute block that ends each heading's text (`reader` says which syntax:
    KRAMDOWN's `{#id}` only, GOLDMARK's any attributes) taken out and its id left as a mark;
    what else it gave the heading dropped with a warning at its line of `original`. `tokens`:
    the renderer's parse of `body`, when made."""
    if not CANDIDATE.search(body):
        return body
    tokens = parse(body) if tokens is None else tokens
    lines, cursor = body.split("\n"), 0
    for index, token in enumerate(tokens):
        if token.type != "heading_open" or not tokens[index + 1].map:
            continue
        inline = tokens[index + 1]
        number = inline.map[1] - 1  # the heading's last line of text
        text = inline.content.rsplit("\n", 1)[-1]
        found = _attributes(text, reader)
        line = lines[number]
        at = line.rfind(found) if found else -1
        rest = line[at + len(found) :] if at >= 0 else ""
        # kramdown's id ends the text; Goldmark's attributes may come before the closing #s
        ending = r"[ \t]*" if reader == KRAMDOWN or token.markup[0] != "#" else r"[ \t]*(?:[ \t]#+[ \t]*)?"
        if at < 0 or not re.fullmatch(ending, rest):
            continue
        lines[number] = line[:at].rstrip(" \t")
        ids, lost = _read(found, reader)
        if ids:
            lines[number] += mark(ids[-1])  # the last id written is the heading's
        lines[number] += rest.rstrip(" \t") if rest.strip() else ""
        place = original.find(found, cursor)
        cursor = place + 1 if place >= 0 else cursor
        if lost:
            dropped = ", ".join(lost)
            message = (
                f"{reader} heading attributes {found}: {dropped} dropped (a heading here has only its id)"
            )
            post.warn(message, place if place >= 0 else None)
    return "\n".join(lines)


def _attributes(text, reader):
    """The attribute block ending a heading's text, as written, or None."""
    start = text.rfind("{")
    if start < 0 or (start and text[start - 1] == "\\"):
        return None
    block = text[start:].rstrip(" \t")
    if reader == KRAMDOWN:
        return block if start and text[start - 1] in " \t" and HEADER_ID.fullmatch(block) else None
    return block if ATTRIBUTES.fullmatch(block) else None


def _read(block, reader):
    """([the ids], [what else is written]) of an attribute block."""
    if reader == KRAMDOWN:
        return [HEADER_ID.fullmatch(block)["id"]], []
    ids, lost = [], []
    for found in ATTRIBUTE.finditer(block):
        if found["kind"] == "#" and found["name"]:
            ids.append(found["name"])
        elif found["key"] == "id":
            ids.append(found["value"].strip("\"'"))
        elif found[0].strip():
            lost.append(found[0])
    return [one for one in ids if one and not re.search(r"[\s\x00-\x1f\ue000\ue001]", one)], lost


def settle(body):
    """(`body` without its marks, {old id: the id this site's renderer gives its heading}), where
    the two differ. A mark on a line that is no heading (an old id the renderer has no heading
    for) is taken out, and its id left out."""
    if MARK_START not in body:
        return body, {}
    lines, marks = body.split("\n"), []
    for number, line in enumerate(lines):
        if MARK_START in line:
            marks += [(number, found[1]) for found in MARKED.finditer(line)]
            lines[number] = MARKED.sub("", line)
    body = "\n".join(lines)
    tokens = markdown.thread_parser().parse(body, markdown.new_env(body))  # the ids given, as render() does
    headings = [(token.map, token.attrGet("id")) for token in tokens if token.type == "heading_open"]
    ids, position = {}, 0
    for number, old in marks:  # both in the order of their lines
        while position < len(headings) and headings[position][0][1] <= number:
            position += 1
        if position < len(headings) and headings[position][0][0] <= number:
            new = headings[position][1]
            if new and new != old:
                ids.setdefault(old, new)
    return body, ids


def relink(body, ids_of):
    """`body` with each link to a heading's old id pointed at its new one: `ids_of(path)` is
    {old id: new id} of the item the link's path names ("" for the post's own headings), or
    None. Links (markdown, reference definitions, raw HTML's href) in code are left as written."""

    def target(written):
        path, hashed, fragment = written.partition("#")
        ids = ids_of(path) if hashed else None
        new = ids.get(unquote(fragment)) if ids else None
        return f"{path}#{new}" if new else written

    def link(found):
        start, end = found.span("target")
        written = found["target"]
        if written.startswith("<") and written.endswith(">"):
            new = "<" + target(written[1:-1]) + ">"
        else:
            new = target(written)
        return found[0][: start - found.start()] + new + found[0][end - found.start() :]

    def change(part):
        part = LINK.sub(link, part) if "](" in part else part
        part = DEFINITION.sub(link, part) if "]:" in part else part
        return HREF.sub(link, part) if "href" in part.lower() else part

    if "#" not in body or change(body) == body:  # nothing to point elsewhere: the body not parsed
        return body
    return outside_code(body, change)
