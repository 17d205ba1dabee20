"""What a code fence's info string says besides its language, as other generators write it:

    ```ts title="src/x.ts" {2-4}                 expressive-code (Astro, Starlight): a file name,
                                                 marked lines ({2-4}, mark={2,5})
    ```go {linenos=true,hl_lines=[2,"5-6"]}     Hugo: its options in braces
    ```python hl_lines="1 3" file=app.py         Python-Markdown, pymdown, Docusaurus, editors

The language is the first word (CommonMark's rule), unless it is an option itself; a title
(`title`, `file`, `filename`) becomes the block's caption, the marked lines (`hl_lines`, `mark`,
`{2-4}`) are highlighted; anything else (line numbers, diff marks, a theme) is accepted and left out.
"""

import re
from dataclasses import dataclass

# key=value, the value quoted, in braces or brackets, or a bare word; or a lone {...}.
OPTION = re.compile(
    r"""(?:(?P<key>[\w-]+)\s*[=:]\s*(?P<value>"[^"]*"|'[^']*'|\{[^{}]*\}|\[[^\[\]]*\]|[^\s,{}]+))"""
    r"""|(?P<braces>\{[^{}]*\})"""
)
TITLE_KEYS = {"title", "file", "filename"}
MARK_KEYS = {"hl_lines", "mark", "highlight", "hl"}
RANGE = re.compile(r"(\d{1,6})(?:\s*-\s*(\d{1,6}))?")
# More marked lines than this in one range is no real mark (and would cost memory).
RANGE_MAX = 10_000


@dataclass(frozen=True)
class FenceInfo:
    language: str = ""
    title: str = ""
    marked: frozenset = frozenset()  # line numbers, from 1


def line_numbers(text):
    """The line numbers of `2-4,7`, `[2,"5-6"]` or `"1 3"`."""
    found = set()
    for match in RANGE.finditer(text):
        first = int(match[1])
        last = int(match[2] or first)
        if first <= last <= first + RANGE_MAX:
            found.update(range(first, last + 1))
    return found


def unquoted(value):
    return value[1:-1] if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'" else value


def parse(info):
    """The FenceInfo of an info string (markdown-it gives it with its escapes undone)."""
    language, _, rest = info.strip().partition(" ")
    if language.startswith("{") or "=" in language:
        language, rest = "", info  # options alone: ``` title="notes.txt"
    title, marked = "", set()
    for option in OPTION.finditer(rest):
        if option["braces"]:
            inner = option["braces"][1:-1]
            if "=" in inner or ":" in inner:
                nested = parse("_ " + inner.replace(",", " "))  # Hugo's {key=value,...}
                title, marked = title or nested.title, marked | nested.marked
            else:
                marked |= line_numbers(inner)
        elif option["key"].lower() in TITLE_KEYS and not title:
            title = unquoted(option["value"]).strip()
        elif option["key"].lower() in MARK_KEYS:
            marked |= line_numbers(option["value"])
    return FenceInfo(language, title, frozenset(marked))
