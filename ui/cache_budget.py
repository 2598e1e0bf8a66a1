"""The server's caches, bounded by bytes and by time, not only by their number of entries.

Streamlit bounds a cache by its count of entries (``max_entries``) and by
age (``ttl``), not by size: 32 entries of a fitted forest on a large upload
are gigabytes, and one user's large file could take the whole server. Every
cached computation of the app goes through :func:`data` or :func:`resource`
(``st.cache_data`` and ``st.cache_resource`` with the same options), which
add two bounds:

* **time**: an entry unused for ``ENTRY_TTL_SECONDS`` is dropped (Streamlit's
  ``ttl``), so the work on a table nobody looks at any more is released;
* **bytes**: each time a function computes a new entry, the entry's size is
  estimated (:func:`estimated_bytes`: arrays, frames and the arrays inside
  fitted models) and remembered with the function, over its last
  ``max_entries`` entries (what its cache can hold). When the estimates of
  all cached functions exceed the budget, the caches of the functions that
  hold the most are cleared, largest first, until the total is under
  three quarters of the budget. Clearing a whole function's cache is coarse
  (Streamlit offers no eviction of one entry by size), and the estimate can
  only overcount (an entry Streamlit dropped by age is still counted), so
  memory stays below the budget plus what the current runs hold;
* **sessions**: a session says which data it works on (:func:`hold`: an
  upload's fingerprints and digest); when it moves to other data or ends
  (:func:`end_session`) and no other session holds those keys, every entry
  computed with one of them among its arguments is dropped at once.

The budget is a setting: the environment variable ``TREE_BIAS_LAB_CACHE_MB``
(default 1,024 MB, which leaves room for the server, the sessions' data and
the kept uploads on a 4 GB machine). :func:`upload_budget_bytes` is the
largest parsed upload the server accepts: a quarter of the budget, since a
dataset is held raw, preprocessed and in the computations on it.
"""

import functools
import inspect
import os
import sys
import threading
from collections import deque

import numpy as np
import pandas as pd
import streamlit as st

from datasets._memory import give_back_freed_memory

__all__ = [
    "ENTRY_TTL_SECONDS",
    "SESSION_SWEEP_SECONDS",
    "budget_bytes",
    "collect_ended_sessions",
    "data",
    "ensure_session_sweep",
    "end_session",
    "estimated_bytes",
    "held_bytes",
    "hold",
    "on_release",
    "resource",
    "upload_budget_bytes",
]

ENTRY_TTL_SECONDS = 2 * 3600
SESSION_SWEEP_SECONDS = 60.0  # an ended session's data is released within this time
DEFAULT_BUDGET_MB = 1024
_BUDGET_VARIABLE = "TREE_BIAS_LAB_CACHE_MB"
# Objects are walked this deep for the arrays they hold (a forest -> its trees -> their arrays).
_MAX_DEPTH = 4

# Every bounded function (_Cache), and the data keys each live session holds.
_REGISTRY = []
_HOLDS = {}
_RELEASE_LISTENERS = []
# Re-entrant: a cache cleared under the lock may run Streamlit code that calls back here.
_LOCK = threading.RLock()
# How deep this thread is in cached functions' bodies (:func:`computing`).
_COMPUTING = threading.local()
_SWEEP = []  # the process's sweep thread, once started (``ensure_session_sweep``)


def budget_bytes():
    """The caches' budget in bytes (``TREE_BIAS_LAB_CACHE_MB``; the default when unset or invalid)."""
    try:
        megabytes = float(os.environ.get(_BUDGET_VARIABLE, DEFAULT_BUDGET_MB))
    except ValueError:
        megabytes = DEFAULT_BUDGET_MB
    return int(max(megabytes, 1.0) * 1024 * 1024)


def upload_budget_bytes():
    """The largest parsed table the server accepts: a quarter of the caches' budget."""
    return budget_bytes() // 4


