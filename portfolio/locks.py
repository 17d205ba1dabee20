"""One process at a time on a folder: a lock file beside it, flock()ed while the work runs and
naming who holds it. The kernel drops the lock when its process dies, however it dies, so a
killed build or move never leaves a stale one.
"""

import datetime
import fcntl
import os
import socket
from contextlib import contextmanager


@contextmanager
def folder_lock(path, busy):
    """Hold the lock file `path`. When another process holds it, `busy(holder)` is called with
    what the file says of it: it raises to give up, or returns to wait for it."""
    with open(path, "a+") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            handle.seek(0)
            busy(handle.read().strip() or "another process")
            fcntl.flock(handle, fcntl.LOCK_EX)
        started = datetime.datetime.now().astimezone().isoformat(timespec="seconds")
        handle.seek(0)
        handle.truncate()
        handle.write(f"PID {os.getpid()} on {socket.gethostname()}, started {started}\n")
        handle.flush()
        try:
            yield
        finally:
            handle.truncate(0)
