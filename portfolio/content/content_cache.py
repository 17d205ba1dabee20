"""The import's rendered files, kept between databases in settings.CONTENT_CACHE_DIR: what
parse_file() made of a file (its fields, the body's HTML and contents, the references found in
it, its content hash), named by a hash of the file's bytes, its path and the renderer. A new
database (a CI runner that restored `.cache/`, a clone) then parses and renders only what no
earlier import rendered, as media.py's cache spares it the image variants.

The renderer is everything a body's HTML depends on besides the file: the versions of the
packages that parse and render (RENDERING_PACKAGES), IMPORT_VERSION, and the source of the
project's code that parses and renders (RENDERING_CODE, the parser's settings among it): a change
to any of them is a new renderer, so no stale HTML is ever read back. What a file's
result depends on outside it, the media files it shows, is checked on reading: an entry made
when one of them had other bytes is not used. A scheduled article's hold (schedule.hold()) depends
on the day: applied after reading, never stored. A cache entry that cannot be read is ignored and made again.
"""

import functools
import hashlib
import importlib.metadata
import os
import pickle
import tempfile
from pathlib import Path

from django.conf import settings

# The code that makes a file's fields and HTML: every module of the content app (a new
# extension's among them), and the routes the links to items are reversed with.
ROOT = Path(__file__).resolve().parent.parent.parent
RENDERING_CODE = ("portfolio/content/*.py", "portfolio/reversing.py", "pages/urls.py")
RENDERING_PACKAGES = ("markdown-it-py", "mdit-py-plugins", "pygments", "pyyaml", "latex2mathml")


@functools.cache
def renderer():
    """A hash of everything besides the file that decides what parsing it makes."""
    from . import importer

    parts = [importer.IMPORT_VERSION]
    parts += [f"{package} {package_version(package)}" for package in RENDERING_PACKAGES]
    for pattern in RENDERING_CODE:
        for path in sorted(ROOT.glob(pattern)):
            parts += [str(path.relative_to(ROOT)), hashlib.sha256(path.read_bytes()).hexdigest()]
    return hashlib.sha256("\0".join(parts).encode()).hexdigest()


def package_version(name):
    try:
        return importlib.metadata.version(name)
    except importlib.metadata.PackageNotFoundError:
        return "none"


def entry_path(rel, content_hash):
    key = hashlib.sha256(f"{renderer()}\0{rel}\0{content_hash}".encode()).hexdigest()
    return Path(settings.CONTENT_CACHE_DIR) / key[:2] / f"{key}.pickle"


def media_used(fields):
    """The media paths a parsed file's result depends on: its image and the media it refers to."""
    targets = {target for _, target, _ in fields.get("references", ())}
    return sorted(target.removeprefix("media/") for target in targets if target.startswith("media/"))


def media_state(paths, media_index):
    return {path: media_index[path].content_hash if path in media_index else None for path in paths}


def read(rel, content_hash, media_index):
    """(fields, content hash) parse_file() made of this file before, or None."""
    try:
        with open(entry_path(rel, content_hash), "rb") as handle:
            fields, final_hash, media = pickle.load(handle)
    except (OSError, pickle.UnpicklingError, EOFError, ValueError, TypeError, AttributeError, ImportError):
        return None
    if media_state(media, media_index) != media:
        return None  # a media file it shows has changed (its size, its variants)
    return fields, final_hash


def write(rel, content_hash, fields, final_hash, image, media_index):
    """Keep what parse_file() made of this file (written whole or not at all)."""
    media = media_state(sorted(set(media_used(fields)) | ({image} if image else set())), media_index)
    entry = pickle.dumps((fields, final_hash, media), protocol=pickle.HIGHEST_PROTOCOL)
    keep(entry_path(rel, content_hash), entry)


def keep(path, data):
    """Write a cache file whole or not at all (a reader never sees half of one). A read-only or
    full disk keeps nothing: what was made is used without being kept."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".tmp-")
        with os.fdopen(handle, "wb") as out:
            out.write(data)
        os.replace(temporary, path)
    except OSError:
        pass
