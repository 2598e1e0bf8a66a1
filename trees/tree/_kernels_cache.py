"""Keeping numba's on-disk cache of the kernels consistent with their source.

numba caches each compiled kernel next to its module (``__pycache__``) and
reuses it while *that module's* file is unchanged; it does not notice a
change in another module whose functions were compiled into it (the
criteria are inlined into the split search, the unmanaged views into every
kernel). After an edit or a partial update of a checkout, a kernel could
then run stale code. This module, imported by ``trees.tree`` before any
kernel runs, keeps a digest of the sources of every kernel module and clears
their cached files when the digest changes, so they are compiled afresh.

It cleans the default cache location and, when ``NUMBA_CACHE_DIR`` is set,
the matching files there; it never fails an import (a read-only folder just
keeps its files, which a fresh install replaces anyway).
"""

import hashlib
from pathlib import Path

from numba.core import config

__all__ = ["KERNEL_MODULES", "refresh_cache"]

KERNEL_MODULES = (
    "_kernels_arrays",
    "_kernels_criteria",
    "_kernels_search",
    "_kernels_growth",
    "_kernels_traversal",
    "_kernels_cultivated",
    "_kernels_sklearn_order",
    "_kernels_draws",
    "_kernels_pvalues",
)
_HERE = Path(__file__).resolve().parent
_STAMP = "kernels.digest"


def _digest():
    digest = hashlib.sha256()
    for name in KERNEL_MODULES:
        path = _HERE / f"{name}.py"
        if path.exists():
            digest.update(path.read_bytes())
    return digest.hexdigest()


def _cache_folders():
    folders = [_HERE / "__pycache__"]
    if config.CACHE_DIR:
        folders += [p for p in Path(config.CACHE_DIR).glob("**/trees/tree") if p.is_dir()]
    return folders


def refresh_cache():
    """Delete the kernels' cached files when their sources changed since they were written."""
    digest = _digest()
    for folder in _cache_folders():
        stamp = folder / _STAMP
        try:
            if stamp.exists() and stamp.read_text() == digest:
                continue
            for cached in folder.glob("_kernels_*.nb[ic]"):
                cached.unlink()
            folder.mkdir(exist_ok=True)
            stamp.write_text(digest)
        except OSError:
            continue


refresh_cache()
