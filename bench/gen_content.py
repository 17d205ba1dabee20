#!/usr/bin/env python3
"""Write a synthetic content folder (the project's content format) for the build benchmarks.

    python bench/gen_content.py OUT --size S            # 100 projects + 1,000 articles
    python bench/gen_content.py OUT --size L --seed 1   # 1,000 projects + 10,000 articles
    python bench/gen_content.py OUT --projects 3 --articles 12 --drafts 0.1

The same arguments always give the same bytes. Every body is 2-4 KB of markdown with headings,
paragraphs, a list of links, a table and a fenced code block per section; about 10 % of the
articles are drafts, half of those on the same date as a published article (the ordering and
draft-leak cases a real site has). media/ holds a set of images (gen_media.py: 300 at S and L, fewer
for a smaller site) that some projects and articles show in their front matter or bodies.
The standard library and Pillow (for the images): no Django, no project code.
"""

import argparse
import datetime as dt
import random
import sys
from pathlib import Path

import gen_media

SIZES = {"S": (100, 1_000), "L": (1_000, 10_000)}
# Bumped when the same arguments give different content: bench/run.py's cache names hold it.
VERSION = 2

WORDS = (
    "static build django content api schema feed sitemap render cache index vector model agent "
    "latency query parser token stream deploy review design system rust python graph layer tensor "
    "compile benchmark profile memory thread async sqlite markdown export worker"
).split()
TAGS = ["python", "django", "ai", "llm", "rust", "web", "devops", "data", "design", "notes"]
STACK = ["Python", "Django", "PostgreSQL", "Rust", "TypeScript", "Redis", "SQLite", "HTMX", "Go"]
STATUSES = ["active", "reference", "experimental"]
# Shares of items that show an image: a project's or article's picture (front matter `image`),
# an image in an article's body.
PROJECT_PICTURES, ARTICLE_PICTURES, ARTICLE_FIGURES = 0.5, 0.1, 0.1
FIRST_DAY = dt.date(2015, 1, 1)
DAYS = 4_000

CODE = {
    "python": "def {w}(items, factor={n}):\n    return [item * factor for item in items if item]\n",
    "rust": "fn {w}(items: &[u32]) -> u32 {{\n    items.iter().map(|x| x * {n}).sum()\n}}\n",
    "bash": "for f in content/*.md; do\n  grep -c '{w}' \"$f\"  # {n}\ndone\n",
    "json": '{{"name": "{w}", "count": {n}, "tags": ["a", "b"]}}\n',
}

SITE_YAML = """\
title: "Bench Portfolio"
description: "A synthetic portfolio for the build benchmarks."
author: "Bench Author"
url: "https://bench.example"
"""

STACK_YAML = """\
lastUpdated: 2026-11-01
currentFocus: "Measuring the build."
models:
  - name: "Hosted model"
    type: subscription
    description: "Code review and design discussions."
    url: "https://example.org/hosted"
  - name: "Local model"
    type: local
    description: "Offline completion."
dailyDrivers:
  - tool: "Editor"
    role: "Writing code and prose"
    url: "https://example.org/editor"
    status: daily
  - tool: "Agent"
    role: "Coding assistant"
    status: exploring
"""


def words(rng, n):
    return " ".join(rng.choice(WORDS) for _ in range(n))


def sentence(rng, n=12):
    return words(rng, n).capitalize() + "."


def quoted(text):
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def section(rng, level):
    language = rng.choice(list(CODE))
    code = CODE[language].format(w=rng.choice(WORDS), n=rng.randrange(100))
    rows = "".join(f"| {rng.choice(WORDS)} | {rng.randrange(1000)} | {words(rng, 3)} |\n" for _ in range(3))
    links = "".join(
        f"- {sentence(rng, 6)[:-1]}: see [the {rng.choice(WORDS)} notes]"
        f"(https://example.org/{rng.choice(WORDS)}/{rng.randrange(10**6)}).\n"
        for _ in range(3)
    )
    paragraph = " ".join(sentence(rng) for _ in range(4))
    return (
        f"{'#' * level} {words(rng, 4).capitalize()}\n\n"
        f"{paragraph} Use `{rng.choice(WORDS)}()` with **care**.\n\n"
        f"{links}\n"
        f"| name | value | notes |\n|---|---:|---|\n{rows}\n"
        f"```{language}\n{code}```\n"
    )


def body(rng):
    """2-4 KB of markdown: sections until the target size, a sub-heading every other one."""
    target = rng.randrange(2_048, 3_400)
    parts, size = [], 0
    while size < target:
        part = section(rng, 2 if len(parts) % 2 == 0 else 3)
        parts.append(part)
        size += len(part)
    return "\n".join(parts)


def picture(pick, images, share):
    """Front matter lines showing one of `images` as the item's picture, for about `share` of
    the items ('' for the others)."""
    if not images or pick.random() >= share:
        return ""
    image = pick.choice(images)
    return f"image: {image.path}\nimageAlt: {quoted(image.alt)}\n"