def estimated_bytes(value, depth=_MAX_DEPTH, seen=None):
    """The memory ``value`` holds, estimated: arrays and frames exactly, objects by their parts.

    Counts numpy arrays (``nbytes``), pandas objects (``memory_usage``, deep
    for text), bytes and strings, and walks containers and objects' attributes
    ``depth`` levels deep (a fitted forest's trees and their arrays); each
    object is counted once.
    """
    seen = set() if seen is None else seen
    if id(value) in seen:
        return 0
    seen.add(id(value))
    if isinstance(value, np.ndarray):
        return int(value.nbytes) if value.base is None or id(value.base) not in seen else 0
    if isinstance(value, pd.DataFrame):
        return int(value.memory_usage(index=True, deep=True).sum())
    if isinstance(value, (pd.Series, pd.Index)):
        return int(value.memory_usage(index=True, deep=True))
    if isinstance(value, (bytes, bytearray, str)):
        return sys.getsizeof(value)
    if depth <= 0:
        return sys.getsizeof(value)
    if isinstance(value, dict):
        parts = [*value.keys(), *value.values()]
    elif isinstance(value, (list, tuple, set, frozenset, deque)):
        parts = list(value)
    elif hasattr(value, "__dict__"):
        parts = list(vars(value).values())
    else:
        return sys.getsizeof(value)
    return sys.getsizeof(value) + sum(estimated_bytes(p, depth - 1, seen) for p in parts)


class _Cache:
    """One bounded function: its Streamlit-cached callable and its recent entries' sizes.

    An entry is remembered by the arguments Streamlit hashes (those whose name
    does not start with ``_``; the others are kept as None, so a large array
    is not held here), which is what ``cached.clear(*args)`` needs to drop it.
    """

    def __init__(self, cached, parameters, max_entries):
        self.cached = cached
        self.parameters = parameters
        self.entries = deque(maxlen=max_entries)  # (args, kwargs, size)

    def remember(self, args, kwargs, size):
        hashed = tuple(
            None if i < len(self.parameters) and self.parameters[i].startswith("_") else arg
            for i, arg in enumerate(args)
        )
        hashed_kwargs = {k: (None if k.startswith("_") else v) for k, v in kwargs.items()}
        self.entries.append((hashed, hashed_kwargs, size))

    def held_bytes(self):
        return sum(size for _, _, size in self.entries)

    def clear(self):
        self.entries.clear()
        self.cached.clear()

    def clear_mentioning(self, key):
        """Drop the entries computed with ``key`` among their arguments."""
        for entry in [e for e in self.entries if _mentions([*e[0], *e[1].values()], key)]:
            self.entries.remove(entry)
            self.cached.clear(*entry[0], **entry[1])


def _mentions(arguments, key):
    """Whether ``key`` (a str) is one of ``arguments``, or in a tuple among them (a background
    result is kept under a tuple naming its dataset); compared as str only: arrays are
    ambiguous."""
    return any(
        _mentions(argument, key) if isinstance(argument, tuple) else argument == key
        for argument in arguments
        if isinstance(argument, str | tuple)
    )


def held_bytes():
    """The estimated bytes the bounded caches hold now."""
    with _LOCK:
        return sum(cache.held_bytes() for cache in _REGISTRY)


def _enforce_budget():
    """Clear the largest caches until the estimate is under three quarters of the budget."""
    limit = budget_bytes()
    with _LOCK:
        total = sum(cache.held_bytes() for cache in _REGISTRY)
        if total <= limit:
            return
        for cache in sorted(_REGISTRY, key=lambda c: -c.held_bytes()):
            if total <= 0.75 * limit:
                break
            total -= cache.held_bytes()
            cache.clear()


# ------------------------------------------------ what live sessions hold
def hold(session, keys):
    """Session ``session`` now works on the data ``keys`` (its fingerprints, its file's digest).

    Keys it held before and no other session holds are released: every cache
    entry computed with one of them goes (:func:`end_session` does the same
    when the session ends).
    """
    with _LOCK:
        before = _HOLDS.get(session, frozenset())
        _HOLDS[session] = frozenset(keys)
        _release_unheld(before - _HOLDS[session])


def end_session(session):
    """The session ended: release the keys only it held (their memory goes back to the
    system at the next sweep, :func:`collect_ended_sessions`)."""
    with _LOCK:
        _release_unheld(_HOLDS.pop(session, frozenset()))


