"""Build the static site into a folder: import, render, verify, then put it in place.

Files are rendered into a temporary folder beside the target, and nothing in the target changes
until every check has passed: a failed or interrupted build leaves the previous output as it was.
Builds are incremental: a manifest beside the output records each file's dependency key and stat,
and a file whose key is unchanged is carried over instead of rendered.

Putting it in place: a first build, or one that renders much of the site, is a whole new folder
swapped for the old one in one rename. A smaller one (an edit) moves only its new files into the
previous folder, one rename each, and removes the files the site no longer has: linking 30,000
unchanged files into a new folder and deleting the old one cost more than the edit. Those few
renames are not one step; a build killed among them leaves files whose stat the manifest does not
record, and the next build renders them again.
"""

import ctypes
import datetime
import fcntl
import gc
import json
import logging
import os
import shutil
import signal
import socket
import sys
import tempfile
import time
from collections import Counter
from contextlib import closing, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import unquote

from django.conf import settings
from django.test.utils import override_settings

from contact.hosting import redirect_rules
from portfolio.content.importer import import_content
from portfolio.content.models import Article, Site
from portfolio.content.schema import migrate
from portfolio.progress import Progress
from portfolio.workers import in_background

from . import early, hosts, plan, quick
from .quick import MANIFEST_VERSION, manifest_path, read_record, write_record
from .render import Output, Parts, get, link_or_copy, place, render_all
from .verify import Verifier


class BuildFailed(Exception):
    def __init__(self, problems):
        self.problems = problems
        super().__init__("\n".join(problems))


class Interrupted(BaseException):
    """SIGINT or SIGTERM stopped the build (BaseException: nothing may swallow it)."""

    def __init__(self, signum):
        self.signum = signum
        super().__init__(signal_name(signum))


def signal_name(signum):
    return signal.Signals(signum).name


@dataclass
class BuildResult:
    out_dir: Path
    files: int
    size: int
    rendered: int
    written: int
    carried: int
    seconds: float
    phases: dict  # {"import": seconds, "render": seconds, ...}
    up_to_date: bool = False
    cpu: dict = field(default_factory=dict)  # {"import": CPU seconds, ...}, as `phases`

    def summary(self):
        phases = "wall/CPU: " + ", ".join(
            f"{name} {seconds:.1f}/{self.cpu.get(name, 0.0):.1f} s" for name, seconds in self.phases.items()
        )
        if self.up_to_date:
            return (
                f"Up to date: {self.files} files ({self.size / 1e6:.1f} MB), nothing to render, "
                f"checked in {self.seconds:.1f} s -> {self.out_dir}"
            )
        return (
            f"Built {self.files} files ({self.size / 1e6:.1f} MB) in {self.seconds:.1f} s ({phases}): "
            f"{self.rendered} rendered ({self.written} written, {self.rendered - self.written} unchanged), "
            f"{self.carried} carried over from the previous build -> {self.out_dir}"
        )


def temp_prefix(out_dir):
    return f".{out_dir.name}.build-"


@contextmanager
def build_lock(out_dir, wait=False, stderr=sys.stderr, held=None):
    """Hold the lock of `out_dir`'s builds: a lock file beside it, flock()ed for as long as the
    build runs and naming who holds it. The kernel drops the lock when its process dies, however
    it dies, so a killed build never leaves a stale one. Another build of the same folder fails
    at once naming the holder, or waits for it with `wait`. `held`: the lock file, open and
    locked already (early.start)."""
    handle = held or open(quick.lock_path(out_dir), "a+")  # held (and locked) for the whole block
    try:
        try:
            if not held:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            handle.seek(0)
            holder = handle.read().strip() or "another process"
            if not wait:
                raise BuildFailed(
                    [f"{out_dir} is being built by {holder}; wait for it, or pass --wait"]
                ) from None
            stderr.write(f"waiting for {holder} to finish building {out_dir}\n")
            fcntl.flock(handle, fcntl.LOCK_EX)
        started = datetime.datetime.now().astimezone().isoformat(timespec="seconds")
        handle.seek(0)
        handle.truncate()
        handle.write(f"PID {os.getpid()} on {socket.gethostname()}, started {started}\n")
        handle.flush()
        try:
            yield
        finally:
            handle.truncate(0)
    finally:
        handle.close()  # releases the lock


