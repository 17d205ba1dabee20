"""portfolio.workers.in_background: work on the other core, never lost if the child fails."""

import os

import pytest

from portfolio.workers import in_background


def test_the_work_runs_in_a_child_process():
    assert in_background(os.getpid)() != os.getpid()


def dies_in_a_child(parent):
    if os.getpid() != parent:
        os._exit(3)
    return "done by the waiter"


def test_a_child_that_dies_leaves_the_work_to_the_waiter():
    assert in_background(dies_in_a_child, os.getpid())() == "done by the waiter"


def fails(message):
    raise ValueError(message)


def test_an_error_reaches_the_waiter():
    wait = in_background(fails, "no such file")
    with pytest.raises(ValueError, match="no such file"):
        wait()
