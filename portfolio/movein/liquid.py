"""Jekyll's Liquid in a post's body: the tags a blog post uses converted (`highlight`, `raw`,
`post_url`, `link`, the site's base URL); any other (`{% include %}`, `{{ page.title }}`) hidden in
an HTML comment, never shown, and reported with its line (Liquid has no meaning on this site). In
code, where a comment would be shown, such a tag is kept as written and reported."""

import re

from .markup import Code, Hidden, fenced, substitute_pairs
from .references import MISSING  # a reference to nothing, its warning given

# Block tags, each an opening and a closing pattern: the text between is found by
# markup.lazy_pairs(), in linear time (a single `open.*?close` pattern is quadratic on a body of
# openings never closed).
COMMENT = (re.compile(r"\{%-?\s*comment\s*-?%\}"), re.compile(r"\{%-?\s*endcomment\s*-?%\}\n?"))
RAW = (re.compile(r"\{%-?\s*raw\s*-?%\}"), re.compile(r"\{%-?\s*endraw\s*-?%\}"))
HIGHLIGHT = (
    re.compile(r"\{%-?\s*highlight\s+(?P<language>[\w#+.-]+)[^%]*?-?%\}\n?"),
    re.compile(r"\{%-?\s*endhighlight\s*-?%\}"),
)
POST_URL = re.compile(r"\{%-?\s*(?P<tag>post_url|link)\s+(?P<target>[^\s%]+)\s*-?%\}")
SITE_URL = re.compile(r"\{\{-?\s*site\.(?:baseurl|url)\s*-?\}\}")
FILTERED = re.compile(r"""\{\{-?\s*(["'])(?P<path>[^"']*)\1\s*\|\s*(?:relative_url|absolute_url)\s*-?\}\}""")
# `{{ page.title }}`, `{{ site.author.name }}`: a value of the post's front matter or the config.
VARIABLE = re.compile(r"\{\{-?\s*(?P<scope>page|site)\.(?P<keys>\w+(?:\.\w+)*)\s*-?\}\}")
OPENING = re.compile(r"\{[%{]")
CLOSING = {"{%": "%}", "{{": "}}"}


def convert(post, body, context, config=None):
    """`body` with Liquid converted; warnings added to `post`. `config`: the site's _config.yml,
    which `{{ site.x }}` names (as `{{ page.x }}` names the post's front matter)."""
    kept = []

    def keep(text):
        kept.append(text)
        return f"\x00{len(kept) - 1}\x00"

    def restore(text):  # one level: a highlight's code has its `raw` texts back before it is kept
        return re.sub(r"\x00(\d+)\x00", lambda m: kept[int(m[1])], text)

    text = substitute_pairs(body, *RAW, lambda opening, raw, closing: keep(raw))
    text = substitute_pairs(text, *COMMENT, lambda *_: "")  # Liquid's comments were never shown
    text = substitute_pairs(
        text, *HIGHLIGHT, lambda opening, code, closing: keep(fenced(restore(code), opening["language"]))
    )
    at = Finder(body)

    def link(match):
        found, why = context.find(match["target"])
        if found is None:
            written = f"{{% {match['tag']} {match['target']} %}}"
            post.warn(f"{written}: {why}: a link to it keeps only its text", at(match[0]))
            return MISSING
        return found

    text = POST_URL.sub(link, text)
    text = SITE_URL.sub("", text)
    text = FILTERED.sub(lambda m: m["path"], text)
    text = _variables(text, {"page": post.fields or {}, "site": config or {}})
    return restore(_hide_tags(post, text, Finder(body)))


def _variables(text, scopes):
    """`text` with each `{{ page.x }}` and `{{ site.x.y }}` outside code that names a text or a
    number the front matter or the config holds written as that value, as Jekyll showed it; any
    other (a filter, a list, a date) is left for _hide_tags."""
    code = Code(text)

    def value(match):
        found = scopes[match["scope"]]
        for key in match["keys"].split("."):
            found = found.get(key) if isinstance(found, dict) else None
        if match.start() in code or isinstance(found, bool) or not isinstance(found, str | int | float):
            return match[0]
        return str(found)

    return VARIABLE.sub(value, text)


def _hide_tags(post, text, at):
    """`text` with each tag left hidden in an HTML comment (as written in code), each reported."""
    code, hidden, out, position = Code(text), Hidden(), [], 0
    for start, end in spans(text):
        tag = text[start:end]
        out.append(text[position:start])
        if start in code:
            post.warn(f"Liquid {_short(tag)} in code: kept as written", at(tag))
            out.append(tag)
        else:
            post.warn(f"Liquid {_short(tag)} has no equivalent here: hidden in an HTML comment", at(tag))
            out.append(hidden(tag))
        position = end
    out.append(text[position:])
    return hidden.place("".join(out))


def tags(text):
    """Every `{% ... %}` and `{{ ... }}` of `text`, left to right."""
    return [text[start:end] for start, end in spans(text)]


def spans(text):
    """(start, end) of every `{% ... %}` and `{{ ... }}` of `text`, left to right (as
    `\\{%.*?%\\}|\\{\\{.*?\\}\\}` would find them, but an opening never closed is searched past
    once, not once per opening)."""
    position, unclosed = 0, set()
    while (opening := OPENING.search(text, position)) is not None:
        kind = opening[0]
        end = -1 if kind in unclosed else text.find(CLOSING[kind], opening.end())
        if end == -1:
            unclosed.add(kind)
            position = opening.start() + 1
            continue
        yield opening.start(), end + 2
        position = end + 2


class Finder:
    """Where each of a series of texts is in the body, in order: each search starts after the
    last one found (one search from the start for each would be quadratic)."""

    def __init__(self, body):
        self.body, self.cursor = body, 0

    def __call__(self, written):
        at = self.body.find(written, self.cursor)
        if at < 0:
            return None
        self.cursor = at + 1
        return at


def _short(text):
    text = re.sub(r"\s+", " ", text)
    return text if len(text) <= 60 else text[:57] + "..."
