"""The static host's limits, checked before a build publishes (verify.py calls this first).

A host refuses a deploy with too many files or a file too large, and drops `_redirects` and
`_headers` rules past its counts with no more than a log line. So a build whose output would
break any of them fails here, naming the limit, what it found and what to do, and the previous
output stays as it was. The defaults are Cloudflare Pages' free plan (docs/hosting.md, "Host
limits"); the settings raise them for a paid plan or another host (docs/settings.md).

`_redirects` rules are counted as Cloudflare's parser counts them (workers-sdk's
`parseRedirects`): a rule whose source has a splat `*` or a `:placeholder` is dynamic, and so is
every rule after the first dynamic one, whatever its own source. `_headers` rules are its lines
that start a rule: a path (`/...`) or an absolute URL (`https://...`).
"""

import re

from django.conf import settings

# The API's lists are whole documents: the spec has no pages of them.
WHOLE_LISTS = {"api/v1/projects.json", "api/v1/articles.json"}
# Files too large are named up to this many, then counted.
LISTED = 20
# Cloudflare Pages' file limits (HOST_MAX_FILES' default is the free plan's).
FREE_PLAN_FILES = 20_000
PAID_PLAN_FILES = 100_000
SPLAT_OR_PLACEHOLDER = re.compile(r"\*|:[A-Za-z]\w*")
HEADER_RULE = re.compile(r"[^\s]+://|/")
# The kinds of files a breakdown names, in this order: folders first, then by suffix.
KINDS = [
    ("media/", "media files (media/, the images and their resized variants)"),
    ("static/", "static assets (static/)"),
    ("cards/", "social cards (cards/, one an item without its own image)"),
    ("pagefind/", "search index files (pagefind/, about one a searchable page)"),
    (".html", "pages (*.html)"),
    (".json", "API documents (*.json)"),
    (".md", "markdown twins (*.md)"),
]


def host_limit_problems(state):
    """The host's limits the new build's files would break, one problem each."""
    files = state.files
    carried = state.previous.get("files", {})
    sizes = {}
    for path in files:
        if path in state.rendered:
            sizes[path] = state.rendered[path][0]
        elif path in carried:
            sizes[path] = carried[path][1]
    problems = []
    if len(files) > settings.HOST_MAX_FILES:
        problems.append(too_many_files(files))
    large = sorted(path for path, size in sizes.items() if size > settings.HOST_MAX_FILE_BYTES)
    problems += [too_large(path, sizes[path]) for path in large[:LISTED]]
    if len(large) > LISTED:
        problems.append(
            f"... and {len(large) - LISTED:,} more files larger than HOST_MAX_FILE_BYTES "
            f"({settings.HOST_MAX_FILE_BYTES:,} bytes)"
        )
    redirects = state.host_files.get("_redirects", "")
    static, dynamic = redirect_counts(redirects)
    if static > settings.HOST_MAX_STATIC_REDIRECTS:
        moved = sum(1 for line in redirects.split("\n") if line.endswith(" 301"))
        aliases = (
            f", {moved:,} of which redirect the old addresses of renamed items (front matter `aliases`: "
            "each alias adds a rule per old address; drop those of renames no one links to any more)"
            if moved
            else ""
        )
        problems.append(
            f"_redirects: {static:,} static rules{aliases}; the host takes "
            f"{settings.HOST_MAX_STATIC_REDIRECTS:,} (HOST_MAX_STATIC_REDIRECTS) and ignores the rest. "
            "Remove rules, or raise HOST_MAX_STATIC_REDIRECTS only for a host that takes more."
        )
    if dynamic > settings.HOST_MAX_DYNAMIC_REDIRECTS:
        problems.append(
            f"_redirects: {dynamic:,} dynamic rules (a rule with `*` or a `:placeholder`, and every "
            f"rule after the first such one); the host takes {settings.HOST_MAX_DYNAMIC_REDIRECTS:,} "
            "(HOST_MAX_DYNAMIC_REDIRECTS) and ignores the rest of the file. Remove rules, or raise "
            "HOST_MAX_DYNAMIC_REDIRECTS only for a host that takes more."
        )
    rules = header_rule_count(state.host_files.get("_headers", ""))
    if rules > settings.HOST_MAX_HEADER_RULES:
        problems.append(
            f"_headers: {rules:,} rules; the host takes {settings.HOST_MAX_HEADER_RULES:,} "
            "(HOST_MAX_HEADER_RULES) and ignores the rest of the file. Remove rules, or raise "
            "HOST_MAX_HEADER_RULES only for a host that takes more."
        )
    return problems


def too_many_files(files):
    limit = settings.HOST_MAX_FILES
    advice = (
        f"On a paid plan set HOST_MAX_FILES={PAID_PLAN_FILES}"
        if limit < PAID_PLAN_FILES
        else "Raise HOST_MAX_FILES only for a host that takes more"
    )
    return (
        f"{len(files):,} files; the host takes {limit:,} (HOST_MAX_FILES; Cloudflare Pages' free plan "
        f"takes {FREE_PLAN_FILES:,}, its paid plans {PAID_PLAN_FILES:,}). {advice}; or publish fewer "
        f'files, or deploy to a host that takes more (docs/hosting.md, "Host limits"). '
        f"The files by kind: {breakdown(files)}."
    )


def breakdown(files):
    """'10,105 pages (*.html), ...': how many files of each kind, the most first."""
    counts = dict.fromkeys([name for _, name in KINDS], 0)
    other = 0
    for path in files:
        for mark, name in KINDS:
            if path.startswith(mark) if mark.endswith("/") else path.endswith(mark):
                counts[name] += 1
                break
        else:
            other += 1
    ordered = sorted(((n, name) for name, n in counts.items() if n), key=lambda item: -item[0])
    parts = [f"{n:,} {name}" for n, name in ordered]
    if other:
        parts.append(f"{other:,} others")
    return ", ".join(parts)


def too_large(path, size):
    limit = settings.HOST_MAX_FILE_BYTES
    found = (
        f"{path}: {size:,} bytes{mib(size)}; the host takes files of up to {limit:,} bytes{mib(limit)} "
        "(HOST_MAX_FILE_BYTES)."
    )
    if path in WHOLE_LISTS:
        return found + (
            " The API spec requires this list whole (no pages), so the site has too many items "
            "for this host: publish fewer, or deploy to a host that takes larger files."
        )
    if path.startswith("media/"):
        return found + " Make the file smaller in the content folder."
    return found + " Publish less in it, or deploy to a host that takes larger files."


def mib(size):
    return f" ({size / 2**20:.1f} MiB)" if size >= 2**20 else ""


def redirect_counts(text):
    """(static, dynamic) rules of a `_redirects` file, as Cloudflare counts them."""
    static = dynamic = 0
    for line in text.split("\n"):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if dynamic or SPLAT_OR_PLACEHOLDER.search(line.split()[0]):
            dynamic += 1
        else:
            static += 1
    return static, dynamic


def header_rule_count(text):
    """The rules of a `_headers` file: the lines that start one (a path or an absolute URL)."""
    return sum(
        1
        for line in text.split("\n")
        if (stripped := line.strip()) and not stripped.startswith("#") and HEADER_RULE.match(stripped)
    )
