"""kramdown's own syntax in a Jekyll post's body (kramdown is Jekyll's markdown; this site's
renderer reads CommonMark and GitHub's additions only):

- a block attribute list on its own line after a paragraph, `{: .notice--info}` (or `.note`,
  `.tip`, `.warning`, `.danger`...), makes that paragraph a GitHub alert (`> [!NOTE]`), which the
  site renders as a callout;
- a heading's id, `## Install it {#install}` or an attribute list with an id on the line after the
  heading (or before it, after a blank line), `{: #install}`, is taken out of it and the links to
  it follow the id the site gives the heading (anchors.py); its other attributes are dropped;
- `{:toc}` (with the `* TOC` list item it replaces) is dropped: the site makes its own contents;
- an abbreviation's definition, `*[HTML]: HyperText Markup Language`, is dropped (the word stays
  as written, without its expansion);
- any other attribute list (`{: .class}`, `{:#id}`, `{:target="_blank"}` after a link),
  `{::options ... /}` and `{::comment}...{:/comment}` are dropped;
each dropped one with a warning; definition lists are deflists.py's. Code is never read: fenced,
indented, in a list or a quote (as the site's renderer reads the body), nor code spans. One pass
over the lines.
"""

import bisect
import re

from . import anchors, deflists
from .markup import ALERTS, FENCE, alert_head, closes, code_lines, code_spans, lazy_pairs, outside_code, parse

# An attribute list: `{:` then neither `:` (an extension, `{::options /}`) nor `/` (the end of one,
# `{:/comment}`).
BLOCK = re.compile(r"^ {0,3}\{:(?![:/])(?P<inside>[^}\n]*)\}\s*$")
# An inline attribute list, `{:...}`, and an extension, `{::name .../}`: each pattern takes the
# text from its opening to the line's first `}` or end, and what does not end as it must (`}`,
# `/}`) is kept as written. Never searched on from every opening of a line with no `}`: linear.
INLINE = re.compile(r"\{:(?![:/])[^}\n]*+\}?")
EXTENSION = re.compile(r"\{::(?P<name>\w++)[^}\n]*+\}?")
COMMENT = (re.compile(r"\{::comment\}"), re.compile(r"\{:/(?:comment)?\}"))
TOC_ITEM = re.compile(r"^ {0,3}[*+-] .*$|^ {0,3}1\. .*$")
# An abbreviation's definition (kramdown's ABBREV_DEFINITION_START), a line of its own.
ABBREVIATION = re.compile(r"^ {0,3}\*\[(?P<name>[^\]\n]+?)\]:[ \t]*(?P<title>.*?)\s*$")
# The id an attribute list gives (its ALD_TYPE_ID_OR_CLASS's `#name`).
IAL_ID = re.compile(r"(?<![^\s])#(?P<id>\w[\w-]*)(?![^\s}])")
ATX = re.compile(r"^ {0,3}#{1,6}(?:[ \t]|$)")
SETEXT_LINE = re.compile(r"^ {0,3}(?:=+|-+)[ \t]*$")


def callout(inside):
    """The alert a block attribute list's classes name (`.notice--warning` is WARNING, `.notice`
    NOTE), or None."""
    for name in re.findall(r"\.([\w-]+)", inside):
        name = name.lower()
        if name == "notice":
            return "NOTE"
        for word in reversed(re.split(r"-+", name)):
            if word in ALERTS:
                return ALERTS[word]
    return None


