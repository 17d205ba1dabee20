"""remark-directive's directives in an Astro post's body (themes add them through remark
plugins; this site's renderer reads CommonMark and GitHub's additions only):

- `::github{repo="owner/name"}` (a repository card) becomes a link to the repository, and
  `::youtube{#id}` a link to the video;
- a container `:::note` ... `:::` (also tip, important, warning, caution) becomes a GitHub alert
  (`> [!NOTE]`), which the site renders as a callout, its `[label]` in bold on its first line;
- a text directive inside a paragraph, `:name[label]{attributes}`, becomes the HTML element of
  its name where there is one (`:kbd[Ctrl]` is `<kbd>Ctrl</kbd>`, `:abbr[HTML]{title="..."}` an
  `<abbr>`: the site publishes a body's HTML as written), a link where it names an address
  (`:github[owner/repo]`, `:link[text]{href="https://..."}`), else its label's text;
- any other directive is dropped (a container keeps what it holds, a text directive its label),
  each with a warning.

Code (fenced, or a code span) is never read as directives. One pass over the body for the text
directives, then one over the lines for the others.
"""

import html
import re
from urllib.parse import quote

from .markup import ALERTS, FENCE, alert_head, closes, link_text, prose_parts

# A directive's name, then its optional `[label]` and `{attributes}`, to the line's end.
REST = r"(?P<name>[A-Za-z][\w-]*)(?:\[(?P<label>[^\]\n]*)\])?(?:\{(?P<attrs>[^}\n]*)\})?\s*$"
LEAF = re.compile(r"^ {0,3}::" + REST)
CONTAINER = re.compile(r"^ {0,3}(?P<colons>:{3,})\s*(?:" + REST.removesuffix(r"\s*$") + r")?\s*$")
ATTRIBUTE = re.compile(r"""(?P<key>[#.]?[\w-]+)(?:\s*=\s*(?P<value>"[^"]*"|'[^']*'|[^\s"'}]+))?""")
REPOSITORY = re.compile(r"[\w.-]+/[\w.-]+")
OWNER = re.compile(r"[\w.-]+(?:/[\w.-]+)?")  # a GitHub user, or a repository
# A text directive: `:name[label]{attributes}`. remark-directive reads one after any character but
# a colon; here the colon must not follow a letter, digit, `/` or `\` either, so that `a:b[c]`,
# `C:\x[1]` and an address's `/:id[0]` stay as written; and the label is required, so `:smile:`
# and `10:30` are never read. The label and the attributes stop at a bracket or a line's end (a
# label with brackets inside stays as written): every character is read by at most one label and
# one attribute list, and nothing can backtrack: linear.
TEXT = re.compile(
    r"(?<![\w:/\\]):(?P<name>[A-Za-z][A-Za-z0-9_-]*+)\[(?P<label>[^\[\]\n]*+)\](?:\{(?P<attrs>[^{}\n]*+)\})?"
)
# Directives named after an inline HTML element: the element (the renderer passes HTML as written).
ELEMENTS = {"abbr", "kbd", "mark", "sub", "sup", "del", "ins", "cite", "dfn", "samp", "var", "small"}
# An attribute naming where a text directive leads: `{href="https://..."}`, `{url=/about/}`.
ADDRESS_KEYS = ("href", "url", "link", "to")
ADDRESS = re.compile(r"(?:https?://|/)[^\s()<>]*")


def attributes(text):
    """{key: value} of a directive's `{...}`: `#x` is the id, `.x` a class, `key=value` quoted or not."""
    found = {}
    for match in ATTRIBUTE.finditer(text or ""):
        key, value = match["key"], match["value"] or ""
        if value[:1] in "\"'" and value[-1:] == value[:1]:
            value = value[1:-1]
        if key.startswith("#"):
            found["id"] = key[1:]
        elif key.startswith("."):
            found.setdefault("class", key[1:])
        else:
            found[key] = value
    return found


def convert(post, body):
    """`body` with its directives converted; warnings added to `post`."""
    text = inline(post, body)  # as many lines as the body: a line's place in the body stands
    out, open_containers, fence = [], [], None
    starts = [0]
    for line in body.split("\n"):
        starts.append(starts[-1] + len(line) + 1)
    for number, line in enumerate(text.split("\n")):
        at = starts[number]
        prefix = "".join("> " for kind in open_containers if kind)
        if fence is not None:
            if closes(line, fence):
                fence = None
            out.append(prefix + line)
            continue
        if opening := FENCE.match(line):
            fence = opening["fence"]
            out.append(prefix + line)
            continue
        container = CONTAINER.match(line)
        if container and container["name"]:
            name = container["name"].lower()
            alert = ALERTS.get(name)
            if alert:
                out += [prefix + line for line in alert_head(alert, container["label"] or "")]
            else:
                name = container["name"]
                post.warn(f"directive :::{name} has no equivalent here: dropped, its text kept", at)
            open_containers.append(alert)
            continue
        if container and open_containers:  # a closing `:::`
            open_containers.pop()
            continue
        leaf = LEAF.match(line)
        if leaf:
            replacement = _leaf(leaf["name"].lower(), leaf["label"], attributes(leaf["attrs"]))
            if replacement is None:
                post.warn(f"directive ::{leaf['name']} has no equivalent here: dropped", at)
                continue
            out.append(prefix + replacement)
            continue
        out.append(prefix + line if line.strip() or prefix else line)
    return "\n".join(out)


def _leaf(name, label, attrs):
    if name == "github":
        repository = attrs.get("repo", "")
        if REPOSITORY.fullmatch(repository):
            return f"[{link_text(label or repository)}](https://github.com/{repository})"
        if attrs.get("user"):
            user = attrs["user"]
            return f"[{link_text(label or user)}](https://github.com/{quote(user)})"
        return None
    if name == "youtube" and attrs.get("id"):
        return f"[{link_text(label or 'Video on YouTube')}](https://www.youtube.com/watch?v={quote(attrs['id'])})"
    return None


def inline(post, body):
    """`body` with its text directives converted (never inside code), each one within its line."""
    out, position = [], 0
    for start, end in prose_parts(body):
        for found in TEXT.finditer(body, start, end):
            if found["name"][-1] in "-_":  # not a name to remark-directive
                continue
            out += [body[position : found.start()], _text(post, found)]
            position = found.end()
    out.append(body[position:])
    return "".join(out)


def _text(post, found):
    """What one text directive becomes; a warning where it is not converted."""
    name, label, attrs = found["name"].lower(), found["label"], attributes(found["attrs"])
    written = f":{found['name']}[{label[:40]}]"
    if name in ELEMENTS:
        title = attrs.get("title", "") if name in ("abbr", "dfn") else ""
        opening = f'<{name} title="{html.escape(title)}">' if title else f"<{name}>"
        return f"{opening}{label}</{name}>"
    address = next((attrs[key] for key in ADDRESS_KEYS if attrs.get(key)), "")
    if name == "github" and not address:  # `:github[owner/repo]`, `:github[user]`
        named = attrs.get("repo") or attrs.get("user") or label.strip()
        address = f"https://github.com/{named}" if OWNER.fullmatch(named) else ""
    if name == "youtube" and attrs.get("id") and not address:
        address = f"https://www.youtube.com/watch?v={quote(attrs['id'])}"
    if ADDRESS.fullmatch(address):
        return f"[{link_text(label) or address}]({address})"
    if label.strip():
        post.warn(f"directive {written} has no equivalent here: its text kept", found.start())
    else:
        post.warn(f"directive {written} has no equivalent here: dropped", found.start())
    return label
