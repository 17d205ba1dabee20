"""A build's import, run while Django loads the views.

Starting Django is 0.4 s of `manage.py distill-local`, a third of it django-distill importing
every view to list the URLs; the import needs the models only. So manage.py takes the build's
lock, and when the no-change check found changes, forks a child that starts Django without the
URLs, migrates and imports, while this process starts Django, loads the URLs and starts the
command.
The build then takes the child's answer instead of importing (an edit's or the sample site's
import: 0.1-0.2 s). This happens only where the build would import: a command line
quick.parse() reads, without --full, into a new folder or a previous build's, with the lock
free (kept for the build: build_lock). Otherwise, or if the child dies, the build imports.

The no-change check (quick.up_to_date) runs in a child beside Django's first imports, with the
lock taken here first (check()): when it finds nothing to build, Django is not started.
Standard library only until then: manage.py imports this before Django.
"""

import fcntl
import gc
import os
import pickle
import sys

from . import quick

_started = {}  # {output folder: Started}


class NoURLs:
    """A urlconf with no URLs, while Django starts for the import (a class: Django caches
    resolvers by urlconf, so it must be hashable)."""

    urlpatterns = []


def in_child(func, *args):
    """Run func(*args) in a forked child while this process goes on; return wait(), which gives
    its answer (pickled through a pipe), or None if the child died without one. Like
    portfolio.workers.in_background, but on the standard library alone: multiprocessing's import
    would cost 20-25 ms here, before the fork."""
    reader, writer = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: answer, and leave without Python's teardown
        os.close(reader)
        try:
            answer = func(*args)
            with os.fdopen(writer, "wb") as handle:
                pickle.dump(answer, handle)
        finally:
            os._exit(0)
    os.close(writer)

    def wait():
        with os.fdopen(reader, "rb") as handle:
            data = handle.read()
        os.waitpid(pid, 0)
        try:
            return pickle.loads(data)
        except (EOFError, pickle.UnpicklingError):
            return None

    return wait


def check(argv):
    """The no-change check of manage.py's command line `argv` (quick.up_to_date) started in a
    child, for a build whose folder's lock this process holds (locked()): at 10,000 articles it
    stats 11,000 content files (70 ms), which an edit's build need not wait for before starting
    Django. Its answer is start()'s to read."""
    quick.load_settings()  # which Django imports here next: once, before the fork
    return in_child(quick.check_answer, argv[2:])


class Started:
    def __init__(self, wait, lock):
        self.wait, self.lock = wait, lock

    def answer(self):
        """The child's ImportResult; raises its ContentInvalid; None if it did not finish (the
        build then imports)."""
        kind, value = self.wait() or (None, None)
        if kind == "invalid":
            from portfolio.content.loader import ContentInvalid

            raise ContentInvalid(value)
        return value if kind == "done" else None


def start(held, checked):
    """manage.py's hook, with the lock `held` (locked()) and the no-change check running beside
    (`checked`: check()'s wait): the check's summary line if there is nothing to build, else
    None, with the import started."""
    options, lock = held
    from django.apps import apps

    # The check ran beside Django's first imports (at 10,000 articles, its stats take about as
    # long); its answer decides whether to start Django at all.
    summary, read = checked() or (None, {})
    quick.remember(read)
    if summary is not None:
        lock.close()
        return summary
    # The child starts Django for itself, beside this process doing the same (0.15 s each).
    _started[options.output_dir] = Started(in_child(run, options, os.getpid()), lock)
    setup_without_urls()
    apps.get_app_config("django_distill").ready()  # now the URLs, from the real urlconf
    return None


def setup_without_urls():
    """django.setup(), with django-distill's ready() importing no view."""
    import django
    from django.conf import settings

    urlconf = settings.ROOT_URLCONF
    settings.ROOT_URLCONF = NoURLs
    try:
        django.setup()
    finally:
        settings.ROOT_URLCONF = urlconf


def locked(argv):
    """(options, the output folder's lock, taken) where the build would import: a command line
    quick.parse() reads, without --full, into a new folder or a previous build's, with the lock
    free. Else None."""
    if argv[1:2] != ["distill-local"] or "--full" in argv or not hasattr(os, "fork"):
        return None
    options = quick.parse(argv[2:])
    if options is None:
        return None
    out_dir = options.output_dir
    if out_dir.exists() and not quick.is_build(out_dir):
        return None  # not a previous build: the build may refuse the folder, and must not import
    try:
        lock = open(quick.lock_path(out_dir), "a+")
    except OSError:
        return None
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        lock.close()  # another build holds the folder: this one waits or fails before importing
        return None
    return options, lock


def take(out_dir):
    """The early import started for `out_dir` (a Started, holding the lock), once; else None."""
    return _started.pop(out_dir, None)


def run(options, parent):
    """In the child: migrate and import (with the stats the no-change check read: quick.taken(),
    which leaves them to the build in the parent). ("done", ImportResult), ("invalid", errors), or
    ("failed", None) for the build to import again and report what went wrong."""
    from portfolio.workers import in_worker

    in_worker(parent)  # Ctrl-C is the build's to handle, and the child dies with it
    setup_without_urls()
    gc.freeze()
    gc.enable()
    from django.conf import settings
    from django.db import connections

    from portfolio.content.importer import import_content
    from portfolio.content.loader import ContentInvalid
    from portfolio.content.schema import migrate
    from portfolio.progress import Progress

    progress = None if options.quiet else Progress(sys.stderr, "importing")
    try:
        migrate()
        taken = quick.taken(options.output_dir)
        result = import_content(settings.CONTENT_DIR, progress=progress, stats=taken and taken.stats)
        return "done", result
    except ContentInvalid as exc:
        return "invalid", exc.errors
    except Exception:  # noqa: BLE001 - the build imports again, and reports it as it does
        return "failed", None
    finally:
        connections.close_all()
