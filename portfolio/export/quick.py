"""The no-change rebuild, answered before Django starts.

Starting Django and importing every view takes most of a second; proving that nothing changed
takes a few stats. A build records in its manifest a fingerprint of everything its output depends
on: the settings, the content folder's files and the code's files (path, size and mtime of each,
as the importer and the build compare them) and the stat of every file it wrote. When
`manage.py distill-local` finds the same fingerprint and every output file as recorded, it prints
"Up to date" and exits without starting Django; anything else (a difference, a build holding the
lock, an option it does not know) runs the full build, which decides. manage.py runs the check in
a child process while Django's first modules load (early.check), so that a build does not wait
for its stats before starting. Standard library only.
"""

import argparse
import fcntl
import hashlib
import importlib
import marshal
import os
import sys
from pathlib import Path
from urllib.parse import quote

MANIFEST_VERSION = 2
# Files whose bytes decide how every URL renders (the build hashes them: plan.code_hash).
CODE_DIRS = ["api", "pages", "contact", "portfolio", "templates"]
CODE_SUFFIXES = {".py", ".html", ".css", ".js", ".svg", ".txt", ".xml", ".json"}
BASE_DIR = Path(__file__).resolve().parent.parent.parent


def manifest_path(out_dir):
    return out_dir.parent / f".{out_dir.name}.manifest"


def plan_path(out_dir):
    """The build's list of URLs and files, kept for the next build (plan.targets)."""
    return out_dir.parent / f".{out_dir.name}.plan"


def layouts_path(out_dir):
    """The folder of layouts: where the pieces of each file made of pieces sit in it, a record
    per file (layout_path), kept for the next build (render.Parts)."""
    return out_dir.parent / f".{out_dir.name}.layouts"


def layout_path(out_dir, path):
    return layouts_path(out_dir) / quote(path, safe="")


def legacy_records(out_dir):
    """Records of earlier builds, which a build removes once it has written its own: the JSON
    records before MANIFEST_VERSION 2 (their folder is a previous build all the same), and the
    one record of every file's layout, which each build read and wrote whole."""
    json_records = [out_dir.parent / f".{out_dir.name}.{name}.json" for name in ("manifest", "plan", "parts")]
    return [*json_records, out_dir.parent / f".{out_dir.name}.parts"]


def is_build(out_dir):
    """Does `out_dir` hold a previous build (its manifest is beside it)?"""
    return manifest_path(out_dir).exists() or legacy_records(out_dir)[0].exists()


def read_record(path):
    """The dict a build kept in `path` (its manifest, URL plan or llms-full.txt's parts), or {}
    if it is missing or not one. Kept in marshal's format, not JSON: at 10,000 articles the
    manifest is 4 MB, which JSON took 30 ms to read and 32 ms to write, marshal 16 ms and 6."""
    try:
        with open(path, "rb") as handle:
            value = marshal.loads(handle.read())  # load(handle) reads in small pieces: 5x slower
    except (OSError, EOFError, ValueError, TypeError):
        return {}
    return value if isinstance(value, dict) else {}


def write_record(path, value):
    """Write `value` where read_record() reads it, whole or not at all."""
    partial = path.with_name(path.name + ".tmp")
    with open(partial, "wb") as handle:
        handle.write(marshal.dumps(value))
    os.replace(partial, path)


def lock_path(out_dir):
    return out_dir.parent / f".{out_dir.name}.lock"


def code_files():
    for folder in CODE_DIRS:
        for path in sorted((BASE_DIR / folder).rglob("*")):
            if path.suffix in CODE_SUFFIXES and "__pycache__" not in path.parts:
                yield path
    yield BASE_DIR / "requirements.txt"


def fingerprint(module, settings, stats=None):
    """A hash of what the output depends on besides the database: the values in `settings` of
    the names the settings `module` defines (a new CONTENT_DIR, SITE_URL or database is a new
    build) and the stat of every content and code file. Not the bytes: equal stats stand for
    equal files, as in the importer. None when the content folder links to a folder. `stats`:
    a dict to fill with {path: (mtime_ns, size)} of the content files, for the importer."""
    digest = hashlib.sha256()
    for name in sorted(vars(module)):
        if name.isupper():
            value = getattr(settings, name)
            if name == "DATABASES":  # Django fills in its defaults at start: only which database
                value = {alias: [db.get(key) for key in ("ENGINE", "NAME", "HOST", "PORT")]
                         for alias, db in sorted(value.items())}  # fmt: skip
            digest.update(f"{name}={value!r}\0".encode())
    for folder, dirs, names in os.walk(settings.CONTENT_DIR):
        if any(os.path.islink(os.path.join(folder, name)) for name in dirs):
            return None  # a linked folder's files are not walked (it may loop): always build
        dirs.sort()
        for name in sorted(names):
            path = os.path.join(folder, name)
            stat = add_stat(digest, path)  # a linked file: its target's stat
            if stats is not None and stat:
                stats[path] = (stat.st_mtime_ns, stat.st_size)
    for path in code_files():
        add_stat(digest, str(path))
    return digest.hexdigest()


def add_stat(digest, path):
    try:
        stat = os.stat(path)
    except OSError:
        digest.update(f"{path}\0missing\0".encode())
        return None
    digest.update(f"{path}\0{stat.st_size}\0{stat.st_mtime_ns}\0".encode())
    return stat