def collect_ended_sessions(every=SESSION_SWEEP_SECONDS, stop=None):
    """Start a daemon thread that collects Python's garbage every ``every`` seconds, then
    gives the freed memory back to the system (``datasets._memory``).

    A session Streamlit dropped sits in reference cycles: it is freed, and its
    finaliser calls :func:`end_session`, only when the garbage collector runs,
    which on an idle server may be never. The memory is given back after the
    collection, not from the finaliser: a finaliser runs before the cycle's
    objects are freed. (Streamlit itself drops a closed
    session once its ``server.disconnectedSessionTTL`` has passed, at the
    next session it stores.) One sweep per process is enough: the app starts it
    through :func:`ensure_session_sweep`; a full collection takes a fraction of a
    second. The thread ends when the event ``stop`` is set.
    """
    stop = threading.Event() if stop is None else stop

    def sweep():
        while not stop.wait(every):
            give_back_freed_memory()

    thread = threading.Thread(target=sweep, name="tree-bias-lab-session-sweep", daemon=True)
    thread.start()
    return thread


def ensure_session_sweep():
    """Start this process's sweep (:func:`collect_ended_sessions`) unless it runs already.

    The app calls it from a cached resource, which runs again whenever Streamlit's
    caches are cleared (in tests, at every ``AppTest``): a new sweep each time left 178
    threads each collecting every minute in one test run, a collection every third of a
    second that slowed the whole suite.

    Returns
    -------
    threading.Thread
    """
    with _LOCK:
        if not (_SWEEP and _SWEEP[0].is_alive()):
            _SWEEP[:] = [collect_ended_sessions()]
        return _SWEEP[0]


def on_release(listener):
    """Call ``listener(key)`` each time no live session holds ``key`` any more.

    For what the app keeps outside the caches on a session's behalf (the
    shelf of kept uploads, ``ui.state``); a listener registered twice is
    called once.
    """
    with _LOCK:
        if listener not in _RELEASE_LISTENERS:
            _RELEASE_LISTENERS.append(listener)


def _release_unheld(keys):
    for key in keys:
        if not any(key in held for held in _HOLDS.values()):
            for cache in _REGISTRY:
                cache.clear_mentioning(key)
            for listener in _RELEASE_LISTENERS:
                listener(key)


def _bounded(streamlit_cache, options):
    """Decorate with ``streamlit_cache(**options)``, the entry count, a ttl and the byte budget."""
    options = {"ttl": ENTRY_TTL_SECONDS, **options}
    max_entries = options.get("max_entries") or 64

    def decorate(func):
        parameters = tuple(inspect.signature(func).parameters)

        @functools.wraps(func)  # Streamlit reads the name, source and parameters through it
        def computed(*args, **kwargs):
            _COMPUTING.depth = getattr(_COMPUTING, "depth", 0) + 1
            try:
                value = func(*args, **kwargs)  # runs only when the cache has no entry
            finally:
                _COMPUTING.depth -= 1
            cache.remember(args, kwargs, estimated_bytes(value))
            return value

        cache = _Cache(streamlit_cache(**options)(computed), parameters, max_entries)
        with _LOCK:
            _REGISTRY.append(cache)

        @functools.wraps(func)
        def call(*args, **kwargs):
            value = cache.cached(*args, **kwargs)
            _enforce_budget()
            return value

        call.clear = cache.clear
        return call

    return decorate


def computing():
    """Whether this thread runs the body of a function cached by :func:`data` or
    :func:`resource` (a cache miss). Streamlit records every element such a body writes, to
    replay it, and refuses one written into a block made outside it
    (``CacheReplayClosureError``): code that may run there (``ui.engine``'s message) asks this
    first. Every cache of the app is declared through this module, so the flag is the app's
    own and no Streamlit internal is read."""
    return getattr(_COMPUTING, "depth", 0) > 0


def data(**options):
    """``st.cache_data(**options)``, bounded by time and by the byte budget (module docstring)."""
    return _bounded(st.cache_data, options)


def resource(**options):
    """``st.cache_resource(**options)``, bounded by time and by the byte budget."""
    return _bounded(st.cache_resource, options)
