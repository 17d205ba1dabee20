"""Render URLs to files, on several processes.

Each worker process renders through one Django WSGI handler it keeps (django-distill builds a new
application per request, which costs more than rendering most pages), writes straight into the
new folder, and returns only small facts about each file, so memory stays flat however large the
site is. A file whose bytes equal the previous build's is hard-linked from it, not rewritten.

Detail URLs go faster in runs: a view class with a `render_many(requests)` classmethod answers a
list of requests resolved to it with a list of rendered responses, loading their items in one
query (the project and article pages and JSON do). At 10,000 articles, one GET per detail URL
spent most of its time on the query and, for the API, on building a serializer per item. A view
with a `from_built(request, read)` classmethod is made from files already built (llms-full.txt
from the twins): it renders last, in the build's own process, and where each file sits in it
is kept for the next build (Parts).
"""

import multiprocessing
import os
import shutil
from collections import deque
from dataclasses import dataclass
from io import BytesIO
from itertools import groupby
from operator import attrgetter

from django.conf import settings
from django.core.handlers.wsgi import WSGIHandler, WSGIRequest
from django.db import connections
from django.template import engines
from django.template.backends.jinja2 import Jinja2
from django.test.utils import override_settings
from django.urls import ResolverMatch, resolve

from portfolio.workers import worker_pool

from .plan import is_global


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


def bodies(targets):
    """(target, status code, body) for each of `targets`, in order: runs of URLs whose view
    renders many at once go to its `render_many`, the others are one GET each."""
    for _route, run in groupby(targets, key=attrgetter("route")):
        run = list(run)
        first = resolve(run[0].uri)
        render_many = getattr(getattr(first.func, "view_class", None), "render_many", None)
        if render_many is None:
            for target in run:
                status, _headers, body = get(target.uri)
                yield target, status, body
            continue
        requests = [request_for(target, first) for target in run]
        for target, response in zip(run, render_many(requests), strict=True):
            yield target, response.status_code, response.content


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


def render_range(targets, output, check):
    """Render, check and place `targets`: a list of (Rendered, problems)."""
    return [finish(*answer, output, check) for answer in bodies(targets)]


def finish(target, status, body, output, check):
    if status not in target.status_codes:
        raise RenderError(
            f"{target.uri}: status {status}, expected {' or '.join(map(str, target.status_codes))}"
        )
    problems = check(target, body) if check else []
    return Rendered(target.path, *place(body, target.path, output)), problems


# At most one global file and this many detail files render in the build's own process.
SMALL_RUN = 50

# The job of a pool's workers, set before they fork so they inherit it instead of unpickling it.
# Not the targets: each task carries its own chunk, taken from either end of one queue.
_job = {}


def _render_range(targets):
    return render_range(targets, _job["output"], _job["check"])


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
    """Render `target` from the built files (`paths`: {uri: path} of every file of the build;
    `staged`: those this build wrote; `parts`: where they sat in the previous build's file)."""
    request = request_for(target, resolve(target.uri))
    read_part = parts.reader(target.path, lambda path: output.read(path, staged), staged)
    last = []  # the part read last: (path, bytes)

    def read(uri):
        last[:] = [(paths[uri], read_part(paths[uri]))]
        return last[0][1]

    response = from_built(request, read)
    body = bytearray()  # tens of megabytes: not copied into bytes
    layout = []
    for chunk in response:
        if last and chunk.endswith(last[0][1]):
            path, data = last.pop()  # the chunk ends with the part
            layout.append([path, len(body) + len(chunk) - len(data), len(data)])
        body += chunk
    rendered, problems = finish(target, response.status_code, body, output, check)
    parts.made[target.path] = {"stat": list(rendered.stat), "parts": layout}
    return rendered, problems


