"""Sync the database to the content folder: validate every changed file first, then write
everything in one transaction. A file whose bytes are unchanged since the last import is skipped.

    result = import_content(settings.CONTENT_DIR)   # raises ContentInvalid, database untouched
    print(result.summary())
"""

import functools
import hashlib
import os
import time
from concurrent.futures import TimeoutError
from concurrent.futures.process import BrokenProcessPool
from contextlib import closing, contextmanager
from dataclasses import dataclass, replace
from itertools import groupby
from pathlib import Path

from django.conf import settings
from django.db import transaction

from portfolio.workers import WorkerDied, can_fork, isolated_map, worker_pool

from . import aliases, content_cache, references, rules, schedule
from .files import entry_problem, read
from .markdown import RENDER_VERSION, RenderFailed
from .media import VARIANT_VERSION, MediaSync, make_variants
from .models import (
    ITEM_MODELS,
    Article,
    DailyDriver,
    ImportState,
    Page,
    Project,
    ScheduledArticle,
    SeriesPart,
    Site,
    Stack,
    StackModel,
    StackTranslation,
    Tagging,
    Translation,
)
from .rules import ContentError, ContentInvalid, slug_of

SCHEMAS = {"projects": rules.PROJECT, "articles": rules.ARTICLE, "pages": rules.PAGE}
SINGLETONS = {"site.yaml": (Site, rules.SITE), "stack.yaml": (Stack, rules.STACK)}
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
    pages: int = 0

    @property
    def changed(self):
        return bool(self.created or self.updated or self.deleted)

    def summary(self):
        return (
            f"{self.projects} projects, {self.articles} articles "
            f"({self.drafts} draft{'' if self.drafts == 1 else 's'}), "
            f"{self.pages_summary()}site and stack: {self.created} created, {self.updated} updated, "
            f"{self.deleted} deleted, {self.unchanged} unchanged in {self.seconds:.2f} s"
        )

    def pages_summary(self):
        """Said only where there are pages: "1 page, "."""
        return f"{self.pages} page{'' if self.pages == 1 else 's'}, " if self.pages else ""


def is_ignored(name):
    """Hidden files and editor backups (`.DS_Store`, `.post.md.swp`, `post.md~`)."""
    return name.startswith(".") or name.endswith("~")


def discover(content_dir, only=None):
    """Return ({relative path: absolute path (a str)} of every content file, [problems with names]).
    `only`: the relative paths to look at instead of every file (the authoring server knows which
    files changed); one that is gone is left out, as a deleted file is."""
    content_dir = Path(content_dir).resolve()
    try:
        problem = None if content_dir.is_dir() else "the content folder does not exist"
    except OSError as exc:
        problem = f"the content folder cannot be read: {exc.strerror}"
    if problem:
        raise ContentInvalid([ContentError(str(content_dir), "folder", problem)])
    errors, files = [], {}
    for name in SINGLETONS:
        if only is not None and name not in only:
            continue
        path = content_dir / name
        if not os.path.lexists(path):
            errors.append(ContentError(name, "file", "required file is missing"))
        elif problem := entry_problem(path, content_dir, expected="a YAML file"):
            errors.append(ContentError(name, "file", problem))
        else:
            files[name] = str(path)
    # Translations of stack.yaml (stack.<lang>.yaml), beside it.
    for entry in sorted(os.scandir(content_dir), key=lambda entry: entry.name):
        if rules.stack_translation_of(entry.name) and (only is None or entry.name in only):
            if problem := entry_problem(Path(entry.path), content_dir, expected="a YAML file"):
                errors.append(ContentError(entry.name, "file", problem))
            else:
                files[entry.name] = entry.path
    for collection in SCHEMAS:
        folder = content_dir / collection
        if not os.path.lexists(folder):
            continue  # no such folder: an empty collection
        if problem := entry_problem(folder, content_dir, expected="a folder", folder=True):
            errors.append(ContentError(collection, "folder", problem))
            continue
        try:
            entries = listing(folder, collection, only)
        except OSError as exc:
            errors.append(ContentError(collection, "folder", f"cannot be read: {exc.strerror}"))
            continue
        for name, path, plain in entries:
            if is_ignored(name):
                continue
            rel = f"{collection}/{name}"
            slug = name.removesuffix(".md")
            if not plain and (problem := entry_problem(Path(path), content_dir)):
                field = "file name" if problem.endswith("got a folder") else "file"
                errors.append(ContentError(rel, field, problem))
            elif rules.translation_of(rel):
                files[rel] = path  # a translation: its language and original are checked once written
            elif not name.endswith(".md") or not rules.SLUG_RE.fullmatch(slug):
                errors.append(
                    ContentError(
                        rel,
                        "file name",
                        f"expected <slug>.md with a slug of {rules.SLUG_RULE}",
                    )
                )
            elif len(slug) > rules.SLUG_MAX:
                message = f"expected a slug of at most {rules.SLUG_MAX} characters; got {len(slug)}"
                errors.append(ContentError(rel, "file name", message))
            else:
                files[rel] = path
    return files, errors


