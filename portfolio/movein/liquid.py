"""Jekyll's Liquid in a post's body: the tags a blog post uses converted (`highlight`, `raw`,
`post_url`, `link`, the site's base URL); anything else kept as written and reported with its
line (Liquid has no meaning on this site)."""

import re

from .markup import fenced

COMMENT = re.compile(r"\{%-?\s*comment\s*-?%\}.*?\{%-?\s*endcomment\s*-?%\}\n?", re.S)
RAW = re.compile(r"\{%-?\s*raw\s*-?%\}(.*?)\{%-?\s*endraw\s*-?%\}", re.S)
HIGHLIGHT = re.compile(
    r"\{%-?\s*highlight\s+(?P<language>[\w#+.-]+)[^%]*?-?%\}\n?(?P<code>.*?)\{%-?\s*endhighlight\s*-?%\}",
    re.S,
)
POST_URL = re.compile(r"\{%-?\s*(?P<tag>post_url|link)\s+(?P<target>[^\s%]+)\s*-?%\}")
SITE_URL = re.compile(r"\{\{-?\s*site\.(?:baseurl|url)\s*-?\}\}")
FILTERED = re.compile(r"""\{\{-?\s*(["'])(?P<path>[^"']*)\1\s*\|\s*(?:relative_url|absolute_url)\s*-?\}\}""")
ANY = re.compile(r"\{%.*?%\}|\{\{.*?\}\}", re.S)


def convert(post, body, context):
    """`body` with Liquid converted; warnings added to `post`."""
    kept = []

    def keep(text):
        kept.append(text)
        return f"\x00{len(kept) - 1}\x00"

    text = RAW.sub(lambda m: keep(m[1]), body)
    text = COMMENT.sub("", text)  # Liquid's comments were never shown
    text = HIGHLIGHT.sub(lambda m: keep(fenced(m["code"], m["language"])), text)

    def link(match):
        found = context.item_link(match["target"])
        if found is None:
            written = f"{{% {match['tag']} {match['target']} %}}"
            post.warn(f"{written}: no converted post is that one; kept as written", _at(body, match[0]))
            return keep(match[0])
        return found

    text = POST_URL.sub(link, text)
    text = SITE_URL.sub("", text)
    text = FILTERED.sub(lambda m: m["path"], text)
    for match in ANY.finditer(text):
        post.warn(f"Liquid {_short(match[0])} kept as written", _at(body, match[0]))
    return re.sub(r"\x00(\d+)\x00", lambda m: kept[int(m[1])], text)


def _at(body, written):
    at = body.find(written)
    return at if at >= 0 else None


def _short(text):
    text = re.sub(r"\s+", " ", text)
    return text if len(text) <= 60 else text[:57] + "..."