def remove_leftovers(out_dir):
    """Remove what killed builds of `out_dir` left beside it (their temporary folders). Called
    with the lock held, so no running build owns any of them."""
    for entry in out_dir.parent.iterdir():
        if entry.name.startswith(temp_prefix(out_dir)) and entry.is_dir() and not entry.is_symlink():
            shutil.rmtree(entry, ignore_errors=True)
    for path in manifest_path(out_dir), quick.plan_path(out_dir):
        path.with_name(path.name + ".tmp").unlink(missing_ok=True)
    for path in quick.layouts_path(out_dir).glob("*.tmp"):
        path.unlink(missing_ok=True)


def load_manifest(out_dir):
    manifest = read_record(manifest_path(out_dir))
    return manifest if manifest.get("version") == MANIFEST_VERSION and out_dir.is_dir() else {}


def check_target_folder(out_dir, force):
    """Refuse folders whose replacement would destroy something that is not a build."""
    protected = {Path("/"), Path.home().resolve(), settings.BASE_DIR, Path(settings.CONTENT_DIR)}
    if (
        out_dir in protected
        or any(out_dir in p.parents for p in protected)
        or settings.CONTENT_DIR
        in (
            out_dir,
            *out_dir.parents,
        )
    ):
        raise BuildFailed([f"{out_dir}: refusing to replace this folder with the built site"])
    if out_dir.exists() and not out_dir.is_dir():
        raise BuildFailed([f"{out_dir}: exists and is not a folder"])
    if out_dir.is_dir() and any(out_dir.iterdir()) and not force and not quick.is_build(out_dir):
        raise BuildFailed([f"{out_dir}: not empty and not a previous build; use --force to replace it"])


def swap(new, target):
    """Put `new` in place of `target` in one step (Linux renameat2), else in two renames."""
    if target.exists():
        libc = ctypes.CDLL(None, use_errno=True)
        exchange = getattr(libc, "renameat2", None)
        if exchange is not None and exchange(-100, bytes(new), -100, bytes(target), 2) == 0:
            return  # AT_FDCWD, RENAME_EXCHANGE: `new` now holds the old build
        old = new.with_name(new.name + ".old")
        os.rename(target, old)
        os.rename(new, target)
        os.rename(old, new)
    else:
        os.rename(new, target)


def build(out_dir, *, full=False, force=False, workers=None, wait=False, stderr=sys.stderr):
    out_dir = Path(out_dir).resolve()
    check_target_folder(out_dir, force)
    out_dir.parent.mkdir(parents=True, exist_ok=True)
    started = early.take(out_dir)  # the import manage.py started, with the lock
    with build_lock(out_dir, wait=wait, stderr=stderr, held=started and started.lock):
        remove_leftovers(out_dir)
        return locked_build(out_dir, full=full, force=force, workers=workers, stderr=stderr, beside=started)


