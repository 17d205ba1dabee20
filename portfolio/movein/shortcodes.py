"""Hugo's shortcodes as markdown. The site's pages allow no third-party frame or script (its
Content-Security-Policy), so an embed (YouTube, Vimeo, X, a gist, Instagram) becomes a plain link
to it. Shortcodes this does not know are kept as written and reported with their line."""

import re
from urllib.parse import quote

from .markup import fenced, link_text

SHORTCODE = re.compile(
    r"\{\{(?P<delimiter>[<%])\s*(?P<closing>/)?\s*(?P<name>[\w./-]+)(?P<args>.*?)\s*(?P<self>/)?\s*[>%]\}\}",
    re.S,
)
# `{{</* name */>}}`: a shortcode written out for the reader, shown as `{{< name >}}`.
ESCAPED = re.compile(r"\{\{([<%])\s*/\*(.*?)\*/\s*([>%])\}\}", re.S)
ARGUMENT = re.compile(
    r"""(?:(?P<key>[\w-]+)\s*=\s*)?(?P<value>"(?:[^"\\]|\\.)*"|`[^`]*`|'[^']*'|[^\s"'`]+)"""
)
EMBEDS = {
    "youtube": ("https://www.youtube.com/watch?v={id}", "Video on YouTube"),
    "vimeo": ("https://vimeo.com/{id}", "Video on Vimeo"),
    "vimeo_simple": ("https://vimeo.com/{id}", "Video on Vimeo"),
    "instagram": ("https://www.instagram.com/p/{id}/", "Post on Instagram"),
}
POSTS = {"twitter", "twitter_simple", "tweet", "x", "x_simple"}


def arguments(text):
    """(positional, named) arguments of a shortcode, quotes removed."""
    positional, named = [], {}
    for found in ARGUMENT.finditer(text):
        value = found["value"]
        if value[:1] in "\"'`" and value[-1:] == value[:1] and len(value) > 1:
            value = value[1:-1].replace('\\"', '"') if value[0] == '"' else value[1:-1]
        if found["key"]:
            named[found["key"].lower()] = value
        else:
            positional.append(value)
    return positional, named


def convert(post, body, context):
    """`body` with the shortcodes Hugo ships converted; warnings added to `post`."""
    escaped = []

    def keep(match):
        escaped.append("{{" + match[1] + match[2] + match[3] + "}}")
        return f"\x00{len(escaped) - 1}\x00"

    body_ = ESCAPED.sub(keep, body)
    out, position = [], 0
    while (match := SHORTCODE.search(body_, position)) is not None:
        out.append(body_[position : match.start()])
        position = match.end()
        name = match["name"].lower()
        positional, named = arguments(match["args"])
        at = _original(body, body_, match.start())
        if match["closing"]:
            replacement = None
        elif name == "highlight":
            closing = re.compile(r"\{\{[<%]\s*/\s*highlight\s*[>%]\}\}").search(body_, position)
            if closing is None:
                post.warn("{{< highlight >}} without its {{< /highlight >}}: kept as written", at)
                replacement = None
            else:
                code = _restore(body_[position : closing.start()], escaped)
                replacement = _block(out, fenced(code, positional[0] if positional else ""))
                position = closing.end()
        elif name.endswith(".inline"):  # a Go template defined in the page: nothing to show here
            closing = re.compile(r"\{\{[<%]\s*/\s*" + re.escape(match["name"]) + r"\s*[>%]\}\}").search(
                body_, position
            )
            if closing and not match["self"]:
                position = closing.end()
            post.warn(
                f"inline shortcode {{{{< {match['name']} >}}}} (a template of the old theme's) left out", at
            )
            replacement = ""
        elif name == "figure":
            replacement = _figure(named, post, at)
        elif name in EMBEDS or name in POSTS or name == "gist":
            replacement = _embed(name, positional, named)
        elif name in ("ref", "relref"):
            target = named.get("path") or (positional[0] if positional else "")
            replacement = context.item_link(target)
            if replacement is None:
                post.warn(
                    f"{{{{< {name} {target!r} >}}}}: no converted post is {target!r}; kept as written", at
                )
        else:
            replacement = None
        if replacement is None:
            if not match["closing"] and name != "highlight":
                post.warn(f"shortcode {{{{{match['delimiter']} {match['name']} ...}}}} kept as written", at)
            replacement = match[0]
        out.append(replacement)
    out.append(body_[position:])
    return _restore("".join(out), escaped)


def _figure(named, post, at):
    src = named.get("src", "")
    if not src:
        post.warn("{{< figure >}} without src: kept as written", at)
        return None
    caption = named.get("caption") or named.get("title") or ""
    alt = link_text(named.get("alt") or re.sub(r"<[^>]+>", "", caption))
    image = f"![{alt}]({src})"
    if named.get("link"):
        image = f"[{image}]({named['link']})"
    return image + (f"\n\n*{caption.strip()}*" if caption.strip() else "")


def _embed(name, positional, named):
    if name == "gist":
        if len(positional) < 2:
            return None
        user, gist = positional[0], positional[1]
        shown = f"{user}/{gist}" + (f" ({positional[2]})" if len(positional) > 2 else "")
        return f"[Gist {link_text(shown)}](https://gist.github.com/{quote(user)}/{quote(gist)})"
    identifier = named.get("id") or (positional[-1] if positional else "")
    if not identifier:
        return None
    if name in POSTS:
        user = named.get("user") or (positional[0] if len(positional) > 1 else "")
        url = f"https://x.com/{quote(user) if user else 'i'}/status/{quote(identifier)}"
        return (
            f"[{link_text(named.get('title') or (f'Post by @{user} on X' if user else 'Post on X'))}]({url})"
        )
    address, text = EMBEDS[name]
    return f"[{link_text(named.get('title') or text)}]({address.format(id=quote(identifier, safe=''))})"


def _block(out, block):
    """A block element on lines of its own."""
    before = "".join(out)
    return ("" if not before or before.endswith("\n") else "\n") + block


def _restore(text, escaped):
    return re.sub(r"\x00(\d+)\x00", lambda m: escaped[int(m[1])], text)


def _original(body, changed, index):
    """`index` in `changed` (escaped shortcodes replaced) as an index in `body`, near enough for
    a line number: the lines are the same, only escaped shortcodes were shortened."""
    line = changed.count("\n", 0, index)
    at = -1
    for _ in range(line):
        at = body.find("\n", at + 1)
    return max(at, 0) + 1 if line else 0
