"""portfolio/interrupts.py: a Ctrl-C stops the command even where Python swallows its exception."""

import os
import signal

import pytest

from portfolio.interrupts import Interrupted, interruptible, raise_if_interrupted


class SignalledWhenCollected:
    """Sends the process SIGINT from its finalizer: the handler's exception is raised there, and
    Python only reports it ("Exception ignored in ...") and goes on."""

    def __del__(self):
        os.kill(os.getpid(), signal.SIGINT)
        for _ in range(100):  # the handler runs at one of these instructions, inside the finalizer
            pass


def test_an_interrupt_swallowed_by_a_finalizer_still_stops_the_command(capsys):
    steps = []
    with pytest.raises(Interrupted) as stopped:
        with interruptible():
            SignalledWhenCollected()  # collected at once
            steps.append("went on")  # the swallowed exception did not stop it here...
            raise_if_interrupted()  # ...but does before a folder changes
            steps.append("changed the folder")
    assert stopped.value.signum == signal.SIGINT
    assert steps == ["went on"]
    assert capsys.readouterr().err == ""  # not reported where it was lost: the command says it


def test_a_swallowed_interrupt_is_raised_at_the_end_of_the_block():
    with pytest.raises(Interrupted):
        with interruptible():
            SignalledWhenCollected()
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_a_block_without_a_signal_ends_quietly_and_forgets_an_earlier_one():
    with pytest.raises(Interrupted):
        with interruptible():
            SignalledWhenCollected()
    with interruptible():
        raise_if_interrupted()
