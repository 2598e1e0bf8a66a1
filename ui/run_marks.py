"""The end of each run, marked in the page; and fragments, which mark the end of theirs.

Browser tests and the page benchmark (``bench/bench_pages.py``) wait for an invisible marker,
numbered by the session's runs (``state.RUNS_FINISHED``), to know that a run has ended
instead of guessing with a timeout. The marker carries the run's time on the server: its wall
time (``data-seconds``, ``time.perf_counter``) and the server process's CPU time meanwhile
(``data-cpu``, ``time.process_time``: all its threads, so a page's thread pool counts), which
other processes on a loaded machine inflate much less. On a server that serves one browser, as
in the page benchmark, that CPU time is the run's; with other sessions at work it counts theirs
too. A widget's callback, run before the script, is in neither.

A part of a page that a widget changes alone runs as a fragment (:func:`fragment`,
``st.fragment``): its widgets rerun only its own code, not the page's. The frame's marker
(``ui.shell``) is not drawn then, so a fragment's rerun draws its own, inside the fragment, with
the next number; the page's next full run draws over it. During a full run the fragment draws
none, or a test would see the page done before the page's end.
"""

import functools
import time

import streamlit as st

from ui import state

__all__ = ["count_run", "draw_marker", "fragment", "start_full_run"]

_MARKER = (
    '<span class="run-finished" data-run="{run}" data-seconds="{wall:.3f}" '
    'data-cpu="{cpu:.3f}" hidden></span>'
)


def _clocks():
    return time.perf_counter(), time.process_time()


def start_full_run():
    """Note that the page's full run has begun; return its clocks for :func:`mark_finished`."""
    st.session_state[state.FULL_RUN] = True
    return _clocks()


def count_run():
    """Count the run now ending (``state.RUNS_FINISHED``) and return its number."""
    runs = st.session_state.get(state.RUNS_FINISHED, 0) + 1
    st.session_state[state.RUNS_FINISHED] = runs
    st.session_state[state.FULL_RUN] = False
    return runs


def draw_marker(container, run, started):
    """Draw run ``run``'s end marker in ``container`` (``started``: the run's clocks then)."""
    wall, cpu = (now - then for now, then in zip(_clocks(), started, strict=True))
    container.html(_MARKER.format(run=run, wall=wall, cpu=cpu))


def fragment(function):
    """``st.fragment(function)``, whose own reruns end with a run marker (see the module).

    A fragment's rerun does not pass through the frame's end (the link, the summary, the
    URL): a fragment holds only widgets whose values need neither (its widgets' shared values
    reach the URL at the page's next full run).
    """

    @functools.wraps(function)
    def marked(*args, **kwargs):
        alone = not st.session_state.get(state.FULL_RUN, False)
        started = _clocks()
        result = function(*args, **kwargs)
        if alone:
            draw_marker(st, count_run(), started)
        return result

    return st.fragment(marked)
