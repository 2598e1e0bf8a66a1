"""Keeping numba's on-disk cache of the kernels consistent with their source.

numba caches each compiled kernel next to its module (``__pycache__``) and
reuses it while *that module's* file is unchanged; it does not notice a
change in another module whose functions were compiled into it (the
criteria are inlined into the split search, the unmanaged views into every
kernel). After an edit or a partial update of a checkout, a kernel could
then run stale code. This module, imported by ``trees.tree`` before any
kernel runs, keeps a digest of the sources of every kernel module and clears
their cached files when the digest changes, so they are compiled afresh.

It cleans every folder numba may keep the kernels in, named as numba names
them: the package's ``__pycache__``, the folder under ``NUMBA_CACHE_DIR``
when that is set (numba 0.68 names it ``tree_<sha1 of the package folder>``),
and the user-wide cache numba uses where the package's folder cannot be
written, when it exists. It never fails an import (a read-only folder just
keeps its files, which a fresh install replaces anyway).
"""

import hashlib
from pathlib import Path

from numba.core import caching, config

__all__ = ["kernel_sources", "refresh_cache"]

_HERE = Path(__file__).resolve().parent
_STAMP = "kernels.digest"


def kernel_sources(folder=_HERE):
    """The kernel modules' files: every ``_kernels_*.py`` of the package, found, not listed
    (a hand-kept list missed the random splits' and the absolute error's modules, and an
    edit of either ran stale compiled code)."""
    return sorted(folder.glob("_kernels_*.py"))


def _digest(folder=_HERE):
    digest = hashlib.sha256()
    for path in kernel_sources(folder):
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def _cache_folders():
    """``(folder, create)`` for each folder numba may cache the kernels in (module docstring);
    ``create``: whether to make it when missing, so that it is stamped before numba fills it."""
    source = str(_HERE / "_kernels_search.py")
    folders = [(_HERE / "__pycache__", True)]
    if config.CACHE_DIR:
        subpath = caching.UserProvidedCacheLocator.get_suitable_cache_subpath(source)
        folders.append((Path(config.CACHE_DIR) / subpath, True))
    user_wide = caching.UserWideCacheLocator(_digest, source).get_cache_path()
    folders.append((Path(user_wide), False))
    return folders


def refresh_cache():
    """Delete the kernels' cached files when their sources changed since they were written."""
    digest = _digest()
    for folder, create in _cache_folders():
        stamp = folder / _STAMP
        try:
            if not (create or folder.is_dir()):
                continue
            if stamp.exists() and stamp.read_text() == digest:
                continue
            for cached in folder.glob("_kernels_*.nb[ic]"):
                cached.unlink()
            folder.mkdir(parents=True, exist_ok=True)
            stamp.write_text(digest)
        except OSError:
            continue


refresh_cache()
