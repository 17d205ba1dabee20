"""The worker pools (portfolio/workers.py): what a worker needs reaches it through its setup, not
through a global the parent filled before forking; the parent's frozen heap stays frozen."""

import gc
import os

import pytest

from portfolio import workers


def worker_report(context, chunk):
    return [(os.getpid(), context(item), workers._context is context) for item in chunk]


@pytest.mark.skipif(not workers.can_fork(), reason="the pools fork")
def test_map_chunks_hands_its_context_to_the_workers_and_sets_nothing_here():
    offset = 10
    context = lambda item: item + offset  # noqa: E731  (a closure: it could not be pickled)
    results = []
    for chunk in workers.map_chunks(worker_report, [[1, 2], [3], [4]], 2, context):
        assert workers._context is None  # the parent never holds it
        results += chunk
    assert [value for _, value, _ in results] == [11, 12, 13, 14]
    assert all(is_context for _, _, is_context in results)
    assert os.getpid() not in {pid for pid, _, _ in results}


def test_without_a_pool_the_chunks_run_here():
    results = [r for chunk in workers.map_chunks(worker_report, [[1]], 2, lambda item: -item) for r in chunk]
    assert results == [(os.getpid(), -1, False)]


def setup_marker(path):
    path.write_text(str(os.getpid()))


@pytest.mark.skipif(not workers.can_fork(), reason="the pools fork")
def test_a_worker_runs_its_setup_after_the_fork(tmp_path):
    marker = tmp_path / "marker"
    with workers.worker_pool(1, (lambda: setup_marker(marker),)) as pool:
        worker = pool.submit(os.getpid).result()
    assert marker.read_text() == str(worker) != str(os.getpid())


@pytest.mark.skipif(not workers.can_fork(), reason="the pools fork")
def test_a_pool_inside_a_shared_heap_block_leaves_it_shared():
    assert gc.get_freeze_count() == 0
    with workers.shared_heap():
        with workers.worker_pool(2) as pool:
            assert pool.submit(abs, -1).result() == 1
        assert gc.get_freeze_count() > 0  # the pool does not undo the build's freeze
    assert gc.get_freeze_count() == 0
