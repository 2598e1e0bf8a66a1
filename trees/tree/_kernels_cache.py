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

It also keeps the record of what this machine compiled: the growth plans
(``_kernels_plan``) whose entry kernels are in the cache (:func:`compiled`,
:func:`record_compiled`), and the warm-up's parts done, so that an app can tell,
before a page runs, whether its kernels will load in a moment or must be compiled
first. The record lives beside the kernels' cached files, in the folder numba
writes them to, under the kernels' digest, numba's version and this machine's
processor: when any of them changes, numba compiles again and the record is empty.
"""

import hashlib
import json
import os
import sys
import tempfile
from pathlib import Path

import numba
from numba.core import caching, config
from numba.core.registry import cpu_target

__all__ = [
    "compiled",
    "kernel_sources",
    "record_compiled",
    "refresh_cache",
    "refresh_dependent_cache",
]

_HERE = Path(__file__).resolve().parent
_STAMP = "kernels.digest"
_RECORD = "compiled.json"


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


def _cache_folders(source=_HERE / "_kernels_search.py"):
    """``(folder, create)`` for each folder numba may cache the kernels of the module file
    ``source`` in (module docstring); ``create``: whether to make it when missing, so that it is
    stamped before numba fills it."""
    folders = [(source.parent / "__pycache__", True)]
    source = str(source)
    if config.CACHE_DIR:
        subpath = caching.UserProvidedCacheLocator.get_suitable_cache_subpath(source)
        folders.append((Path(config.CACHE_DIR) / subpath, True))
    user_wide = caching.UserWideCacheLocator(_digest, source).get_cache_path()
    folders.append((Path(user_wide), False))
    return folders


def _record_folder():
    """The folder numba writes the kernels' cache to (numba's own order of locators): the one
    under ``NUMBA_CACHE_DIR`` when that is set, else the package's ``__pycache__`` when it can be
    written, else the user-wide cache."""
    folders = _cache_folders()
    if config.CACHE_DIR:
        return folders[1][0]
    in_tree = folders[0][0]
    try:
        in_tree.mkdir(parents=True, exist_ok=True)
        if os.access(in_tree, os.W_OK):
            return in_tree
    except OSError:
        pass
    return folders[-1][0]


def _record_key():
    """What the record is valid for: the kernels' sources, numba and Python, and the processor
    as numba's cache tells it (its target, its name and features)."""
    machine = cpu_target.target_context.codegen().magic_tuple()
    return f"{_digest()}|numba {numba.__version__}|{sys.version_info[:2]}|{machine}"


def _read_record():
    try:
        record = json.loads((_record_folder() / _RECORD).read_text())
    except (OSError, ValueError):
        return set()
    if not isinstance(record, dict) or record.get("key") != _record_key():
        return set()
    return {json.dumps(entry) for entry in record.get("compiled", ())}


def compiled(entry):
    """Whether this machine's cache holds ``entry``'s kernels (:func:`record_compiled`)."""
    return json.dumps(entry) in _read_record()


def record_compiled(entry):
    """Record that the kernels of ``entry`` (a JSON value: ``["grow", plan]``, ``["part",
    name]``) are in numba's cache of this machine. Written atomically (a temporary file
    replaced); two processes recording at once may lose one entry, which then is compiled
    again (loaded from numba's cache, in fact) the next time it is asked for. Never fails."""
    entries = _read_record() | {json.dumps(entry)}
    record = {"key": _record_key(), "compiled": [json.loads(e) for e in sorted(entries)]}
    try:
        folder = _record_folder()
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile("w", dir=folder, delete=False, suffix=".tmp") as file:
            json.dump(record, file)
        os.replace(file.name, folder / _RECORD)
    except OSError:
        return


def _clear_when_changed(folders, digest, stamp_name, patterns):
    """In each of ``folders`` (``(folder, create)``), delete the files matching ``patterns``
    unless the folder's stamp ``stamp_name`` holds ``digest``; then stamp it."""
    for folder, create in folders:
        stamp = folder / stamp_name
        try:
            if not (create or folder.is_dir()):
                continue
            if stamp.exists() and stamp.read_text() == digest:
                continue
            for pattern in patterns:
                for cached in folder.glob(pattern):
                    cached.unlink(missing_ok=True)
            folder.mkdir(parents=True, exist_ok=True)
            stamp.write_text(digest)
        except OSError:
            continue


def refresh_cache():
    """Delete the kernels' cached files when their sources changed since they were written."""
    _clear_when_changed(_cache_folders(), _digest(), _STAMP, ("_kernels_*.nb[ic]", _RECORD))


def refresh_dependent_cache(sources):
    """Delete the cached kernels of modules outside this package that compile this package's
    kernels into theirs, when either changed: ``trees.interop``'s audit calls the walk's
    ``general_child`` and ``add_leaves`` (``_kernels_traversal``), and numba would
    otherwise keep running the old rule in them after an edit of it (it checks only the
    calling module's own file).

    ``sources``: the module files (``Path``) whose numba cache is checked, all in one folder.
    """
    digest = hashlib.sha256(_digest().encode())
    for path in sorted(sources):
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    patterns = [f"{path.stem}.*.nb[ic]" for path in sources]
    _clear_when_changed(_cache_folders(sources[0]), digest.hexdigest(), "kernels.digest", patterns)


refresh_cache()
