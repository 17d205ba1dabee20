"""Definition lists, as kramdown and Hugo's Goldmark read them (PHP Markdown Extra's syntax):

    Term
    Another term
    : A definition, its next lines indented
      as far as its text (or not: a paragraph's lazy lines).
    : Another definition.

the lines of a paragraph, each a term, then each definition starting with `:` (a blank line
before one makes its text a paragraph, as do blank lines inside it). This site's renderer reads
none: it showed one paragraph, `Term Another term : A definition...`.

Each list becomes the HTML it was, `<dl>`, `<dt>`, `<dd>` (the site publishes a body's HTML as
written, docs/content-format.md): a term or definition that is plain text is written inside its
tag, as kramdown wrote a tight list; one with markdown (a link, code, emphasis, blocks) stays
markdown between blank lines inside its tag, which CommonMark reads as markdown. Only lists at
the top level are read: one in a quote or a list item is left as written, with a warning. Their
lines are found by the site's renderer, so nothing in code is ever read as one.
"""

import re

from .markup import code_lines, parse

DEFINITION = re.compile(r"^(?P<marker> {0,3}:[ \t]+)(?=\S)")
CANDIDATE = re.compile(r"^[ \t>]*:[ \t]+\S", re.M)
# A definition's line inside a quote or a list item (its markers before it, or its indentation).
NESTED = re.compile(r"^(?:[ \t]*>)*[ \t]*:[ \t]+\S")
# Text that reads the same as markdown and as HTML: letters, digits, spaces and punctuation with
# no meaning to either.
PLAIN = re.compile(r"""(?:[^\W_]|[ .,;:?!'"()/%@=+\-–—…‘’“”«»])+""")
# What starts a block at a line's start (a term is inline text: its first character escaped).
BLOCK_START = re.compile(
    r"(?:#{1,6}(?=[ \t]|$)|>|[-+*](?=[ \t]|$)|`{3}|~{3}|\[|\$\$|(?=(?:[-*_][ \t]*){3,}$))"
)
ORDERED = re.compile(r"(?P<number>\d{1,9})(?=[.)](?:[ \t]|$))")


def convert(post, body, original):
    """`body` with its definition lists as HTML; a warning on `post` at the line of `original`
    (the body as written) of each one that is left as written."""
    if not CANDIDATE.search(body):
        return body
    tokens = parse(body)
    lines = body.split("\n")
    code = code_lines(body, tokens)
    _nested(post, tokens, lines, original)
    # {first line: end line} of each top-level paragraph, and the paragraph each line is in
    paragraphs = {
        token.map[0]: token.map[1] for token in tokens if token.type == "paragraph_open" and token.level == 0
    }
    within = {number: start for start, end in paragraphs.items() for number in range(start, end)}
    out, position = [], 0
    for start in sorted(paragraphs):
        if start < position or (found := _terms(lines, paragraphs, start)) is None:
            continue
        end, groups = _read(lines, code, paragraphs, within, start, found)
        out += lines[position:start] + _html(groups)
        if end < len(lines) and lines[end].strip():
            out.append("")  # the HTML block ends at a blank line
        position = end
    return "\n".join(out + lines[position:]) if out else body


def _nested(post, tokens, lines, original):
    """Warn of each definition list in a quote or a list item (its terms' paragraph is nested)."""
    cursor = 0
    for token in tokens:
        if token.type != "paragraph_open" or not token.level or not token.map:
            continue
        for number in range(token.map[0] + 1, token.map[1]):
            if NESTED.match(lines[number]):
                written = lines[number].strip()
                at = original.find(written, cursor)
                cursor = at + 1 if at >= 0 else cursor
                post.warn("a definition list in a quote or a list item: left as written (move it out of "
                          "it, and it becomes one)", at if at >= 0 else None)  # fmt: skip
                break


def _terms(lines, paragraphs, start):
    """(the line after the terms, the first definition's line) when the paragraph starting at
    `start` is a list's terms, else None: a definition in it after its first line, or (a blank
    line between) starting the paragraph after it."""
    if DEFINITION.match(lines[start]):
        return None
    end = paragraphs[start]
    for number in range(start + 1, end):
        if DEFINITION.match(lines[number]):
            return number, number
    after = end
    while after < len(lines) and not lines[after].strip():
        after += 1
    if after > end and after in paragraphs and DEFINITION.match(lines[after]):
        return end, after
    return None


def _read(lines, code, paragraphs, within, start, found):
    """(the line after the list, its groups: [(terms, [(definition's lines, loose?)])])."""
    terms_end, number = found
    groups = [([line.strip() for line in lines[start:terms_end]], [])]
    loose = number > terms_end  # a blank line before the definition
    definition, column = None, 0
    while number < len(lines):
        line = lines[number]
        marker = DEFINITION.match(line) if number not in code else None
        if marker:
            column = len(marker["marker"].expandtabs(4))
            definition = [line[marker.end() :]]
            groups[-1][1].append((definition, loose))
            loose = False
            number += 1
            continue
        if line.strip():
            lazy = within.get(number, number) < number  # a line of the paragraph before it
            if _indent(line) < column and not lazy:
                break
            definition.append(_dedent(line, column))
            number += 1
            continue
        following = number
        while following < len(lines) and not lines[following].strip():
            following += 1
        if following == len(lines):
            break
        if following not in code and DEFINITION.match(lines[following]):
            loose = True
        elif _indent(lines[following]) >= column:
            definition += [""] * (following - number)
            groups[-1][1][-1] = (definition, True)
        elif following in paragraphs and (terms := _terms(lines, paragraphs, following)):
            terms_end, first = terms
            groups.append(([line.strip() for line in lines[following:terms_end]], []))
            loose = first > terms_end
            following = first
        else:
            break
        number = following
    return number, groups


def _html(groups):
    """The lines of the list's HTML."""
    terms = [term for names, _ in groups for term in names]
    plain_terms = all(PLAIN.fullmatch(term) for term in terms)
    plain_definitions = all(
        len(lines) == 1 and not loose and PLAIN.fullmatch(lines[0].strip())
        for _, found in groups
        for lines, loose in found
    )
    out = ["<dl>"]
    for names, found in groups:
        for term in names:
            out += [f"<dt>{term}</dt>"] if plain_terms else ["<dt>", "", _inline(term), "", "</dt>"]
        for lines, _ in found:
            if plain_definitions:
                out.append(f"<dd>{lines[0].strip()}</dd>")
            else:
                while lines and not lines[-1].strip():
                    lines.pop()
                out += ["<dd>", "", *lines, "", "</dd>"]
    return [*out, "</dl>"]


def _inline(text):
    """A term's text as a paragraph of its own: its first character escaped where it would start
    a block (a term is inline text: `1. x`, `# x` were never a list, a heading)."""
    if ordered := ORDERED.match(text):
        return text[: ordered.end()] + "\\" + text[ordered.end() :]
    return "\\" + text if BLOCK_START.match(text) else text


def _indent(line):
    return len(line.expandtabs(4)) - len(line.expandtabs(4).lstrip(" "))


def _dedent(line, column):
    """`line` less `column` columns of its indentation (all of it when it has fewer)."""
    lead = len(line) - len(line.lstrip(" \t"))
    spaces = line[:lead].expandtabs(4)
    return spaces[min(column, len(spaces)) :] + line[lead:]
