"""Ctrl-C and SIGTERM in the commands that change a folder (`distill-local`, `import_from`): one
way to stop where they are, and one way to hold the signals while a folder changes.
"""

import signal
from contextlib import contextmanager

SIGNALS = (signal.SIGINT, signal.SIGTERM)


class Interrupted(BaseException):
    """SIGINT or SIGTERM stopped the command (BaseException: nothing may swallow it)."""

    def __init__(self, signum):
        self.signum = signum
        super().__init__(signal.Signals(signum).name)


def interrupt(signum, frame):
    """Stop where the command is: the exception unwinds through its pools (which kill their
    workers) and its temporary folders' cleanup. Further signals are ignored meanwhile, so the
    cleanup runs to its end; SIGKILL still works, and the next run removes what it leaves."""
    for ignored in SIGNALS:
        signal.signal(ignored, signal.SIG_IGN)
    raise Interrupted(signum)


@contextmanager
def interruptible():
    """SIGINT and SIGTERM raise Interrupted inside the block; the handlers before are restored."""
    previous = {signum: signal.signal(signum, interrupt) for signum in SIGNALS}
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)


@contextmanager
def signals_held():
    """Hold SIGINT and SIGTERM until the block is done: a folder stopped half-way through a
    change is neither the old one nor the new one."""
    held = signal.pthread_sigmask(signal.SIG_BLOCK, set(SIGNALS))
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)
