"""Sync the database to the content folder: validate every changed file first, then write
everything in one transaction. A file whose bytes are unchanged since the last import is skipped.

    result = import_content(settings.CONTENT_DIR)   # raises ContentInvalid, database untouched
    print(result.summary())
"""

import hashlib
import os
import time
from dataclasses import dataclass, replace
from pathlib import Path

from django.db import transaction

from portfolio.workers import worker_pool

from . import body_links, loader, references
from .loader import ContentError, ContentInvalid
from .markdown import RENDER_VERSION
from .media import MediaSync
from .models import Article, DailyDriver, Project, Site, Stack, StackModel

SCHEMAS = {"projects": loader.PROJECT, "articles": loader.ARTICLE}
MODELS = {"projects": Project, "articles": Article}
SINGLETONS = {"site.yaml": (Site, loader.SITE), "stack.yaml": (Stack, loader.STACK)}
# Below this many changed files a process pool costs more than it saves.
POOL_MIN_FILES = 200
BATCH = 500
# What the database remembers of each imported file, to tell whether it changed.
STATE = ("content_hash", "source_mtime_ns", "source_size")


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


@dataclass(frozen=True)
class Parsed:
    """What a worker found in one file: plain data, so it crosses process boundaries cheaply."""

    rel: str
    content_hash: str
    stat: tuple  # (mtime_ns, size) when read
    fields: dict | None = None  # None: same bytes as the stored row, nothing to write
    errors: tuple = ()


def parse(job):
    """Read, hash, parse, validate and render one file (in a worker process)."""
    rel, path, stored_hash = job
    stat = os.stat(path)
    raw = Path(path).read_bytes()
    content_hash = digest(raw)
    found = Parsed(rel, content_hash, (stat.st_mtime_ns, stat.st_size))
    if content_hash == stored_hash:
        return found  # touched, not changed
    try:
        if rel in SINGLETONS:
            fields, body = loader.parse_yaml_file(raw, rel, SINGLETONS[rel][1]), None
        else:
            fields, body = loader.parse_markdown_file(raw, rel, SCHEMAS[rel.split("/")[0]])
        # Renders the body (not a draft's: it is rendered by the edit that publishes it) with its
        # links and images resolved, and the front matter's image.
        fields, content_hash = references.resolve_file(rel, raw, fields, body, content_hash)
    except ContentInvalid as exc:
        return replace(found, errors=tuple(exc.errors))
    return replace(found, content_hash=content_hash, fields=fields)


def parse_all(jobs, workers, progress):
    """Yield parse() of every job, on `workers` processes when there are enough to pay off."""
    total = len(jobs)
    if workers > 1 and total >= POOL_MIN_FILES:
        with worker_pool(workers) as pool:
            for done, result in enumerate(pool.map(parse, jobs, chunksize=32), 1):
                progress(done, total)
                yield result
    else:
        for done, job in enumerate(jobs, 1):
            progress(done, total)
            yield parse(job)


def stored_files():
    """{relative path: (content hash, mtime_ns, size)} of every imported file."""
    stored = {}
    for collection, model in MODELS.items():
        for slug, *state in model.objects.values_list("slug", *STATE):
            stored[f"{collection}/{slug}.md"] = tuple(state)
    for name, (model, _) in SINGLETONS.items():
        for state in model.objects.values_list(*STATE):
            stored[name] = tuple(state)
    return stored


