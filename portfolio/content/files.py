"""Reading the content folder safely: what a path is before it is read (symbolic links only within
the folder, no loops, no pipes or devices), and reads bounded in size. Used for the markdown and
YAML files (importer) and the media files (media), so that both refuse hostile files alike."""

import os
import stat

from .rules import invalid


def entry_problem(path, content_dir, expected="a markdown file <slug>.md", folder=False):
    """Why `path` (inside the content folder) cannot be read as `expected`, or None."""
    try:
        if path.is_symlink():
            # Links are followed only within the content folder: a link elsewhere would publish
            # whatever it points to, and a loop would fail every read.
            target = path.resolve(strict=True)
            if not target.is_relative_to(content_dir):
                return f"a symbolic link to {target}, outside the content folder"
        mode = path.stat().st_mode
    except RuntimeError:
        return "a symbolic link loop"
    except FileNotFoundError:
        return "a symbolic link to nothing"
    except OSError as exc:
        return f"cannot be read: {exc.strerror}"
    if folder:
        return None if stat.S_ISDIR(mode) else f"expected {expected}; got a file"
    if stat.S_ISDIR(mode):
        return f"expected {expected}; got a folder"
    if not stat.S_ISREG(mode):
        return f"expected {expected}; got a special file (a pipe, socket or device)"
    return None


def read(path, rel, limit, setting="CONTENT_MAX_FILE_BYTES"):
    """(bytes, (mtime_ns, size)) of a content file of at most `limit` bytes; raises ContentInvalid.
    Opened without blocking and checked on the open file, so a file swapped for a pipe since
    discover() cannot hang the import."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except OSError as exc:
        raise invalid(rel, "file", f"cannot be read: {exc.strerror}") from None
    with os.fdopen(fd, "rb") as handle:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise invalid(rel, "file", "expected a regular file")
        raw = handle.read(limit + 1)
    if len(raw) > limit:
        message = (
            f"{max(info.st_size, len(raw)):,} bytes is over the limit of {limit:,} bytes per file ({setting})"
        )
        raise invalid(rel, "file", message)
    return raw, (info.st_mtime_ns, info.st_size)
