"""Giving memory a process has freed back to the operating system.

glibc's ``malloc`` keeps what a process frees for its later allocations:
after a large table is parsed and dropped, the process's resident size stays
where the parse left it (glibc also raises its threshold for serving large
blocks from ``mmap`` each time such a block is freed, so later large arrays
come from the heap, whose free pages are only returned on request). On a
server that one class shares, that memory counts against every user, so the
long-lived processes do two things:

* :func:`map_large_blocks` (once, at the server's start) fixes glibc's
  threshold at 4 MiB: every array of 4 MiB or more (a column of a large
  upload, a sorted copy of one) is mapped on its own and given back the
  moment it is freed;
* :func:`give_back_freed_memory` returns what smaller blocks left free
  (``malloc_trim(0)``: every free page of every arena), at the moments a
  large table is dropped: the upload helper after each file, the app after
  an upload is read and after collecting ended sessions; at the end of the
  run that first shows a new dataset (``ui.state.give_back_memory_after_run``)
  the free pages only (:func:`return_free_pages`: no collection).

Both are glibc's (``mallopt``, ``malloc_trim``); elsewhere (macOS, musl)
the first does nothing and the second only collects Python's garbage.

Why 4 MiB: at 1 MiB every mid-sized array paid its page faults again (fits
of 100,000 x 20 rows 25-50% slower, measured side by side); at 4 MiB the
same fits take the time they took without the setting, and only repeated
allocations of tens of MB in a row pay (about 1.8x for a bare loop).
"""

import ctypes
import ctypes.util
import gc
import sys

__all__ = ["LARGE_BLOCK_BYTES", "give_back_freed_memory", "map_large_blocks", "return_free_pages"]

LARGE_BLOCK_BYTES = 4 * 1024 * 1024
_M_MMAP_THRESHOLD = -3  # mallopt's parameter number, from glibc's malloc.h


def _glibc_function(name):
    """The C library's function ``name`` on Linux, or None where it has none (musl, macOS)."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
    except OSError:
        return None
    return getattr(libc, name, None)


_MALLOC_TRIM = _glibc_function("malloc_trim")
_MALLOPT = _glibc_function("mallopt")


def map_large_blocks(threshold=LARGE_BLOCK_BYTES):
    """Serve every block of ``threshold`` bytes or more by its own mapping (``mallopt``).

    Lasts for the process's life; call it once, at the start of a server.

    Returns
    -------
    bool
        Whether the setting took (glibc only).
    """
    return _MALLOPT is not None and _MALLOPT(_M_MMAP_THRESHOLD, int(threshold)) == 1


def give_back_freed_memory():
    """Collect Python's garbage, then return the C heap's free pages to the system
    (:func:`return_free_pages`).

    Returns
    -------
    bool
        Whether pages could be returned (glibc's ``malloc_trim`` is there).
    """
    gc.collect()
    return return_free_pages()


def return_free_pages():
    """Return the C heap's free pages to the system, without collecting Python's garbage.

    For the end of a page's run (``ui.shell``): what the run freed is free already, and a
    full collection of a server's objects took 0.2-0.7 s, where this takes 20-120 ms.

    Returns
    -------
    bool
        Whether pages could be returned (glibc's ``malloc_trim`` is there).
    """
    if _MALLOC_TRIM is None:
        return False
    _MALLOC_TRIM(0)
    return True
