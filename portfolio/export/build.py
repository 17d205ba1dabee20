"""`manage.py distill-local DIR`: import the content folder, then build the site in five phases.

    plan.py          every URL, its file and its dependency key; which files need rendering
    render.py        render those through Django's request handling into a stage folder
    search_index.py  index the pages worth searching, in bundles
    verify.py        check the new files (drafts, links, the API's schema, the agent surfaces)
    publish.py       put them in place of DIR and record them in the manifest (manifest.py)

One BuildState (state.py) is passed from step to step. Nothing in DIR changes until every check has
passed: a failed or interrupted build leaves the previous output as it was. A build holds the
folder's lock throughout; with nothing changed since the last build (the same inputs, every file
as that build left it), it says so and stops before importing.
"""

import logging
import os
import shutil
import sys
import tempfile
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings
from django.test.utils import override_settings

from portfolio.content import schedule
from portfolio.content.importer import import_content
from portfolio.content.languages import catalog_warnings
from portfolio.content.models import Site
from portfolio.content.schema import migrate
from portfolio.interrupts import signals_held
from portfolio.locks import folder_lock
from portfolio.progress import Progress
from portfolio.workers import shared_heap

from . import manifest
from .plan import plan
from .publish import publish
from .render import render
from .search_index import index as index_search
from .state import BuildFailed, BuildState
from .verify import verify


@dataclass
class BuildResult:
    out_dir: Path
    files: int
    size: int
    rendered: int = 0
    written: int = 0
    carried: int = 0
    search: str = ""  # "1 of 17": the search index's bundles indexed anew, of all
    seconds: float = 0.0
    phases: str = ""
    up_to_date: bool = False

    def summary(self):
        if self.up_to_date:
            return (
                f"Up to date: {self.files} files ({self.size / 1e6:.1f} MB), nothing changed since the "
                f"last build -> {self.out_dir}"
            )
        return (
            f"Built {self.files} files ({self.size / 1e6:.1f} MB) in {self.seconds:.1f} s "
            f"(wall/CPU: {self.phases}): {self.rendered} rendered ({self.written} written, "
            f"{self.rendered - self.written} unchanged), {self.carried} carried over from the "
            f"previous build, search index: {self.search} bundles indexed -> {self.out_dir}"
        )


def build(out_dir, *, full=False, force=False, workers=None, wait=False, stderr=sys.stderr):
    started = time.perf_counter()
    out_dir = Path(out_dir).resolve()
    check_target_folder(out_dir, force)
    out_dir.parent.mkdir(parents=True, exist_ok=True)
    state = BuildState(out_dir, full=full, workers=workers or os.cpu_count() or 1, stderr=stderr)
    with build_lock(out_dir, wait, stderr):
        remove_leftovers(out_dir)
        state.previous = {} if full else manifest.read(out_dir)
        state.inputs = manifest.inputs(state.content_stats)
        if is_up_to_date(state):
            files = state.previous["files"]
            size = sum(entry[1] for entry in files.values())
            count = len(files) + len(state.previous["host_files"])
            return BuildResult(out_dir, count, size, carried=len(files), up_to_date=True)
        with state.phases("import"):
            migrate()
            import_content(settings.CONTENT_DIR, progress=Progress(stderr, "importing"), full=full,
                           stats=state.content_stats)  # fmt: skip
            for warning in catalog_warnings():  # a language whose pages show English labels
                stderr.write(f"warning: {warning}\n")
        with as_deployed(), Site.build_cache(), staged(state):
            with state.phases("plan"):
                plan(state)
            # What Django's start and the plan made lives as long as the build: out of the garbage
            # collector's sight (gc.freeze), rendering every page does not walk it again and again.
            with shared_heap():
                with state.phases("render"):
                    render(state)
                with state.phases("search"):
                    index_search(state)
                with state.phases("verify"):
                    verify(state)
                with state.phases("publish"):
                    publish(state)
    return BuildResult(
        out_dir,
        files=len(state.files),
        size=sum(stat[0] for stat in state.rendered.values())
        + sum(state.previous["files"][path][1] for path in state.files - set(state.rendered)),
        rendered=len(state.to_render),
        written=len(state.written - set(state.host_files) - set(state.search_files)),
        carried=len(state.carried),
        search=f"{state.search_indexed} of {len(state.search_keys)}",
        seconds=time.perf_counter() - started,
        phases=state.phases.summary(),
    )


