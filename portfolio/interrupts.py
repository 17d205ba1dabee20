"""Ctrl-C and SIGTERM in the commands that change a folder (`distill-local`, `import_from`): one
way to stop where they are, and one way to hold the signals while a folder changes.
"""

import signal
import sys
from contextlib import contextmanager

SIGNALS = (signal.SIGINT, signal.SIGTERM)

# The signal that stopped the command, kept beside its exception: Python swallows an exception
# raised where the signal happened to land in a weakref callback or a finalizer ("Exception
# ignored in ..."), and the command would then run on to its end.
received = None


class Interrupted(BaseException):
    """SIGINT or SIGTERM stopped the command (BaseException: nothing may swallow it)."""

    def __init__(self, signum):
        self.signum = signum
        super().__init__(signal.Signals(signum).name)


def interrupt(signum, frame):
    """Stop where the command is: the exception unwinds through its pools (which kill their
    workers) and its temporary folders' cleanup. Further signals are ignored meanwhile, so the
    cleanup runs to its end; SIGKILL still works, and the next run removes what it leaves."""
    global received
    received = signum
    for ignored in SIGNALS:
        signal.signal(ignored, signal.SIG_IGN)
    raise Interrupted(signum)


def raise_if_interrupted():
    """Raise again an Interrupted that was swallowed where it landed: called before a folder
    changes, so nothing changes once the owner stopped the command."""
    if received is not None:
        raise Interrupted(received)


@contextmanager
def interruptible():
    """SIGINT and SIGTERM raise Interrupted inside the block; the handlers before are restored.
    One that was swallowed is raised at the block's end, and is not printed where it was lost."""
    global received
    received = None
    previous = {signum: signal.signal(signum, interrupt) for signum in SIGNALS}
    try:
        with unreported(Interrupted):
            yield
            raise_if_interrupted()
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)


@contextmanager
def unreported(kind):
    """Inside the block, an exception of `kind` lost in a weakref callback or a finalizer is not
    printed: a signal's handler raised it, and raises again where it can stop the work."""
    hook = sys.unraisablehook
    sys.unraisablehook = lambda unraisable: (
        None if isinstance(unraisable.exc_value, kind) else hook(unraisable)
    )
    try:
        yield
    finally:
        sys.unraisablehook = hook


@contextmanager
def signals_held():
    """Hold SIGINT and SIGTERM until the block is done: a folder stopped half-way through a
    change is neither the old one nor the new one."""
    held = signal.pthread_sigmask(signal.SIG_BLOCK, set(SIGNALS))
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)
