"""Footnotes (`[^setup]` and `[^setup]: the note`, mdit-py-plugins' footnote plugin) written with
the ids readers have linked to since the site began: the reference `fnref:setup` (a second
reference to the same note `fnref2:setup`), the note `fn:setup`, numbered in the order the text
refers to them, each note with a link back to every reference.

    <sup id="fnref:setup"><a class="footnote-ref" href="#fn:setup">1</a></sup>
    ...
    <div class="footnote">
    <hr />
    <ol>
    <li id="fn:setup">
    <p>The note.&#160;<a class="footnote-backref" href="#fnref:setup"
    title="Jump back to footnote 1 in the text">&#8617;&#xFE0E;</a></p>       (one line)
    </li>
    </ol>
    </div>
"""

import html

# U+FE0E keeps the back arrow text, not an emoji.
BACK = "&#8617;&#xFE0E;"


def label(token, env):
    """The note's label as written (`setup`), or its number when it has none."""
    meta = token.meta
    found = meta.get("label")
    if found is None:
        found = env.get("footnotes", {}).get("list", {}).get(meta["id"], {}).get("label")
    return html.escape(str(found if found is not None else meta["id"] + 1))


def reference_id(token, env):
    sub = token.meta.get("subId", 0)
    return f"fnref{sub + 1 if sub > 0 else ''}:{label(token, env)}"


def footnote_ref(self, tokens, index, options, env):
    token = tokens[index]
    number = token.meta["id"] + 1
    name = label(token, env)
    return (
        f'<sup id="{reference_id(token, env)}"><a class="footnote-ref" href="#fn:{name}">{number}</a></sup>'
    )


def block_open(self, tokens, index, options, env):
    return '<div class="footnote">\n<hr />\n<ol>\n'


def block_close(self, tokens, index, options, env):
    return "</ol>\n</div>\n"


def footnote_open(self, tokens, index, options, env):
    return f'<li id="fn:{label(tokens[index], env)}">\n'


def footnote_close(self, tokens, index, options, env):
    return "</li>\n"


def anchor(self, tokens, index, options, env):
    token = tokens[index]
    number = token.meta["id"] + 1
    space = "&#160;" if token.meta.get("subId", 0) == 0 else ""
    return (
        f'{space}<a class="footnote-backref" href="#{reference_id(token, env)}" '
        f'title="Jump back to footnote {number} in the text">{BACK}</a>'
    )


def plugin(md):
    for name, rule in (
        ("footnote_ref", footnote_ref),
        ("footnote_block_open", block_open),
        ("footnote_block_close", block_close),
        ("footnote_open", footnote_open),
        ("footnote_close", footnote_close),
        ("footnote_anchor", anchor),
    ):
        md.add_render_rule(name, rule)
