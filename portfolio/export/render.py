"""Step 2 of a build: render every URL the plan says to render, into the stage folder.

Each URL is one GET through Django's own request handling (a WSGIHandler with the project's whole
MIDDLEWARE, the same views and templates `runserver` answers with), so the authoring server, the
preview and the built file answer the same bytes by construction. django-distill renders each URL
through a new handler and writes the files itself; here one handler per process renders many
(creating a handler costs more than rendering most pages), on the worker pool when there is
enough to render, and a file whose bytes equal the previous build's is linked or left in place
rather than written again, so its stat shows it did not change.
"""

import os
import shutil
from io import BytesIO

from django.core.handlers.wsgi import WSGIHandler

from portfolio.workers import map_chunks

from .plan import is_global
from .state import BuildFailed

# Fewer files than this render in the build's own process: forking the workers costs more.
SMALL = 50
# Detail files go to the workers in chunks of at most this many.
CHUNK = 200

_handler = None


def get(uri):
    """(status code, body) of a GET of `uri` through this process's handler."""
    global _handler
    if _handler is None:
        _handler = WSGIHandler()
    answer = {}

    def start_response(status, headers, exc_info=None):
        answer["status"] = int(status.split(" ", 1)[0])

    environ = {
        "REQUEST_METHOD": "GET",
        "PATH_INFO": uri,
        "SERVER_NAME": "localhost",
        "SERVER_PORT": "80",
        "wsgi.url_scheme": "http",
        "wsgi.input": BytesIO(),
    }
    response = _handler(environ, start_response)
    try:
        body = b"".join(response)
    finally:
        response.close()
    return answer["status"], body


def render(build):
    """Render `build.to_render` and the host files into a stage folder beside the output."""
    previous = build.previous.get("files", {})
    # An edit renders a few files: they go into the previous folder afterwards (publish.py).
    # More, and the stage becomes the whole new folder, the carried files linked into it.
    build.in_place = bool(previous) and len(build.to_render) <= IN_PLACE_MAX
    if not build.in_place:
        for target in build.carried:
            link_or_copy(os.path.join(build.out_dir, target.path), os.path.join(build.stage, target.path))
    _job["place"] = (str(build.stage), str(build.out_dir) if previous else None, build.in_place)
    for path, text in build.host_files.items():
        record(build, path, place(text.encode(), path, *_job["place"]))
    # The global files first (lists, sitemaps, llms-full.txt: up to half a second each at
    # 10,000 articles), largest first, so no worker is left with one at the end.
    sizes = {path: entry[1] for path, entry in previous.items()}
    targets = sorted(build.to_render, key=lambda t: (not is_global(t), -sizes.get(t.path, 0)))
    chunks = [[t] for t in targets if is_global(t)]
    details = [t for t in targets if not is_global(t)]
    size = max(1, min(CHUNK, len(details) // (build.workers * 8) or 1))
    chunks += [details[i : i + size] for i in range(0, len(details), size)]
    progress = build.progress("rendering", len(targets))
    done = 0
    try:
        for results in map_chunks(render_chunk, chunks, build.workers, parallel=len(targets) >= SMALL):
            for path, stat, new in results:
                record(build, path, (stat, new))
            done += len(results)
            progress(done)
    finally:
        _job.clear()


# At most this many files to render and the previous folder is updated in place (publish.py).
IN_PLACE_MAX = 1000


def record(build, path, placed):
    stat, new = placed
    build.rendered[path] = stat
    if new:
        build.written.add(path)


# Where rendered files go, set before the workers fork: (stage, previous folder, in place).
_job = {}


def render_chunk(targets):
    """[(path, [size, mtime_ns], bytes are new)] of each target, rendered and placed."""
    results = []
    for target in targets:
        status, body = get(target.uri)
        if status not in target.status_codes:
            expected = " or ".join(map(str, target.status_codes))
            raise BuildFailed([f"{target.uri}: status {status}, expected {expected}"])
        stat, new = place(body, target.path, *_job["place"])
        results.append((target.path, stat, new))
    return results


def place(body, path, stage, previous, in_place):
    """Write `body` to the stage, or keep the previous build's identical file: (its [size,
    mtime_ns], whether its bytes are new). A link, a copy and a rename all keep the stat."""
    if previous:
        old = os.path.join(previous, path)
        try:
            stat = os.stat(old)
            if stat.st_size == len(body):
                with open(old, "rb") as handle:
                    same = handle.read() == body
                if same:
                    if not in_place:
                        link_or_copy(old, os.path.join(stage, path))
                    return [stat.st_size, stat.st_mtime_ns], False
        except OSError:
            pass
    destination = os.path.join(stage, path)
    os.makedirs(os.path.dirname(destination), exist_ok=True)
    with open(destination, "wb") as handle:
        handle.write(body)
    stat = os.stat(destination)
    return [stat.st_size, stat.st_mtime_ns], True


def link_or_copy(source, destination):
    os.makedirs(os.path.dirname(destination), exist_ok=True)
    try:
        os.link(source, destination)
    except OSError:  # another file system, or no hard links there
        shutil.copy2(source, destination)
