"""The process pools of the importer and the export: one worker per core, none outliving us,
and every process-level trick of the project (gc, prctl, malloc_trim) in this one module.

Fork only, as Sphinx's parallel build: where the platform cannot fork (Windows; macOS, whose
default is spawn), everything runs in this process, one core. A worker is given what it needs
by its `setup` (callables run in the worker, after the fork) and by its tasks' arguments, never
by a global filled in the parent for it to inherit. Where no pool runs, the caller runs the same
`setup` in its own process (the importer's parse_all does, and undoes it after).

A worker ignores SIGINT (Ctrl-C reaches the whole process group; the parent decides what stops)
and is killed by the kernel when its parent dies, even by SIGKILL (PR_SET_PDEATHSIG), so no
build leaves a worker behind. A pool left by an exception (Ctrl-C, SIGTERM, an error) kills its
workers at once instead of waiting for their queued work.
"""

import ctypes
import functools
import gc
import multiprocessing
import os
import signal
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager

from django.db import connections

PR_SET_PDEATHSIG = 1


def can_fork():
    return "fork" in multiprocessing.get_all_start_methods()


def _fork_context():
    return multiprocessing.get_context("fork")


def in_worker(parent, setup=()):
    """Run first in every worker process; then each of `setup`."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # not the parent's handler, if it set one
    try:
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    except (AttributeError, OSError):
        pass  # not Linux: workers still exit when the parent closes their queue
    if os.getppid() != parent:  # the parent died before prctl: nobody would stop us
        os._exit(1)
    for function in setup:
        function()


@contextmanager
def shared_heap():
    """Freeze what this process holds now (gc.freeze) for the block: garbage collections no
    longer scan it, and a forked worker's collections never write to its memory pages, which
    stay shared with the parent. Nested blocks unfreeze only at the outermost one's end."""
    outermost = gc.get_freeze_count() == 0
    gc.freeze()
    try:
        yield
    finally:
        if outermost:
            gc.unfreeze()


@contextmanager
def worker_pool(workers, setup=()):
    """A pool of `workers` forked processes, each running `setup` (callables) after the fork.
    Callers check can_fork() first; the parent's heap is shared (shared_heap) for the pool's life."""
    with shared_heap():
        pool = ProcessPoolExecutor(
            workers, mp_context=_fork_context(), initializer=in_worker, initargs=(os.getpid(), tuple(setup))
        )
        try:
            yield pool
        except BaseException:
            stop(pool)
            raise
        else:
            pool.shutdown()


def release_memory():
    """Give the heap's free memory back to the system (glibc's malloc_trim; nothing elsewhere).
    glibc keeps freed large blocks for reuse once it has seen a few: a worker that resized
    a 2400-pixel image holds its tens of megabytes of buffers to the end otherwise."""
    try:
        ctypes.CDLL(None).malloc_trim(0)
    except (AttributeError, OSError):
        pass


def stop(pool):
    """Cancel what is queued and kill the workers now (ProcessPoolExecutor would let each
    finish its current task; Python 3.14's terminate_workers() does this). Then wait for the
    pool's own thread to end: left running, it races the interpreter's exit (concurrent.futures
    wakes and joins it from an exit hook), which printed a traceback after a Ctrl-C's one line."""
    # With the pool's children not yet recorded: a signal can land while it forks them, and a
    # worker left waiting for work would hold up the interpreter's exit (multiprocessing joins
    # its children then).
    processes = {*(pool._processes or {}).values(), *multiprocessing.active_children()}
    manager = pool._executor_manager_thread
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        process.kill()
    for process in processes:
        process.join(5)
    if manager is not None:
        manager.join(5)


class WorkerDied:
    """What isolated_map() yields for the item its child process died on."""

    def __init__(self, exitcode):
        self.exitcode = exitcode

    def __str__(self):
        if self.exitcode is not None and self.exitcode < 0:
            return f"killed by {signal.Signals(-self.exitcode).name}"
        return f"exit status {self.exitcode}"


def _serve(func, items, parent, connection, setup):
    in_worker(parent, setup)
    for item in items:
        connection.send(func(item))
    connection.close()


def isolated_map(func, items, setup=()):
    """Yield func(item) for each of `items`, in order, computed in a child process. When the
    child dies, the item it was working on yields a WorkerDied and a new child takes the rest:
    the way to tell which input kills a process. One core; meant for the few items a crashed
    pool left unfinished (so only where the platform forks)."""
    items, done = list(items), 0
    context = _fork_context()
    while done < len(items):
        reader, writer = context.Pipe(duplex=False)
        child = context.Process(
            target=_serve, args=(func, items[done:], os.getpid(), writer, tuple(setup)), daemon=True
        )
        child.start()
        writer.close()
        try:
            while done < len(items):
                try:
                    result = reader.recv()
                except EOFError:
                    break
                done += 1
                yield result
        finally:
            reader.close()
            if child.is_alive() and done < len(items):
                child.kill()  # the caller stopped early
            child.join()
        if done < len(items):
            done += 1
            yield WorkerDied(child.exitcode)


# What map_chunks' func is given besides its chunk, in a worker: set by the worker's setup
# (a verifier's compiled schemas could not be pickled into each task).
_context = None


def _use_context(context):
    global _context
    _context = context


def _call(func, chunk):
    return func(_context, chunk)


def map_chunks(func, chunks, workers, context=None, parallel=True, setup=()):
    """func(context, chunk) of each chunk, in order, as each is done: on a pool of `workers`
    forked processes (each running `setup` first) when `parallel`, the platform can fork and
    there is more than one chunk, else here. Database connections are closed before the fork,
    as one must not cross it (each worker opens its own). Callers close the generator
    (contextlib.closing): an exception raised in their loop (Ctrl-C, SIGTERM) is not raised in
    the generator, whose pool would otherwise be stopped only when the generator is collected."""
    if not parallel or workers < 2 or len(chunks) < 2 or not can_fork():
        for chunk in chunks:
            yield func(context, chunk)
        return
    connections.close_all()
    with worker_pool(workers, (*setup, functools.partial(_use_context, context))) as pool:
        yield from pool.map(_call, [func] * len(chunks), chunks)