def listing(folder, collection, only):
    """(name, path, plain file?) of the entries of a collection's folder, by name; with `only`,
    of those among `only` that exist. A plain file, as the folder listing tells without a system
    call, has no problem to look for; links and the rest are checked (two stats each)."""
    if only is None:
        entries = sorted(os.scandir(folder), key=lambda entry: entry.name)
        return [(entry.name, entry.path, entry.is_file(follow_symlinks=False)) for entry in entries]
    names = sorted(rel.split("/", 1)[1] for rel in only if rel.startswith(collection + "/"))
    paths = ((name, os.path.join(folder, name)) for name in names)
    return [(name, path, False) for name, path in paths if os.path.lexists(path)]


# What the rows are made with: the bodies' HTML and the names of the image variants it shows.
# Part of every file's hash, and stored (ImportState): when it changes, the next import parses
# and renders every file again, unchanged ones included.
# "tags 1": the tags' rules (rules.tag_list) and their index (models.Tagging), which rows made
# before them lack. "whole values 1": the rules' patterns match whole values (rows made before
# may hold a slug or an alias ending in a line break, which no address can be made of). "image
# hosts 1": the hosts of the bodies' remote images, recorded as references (references.py).
# "series 1": the articles' series (models.SeriesPart), which rows made before lack.
IMPORT_VERSION = (
    f"render {RENDER_VERSION}, variants {VARIANT_VERSION}, tags 1, whole values 1, image hosts 1, series 1"
)


# {path under media/: Media} of the import under way, in the process that parses its files: the
# workers' setup fills it after their fork, and so does parse_all() when it parses here.
media_index = {}


def use_media(index):
    media_index.clear()
    media_index.update(index)


def digest(raw):
    return hashlib.sha256(IMPORT_VERSION.encode() + b"\0" + raw).hexdigest()


@dataclass(frozen=True)
class Parsed:
    """What a worker found in one file: plain data, so it crosses process boundaries cheaply."""

    rel: str
    content_hash: str
    stat: tuple  # (mtime_ns, size) when read
    fields: dict | None = None  # None: same bytes as the stored row, nothing to write
    errors: tuple = ()


def failed(rel, field, message):
    return Parsed(rel, "", (0, 0), errors=(ContentError(rel, field, message),))


def parse(job):
    """Read, hash, parse, validate and render one file (in a worker process). Whatever the file
    holds, the answer is its fields or its named errors: an unexpected exception is reported as
    a problem of the file too, rather than stopping the import with a traceback."""
    rel, path, stored_hash = job
    try:
        return parse_file(rel, path, stored_hash)
    except ContentInvalid as exc:
        return Parsed(rel, "", (0, 0), errors=tuple(exc.errors))
    except Exception as exc:  # a bug here must still name the file, not stop the import
        return failed(rel, "file", f"could not be imported: {type(exc).__name__}: {exc}")


def parse_file(rel, path, stored_hash):
    raw, state = read(path, rel, settings.CONTENT_MAX_FILE_BYTES)
    content_hash = digest(raw)
    found = Parsed(rel, content_hash, state)
    if content_hash == stored_hash:
        return found  # touched, not changed
    cached = content_cache.read(rel, content_hash, media_index)
    if cached:
        fields, content_hash = cached
        schedule.hold(rel, fields)
        return replace(found, content_hash=content_hash, fields=fields)
    if rel in SINGLETONS:
        fields, body = rules.parse_yaml_file(raw, rel, SINGLETONS[rel][1]), None
    elif rules.stack_translation_of(rel):
        fields, body = rules.parse_yaml_file(raw, rel, rules.STACK_TRANSLATION), None
    elif rules.translation_of(rel):
        fields, body = rules.parse_markdown_file(raw, rel, rules.TRANSLATIONS[rel.split("/")[0]])
    else:
        fields, body = rules.parse_markdown_file(raw, rel, SCHEMAS[rel.split("/")[0]])
    # Renders the body (not a draft's: it is rendered by the edit that publishes it) with its
    # links and images resolved, and the front matter's image.
    image = fields.get("image")
    try:
        fields, final_hash = references.resolve_file(rel, raw, fields, body, content_hash, media_index)
    except RenderFailed as exc:
        raise rules.invalid(rel, "body", str(exc)) from None
    content_cache.write(rel, content_hash, fields, final_hash, image, media_index)
    # After the render (and not kept: it depends on the day): a scheduled article's body is
    # rendered now, to be published without an edit.
    schedule.hold(rel, fields)
    return replace(found, content_hash=final_hash, fields=fields)


