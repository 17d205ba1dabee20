"""The process pools of the importer and the export: one worker per core, none outliving us.

A worker ignores SIGINT (Ctrl-C reaches the whole process group; the parent decides what stops)
and is killed by the kernel when its parent dies, even by SIGKILL (PR_SET_PDEATHSIG), so no
build leaves a worker behind. A pool left by an exception (Ctrl-C, SIGTERM, an error) kills its
workers at once instead of waiting for their queued work.
"""

import ctypes
import gc
import multiprocessing
import os
import signal
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager

from django.db import connections

PR_SET_PDEATHSIG = 1


def _fork_context():
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("fork" if "fork" in methods else None)


def in_worker(parent):
    """Run first in every worker process."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # not the parent's handler, if it set one
    try:
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    except (AttributeError, OSError):
        pass  # not Linux: workers still exit when the parent closes their queue
    if os.getppid() != parent:  # the parent died before prctl: nobody would stop us
        os._exit(1)


@contextmanager
def worker_pool(workers):
    """A pool of `workers` processes, forked where the platform can. Whatever the parent made
    before the fork is frozen first (gc.freeze): the workers' garbage collections never scan
    it (that was a fifth of a page's render time) and never write to its memory pages, which
    stay shared with the parent."""
    gc.freeze()
    pool = ProcessPoolExecutor(
        workers, mp_context=_fork_context(), initializer=in_worker, initargs=(os.getpid(),)
    )
    try:
        yield pool
    except BaseException:
        stop(pool)
        raise
    else:
        pool.shutdown()
    finally:
        gc.unfreeze()


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
    processes = list((pool._processes or {}).values())
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


def _serve(func, items, parent, connection):
    in_worker(parent)
    for item in items:
        connection.send(func(item))
    connection.close()


def isolated_map(func, items):
    """Yield func(item) for each of `items`, in order, computed in a child process. When the
    child dies, the item it was working on yields a WorkerDied and a new child takes the rest:
    the way to tell which input kills a process. One core; meant for the few items a crashed
    pool left unfinished."""
    items, done = list(items), 0
    context = _fork_context()
    while done < len(items):
        reader, writer = context.Pipe(duplex=False)
        child = context.Process(target=_serve, args=(func, items[done:], os.getpid(), writer), daemon=True)
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


# What map_chunks' func is given besides its chunk, set before the pool forks: the workers
# inherit it as it is (a verifier's compiled schemas could not be sent to them).
_context = None


def _call(func, chunk):
    return func(_context, chunk)


def map_chunks(func, chunks, workers, context=None, parallel=True):
    """func(context, chunk) of each chunk, in order, as each is done: on a pool of `workers`
    processes when `parallel` and there is more than one chunk, else here. Database connections
    are closed before the fork, as one must not cross it (each worker opens its own)."""
    global _context
    if not parallel or workers < 2 or len(chunks) < 2:
        for chunk in chunks:
            yield func(context, chunk)
        return
    connections.close_all()
    _context = context
    try:
        with worker_pool(workers) as pool:
            yield from pool.map(_call, [func] * len(chunks), chunks)
    finally:
        _context = None
