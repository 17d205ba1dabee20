"""Code blocks of a body that a keyboard can scroll: every `<pre>` gets `tabindex="0"`.

A code line wider than its column scrolls inside its block (site.css), and a region that scrolls
must be reachable without a mouse (WCAG 2.1.1; axe-core's `scrollable-region-focusable`). Which
block scrolls depends on the screen, so every one is focusable. A postprocessor, on the finished
HTML: fenced blocks reach the tree only as placeholders of the highlighter's HTML.
"""

import re

from markdown.extensions import Extension
from markdown.postprocessors import Postprocessor

# An opening <pre> tag without a tabindex of its own (raw HTML may give one).
PRE = re.compile(r"<pre(?=[\s>])(?![^>]*\btabindex=)")


class FocusablePostprocessor(Postprocessor):
    def run(self, text):
        return PRE.sub('<pre tabindex="0"', text)


class FocusableCodeExtension(Extension):
    def extendMarkdown(self, md):  # noqa: N802 (Python-Markdown's name)
        # After the raw HTML (30) is put back: the highlighted blocks are in the text by then.
        md.postprocessors.register(FocusablePostprocessor(md), "focusable_code", 5)