def locked_build(out_dir, *, full, force, workers, stderr, beside=None):
    started = time.perf_counter()
    phases = Phases()
    # Taken before the import reads anything: an edit made while we build is a change next time.
    # The content files' stats come with it, for the importer.
    taken = quick.taken(out_dir) or quick.Taken.now(settings)
    inputs = taken.inputs
    with gc_paused():
        manifest = {} if full else taken.manifest(out_dir) or load_manifest(out_dir)
    previous = manifest.get("files", {})
    # Which of the previous build's files are not as it left them, found while the import runs.
    altered = in_background(altered_files, str(out_dir), previous) if previous else set
    with phases("import"):
        if beside is None or beside.answer() is None:  # no import started beside Django's start
            migrate()
            import_content(settings.CONTENT_DIR, progress=Progress(stderr, "importing"), full=full,
                           stats=taken.stats)  # fmt: skip
    workers = workers or os.cpu_count() or 1

    # A debug page or a draft must never be frozen: render with DEBUG and SHOW_DRAFTS off,
    # whatever the environment says. The 404 pages are rendered on purpose: django.request need
    # not warn about them.
    request_log = logging.getLogger("django.request")
    frozen = override_settings(DEBUG=False, SHOW_DRAFTS=False, ALLOWED_HOSTS=["*"])
    with frozen, _log_level(request_log, logging.ERROR):
        with gc_paused():
            key_of = plan.Keys()
            previous_plan = {} if full else read_record(quick.plan_path(out_dir))
            targets, new_plan = plan.targets(key_of.code, previous_plan)
            keys = {target.path: key_of(target) for target in targets}
        duplicates = [path for path, n in Counter(t.path for t in targets).items() if n > 1]
        if duplicates:
            raise BuildFailed([f"{path}: written by more than one URL" for path in sorted(duplicates)])
        drafts = sorted(Article.objects.filter(draft=True).values_list("slug", "title"))
        drafts_key = plan.hash_of(drafts)
        carried, to_render = carry_over(targets, keys, previous, altered())
        host_files = {"_headers": hosts.headers_file(), "_redirects": hosts.redirects_file(redirect_rules())}

        if (
            is_up_to_date(out_dir, previous, targets, to_render, host_files)
            and manifest["drafts"] == drafts_key
        ):
            # Every file is what this build would write, and nothing is stale: leave the folder be.
            host_stats = quick.file_stats(out_dir, host_files)
            if manifest.get("inputs") != inputs or manifest.get("host_files") != host_stats:
                write_manifest(out_dir, {**manifest, "inputs": inputs, "host_files": host_stats})
            if new_plan != previous_plan:
                write_record(quick.plan_path(out_dir), new_plan)
            size = sum(entry[1] for entry in previous.values())
            return BuildResult(out_dir, len(previous) + len(host_files), size, 0, 0, len(carried),
                               time.perf_counter() - started, phases.seconds, up_to_date=True)  # fmt: skip

        tmp = Path(tempfile.mkdtemp(prefix=temp_prefix(out_dir), dir=out_dir.parent))
        umask = os.umask(0)
        os.umask(umask)
        tmp.chmod(0o777 & ~umask)  # mkdtemp's 0700 would hide the site from a web server's user
        in_place = bool(previous) and len(to_render) <= IN_PLACE_MAX
        output = Output(str(tmp), str(out_dir) if previous else None, in_place)
        try:
            if not in_place:
                for target in carried:
                    link_or_copy(os.path.join(out_dir, target.path), os.path.join(tmp, target.path))
            files = {t.path for t in targets} | set(host_files)
            base_url = Site.load().base_url
            # The previous build's checks hold for what this one keeps of it.
            checked = drafts_key == manifest.get("drafts") and base_url == manifest.get("base_url")
            verifier = Verifier(base_url, files, json.loads(openapi_of(carried, out_dir)), drafts)
            problems, written, stats, new_checked, from_document = [], [], {}, set(), set()
            # With the same files, a list remade from its previous one had its new items checked
            # as they were made, links included: the checks across files look only at the rest.
            same_checks = in_place and checked and files == set(previous) | set(host_files)
            small = same_checks or len(files) < BACKGROUND_CHECK_MIN
            checks = AcrossFiles(verifier, output.read, stats, here=small, made=from_document)
            with phases("render"), Site.pinned():
                progress = Progress(stderr, "rendering")
                paths = {target.uri: target.path for target in targets}
                sizes = {path: entry[1] for path, entry in previous.items()}
                parts = Parts(None if full else output.previous, sizes, checked, key_of.site)
                # closing(): an exception here (Ctrl-C) stops the workers before the folder goes.
                results = render_all(
                    to_render, output, verifier, workers, progress, sizes, paths, parts, checks.start
                )
                with closing(results):
                    for rendered, file_problems in results:
                        problems += file_problems
                        if not rendered.reused:
                            written.append(rendered.path)
                        stats[rendered.path] = rendered.stat
                        if rendered.layout:
                            parts.made[rendered.path] = rendered.layout
                        if rendered.new_checked:
                            new_checked.add(rendered.path)
                        if rendered.from_document:
                            from_document.add(rendered.path)
            host_written = [
                name for name, text in host_files.items() if not place(text.encode(), name, output)[0]
            ]
            with phases("verify"):
                if checks.here:
                    changed = set(written) - new_checked if same_checks else None
                    problems += verifier.check_site(output.read, changed)
                problems += verifier.check_agent_surfaces(output.read, stats, parts.made, checks.twins())
                problems += checks.wait()
                if carried and manifest.get("drafts") != drafts_key:
                    for target in carried:  # new or renamed drafts: look for them in what was kept too
                        problems += verifier.draft_leaks(target.path, output.read(target.path))
            if problems:
                raise BuildFailed(problems)
            entries, size = manifest_entries(carried, to_render, keys, stats, previous)
            with signals_held():  # the folder and its manifest change together
                if in_place:
                    update_in_place(tmp, out_dir, written + host_written, stale=set(previous) - files)
                else:
                    swap(tmp, out_dir)
                host_stats = quick.file_stats(out_dir, host_files)
                write_manifest(out_dir, {"version": MANIFEST_VERSION, "drafts": drafts_key,
                                         "base_url": base_url, "files": entries, "inputs": inputs,
                                         "host_files": host_stats})  # fmt: skip
                if new_plan != previous_plan:  # 3 MB at L, the same after most edits
                    write_record(quick.plan_path(out_dir), new_plan)
                write_layouts(out_dir, parts.made, files)
                for path in quick.legacy_records(out_dir):
                    path.unlink(missing_ok=True)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)

    return BuildResult(
        out_dir,
        files=len(targets) + len(host_files),
        size=size,
        rendered=len(to_render),
        written=len(written),
        carried=len(carried),
        seconds=time.perf_counter() - started,
        phases=phases.seconds,
        cpu=phases.cpu,
    )


