"""kramdown's own syntax in a Jekyll post's body (kramdown is Jekyll's markdown; this site's
renderer reads CommonMark and GitHub's additions only):

- a block attribute list on its own line after a paragraph, `{: .notice--info}` (or `.note`,
  `.tip`, `.warning`, `.danger`...), makes that paragraph a GitHub alert (`> [!NOTE]`), which the
  site renders as a callout;
- `{:toc}` (with the `* TOC` list item it replaces) is dropped: the site makes its own contents;
- any other attribute list (`{: .class}`, `{:#id}`, `{:target="_blank"}` after a link),
  `{::options ... /}` and `{::comment}...{:/comment}` are dropped;
each with a warning. Fenced code and code spans are never read. One pass over the lines.
"""

import bisect
import re

from .markup import ALERTS, FENCE, alert_head, closes, code_spans, lazy_pairs, outside_code

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

    pieces = []  # (code?, lines): the body's runs of prose lines and of fenced code, in order
    out, fence = [], None
    paragraph = []  # the indexes in `out` of the paragraph just before, while it runs
    for line in body.split("\n"):
        if fence is not None:
            out.append(line)
            if closes(line, fence):
                pieces.append((True, out))
                fence, out = None, []
            continue
        if opening := FENCE.match(line):
            pieces.append((False, out))
            fence, paragraph, out = opening["fence"], [], [line]
            continue
        block = BLOCK.match(line)
        if block:
            inside = block["inside"].strip()
            if inside.lower() == "toc":
                if paragraph and len(paragraph) == 1 and TOC_ITEM.match(out[paragraph[0]]):
                    out.pop()
                warn("kramdown {:toc} dropped: this site makes its own contents", line.strip())
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
    pieces.append((fence is not None, out))
    return "\n".join(
        "\n".join(lines) if code else without_comments("\n".join(lines)) for code, lines in pieces if lines
    )
