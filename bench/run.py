#!/usr/bin/env python3
"""Measure the build against its targets (bench/README.md) and print one table.

    python bench/run.py                       # S content (100 projects + 1,000 articles), 3 runs
    python bench/run.py --size L --runs 3     # the recorded benchmark (1,000 + 10,000)
    python bench/run.py --projects 3 --articles 12 --runs 1   # a smoke run

Each run measures, on its own fresh databases, media caches and output folders: the floor
(bench/floor.py) and a cold `distill-local`, back to back, on the generated content with its
media set (the floor making the search index too, timed on its own, so that the run gives the
floor with it and without it) and then on the same content without media (the floor without
it); the cold build's output (how many files,
the largest); a rebuild with no change; a build with a new database and the caches the cold
build filled (a CI runner with `.cache/` restored); rebuilds after appending a line to one published article
and after retitling it (and which files those rewrote); and the sample site (content/) built as
in a fresh clone of the repository's HEAD, then again with the caches that first build made.
After the runs, the authoring server is started on the last run's database: one article's API
detail, the API article list and the /articles page are timed, then the first request of an
article's page after its file is saved.

Figures are medians of the runs, with min-max. Missing a target is a result, not an error: the
exit status is 0 unless a measurement could not be made (a build failed, the server did not
answer), which exits 1 after printing what was measured.
"""

import argparse
import hashlib
import http.client
import os
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
sys.path.insert(0, str(BENCH))
import gen_content  # noqa: E402

PYTHON = sys.executable  # set by main(): the site-only environment unless --python
MB = 1024 * 1024
SAMPLE_EVERY = 0.1  # seconds between /proc samples of a build's memory


class MeasureFailed(Exception):
    pass


# --- running and measuring one command ---------------------------------------------------------

_running = set()  # processes to kill if we stop early


def kill_group(proc):
    """Stop a process we started in its own session, and everything it started."""
    if proc.returncode is not None:
        return
    for sig in (signal.SIGTERM, signal.SIGKILL):
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            return
        try:
            proc.wait(timeout=5)
            return
        except subprocess.TimeoutExpired:
            continue


def descendants(pid):
    """pid and every process below it (from /proc/<pid>/task/<tid>/children)."""
    found, queue = [], [pid]
    while queue:
        current = queue.pop()
        found.append(current)
        try:
            tasks = os.listdir(f"/proc/{current}/task")
        except OSError:
            continue
        for task in tasks:
            try:
                with open(f"/proc/{current}/task/{task}/children") as handle:
                    queue.extend(int(child) for child in handle.read().split())
            except OSError:
                pass
    return found