# At most this many files to render and the build updates the previous folder in place; more,
# and it makes a whole new folder (see the module's docstring).
IN_PLACE_MAX = 1000
# From this many files a whole check across files runs in a child process: forking and waiting
# for one costs about 9 ms, more than checking a small site.
BACKGROUND_CHECK_MIN = 1000


class AcrossFiles:
    """The checks across files of a large build, started in a child process once the pages are
    rendered (`start`, render_all's pages_done): the whole site's links (0.4 s at L) and half the
    twins' comparisons with their documents, on the other core while this process makes
    llms-full.txt and compares the other half (`twins`). `here`: a small build or an edit,
    checked in this process after the rendering (forking costs more). `made`: the twins made
    from their documents as those were rendered (render.made_with_documents), which are their
    documents rewritten by construction: only the others are compared."""

    def __init__(self, verifier, read, rendered, here, made=()):
        self.verifier, self.read, self.rendered, self.here, self.made = verifier, read, rendered, here, made
        self.mine = None  # the twins this process compares, once start() gave the others to the child
        self.wait = list  # the child's problems

    def to_compare(self):
        return [path for path in self.verifier.rendered_twins(self.rendered) if path not in self.made]

    def twins(self):
        """The twins this process compares."""
        return self.to_compare() if self.mine is None else self.mine

    def start(self):
        if self.here:
            return
        twins = self.to_compare()
        self.mine = twins[1::2]
        self.wait = in_background(self.in_child, twins[::2])

    def in_child(self, twins):
        return self.verifier.check_site(self.read) + self.verifier.check_twins(self.read, twins)


def manifest_entries(carried, rendered, keys, stats, previous):
    """({path: [key, size, mtime_ns]}, total bytes) of the new build: `stats` holds the rendered
    files' stats; a carried file's entry is the previous build's (the same key, and the file as
    recorded: carry_over(); a link or a copy into a new folder keeps its stat)."""
    entries = {target.path: previous[target.path] for target in carried}
    entries.update((target.path, [keys[target.path], *stats[target.path]]) for target in rendered)
    return entries, sum(entry[1] for entry in entries.values())


def update_in_place(stage, out_dir, written, stale):
    """Move the files this build wrote from `stage` into the previous build's folder, then
    remove the files the site no longer has, and folders that leaves empty."""
    for path in written:
        destination = os.path.join(out_dir, path)
        os.makedirs(os.path.dirname(destination), exist_ok=True)
        os.replace(os.path.join(stage, path), destination)
    for path in sorted(stale):
        try:
            os.unlink(os.path.join(out_dir, path))
        except FileNotFoundError:
            pass
        folder = os.path.dirname(path)
        while folder:
            try:
                os.rmdir(os.path.join(out_dir, folder))
            except OSError:  # not empty
                break
            folder = os.path.dirname(folder)