class Parts:
    """Where each part (a built file) of the files made from built files sits in them, kept for
    the next build, which slices a part it did not write again from the previous file instead
    of reading its file: llms-full.txt is every twin, and opening 10,000 of them was 0.15 s of an
    edit. `previous`: {path: {"stat": [size, mtime_ns], "parts": [[part, offset, length]...]}}
    as the last build left it; `folder`: that build's; `sizes`: {path: bytes} of its files, which
    a part's length must match."""

    def __init__(self, previous=None, folder=None, sizes=None):
        self.previous = previous or {}
        self.folder = folder
        self.sizes = sizes or {}
        self.made = {}

    def reader(self, path, read, staged):
        """read(part) for remaking `path`, from the previous `path` where it holds the part as is."""
        layout, old = self.previous.get(path), None
        if isinstance(layout, dict) and self.folder:
            try:
                with open(os.path.join(self.folder, path), "rb") as handle:
                    stat = os.fstat(handle.fileno())
                    if [stat.st_size, stat.st_mtime_ns] == layout.get("stat"):  # the file it describes
                        old = memoryview(handle.read())
            except OSError:
                pass
        try:
            where = {part: (offset, length) for part, offset, length in layout["parts"]} if old else {}
        except (KeyError, TypeError, ValueError):  # not a layout this code wrote
            where = {}

        def read_part(part):
            offset, length = where.get(part, (0, None))
            if length is not None and length == self.sizes.get(part) and part not in staged:
                return old[offset : offset + length].tobytes()
            return read(part)

        return read_part

    def kept(self, carried):
        """What to keep for the next build: the layouts made now, and those of carried files."""
        return {**{path: self.previous[path] for path in carried if path in self.previous}, **self.made}


def render_all(targets, output, check, workers, progress, sizes=None, paths=None, parts=None):
    """Yield (Rendered, problems) for every target; on `workers` processes when worth it.
    `sizes`: {path: bytes} of the previous build's files, if any; `paths`: {uri: path} of every
    file of the build and `parts` (Parts), for the targets made from other built files."""
    parts = parts or Parts()
    last = from_built_views(targets)
    targets = [target for target in targets if target not in last]
    total = len(targets) + len(last)
    staged = set()
    for rendered, problems in render_pages(targets, output, check, workers, progress, sizes or {}, total):
        if not rendered.reused:
            staged.add(rendered.path)
        yield rendered, problems
    for target, from_built in last.items():
        yield assemble(target, from_built, output, paths, staged, check, parts)
    if last:
        progress(total, total)


def render_pages(targets, output, check, workers, progress, sizes, total):
    count = len(targets)
    # The global pages (lists, sitemaps, llms.txt: up to half a second each at 10,000 articles)
    # first, largest first (by the previous build's file); routes stay in runs (a stable sort).
    targets = sorted(targets, key=lambda t: (0, -sizes.get(t.path, 0)) if is_global(t) else (1, 0))
    first_detail = next((i for i, t in enumerate(targets) if not is_global(t)), count)
    # Detail pages go in chunks, small enough to hold their items in memory.
    size = max(1, min(500, (count - first_detail) // (workers * 8)))
    work = deque([[target] for target in targets[:first_detail]])
    work += [targets[i : i + size] for i in range(first_detail, count, size)]
    # A small edit (a body: the item's files) renders here: forking the pool and compiling every
    # template first would cost more than the rendering.
    small = first_detail <= 1 and count - first_detail <= SMALL_RUN
    if small or workers <= 1 or len(work) < 2 or "fork" not in multiprocessing.get_all_start_methods():
        done = 0
        for chunk in work:
            for result in render_range(chunk, output, check):
                done += 1
                yield result
            progress(done, total)
        return
    # Children open their own database connections: a connection must not cross a fork.
    connections.close_all()
    compile_templates()
    _job.update(output=output, check=check)
    # This process renders too, with one worker fewer: it takes work from the front of the
    # queue (the lists first), the workers from the back (detail pages first). In a cold build
    # the workers never render a list: a process that renders thousands of items keeps most of
    # that memory, and a forked process ends up with its own copy of most memory it touches, so
    # one process fewer is a third less memory at 10,000 articles, both cores still busy. In an
    # edit of a title, mostly lists, the two share them: the workers are given at least as many
    # bytes (of the previous build's files, a measure of the work) as this process takes next,
    # else they would finish their few small files and wait while it renders the lists.
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
                while work and (  # the workers never wait
                    len(queued) < 4 * (workers - 1)
                    or sum(w for future, w in queued if not future.done()) < weight(work[0]) * (workers - 1)
                ):
                    chunk = work.pop()
                    queued.append((pool.submit(_render_range, chunk), weight(chunk)))
                while queued and queued[0][0].done():
                    yield from finished(queued.popleft()[0])  # a future holds its result: let it go
                if not work:
                    if queued:
                        yield from finished(queued.popleft()[0])
                    continue
                for result in render_range(work.popleft(), output, check):
                    done += 1
                    yield result
                progress(done, total)
    finally:
        _job.clear()
