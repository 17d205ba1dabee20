"""DEST's files: site.yaml and stack.yaml made when missing (so that a build works at once),
site.yaml's `imageHosts` and `redirects` extended, then everything written. A new DEST appears whole (written
beside it, then renamed); in an existing one each file is replaced whole, and a file whose bytes
would not change is not touched."""

import datetime
import json
import os
import re
import shutil
from contextlib import contextmanager

import yaml

from portfolio.content import rules
from portfolio.locks import folder_lock

from .frontmatter import LenientLoader

PLACEHOLDER_URL = "https://example.com"


class SiteUnreadable(Exception):
    pass


class MoveRunning(Exception):
    """Another move into the same DEST holds its lock; the message names it."""


@contextmanager
def move_lock(dest):
    """Hold DEST's move lock: `.DEST.moving-in.lock` beside it, flock()ed while the move runs and
    naming who holds it (the kernel drops it when the process dies, however it dies). A second
    move into DEST raises MoveRunning at once: two would share one staging folder."""
    dest.parent.mkdir(parents=True, exist_ok=True)

    def busy(holder):
        raise MoveRunning(f"another move into {dest} is running ({holder}); wait for it to end")

    with folder_lock(dest.parent / f".{dest.name}.moving-in.lock", busy):
        yield


def site_files(dest, site, plan):
    """({path under DEST: bytes} of site.yaml and stack.yaml to write, [notes for the report])."""
    files, notes = {}, []
    site_yaml = dest / "site.yaml"
    if site_yaml.exists():
        try:
            text = site_yaml.read_bytes().decode("utf-8-sig").replace("\r\n", "\n")
        except (OSError, UnicodeDecodeError) as exc:
            raise SiteUnreadable(f"{site_yaml}: cannot be read: {exc}") from None
        merged = with_image_hosts(text, plan.hosts, site_yaml)
        if merged != text:
            notes.append(f"site.yaml: imageHosts now lists {', '.join(sorted(plan.hosts))}")
        merged, added = with_redirects(merged, plan.redirects, site_yaml)
        if added:
            notes.append(f"site.yaml: redirects now lists {', '.join(old for old, _ in added)}")
        if plan.languages and not re.search(r"^languages:", merged, re.M):
            merged = merged.rstrip("\n") + "\n" + languages_block(plan.languages)
            notes.append(f"site.yaml: languages now lists {', '.join(plan.languages)}")
        if merged != text:
            files["site.yaml"] = merged.encode()
    else:
        files["site.yaml"] = new_site(site, plan.hosts, notes).encode()
        if plan.redirects:
            files["site.yaml"] += redirects_block(plan.redirects).encode()
            notes.append(f"site.yaml: redirects lists {', '.join(old for old, _ in plan.redirects)}")
        if plan.languages:
            files["site.yaml"] += languages_block(plan.languages).encode()
            notes.append(f"site.yaml: languages lists {', '.join(plan.languages)}, the default first")
    if not (dest / "stack.yaml").exists():
        dates = [m[1] for text in plan.files.values() if (m := re.search(rb"^date: (\S+)$", text, re.M))]
        newest = max(dates).decode() if dates else datetime.date.today().isoformat()
        files["stack.yaml"] = (
            f'lastUpdated: {newest}\ncurrentFocus: ""\nmodels: []\ndailyDrivers: []\n'
        ).encode()
        notes.append("stack.yaml: written empty: fill in the stack profile (docs/content-format.md)")
    return files, notes


def listed_languages(dest):
    """The codes site.yaml of DEST lists in `languages`, the default first ([] when it lists none,
    has none or cannot be read: the move's own are written then, and site_files says why not)."""
    try:
        data = yaml.load((dest / "site.yaml").read_bytes().decode("utf-8-sig"), Loader=LenientLoader)
    except (OSError, UnicodeDecodeError, yaml.YAMLError):
        return []
    listed = data.get("languages") if isinstance(data, dict) else None
    return [str(entry["code"]) for entry in listed or [] if isinstance(entry, dict) and entry.get("code")]


def languages_block(codes):
    """site.yaml's `languages` (content-format.md, "Languages"), the default first."""
    return "languages:\n" + "".join(f"  - code: {_quoted(code)}\n" for code in codes)


def new_site(site, hosts, notes):
    title = site.title or "My site"
    url = site.url
    try:
        rules.site_url(url)
    except rules.Invalid:
        url = PLACEHOLDER_URL
        notes.append(f"site.yaml: url is {PLACEHOLDER_URL}: set your site's address (or SITE_URL)")
    lines = [
        f"title: {_quoted(title)}",
        f"description: {_quoted(site.description or f'Articles moved in from {site.label}.')}",
        f"author: {_quoted(site.author or title)}",
        f"url: {_quoted(url)}",
    ]
    if hosts:
        lines += ["imageHosts:", *(f"  - {_quoted(host)}" for host in sorted(hosts))]
    if site.title:
        notes.append(f"site.yaml: written with the old site's title {title!r}")
    else:
        notes.append("site.yaml: written; the old site's title could not be read: set title and author")
    return "\n".join(lines) + "\n"


