"""Render URLs to files, on several processes.

Each worker process renders through one Django WSGI handler it keeps (django-distill builds a new
application per request, which costs more than rendering most pages), writes straight into the
new folder, and returns only small facts about each file, so memory stays flat however large the
site is. A file whose bytes equal the previous build's is hard-linked from it, not rewritten.

Detail URLs go faster in runs: a view class with a `render_many(requests)` classmethod answers a
list of requests resolved to it with a list of rendered responses, loading their items in one
query (the project and article pages and JSON do). At 10,000 articles, one GET per detail URL
spent most of its time on the query and, for the API, on building a serializer per item. A view
with a `from_built(request)` classmethod is made from files already built (llms-full.txt from
the twins): it yields the file's pieces, bytes and the addresses of built files, and is made
last, in the build's own process (Assembly); where each file sits in it is kept for the next
build (Parts). A list's view with a `listing(request)` classmethod gives its file as a head, a
piece per item and a tail (portfolio/pieces.py): the items the previous file holds are copied
from it, and only the others rendered.
"""

import mmap
import multiprocessing
import os
import shutil
from collections import deque
from dataclasses import dataclass
from io import BytesIO
from itertools import groupby
from operator import attrgetter
from pathlib import Path

from django.conf import settings
from django.core.handlers.wsgi import WSGIHandler, WSGIRequest
from django.db import connections
from django.template import engines
from django.template.backends.jinja2 import Jinja2
from django.test.utils import override_settings
from django.urls import ResolverMatch, resolve

from portfolio.workers import worker_pool

from .plan import is_global
from .quick import layout_path, read_record


class RenderError(Exception):
    pass


@dataclass(frozen=True)
class Output:
    """Where rendered files go. `stage`: the folder this build writes; `previous`: the previous
    build's folder, if any, whose files are reused where the bytes are equal; `in_place`: the
    previous folder is updated in place afterwards, so an equal file stays where it is instead
    of being linked into the stage."""

    stage: str
    previous: str | None = None
    in_place: bool = False

    def read(self, path, staged=None):
        """A file of the new build: written by this build, else (in place) the previous one's.
        `staged`: the paths this build wrote, if known (one open instead of two)."""
        if not self.in_place or staged is None or path in staged:
            try:
                with open(os.path.join(self.stage, path), "rb") as handle:
                    return handle.read()
            except FileNotFoundError:
                if not self.in_place:
                    raise
        with open(os.path.join(self.previous, path), "rb") as handle:
            return handle.read()


@dataclass(frozen=True)
class Rendered:
    path: str
    reused: bool  # same bytes as the previous build: kept or hard-linked, not rewritten
    stat: tuple  # (size, mtime_ns) of the file as the finished build holds it, for its manifest
    layout: dict | None = None  # of a file made of pieces, for the next build (Parts)
    new_checked: bool = False  # only its new pieces were checked (Assembly)
    from_document: bool = False  # made from the document rendered with it (made_with_documents)


_handler = None
_folders = set()  # folders this process already made


def get(uri):
    """(status code, headers, body) of a GET of `uri`, through this process's handler."""
    global _handler
    if _handler is None:
        with override_settings(MIDDLEWARE=settings.EXPORT_MIDDLEWARE):
            _handler = WSGIHandler()  # loads its middleware now, from the export's stack
    answer = {}

    def start_response(status, headers, exc_info=None):
        answer["status"], answer["headers"] = int(status.split(" ", 1)[0]), headers

    response = _handler(environ(uri), start_response)
    try:
        if response.streaming:  # llms-full.txt: tens of megabytes, held once rather than twice
            body = bytearray()
            for chunk in response:
                body += chunk
        else:
            body = b"".join(response)
    finally:
        response.close()
    return answer["status"], answer["headers"], body


def environ(uri):
    return {
        "REQUEST_METHOD": "GET",
        "PATH_INFO": uri,
        "SERVER_NAME": "localhost",
        "SERVER_PORT": "80",
        "wsgi.url_scheme": "http",
        "wsgi.input": BytesIO(),
    }