def cache_entries(content_dir):
    """The content cache's entries of the content folder's files as they are now (what
    `distill-local --gc` keeps); a file that cannot be read has none."""
    files, _ = discover(content_dir)
    found = set()
    for rel, path in files.items():
        try:
            raw, _ = read(path, rel, settings.CONTENT_MAX_FILE_BYTES)
        except ContentInvalid:
            continue
        found.add(content_cache.entry_path(rel, digest(raw)))
    return found


# Files parsed per task: few enough that the last tasks end together.
CHUNK = 32


def parse_chunk(jobs):
    return [parse(job) for job in jobs]


@contextmanager
def import_pool(workers, files, images, setup):
    """The import's worker processes (each running `setup` first), or None when it is too small
    for them to pay off or the platform cannot fork (portfolio.workers)."""
    if workers > 1 and (files >= POOL_MIN_FILES or images > 1) and can_fork():
        with worker_pool(workers, setup) as pool:
            yield pool
    else:
        yield None


class Resizing:
    """Variants made on the import's workers while it parses (queued first, as the floor does,
    so that parsing fills both cores while the last images finish), or here without workers."""

    def __init__(self, pool, jobs):
        self.jobs, self.done = jobs, 0
        self.futures = [pool.submit(make_variants, job) for job in jobs] if pool else None
        for future in self.futures or ():
            future.add_done_callback(self._count)

    def _count(self, future):
        self.done += 1  # in the pool's thread: a counter for the progress line

    def results(self):
        """make_variants()'s result for each job, in order. A job whose worker died (a crash in
        C code) is run again on its own, so a death names its image."""
        if self.futures is None:
            return [make_variants(job) for job in self.jobs]
        results = []
        for job, future in zip(self.jobs, self.futures, strict=True):
            try:
                results.append(future.result())
            except BrokenProcessPool:
                [result] = isolated_map(make_variants, [job])
                if isinstance(result, WorkerDied):
                    result = (0, f"the image process died on this file ({result})")
                results.append(result)
        return results


def parse_all(jobs, pool, progress, resizing, setup):
    """Yield parse() of every job, on the pool's workers when there are enough to pay off, else
    here after running `setup` (what the workers run after their fork), undone at the end.
    While they wait for the images queued before them, the progress line counts those."""
    total = len(jobs) + len(resizing.jobs)
    if pool is None or len(jobs) < POOL_MIN_FILES:
        try:
            for function in setup:
                function()
            for done, job in enumerate(jobs, 1):
                progress(done + resizing.done, total)
                yield parse(job)
        finally:
            media_index.clear()
        return
    done = 0
    try:
        futures = [pool.submit(parse_chunk, jobs[i : i + CHUNK]) for i in range(0, len(jobs), CHUNK)]
        futures.reverse()
        while futures:
            future = futures.pop()  # a future holds its result: let it go once read
            while True:
                try:
                    chunk = future.result(timeout=0.5)
                    break
                except TimeoutError:
                    progress(done + resizing.done, total)
            for result in chunk:
                done += 1
                progress(done + resizing.done, total)
                yield result
    except BrokenProcessPool:
        # A worker died (a crash in C code): which file killed it is unknown, so what is left
        # is parsed one file at a time in a child process, and a death names its file.
        for job, result in zip(jobs[done:], isolated_map(parse, jobs[done:], setup), strict=True):
            done += 1
            progress(done + resizing.done, total)
            if isinstance(result, WorkerDied):
                result = failed(job[0], "file", f"the parser process died on this file ({result})")
            yield result


