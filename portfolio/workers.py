"""The process pool of the importer and the export: one worker per core."""

import gc
import multiprocessing
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager


@contextmanager
def worker_pool(workers):
    """A pool of `workers` processes, forked where the platform can. Whatever the parent made
    before the fork is frozen first (gc.freeze): the workers' garbage collections never scan
    it (that was a fifth of a page's render time) and never write to its memory pages, which
    stay shared with the parent."""
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else None)
    gc.freeze()
    try:
        with ProcessPoolExecutor(workers, mp_context=context) as pool:
            yield pool
    finally:
        gc.unfreeze()
