"""Sync the database to the content folder: validate every changed file first, then write
everything in one transaction. A file whose bytes are unchanged since the last import is skipped.

    result = import_content(settings.CONTENT_DIR)   # raises ContentInvalid, database untouched
    print(result.summary())
"""

import hashlib
import multiprocessing
import os
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from django.db import transaction

from . import loader
from .loader import ContentError, ContentInvalid
from .markdown import RENDER_VERSION, render
from .models import Article, DailyDriver, Project, Site, Stack, StackModel

SCHEMAS = {"projects": loader.PROJECT, "articles": loader.ARTICLE}
MODELS = {"projects": Project, "articles": Article}
SINGLETONS = {"site.yaml": (Site, loader.SITE), "stack.yaml": (Stack, loader.STACK)}
# Below this many changed files a process pool costs more than it saves.
POOL_MIN_FILES = 200
BATCH = 500


@dataclass
class ImportResult:
    projects: int
    articles: int
    drafts: int
    created: int
    updated: int
    deleted: int
    unchanged: int
    seconds: float

    @property
    def changed(self):
        return bool(self.created or self.updated or self.deleted)

    def summary(self):
        return (
            f"{self.projects} projects, {self.articles} articles "
            f"({self.drafts} draft{'' if self.drafts == 1 else 's'}), "
            f"site and stack: {self.created} created, {self.updated} updated, "
            f"{self.deleted} deleted, {self.unchanged} unchanged in {self.seconds:.2f} s"
        )


def is_ignored(name):
    """Hidden files and editor backups (`.DS_Store`, `.post.md.swp`, `post.md~`)."""
    return name.startswith(".") or name.endswith("~")


def discover(content_dir):
    """Return ({relative path: absolute path} of every content file, [problems with names])."""
    if not content_dir.is_dir():
        raise ContentInvalid([ContentError(str(content_dir), "folder", "the content folder does not exist")])
    errors, files = [], {}
    for name in SINGLETONS:
        if (content_dir / name).is_file():
            files[name] = content_dir / name
        else:
            errors.append(ContentError(name, "file", "required file is missing"))
    for collection in SCHEMAS:
        folder = content_dir / collection
        if not folder.is_dir():
            continue  # no such folder: an empty collection
        for entry in os.scandir(folder):
            if is_ignored(entry.name):
                continue
            rel = f"{collection}/{entry.name}"
            slug = entry.name.removesuffix(".md")
            if not entry.is_file():
                message = "expected a markdown file <slug>.md; got a folder"
                errors.append(ContentError(rel, "file name", message))
            elif not entry.name.endswith(".md") or not loader.SLUG_RE.match(slug):
                errors.append(
                    ContentError(
                        rel,
                        "file name",
                        "expected <slug>.md with a slug of lowercase letters and digits, "
                        "with single '-' or '_' between them",
                    )
                )
            else:
                files[rel] = Path(entry.path)
    return files, errors


def digest(raw):
    return hashlib.sha256(RENDER_VERSION.encode() + b"\0" + raw).hexdigest()


def parse(job):
    """Parse, validate and render one file: (relative path, fields or None, errors). Runs in
    worker processes, so it takes and returns plain data."""
    rel, raw = job
    try:
        if rel in SINGLETONS:
            return rel, loader.parse_yaml_file(raw, rel, SINGLETONS[rel][1]), []
        fields, body = loader.parse_markdown_file(raw, rel, SCHEMAS[rel.split("/")[0]])
        # A draft is never published, so its HTML is never shown: it is rendered once published
        # (the edit that publishes it changes the file, so the next import renders it).
        fields["body"], fields["body_html"] = body, "" if fields.get("draft") else render(body)
        return rel, fields, []
    except ContentInvalid as exc:
        return rel, None, exc.errors


def parse_all(jobs, workers, progress):
    """Yield parse() of every job, on `workers` processes when there are enough to pay off."""
    total = len(jobs)
    if workers > 1 and total >= POOL_MIN_FILES:
        methods = multiprocessing.get_all_start_methods()
        context = multiprocessing.get_context("fork" if "fork" in methods else None)
        with ProcessPoolExecutor(workers, mp_context=context) as pool:
            results = pool.map(parse, jobs, chunksize=32)
            for done, result in enumerate(results, 1):
                progress(done, total)
                yield result
    else:
        for done, job in enumerate(jobs, 1):
            progress(done, total)
            yield parse(job)


