"""Where a build's new files go, for the steps that make them (render.py, search_index.py): into
the stage folder, or, when the previous build has a file with the same bytes, that file linked
or left in place, so its stat shows it did not change.
"""

import os
import shutil
from typing import NamedTuple


class Output(NamedTuple):
    """Where rendered files go: the stage, the previous build's folder (None: no previous build),
    and whether the previous folder is updated in place afterwards."""

    stage: str
    previous: str | None
    in_place: bool


def record(state, path, placed):
    """Note a placed file in the build: its stat, and whether its bytes are new."""
    stat, new = placed
    state.rendered[path] = stat
    if new:
        state.written.add(path)


def place(body, path, output):
    """Write `body` to the stage, or keep the previous build's identical file: (its [size,
    mtime_ns], whether its bytes are new). A link, a copy and a rename all keep the stat."""
    if output.previous:
        old = os.path.join(output.previous, path)
        try:
            stat = os.stat(old)
            if stat.st_size == len(body):
                with open(old, "rb") as handle:
                    same = handle.read() == body
                if same:
                    if not output.in_place:
                        link_or_copy(old, os.path.join(output.stage, path))
                    return [stat.st_size, stat.st_mtime_ns], False
        except OSError:
            pass
    destination = os.path.join(output.stage, path)
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
