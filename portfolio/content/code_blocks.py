"""Code blocks: highlighted by Pygments at import, in the site's two styles (pages/highlight.py).

    <figure class="code">                          only with a title (fences.py)
    <figcaption>src/x.ts</figcaption>
    <div class="highlight"><pre tabindex="0"><span></span><code class="language-ts">...</code></pre></div>
    </figure>

The code's text is kept exactly (tabs, leading and trailing blank lines); the info string's
first word is its `language-X` class, as CommonMark writes it, and picks the lexer (plain text
when Pygments has none of that name: no guessing). Marked lines are wrapped in `<span
class="hll">`. Every `<pre>`, raw HTML's too, gets `tabindex="0"`: a code line wider than its
column scrolls inside its block (site.css), and a region that scrolls must be reachable without
a mouse (WCAG 2.1.1; axe-core's `scrollable-region-focusable`).
"""

import functools
import html
import re

from markdown_it.common.utils import unescapeAll
from pygments import highlight
from pygments.formatters import HtmlFormatter
from pygments.lexers import get_lexer_by_name
from pygments.lexers.special import TextLexer
from pygments.util import ClassNotFound

from . import fences

PRE = re.compile(r"<pre(?=[\s>/])", re.IGNORECASE)
TABINDEX = re.compile(r"\stabindex\s*=", re.IGNORECASE)
# Lexer names are short words: anything else is no language Pygments knows.
LEXER_NAME = re.compile(r"[\w#+.-]{1,40}")


@functools.lru_cache(maxsize=256)
def lexer_for(language):
    # Not stripped, not guessed: the code's text is the block's, leading blank lines included.
    options = {"stripnl": False, "ensurenl": False}
    if LEXER_NAME.fullmatch(language or ""):
        try:
            return get_lexer_by_name(language.lower(), **options)
        except ClassNotFound:
            pass
    return TextLexer(**options)


@functools.lru_cache(maxsize=64)
def formatter(marked):
    return HtmlFormatter(nowrap=True, hl_lines=sorted(marked))


def block(code, info=None):
    info = info or fences.FenceInfo()
    spans = highlight(code, lexer_for(info.language), formatter(info.marked)) if code else ""
    language = f' class="language-{html.escape(info.language)}"' if info.language else ""
    written = (
        f'<div class="highlight"><pre tabindex="0"><span></span><code{language}>{spans}</code></pre></div>\n'
    )
    if info.title:
        return (
            f'<figure class="code">\n<figcaption>{html.escape(info.title)}</figcaption>\n{written}</figure>\n'
        )
    return written


def fence(self, tokens, index, options, env):
    token = tokens[index]
    return block(token.content, fences.parse(unescapeAll(token.info)))


def code_block(self, tokens, index, options, env):
    return block(tokens[index].content)


def with_tabindex(text):
    """Raw HTML with `tabindex="0"` on each <pre> tag that has none. Linear: each tag is read
    up to its `>` once, and a `<pre` inside a tag already read is no tag of its own."""
    parts, done, tag_end = [], 0, -1
    for found in PRE.finditer(text):
        start = found.start()
        if start < tag_end:
            continue
        tag_end = text.find(">", start)
        tag_end = len(text) if tag_end < 0 else tag_end
        if not TABINDEX.search(text, start, tag_end):
            parts += [text[done : found.end()], ' tabindex="0"']
            done = found.end()
    return "".join(parts) + text[done:] if parts else text


def focusable(state):
    """A core rule: raw HTML's <pre> get their tabindex too."""
    for token in state.tokens:
        if token.type == "html_block" and "<pre" in token.content.lower():
            token.content = with_tabindex(token.content)
        elif token.type == "inline":
            for child in token.children or ():
                if child.type == "html_inline" and child.content[:4].lower() == "<pre":
                    child.content = with_tabindex(child.content)


def plugin(md):
    md.add_render_rule("fence", fence)
    md.add_render_rule("code_block", code_block)
    md.core.ruler.push("focusable_pre", focusable)
