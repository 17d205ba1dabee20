"""What a build keeps beside its output folder, for the next build of the same folder.

`.<name>.manifest` (JSON): the fingerprint of the build's inputs, the drafts and address it was
checked against, and every file it wrote with its dependency key and stat. The next build carries
over a file whose key is unchanged and whose stat is as recorded, and with the same fingerprint
and every file as recorded it has nothing to do at all. `.<name>.lock`: held while a build runs.
"""

import hashlib
import importlib
import json
import os
from pathlib import Path

from django.conf import settings

VERSION = 3
# Files whose bytes decide how every URL renders: a change to any of them renders every URL.
CODE_DIRS = ["api", "pages", "contact", "portfolio", "templates", "locale"]
# .md: templates; .mo: the site's words, compiled (locale/)
CODE_SUFFIXES = {".py", ".html", ".css", ".js", ".svg", ".txt", ".xml", ".json", ".md", ".mo"}


def manifest_path(out_dir):
    return out_dir.parent / f".{out_dir.name}.manifest"


def lock_path(out_dir):
    return out_dir.parent / f".{out_dir.name}.lock"


def is_build(out_dir):
    """Does `out_dir` hold a previous build (its manifest is beside it)?"""
    return manifest_path(out_dir).exists()


def read(out_dir):
    """The previous build's manifest, or {} when there is none this code can use."""
    try:
        manifest = json.loads(manifest_path(out_dir).read_bytes())
    except (OSError, ValueError):
        return {}
    if not isinstance(manifest, dict) or manifest.get("version") != VERSION or not out_dir.is_dir():
        return {}
    return manifest


def write(out_dir, manifest):
    """Write the manifest whole or not at all."""
    path = manifest_path(out_dir)
    partial = path.with_name(path.name + ".tmp")
    partial.write_text(json.dumps({**manifest, "version": VERSION}, separators=(",", ":")))
    os.replace(partial, path)


def code_files():
    base = Path(settings.BASE_DIR)
    for folder in CODE_DIRS:
        for path in sorted((base / folder).rglob("*")):
            if path.suffix in CODE_SUFFIXES and "__pycache__" not in path.parts:
                yield path
    yield base / "requirements.txt"


def inputs(stats):
    """A fingerprint of what the output depends on: the settings the settings module defines (a
    new CONTENT_DIR, SITE_URL or database is a new build) and the stat of every content and code
    file (equal stats stand for equal files, as in the importer). None when the
    content folder links to a folder (its files may change unseen). Fills `stats` with
    {path: (mtime_ns, size)} of the content files, which the importer then need not take again."""
    digest = hashlib.sha256()
    for name in sorted(vars(importlib.import_module(os.environ["DJANGO_SETTINGS_MODULE"]))):
        # BUILD_DATE decides only which articles are scheduled, which the manifest's "schedule"
        # window covers (build.is_up_to_date): a new date inside it changes nothing.
        if name.isupper() and name != "BUILD_DATE":
            value = getattr(settings, name)
            if name == "DATABASES":  # Django fills in its defaults at start: only which database
                value = [value["default"].get(key) for key in ("ENGINE", "NAME", "HOST", "PORT")]
            digest.update(f"{name}={value!r}\0".encode())
    for folder, dirs, names in os.walk(settings.CONTENT_DIR):
        if any(os.path.islink(os.path.join(folder, name)) for name in dirs):
            return None
        dirs.sort()
        for name in sorted(names):
            path = os.path.join(folder, name)
            stat = _add_stat(digest, path)
            if stat:
                stats[path] = (stat.st_mtime_ns, stat.st_size)
    for path in code_files():
        _add_stat(digest, str(path))
    return digest.hexdigest()


def _add_stat(digest, path):
    try:
        stat = os.stat(path)  # a linked file: its target's stat
    except OSError:
        digest.update(f"{path}\0missing\0".encode())
        return None
    digest.update(f"{path}\0{stat.st_size}\0{stat.st_mtime_ns}\0".encode())
    return stat


def stat_of(path):
    """[size, mtime_ns] of a file, as the manifest records it, or None."""
    try:
        stat = os.stat(path)
    except OSError:
        return None
    return [stat.st_size, stat.st_mtime_ns]


def altered(out_dir, files):
    """The recorded files ({path: [key, size, mtime_ns]}) that are not as the build left them:
    someone changed or removed them since."""
    return {path for path, entry in files.items() if stat_of(os.path.join(out_dir, path)) != entry[1:]}
