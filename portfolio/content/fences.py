"""Code fences whose info string says more than the language (```` ```ts title="x.ts" ````,
```` ```python file=app.py ````, as Astro, MDX and many editors write them).

Python-Markdown's fenced_code takes an opening fence only when the info string is a language, a
`{...}` block or `hl_lines=`; anything more turns the whole block into a paragraph of text. This
preprocessor, run just before it, keeps the language (the first word) and drops the rest, so the
block stays code. Lines inside a fence are never touched.
"""

import re

from markdown.extensions import Extension
from markdown.preprocessors import Preprocessor

# An opening fence at the start of a line, as fenced_code reads one, and its info string.
OPENING = re.compile(r"(?P<fence>`{3,}|~{3,})[ ]*(?P<info>[^\n]*)")
# Info strings fenced_code already understands: left as written.
UNDERSTOOD = re.compile(r"(\{[^\n]*\}|\.?[\w#.+-]*[ ]*(hl_lines=([\"'])[^\n]*?\3[ ]*)?)")
LANGUAGE = re.compile(r"\.?([\w#+-][\w#.+-]*)")


def plain_info(info):
    """The info string fenced_code should see: `info` itself when it reads it already, else its
    first word when that is a language, else nothing."""
    if UNDERSTOOD.fullmatch(info):
        return info
    first = info.split(maxsplit=1)[0]
    found = LANGUAGE.fullmatch(first)
    return found[1] if found else ""


class FenceInfoPreprocessor(Preprocessor):
    def run(self, lines):
        fence = None  # the open fence's own characters, when inside one
        for index, line in enumerate(lines):
            if fence is not None:
                if line.rstrip(" ") == fence:
                    fence = None
                continue
            opening = OPENING.fullmatch(line)
            if opening is None:
                continue
            fence = opening["fence"]
            if fence[0] == "`" and "`" in opening["info"]:
                fence = None  # a line of inline code (```a``` b), not a fence
                continue
            info = plain_info(opening["info"].rstrip(" "))
            lines[index] = fence + info
        return lines


class FenceInfoExtension(Extension):
    def extendMarkdown(self, md):  # noqa: N802 (Python-Markdown's name)
        md.preprocessors.register(FenceInfoPreprocessor(md), "fence_info", 26)  # before fenced_code (25)