def file_stats(out_dir, names):
    """{name: [size, mtime_ns]} of files of `out_dir` (None for a missing one)."""
    stats = {}
    for name in names:
        try:
            stat = os.stat(os.path.join(out_dir, name))
            stats[name] = [stat.st_size, stat.st_mtime_ns]
        except OSError:
            stats[name] = None
    return stats


class Taken:
    """What a check that found changes read, for the build of the same folder that follows in
    this process (manage.py runs one command), which would otherwise read it all again: the
    fingerprint (0.075 s at 11,000 content files), the content files' stats (the importer's),
    and the manifest (2.6 MB at L; its bytes, when a check sends it) with the stat of its file
    when read."""

    def __init__(self, inputs, stats, manifest=None, manifest_stat=None):
        self.inputs = inputs
        self.stats = stats
        self._manifest = manifest
        self._manifest_stat = manifest_stat

    @classmethod
    def now(cls, settings):
        """Taken now, for a build no check came before (--full, a build called from Python)."""
        stats = {}
        return cls(fingerprint(load_settings(), settings, stats), stats)

    def manifest(self, out_dir):
        """The manifest read then, if its file is still that one (a build may run in between)."""
        if self._manifest is None:
            return None
        try:
            stat = os.stat(manifest_path(out_dir))
        except OSError:
            return None
        if (stat.st_size, stat.st_mtime_ns) != self._manifest_stat:
            return None
        if isinstance(self._manifest, bytes):
            self._manifest = marshal.loads(self._manifest)
        return self._manifest


_taken = {}


def taken(out_dir):
    """What the check read for `out_dir` in this process (a Taken), once; else None."""
    return _taken.pop(out_dir, None)


def load_settings():
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "portfolio.settings")
    return importlib.import_module(os.environ["DJANGO_SETTINGS_MODULE"])


def parse(argv):
    """The options of a `distill-local` command line this check can answer (its output folder
    resolved), or None."""
    parser = argparse.ArgumentParser(add_help=False)
    parser.add_argument("output_dir", nargs="?", default="dist", type=Path)
    for flag in ("--force", "--quiet", "--wait", "--collectstatic", "--exclude-staticfiles",
                 "--generate-redirects", "--debug"):  # fmt: skip
        parser.add_argument(flag, action="store_true")
    parser.add_argument("--workers", "--parallel-render", type=int)
    try:
        args, unknown = parser.parse_known_args(argv)
    except SystemExit:  # a bad value: the real command says what is wrong
        return None
    if unknown:
        return None
    args.output_dir = args.output_dir.resolve()
    return args


def up_to_date(argv, held=False):
    """The summary line when `distill-local argv` would change nothing, else None. What it read
    is kept for the build (taken()). `held`: the caller's process holds the folder's lock, and
    hands what was read to another process (the manifest is kept as its bytes, for the pipe)."""
    options = parse(argv)
    out_dir = options and options.output_dir
    if out_dir is None or not out_dir.is_dir():
        return None
    if held:
        return unchanged(out_dir, keep_bytes=True)
    try:
        lock = open(lock_path(out_dir), "a+")
    except OSError:
        return None
    with lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)  # a build running: let it decide
        except BlockingIOError:
            return None
        return unchanged(out_dir)


def unchanged(out_dir, keep_bytes=False):
    """up_to_date() for `out_dir`, its lock held."""
    try:
        with open(manifest_path(out_dir), "rb") as handle:
            stat = os.fstat(handle.fileno())
            data = handle.read()
            manifest = marshal.loads(data)
    except (OSError, EOFError, ValueError, TypeError):
        return None
    if not isinstance(manifest, dict) or manifest.get("version") != MANIFEST_VERSION:
        return None
    settings, stats = load_settings(), {}
    inputs = fingerprint(settings, settings, stats)
    kept = data if keep_bytes else manifest
    _taken[out_dir] = Taken(inputs, stats, kept, (stat.st_size, stat.st_mtime_ns))
    if manifest.get("inputs") != inputs or not inputs:
        return None
    files = manifest["files"]
    recorded = {name: entry[1:] for name, entry in files.items()}
    if file_stats(out_dir, recorded) != recorded:
        return None
    hosts = manifest.get("host_files", {})
    if not hosts or file_stats(out_dir, hosts) != hosts:
        return None
    size = sum(entry[1] for entry in files.values())
    return (
        f"Up to date: {len(files) + len(hosts)} files ({size / 1e6:.1f} MB), nothing changed "
        f"since the last build -> {out_dir}"
    )


def check_answer(argv):
    """up_to_date(argv) for a process that holds the output folder's lock (early.check): (the
    summary line or None, {output folder: Taken} of what it read, for that process's taken())."""
    try:
        return up_to_date(argv, held=True), dict(_taken)
    except Exception:  # noqa: BLE001 - whatever it is, the real command reports it properly
        return None, {}


def remember(read):
    """Keep what a check in another process read (check_answer), for the build (taken())."""
    _taken.update(read)


def main(argv):
    """manage.py's hook: True when `argv` was a distill-local that had nothing to do."""
    if argv[1:2] != ["distill-local"] or "--full" in argv:
        return False
    try:
        summary = up_to_date(argv[2:])
    except Exception:  # noqa: BLE001 - whatever it is, the real command reports it properly
        return False
    if summary is None:
        return False
    sys.stdout.write(summary + "\n")
    return True