def bodies(run, first):
    """(target, status code, body, data) for each target of `run`, URLs of one route (`first`:
    the first one, resolved), in order: all at once through the view's `render_many` if it has
    one, else one GET each. `data`: the document a response was rendered from, where the view
    keeps it (`response.data`, as DRF's Response does), else None."""
    render_many = getattr(getattr(first.func, "view_class", None), "render_many", None)
    if render_many is None:
        for target in run:
            status, _headers, body = get(target.uri)
            yield target, status, body, None
        return
    requests = [request_for(target, first) for target in run]
    for target, response in zip(run, render_many(requests), strict=True):
        yield target, response.status_code, response.content, getattr(response, "data", None)


def request_for(target, like):
    """A GET of `target`, resolved like `like`, a URL of the same route. Its one parameter is
    put in `like`'s place rather than resolving every URL again: resolve() tries the routes in
    order, a quarter of an API file's rendering time."""
    request = WSGIRequest(environ(target.uri))
    if len(like.captured_kwargs) == len(target.params) == 1 and not like.extra_kwargs:
        kwargs = {name: target.params[0] for name in like.captured_kwargs}
        request.resolver_match = ResolverMatch(
            like.func, like.args, kwargs, like.url_name, like.app_names, like.namespaces,
            like.route, captured_kwargs=kwargs,
        )  # fmt: skip
    else:
        request.resolver_match = resolve(target.uri)
    return request


def compile_templates():
    """Compile the Jinja2 templates once, before the workers fork, rather than in each worker."""
    for engine in engines.all():
        if isinstance(engine, Jinja2):
            for name in engine.env.list_templates():
                engine.env.get_template(name)


def place(body, path, output):
    """Write `body` to the stage, or reuse the previous build's identical file. (reused, the
    file's (size, mtime_ns)): a hard link, a copy (copy2) and a rename all keep the stat."""
    destination = os.path.join(output.stage, path)
    if output.previous:
        old = os.path.join(output.previous, path)
        try:
            stat = os.stat(old)
            if stat.st_size == len(body):
                with open(old, "rb") as handle:
                    if handle.read() == body:
                        if not output.in_place:
                            link_or_copy(old, destination)
                        return True, (stat.st_size, stat.st_mtime_ns)
        except OSError:
            pass
    make_folder_of(destination)
    with open(destination, "wb") as handle:
        handle.write(body)
    stat = os.stat(destination)
    return False, (stat.st_size, stat.st_mtime_ns)


def make_folder_of(path):
    folder = os.path.dirname(path)
    if folder not in _folders:
        os.makedirs(folder, exist_ok=True)
        _folders.add(folder)


def link_or_copy(source, destination):
    make_folder_of(destination)
    try:
        os.link(source, destination)
    except OSError:  # another file system, or no hard links there
        shutil.copy2(source, destination)


def render_range(targets, output, check, parts, made=None):
    """Render, check and place `targets`: a list of (Rendered, problems). A list file whose view
    gives its `listing` is made from its pieces (assemble_listing). `made`: the files made from
    a document as it is rendered (made_with_documents), by the document's address: they are
    rendered here too, after their document."""
    results = []
    made = made or {}
    for _route, run in groupby(targets, key=attrgetter("route")):
        run = list(run)
        first = resolve(run[0].uri)
        listing = getattr(getattr(first.func, "view_class", None), "listing", None)
        if listing is None:
            for target, status, body, data in bodies(run, first):
                results.append(finish(target, status, body, output, check))
                if target.uri in made:
                    made_target, from_document = made[target.uri]
                    body = from_document(data)
                    results.append(finish(made_target, 200, body, output, check, from_document=True))
        else:
            results += [
                assemble_listing(target, listing(request_for(target, first)), output, check, parts)
                for target in run
            ]
    return results


