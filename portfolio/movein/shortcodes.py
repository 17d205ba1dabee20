"""Hugo's shortcodes as markdown. The site's pages allow no third-party frame or script (its
Content-Security-Policy), so an embed (YouTube, Vimeo, X, a gist, Instagram) becomes a plain link
to it. `details` becomes the HTML element, `param` the page's or the site's value, a theme's
callout (`notice`, `admonition`...) an alert. Any other shortcode is never shown as written: a
paired one keeps what it holds, a single one is hidden in an HTML comment, each reported with its
line; in code, where a comment would show, it is kept as written and reported."""

import bisect
import html
import re
from dataclasses import dataclass, field
from urllib.parse import quote

from .markup import Code, Hidden, Lines, alert, fenced, lazy_pairs, link_text, substitute_pairs
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
# Themes' callouts with a body: Learn's and Relearn's `notice`, LoveIt's and DoIt's `admonition`,
# Docsy's and others' `alert`, Hextra's `callout`, Book's `hint`. Their kind is a named argument
# (one of KIND_KEYS) or the first positional one; their title `title=` or the second positional.
CALLOUTS = {"notice", "admonition", "alert", "callout", "hint"}
KIND_KEYS = ("type", "style", "severity", "color", "kind")


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


def convert(post, body, context, params=None):
    """`body` with its shortcodes converted; warnings added to `post`. `params`: the site's
    (Hugo's config `params`, keys lower-cased), for `{{< param >}}`."""
    return Conversion(post, body, context, params or {}).run()


@dataclass
class Frame:
    """A paired shortcode open around the place being read, and what has been written inside it."""

    match: object
    at: int
    out: list = field(default_factory=list)


class Conversion:
    """One body's shortcodes, read left to right; a paired one's inside is written into its frame,
    and becomes what the pair stands for at its closing."""

    def __init__(self, post, body, context, params):
        self.post, self.context, self.params = post, context, params
        self.escaped = []
        self.masked = substitute_pairs(body, *ESCAPED, self._escape)  # each escaped one a placeholder
        self.original = Original(body, self.masked)
        self.closings = Closings(self.masked)
        self.code = Code(self.masked)
        self.hidden = Hidden()
        self.frames = [Frame(None, None)]  # the body, then each pair open

    def _escape(self, opening, inside, closing):
        self.escaped.append("{{" + opening[1] + inside + closing[1] + "}}")
        return f"\x00{len(self.escaped) - 1}\x00"

    def run(self):
        position = 0
        for match in shortcodes(self.masked):
            if match.start() < position:
                continue  # inside a highlight's code or an inline shortcode's template
            self.frames[-1].out.append(self.masked[position : match.start()])
            position = self._one(match)
        self.frames[-1].out.append(self.masked[position:])
        while len(self.frames) > 1:
            self._unpaired(self.frames.pop())
        text = self.hidden.place("".join(self.frames[0].out))
        return re.sub(r"\x00(\d+)\x00", lambda m: self.escaped[int(m[1])], text)

    def _write(self, text):
        self.frames[-1].out.append(text)

    def _one(self, match):
        """Convert one shortcode; where reading goes on."""
        name, at = match["name"].lower(), self.original(match.start())
        positional, named = arguments(match["args"])
        if match["closing"]:
            self._closing(match, at)
        elif name == "highlight":
            return self._highlight(match, positional, at)
        elif name.endswith(".inline"):
            return self._inline(match, at)
        elif (replacement := self._replacement(match, name, positional, named, at)) is not None:
            self._write(replacement)
        elif self.closings.after(match["name"], match.end()):  # a pair (else a single one)
            self._opening(match, at)
        else:
            self._unknown(match, at, _why(name))
        return match.end()

    def _replacement(self, match, name, positional, named, at):
        """What a single shortcode Hugo ships becomes, or None."""
        if name == "figure":
            return _figure(named)
        if name in EMBEDS or name in POSTS or name == "gist":
            return _embed(name, positional, named)
        if name in ("ref", "relref"):
            target = named.get("path") or (positional[0] if positional else "")
            found, why = self.context.find(target)
            if found is None:
                self.post.warn(f"{{{{< {name} {target!r} >}}}}: {why}: a link to it keeps only its text", at)
                return MISSING
            return found
        if name == "param":
            return _param(named.get("name") or (positional[0] if positional else ""), self.post.fields,
                          self.params)  # fmt: skip
        return None

    def _highlight(self, match, positional, at):
        closing = self.closings.after("highlight", match.end())
        if closing is None:
            self.post.warn("{{< highlight >}} without its {{< /highlight >}}: kept as written", at)
            self._write(match[0])
            return match.end()
        code = self._restore(self.masked[match.end() : closing.start()])
        self._write(_block(self.frames[-1].out, fenced(code, positional[0] if positional else "")))
        return closing.end()

    def _inline(self, match, at):
        """A Go template defined in the page: nothing to show here."""
        closing = self.closings.after(match["name"], match.end())
        self.post.warn(
            f"inline shortcode {{{{< {match['name']} >}}}} (a template of the old theme's) left out", at
        )
        return closing.end() if closing and not match["self"] else match.end()

    def _opening(self, match, at):
        """A paired shortcode's opening: what follows is written inside it, to its closing."""
        if match.start() in self.code:
            self._unknown(match, at)
        else:
            self.frames.append(Frame(match, at))

    def _closing(self, match, at):
        """Close the innermost pair of this name (and any left open inside it, as unpaired)."""
        names = [frame.match["name"] if frame.match else None for frame in self.frames]
        if match["name"] not in names[1:]:
            self._unknown(match, at)
            return
        while (frame := self.frames.pop()).match["name"] != match["name"]:
            self._unpaired(frame)
        inner = "".join(frame.out)
        name = frame.match["name"].lower()
        positional, named = arguments(frame.match["args"])
        if name == "details":
            block = _details(named, inner)
        elif name in CALLOUTS:
            block = _callout(positional, named, inner)
        else:
            shown = f"{{{{{frame.match['delimiter']} {frame.match['name']} ...}}}}"
            self.post.warn(f"shortcode {shown} has no equivalent here: its tags dropped, its text kept",
                           frame.at)  # fmt: skip
            self._write(inner)
            return
        self._write(_own_block(self.frames[-1].out, block, self.masked[match.end() :]))

    def _unpaired(self, frame):
        """A shortcode read as an opening that nothing closed: a single one, what followed kept."""
        self._unknown(frame.match, frame.at)
        self._write("".join(frame.out))

    def _unknown(self, match, at, why="has no equivalent here"):
        """A shortcode this site has nothing for: hidden in an HTML comment; in code, where a
        comment would show, as written."""
        shown = f"{{{{{match['delimiter']} {'/' if match['closing'] else ''}{match['name']} ...}}}}"
        if match.start() in self.code:
            self.post.warn(f"shortcode {shown} {why}: kept as written (in code)", at)
            self._write(match[0])
        else:
            self.post.warn(f"shortcode {shown} {why}: hidden in an HTML comment", at)
            self._write(self.hidden(self._restore(match[0])))

    def _restore(self, text):
        return re.sub(r"\x00(\d+)\x00", lambda m: self.escaped[int(m[1])], text)


