"""Step 3 of a build, the search index, made between render and verify: Pagefind (its PyPI
package, `pagefind[bin]`) over the published pages worth finding, written into the stage's
`pagefind/` like any new file.

What is indexed: the page of each project and published article, the stack page, the
developers page and each published standalone page (ROUTES, SITE_ROUTES), each page's
`data-pagefind-body` element as the render step wrote it. A build never renders a draft, so no
draft is ever indexed (verify.py checks the index's fragments too). Not the home page, the lists
or their later pages: they repeat the items.

Pagefind is not incremental: it indexes what it is given, whole (10,000 pages at once took over a
gigabyte). So the index is cut into bundles, each a Pagefind index of its own: `pagefind/site/`
(the stack, developers and standalone pages, with Pagefind's script and WebAssembly, which the
browser loads from the first bundle) and `pagefind/0/` to `pagefind/<n-1>/`, each holding the
item pages whose path hashes to it, n doubling as the site grows past PAGES_PER_BUNDLE pages a
bundle, up to MAX_BUNDLES.
`pagefind/bundles.json` lists them; pages/static/pages/search.js merges them in the browser
(Pagefind's mergeIndex).

A bundle's key is a hash of the code and of what its pages show that Pagefind indexes: an item
bundle's, each page's key of its own item (plan.py's `own`: an article's page also links the
articles around it, by title, but that pager is excluded from the index); the first bundle's, its
pages' files as this build has them (size and mtime: a page rendered again with the same bytes
keeps its file, and its stat). A bundle whose key is the previous build's, its files as that build
left them, is carried over; the others are indexed again, up to one Pagefind process per worker
at a time. So an edit re-indexes the bundle of the page it changed, a title edit too; the lists it
re-renders are not indexed.

Pagefind's command (the binary of `pagefind[bin]`) indexes each bundle from a folder of hard
links to its pages and writes into a folder beside the stage; the files the browser needs are then
placed into the stage as the render places pages (placing.py): one whose bytes equal the previous build's file
(most of a re-indexed bundle's fragments) is kept, not written again. Not its Python API: in
1.5.2 that waits 0.1 s between the answers it reads (one request per page would take minutes at
10,000 pages), and its service can acknowledge the written index while files are still being
written, then be stopped: truncated files under load (Pagefind #1272, fixed after 1.5.2). The
command exits once its files are written.
"""

import hashlib
import json
import os
import re
import shutil
import subprocess
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from pagefind.service import get_executable

from portfolio.interrupts import signals_held

from .placing import Output, link_or_copy, place, record
from .plan import hash_of
from .state import BuildFailed

FOLDER = "pagefind"
LIST = f"{FOLDER}/bundles.json"
# The item pages, cut into bundles by a hash of their path, and the pages of the first bundle.
ROUTES = {"pages:project", "pages:article"}
# The other languages' pages too (pages/languages.py): Pagefind indexes each page under its
# <html lang>, and /<lang>/search, in that language, searches that language's index.
SITE_ROUTES = {"pages:stack", "pages:developers", "pages:page", "pages:lang-project", "pages:lang-article",
               "pages:lang-page", "pages:lang-stack"}  # fmt: skip
SITE = "site"
# At most this many item pages a bundle (half as many, or more, once there are several), until
# there are MAX_BUNDLES; past that the bundles grow. An edit re-indexes its page's bundle, so
# smaller bundles make edits cheaper; but the browser fetches two small files per bundle when a
# search starts, and merges every bundle's part of the index for the words searched, so more
# bundles make a search slower.
PAGES_PER_BUNDLE = 250
MAX_BUNDLES = 32
# What Pagefind leaves out of a page's data-pagefind-body (the link back to the list, the date
# line, the buttons, the headings' "#" anchors, the pager): excerpts show the text.
# The pager names the articles around it: indexed, a search for one title would find three pages.
EXCLUDE = [".breadcrumb", ".page-header .meta", ".actions", ".headerlink", ".pager"]
# What the browser needs of Pagefind's output: each bundle's index, and the first bundle's script,
# worker and WebAssembly (a merged bundle is searched with the first one's). Not its UI kits.
INDEX_FILES = re.compile(r"pagefind-entry\.json|pagefind\.[\w-]+\.pf_meta|(?:index|fragment|filter)/[^/]+")
RUNTIME_FILES = re.compile(r"pagefind\.js|pagefind-worker\.js|wasm\.[\w-]+\.pagefind")


def bundle_count(pages):
    """How many bundles `pages` item pages are cut into: a power of two, so that it changes (and
    every bundle with it) only when the site doubles, and at most MAX_BUNDLES."""
    count = 1
    while pages > count * PAGES_PER_BUNDLE and count < MAX_BUNDLES:
        count *= 2
    return count


def bundle_of(path, count):
    return str(int.from_bytes(hashlib.blake2b(path.encode(), digest_size=8).digest(), "big") % count)