def is_up_to_date(state):
    """Did the previous build have these same inputs, is every file it wrote as it left it, and has
    no scheduled article come due since? Which files are not as it left them is kept for the plan."""
    previous = state.previous
    if not previous:
        return False
    recorded = {**previous["files"], **{path: [None, *stat] for path, stat in previous["host_files"].items()}}
    state.altered = manifest.altered(state.out_dir, recorded)
    if not schedule.within(previous.get("schedule")):
        return False  # a scheduled article came due (or BUILD_DATE went back): the import sees to it
    return bool(state.inputs) and previous.get("inputs") == state.inputs and not state.altered


@contextmanager
def as_deployed():
    """A debug page or a draft must never be published: render with DEBUG and SHOW_DRAFTS off,
    whatever the environment says. The 404 pages are rendered on purpose: django.request need
    not warn about them."""
    request_log = logging.getLogger("django.request")
    level = request_log.level
    request_log.setLevel(logging.ERROR)
    try:
        with override_settings(DEBUG=False, SHOW_DRAFTS=False, ALLOWED_HOSTS=["*"]):
            yield
    finally:
        request_log.setLevel(level)


@contextmanager
def staged(state):
    """A temporary folder beside the output for the new files, removed whatever happens (after
    a swap it holds the old folder)."""
    state.stage = Path(tempfile.mkdtemp(prefix=temp_prefix(state.out_dir), dir=state.out_dir.parent))
    umask = os.umask(0)
    os.umask(umask)
    state.stage.chmod(0o777 & ~umask)  # mkdtemp's 0700 would hide the site from a web server's user
    try:
        yield
    finally:
        with signals_held():  # a second Ctrl-C must not leave the folder half removed
            shutil.rmtree(state.stage, ignore_errors=True)


def temp_prefix(out_dir):
    return f".{out_dir.name}.build-"


@contextmanager
def build_lock(out_dir, wait=False, stderr=sys.stderr):
    """Hold the lock of `out_dir`'s builds: a lock file beside it, flock()ed for as long as the
    build runs and naming who holds it. The kernel drops the lock when its process dies, however
    it dies, so a killed build never leaves a stale one. Another build of the same folder fails
    at once naming the holder, or waits for it with `wait`."""

    def busy(holder):
        if not wait:
            raise BuildFailed([f"{out_dir} is being built by {holder}; wait for it, or pass --wait"])
        stderr.write(f"waiting for {holder} to finish building {out_dir}\n")

    with folder_lock(manifest.lock_path(out_dir), busy):
        yield


def remove_leftovers(out_dir):
    """Remove what killed builds of `out_dir` left beside it (their stage folders). Called with
    the lock held, so no running build owns any of them."""
    for entry in out_dir.parent.iterdir():
        if entry.name.startswith(temp_prefix(out_dir)) and entry.is_dir() and not entry.is_symlink():
            shutil.rmtree(entry, ignore_errors=True)
    path = manifest.manifest_path(out_dir)
    path.with_name(path.name + ".tmp").unlink(missing_ok=True)


def check_target_folder(out_dir, force):
    """Refuse folders whose replacement would destroy something that is not a build."""
    protected = {Path("/"), Path.home().resolve(), settings.BASE_DIR, Path(settings.CONTENT_DIR)}
    if (
        out_dir in protected
        or any(out_dir in p.parents for p in protected)
        or Path(settings.CONTENT_DIR) in (out_dir, *out_dir.parents)
    ):
        raise BuildFailed([f"{out_dir}: refusing to replace this folder with the built site"])
    if out_dir.exists() and not out_dir.is_dir():
        raise BuildFailed([f"{out_dir}: exists and is not a folder"])
    if out_dir.is_dir() and any(out_dir.iterdir()) and not force and not manifest.is_build(out_dir):
        raise BuildFailed([f"{out_dir}: not empty and not a previous build; use --force to replace it"])
