"""Hugo's shortcodes as markdown. The site's pages allow no third-party frame or script (its
Content-Security-Policy), so an embed (YouTube, Vimeo, X, a gist, Instagram) becomes a plain link
to it. Shortcodes this does not know are kept as written and reported with their line."""

import bisect
import re
from dataclasses import dataclass
from urllib.parse import quote

from .markup import Lines, fenced, lazy_pairs, link_text, substitute_pairs
from .references import MISSING  # a reference to nothing, its warning given

# A shortcode: its head (`{{< name` or `{{% /name`), then its arguments to the first `>}}` or `%}}`
# (found by markup.lazy_pairs: linear on a body of heads never closed).
HEAD = re.compile(r"\{\{(?P<delimiter>[<%])\s*(?P<closing>/)?\s*(?P<name>[\w./-]+)")
END = re.compile(r"[>%]\}\}")
# `{{</* name */>}}`: a shortcode written out for the reader, shown as `{{< name >}}`.
ESCAPED = (re.compile(r"\{\{([<%])\s*/\*"), re.compile(r"\*/\s*([>%])\}\}"))
# Every closing shortcode, by name: where the `{{< /highlight >}}` after an opening one is.
CLOSINGS = re.compile(r"\{\{[<%]\s*/\s*(?P<name>[\w./-]+)\s*[>%]\}\}")
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

    def keep(opening, inside, closing):
        escaped.append("{{" + opening[1] + inside + closing[1] + "}}")
        return f"\x00{len(escaped) - 1}\x00"

    masked = substitute_pairs(body, *ESCAPED, keep)  # the body, each escaped shortcode a placeholder
    original = Original(body, masked)
    closings = Closings(masked)
    out, position = [], 0
    for match in shortcodes(masked):
        if match.start() < position:
            continue  # inside a highlight's code or an inline shortcode's template
        out.append(masked[position : match.start()])
        position = match.end()
        name = match["name"].lower()
        positional, named = arguments(match["args"])
        at = original(match.start())
        if match["closing"]:
            replacement = None
        elif name == "highlight":
            closing = closings.after("highlight", position)
            if closing is None:
                post.warn("{{< highlight >}} without its {{< /highlight >}}: kept as written", at)
                replacement = None
            else:
                code = _restore(masked[position : closing.start()], escaped)
                replacement = _block(out, fenced(code, positional[0] if positional else ""))
                position = closing.end()
        elif name.endswith(".inline"):  # a Go template defined in the page: nothing to show here
            closing = closings.after(match["name"], position)
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
            replacement, why = context.find(target)
            if replacement is None:
                post.warn(f"{{{{< {name} {target!r} >}}}}: {why}: a link to it keeps only its text", at)
                replacement = MISSING
        else:
            replacement = None
        if replacement is None:
            if not match["closing"] and name not in ("highlight", "figure"):  # those said why
                post.warn(f"shortcode {{{{{match['delimiter']} {match['name']} ...}}}} kept as written", at)
            replacement = match[0]
        out.append(replacement)
    out.append(masked[position:])
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


@dataclass
class Shortcode:
    """One shortcode found in a body: read as a match of the pattern
    `{{[<%] /? name (args) /? [>%]}}` (its groups by name, [0] the whole)."""

    text: str
    span: tuple
    groups: dict

    def start(self):
        return self.span[0]

    def end(self):
        return self.span[1]

    def __getitem__(self, key):
        return self.text[self.span[0] : self.span[1]] if key == 0 else self.groups[key]


def shortcodes(text):
    """Every shortcode of `text`, left to right: each head to the first `>}}` or `%}}` after it,
    its arguments what lies between (less the `/` of a self-closing one and the spaces)."""
    for head, end in lazy_pairs(text, HEAD, END):
        args, closing_slash = text[head.end() : end.start()].rstrip(), None
        if args.endswith("/"):
            args, closing_slash = args[:-1].rstrip(), "/"
        groups = {**head.groupdict(), "args": args, "self": closing_slash}
        yield Shortcode(text, (head.start(), end.end()), groups)


class Closings:
    """The closing shortcodes of a body by name, found in one pass: the first after a place is a
    search in a list, not in the rest of the body (once per opening, quadratic)."""

    def __init__(self, text):
        self.found = {}
        for match in CLOSINGS.finditer(text):
            self.found.setdefault(match["name"], []).append(match.span())

    def after(self, name, position):
        """(start, end) of the first closing shortcode `name` starting at `position` or later."""
        spans = self.found.get(name, [])
        index = bisect.bisect_left(spans, (position, position))
        return Span(*spans[index]) if index < len(spans) else None


@dataclass
class Span:
    begin: int
    finish: int

    def start(self):
        return self.begin

    def end(self):
        return self.finish


class Original:
    """A place in the body with escaped shortcodes replaced, as a place in the body: near enough
    for a line number (the lines are the same, only escaped shortcodes were shortened)."""

    def __init__(self, body, changed):
        self.body, self.changed = Lines(body), Lines(changed)

    def __call__(self, index):
        return self.body.start(self.changed.line(index))