def stored_files(only=None):
    """{relative path: (content hash, mtime_ns, size)} of every imported file (of `only`)."""
    stored = {}
    for collection, model in ITEM_MODELS.items():
        rows = model.objects.all()
        if only is not None:
            rows = rows.filter(slug__in=[slug_of(rel) for rel in only if rel.startswith(collection + "/")])
        for slug, *state in rows.values_list("slug", *STATE):
            stored[f"{collection}/{slug}.md"] = tuple(state)
    for model in (Translation, StackTranslation):  # rows that name their file (source_path)
        rows = model.objects.all() if only is None else model.objects.filter(source_path__in=list(only))
        for rel, *state in rows.values_list("source_path", *STATE):
            stored[rel] = tuple(state)
    for name, (model, _) in SINGLETONS.items():
        for state in model.objects.values_list(*STATE) if only is None or name in only else ():
            stored[name] = tuple(state)
    return stored


def import_content(content_dir, *, workers=None, progress=None, full=False, only=None, stats=None):
    """Validate the content folder and sync the database to it. Raises ContentInvalid (listing
    every problem in every file) and leaves the database as it was when any file is invalid.

    A file whose size and mtime match the last import is not read, and one whose bytes hash the
    same is not parsed, unless the rows were made by other code (IMPORT_VERSION). `full`
    re-parses every file. `only`: the files (relative paths under projects/, articles/, or
    site.yaml and stack.yaml) known to be the only ones changed since the last import, which
    succeeded: only they are looked at (the media folder always is). `stats`: {path:
    (mtime_ns, size)} the caller took of the content files just before (the build's
    fingerprint walks them all), used instead of a stat of each. Parsed rows are written in
    batches as the workers deliver them, inside the one transaction, so memory stays flat at
    any size."""
    started = time.perf_counter()
    progress = progress or (lambda done, total: None)
    workers = workers or os.cpu_count() or 1
    media = MediaSync(content_dir, full)
    made_by = ImportState.version_stored()
    if made_by != IMPORT_VERSION:
        full, only = True, None  # rows made by other code, or none yet: render every file
    # Articles come due (or went back to the future): parsed again, though their files did not change.
    shifted = schedule.shifted()
    if media.rows or media.deleted or shifted:
        only = None  # a media file changed, or an article came due: look at every file it may concern
    files, errors = discover(Path(content_dir), only)
    errors += media.errors
    # Their media changed, or their date came: parsed and rendered again.
    rerender = references.referencing(media.changed) | shifted
    stored = stored_files(only)
    jobs = []
    stats = stats or {}
    for rel, path in files.items():
        known = None if full or rel in rerender else stored.get(rel)
        stat = stats.get(path)
        if stat is None and known:
            try:
                info = os.stat(path)
                stat = (info.st_mtime_ns, info.st_size)
            except OSError:
                pass  # gone or unreadable since discover(): parse() names the problem
        if not known or known[1:] != stat:
            jobs.append((rel, path, known[0] if known else None))
    deleted = [rel for rel in stored if rel not in files]

    images = media.variant_jobs()
    created = updated = 0
    # The workers resolve images with the media index: given to each by its setup.
    with_media = (functools.partial(use_media, media.index),)
    with import_pool(workers, len(jobs), len(images), with_media) as pool, transaction.atomic():
        resizing = Resizing(pool, images)
        writer = Writer(deleted)
        linked = references.ReferenceChecker(media.index, deleted, media.deleted)
        renamed = aliases.AliasChecker(files, deleted)
        with closing(parse_all(jobs, pool, progress, resizing, with_media)) as parsed:
            for found in parsed:
                linked.parsed(found)
                renamed.parsed(found)
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
        errors += linked.problems() + renamed.problems()
        # Inside the transaction: an image that cannot be resized fails the import like any error.
        errors += media.variant_problems(images, resizing.results())
        if errors:
            raise ContentInvalid(errors)  # rolls the transaction back: the database is as it was
        writer.flush()
        errors = series_problems() + translation_problems() + aliases.redirect_problems()
        if errors:
            raise ContentInvalid(errors)  # the rows of every series, as written: rolled back
        media.write()
        linked.write()
        renamed.write()
        if made_by != IMPORT_VERSION:
            ImportState.store(IMPORT_VERSION)

    return ImportResult(
        projects=Project.objects.count(),
        articles=Article.objects.count(),
        drafts=Article.objects.filter(draft=True).count(),
        pages=Page.objects.count(),
        created=created,
        updated=updated,
        deleted=len(deleted),
        unchanged=len(files) - created - updated,
        seconds=time.perf_counter() - started,
    )


