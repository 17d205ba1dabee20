"""Small helpers for writing markdown: code fences, link text, alerts, text hidden in HTML
comments, and applying a change to the parts of a body that are not code."""

import bisect
import re

from portfolio.content import markdown

# A fence opening a code block (CommonMark: up to 3 spaces before it; a backtick fence's info
# string has no backtick, as "```a``` b" is a code span in a paragraph).
FENCE = re.compile(r"(?P<indent> {0,3})(?P<fence>`{3,}+(?![^`]*`)|~{3,})")
BACKTICKS = re.compile(r"`+")
# The kinds of callout themes and generators name (a kramdown class, a directive, a shortcode's
# type), as the site's alerts: GitHub's five.
ALERTS = {"note": "NOTE", "info": "NOTE", "primary": "NOTE", "tip": "TIP", "success": "TIP",
          "important": "IMPORTANT", "warning": "WARNING", "caution": "CAUTION", "danger": "CAUTION",
          "error": "CAUTION"}  # fmt: skip
# A hidden text's place while a body is converted (see Hidden).
HIDDEN = re.compile("\x01(\\d+)\x01")
MARKED_LINE = re.compile("^[^\n\x01]*\x01[^\n]*", re.M)  # anchored: each line read once
# A line holding hidden texts alone (in a quote, or indented as a list item's continuation).
ALONE = re.compile("[ \t>]*(?P<marks>(?:\x01\\d+\x01[ \t]*)+)")
# Where a code block can be: a fence, or a line indented 4 columns (a tab is 4).
MAYBE_CODE = re.compile(r"```|~~~|    |\t")
# A line's container markers (quotes, list items) then the hidden texts that open its content.
LEADING_HIDDEN = re.compile(r"(?P<prefix>(?:[ \t]*(?:>|[-*+](?=[ \t])|\d{1,9}[.)](?=[ \t])))*[ \t]*)"
                            r"(?P<marks>(?:\x01\d+\x01[ \t]*)+)")  # fmt: skip


def lazy_pairs(text, opening, closing, position=0):
    """Each (opening match, closing match) that the pattern `opening.*?closing` (re.S) finds in
    `text` from `position`, left to right, in linear time. The single pattern searches to the end
    from every opening that is never closed (a body of 100,000 `{% raw %}` is 100,000 searches of
    the whole body); here the first opening with no closing after it ends the search, as none
    after it can have one either."""
    while (start := opening.search(text, position)) is not None:
        end = closing.search(text, start.end())
        if end is None:
            return
        yield start, end
        position = end.end()


def substitute_pairs(text, opening, closing, replace):
    """`text` with each pair lazy_pairs() finds replaced by `replace(opening, between, closing)`."""
    out, position = [], 0
    for start, end in lazy_pairs(text, opening, closing):
        out += [text[position : start.start()], replace(start, text[start.end() : end.start()], end)]
        position = end.end()
    out.append(text[position:])
    return "".join(out)


class Lines:
    """Line numbers of places in a text, from its newlines' places found once."""

    def __init__(self, text):
        self.newlines = [found.start() for found in re.finditer("\n", text)]

    def line(self, at):
        """How many newlines come before character `at`."""
        return bisect.bisect_left(self.newlines, at)

    def start(self, line):
        """Where line `line` (counted from 0) starts."""
        return self.newlines[min(line, len(self.newlines)) - 1] + 1 if line and self.newlines else 0


def fenced(code, language=""):
    """A fenced code block holding `code`, its fence longer than any run of backticks inside."""
    longest = max((len(run) for run in re.findall(r"`{3,}", code)), default=2)
    fence = "`" * (longest + 1)
    return f"{fence}{language}\n{code.strip(chr(10))}\n{fence}"


def alert_head(alert, title=""):
    """The first lines of a GitHub alert (the site renders it as a callout), its title in bold, a
    paragraph of its own (on the text's line it read as the text's first words)."""
    return [f"> [!{alert}]"] + ([f"> **{link_text(title)}**", ">"] if title.strip() else [])


def alert(kind, title, text):
    """`text` (markdown) as the alert of the callout `kind` a theme names (a note for a kind this
    site has none of), `title` in bold on its first line."""
    lines = alert_head(ALERTS.get(kind.lower(), "NOTE"), title)
    lines += [f"> {line}" if line.strip() else ">" for line in text.strip("\n").split("\n") if text.strip()]
    return "\n".join(lines)


