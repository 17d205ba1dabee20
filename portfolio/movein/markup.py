"""Small helpers for writing markdown: code fences, link text, and applying a change to the
parts of a body that are not code."""

import re

FENCE = re.compile(r"(?P<indent> {0,3})(?P<fence>`{3,}|~{3,})")
INLINE_CODE = re.compile(r"(?<!`)(`+)(?!`).*?(?<!`)\1(?!`)", re.S)


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
    parts, current, fence = [], [], None
    for line in text.split("\n"):
        opening = FENCE.match(line)
        if fence is None and opening:
            parts.append(("text", "\n".join(current)))
            current, fence = [line], opening["fence"]
        elif fence is not None:
            current.append(line)
            if line.strip().startswith(fence[0] * len(fence)) and not line.strip().strip(fence[0]):
                parts.append(("code", "\n".join(current)))
                current, fence = [], None
        else:
            current.append(line)
    parts.append(("code" if fence else "text", "\n".join(current)))
    out = []
    for kind, part in parts:
        if kind == "code":
            out.append(part)
            continue
        spans, position = [], 0
        for span in INLINE_CODE.finditer(part):
            spans.append(change(part[position : span.start()]))
            spans.append(span[0])
            position = span.end()
        spans.append(change(part[position:]))
        out.append("".join(spans))
    return "\n".join(out)
