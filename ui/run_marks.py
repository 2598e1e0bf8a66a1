"""The end of each run, marked in the page.

Browser tests and the page benchmark (``bench/bench_pages.py``) wait for an invisible marker,
numbered by the session's runs (``state.RUNS_FINISHED``), to know that a run has ended
instead of guessing with a timeout. The marker carries the run's time on the server: its wall
time (``data-seconds``, ``time.perf_counter``) and the server process's CPU time meanwhile
(``data-cpu``, ``time.process_time``: all its threads, so a page's thread pool counts), which
other processes on a loaded machine inflate much less. On a server that serves one browser, as
in the page benchmark, that CPU time is the run's; with other sessions at work it counts theirs
too. A widget's callback, run before the script, is in neither.
"""

import time

import streamlit as st

from ui import state

__all__ = ["count_run", "draw_marker", "start_run"]

_MARKER = (
    '<span class="run-finished" data-run="{run}" data-seconds="{wall:.3f}" '
    'data-cpu="{cpu:.3f}" hidden></span>'
)


def start_run():
    """The clocks at the start of a run, for :func:`draw_marker`: (wall, CPU) seconds."""
    return time.perf_counter(), time.process_time()


def count_run():
    """Count the run now ending (``state.RUNS_FINISHED``) and return its number."""
    runs = st.session_state.get(state.RUNS_FINISHED, 0) + 1
    st.session_state[state.RUNS_FINISHED] = runs
    return runs


def draw_marker(container, run, started):
    """Draw run ``run``'s end marker in ``container`` (``started``: :func:`start_run`'s clocks)."""
    wall, cpu = (now - then for now, then in zip(start_run(), started, strict=True))
    container.html(_MARKER.format(run=run, wall=wall, cpu=cpu))