def finish(target, status, body, output, check, from_document=False):
    if status not in target.status_codes:
        raise RenderError(
            f"{target.uri}: status {status}, expected {' or '.join(map(str, target.status_codes))}"
        )
    problems = check(target, body) if check else []
    reused, stat = place(body, target.path, output)
    return Rendered(target.path, reused, stat, from_document=from_document), problems


def made_with_documents(targets):
    """({address of a document: (target, its view's from_document)}, the other targets): the
    targets whose view names a `document_route` (pages/twins.py: a markdown twin is its item's
    API document rewritten) are made from that route's document for the same parameters as it
    is rendered, when it is among `targets`: serializing each item again, then comparing the two
    files across the build (verify.check_twins), cost 0.07 ms an item."""
    views, made, rest = {}, {}, []
    for target in targets:
        if target.route not in views:
            views[target.route] = getattr(resolve(target.uri).func, "view_class", None)
    routes = {
        route: view.document_route for route, view in views.items() if getattr(view, "document_route", None)
    }
    if not routes:
        return made, targets
    documents = {(t.route, t.params): t.uri for t in targets if t.route in routes.values()}
    for target in targets:
        uri = documents.get((routes[target.route], target.params)) if target.route in routes else None
        if uri is None:
            rest.append(target)
        else:
            made[uri] = (target, views[target.route].from_document)
    return made, rest


# At most this many files render in the build's own process alone.
SMALL_RUN = 50