@contextmanager
def signals_held():
    """Hold SIGINT and SIGTERM until the block is done: a build stopped half-way through
    putting its files in place would leave a folder that is neither build."""
    held = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)


def openapi_of(carried, out_dir):
    """The bytes of /openapi.json, which the checks of the API's files read: the previous
    build's file when its key says it is still what the code and site make (an edit), else
    made now (0.1 s)."""
    for target in carried:
        if target.uri == "/openapi.json":
            return (out_dir / target.path).read_bytes()
    return get("/openapi.json")[2]


def is_up_to_date(out_dir, previous, targets, to_render, host_files):
    """Would this build write exactly what `out_dir` holds, with nothing stale to remove?"""
    if to_render or not previous or len(previous) != len(targets):
        return False
    try:
        return all((out_dir / name).read_text() == text for name, text in host_files.items())
    except OSError:
        return False


def cpu_seconds():
    """CPU time (user and system) of this process and of the child processes it has reaped."""
    times = os.times()
    return times.user + times.system + times.children_user + times.children_system


class Phases:
    """Wall and CPU time of each named phase of a build, for the summary line. A phase's CPU
    time is this process's and that of the processes reaped during it (the early import's child
    and its workers, the render's workers, the checks' child), so that it shows how much of the
    machine a phase used: on two cores, twice its wall time is both busy throughout. The early
    import's child starts before its phase, beside Django's start, and counts whole."""

    def __init__(self):
        self.seconds, self.cpu = {}, {}

    @contextmanager
    def __call__(self, name):
        started, cpu = time.perf_counter(), cpu_seconds()
        try:
            yield
        finally:
            self.seconds[name] = self.seconds.get(name, 0.0) + time.perf_counter() - started
            self.cpu[name] = self.cpu.get(name, 0.0) + cpu_seconds() - cpu


@contextmanager
def gc_paused():
    """No garbage collection in the block, then what it made is frozen (gc.freeze): the manifest,
    the plan and the keys are 100,000s of objects that live as long as the build, with no
    cycles, and collections scanning them again and again doubled the planning's time."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        if enabled:
            gc.enable()


@contextmanager
def _log_level(logger, level):
    previous = logger.level
    logger.setLevel(level)
    try:
        yield
    finally:
        logger.setLevel(previous)


def carry_over(targets, keys, previous, altered):
    """Split the targets into those the previous build's file can stand for (same dependency
    key, and the file as the manifest recorded it: not `altered`) and those to render."""
    carried, to_render = [], []
    for target in targets:
        entry = previous.get(target.path)
        if entry and entry[0] == keys[target.path] and target.path not in altered:
            carried.append(target)
        else:
            to_render.append(target)
    return carried, to_render


def altered_files(out_dir, previous):
    """The files of `previous` ({path: [key, size, mtime_ns]}) whose stat in `out_dir` is not
    the recorded one, or that are gone: someone changed them since that build. Run in a child
    process during the import (31,000 stats are 0.14 s); usually none, so little to send back."""
    altered = set()
    for path, entry in previous.items():
        try:
            stat = os.stat(os.path.join(out_dir, path))
        except OSError:
            altered.add(path)
            continue
        if stat.st_size != entry[1] or stat.st_mtime_ns != entry[2]:
            altered.add(path)
    return altered


def write_layouts(out_dir, made, files):
    """Keep the layouts `made` now for the next build; a carried file's stays, a file no longer
    built loses its."""
    folder = quick.layouts_path(out_dir)
    folder.mkdir(exist_ok=True)
    for path, layout in made.items():
        write_record(quick.layout_path(out_dir, path), layout)
    for record in folder.iterdir():
        if unquote(record.name) not in files:
            record.unlink(missing_ok=True)


def write_manifest(out_dir, manifest):
    write_record(manifest_path(out_dir), manifest)
