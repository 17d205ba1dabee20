"""The state of one build, passed from step to step (build.py runs them in order)."""

import os
import sys
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from portfolio.progress import Progress


class BuildFailed(Exception):
    """The build cannot publish: each problem names the file and what is wrong."""

    def __init__(self, problems):
        super().__init__(problems)  # its args: a worker's exception is pickled to the build
        self.problems = problems

    def __str__(self):
        return "\n".join(self.problems)


@dataclass
class BuildState:
    out_dir: Path
    full: bool = False
    workers: int = 1
    stderr: TextIO = sys.stderr
    phases: "Phases" = field(default_factory=lambda: Phases())

    # Before the steps: the previous build's manifest, the fingerprint of the inputs now with the
    # content files' stats taken for it (the importer's), and which of its files were changed.
    previous: dict = field(default_factory=dict)
    inputs: str | None = None
    content_stats: dict = field(default_factory=dict)
    altered: set = field(default_factory=set)  # the previous build's files not as it left them

    # plan.py: every target, the dependency key of each file, which to render.
    targets: list = field(default_factory=list)
    keys: dict = field(default_factory=dict)  # {path: key}
    # {"articles:<slug>": key} of what an item's page shows of the item alone, not its neighbours
    own_keys: dict = field(default_factory=dict)
    code: str = ""  # the hash of the code and settings that shape the output
    carried: list = field(default_factory=list)  # the previous build's file stands for these
    to_render: list = field(default_factory=list)
    base_url: str = ""
    drafts: list = field(default_factory=list)  # [(slug, title)] of every draft article
    # [(file, address, title)] of every draft or scheduled translation (plan.draft_translations)
    draft_translations: list = field(default_factory=list)
    host_files: dict = field(default_factory=dict)  # {"_headers": text, "_redirects": text}
    redirect_pages: dict = field(default_factory=dict)  # {file: HTML} of host_files (REDIRECT_PAGES)

    # render.py: where the new files are, and what was rendered.
    stage: Path | None = None
    in_place: bool = False  # the stage holds only new files, to move into out_dir (publish.py)
    rendered: dict = field(default_factory=dict)  # {path: [size, mtime_ns]} of every file rendered
    written: set = field(default_factory=set)  # the rendered files whose bytes are new

    # search_index.py: every file of the search index with its bundle's key, each bundle's key,
    # and how many bundles were indexed anew.
    search_files: dict = field(default_factory=dict)  # {path: key}
    search_keys: dict = field(default_factory=dict)  # {bundle: key}
    search_indexed: int = 0

    def progress(self, label, total):
        """A callable(done) that keeps a progress line of this step on stderr."""
        line = Progress(self.stderr, label)
        return lambda done: line(done, total)

    @property
    def files(self):
        """Every path of the new build."""
        return {target.path for target in self.targets} | set(self.host_files) | set(self.search_files)

    def folder_of(self, path):
        """Where a file of the new build is until it is published."""
        return self.stage if path in self.written or not self.in_place else self.out_dir

    def size_of(self, path):
        """The size of a rendered or carried file of the new build, as recorded."""
        stat = self.rendered.get(path)
        return stat[0] if stat else self.previous["files"][path][1]

    def read(self, path):
        with open(os.path.join(self.folder_of(path), path), "rb") as handle:
            return handle.read()


def cpu_seconds():
    """CPU time (user and system) of this process and of the child processes it has reaped."""
    times = os.times()
    return times.user + times.system + times.children_user + times.children_system


class Phases:
    """Wall and CPU time of each step, for the summary line. A step's CPU time counts the
    worker processes it reaped: on two cores, twice its wall time is both busy throughout."""

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

    def summary(self):
        return ", ".join(
            f"{name} {s:.1f}/{self.cpu.get(name, 0.0):.1f} s" for name, s in self.seconds.items()
        )