class Writer:
    """Writes parsed files to the database in batches; the caller holds the transaction."""

    def __init__(self, deleted):
        self.translations = []
        Translation.objects.filter(
            source_path__in=[rel for rel in deleted if rules.translation_of(rel)]
        ).delete()
        StackTranslation.objects.filter(source_path__in=deleted).delete()
        deleted = [
            rel for rel in deleted if not rules.translation_of(rel) and not rules.stack_translation_of(rel)
        ]
        self.rows = {collection: [] for collection in ITEM_MODELS}
        self.scheduled = []  # ScheduledArticle rows of the articles in self.rows
        self.stats = []
        for collection in ITEM_MODELS:  # (a missing site.yaml or stack.yaml is an error)
            self.delete(collection, [slug_of(rel) for rel in deleted if rel.startswith(collection + "/")])

    def add(self, found):
        collection = found.rel.split("/")[0]
        if found.rel in SINGLETONS:
            write_singleton(found)
            return
        if rules.translation_of(found.rel):
            self.translations.append(translation_row(found))
            return
        if language := rules.stack_translation_of(found.rel):
            fields = found.fields
            StackTranslation.objects.update_or_create(
                language=language,
                defaults={
                    "current_focus": fields["currentFocus"],
                    "last_updated": fields["lastUpdated"],
                    "stack_models": fields["models"],
                    "daily_drivers": fields["dailyDrivers"],
                    **imported_state(found),
                },
            )
            return
        self.rows[collection].append(build_row(ITEM_MODELS[collection], found))
        if found.fields.get("scheduled"):
            self.scheduled.append(ScheduledArticle(slug=slug_of(found.rel), date=found.fields["date"]))
        if len(self.rows[collection]) >= BATCH:
            self.flush_rows(collection)

    def touched(self, found):
        """Same bytes, new mtime: remember the stat so the next import need not read it."""
        self.stats.append(found)

    def flush(self):
        for collection in ITEM_MODELS:
            self.flush_rows(collection)
        rows, self.translations = self.translations, []
        Translation.objects.filter(source_path__in=[row.source_path for row in rows]).delete()
        Translation.objects.bulk_create(rows, batch_size=BATCH)
        for found in self.stats:
            rows_of(found.rel).update(source_mtime_ns=found.stat[0], source_size=found.stat[1])

    def flush_rows(self, collection):
        rows, self.rows[collection] = self.rows[collection], []
        model = ITEM_MODELS[collection]
        # Replacing a changed row keeps its identity: the slug is the primary key.
        self.delete(collection, [row.slug for row in rows])
        model.objects.bulk_create(rows, batch_size=BATCH)
        Tagging.objects.bulk_create((tagging for row in rows for tagging in taggings(collection, row)), BATCH)
        if collection == "articles":
            scheduled, self.scheduled = self.scheduled, []
            ScheduledArticle.objects.bulk_create(scheduled, batch_size=BATCH)
            SeriesPart.objects.bulk_create(filter(None, map(series_part, rows)), batch_size=BATCH)

    @staticmethod
    def delete(collection, slugs):
        for start in range(0, len(slugs), BATCH):
            batch = slugs[start : start + BATCH]
            ITEM_MODELS[collection].objects.filter(slug__in=batch).delete()
            Tagging.objects.filter(kind=collection, item__in=batch).delete()
            if collection == "articles":
                ScheduledArticle.objects.filter(slug__in=batch).delete()
                SeriesPart.objects.filter(article__in=batch).delete()


def taggings(collection, row):
    """The index rows of a published item's tags: one per tag slug, spelt as the item first
    spells it. A page has none."""
    if collection == "pages" or getattr(row, "draft", False):
        return []
    tags = row.tags if collection == "articles" else row.stack
    spelt = {}
    for name in tags:
        spelt.setdefault(rules.tag_slug(name), name)
    return [
        Tagging(slug=slug, name=name, kind=collection, item=row.slug, date=row.date)
        for slug, name in spelt.items()
    ]


def series_part(row):
    """The SeriesPart of a published article in a series, or None."""
    if row.draft or not row.series:
        return None
    return SeriesPart(
        article=row.slug,
        slug=rules.tag_slug(row.series),
        name=row.series,
        order=row.series_order,
        date=row.date,
    )


