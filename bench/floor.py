#!/usr/bin/env python3
"""The floor: the least work any build of this site must do, done by a plain script.

    python bench/floor.py CONTENT OUT [--workers N]

For every project and published article: read the file, parse its YAML front matter (PyYAML's C
loader when available), render the body with Python-Markdown and the project's own extensions
(imported from portfolio.content.markdown, so the two cannot drift; Pygments highlights the code),
then write one HTML page, one JSON document and one markdown twin; finally write the project and
article lists as JSON and every twin into llms-full.txt, newest first. Files are spread over a
process pool, one worker per core by default. No Django, no database, no validation, no
templates: the build should come within a small factor of this, and bench/run.py measures how
close it gets.
"""

import argparse
import html
import json
import os
import sys
import time
from multiprocessing import Pool
from pathlib import Path

import markdown
import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from portfolio.content.markdown import EXTENSION_CONFIGS, EXTENSIONS  # noqa: E402

Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
KINDS = ("projects", "articles")
LIST_FIELDS = ("title", "description", "date", "tags", "tagline", "status", "stack", "featured")

_converter = None
_out = None


def start_worker(out):
    global _converter, _out
    _converter = markdown.Markdown(extensions=EXTENSIONS, extension_configs=EXTENSION_CONFIGS)
    _out = out


def split_front_matter(text):
    """(front matter text, body) of a markdown file that opens with a `---` block."""
    if not text.startswith("---\n"):
        raise ValueError("no front matter")
    end = text.index("\n---\n", 3)
    return text[4 : end + 1], text[end + 5 :]


def page(meta, body_html):
    title = html.escape(meta["title"])
    return (
        f"<!doctype html>\n<html lang=en><head><meta charset=utf-8><title>{title}</title>"
        f'<meta name=description content="{html.escape(meta["description"])}"></head>\n'
        f"<body><main><h1>{title}</h1>\n{body_html}\n</main></body></html>\n"
    )


def build_one(job):
    """Read, parse, render and write one item; return its list entry (None for a draft)."""
    kind, path = job
    text = Path(path).read_bytes().decode("utf-8-sig").replace("\r\n", "\n")
    front, body = split_front_matter(text)
    meta = yaml.load(front, Loader=Loader)
    if meta.get("draft"):
        return None
    meta["date"] = str(meta["date"])
    slug = os.path.basename(path)[: -len(".md")]
    body_html = _converter.reset().convert(body)
    with open(os.path.join(_out, kind, slug + ".html"), "w", encoding="utf-8") as handle:
        handle.write(page(meta, body_html))
    document = {"slug": slug, **meta, "body": body, "html": body_html}
    with open(os.path.join(_out, "api", "v1", kind, slug + ".json"), "w", encoding="utf-8") as handle:
        handle.write(json.dumps(document, ensure_ascii=False))
    with open(os.path.join(_out, kind, slug + ".md"), "w", encoding="utf-8") as handle:
        handle.write(f"# {meta['title']}\n\n- Date: {meta['date']}\n\n{body}")
    return kind, {"slug": slug, **{key: meta[key] for key in LIST_FIELDS if key in meta}}


def newest_first(items):
    return sorted(sorted(items, key=lambda item: item["slug"]), key=lambda item: item["date"], reverse=True)


def build(content, out, workers):
    content, out = Path(content), Path(out)
    for kind in KINDS:
        (out / kind).mkdir(parents=True, exist_ok=True)
        (out / "api" / "v1" / kind).mkdir(parents=True, exist_ok=True)
    jobs = [(kind, str(path)) for kind in KINDS for path in sorted((content / kind).glob("*.md"))]
    lists = {kind: [] for kind in KINDS}
    if workers > 1:
        with Pool(workers, initializer=start_worker, initargs=(str(out),)) as pool:
            results = list(pool.imap_unordered(build_one, jobs, chunksize=16))
    else:
        start_worker(str(out))
        results = [build_one(job) for job in jobs]
    for result in results:
        if result is not None:
            lists[result[0]].append(result[1])
    for kind in KINDS:
        document = {"items": newest_first(lists[kind])}
        (out / "api" / "v1" / f"{kind}.json").write_text(json.dumps(document, ensure_ascii=False))
    every = newest_first([{**item, "kind": kind} for kind in KINDS for item in lists[kind]])
    with open(out / "llms-full.txt", "w", encoding="utf-8") as handle:
        for item in every:
            handle.write(
                (out / item["kind"] / f"{item['slug']}.md").read_text(encoding="utf-8") + "\n---\n\n"
            )
    stack = yaml.load((content / "stack.yaml").read_text(encoding="utf-8"), Loader=Loader)
    (out / "api" / "v1" / "stack.json").write_text(json.dumps(stack, default=str, ensure_ascii=False))
    return len(jobs), sum(len(items) for items in lists.values())


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("content", type=Path)
    parser.add_argument("out", type=Path)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1, help="default: one per core")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    files, written = build(args.content, args.out, args.workers)
    seconds = time.perf_counter() - started
    print(f"floor: {files} files read, {written} items written in {seconds:.2f} s on {args.workers} workers")


if __name__ == "__main__":
    main()