def import_content(content_dir, *, workers=None, progress=None, full=False):
    """Validate the content folder and sync the database to it. Raises ContentInvalid (listing
    every problem in every file) and leaves the database as it was when any file is invalid.

    A file whose size and mtime match the last import is not read; one whose bytes hash the same
    is not parsed. `full` re-parses every file. Parsed rows are written in batches as the workers
    deliver them, inside the one transaction, so memory stays flat at any size."""
    started = time.perf_counter()
    progress = progress or (lambda done, total: None)
    workers = workers or os.cpu_count() or 1
    files, errors = discover(Path(content_dir))
    media = MediaSync(content_dir, full)
    errors += media.errors
    body_links.use_media(media.index)  # before the workers fork: they resolve images with it
    rerender = references.referencing(media.changed)  # their media changed: resolve them again
    stored = stored_files()
    jobs = []
    for rel, path in files.items():
        known = None if full or rel in rerender else stored.get(rel)
        stat = path.stat()
        if not known or known[1:] != (stat.st_mtime_ns, stat.st_size):
            jobs.append((rel, str(path), known[0] if known else None))
    deleted = [rel for rel in stored if rel not in files]

    created = updated = 0
    with transaction.atomic():
        writer = Writer(deleted)
        checker = references.Checker(media.index, deleted, media.deleted)
        for found in parse_all(jobs, workers, progress):
            checker.parsed(found)
            if found.errors:
                errors.extend(found.errors)
            elif errors:
                continue  # nothing will be written: just keep collecting problems
            elif found.fields is None:
                writer.touched(found)
            else:
                created += found.rel not in stored
                updated += found.rel in stored
                writer.add(found)
        errors += checker.problems()
        if errors:
            raise ContentInvalid(errors)  # rolls the transaction back: the database is as it was
        writer.flush()
        media.write()
        checker.write()
    media.make_variants(workers)

    return ImportResult(
        projects=Project.objects.count(),
        articles=Article.objects.count(),
        drafts=Article.objects.filter(draft=True).count(),
        created=created,
        updated=updated,
        deleted=len(deleted),
        unchanged=len(files) - created - updated,
        seconds=time.perf_counter() - started,
    )


class Writer:
    """Writes parsed files to the database in batches; the caller holds the transaction."""

    def __init__(self, deleted):
        self.rows = {collection: [] for collection in MODELS}
        self.stats = []
        for collection, model in MODELS.items():  # (a missing site.yaml or stack.yaml is an error)
            self.delete(model, [slug_of(rel) for rel in deleted if rel.startswith(collection + "/")])

    def add(self, found):
        collection = found.rel.split("/")[0]
        if found.rel in SINGLETONS:
            write_singleton(found)
            return
        self.rows[collection].append(build_row(MODELS[collection], found))
        if len(self.rows[collection]) >= BATCH:
            self.flush_rows(collection)

    def touched(self, found):
        """Same bytes, new mtime: remember the stat so the next import need not read it."""
        self.stats.append(found)

    def flush(self):
        for collection in MODELS:
            self.flush_rows(collection)
        for found in self.stats:
            rows_of(found.rel).update(source_mtime_ns=found.stat[0], source_size=found.stat[1])

    def flush_rows(self, collection):
        rows, self.rows[collection] = self.rows[collection], []
        model = MODELS[collection]
        # Replacing a changed row keeps its identity: the slug is the primary key.
        self.delete(model, [row.slug for row in rows])
        model.objects.bulk_create(rows, batch_size=BATCH)

    @staticmethod
    def delete(model, slugs):
        for start in range(0, len(slugs), BATCH):
            model.objects.filter(slug__in=slugs[start : start + BATCH]).delete()


def slug_of(rel):
    return rel.split("/", 1)[1].removesuffix(".md")


def rows_of(rel):
    """The rows imported from the file `rel`."""
    if rel in SINGLETONS:
        return SINGLETONS[rel][0].objects.all()
    return MODELS[rel.split("/")[0]].objects.filter(slug=slug_of(rel))


def imported_state(found):
    return {
        "source_path": found.rel,
        "content_hash": found.content_hash,
        "source_mtime_ns": found.stat[0],
        "source_size": found.stat[1],
    }


def write_singleton(found):
    fields = found.fields
    if found.rel == "site.yaml":
        Site.objects.update_or_create(
            pk=1,
            defaults={
                "title": fields["title"],
                "description": fields["description"],
                "author": fields["author"],
                "url": fields["url"],
                "image": fields["image"],
                "links": fields["links"],
                **imported_state(found),
            },
        )
        return
    Stack.objects.all().delete()
    stack = Stack.objects.create(
        last_updated=fields["lastUpdated"], current_focus=fields["currentFocus"], **imported_state(found)
    )
    StackModel.objects.bulk_create(
        StackModel(stack=stack, position=position, **item) for position, item in enumerate(fields["models"])
    )
    DailyDriver.objects.bulk_create(
        DailyDriver(stack=stack, position=position, **item)
        for position, item in enumerate(fields["dailyDrivers"])
    )


def build_row(model, found):
    fields = found.fields
    common = {
        "slug": slug_of(found.rel),
        **imported_state(found),
        "title": fields["title"],
        "description": fields["description"],
        "date": fields["date"],
        "body": fields["body"],
        "body_html": fields["body_html"],
        "image": fields["image"],
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