def bundles(targets):
    """{bundle: [page path]}: the first bundle's pages, then the item bundles in order."""
    items = sorted(target.path for target in targets if target.route in ROUTES)
    count = bundle_count(len(items))
    numbered = {}
    for path in items:
        numbered.setdefault(bundle_of(path, count), []).append(path)
    site = sorted(target.path for target in targets if target.route in SITE_ROUTES)
    return {SITE: site, **dict(sorted(numbered.items(), key=lambda item: int(item[0])))}


def index(state):
    """Write the search index of `state` into its stage: carry over the bundles whose pages did
    not change, index the others."""
    previous = state.previous.get("files", {})
    previous_keys = state.previous.get("search", {})
    previous_files = {}  # {bundle: [path]} of the previous build's index
    for path in previous:
        parts = path.split("/", 2)
        if parts[0] == FOLDER and len(parts) == 3:
            previous_files.setdefault(parts[1], []).append(path)
    output = Output(str(state.stage), str(state.out_dir) if previous else None, state.in_place)
    found = bundles(state.targets)
    item_of = {target.path: target.depends for target in state.targets if target.route in ROUTES}
    to_index = {}
    for bundle, pages in found.items():
        if bundle == SITE:
            shown = [(path, *(state.rendered.get(path) or previous[path][1:])) for path in pages]
        else:
            shown = [(path, state.own_keys[item_of[path]]) for path in pages]
        key = state.search_keys[bundle] = hash_of(state.code, bundle, shown)
        old = previous_files.get(bundle, [])
        if previous_keys.get(bundle) == key and old and not state.altered.intersection(old):
            for path in old:
                state.search_files[path] = key
                if not state.in_place:
                    link_or_copy(os.path.join(state.out_dir, path), os.path.join(state.stage, path))
        else:
            to_index[bundle] = pages
    if to_index:
        write_bundles(state, to_index, output)
    state.search_indexed = len(to_index)
    body = json.dumps({"bundles": [f"/{FOLDER}/{bundle}/" for bundle in found]}).encode()
    record(state, LIST, place(body, LIST, output))
    state.search_files[LIST] = hash_of(body)


def write_bundles(state, to_index, output):
    """Index each bundle of `to_index` ({bundle: [page path]}) and place the files it needs."""
    work = Path(tempfile.mkdtemp(prefix=f"{state.stage.name}-search-", dir=state.stage.parent))
    try:
        jobs = []
        for bundle, pages in to_index.items():
            source = work / "pages" / bundle
            for path in pages:
                link_or_copy(os.path.join(state.folder_of(path), path), source / path)
            jobs.append((bundle, source, work / "index" / bundle))
        run_pagefind(jobs, state.workers)
        for bundle, _source, written in jobs:
            pages = len(to_index[bundle])
            entry = json.loads((written / "pagefind-entry.json").read_bytes())
            count = sum(language["page_count"] for language in entry["languages"].values())
            if count != pages:
                raise BuildFailed([
                    f"{FOLDER}/{bundle}/: Pagefind indexed {count} of its {pages} pages; each page of "
                    f"{sorted(ROUTES | SITE_ROUTES)} must mark its content with data-pagefind-body"
                ])  # fmt: skip
            place_bundle(state, bundle, written, output)
    finally:
        with signals_held():  # a second Ctrl-C must not leave the folder half removed
            shutil.rmtree(work, ignore_errors=True)


def run_pagefind(jobs, workers):
    """Index each (bundle, pages folder, output folder) of `jobs` with Pagefind's command, up to
    `workers` at a time; its errors as BuildFailed."""
    binary = get_executable()  # pagefind[bin]'s (or PAGEFIND_BINARY_PATH's, as its Python API finds it)
    if binary is None:
        raise BuildFailed(["search index: Pagefind's binary is missing: install requirements.txt"])
    # Its own settings only: no pagefind.yml of a working folder, no PAGEFIND_* variable.
    env = {name: value for name, value in os.environ.items() if not name.startswith("PAGEFIND_")}

    def one(job):
        bundle, source, written = job
        command = [binary, "--site", source, "--output-path", written, "--silent",
                   "--exclude-selectors", ", ".join(EXCLUDE)]  # fmt: skip
        done = subprocess.run(command, cwd=source, env=env, capture_output=True, text=True)
        if done.returncode:
            said = (done.stderr or done.stdout).strip()
            return f"{FOLDER}/{bundle}/: Pagefind failed (exit status {done.returncode}): {said}"
        return None

    pool = ThreadPoolExecutor(max(1, workers))
    try:
        problems = [problem for problem in pool.map(one, jobs) if problem]
    finally:
        # On Ctrl-C or SIGTERM, no further Pagefind starts; the running ones end (a Ctrl-C
        # reaches them too) before the build's one line is printed.
        pool.shutdown(wait=True, cancel_futures=True)
    if problems:
        raise BuildFailed(problems)


def place_bundle(state, bundle, written, output):
    key = state.search_keys[bundle]
    for file in sorted(written.rglob("*")):
        name = file.relative_to(written).as_posix()
        needed = INDEX_FILES.fullmatch(name) or (bundle == SITE and RUNTIME_FILES.fullmatch(name))
        if file.is_file() and needed:
            path = f"{FOLDER}/{bundle}/{name}"
            record(state, path, place(file.read_bytes(), path, output))
            state.search_files[path] = key