def with_figure(pick, images, share, text):
    """`text` with an image (relative to the markdown file, as editors preview it) after its
    first section, for about `share` of the bodies."""
    if not images or pick.random() >= share:
        return text
    image = pick.choice(images)
    first, separator, rest = text.partition("\n\n## ")
    return f"{first}\n![{image.alt}](../media/{image.path})\n{separator}{rest}"


def project(rng, i, pick, images):
    date = FIRST_DAY + dt.timedelta(days=rng.randrange(DAYS))
    keys = ("problem", "approach", "outcome")[: rng.randrange(4)]
    case_study = "".join(f"  {key}: {quoted(sentence(rng, 8))}\n" for key in keys)
    front = (
        f"title: {quoted(f'{words(rng, 3).title()} {i:05d}')}\n"
        f"tagline: {quoted(sentence(rng, 6))}\n"
        f"description: {quoted(sentence(rng, 20))}\n"
        f'github: "https://github.com/bench/project-{i:05d}"\n'
        f"status: {rng.choice(STATUSES)}\n"
        f"stack: [{', '.join(rng.sample(STACK, rng.randrange(4)))}]\n"
        f"featured: {'true' if rng.random() < 0.1 else 'false'}\n"
        f"date: {date.isoformat()}\n"
        + (f"caseStudy:\n{case_study}" if case_study else "")
        + picture(pick, images, PROJECT_PICTURES)
    )
    return f"---\n{front}---\n{body(rng)}"


def article_dates(rng, count, draft_share):
    """(dates, draft flags): about `draft_share` drafts (at least one when there is room), half
    of them dated like a published article so that same-date ordering meets drafts."""
    dates = [FIRST_DAY + dt.timedelta(days=rng.randrange(DAYS)) for _ in range(count)]
    wanted = round(count * draft_share)
    if draft_share > 0 and count >= 2:
        wanted = max(1, wanted)
    drafts = set(rng.sample(range(count), min(wanted, count)))
    published = [i for i in range(count) if i not in drafts]
    for n, i in enumerate(sorted(drafts)):
        if n % 2 == 0 and published:
            dates[i] = dates[rng.choice(published)]
    return dates, [i in drafts for i in range(count)]


def article(rng, i, date, draft, pick, images):
    front = (
        # The number keeps every title unique: a draft's title must not appear in a published page.
        f"title: {quoted(f'{words(rng, 5).capitalize()} {i:05d}')}\n"
        f"description: {quoted(sentence(rng, 16))}\n"
        f"date: {date.isoformat()}\n"
        f"tags: [{', '.join(rng.sample(TAGS, rng.randrange(4)))}]\n"
        + ("draft: true\n" if draft else "")
        + picture(pick, images, ARTICLE_PICTURES)
    )
    return f"---\n{front}---\n{with_figure(pick, images, ARTICLE_FIGURES, body(rng))}"


def generate(out, projects, articles, drafts=0.1, seed=1, images=None):
    """Write the content folder; return (drafts, images). `images` defaults to the size's."""
    out = Path(out)
    if out.exists() and any(out.iterdir()):
        raise SystemExit(f"{out}: exists and is not empty")
    (out / "projects").mkdir(parents=True, exist_ok=True)
    (out / "articles").mkdir(parents=True, exist_ok=True)
    (out / "site.yaml").write_text(SITE_YAML)
    (out / "stack.yaml").write_text(STACK_YAML)
    count = gen_media.count_for(projects + articles) if images is None else images
    planned = gen_media.generate(out / "media", count, seed)
    # A generator of its own picks the images: the items' text is the same with or without them.
    rng, pick = random.Random(seed), random.Random(f"pictures-{seed}")
    for i in range(projects):
        (out / "projects" / f"project-{i:05d}.md").write_text(project(rng, i, pick, planned))
    dates, flags = article_dates(rng, articles, drafts)
    for i, (date, draft) in enumerate(zip(dates, flags, strict=True)):
        (out / "articles" / f"article-{i:05d}.md").write_text(article(rng, i, date, draft, pick, planned))
    return sum(flags), len(planned)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=Path, help="folder to create (must be empty or missing)")
    parser.add_argument("--size", choices=SIZES, default="S", help="S = 100 + 1,000; L = 1,000 + 10,000")
    parser.add_argument("--projects", type=int, help="override the size's number of projects")
    parser.add_argument("--articles", type=int, help="override the size's number of articles")
    parser.add_argument("--drafts", type=float, default=0.1, help="share of articles that are drafts")
    parser.add_argument("--images", type=int, help="override the number of images in media/")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    projects, articles = SIZES[args.size]
    projects = projects if args.projects is None else args.projects
    articles = articles if args.articles is None else args.articles
    drafts, images = generate(args.out, projects, articles, args.drafts, args.seed, args.images)
    print(
        f"{args.out}: {projects} projects, {articles} articles ({drafts} drafts), {images} images, "
        f"seed {args.seed}"
    )


if __name__ == "__main__":
    sys.exit(main())
