"""The documents the API must return for the standard test content (tests/content_builder.py),
written out by hand from the content files: the spec's fields, names, order and values."""

BASE = "https://portfolio.test"
GITHUB = "https://github.com/example/project"


def project_item(slug, title, date, status="active", stack=("Python", "Django"), featured=False, base=BASE):
    return {
        "slug": slug,
        "title": title,
        "tagline": "A tagline",
        "description": "A description",
        "github": GITHUB,
        "status": status,
        "stack": list(stack),
        "featured": featured,
        "date": date,
        "url": f"{base}/projects/{slug}",
        "apiUrl": f"{base}/api/v1/projects/{slug}",
    }


def projects(base=BASE):
    return [
        project_item("alpha-one", "Alpha One", "2026-03-01", featured=True, base=base),
        project_item("gamma", "Gämma ✓ ünïcode", "2026-03-01", status="experimental", base=base),
        project_item("beta_two", "Beta Two", "2025-06-30", status="reference", stack=(), base=base),
        project_item("delta", "Delta", "2024-12-24", base=base),
    ]


def project_list(base=BASE):
    return {"count": 4, "projects": projects(base)}


PROJECT_BODIES = {
    "alpha-one": "# Alpha\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n```python\nprint('hi')\n```\n",
    "gamma": "Ünïcode body — ✓\nline two\n",  # written with CRLF
    "beta_two": "Project body.\n",
    "delta": "Project body.\n",  # written with a byte-order mark
}
CASE_STUDIES = {"alpha-one": {"zeta": "last letter first", "alpha": "first letter second"}}


def project_detail(slug, base=BASE):
    item = next(p for p in projects(base) if p["slug"] == slug)
    return {**item, "body": PROJECT_BODIES[slug], "caseStudy": CASE_STUDIES.get(slug, {})}


def article_item(slug, title, date, tags, base=BASE):
    return {
        "slug": slug,
        "title": title,
        "description": "An article description",
        "date": date,
        "tags": tags,
        "url": f"{base}/articles/{slug}",
        "apiUrl": f"{base}/api/v1/articles/{slug}",
    }


def articles(base=BASE):
    return [
        article_item("unicode-post", "Ünïcode ✓ 日本語", "2026-05-05", ["ünï"], base),
        article_item("crlf-post", "CRLF post", "2026-04-04", [], base),
        article_item("same-day", "Same day published", "2026-04-04", ["python"], base),
        article_item("first-post", "First post", "2025-01-10", ["intro", "meta"], base),
    ]


def article_list(base=BASE):
    return {"count": 4, "articles": articles(base)}


ARTICLE_BODIES = {
    "unicode-post": (  # footnotes and headings as written: the API serves the markdown
        "Article body.[^1]\n\n## Ünïcode ✓ heading\n\nOne.\n\n"
        "## With `code <b>` & [a link](/stack)\n\nTwo.[^note]\n\n"
        "## Ünïcode ✓ heading\n\nThree: the same heading again, with $E = mc^2$ and\n\n"
        "$$\n\\sum_{i=1}^{n} \\frac{x_i^2}{2} \\le \\int_0^1 f(t)\\,dt\n$$\n\n"
        "```python\nprint('a line of code long enough to scroll sideways on a phone: $HOME', "
        "1 + 2 + 3 + 4 + 5)\n```\n\n"
        "> [!WARNING]\n> Mind the *gap*.\n\n- [x] done\n- [ ] to do\n\n"
        '```ts title="src/x.ts" {2}\nconst a = 1;\nconst b = 2;\n```\n\n'
        "[^1]: The first note, with [a link](https://example.org/note).\n[^note]: The second note.\n"
    ),
    "crlf-post": "line one\nline two\n",
    "same-day": "Article body.\n",
    "first-post": "Article body.\n",
}


def article_detail(slug, base=BASE):
    item = next(a for a in articles(base) if a["slug"] == slug)
    return {**item, "body": ARTICLE_BODIES[slug]}


def stack(base=BASE):
    return {
        "lastUpdated": "2026-10-01",
        "currentFocus": "Testing everything",
        "models": [
            {
                "name": "Hosted",
                "type": "subscription",
                "description": "A hosted model",
                "url": "https://models.example/hosted",
            },
            {"name": "Local", "type": "local", "description": "A local model without a url"},
        ],
        "dailyDrivers": [
            {"tool": "Editor", "role": "editing", "url": "https://editor.example", "status": "daily"},
            {"tool": "Agent", "role": "coding", "status": "exploring"},
        ],
        "url": f"{base}/stack",
    }


def index(base=BASE):
    """The index document; its prose members are checked for their meaning in test_documents."""
    api = f"{base}/api/v1"
    return {
        "name": "Test Portfolio API",
        "version": "v1",
        "site": f"{base}/",
        "documentation": f"{base}/developers",
        "openapi": f"{base}/openapi.json",
        "llmsTxt": f"{base}/llms.txt",
        "endpoints": {
            "projects": {
                "list": f"{api}/projects",
                "listJson": f"{api}/projects.json",
                "item": f"{api}/projects/{{slug}}",
                "itemJson": f"{api}/projects/{{slug}}.json",
            },
            "articles": {
                "list": f"{api}/articles",
                "listJson": f"{api}/articles.json",
                "item": f"{api}/articles/{{slug}}",
                "itemJson": f"{api}/articles/{{slug}}.json",
            },
            "stack": {"get": f"{api}/stack", "getJson": f"{api}/stack.json"},
            "index": {"get": api, "getJson": f"{api}.json"},
        },
        "humanPages": {
            "home": f"{base}/",
            "projects": f"{base}/projects",
            "articles": f"{base}/articles",
            "stack": f"{base}/stack",
            "contact": f"{base}/contact",
            "feed": f"{base}/feed.xml",
            "sitemap": f"{base}/sitemap-index.xml",
        },
        "contact": {"formPage": f"{base}/contact", "post": f"{base}/api/contact"},
    }
