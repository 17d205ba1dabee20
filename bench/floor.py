#!/usr/bin/env python3
"""The floor: the least work any build of this site must do, done by a plain script.

    python bench/floor.py CONTENT OUT [--workers N] [--no-search]

For every project and published article: read the file, parse its YAML front matter (PyYAML's C
loader when available), render the body with the project's own renderer
(portfolio.content.markdown.render, so the two cannot drift; Pygments highlights the code), then
write one HTML page, one JSON document and one markdown twin; finally write the project and article
lists as JSON and every twin into llms-full.txt, newest first. Every file under media/ is copied to
OUT/media/, and every PNG, JPEG or WebP wider than the text column gets the build's WebP variants,
made as portfolio.content.media makes them (make_variants and resized_chain): turned by its EXIF
orientation, converted to RGB or RGBA, then resized to each variant width largest first, each from
the one before it (LANCZOS), and saved with the same quality and method, under OUT/media/_v/. Every
project and published article without a raster image of its own gets its social card, drawn by the
build's own Django-free drawing (pages.card_drawing.render, the site's title from site.yaml). Then
the item pages get the build's search index, made as portfolio.export.search_index makes it: cut
into bundles of at most PAGES_PER_BUNDLE pages (up to MAX_BUNDLES) by a hash of their paths
(bundle_count, bundle_of), each bundle indexed by Pagefind's command (the binary of `pagefind[bin]`,
found by pagefind.service.get_executable) from a folder of hard links to its pages, with the same
options, up to one process per worker at a time, into OUT/pagefind/<n>/; `--no-search` leaves the
index out. The image, card and search work is the build's, so that the ratio compares equal work:
every build of this site must do it. Files and images are spread over one process pool, one worker
per core by default. No Django, no database, no validation, no templates, no cache: the build should
come within a small factor of this, and bench/run.py measures how close it gets.
"""

import argparse
import hashlib
import html
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from datetime import date
from multiprocessing import Pool
from pathlib import Path

import yaml
from PIL import Image, ImageOps

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from pages import card_drawing  # noqa: E402
from portfolio.content.markdown import render  # noqa: E402

Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
KINDS = ("projects", "articles")
LIST_FIELDS = ("title", "description", "date", "tags", "tagline", "status", "stack", "featured")
# As in portfolio.content.media, which cannot be imported without setting Django up (it holds the
# MediaFile model); tests/test_bench_smoke.py checks that they are the same.
RESIZABLE = {".png", ".jpg", ".jpeg", ".webp"}
RASTER = RESIZABLE | {".gif", ".avif"}
LAYOUT_WIDTH = 720
VARIANT_WIDTHS = (480, 720, 1080, 1440)
VARIANT_QUALITY = 80
# Inline in media.make_variants and media.resized_chain; the test compares the variants' bytes.
VARIANT_FILTER = Image.Resampling.LANCZOS
VARIANT_METHOD = 4
# As in portfolio.export.search_index (which imports Django); the test keeps them equal.
PAGES_PER_BUNDLE = 250
MAX_BUNDLES = 32
EXCLUDE = [".breadcrumb", ".page-header .meta", ".actions", ".headerlink", ".pager"]

_out = None
_site_name = None


def start_worker(out, site_name):
    global _out, _site_name
    _out, _site_name = out, site_name


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
        f"<body><main data-pagefind-body><h1>{title}</h1>\n{body_html}\n</main></body></html>\n"
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
    body_html = render(body).html
    with open(os.path.join(_out, kind, slug + ".html"), "w", encoding="utf-8") as handle:
        handle.write(page(meta, body_html))
    document = {"slug": slug, **meta, "body": body, "html": body_html}
    with open(os.path.join(_out, "api", "v1", kind, slug + ".json"), "w", encoding="utf-8") as handle:
        handle.write(json.dumps(document, ensure_ascii=False))
    with open(os.path.join(_out, kind, slug + ".md"), "w", encoding="utf-8") as handle:
        handle.write(f"# {meta['title']}\n\n- Date: {meta['date']}\n\n{body}")
    if Path(meta.get("image") or "").suffix.lower() not in RASTER:
        below = "Project" if kind == "projects" else card_drawing.dated(date.fromisoformat(meta["date"][:10]))
        with open(os.path.join(_out, "cards", kind, slug + ".png"), "wb") as handle:
            handle.write(card_drawing.render(meta["title"], _site_name, below))
    return kind, {"slug": slug, **{key: meta[key] for key in LIST_FIELDS if key in meta}}


def publish_media(job):
    """Copy one media file; give a raster wider than the text column a WebP variant at each
    variant width below its own, as the build's import does (portfolio.content.media.measure,
    make_variants and resized_chain). Returns the number of variants written."""
    source, rel = job
    destination = os.path.join(_out, "media", rel)
    os.makedirs(os.path.dirname(destination), exist_ok=True)
    shutil.copyfile(source, destination)
    if Path(source).suffix.lower() not in RESIZABLE:
        return 0
    with Image.open(source) as original:
        width = original.size[1] if original.getexif().get(0x0112) in (5, 6, 7, 8) else original.size[0]
        if width <= LAYOUT_WIDTH or getattr(original, "is_animated", False):
            return 0
        image = ImageOps.exif_transpose(original)
        if image.mode not in ("RGB", "RGBA"):
            has_alpha = "A" in image.getbands() or "transparency" in image.info
            image = image.convert("RGBA" if has_alpha else "RGB")
        made = 0
        for variant, resized in resized_chain(image):
            name = f"{rel.replace('/', '-')}-{variant}.webp"
            path = os.path.join(_out, "media", "_v", name)
            resized.save(path, "WEBP", quality=VARIANT_QUALITY, method=VARIANT_METHOD)
            made += 1
    return made


