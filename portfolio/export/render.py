"""Step 2 of a build: render every URL the plan says to render, into the stage folder.

Each URL is one GET through Django's own request handling (a WSGIHandler with the project's whole
MIDDLEWARE, the same views and templates `runserver` answers with), so the authoring server, the
preview and the built file answer the same bytes by construction. django-distill renders each URL
through a new handler and writes the files itself; here one handler per process renders many
(creating a handler costs more than rendering most pages), on the worker pool when there is
enough to render, and a file whose bytes equal the previous build's is linked or left in place
rather than written again, so its stat shows it did not change.

The one thing batched: a run of one route's detail URLs whose view accepts a batch
(portfolio/batch.py: a documented hook on the view class, its get_object() a pure lookup) loads
its items in one query of the view's own queryset, and their documents with one many=True
serializer of the view's; each GET carries its item and document to its view. Everything else
about the request is as for any GET.
"""

import functools
import os
from contextlib import closing
from io import BytesIO
from itertools import groupby
from operator import attrgetter
from urllib.parse import unquote, unquote_to_bytes

from django.core.handlers.wsgi import WSGIHandler, WSGIRequest
from django.urls import resolve

from portfolio.batch import BATCHED, Batched
from portfolio.content.models import Site
from portfolio.workers import map_chunks

from .placing import Output, link_or_copy, place, record
from .plan import is_global
from .state import BuildFailed

# From this many files, or this many bytes of them in the previous build, the render goes to the
# worker pool.
SMALL = 50
LARGE = 2_000_000
# Detail files go to the workers in chunks of at most this many.
CHUNK = 200


@functools.cache
def handler():
    """This process's handler: making one loads the middleware, which costs more than most pages."""
    return WSGIHandler()


def environ(uri, **extra):
    return {
        "REQUEST_METHOD": "GET",
        # As a WSGI server passes it: percent-decoded, the UTF-8 bytes as latin-1 (a tag's
        # address is /tags/%C3%BCn%C3%AF, its route matches /tags/ünï).
        "PATH_INFO": unquote_to_bytes(uri).decode("latin-1"),
        "SERVER_NAME": "localhost",
        "SERVER_PORT": "80",
        "wsgi.url_scheme": "http",
        "wsgi.input": BytesIO(),
        **extra,
    }


def get(uri, batched=None):
    """(status code, body) of a GET of `uri` through this process's handler; `batched`: the
    (item, document) its view is to answer with (prepared())."""
    answer = {}

    def start_response(status, headers, exc_info=None):
        answer["status"] = int(status.split(" ", 1)[0])

    response = handler()(environ(uri, **({BATCHED: batched} if batched else {})), start_response)
    try:
        body = b"".join(response)
    finally:
        response.close()
    return answer["status"], body


def prepared(run):
    """{URL: (its item, its document or None)} of a run of one route's URLs whose view accepts a
    batch (portfolio.batch.Batched) by the URL's one argument: the run's items loaded in one query
    of the view's own queryset, their documents made by one many=True serializer of the view's
    when it serializes. {} for other views."""
    match = resolve(unquote(run[0].uri))
    view_class = getattr(match.func, "view_class", None)
    if len(run) < 2 or len(match.kwargs) != 1 or not (view_class and issubclass(view_class, Batched)):
        return {}
    [name] = match.kwargs
    view = view_class(**match.func.view_initkwargs)
    view.setup(WSGIRequest(environ(run[0].uri)), **match.kwargs)
    items = view.get_queryset().in_bulk([target.params[0] for target in run], field_name=name)
    found = {target.uri: items[target.params[0]] for target in run if target.params[0] in items}
    documents = [None] * len(found)
    if view_class.serializes():
        documents = view.get_serializer(list(found.values()), many=True).data
    return {uri: (item, document) for (uri, item), document in zip(found.items(), documents, strict=True)}


def render(state):
    """Render `state.to_render` and the host files into a stage folder beside the output."""
    previous = state.previous.get("files", {})
    # An edit renders a few files: they go into the previous folder afterwards (publish.py).
    # More, and the stage becomes the whole new folder, the carried files linked into it.
    state.in_place = bool(previous) and len(state.to_render) <= IN_PLACE_MAX
    if not state.in_place:
        for target in state.carried:
            link_or_copy(os.path.join(state.out_dir, target.path), os.path.join(state.stage, target.path))
    output = Output(str(state.stage), str(state.out_dir) if previous else None, state.in_place)
    for path, text in state.host_files.items():
        record(state, path, place(text.encode(), path, output))
    # The global files first (lists, sitemaps, llms-full.txt: up to half a second each at
    # 10,000 articles), largest first, so no worker is left with one at the end.
    sizes = {path: entry[1] for path, entry in previous.items()}
    targets = sorted(state.to_render, key=lambda t: (not is_global(t), -sizes.get(t.path, 0)))
    chunks = [[t] for t in targets if is_global(t)]
    details = [t for t in targets if not is_global(t)]
    size = max(1, min(CHUNK, len(details) // (state.workers * 8) or 1))
    chunks += [details[i : i + size] for i in range(0, len(details), size)]
    progress = state.progress("rendering", len(targets))
    done = 0
    # An edit renders here (forking the workers costs more than a few pages), unless what it
    # renders was large last time (the lists, llms-full.txt: megabytes at 10,000 articles).
    parallel = len(targets) >= SMALL or sum(sizes.get(t.path, 0) for t in targets) >= LARGE
    # The workers render with the build cache's identity, as this process does.
    setup = (functools.partial(Site.start_build_cache, Site.load()),)
    rendered = map_chunks(render_chunk, chunks, state.workers, output, parallel=parallel, setup=setup)
    with closing(rendered):  # a signal in this loop stops the pool now (workers.map_chunks)
        for results in rendered:
            for path, stat, new in results:
                record(state, path, (stat, new))
            done += len(results)
            progress(done)


# At most this many files to render and the previous folder is updated in place (publish.py).
IN_PLACE_MAX = 1000


def render_chunk(output, targets):
    """[(path, [size, mtime_ns], bytes are new)] of each target, rendered and placed."""
    results = []
    views = {}
    for _route, run in groupby(targets, key=attrgetter("route")):
        views.update(prepared(list(run)))
    for target in targets:
        status, body = get(target.uri, views.get(target.uri))
        if status not in target.status_codes:
            expected = " or ".join(map(str, target.status_codes))
            raise BuildFailed([f"{target.uri}: status {status}, expected {expected}"])
        stat, new = place(body, target.path, output)
        results.append((target.path, stat, new))
    return results
