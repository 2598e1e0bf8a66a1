"""Running a compiled kernel over blocks of rows in parallel threads.

The kernels release the GIL (``nogil``), so threads run them truly in
parallel. Each block writes its own rows of the output, so the result does
not depend on the number of threads. Small inputs run in the calling thread:
starting threads costs more than walking a few thousand rows.
"""

import os
import threading
from concurrent.futures import ThreadPoolExecutor

__all__ = ["MIN_ROWS_PER_THREAD", "in_row_blocks", "n_threads"]

# Fewest rows worth a thread of their own (measured: below this the walk takes
# less time than handing the block to a thread).
MIN_ROWS_PER_THREAD = 20_000
_POOL = None
_POOL_LOCK = threading.Lock()
_CORES = os.cpu_count() or 1


def n_threads(n_jobs=None):
    """Threads to use: ``n_jobs`` (joblib's convention, -1 all cores), all cores when None."""
    if n_jobs is None or n_jobs == -1:
        return _CORES
    if n_jobs < 0:
        return max(1, _CORES + 1 + n_jobs)
    return max(1, int(n_jobs))


def _pool():
    global _POOL
    with _POOL_LOCK:
        if _POOL is None:
            _POOL = ThreadPoolExecutor(max_workers=_CORES)
        return _POOL


def in_row_blocks(kernel, args, out, n_rows, n_jobs=None, work_per_row=1):
    """Call ``kernel(*args, (start, stop), out)`` over blocks covering ``range(n_rows)``.

    Parameters
    ----------
    kernel : compiled function
        Writes the rows ``start:stop`` of ``out`` only.
    args : tuple
    out : ndarray
    n_rows : int
    n_jobs : int, optional
        Most threads to use (default: all cores).
    work_per_row : int, default=1
        Walks per row (a forest's trees): fewer rows are then worth a thread.
    """
    blocks = min(n_threads(n_jobs), n_rows * work_per_row // MIN_ROWS_PER_THREAD)
    if blocks <= 1:
        kernel(*args, (0, n_rows), out)
        return
    bounds = [n_rows * b // blocks for b in range(blocks + 1)]
    futures = [
        _pool().submit(kernel, *args, (bounds[b], bounds[b + 1]), out) for b in range(blocks)
    ]
    for future in futures:
        future.result()