def resized_chain(image):
    """(width, image) for each variant width below the image's, largest first, each resized from
    the one before it, the first from `image`; the heights from `image`'s proportions (as
    media.resized_chain does when every variant is missing, as in a cold build)."""
    current = image
    for width in sorted((w for w in VARIANT_WIDTHS if w < image.width), reverse=True):
        height = max(1, round(image.height * width / image.width))
        current = current.resize((width, height), VARIANT_FILTER)
        yield width, current


def bundle_count(pages):
    """As search_index.bundle_count: a power of two, doubling as the site grows."""
    count = 1
    while pages > count * PAGES_PER_BUNDLE and count < MAX_BUNDLES:
        count *= 2
    return count


def bundle_of(path, count):
    """As search_index.bundle_of."""
    return str(int.from_bytes(hashlib.blake2b(path.encode(), digest_size=8).digest(), "big") % count)


def index_pages(out, pages, workers):
    """Index `pages` (paths under `out`) as the build's item bundles: one Pagefind process a
    bundle, from a folder of hard links to its pages, up to `workers` at a time, into
    out/pagefind/<n>/. Returns the number of bundles."""
    from pagefind.service import get_executable  # here: its import (0.1-0.3 s) is the search's work

    binary = get_executable()
    if binary is None:
        raise SystemExit("floor: Pagefind's binary is missing: install requirements.txt")
    count = bundle_count(len(pages))
    numbered = {}
    for path in sorted(pages):
        numbered.setdefault(bundle_of(path, count), []).append(path)
    env = {name: value for name, value in os.environ.items() if not name.startswith("PAGEFIND_")}
    work = Path(tempfile.mkdtemp(prefix="floor-search-", dir=out.parent))

    def one(bundle):
        source, paths = work / bundle, numbered[bundle]
        for path in paths:
            os.makedirs(source / os.path.dirname(path), exist_ok=True)
            os.link(out / path, source / path)
        written = out / "pagefind" / bundle
        command = [binary, "--site", source, "--output-path", written, "--silent",
                   "--exclude-selectors", ", ".join(EXCLUDE)]  # fmt: skip
        done = subprocess.run(command, cwd=source, env=env, capture_output=True, text=True)
        if done.returncode:
            said = (done.stderr or done.stdout).strip()
            raise SystemExit(f"floor: Pagefind failed on bundle {bundle} ({done.returncode}): {said}")
        # As the build checks each bundle: every page indexed.
        entry = json.loads((written / "pagefind-entry.json").read_bytes())
        indexed = sum(language["page_count"] for language in entry["languages"].values())
        if indexed != len(paths):
            raise SystemExit(f"floor: Pagefind indexed {indexed} of bundle {bundle}'s {len(paths)} pages")

    try:
        with ThreadPoolExecutor(max(1, workers)) as pool:
            list(pool.map(one, sorted(numbered, key=int)))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return len(numbered)


def cpu_seconds():
    """CPU time (user and system) of this process and of its children reaped so far."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def newest_first(items):
    return sorted(sorted(items, key=lambda item: item["slug"]), key=lambda item: item["date"], reverse=True)


def build(content, out, workers):
    content, out = Path(content), Path(out)
    for kind in KINDS:
        (out / kind).mkdir(parents=True, exist_ok=True)
        (out / "api" / "v1" / kind).mkdir(parents=True, exist_ok=True)
        (out / "cards" / kind).mkdir(parents=True, exist_ok=True)
    site_name = yaml.load((content / "site.yaml").read_text(encoding="utf-8"), Loader=Loader)["title"]
    jobs = [(kind, str(path)) for kind in KINDS for path in sorted((content / kind).glob("*.md"))]
    media = sorted(path for path in (content / "media").rglob("*") if path.is_file())
    images = [(str(path), path.relative_to(content / "media").as_posix()) for path in media]
    (out / "media" / "_v").mkdir(parents=True, exist_ok=True)
    lists = {kind: [] for kind in KINDS}
    if workers > 1:
        with Pool(workers, initializer=start_worker, initargs=(str(out), site_name)) as pool:
            # One image a task, queued before the pages: the largest tasks first, so that both
            # workers finish together.
            made = pool.imap_unordered(publish_media, images)
            results = list(pool.imap_unordered(build_one, jobs, chunksize=16))
            variants = sum(made)
            pool.close()
            pool.join()  # the workers reaped now: their CPU time is not the search step's
    else:
        start_worker(str(out), site_name)
        variants = sum(map(publish_media, images))
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
    pages = [f"{kind}/{item['slug']}.html" for kind in KINDS for item in lists[kind]]
    return len(jobs), pages, len(images), variants


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("content", type=Path)
    parser.add_argument("out", type=Path)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1, help="default: one per core")
    parser.add_argument("--no-search", action="store_true", help="leave out the search index")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    files, pages, media, variants = build(args.content, args.out, args.workers)
    if args.no_search:
        search = "search index not made (--no-search)"
    else:
        # Timed on its own (wall and CPU, Pagefind's processes included): bench/run.py takes the
        # floor without its search index from the same run, as this run minus this step.
        search_started, search_cpu = time.perf_counter(), cpu_seconds()
        bundles = index_pages(args.out, pages, args.workers)
        search = (
            f"search index: {len(pages)} pages in {bundles} bundle{'s' if bundles > 1 else ''} "
            f"({time.perf_counter() - search_started:.3f} s, {cpu_seconds() - search_cpu:.3f} s CPU)"
        )
    seconds = time.perf_counter() - started
    print(
        f"floor: {files} files read, {len(pages)} items written, {media} media files copied, "
        f"{variants} variants made, {search}; {seconds:.2f} s on {args.workers} workers"
    )


if __name__ == "__main__":
    main()
