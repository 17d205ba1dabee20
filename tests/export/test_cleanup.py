"""Builds clean up after themselves: one build per folder, nothing left by a killed build, and
SIGINT/SIGTERM stop the workers and leave the previous output as it was. Real processes, real
signals; the tests wait for events (a process's exit, a line on stderr), with timeouts only as
guards against a hang."""

import os
import re
import select
import signal
import subprocess
import sys
import tempfile
import threading
import time

import pytest
from django.conf import settings

from portfolio.export.build import build_lock
from tests.content_builder import article, write_content

from .conftest import distill_local, tree


def big_content(root):
    """Enough articles that importing and rendering them on two workers takes a few seconds, on a
    busy machine too (the signal tests must reach the render before it ends): the import's first
    progress line comes a second into it, so each body has code to highlight."""
    code = "```python\n" + "def double(x):\n    return x * 2  # twice\n" * 60 + "```\n"
    files = {
        f"articles/post-{n}.md": article(f"Post {n}", body="Some *text*.\n" * 50 + code) for n in range(800)
    }
    return write_content(write_content(root), files)


def start_build(content, out, db, *args, cache=None):
    environ = {k: v for k, v in os.environ.items() if k not in {"SITE_URL", "DEBUG"}}
    environ.update(CONTENT_DIR=str(content), DATABASE_URL=f"sqlite:///{db}")
    # An empty content cache unless given: the import renders every body, long enough to be interrupted.
    environ["CONTENT_CACHE_DIR"] = str(cache or tempfile.mkdtemp(prefix="content-cache-", dir=db.parent))
    return subprocess.Popen(
        [sys.executable, "manage.py", "distill-local", str(out), "--workers", "2", *args],
        cwd=settings.BASE_DIR, env=environ, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip


def rendering(build, out, seconds=120):
    """Wait until the build renders with its worker (its temporary folder exists). Nothing tells
    this process when another one forks or makes a folder: this one condition is polled, the
    deadline a guard against a hang."""
    deadline = time.monotonic() + seconds
    while build.poll() is None and not (temp_folders(out) and len(processes_mentioning(str(out))) >= 2):
        assert time.monotonic() < deadline, "the build never started rendering"
        time.sleep(0.05)
    assert build.poll() is None, build.stderr.read()


def no_process_outlives(out, seconds=10):
    """Wait for the exit of every process still mentioning `out` (the build's workers, which are
    not this process's children: a pidfd, readable once the process has exited), then check that
    none is left."""
    for pid in processes_mentioning(str(out)):
        try:
            pidfd = os.pidfd_open(pid)
        except ProcessLookupError:
            continue  # gone already
        try:
            readable, _, _ = select.select([pidfd], [], [], seconds)
        finally:
            os.close(pidfd)
        assert readable, f"PID {pid} outlived the build"
    assert processes_mentioning(str(out)) == []


def temp_folders(out):
    return sorted(p.name for p in out.parent.iterdir() if p.name.startswith(f".{out.name}.build-"))


def processes_mentioning(text):
    """PIDs of live processes whose command line holds `text` (the build and its forked workers)."""
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as handle:
                cmdline = handle.read()
            with open(f"/proc/{pid}/stat") as handle:
                zombie = handle.read().rsplit(")", 1)[1].split()[0] == "Z"
        except OSError:
            continue
        if text.encode() in cmdline and not zombie:
            found.append(int(pid))
    return found


def read_lines(stream, lines, text, seen):
    """Collect `stream`'s lines into `lines`; set the event `seen` at the first holding `text`,
    or at the end of the stream (the process exited without it)."""
    for line in stream:
        lines.append(line)
        if text in line:
            seen.set()
    seen.set()


@pytest.fixture(scope="module")
def rendered_bodies(tmp_path_factory):
    """A content cache shared by the tests that interrupt what comes after the import: the first
    one's import renders the big content's bodies into it, the later ones' read them back and
    reach the step they interrupt sooner. The test that interrupts the import keeps an empty one."""
    return tmp_path_factory.mktemp("content-cache")


@pytest.fixture
def previous(tmp_path):
    """A folder holding a previous build of the standard content, and the content to change."""
    content = big_content(tmp_path / "content")
    out = tmp_path / "site"
    out.mkdir()
    (out / "keep.txt").write_text("the previous output")
    return content, out, tmp_path / "db.sqlite3"


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_a_signal_stops_the_build_and_keeps_the_previous_output(previous, signum, rendered_bodies):
    content, out, db = previous
    before = tree(out)
    build = start_build(content, out, db, "--force", cache=rendered_bodies)
    rendering(build, out)
    build.send_signal(signum)
    _, stderr = build.communicate(timeout=60)
    assert build.returncode == 128 + signum
    assert stderr.strip().splitlines()[-1] == (
        f"CommandError: Interrupted by {signal.Signals(signum).name}: the build stopped and {out} "
        "was left as it was."
    )
    assert "Traceback" not in stderr
    assert tree(out) == before and temp_folders(out) == []
    no_process_outlives(out)


def test_the_next_build_removes_what_a_killed_build_left(previous, rendered_bodies):
    content, out, db = previous
    build = start_build(content, out, db, "--force", cache=rendered_bodies)
    rendering(build, out)
    build.kill()
    build.wait(timeout=30)
    left = temp_folders(out)
    assert left, "SIGKILL leaves the temporary folder (nothing can run after it)"
    no_process_outlives(out)  # workers die with it
    # What the next build removes is the point, not what it renders: the standard content alone
    # (the big one's posts deleted, which its import sees) builds in a fraction of the time.
    for post in (content / "articles").glob("post-*.md"):
        post.unlink()
    result = distill_local(content, out, db, "--force", "--workers", "2")
    assert result.returncode == 0, result.stderr
    assert temp_folders(out) == [] and (out / "index.html").exists()


def test_a_second_build_of_the_folder_fails_at_once_naming_the_first(tmp_path):
    content = write_content(tmp_path / "content")
    out = tmp_path / "site"
    with build_lock(out):
        try:
            result = distill_local(content, out, tmp_path / "db.sqlite3", timeout=120)
        except subprocess.TimeoutExpired:
            pytest.fail("the second build waited for the lock the test holds instead of failing")
        # It has exited while the test still holds the lock: it did not wait for it.
    assert result.returncode == 1
    assert f"{out} is being built by PID {os.getpid()} on " in result.stderr
    assert "wait for it, or pass --wait" in result.stderr
    assert not out.exists()
    assert not (tmp_path / "db.sqlite3").exists(), "nothing imported either"


def test_two_builds_at_once_with_wait_both_succeed(tmp_path):
    """Both wait while another build holds the folder (here the test, so that they meet however
    fast they start and build), then take their turns: neither fails, nor meets a locked database.
    The standard content is enough: the test's lock, not the builds' length, makes them meet."""
    content, out, db = write_content(tmp_path / "content"), tmp_path / "site", tmp_path / "db.sqlite3"
    with build_lock(out):
        builds = [start_build(content, out, db, "--wait") for _ in range(2)]
        errors = [[] for _ in builds]  # each build's stderr lines, read as they come
        waiting = [threading.Event() for _ in builds]  # the "waiting for PID" line, or the end
        readers = [
            threading.Thread(
                target=read_lines, args=(build.stderr, lines, "waiting for PID", event), daemon=True
            )
            for build, lines, event in zip(builds, errors, waiting, strict=True)
        ]
        for reader in readers:
            reader.start()
        for event, lines in zip(waiting, errors, strict=True):
            assert event.wait(timeout=120), "neither waiting nor exited"  # a hang guard
            assert any("waiting for PID" in line for line in lines), lines
    for build, reader in zip(builds, readers, strict=True):
        build.wait(timeout=300)
        reader.join(timeout=10)
    assert [build.returncode for build in builds] == [0, 0], errors
    assert "database is locked" not in "".join(line for lines in errors for line in lines)
    assert (out / "index.html").exists() and temp_folders(out) == []


# Lines of the build's progress after which the signal lands in a given step: the import (its
# first line comes a second into it), or the search index (which starts as the last page is
# rendered). The test above interrupts the rendering.
STEPS = {"import": r"importing: \d+/\d+", "search": r"rendering: (\d+)/\1 "}


def indexing(out):
    """Is Pagefind indexing for the build of `out`? Its pages folder is beside the stage. A render
    done within a second prints no progress line (portfolio/progress.py), and with warm caches
    and both cores free this one is just over a second: the search step is seen this way too."""
    return processes_mentioning(f"{out.parent}/.{out.name}.build-") != []


@pytest.mark.parametrize("step", STEPS)
def test_sigint_at_any_step_prints_its_one_line_and_nothing_after(previous, step, rendered_bodies):
    """No traceback from a pool's thread or a worker at the interpreter's exit, whichever step
    the signal interrupts: the pools are shut down before the command's line is printed."""
    content, out, db = previous
    before = tree(out)
    build = start_build(content, out, db, "--force", cache=None if step == "import" else rendered_bodies)
    lines = []
    reader = threading.Thread(target=read_lines, args=(build.stderr, lines, "\0", threading.Event()))
    reader.start()
    deadline = time.monotonic() + 180
    while not (any(re.search(STEPS[step], line) for line in lines) or step == "search" and indexing(out)):
        assert build.poll() is None and time.monotonic() < deadline, f"no {step} step seen: {lines}"
        time.sleep(0.02)
    build.send_signal(signal.SIGINT)
    build.wait(timeout=60)
    reader.join(timeout=10)
    said = [line.rstrip("\n") for line in lines if line.strip()]
    assert build.returncode == 130, said
    last = said.index(f"CommandError: Interrupted by SIGINT: the build stopped and {out} was left as it was.")
    assert said[last + 1 :] == [], said
    assert not any("Traceback" in line or "Exception" in line for line in said), said
    assert tree(out) == before and temp_folders(out) == []
    no_process_outlives(out)
