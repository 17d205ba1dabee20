"""Small helpers for writing markdown: code fences, link text, and applying a change to the
parts of a body that are not code."""

import bisect
import re
import threading

from portfolio.content import markdown

# A fence opening a code block (CommonMark: up to 3 spaces before it; a backtick fence's info
# string has no backtick, as "```a``` b" is a code span in a paragraph).
FENCE = re.compile(r"(?P<indent> {0,3})(?P<fence>`{3,}+(?![^`]*`)|~{3,})")
BACKTICKS = re.compile(r"`+")
_local = threading.local()  # parse()'s parser, one per thread


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


def link_text(text):
    """Text that can sit between a markdown link's brackets."""
    return re.sub(r"\s+", " ", text).replace("[", "(").replace("]", ")").strip()


def outside_code(text, change):
    """`text` with `change(part)` applied to every part outside fenced code blocks and code
    spans (those are shown as written, never converted)."""
    out, position = [], 0
    for start, end in prose_parts(text):
        out += [text[position:start], change(text[start:end])]
        position = end
    out.append(text[position:])
    return "".join(out)


def code_lines(text, tokens=None):
    """The indexes of the lines of `text` in a code block, fenced or indented, in a list or a
    quote too, as this site's renderer reads it (`tokens`: its parse of `text`, when made)."""
    lines = set()
    for token in parse(text) if tokens is None else tokens:
        if token.type in ("fence", "code_block") and token.map:
            lines.update(range(*token.map))
    return lines


def parse(text):
    """The blocks of `text` as this site's renderer reads them: its tokens, each block's with its
    lines (`map`), an inline token's with its text as written (`content`) but not read (no
    `children`, no heading ids: markdown.thread_parser() reads those, at twice the cost)."""
    md = getattr(_local, "blocks", None)
    if md is None:
        md = _local.blocks = markdown.parser()
        md.core.ruler.enableOnly(["normalize", "block"])
    return md.parse(text, markdown.new_env(text))


def outside_all_code(text, change, code=None):
    """outside_code(), leaving alone as well the code blocks that only the renderer tells (an
    indented block, a fence in a list or a quote): `code` is code_lines(text), when known."""
    code = code_lines(text) if code is None else code
    if not code:
        return outside_code(text, change)
    out, run = [], []
    for index, line in enumerate(text.split("\n")):
        if index in code:
            if run:
                out.append(outside_code("\n".join(run), change))
                run = []
            out.append(line)
        else:
            run.append(line)
    if run:
        out.append(outside_code("\n".join(run), change))
    return "\n".join(out)


def prose_parts(text):
    """(start, end) of each part of `text` outside fenced code blocks and code spans, in order
    (a part holds no newline that ends at a fence): the places a change may be made, for a
    caller that must know where each one is (a warning's line)."""
    blocks, prose, fence, at = [], 0, None, 0
    for line in text.split("\n"):
        opening = FENCE.match(line)
        if fence is None and opening:
            fence = opening["fence"]
            blocks.append((prose, max(prose, at - 1)))
        elif fence is not None:
            if closes(line, fence):
                fence, prose = None, at + len(line) + 1
        at += len(line) + 1
    if fence is None and prose <= len(text):
        blocks.append((prose, len(text)))
    for start, end in blocks:
        position = start
        for span_start, span_end in code_spans(text[start:end]):
            yield position, start + span_start
            position = start + span_end
        yield position, end


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