def series_problems():
    """The problems of the series as written (every published part, changed or not): a series is
    ordered by `seriesOrder` when every part has one, by date when none has; some but not all is
    an error naming the files, as is one order given to two parts."""
    problems = []
    parts = SeriesPart.objects.order_by("slug", "order", "date", "article").values_list(
        "slug", "article", "order"
    )
    for _slug, group in groupby(parts, key=lambda part: part[0]):
        group = list(group)
        without = [f"articles/{article}.md" for _, article, order in group if order is None]
        if without and len(without) < len(group):
            others = ", ".join(f"articles/{article}.md" for _, article, order in group if order is not None)
            for rel in without:
                problems.append(
                    ContentError(
                        rel,
                        "seriesOrder",
                        f"the other parts of its series ({others}) have one: "
                        "give every part a seriesOrder, or none",
                    )  # fmt: skip
                )
        for order, same in groupby((part for part in group if part[2] is not None), key=lambda part: part[2]):
            same = [f"articles/{article}.md" for _, article, _ in same]
            for rel in same[1:]:
                problems.append(
                    ContentError(rel, "seriesOrder", f"{order} is also the seriesOrder of {same[0]}")
                )
    return problems


def translation_row(found):
    fields = found.fields
    slug, language = rules.translation_of(found.rel)
    return Translation(
        kind=found.rel.split("/")[0],
        slug=slug,
        language=language,
        **imported_state(found),
        title=fields["title"],
        tagline=fields.get("tagline", ""),
        description=fields["description"],
        date=fields.get("date"),
        tags=fields.get("tags"),
        draft=fields["draft"],
        scheduled=fields.get("scheduled", False),
        aliases=[
            alias if not alias.startswith("/") else rules.alias_path_stored(alias)
            for alias in fields["aliases"]
        ],
        body=fields["body"],
        body_html=fields["body_html"],
        contents=fields["contents"],
    )


def translation_problems():
    """A translation is in one of site.yaml's languages other than the default, of an original
    that exists (every translation, changed or not: site.yaml or the original may have changed)."""
    from .languages import languages

    codes = [lang.code for lang in languages()]
    problems = [
        ContentError("site.yaml", "languages", f"{code} is listed more than once")
        for code in sorted({code for code in codes if codes.count(code) > 1})
    ]
    others = set(codes[1:])
    translations = list(Translation.objects.values_list("source_path", "kind", "slug", "language"))
    # Every item's slug, read only when there are translations (a site in one language has none).
    originals = {
        kind: set(model.objects.values_list("slug", flat=True)) if translations else set()
        for kind, model in ITEM_MODELS.items()
    }

    def unlisted(language, original):
        if language == codes[0]:
            return f"{language} is the site's default language: write it in {original}"
        known = ", ".join(codes[1:]) or "none: site.yaml lists no languages"
        return f"{language} is not one of site.yaml's languages (other than the default: {known})"

    for rel, kind, slug, language in translations:
        if language not in others:
            problems.append(ContentError(rel, "language", unlisted(language, f"{kind}/{slug}.md")))
        if slug not in originals[kind]:
            message = f"a translation into {language} of {kind}/{slug}.md, which does not exist"
            problems.append(ContentError(rel, "original", message))
    for rel, language in StackTranslation.objects.values_list("source_path", "language"):
        if language not in others:
            problems.append(ContentError(rel, "language", unlisted(language, "stack.yaml")))
    return problems


def rows_of(rel):
    """The rows imported from the file `rel`."""
    if rules.translation_of(rel):
        return Translation.objects.filter(source_path=rel)
    if rules.stack_translation_of(rel):
        return StackTranslation.objects.filter(source_path=rel)
    if rel in SINGLETONS:
        return SINGLETONS[rel][0].objects.all()
    return ITEM_MODELS[rel.split("/")[0]].objects.filter(slug=slug_of(rel))


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
                "content_signals": fields["contentSignals"],
                "image_hosts": fields["imageHosts"],
                "redirects": fields["redirects"],
                "comments": fields["comments"],
                "analytics": fields["analytics"],
                "languages": fields["languages"],
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
        "body": fields["body"],
        "body_html": fields["body_html"],
        "contents": fields["contents"],
    }
    if model is Page:
        return Page(**common, draft=fields["draft"], nav=fields["nav"], order=fields["order"])
    common["date"], common["image"] = fields["date"], fields["image"]
    if model is Article:
        article = Article(**common, tags=fields["tags"], draft=fields["draft"])
        # Not columns of the article's row: its SeriesPart (series_part()).
        article.series, article.series_order = fields.get("series", ""), fields.get("seriesOrder")
        return article
    return Project(
        **common,
        tagline=fields["tagline"],
        github=fields["github"],
        status=fields["status"],
        stack=fields["stack"],
        featured=fields["featured"],
        case_study_items=fields["caseStudy"],
    )
