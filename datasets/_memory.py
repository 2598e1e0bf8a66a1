"""Giving memory a process has freed back to the operating system.

glibc's ``malloc`` keeps what a process frees for its later allocations:
after a large table is parsed and dropped, the process's resident size stays
where the parse left it (glibc also raises its threshold for serving large
blocks from ``mmap`` each time such a block is freed, so later large arrays
come from the heap, whose free pages are only returned on request). On a
server that one class shares, that memory counts against every user, so the
long-lived processes ask for it back (``malloc_trim(0)`` returns every free
page of every arena) at the moments they drop a large table: the upload
helper after each file, the app after an upload is read and when a session
ends. It is glibc's; elsewhere (macOS, musl) this only collects Python's
garbage.

Tried and dropped: fixing glibc's threshold for mapping large blocks
(``mallopt(M_MMAP_THRESHOLD, 1 MiB)``) gave a freed array back at once, but
every array of a megabyte or more then cost its page faults again: fits
25-50% slower, repeated 3 MB allocations 5-15 times slower.
"""

import ctypes
import ctypes.util
import gc
import sys

__all__ = ["give_back_freed_memory"]


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


def give_back_freed_memory():
    """Collect Python's garbage, then return the C heap's free pages to the system.

    Returns
    -------
    bool
        Whether pages could be returned (glibc's ``malloc_trim`` is there).
    """
    gc.collect()
    if _MALLOC_TRIM is None:
        return False
    _MALLOC_TRIM(0)
    return True