def with_image_hosts(text, hosts, path):
    """site.yaml's text with `hosts` added to its imageHosts (the rest of the file as it was)."""
    try:
        document = yaml.compose(text, Loader=LenientLoader)
    except yaml.YAMLError as exc:
        raise SiteUnreadable(f"{path}: invalid YAML: {exc}") from None
    listed, lines = [], text.split("\n")
    if isinstance(document, yaml.MappingNode):
        for key, value in document.value:
            if key.value == "imageHosts":
                if isinstance(value, yaml.SequenceNode):
                    listed = [item.value for item in value.value if isinstance(item, yaml.ScalarNode)]
                end = value.end_mark.line if value.end_mark.column == 0 else value.end_mark.line + 1
                while end > key.start_mark.line + 1 and lines[end - 1].strip()[:1] in ("", "#"):
                    end -= 1  # blank lines and comments after the list are the next key's
                lines = lines[: key.start_mark.line] + lines[end:]
                break
    new = [host for host in sorted(hosts) if host not in listed]
    if not new:
        return text
    body = "\n".join(lines).rstrip("\n")
    block = ["imageHosts:", *(f"  - {_quoted(host)}" for host in [*listed, *new])]
    return (body + "\n" if body else "") + "\n".join(block) + "\n"


def redirects_block(pairs):
    """site.yaml's `redirects` (content-format.md, "The old site's own addresses")."""
    return "redirects:\n" + "".join(f"  {_quoted(old)}: {_quoted(new)}\n" for old, new in pairs)


def with_redirects(text, pairs, path):
    """(site.yaml's text with `pairs` added to its `redirects`, [the pairs added]): an old address
    it lists already (in any spelling) keeps the owner's new address; the rest of the file, the
    listed entries and their comments included, as it was. A block mapping gets the new entries
    after its last, at its indentation; a flow one (`{}`) or an empty key is written again."""
    try:
        document = yaml.compose(text, Loader=LenientLoader)
    except yaml.YAMLError as exc:
        raise SiteUnreadable(f"{path}: invalid YAML: {exc}") from None
    node = None
    if isinstance(document, yaml.MappingNode):
        node = next(((key, value) for key, value in document.value if key.value == "redirects"), None)
    listed = []
    if node and isinstance(node[1], yaml.MappingNode):
        listed = [str(key.value) for key, _ in node[1].value if isinstance(key, yaml.ScalarNode)]
    keys = {rules.alias_path_key(old) for old in listed if old.startswith("/")}
    new = [(old, to) for old, to in pairs if rules.alias_path_key(old) not in keys]
    if not new:
        return text, []
    lines = text.split("\n")
    if node and isinstance(node[1], yaml.MappingNode) and node[1].value and not node[1].flow_style:
        last = node[1].value[-1][1]
        end = last.end_mark.line if last.end_mark.column == 0 else last.end_mark.line + 1
        indent = " " * node[1].value[0][0].start_mark.column
        entries = [f"{indent}{_quoted(old)}: {_quoted(to)}" for old, to in new]
        return "\n".join(lines[:end] + entries + lines[end:]), new
    if node:  # `redirects:` with no entries, or a flow mapping: written again, as a block
        key, value = node
        end = value.end_mark.line if value.end_mark.column == 0 else value.end_mark.line + 1
        end = max(end, key.start_mark.line + 1)
        lines = lines[: key.start_mark.line] + lines[end:]
        pairs_written = [(old, _scalar_of(value, old)) for old in listed]
        body = "\n".join(lines).rstrip("\n")
        return (body + "\n" if body else "") + redirects_block(pairs_written + new), new
    body = text.rstrip("\n")
    return (body + "\n" if body else "") + redirects_block(new), new


def _scalar_of(mapping, key):
    """The value of `key` in a composed flow mapping (the owner's, kept when it is written again)."""
    return next(str(value.value) for k, value in mapping.value if k.value == key)


def write(dest, files, copies):
    """Write `files` ({path: bytes}) and `copies` ({path: source file}) under DEST; return how
    many were written (the others were there already, byte for byte)."""
    if not dest.exists():
        staging = dest.with_name(f".{dest.name}.moving-in")
        shutil.rmtree(staging, ignore_errors=True)  # a killed move's (the lock is held)
        try:
            written = _write_all(staging, files, copies)
            staging.rename(dest)
        except BaseException:
            shutil.rmtree(staging, ignore_errors=True)
            raise
        return written
    return _write_all(dest, files, copies)


def _write_all(root, files, copies):
    written = 0
    for rel, source in sorted(copies.items()):
        target = root / rel
        if target.exists() and target.read_bytes() == source.read_bytes():
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, target.with_name(f".{target.name}.tmp"))
        os.replace(target.with_name(f".{target.name}.tmp"), target)
        written += 1
    for rel, data in sorted(files.items()):
        target = root / rel
        if target.exists() and target.read_bytes() == data:
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        target.with_name(f".{target.name}.tmp").write_bytes(data)
        os.replace(target.with_name(f".{target.name}.tmp"), target)
        written += 1
    return written


def _quoted(text):
    return json.dumps(text, ensure_ascii=False)
