"""Write content folders for tests: the standard test site, and single files to break rules with."""

from pathlib import Path

SITE_URL = "https://portfolio.test"

SITE_YAML = f"""title: "Test Portfolio"
description: "A portfolio used by the test suite."
author: "Test Author"
url: "{SITE_URL}"
imageHosts: [images.example.org, cdn.example.net]
"""
# The Content-Security-Policy's img-src of the standard test site: its own images and imageHosts'.
IMG_SRC = "img-src 'self' images.example.org cdn.example.net;"

STACK_YAML = """lastUpdated: 2026-10-01
currentFocus: "Testing everything"
models:
  - name: "Hosted"
    type: subscription
    description: "A hosted model"
    url: "https://models.example/hosted"
  - name: "Local"
    type: local
    description: "A local model without a url"
dailyDrivers:
  - tool: "Editor"
    role: "editing"
    url: "https://editor.example"
    status: daily
  - tool: "Agent"
    role: "coding"
    status: exploring
"""


def project(title="A project", date="2026-01-15", extra="", body="Project body.\n", **fields):
    """A project file; a field given as None is left out."""
    lines = {
        "title": None if title is None else f'"{title}"',
        "tagline": '"A tagline"',
        "description": '"A description"',
        "github": '"https://github.com/example/project"',
        "status": "active",
        "stack": "[Python, Django]",
        "date": date,
    }
    lines.update(fields)
    front = "".join(f"{key}: {value}\n" for key, value in lines.items() if value is not None)
    return f"---\n{front}{extra}---\n{body}"


def article(title="An article", date="2026-02-01", extra="", body="Article body.\n", **fields):
    lines = {
        "title": None if title is None else f'"{title}"',
        "description": '"An article description"',
        "date": date,
    }
    lines.update(fields)
    front = "".join(f"{key}: {value}\n" for key, value in lines.items() if value is not None)
    return f"---\n{front}{extra}---\n{body}"


# Three `##` headings (so a table of contents), two of them the same, footnotes, formulas and a
# code block wider than a phone.
UNICODE_POST_BODY = (
    "Article body.[^1]\n\n"
    "## Ünïcode ✓ heading\n\nOne.\n\n"
    "## With `code <b>` & [a link](/stack)\n\nTwo.[^note]\n\n"
    "## Ünïcode ✓ heading\n\nThree: the same heading again, with $E = mc^2$ and\n\n"
    "$$\n\\sum_{i=1}^{n} \\frac{x_i^2}{2} \\le \\int_0^1 f(t)\\,dt\n$$\n\n"
    "```python\nprint('a line of code long enough to scroll sideways on a phone: $HOME', "
    "1 + 2 + 3 + 4 + 5)\n```\n\n"
    "> [!WARNING]\n> Mind the *gap*.\n\n- [x] done\n- [ ] to do\n\n"
    '```ts title="src/x.ts" {2}\nconst a = 1;\nconst b = 2;\n```\n\n'
    "[^1]: The first note, with [a link](https://example.org/note).\n"
    "[^note]: The second note.\n"
)

# The standard test site. Awkward on purpose: unicode, CRLF, a byte-order mark, a draft sharing
# its date with a published article, same-date items ordered by slug, caseStudy key order, renamed
# items (aliases, the draft's included: it must redirect nowhere), an article with a table of
# contents and footnotes.
FILES = {
    "site.yaml": SITE_YAML,
    "stack.yaml": STACK_YAML,
    "projects/alpha-one.md": project(
        "Alpha One",
        date="2026-03-01",
        featured="true",
        aliases='[alpha, alpha_1, "/work/alpha-project/"]',
        extra='caseStudy:\n  zeta: "last letter first"\n  alpha: "first letter second"\n',
        body="# Alpha\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n```python\nprint('hi')\n```\n",
    ),
    "projects/beta_two.md": project("Beta Two", date="2025-06-30", status="reference", stack="[]"),
    "projects/gamma.md": project(
        "Gämma ✓ ünïcode", date="2026-03-01", status="experimental", body="Ünïcode body — ✓\nline two\n"
    ).replace("\n", "\r\n"),
    "projects/delta.md": "\ufeff" + project("Delta", date="2024-12-24"),
    "articles/first-post.md": article("First post", date="2025-01-10", tags="[intro, meta]"),
    "articles/same-day.md": article("Same day published", date="2026-04-04", tags="[python]"),
    "articles/secret-draft.md": article(
        "Secret draft title",
        date="2026-04-04",
        draft="true",
        aliases='[secret-draft-v1, "/drafts/secret/"]',
        body="Draft body: do not publish.\n",
    ),
    "articles/crlf-post.md": article("CRLF post", date="2026-04-04", body="line one\nline two\n").replace(
        "\n", "\r\n"
    ),
    "articles/unicode-post.md": "\ufeff"
    + article(
        "Ünïcode ✓ 日本語",
        date="2026-05-05",
        tags="[ünï]",
        body=UNICODE_POST_BODY,
        aliases='[old-unicode, "/2014/05/12/caf%c3%a9;old.html"]',
    ),
}

DRAFT_SLUG, DRAFT_TITLE = "secret-draft", "Secret draft title"
# {old address: new address} of the aliases above (not the draft's).
MOVED = {
    "/projects/alpha": "/projects/alpha-one",
    "/projects/alpha_1.html": "/projects/alpha-one",
    "/projects/alpha.md": "/projects/alpha-one.md",
    "/api/v1/projects/alpha_1": "/api/v1/projects/alpha-one",
    "/api/v1/projects/alpha.json": "/api/v1/projects/alpha-one.json",
    "/articles/old-unicode": "/articles/unicode-post",
    "/articles/old-unicode.html": "/articles/unicode-post",
    "/articles/old-unicode.md": "/articles/unicode-post.md",
    "/api/v1/articles/old-unicode": "/api/v1/articles/unicode-post",
    "/api/v1/articles/old-unicode.json": "/api/v1/articles/unicode-post.json",
    # Absolute paths (a site before this one): every spelling, percent-encoding as browsers send it.
    "/work/alpha-project/": "/projects/alpha-one",
    "/work/alpha-project": "/projects/alpha-one",
    "/work/alpha-project.html": "/projects/alpha-one",
    "/2014/05/12/caf%C3%A9;old.html": "/articles/unicode-post",
    "/2014/05/12/caf%C3%A9;old": "/articles/unicode-post",
}
# Old addresses that redirect nowhere: the draft's alias's.
NOT_MOVED = ["/articles/secret-draft-v1", "/articles/secret-draft-v1.md", "/api/v1/articles/secret-draft-v1",
             "/api/v1/articles/secret-draft-v1.json", "/drafts/secret/", "/drafts/secret"]  # fmt: skip


def write_content(root, files=FILES):
    """Write `files` ({relative path: text or bytes}) under `root` and return root."""
    root = Path(root)
    for rel, data in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(data, str):
            data = data.encode("utf-8")
        path.write_bytes(data)
    return root


# A series of two parts (content-format.md's "Series"), added to the standard site by the tests of
# series pages on the hosts and in the browser.
SERIES_NAME, SERIES_SLUG = "Building a site", "building-a-site"
SERIES = {
    f"articles/site-part-{number}.md": article(
        f"Part {number} of the site",
        date=f"2025-03-0{order}",
        tags="[python]",
        extra=f'series: "{SERIES_NAME}"\nseriesOrder: {order}\n',
    )
    for order, number in ((1, "one"), (2, "two"))
}
