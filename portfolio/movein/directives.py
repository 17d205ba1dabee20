"""remark-directive's block directives in an Astro post's body (themes add them through remark
plugins; this site's renderer reads CommonMark and GitHub's additions only):

- `::github{repo="owner/name"}` (a repository card) becomes a link to the repository, and
  `::youtube{#id}` a link to the video;
- a container `:::note` ... `:::` (also tip, important, warning, caution) becomes a GitHub alert
  (`> [!NOTE]`), which the site renders as a callout, its `[label]` in bold on its first line;
- any other directive is dropped (a container keeps what it holds), each with a warning.

Lines inside fenced code are never read as directives. One pass over the lines.
"""

import re
from urllib.parse import quote

from .markup import FENCE, link_text

# A directive's name, then its optional `[label]` and `{attributes}`, to the line's end.
REST = r"(?P<name>[A-Za-z][\w-]*)(?:\[(?P<label>[^\]\n]*)\])?(?:\{(?P<attrs>[^}\n]*)\})?\s*$"
LEAF = re.compile(r"^ {0,3}::" + REST)
CONTAINER = re.compile(r"^ {0,3}(?P<colons>:{3,})\s*(?:" + REST.removesuffix(r"\s*$") + r")?\s*$")
ATTRIBUTE = re.compile(r"""(?P<key>[#.]?[\w-]+)(?:\s*=\s*(?P<value>"[^"]*"|'[^']*'|[^\s"'}]+))?""")
ALERTS = {"note": "NOTE", "tip": "TIP", "important": "IMPORTANT", "warning": "WARNING", "caution": "CAUTION",
          "danger": "CAUTION", "info": "NOTE"}  # fmt: skip
REPOSITORY = re.compile(r"[\w.-]+/[\w.-]+")


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
    """`body` with its block directives converted; warnings added to `post`."""
    out, open_containers, fence, offset = [], [], None, 0
    for line in body.split("\n"):
        at, offset = offset, offset + len(line) + 1
        prefix = "".join("> " for kind in open_containers if kind)
        if fence is not None:
            stripped = line.strip()
            if stripped.startswith(fence) and not stripped.strip(fence[0]):
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
                out.append(prefix + f"> [!{alert}]")
                if container["label"]:
                    out.append(prefix + f"> **{link_text(container['label'])}**")
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
