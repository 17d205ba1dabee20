"""Step 5 of a build: put the verified files in place of the output folder, and record them.

A stage that holds the whole new site (a first build, or one that rendered much of it) is swapped
for the old folder in one rename. A stage that holds only an edit's new files has them moved into
the previous folder, one rename each, and the files the site no longer has are removed: linking
30,000 unchanged files into a new folder would cost more than the edit. Those renames are not one
step; a build killed among them leaves files whose stat the manifest does not record, and the next
build renders them again.
"""

import ctypes
import os

from portfolio.content import schedule
from portfolio.interrupts import raise_if_interrupted, signals_held

from . import manifest, plan


def publish(state):
    with signals_held():  # the folder and its manifest change together
        raise_if_interrupted()
        if state.in_place:
            # The host files too: a redirect page (REDIRECT_PAGES) goes with its alias.
            stale = (
                set(state.previous.get("files", {})) | set(state.previous.get("host_files", {}))
            ) - state.files
            move_into(state.stage, state.out_dir, sorted(state.written), stale)
        else:
            swap(state.stage, state.out_dir)
        files = {target.path: state.previous["files"][target.path] for target in state.carried}
        for target in state.targets:
            if target.path in state.rendered:
                files[target.path] = [state.keys[target.path], *state.rendered[target.path]]
        for path, key in state.search_files.items():  # search_index.py's, new or carried over
            stat = state.rendered.get(path) or state.previous["files"][path][1:]
            files[path] = [key, *stat]
        manifest.write(state.out_dir, {
            "inputs": state.inputs,
            "drafts": plan.drafts_key(state),
            "schedule": schedule.window(),  # a build's date outside it has articles to (un)publish
            "base_url": state.base_url,
            "files": files,
            "search": state.search_keys,
            "host_files": {path: state.rendered[path] for path in state.host_files},
        })  # fmt: skip


def move_into(stage, out_dir, written, stale):
    """Move the files written into `stage` into `out_dir`, then remove the `stale` files (the
    site no longer has them) and the folders that leaves empty."""
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


def swap(new, target):
    """Put `new` in place of `target` in one step (Linux renameat2), else in two renames;
    `new` then holds the old folder, which the build removes."""
    if target.exists():
        libc = ctypes.CDLL(None, use_errno=True)
        exchange = getattr(libc, "renameat2", None)
        if exchange is not None and exchange(-100, bytes(new), -100, bytes(target), 2) == 0:
            return  # AT_FDCWD, RENAME_EXCHANGE
        old = new.with_name(new.name + ".old")
        os.rename(target, old)
        os.rename(new, target)
        os.rename(old, new)
    else:
        os.rename(new, target)