def memory_of(pid):
    """Proportional set size of one process in bytes (shared pages split between their users);
    its resident set size where smaps_rollup cannot be read."""
    try:
        with open(f"/proc/{pid}/smaps_rollup") as handle:
            for line in handle:
                if line.startswith("Pss:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    try:
        with open(f"/proc/{pid}/statm") as handle:
            return int(handle.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except OSError:
        return 0


def command_name(pid):
    """The name of a process's program (/proc/<pid>/comm), or "" once it has gone."""
    try:
        with open(f"/proc/{pid}/comm") as handle:
            return handle.read().strip()
    except OSError:
        return ""


@dataclass
class Measured:
    seconds: float
    cpu: float  # seconds of CPU (user and system) of the command and its reaped descendants
    system: float  # the part of `cpu` spent in the kernel
    peak_process: int  # bytes: the largest single process of the tree (kernel's ru_maxrss)
    peak_tree: int  # bytes: the largest sum of PSS over the tree, sampled every SAMPLE_EVERY
    # The same while the tree held a Pagefind process (the search index), and those processes' own.
    peak_indexing: int
    peak_pagefind: int
    returncode: int
    output: str


def measure(command, env, timeout, sample_memory=False, cwd=ROOT):
    """Run `command` in `cwd` (the project root); return its wall time, CPU time and peak memory.

    The main thread blocks in wait4() so the wall time is exact and the kernel hands back the
    child's rusage: the CPU time of the child and its reaped descendants, and ru_maxrss, the
    peak of the largest process in that tree. A thread kills the process group when the timeout
    passes and, with `sample_memory`, samples the tree's summed PSS meanwhile. Sampling is not
    free: reading smaps_rollup walks a process's page tables under its memory-map lock (5.5 ms
    for a 250 MB process on this machine), so a timed command is never sampled: at L the
    sampling made the cold build about 18 s slower."""
    # Flush what earlier steps wrote or deleted (the floor's 20,000 files, the previous build):
    # the kernel would otherwise write it back during this command and bill it the time.
    os.sync()
    with tempfile.TemporaryFile() as log:
        started = time.perf_counter()
        proc = subprocess.Popen(
            command, cwd=cwd, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
        )
        _running.add(proc)
        peak_tree, timed_out, done = [0], [False], threading.Event()
        peak_indexing, peak_pagefind = [0], [0]

        def sample():
            while not done.wait(SAMPLE_EVERY if sample_memory else 0.5):
                if sample_memory:
                    sizes = {pid: memory_of(pid) for pid in descendants(proc.pid)}
                    peak_tree[0] = max(peak_tree[0], sum(sizes.values()))
                    pagefind = sum(size for pid, size in sizes.items() if command_name(pid) == "pagefind")
                    if pagefind:
                        peak_indexing[0] = max(peak_indexing[0], sum(sizes.values()))
                        peak_pagefind[0] = max(peak_pagefind[0], pagefind)
                if time.perf_counter() - started > timeout:
                    timed_out[0] = True
                    for sig in (signal.SIGTERM, signal.SIGKILL):
                        try:
                            os.killpg(proc.pid, sig)
                        except ProcessLookupError:
                            break
                        if done.wait(5):
                            break

        sampler = threading.Thread(target=sample, daemon=True)
        sampler.start()
        try:
            _, status, usage = os.wait4(proc.pid, 0)
        finally:
            done.set()
            sampler.join()
        seconds = time.perf_counter() - started
        proc.returncode = os.waitstatus_to_exitcode(status)
        _running.discard(proc)
        log.seek(0)
        output = log.read().decode("utf-8", "replace")
    if timed_out[0]:
        raise MeasureFailed(f"{' '.join(map(str, command))}: timed out after {timeout} s\n{tail(output)}")
    cpu = usage.ru_utime + usage.ru_stime
    return Measured(
        seconds,
        cpu,
        usage.ru_stime,
        usage.ru_maxrss * 1024,
        peak_tree[0],
        peak_indexing[0],
        peak_pagefind[0],
        proc.returncode,
        output,
    )


def tail(text, lines=15):
    return "\n".join("    " + line for line in text.strip().splitlines()[-lines:])


# The build's last line splits its time by phase: "Built N files (X MB) in T s (wall/CPU:
# import 52.9/105.1 s, render 5.2/9.6 s, verify 0.0/0.2 s): ...". The phases' names and number
# are the build's business: any "name wall/cpu s" list is read.
PHASES = re.compile(r"\(wall/CPU: ([^)]*)\)")
PHASE = re.compile(r"^\s*(\S.*?)\s+(\d+(?:\.\d+)?)\s*/\s*(\d+(?:\.\d+)?)\s*s\s*$")


def phases(output):
    """[(name, wall seconds, CPU seconds)] of the phases in the build's last summary line."""
    found = PHASES.findall(output)
    if not found:
        return []
    parts = (PHASE.match(part) for part in found[-1].split(","))
    return [(part[1], float(part[2]), float(part[3])) for part in parts if part]


def phase(output, name):
    """(wall, CPU seconds) of one phase of the build's summary line, or None."""
    return next(((wall, cpu) for found, wall, cpu in phases(output) if found == name), None)


def describe_phases(output):
    found = phases(output)
    if not found:
        return "no phases printed"
    return ", ".join(f"{name} {wall:.1f}/{cpu:.1f} s" for name, wall, cpu in found)


def checked(name, command, env, timeout, sample_memory=False, cwd=ROOT):
    result = measure(command, env, timeout, sample_memory, cwd)
    if result.returncode != 0:
        raise MeasureFailed(
            f"{name} failed (exit status {result.returncode}): {' '.join(map(str, command))}\n"
            f"  in {cwd} with CONTENT_DIR={env.get('CONTENT_DIR', '(unset)')} "
            f"DATABASE_URL={env.get('DATABASE_URL', '(unset)')}\n"
            f"{tail(result.output)}"
        )
    return result


# --- the output folder: what a rebuild rewrote -------------------------------------------------


def files_under(folder):
    found = {}
    for directory, _, names in os.walk(folder):
        for name in names:
            path = os.path.join(directory, name)
            found[os.path.relpath(path, folder)] = os.stat(path).st_ino
    return found


def keep_copy(folder, copy):
    """Hard-link every file of `folder` into `copy`: keeps the old bytes (and inode numbers) alive
    at no cost, so that after a rebuild we can tell rewritten files from carried ones."""
    for rel in files_under(folder):
        (copy / rel).parent.mkdir(parents=True, exist_ok=True)
        os.link(folder / rel, copy / rel)


@dataclass
class Changes:
    rewritten: int  # new or replaced inode: the build wrote the file
    changed: int  # bytes differ from the previous build (or the file is new)
    removed: int
    needless: list  # rewritten with the same bytes


def output_files(folder):
    """(number of files, size in bytes of the largest, its path) of a build's output: what a
    static host is given (hosts limit both)."""
    number, largest, name = 0, -1, ""
    for directory, _, names in os.walk(folder):
        for file_name in names:
            path = os.path.join(directory, file_name)
            size = os.stat(path).st_size
            number += 1
            if size > largest:
                largest, name = size, os.path.relpath(path, folder)
    return number, max(largest, 0), name


def compare(before, after_folder):
    """Compare a folder with the hard-linked copy of its previous state."""
    old, new = files_under(before), files_under(after_folder)
    rewritten, changed, needless = 0, 0, []
    for rel, inode in new.items():
        if rel not in old:
            rewritten += 1
            changed += 1
        elif inode != old[rel]:
            rewritten += 1
            if (before / rel).read_bytes() != (after_folder / rel).read_bytes():
                changed += 1
            else:
                needless.append(rel)
    return Changes(rewritten, changed, sum(1 for rel in old if rel not in new), needless)


# --- the authoring server ----------------------------------------------------------------------


def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def get(port, path, timeout=30):
    """(status, milliseconds) of one GET on a fresh connection, body read in full."""
    started = time.perf_counter()
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        connection.request("GET", path, headers={"Accept": "application/json"})
        response = connection.getresponse()
        response.read()
    finally:
        connection.close()
    return response.status, (time.perf_counter() - started) * 1000


def time_server(env, slug, content, detail_requests, list_requests, timeout):
    """Milliseconds of the detail and list endpoints, the human article list, and the first
    request of an article's page after its file was saved, on `runserver`."""
    port = free_port()
    env = {**env, "DEBUG": "1"}  # as `make serve` runs it for writers
    log = tempfile.TemporaryFile()
    command = [PYTHON, "manage.py", "runserver", "--noreload", f"127.0.0.1:{port}"]
    proc = subprocess.Popen(
        command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
    )
    _running.add(proc)

    def server_log():
        log.seek(0)
        return tail(log.read().decode("utf-8", "replace"))

    try:
        deadline = time.monotonic() + timeout
        while True:  # the first request also syncs the content folder: allow it time
            if proc.poll() is not None:
                raise MeasureFailed(f"the authoring server exited ({proc.returncode}):\n{server_log()}")
            try:
                get(port, "/api/v1", timeout=timeout)
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise MeasureFailed(f"the authoring server did not answer in {timeout} s") from None
                time.sleep(0.2)
        timings = {}
        for name, path, count in (
            ("detail", f"/api/v1/articles/{slug}", detail_requests),
            ("list", "/api/v1/articles", list_requests),
            ("list_page", "/articles", list_requests),
        ):
            for _ in range(3):  # warm-up: imports, templates, query plans
                status, _ = get(port, path)
            if status != 200:
                raise MeasureFailed(f"GET {path} on the authoring server: status {status}\n{server_log()}")
            timings[name] = [get(port, path)[1] for _ in range(count)]
        # A writer saves one file and reloads its page: that request re-imports the file.
        article, page = content / "articles" / f"{slug}.md", f"/articles/{slug}"
        timings["after_save"] = []
        for n in range(list_requests):
            append_line(article, n)
            status, elapsed = get(port, page)
            if status != 200:
                raise MeasureFailed(f"GET {page} after a save: status {status}\n{server_log()}")
            timings["after_save"].append(elapsed)
        return timings
    finally:
        kill_group(proc)
        _running.discard(proc)
        log.close()


# --- content -----------------------------------------------------------------------------------


def counts(args):
    """(projects, articles): the size's, unless overridden."""
    projects, articles = gen_content.SIZES[args.size]
    return (
        projects if args.projects is None else args.projects,
        articles if args.articles is None else args.articles,
    )


def content_name(args, media=True):
    """The cache folder's name; it ends with the generator's version, so that content saved by an
    older generator (without media, say) is never reused, then with "-no-media" for the content
    generated without the media set."""
    if args.projects is None and args.articles is None and args.drafts == 0.1:
        name = f"{args.size}-{args.seed}-v{gen_content.VERSION}"
    else:
        projects, articles = counts(args)
        name = f"p{projects}-a{articles}-d{args.drafts:g}-{args.seed}-v{gen_content.VERSION}"
    return name if media else name + "-no-media"


def prepare_content(args, tmp, media=True):
    """A private copy of the content (rebuilds edit it): from bench/.cache/<name> when present,
    else freshly generated (and saved there with --cache). Without `media`, the same projects and
    articles generated with no media set (`gen_content.py --images 0`): the same text, without
    the image lines."""
    cached = BENCH / ".cache" / content_name(args, media)
    work = tmp / ("content" if media else "content-no-media")
    label = "content" if media else "content without media"
    if cached.is_dir():
        print(f"{label}: reusing {cached.relative_to(ROOT)}")
        shutil.copytree(cached, work)
        return work
    projects, articles = counts(args)
    started = time.perf_counter()
    images = None if media else 0
    drafts, made = gen_content.generate(work, projects, articles, args.drafts, args.seed, images)
    print(
        f"{label}: generated {projects} projects, {articles} articles ({drafts} drafts), "
        f"{made} images, seed {args.seed}, in {time.perf_counter() - started:.1f} s"
    )
    if args.cache:
        partial = cached.with_name(cached.name + ".partial")
        shutil.rmtree(partial, ignore_errors=True)
        shutil.copytree(work, partial)
        os.replace(partial, cached)
        print(f"{label}: saved as {cached.relative_to(ROOT)}")
    return work


def published_articles(content):
    slugs = []
    for path in sorted((content / "articles").glob("*.md")):
        front = path.read_text(encoding="utf-8").split("\n---\n", 1)[0]
        if "\ndraft: true" not in front:
            slugs.append(path.stem)
    if not slugs:
        raise MeasureFailed("the content has no published article to edit and request")
    return slugs


# --- the runs ----------------------------------------------------------------------------------


def site_python():
    """The Python of a writer's `make build`: a virtual environment with requirements.txt only
    (`make install-site`), made once in bench/.cache for each requirements.txt. The test tools'
    packages (requests for schemathesis, pydantic for openapi-spec-validator) are imported by DRF
    and drf-spectacular whenever they are installed: 80 ms of a build's start no writer pays."""
    requirements = ROOT / "requirements.txt"
    venv = BENCH / ".cache" / f"site-venv-{hashlib.sha256(requirements.read_bytes()).hexdigest()[:12]}"
    python, done = venv / "bin" / "python", venv / ".installed"
    if not done.exists():
        print(f"python: installing requirements.txt into {venv.relative_to(ROOT)} (once)", flush=True)
        shutil.rmtree(venv, ignore_errors=True)
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        pip = [str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
        subprocess.run([*pip, "-r", str(requirements)], check=True)
        done.touch()
    return str(python)


def user_environ():
    """This environment as a writer's shell has it: Python writes its bytecode caches (.pyc). A
    shell with PYTHONDONTWRITEBYTECODE set (CI, some containers) would have every command
    compile the project's modules from source, 0.1-0.2 s that no writer pays."""
    return {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}


def build_env(content, folder):
    """The environment of a build of `content` with its own database and media cache (empty until
    its first build) in `folder`. With Cloudflare Pages' paid plan's file limit: L's output
    (31,186 files) passes the free plan's 20,000; the other host limits keep their defaults."""
    return {**user_environ(), "CONTENT_DIR": str(content),
            "DATABASE_URL": f"sqlite:///{folder / 'db.sqlite3'}",
            "MEDIA_CACHE_DIR": str(folder / "media-cache"),
            "CONTENT_CACHE_DIR": str(folder / "content-cache"),
            "HOST_MAX_FILES": "100000"}  # fmt: skip


# The floor's search step, as its line prints it: "search index: 200 pages in 1 bundle (0.509 s,
# 0.328 s CPU)".
FLOOR_SEARCH = re.compile(r"search index: \d+ pages in \d+ bundles? \(([\d.]+) s, ([\d.]+) s CPU\)")


def floor_and_cold(n, label, content, folder, args, results, suffix):
    """The floor, then a cold build, of `content` in `folder`, back to back so that both see the
    same machine; their wall and CPU times and ratios go to `results` under keys ending with
    `suffix`, and one line is printed. The floor makes the search index too and times that step
    itself: the same run gives the floor with it (keys `floor_search...`) and without it (the run
    minus that step, as `--no-search` would run). Returns (the build's environment, the build's
    result)."""
    folder.mkdir()
    env = build_env(content, folder)
    floor_command = [PYTHON, str(BENCH / "floor.py"), str(content), str(folder / "floor")]
    floor = checked(f"the floor ({label})", floor_command, env, args.timeout)
    # Its output stays until the benchmark ends (one_run).
    build = [PYTHON, "manage.py", "distill-local", str(folder / "site"), "--force"]
    cold = checked(f"the cold build ({label})", build, env, args.timeout)
    found = FLOOR_SEARCH.search(floor.output)
    if not found:
        said = tail(floor.output)
        raise MeasureFailed(f"the floor printed no search step: {' '.join(floor_command)}\n{said}")
    search_seconds, search_cpu = float(found[1]), float(found[2])
    floor_seconds, floor_cpu = floor.seconds - search_seconds, floor.cpu - search_cpu
    floor_phase = f"; search index {search_seconds:.1f}/{search_cpu:.1f} s"
    results[f"floor_search{suffix}"].append(floor.seconds)
    results[f"ratio_search{suffix}"].append(cold.seconds / floor.seconds)
    results[f"floor_search_cpu{suffix}"].append(floor.cpu)
    results[f"cpu_ratio_search{suffix}"].append(cold.cpu / floor.cpu)
    results[f"search_floor{suffix}"].append(search_seconds)
    results[f"search_floor_cpu{suffix}"].append(search_cpu)
    results[f"floor{suffix}"].append(floor_seconds)
    results[f"cold{suffix}"].append(cold.seconds)
    results[f"ratio{suffix}"].append(cold.seconds / floor_seconds)
    # The same pair in CPU time: how much more work the build does, whatever the cores did.
    search = phase(cold.output, "search")  # the search index (portfolio/export/search_index.py)
    if search:
        results[f"search_cold{suffix}"].append(search[0])
        results[f"search_cold_cpu{suffix}"].append(search[1])
    results[f"floor_cpu{suffix}"].append(floor_cpu)
    results[f"cold_cpu{suffix}"].append(cold.cpu)
    results[f"cpu_ratio{suffix}"].append(cold.cpu / floor_cpu)
    # Where the cold build's time went, run by run: the table keeps only medians.
    print(f"run {n + 1}{label and ', ' + label}: "
          f"floor {floor.seconds:.2f} s ({floor.cpu:.1f} s CPU, {floor.system:.1f} s system{floor_phase}), "
          f"cold build {cold.seconds:.2f} s ({cold.cpu:.1f} s CPU, {cold.system:.1f} s system; "
          f"{describe_phases(cold.output)})", flush=True)  # fmt: skip
    return env, cold


# What a fresh clone's `make build` does not have: the benchmark's own database, content and
# caches (a writer's shell might point elsewhere too, but then it is not a fresh clone's build).
NOT_IN_A_FRESH_CLONE = (
    "CONTENT_DIR",
    "DATABASE_URL",
    "MEDIA_CACHE_DIR",
    "CONTENT_CACHE_DIR",
    "SCHEMA_CACHE_DIR",
    "JINJA2_CACHE_DIR",
)


def fresh_clone(folder):
    """The files of the repository's HEAD in `folder`, as `git clone` checks them out (dates of
    now): no .cache/, no database, no dist/. Uncommitted changes are not in it."""
    folder.mkdir()
    try:
        archive = subprocess.run(
            ["git", "-C", str(ROOT), "archive", "--format=tar", "HEAD"], capture_output=True, check=True
        )
        subprocess.run(["tar", "-x", "-m", "-C", str(folder)], input=archive.stdout, check=True)
    except (OSError, subprocess.CalledProcessError) as exc:
        detail = getattr(exc, "stderr", None) or b""
        raise MeasureFailed(
            f"the sample site's fresh clone: could not extract HEAD of {ROOT} with git and tar "
            f"(a git checkout is needed): {exc}\n{detail.decode('utf-8', 'replace').strip()}"
        ) from None


def uncommitted():
    """Whether the working tree's tracked files differ from HEAD (the sample site builds HEAD)."""
    status = subprocess.run(
        ["git", "-C", str(ROOT), "status", "--porcelain", "--untracked-files=no"],
        capture_output=True,
        text=True,
    )
    return status.returncode == 0 and bool(status.stdout.strip())


def sample_site(n, args, tmp, results):
    """The sample site (content/) as `make build` builds it in a fresh clone: `distill-local dist`
    in a copy of HEAD, whole process (the interpreter's start, migrating a new database, the
    schema, the images' variants, compiling the templates). Then again after removing the
    database and the output but not the caches (.cache/) the first build made: what it costs
    once those exist."""
    clone = tmp / f"clone-{n}"
    fresh_clone(clone)
    env = {name: value for name, value in user_environ().items() if name not in NOT_IN_A_FRESH_CLONE}
    command = [PYTHON, "manage.py", "distill-local", "dist"]
    first = checked("the sample site's build in a fresh clone", command, env, args.timeout, cwd=clone)
    results["sample"].append(first.seconds)
    for path in clone.iterdir():
        if path.name in ("dist", "db.sqlite3", "db.sqlite3-journal") or path.name.startswith(".dist"):
            if path.is_dir() and not path.is_symlink():
                shutil.rmtree(path)
            else:
                path.unlink()
    warm = checked("the sample site's build with warm caches", command, env, args.timeout, cwd=clone)
    results["sample_warm"].append(warm.seconds)
    shutil.rmtree(clone)


def one_run(n, args, content, bare, edited, tmp, results):
    """Floor and cold build with and without media, the sample site, the no-change and one-edit
    rebuilds, the whole tree's memory; append figures to `results`. No timed command follows the
    removal of another's output: the file system here (ext4 without a journal) skips recently
    freed inodes when it makes new files, and a cold build timed right after removing the
    floor's 30,000 files spent up to a third of its render's CPU time on that. The outputs of
    every run stay until the benchmark ends (about 2 GB a run at L)."""
    folder = tmp / f"run-{n}"
    folder.mkdir()
    # Its own media cache, empty: the cold build makes every image variant, as the floor does;
    # the rebuilds of this run keep it.
    # The floor makes the search index too: one run gives it with and without (floor_and_cold).
    env, cold = floor_and_cold(n, "", content, folder / "media", args, results, "")
    results["peak_process"].append(cold.peak_process / MB)
    site = folder / "media" / "site"
    build = [PYTHON, "manage.py", "distill-local", str(site), "--force"]
    files, largest, name = output_files(site)
    results["files"].append(files)
    results["largest"].append(largest / MB)
    results["largest_name"].append(name)
    # The same content without its media set: the build's own costs, which the images' share
    # hides (at S the images are most of the floor).
    floor_and_cold(n, "no media", bare, folder / "no-media", args, results, "_bare")

    results["nochange"].append(checked("the no-change rebuild", build, env, args.timeout).seconds)

    # A CI runner's build: a new database and no output, `.cache/` (the media and content caches
    # the cold build filled) restored.
    restored_env = {**env, "DATABASE_URL": f"sqlite:///{folder / 'restored.sqlite3'}"}
    restored_build = [PYTHON, "manage.py", "distill-local", str(folder / "restored-site"), "--force"]
    restored = checked("the build with .cache/ restored", restored_build, restored_env, args.timeout)
    results["restored"].append(restored.seconds)
    results["restored_ratio"].append(restored.seconds / cold.seconds)

    sample_site(n, args, tmp, results)

    article = content / "articles" / f"{edited}.md"
    # A body edit changes the article's own page and JSON; a title edit also every list,
    # llms.txt and the feed, which show titles.
    for key, edit in (("edit", append_line), ("retitle", retitle)):
        before = folder / "before"
        keep_copy(site, before)
        edit(article, n)
        rebuilt = checked(f"the one-edit rebuild ({key})", build, env, args.timeout)
        results[key].append(rebuilt.seconds)
        search = phase(rebuilt.output, "search")
        if search:
            results[f"{key}_search"].append(search[0])
        changes = compare(before, site)
        results[f"{key}_rewritten"].append(changes.rewritten)
        results[f"{key}_changed"].append(changes.changed)
        results["needless"].extend(rel for rel in changes.needless if rel not in results["needless"])
        shutil.rmtree(before)

    # The whole tree's memory: a cold build again (its own database, output and media cache),
    # sampled; sampling would slow a timed command (measure()).
    memory_env = {**env, "DATABASE_URL": f"sqlite:///{folder / 'memory.sqlite3'}",
                  "MEDIA_CACHE_DIR": str(folder / "memory-media-cache"),
                  "CONTENT_CACHE_DIR": str(folder / "memory-content-cache")}  # fmt: skip
    memory_build = [PYTHON, "manage.py", "distill-local", str(folder / "memory-site"), "--force"]
    memory = checked("the cold build (memory sampled)", memory_build, memory_env, args.timeout, True)
    results["peak_tree"].append(memory.peak_tree / MB)
    results["peak_indexing"].append(memory.peak_indexing / MB)
    results["peak_pagefind"].append(memory.peak_pagefind / MB)
    return env


def append_line(article, n):
    with open(article, "a", encoding="utf-8") as handle:
        handle.write(f"\nA line added by the benchmark, run {n + 1}.\n")


def retitle(article, n):
    """Give the article a new title (the `title:` line of its front matter)."""
    front, separator, body = article.read_text(encoding="utf-8").partition("\n---\n")
    lines = [
        f'title: "Retitled by the benchmark, run {n + 1}"' if line.startswith("title:") else line
        for line in front.split("\n")
    ]
    article.write_text("\n".join(lines) + separator + body, encoding="utf-8")


def seconds(value):
    return f"{value:.2f} s"


def millis(value):
    return f"{value:.1f} ms"


def megabytes(value):
    return f"{value:.0f} MB"


def times(value):
    return f"{value:.2f}x"


def count(value):
    return f"{value:g}"


def mebibytes(value):
    return f"{value:.2f} MiB"


# Targets by size (fixed costs weigh more at S, the lists more at L): issue 43's for the cold
# build's ratio, a build with .cache/ restored, the edits, the sample site and memory; issue 34's
# for the search index (its part of an edit's rebuild, the whole tree while it indexes); issue
# 18's for the server.
TARGETS = {
    "S": {"ratio": 1.20, "restored": 0.4, "sample": 1.2, "nochange": 1.0, "edit": 1.0, "retitle": 1.5,
          "memory": 250, "detail": 20, "list": 50, "after_save": 200, "search": 3.0, "search_memory": 400},
    "L": {"ratio": 1.15, "restored": 0.4, "sample": 1.2, "nochange": 1.0, "edit": 1.5, "retitle": 2.0,
          "memory": 250, "detail": 20, "list": 50, "after_save": 200, "search": 3.0, "search_memory": 400},
}  # fmt: skip


def table(results, failure, size="S"):
    """The rows: (figure, median, min-max, target, ok?)."""
    rows = []
    targets = TARGETS.get(size, TARGETS["S"])

    def row(figure, key, show, target=None, limit=None):
        values = results.get(key) or []
        if not values:
            rows.append((figure, "n/a", "", target or "", "FAILED" if failure else "n/a"))
            return
        median = statistics.median(values)
        spread = f"{show(min(values))} - {show(max(values))}"
        ok = "" if limit is None else ("ok" if median <= limit else "MISSED")
        rows.append((figure, show(median), spread, target or "", ok))

    ratio = targets["ratio"]
    # With the media set (make bench's content) and without it, where the build's own costs show:
    # the same targets (issue 43).
    for suffix, label in (("", "with media"), ("_bare", "no media")):
        floor = statistics.median(results[f"floor{suffix}"]) if results.get(f"floor{suffix}") else None
        row(f"floor ({label})", f"floor{suffix}", seconds)
        target = f"<= {ratio} x floor" + (f" = {seconds(ratio * floor)}" if floor else "")
        row(f"cold build ({label})", f"cold{suffix}", seconds, target, ratio * floor if floor else None)
        row(f"cold / floor ({label})", f"ratio{suffix}", times, f"<= {ratio:.2f}x", ratio)
        # Equal work: the floor with the build's search index (Pagefind), the same target.
        row(f"floor with search ({label})", f"floor_search{suffix}", seconds)
        row(f"cold / floor with search ({label})", f"ratio_search{suffix}", times, f"<= {ratio:.2f}x", ratio)
        row(f"  CPU time: floor ({label})", f"floor_cpu{suffix}", seconds)
        row(f"  CPU time: cold build ({label})", f"cold_cpu{suffix}", seconds)
        row(f"  CPU time: cold / floor ({label})", f"cpu_ratio{suffix}", times)
        row(f"  CPU time: floor with search ({label})", f"floor_search_cpu{suffix}", seconds)
        row(f"  CPU time: cold / floor with search ({label})", f"cpu_ratio_search{suffix}", times)
    restored = targets["restored"]
    row("new database, .cache/ restored (with media)", "restored", seconds)
    row("  of the cold build", "restored_ratio", times, f"<= {restored:.2f}x", restored)
    row("files in the output (cold, with media)", "files", count, "reported, no target")
    largest, names = results.get("largest"), results.get("largest_name") or []
    if largest:
        name = " or ".join(sorted(set(names)))
        text = f"{mebibytes(statistics.median(largest))} ({name})"
        spread = f"{mebibytes(min(largest))} - {mebibytes(max(largest))}"
        rows.append(("largest file (cold, with media)", text, spread, "reported, no target", ""))
    else:
        row("largest file (cold, with media)", "largest", mebibytes, "reported, no target")
    sample = targets["sample"]
    row("sample site, fresh clone (content/)", "sample", seconds, f"<= {sample} s", sample)
    row("sample site, warm caches", "sample_warm", seconds)
    row("rebuild, no change", "nochange", seconds, f"<= {targets['nochange']} s", targets["nochange"])
    for key, figure in (
        ("edit", "rebuild, one article's body edited"),
        ("retitle", "rebuild, its title edited"),
    ):
        row(figure, key, seconds, f"<= {targets[key]} s", targets[key])
        rewritten, changed = results.get(f"{key}_rewritten"), results.get(f"{key}_changed")
        if rewritten:
            ok = "ok" if rewritten == changed else "MISSED"
            spread = f"{min(rewritten)} - {max(rewritten)}"
            text = f"{statistics.median(rewritten):g} ({statistics.median(changed):g} changed bytes)"
            rows.append(("  files it rewrote", text, spread, "only files whose bytes change", ok))
        else:
            row("  files it rewrote", f"{key}_rewritten", count, "only files whose bytes change")
    memory = targets["memory"]
    row("peak memory, largest process (cold)", "peak_process", megabytes, f"<= {memory} MB", memory)
    row("peak memory, whole tree PSS (cold)", "peak_tree", megabytes, f"<= {memory} MB", memory)
    # Issue 34: what the search index costs, within the build's figures above.
    search, search_memory = targets["search"], targets["search_memory"]
    row("search index: cold build (with media)", "search_cold", seconds, "reported, no target")
    row("  CPU time: search index (with media)", "search_cold_cpu", seconds)
    row("search index: floor (with media)", "search_floor", seconds, "reported, no target")
    row("  CPU time: floor's search index (with media)", "search_floor_cpu", seconds)
    row("search index: body edit", "edit_search", seconds, f"<= {search} s", search)
    row("search index: title edit", "retitle_search", seconds, f"<= {search} s", search)
    row("peak memory while indexing, whole tree PSS (cold)", "peak_indexing", megabytes,
        f"<= {search_memory} MB", search_memory)  # fmt: skip
    row("  of it Pagefind's processes", "peak_pagefind", megabytes)
    for key, figure in (
        ("detail", "server: one article (API)"),
        ("list", "server: article list (API)"),
        ("list_page", "server: article list (/articles)"),
        ("after_save", "server: first request after a save"),
    ):
        limit = targets["list" if key == "list_page" else key]
        row(figure, key, millis, f"<= {limit} ms", limit)
    return rows


def print_table(rows):
    header = ("figure", "median", "min - max", "target", "ok?")
    widths = [max(len(str(r[i])) for r in (header, *rows)) for i in range(len(header))]
    for line in (header, tuple("-" * w for w in widths), *rows):
        print("  ".join(str(cell).ljust(width) for cell, width in zip(line, widths, strict=True)).rstrip())


def interrupted(signum, frame):
    raise KeyboardInterrupt


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", choices=gen_content.SIZES, default="S", help="S (default) or L")
    parser.add_argument("--projects", type=int, help="override the size's number of projects")
    parser.add_argument("--articles", type=int, help="override the size's number of articles")
    parser.add_argument("--drafts", type=float, default=0.1, help="share of drafts (default 0.1)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--runs", type=int, default=3, help="runs per figure; the median is shown")
    parser.add_argument("--requests", type=int, default=20, help="timed requests of the detail endpoint")
    parser.add_argument("--list-requests", type=int, default=5, help="timed requests of the article list")
    parser.add_argument("--timeout", type=float, default=900, help="seconds allowed to each command")
    parser.add_argument("--cache", action="store_true", help="save generated content in bench/.cache")
    parser.add_argument("--keep", action="store_true", help="keep the temporary folder and print it")
    parser.add_argument("--python", help="the Python to build with (default: a site-only environment)")
    args = parser.parse_args(argv)
    global PYTHON
    PYTHON = args.python or site_python()

    signal.signal(signal.SIGTERM, interrupted)  # a kill, like Ctrl-C, still runs the clean-up below
    tmp = Path(tempfile.mkdtemp(prefix="portfolio-bench-"))
    results = defaultdict(list)  # figure -> one value per run (per request for the server)
    failure = None
    try:
        content, bare = prepare_content(args, tmp), prepare_content(args, tmp, media=False)
        slugs = published_articles(content)
        edited, requested = slugs[0], slugs[len(slugs) // 2]
        print(f"machine: {os.cpu_count()} cores; {args.runs} run(s); editing articles/{edited}.md")
        print(f"python: {PYTHON}")
        if uncommitted():
            print(
                "note: the sample site builds HEAD, as a fresh clone would: uncommitted changes are not in it"
            )
        env = None
        try:
            for n in range(args.runs):
                env = one_run(n, args, content, bare, edited, tmp, results)
                print(f"run {n + 1}/{args.runs} done", flush=True)
            timings = time_server(env, requested, content, args.requests, args.list_requests, args.timeout)
            results.update(timings)
        except MeasureFailed as exc:
            failure = str(exc)
        print()
        print_table(table(results, failure, args.size))
        if failure:
            print(f"\nNOT MEASURED: {failure}")
            print("(the figures above are what could be measured before that)")
            return 1
        if results["needless"]:
            names = ", ".join(sorted(results["needless"])[:10])
            print(f"\nrewritten by an edit rebuild with unchanged bytes: {names}")
        missed = [row[0].strip() for row in table(results, None, args.size) if row[4] == "MISSED"]
        print(f"\nmissed targets: {', '.join(missed)}" if missed else "\nevery target met")
        return 0
    except KeyboardInterrupt:
        print("\ninterrupted: stopping what was started and cleaning up", file=sys.stderr)
        return 130
    finally:
        for proc in list(_running):
            kill_group(proc)
        if args.keep:
            print(f"kept {tmp}")
        else:
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