def stored_hashes():
    hashes = {}
    for collection, model in MODELS.items():
        for slug, content_hash in model.objects.values_list("slug", "content_hash"):
            hashes[f"{collection}/{slug}.md"] = content_hash
    for name, (model, _) in SINGLETONS.items():
        for content_hash in model.objects.values_list("content_hash", flat=True):
            hashes[name] = content_hash
    return hashes


def import_content(content_dir, *, workers=None, progress=None):
    """Validate the content folder and sync the database to it. Raises ContentInvalid (listing
    every problem in every file) and leaves the database as it was when any file is invalid."""
    started = time.perf_counter()
    progress = progress or (lambda done, total: None)
    workers = workers or os.cpu_count() or 1
    files, errors = discover(Path(content_dir))
    stored = stored_hashes()

    jobs, hashes = [], {}
    for rel, path in files.items():
        raw = path.read_bytes()
        hashes[rel] = digest(raw)
        if stored.get(rel) != hashes[rel]:
            jobs.append((rel, raw))

    parsed = {}
    for rel, fields, file_errors in parse_all(jobs, workers, progress):
        if file_errors:
            errors.extend(file_errors)
        else:
            parsed[rel] = fields
    if errors:
        raise ContentInvalid(errors)

    deleted = [rel for rel in stored if rel not in files]
    with transaction.atomic():
        write(parsed, hashes, deleted)

    created = sum(1 for rel in parsed if rel not in stored)
    return ImportResult(
        projects=Project.objects.count(),
        articles=Article.objects.count(),
        drafts=Article.objects.filter(draft=True).count(),
        created=created,
        updated=len(parsed) - created,
        deleted=len(deleted),
        unchanged=len(files) - len(parsed),
        seconds=time.perf_counter() - started,
    )


def write(parsed, hashes, deleted):
    """Apply the parsed files and deletions; the caller holds the transaction."""
    for collection, model in MODELS.items():
        prefix = f"{collection}/"
        gone = [rel for rel in deleted if rel.startswith(prefix)]
        rows = [
            build_row(model, rel, hashes[rel], fields)
            for rel, fields in parsed.items()
            if rel.startswith(prefix)
        ]
        # Replacing a changed row keeps its identity: the slug is the primary key.
        slugs = [rel[len(prefix) : -len(".md")] for rel in gone] + [row.slug for row in rows]
        for start in range(0, len(slugs), BATCH):
            model.objects.filter(slug__in=slugs[start : start + BATCH]).delete()
        model.objects.bulk_create(rows, batch_size=BATCH)

    if "site.yaml" in parsed:
        fields = parsed["site.yaml"]
        Site.objects.update_or_create(
            pk=1,
            defaults={
                "title": fields["title"],
                "description": fields["description"],
                "author": fields["author"],
                "url": fields["url"],
                "content_hash": hashes["site.yaml"],
            },
        )
    if "stack.yaml" in parsed:
        fields = parsed["stack.yaml"]
        Stack.objects.all().delete()
        stack = Stack.objects.create(
            last_updated=fields["lastUpdated"],
            current_focus=fields["currentFocus"],
            content_hash=hashes["stack.yaml"],
        )
        StackModel.objects.bulk_create(
            StackModel(stack=stack, position=position, **item)
            for position, item in enumerate(fields["models"])
        )
        DailyDriver.objects.bulk_create(
            DailyDriver(stack=stack, position=position, **item)
            for position, item in enumerate(fields["dailyDrivers"])
        )


def build_row(model, rel, content_hash, fields):
    common = {
        "slug": rel.split("/", 1)[1].removesuffix(".md"),
        "source_path": rel,
        "content_hash": content_hash,
        "title": fields["title"],
        "description": fields["description"],
        "date": fields["date"],
        "body": fields["body"],
        "body_html": fields["body_html"],
    }
    if model is Article:
        return Article(**common, tags=fields["tags"], draft=fields["draft"])
    return Project(
        **common,
        tagline=fields["tagline"],
        github=fields["github"],
        status=fields["status"],
        stack=fields["stack"],
        featured=fields["featured"],
        case_study_items=fields["caseStudy"],
    )