def convert(post, body, original):
    """`body` without kramdown's attribute lists and extensions; warnings added to `post` at the
    line of `original` (the body as written) where each is."""
    cursor, comments = [0], [0]  # where the next search for a written text starts, by kind

    def warn(message, written, cursor=cursor):
        at = original.find(written, cursor[0])
        if at >= 0:
            cursor[0] = at + 1
        post.warn(message, at if at >= 0 else None)

    def attribute_list(found):
        if not found[0].endswith("}"):
            return found[0]
        warn(f"kramdown attribute list {found[0]} has no equivalent here: dropped", found[0])
        return ""

    def extension(found):
        if not found[0].endswith("/}"):
            return found[0]
        warn(f"kramdown {{::{found['name']}}} dropped", found[0])
        return ""

    def inline(part):  # a line's text outside its code spans
        if "{:" in part:
            part = INLINE.sub(attribute_list, part)
        if "{::" in part:
            part = EXTENSION.sub(extension, part)
        return part

    def without_comments(text):  # a run of prose lines less its comments (not those in code spans)
        spans, out, position = code_spans(text), [], 0
        for opening, closing in lazy_pairs(text, *COMMENT):
            index = bisect.bisect_right(spans, (opening.start(), len(text)))
            if index and spans[index - 1][1] > opening.start():
                continue  # written in a code span: shown as code
            warn("kramdown {::comment} dropped", opening[0], comments)
            out.append(text[position : opening.start()])
            position = closing.end()
        return "".join(out) + text[position:]

    # The renderer's parse, when there is anything to convert: which lines are code (indented,
    # a fence in a list or a quote), which are headings.
    convertible = "{:" in body or "*[" in body
    tokens = parse(body) if convertible or anchors.CANDIDATE.search(body) else None
    body = anchors.heading_attributes(post, body, original, anchors.KRAMDOWN, tokens)
    code = code_lines(body, tokens) if convertible else set()

    pieces = []  # (code?, lines): the body's runs of prose lines and of code, in order
    out, fence, in_code = [], None, False
    paragraph = []  # the indexes in `out` of the paragraph just before, while it runs
    lines = body.split("\n")
    for number, line in enumerate(lines):
        if fence is not None:
            out.append(line)
            if closes(line, fence):
                pieces.append((True, out))
                fence, out = None, []
            continue
        if number in code:
            if not in_code:
                pieces.append((False, out))
                in_code, paragraph, out = True, [], []
            out.append(line)
            continue
        if in_code:
            pieces.append((True, out))
            in_code, out = False, []
        if opening := FENCE.match(line):
            pieces.append((False, out))
            fence, paragraph, out = opening["fence"], [], [line]
            continue
        if "*[" in line and (abbreviation := ABBREVIATION.match(line)):
            name, title = abbreviation["name"], abbreviation["title"]
            warn(f"kramdown abbreviation *[{name}] dropped: {name} stays as written, without its "
                 f"expansion ({title!r})", line.strip())  # fmt: skip
            paragraph = []
            continue
        block = BLOCK.match(line)
        if block:
            inside = block["inside"].strip()
            ids = [found["id"] for found in IAL_ID.finditer(inside)]
            heading = _heading_before(out, paragraph) if ids else None
            following = (  # a heading after it, itself after a blank line or the body's start
                number + 1 < len(lines) and number + 1 not in code and ATX.match(lines[number + 1])
                and not (number and lines[number - 1].strip())
            )  # fmt: skip
            if inside.lower() == "toc":
                if paragraph and len(paragraph) == 1 and TOC_ITEM.match(out[paragraph[0]]):
                    out.pop()
                warn("kramdown {:toc} dropped: this site makes its own contents", line.strip())
            elif ids and (heading is not None or following):
                if heading is not None:  # the heading before it, else (after a blank line) the one after
                    out[heading] += anchors.mark(ids[-1])
                else:
                    lines[number + 1] += anchors.mark(ids[-1])
                lost = IAL_ID.sub("", inside).split()
                if lost:
                    warn(f"kramdown attribute list {{:{inside}}}: {' '.join(lost)} dropped (the heading "
                         "keeps its id)", line.strip())  # fmt: skip
            elif (alert := callout(inside)) and paragraph:
                first = paragraph[0]
                for index in paragraph:
                    out[index] = "> " + out[index]
                out.insert(first, alert_head(alert)[0])
                warn(f"kramdown {{:{inside}}}: the paragraph is a {alert.lower()} callout", line.strip())
            else:
                warn(f"kramdown attribute list {{:{inside}}} has no equivalent here: dropped", line.strip())
            paragraph = []
            continue
        if not line.strip() or line.lstrip().startswith(("#", ">", "|")):
            paragraph = []
        else:
            paragraph.append(len(out))
        out.append(outside_code(line, inline, blocks=False) if "{:" in line else line)
    pieces.append((fence is not None or in_code, out))
    converted = "\n".join(
        "\n".join(run) if is_code else without_comments("\n".join(run)) for is_code, run in pieces if run
    )
    return deflists.convert(post, converted, original)


def _heading_before(out, paragraph):
    """The index in `out` of the line of text of the heading `out` ends with, or None."""
    if out and ATX.match(out[-1]):
        return len(out) - 1
    if len(paragraph) >= 2 and paragraph[-1] == len(out) - 1 and SETEXT_LINE.match(out[-1]):
        return len(out) - 2  # a setext heading: its text's last line, then its underline
    return None