class Hidden:
    """Texts kept out of sight: each becomes an HTML comment in the body, not shown, for its owner
    to find. Each is a mark while the body is converted, placed at the end: a comment that opens
    a line is an HTML block, which takes the rest of its line as raw HTML (`<!-- x --> **a**`
    would show its asterisks), so there the comment goes to the line's end."""

    def __init__(self):
        self.texts = []

    def __call__(self, text):
        """The mark standing for `text` until place()."""
        self.texts.append(text)
        return f"\x01{len(self.texts) - 1}\x01"

    def place(self, text):
        """`text` with every mark an HTML comment."""
        if not self.texts:
            return text
        return MARKED_LINE.sub(lambda line: self._comments(self._moved(line[0])), self._joined(text))

    def _joined(self, text):
        """A line of hidden texts alone inside a paragraph goes to the end of the line before it:
        alone, its comment would be an HTML block, cutting the paragraph (or a quote's) in two."""
        lines = text.split("\n")
        alone = {number for number, line in enumerate(lines) if ALONE.fullmatch(line)}
        if not alone:
            return text
        inside = set()  # the lines of a paragraph but its first
        for token in parse(text):
            if token.type == "paragraph_open" and token.map:
                inside.update(range(token.map[0] + 1, token.map[1]))
        for number in sorted(alone & inside, reverse=True):  # a run of them joins up, last first
            lines[number - 1] = (
                lines[number - 1].rstrip() + " " + ALONE.fullmatch(lines[number])["marks"].strip()
            )
            del lines[number]
        return "\n".join(lines)

    def _moved(self, line):
        found = LEADING_HIDDEN.match(line)
        rest = line[found.end() :] if found else ""
        if not rest.strip():
            return line
        return found["prefix"] + rest.rstrip() + " " + found["marks"].strip()

    def _comments(self, line):
        def comment(mark):
            index = int(mark[1])
            if index >= len(self.texts):
                return mark[0]  # not a mark of ours: a control character the author wrote
            # A comment ends at the first `-->`, and a blank line inside would end its paragraph.
            text = re.sub(r"\n[ \t]*(?=\n)", "", self.texts[index]).replace("-->", "--&gt;")
            return f"<!-- {text} -->"

        return HIDDEN.sub(comment, line) if "\x01" in line else line


def link_text(text):
    """Text that can sit between a markdown link's brackets."""
    return re.sub(r"\s+", " ", text).replace("[", "(").replace("]", ")").strip()


def outside_code(text, change, blocks=True):
    """`text` with `change(part)` applied to every part outside code blocks and code spans (those
    are shown as written, never converted); outside code spans only without `blocks` (a line
    already known to be outside any code block)."""
    out, position = [], 0
    for start, end in prose_parts(text, blocks):
        out += [text[position:start], change(text[start:end])]
        position = end
    out.append(text[position:])
    return "".join(out)


def prose_parts(text, blocks=True):
    """(start, end) of each part of `text` outside code blocks and code spans, in order (a part
    holds no newline that ends at a code block): the places a change may be made, for a caller
    that must know where each one is (a warning's line). Without `blocks`, outside code spans
    only."""
    prose = 0
    for start, end in [*(code_blocks(text) if blocks else []), (len(text) + 1, len(text) + 1)]:
        if start >= prose:
            position, part = prose, text[prose : min(start, len(text))]
            for span_start, span_end in code_spans(part):
                yield position, prose + span_start
                position = prose + span_end
            yield position, min(start, len(text))
        prose = end


def parse(text):
    """The blocks of `text` as the site's renderer reads them: its block rules' tokens alone, each
    block's with its lines (`map`), an inline token's with its text as written (`content`) but not
    read (no `children`, no heading ids: markdown.thread_parser().parse() reads those, at twice
    the cost)."""
    md, tokens = markdown.thread_parser(), []
    md.block.parse(text, md, {}, tokens)
    return tokens


def _code_tokens(text, tokens=None):
    """The code blocks' tokens (fenced or indented) of `text`'s parse (`tokens`, when made)."""
    if tokens is None:
        if not MAYBE_CODE.search(text):
            return []  # the parse is the slow part of a conversion: not done for a body with no code
        tokens = parse(text)
    return [token for token in tokens if token.type in ("fence", "code_block") and token.map]


def code_blocks(text, tokens=None):
    """(start, end) of each code block of `text` as the site's renderer reads it, fenced or
    indented, in a quote or a list too (an unclosed fence runs to the end): from the newline
    before its first line (or the text's start) to the start of the line after its last.
    `tokens`: parse(text), when made."""
    found = _code_tokens(text, tokens)
    if not found:
        return
    lines = Lines(text)
    for token in found:
        first, after = token.map
        end = lines.start(after) if after <= len(lines.newlines) else len(text)
        yield max(lines.start(first) - 1, 0), end


def code_lines(text, tokens=None):
    """The indexes of the lines of `text` in a code block, as code_blocks() finds them (`tokens`:
    parse(text), when made)."""
    return {number for token in _code_tokens(text, tokens) for number in range(*token.map)}


class Code:
    """Whether a place in a text is in code (a code block or a code span), as prose_parts() finds
    the rest: a search in its parts, found once."""

    def __init__(self, text):
        self.parts = list(prose_parts(text))
        self.starts = [start for start, _ in self.parts]

    def __contains__(self, at):
        index = bisect.bisect_right(self.starts, at) - 1
        return index < 0 or at >= self.parts[index][1]


def closes(line, fence):
    """Whether `line` closes the code block `fence` opened: as many of its character or more, up
    to 3 spaces before them (CommonMark; a line indented 4 is a line of the code)."""
    return re.fullmatch(rf" {{0,3}}{re.escape(fence[0])}{{{len(fence)},}}[ \t]*", line) is not None


def code_spans(text):
    """(start, end) of each code span of `text`: a run of backticks to the next run of as many,
    left to right. Found from the runs' places, never by searching on from each run: a body of
    runs of 1, 2, 3... backticks, none closed, would be searched to its end once per run."""
    runs = [(found.start(), found.end()) for found in BACKTICKS.finditer(text)]
    by_length = {}
    for index, (start, end) in enumerate(runs):
        by_length.setdefault(end - start, []).append(index)
    spans, index = [], 0
    while index < len(runs):
        start, end = runs[index]
        same = by_length[end - start]
        following = bisect.bisect_right(same, index)
        if following == len(same):
            index += 1  # never closed: backticks as written
            continue
        closing = same[following]
        spans.append((start, runs[closing][1]))
        index = closing + 1
    return spans