def _param(key, fields, params):
    """The value of `key` (dotted for a nested one) in the page's front matter (its `params` too),
    else in the site's params, as Hugo's `param` prints it; None where there is none to print."""
    for mapping in (fields, fields.get("params"), params):
        value = _lookup(mapping, key)
        if isinstance(value, bool):
            return "true" if value else "false"
        if isinstance(value, (str, int, float)):
            return str(value)
    return None


def _lookup(mapping, key):
    """`mapping`'s value at the dotted `key`, its keys read as Hugo reads them, in any case."""
    for part in key.lower().split("."):
        if not isinstance(mapping, dict):
            return None
        mapping = {str(name).lower(): value for name, value in mapping.items()}.get(part)
    return mapping if key else None


def _callout(positional, named, inner):
    """A theme's callout as the site's alert of its kind, its title in bold."""
    kind = next((named[key] for key in KIND_KEYS if named.get(key)), positional[0] if positional else "")
    return alert(kind, named.get("title") or (positional[1] if len(positional) > 1 else ""), inner)


def _details(named, inner):
    """Hugo's `details`: the HTML element (the site publishes a body's HTML as written), its
    summary as written, what it holds as markdown between blank lines (read as markdown there)."""
    opening = "<details" + (" open" if named.get("open", "").lower() in ("true", "t", "1") else "")
    if named.get("title"):
        opening += f' title="{html.escape(named["title"])}"'
    lines = [opening + ">", f"<summary>{named.get('summary') or 'Details'}</summary>"]
    if inner.strip():
        lines += ["", inner.strip("\n"), ""]
    return "\n".join([*lines, "</details>"])


def _why(name):
    """Why a shortcode of `name` that was not converted could not be."""
    if name == "figure":
        return "without src"
    if name in EMBEDS or name in POSTS or name == "gist":
        return "without what it shows"
    if name == "param":
        return "names no value of the page's front matter nor of the site's params"
    return "has no equivalent here"


def _figure(named):
    src = named.get("src", "")
    if not src:
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


def _own_block(out, block, after):
    """A block between blank lines: neither the paragraph before nor the text after read into it
    (a quote takes a line after it as its own, an HTML block the lines to the next blank one)."""
    before = "".join(out)
    start = "" if not before.strip() or before.endswith("\n\n") else "\n" if before.endswith("\n") else "\n\n"
    end = "" if not after.strip() or after.startswith("\n\n") else "\n" if after.startswith("\n") else "\n\n"
    return start + block + end


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