class Work(deque):
    """The chunks of targets left to render, taken from the front by the build's own process and
    from the back by its workers. Where the two ends meet (fewer than ENDING_CHUNKS a process
    left), a chunk is taken a quarter at a time, down to ENDING_PIECE files, and the rest put
    back: whole chunks of 500 files there left one process rendering for most of a second while
    the other waited (at 10,000 articles)."""

    ENDING_CHUNKS = 2
    ENDING_PIECE = 25

    def __init__(self, chunks, processes):
        super().__init__(chunks)
        self.processes = processes

    def ending(self):
        return len(self) < self.ENDING_CHUNKS * self.processes

    def take(self, front):
        chunk = self.popleft() if front else self.pop()
        if self.ending() and len(chunk) > self.ENDING_PIECE:
            cut = max(self.ENDING_PIECE, len(chunk) // 4)
            if front:
                chunk, rest = chunk[:cut], chunk[cut:]
                self.appendleft(rest)
            else:
                rest, chunk = chunk[:-cut], chunk[-cut:]
                self.append(rest)
        return chunk


# The job of a pool's workers, set before they fork so they inherit it instead of unpickling it.
# Not the targets: each task carries its own chunk, taken from either end of one queue.
_job = {}


def _render_range(targets):
    return render_range(targets, _job["output"], _job["check"], _job["parts"], _job["made"])


def from_built_views(targets):
    """{target: its view's from_built} of the targets made from other built files."""
    views = {}
    for _route, run in groupby(targets, key=attrgetter("route")):
        run = list(run)
        view_class = getattr(resolve(run[0].uri).func, "view_class", None)
        if hasattr(view_class, "from_built"):
            views.update((target, view_class.from_built) for target in run)
    return views


def assemble(target, from_built, output, paths, staged, check, parts):
    """Make `target` from the built files its view names (`paths`: {uri: path} of every file of
    the build; `staged`: those this build wrote)."""
    made = parts.assembly(target.path, output, staged)
    try:
        for piece in from_built(request_for(target, resolve(target.uri))):
            if isinstance(piece, bytes):
                made.text(piece)
            else:
                made.part(paths[piece])
        return made.finish(check and (lambda body, pieces: check(target, body, pieces)))
    finally:
        made.close()


def assemble_listing(target, listing, output, check, parts):
    """Make `target` from its view's Listing (portfolio/pieces.py): the items whose keys the
    previous file holds are copied from it, the view renders the others."""
    made = parts.assembly(target.path, output, ())
    try:
        missing = [i for i, key in enumerate(listing.keys) if key not in made.where]
        head, fresh, tail = listing.render(missing)
        made.text(head, fresh="file")
        made.items(listing.keys, iter(fresh), listing.separator)
        made.text(tail, fresh="file")
        return made.finish(check and (lambda body, pieces: check(target, body, pieces)))
    finally:
        made.close()


class Parts:
    """Where each piece of the files made of pieces sits in them, kept for the next build: the
    parts (built files) of a file made from built files, the items of a list (Listing).
    `folder`: the previous build's, whose layouts (quick.layout_path: {"key": the site's key,
    "stat": [size, mtime_ns], "parts": [[part or item key, offset, length]...]}) are read as
    its files are made again; `key`: the site's key now
    (plan.Keys.site: the code, the address, site.yaml), which an item's bytes depend on besides
    its own key; `sizes`: {path: bytes} of its files, which a part's length must match;
    `checked`: its checks still hold (the same drafts and address), so only what is new in a
    file needs checking. `made`: {path: layout} of the files made now."""

    def __init__(self, folder=None, sizes=None, checked=False, key=None):
        self.folder = folder
        self.sizes = sizes or {}
        self.checked = checked
        self.key = key
        self.made = {}

    def assembly(self, path, output, staged):
        """An Assembly of `path`, on the previous `path` where it is the file its layout describes."""
        layout = read_record(layout_path(Path(self.folder), path)) if self.folder else {}
        old, where = None, {}
        if layout and layout.get("key") == self.key:
            try:
                old = os.open(os.path.join(self.folder, path), os.O_RDONLY)
                stat = os.fstat(old)
                if stat.st_size and [stat.st_size, stat.st_mtime_ns] == layout.get("stat"):
                    where = {part: (offset, length) for part, offset, length in layout["parts"]}
            except (OSError, KeyError, TypeError, ValueError):  # gone, or not a layout this code wrote
                pass
            if not where and old is not None:
                os.close(old)
                old = None
        return Assembly(self, path, output, staged, old, where)


class Assembly:
    """One file made of pieces, literal bytes, built files (parts) and a list's items, written as
    they come. Where the previous build's file holds a run of pieces unchanged, at the places
    recorded, the run is copied from it in the kernel (copy_file_range) instead: llms-full.txt
    is 35 MB at 10,000 articles, and an edit changes one twin of it, which reading and writing
    all of it again took a quarter of a second.
    What is new is checked alone when the previous file's checks still hold (Parts.checked),
    unless it is what frames a list's items (`fresh="file"`): the whole file is checked then."""

    FLUSH = 1 << 20  # bytes of new pieces held before they are written

    def __init__(self, parts, path, output, staged, old, where):
        self.parts, self.path, self.output, self.staged = parts, path, output, staged
        self.old = old  # the previous file's descriptor, or None
        self.view = mmap.mmap(old, 0, access=mmap.ACCESS_READ) if old is not None else None
        self.where = where  # {part or item key: (offset, length)} in the previous file
        self.expect = 0 if old is not None else None  # where the previous file would go on
        self.copy = None  # [start, end] of the previous file, to copy next
        self.new, self.new_size = [], 0  # new pieces, to write next
        self.fresh = []  # every new piece, for the checks
        self.whole = False  # a new piece that is checked only in its file
        self.size, self.layout, self.out = 0, [], None

    def text(self, data, fresh="piece"):
        """Literal bytes; if new, checked as a `piece`, with the whole `file`, or not (None:
        what the code alone decides, a list's separator)."""
        if self.expect is not None and self.view[self.expect : self.expect + len(data)] == data:
            self._carry(self.expect, len(data))
        else:
            self._add(data, None, fresh == "piece")
            self.whole = self.whole or fresh == "file"
        self.size += len(data)

    def part(self, path):
        """A built file, from the previous file where it is there as the previous build left it."""
        offset, length = self.where.get(path, (0, None))
        if length is not None and length == self.parts.sizes.get(path) and path not in self.staged:
            self._carry(offset, length)
        else:
            data = self.output.read(path, self.staged)
            self._add(data, None if length is None else offset + length)
            length = len(data)
        self.layout.append([path, self.size, length])
        self.size += length

    def items(self, keys, fresh, separator):
        """A list's items, `separator` between two: each the previous file's item of the same
        key, else the next of `fresh`. 10,000 at a time: a run the previous file holds in the
        same order only lengthens the copy."""
        where, layout, view = self.where, self.layout, self.view
        step = len(separator)
        for i, key in enumerate(keys):
            if i and step:
                copy, expect = self.copy, self.expect
                if copy and copy[1] == expect and not self.new and view[expect : expect + step] == separator:
                    copy[1] = self.expect = expect + step
                    self.size += step
                else:
                    self.text(separator, fresh=None)
            found = where.get(key)
            if found is None:
                data = next(fresh)
                self._add(data, None)
                length = len(data)
            else:
                offset, length = found
                copy = self.copy
                if copy and copy[1] == offset and not self.new:
                    copy[1] = self.expect = offset + length
                else:
                    self._carry(offset, length)
            layout.append([key, self.size, length])
            self.size += length

    def _carry(self, start, length):
        if self.new:
            self._write()
        if self.copy and self.copy[1] == start:
            self.copy[1] += length
        else:
            self._copy()
            self.copy = [start, start + length]
        self.expect = start + length

    def _add(self, data, expect, fresh=True):
        self._copy()
        self.new.append(data)
        self.new_size += len(data)
        if fresh and self.view is not None and self.parts.checked:
            self.fresh.append(data)
        if self.new_size >= self.FLUSH:
            self._write()
        self.expect = expect

    def _open(self):
        if self.out is None:
            destination = os.path.join(self.output.stage, self.path)
            make_folder_of(destination)
            self.out = os.open(destination, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o666)
        return self.out

    def _write(self):
        data, self.new, self.new_size = b"".join(self.new), [], 0
        view = memoryview(data)
        while view:
            view = view[os.write(self._open(), view) :]

    def _copy(self):
        if not self.copy:
            return
        (start, end), self.copy = self.copy, None
        out = self._open()
        while start < end:
            try:
                copied = os.copy_file_range(self.old, out, end - start, start)
            except (AttributeError, OSError):  # not Linux, or not between these file systems
                copied = 0
            if not copied:
                self.new.append(self.view[start:end])
                self._write()
                copied = end - start
            start += copied

    def finish(self, check):
        """(Rendered, problems) of the file, now complete."""
        if self.view is not None and self.out is None and self.copy == [0, len(self.view)] == [0, self.size]:
            reused = True  # the previous file, unchanged
            stat = os.fstat(self.old)
            if not self.output.in_place:
                old = os.path.join(self.parts.folder, self.path)
                link_or_copy(old, os.path.join(self.output.stage, self.path))
        else:
            reused = False
            self._copy()
            self._write()
            stat = os.fstat(self._open())
        # The rest of the previous file passed the same checks when it was built.
        new_checked = check is not None and self.view is not None and self.parts.checked and not self.whole
        if check is None:
            problems = []
        elif new_checked:
            problems = check(None, self.fresh)
        else:
            problems = check(self.output.read(self.path), None)
        layout = {"key": self.parts.key, "stat": [stat.st_size, stat.st_mtime_ns], "parts": self.layout}
        return Rendered(self.path, reused, (stat.st_size, stat.st_mtime_ns), layout, new_checked), problems

    def close(self):
        if self.view is not None:
            self.view.close()
        for fd in (self.old, self.out):
            if fd is not None:
                os.close(fd)


def render_all(
    targets, output, check, workers, progress, sizes=None, paths=None, parts=None, pages_done=None
):
    """Yield (Rendered, problems) for every target; on `workers` processes when worth it.
    `sizes`: {path: bytes} of the previous build's files, if any; `paths`: {uri: path} of every
    file of the build and `parts` (Parts), for the targets made from other built files;
    `pages_done()`, if given, is called once every other file is rendered (and yielded), before
    those are made: the workers have stopped, and a core is free."""
    parts = parts or Parts()
    last = from_built_views(targets)
    made, targets = made_with_documents([target for target in targets if target not in last])
    total = len(targets) + len(made) + len(last)
    staged = set()
    rendered_pages = render_pages(targets, output, check, workers, progress, sizes or {}, total, parts, made)
    for rendered, problems in rendered_pages:
        if not rendered.reused:
            staged.add(rendered.path)
        yield rendered, problems
    if pages_done:
        pages_done()
    for target, from_built in last.items():
        yield assemble(target, from_built, output, paths, staged, check, parts)
    if last:
        progress(total, total)


def render_pages(targets, output, check, workers, progress, sizes, total, parts, made):
    count = len(targets)
    # The global pages (lists, sitemaps, llms.txt: up to half a second each at 10,000 articles)
    # first, largest first (by the previous build's file); routes stay in runs (a stable sort).
    targets = sorted(targets, key=lambda t: (0, -sizes.get(t.path, 0)) if is_global(t) else (1, 0))
    first_detail = next((i for i, t in enumerate(targets) if not is_global(t)), count)
    # Detail pages go in chunks, small enough to hold their items in memory.
    size = max(1, min(500, (count - first_detail) // (workers * 8)))
    chunks = [[target] for target in targets[:first_detail]]
    work = Work(chunks + [targets[i : i + size] for i in range(first_detail, count, size)], workers)
    # An edit (an item's files, and the lists, remade from their previous bytes) renders here:
    # forking the pool and compiling every template first would cost more than the rendering.
    small = count <= SMALL_RUN
    if small or workers <= 1 or len(work) < 2 or "fork" not in multiprocessing.get_all_start_methods():
        done = 0
        for chunk in work:
            for result in render_range(chunk, output, check, parts, made):
                done += 1
                yield result
            progress(done, total)
        return
    # Children open their own database connections: a connection must not cross a fork.
    connections.close_all()
    compile_templates()
    _job.update(output=output, check=check, parts=parts, made=made)
    # This process renders too, with one worker fewer: it takes work from the front of the
    # queue (the lists first), the workers from the back (detail pages first). In a cold build
    # the workers never render a list: a process that renders thousands of items keeps most of
    # that memory, and a forked process ends up with its own copy of most memory it touches, so
    # one process fewer is a third less memory at 10,000 articles, both cores still busy. In an
    # edit of a title, mostly lists, the two share them: the workers are given at least as many
    # bytes (of the previous build's files, a measure of the work) as this process takes next,
    # else they would finish their few small files and wait while it renders the lists. Near the
    # end, fewer chunks are queued ahead for the workers (Work).
    done = 0

    def weight(chunk):
        return sum(sizes.get(target.path, 0) for target in chunk)

    def finished(future):
        nonlocal done
        results = future.result()
        done += len(results)
        progress(done, total)
        return results

    try:
        with worker_pool(workers - 1) as pool:
            queued = deque()  # (future, weight)
            while work or queued:
                ahead = (2 if work.ending() else 4) * (workers - 1)
                while work and (  # the workers never wait
                    len(queued) < ahead
                    or sum(w for future, w in queued if not future.done()) < weight(work[0]) * (workers - 1)
                ):
                    chunk = work.take(front=False)
                    queued.append((pool.submit(_render_range, chunk), weight(chunk)))
                while queued and queued[0][0].done():
                    yield from finished(queued.popleft()[0])  # a future holds its result: let it go
                if not work:
                    if queued:
                        yield from finished(queued.popleft()[0])
                    continue
                for result in render_range(work.take(front=True), output, check, parts, made):
                    done += 1
                    yield result
                progress(done, total)
    finally:
        _job.clear()
