"""Long runs on a page in two or three lines: run in the background, list, reopen, compare, delete.

The logic is in :mod:`lab` (the results store, the background registry);
these are its widgets. A page calls, for example::

    job = ConditioningJob.for_arrays(X, y, task, name, state.dataset_key(), model="tree")
    if st.button("Run in the background", key="cond_bg"):
        runs.start(job)
    runs.show_background("conditioning", state.dataset_key())
    opened = runs.saved_runs_panel("conditioning", state.dataset_key(), key="cond_runs")
    if opened: run, result = opened   # a ConditioningResult, a DataFrame, or a summary

A run started here goes on in a worker thread of the server when the tab
closes, saving each task; opening the page again (any session) shows its
progress, and it appears in the saved-run list when it ends.
"""

import streamlit as st

from lab import (
    StoreError,
    background_runs,
    compare_runs,
    default_store,
    delete_run,
    reopen,
    saved_runs,
)

from . import state
from .markdown import plain

__all__ = [
    "opened_run_id",
    "results_store",
    "runs_section",
    "saved_runs_panel",
    "show_background",
    "start",
]

_REFRESH_SECONDS = 2.0


@st.cache_resource(show_spinner=False)
def _store():
    return default_store()


def results_store():
    """The lab's results store, or None after showing why it cannot be used.

    The store lives as long as the server: its file is checked again here
    (``ResultsStore.refresh``), so a store removed or replaced under the app
    is created again or checked, and the page says so once.
    """
    try:
        store = _store()
        notice = store.refresh()
    except StoreError as error:
        st.error(str(error))
        return None
    if notice:
        st.warning(notice)
    return store


def start(job, panel_key=None, then=None, kind=None):
    """Start ``job`` in a background worker (or find it running); returns its BackgroundRun.

    With ``panel_key`` (the key of a :func:`saved_runs_panel`), that panel
    opens the new run, so the page shows it as its results arrive. ``then``
    and ``kind``: a second job run after the first is done
    (:meth:`lab.background.BackgroundRuns.start`).
    """
    store = results_store()
    if store is None:
        return None
    if store.read_only_reason:
        st.error(f"The run cannot start: {store.read_only_reason}")
        return None
    run = background_runs().start(job, store, then=then, kind=kind)
    if panel_key is not None:
        st.session_state[state.RUNS_OPENED_PREFIX + panel_key] = job.run_id()
    return run


def opened_run_id(panel_key):
    """The id of the run the :func:`saved_runs_panel` of ``panel_key`` has open (None: newest)."""
    return st.session_state.get(state.RUNS_OPENED_PREFIX + panel_key)


def _draw_active(kind, fingerprint):
    active = background_runs().active(kind, fingerprint)
    for run in active:
        text = f"{plain(run.label)}: {run.done} of {run.total or '?'} tasks (saved as they finish)"
        st.progress(run.fraction, text=text)
        if st.button("Stop", key=f"runs_stop_{run.run_id}", help="Stops after the task in flight; "
                     "the run can be resumed later."):  # fmt: skip
            run.stop()
    return active


def show_background(kind, fingerprint=None, rerun_when_done=True):
    """Progress bars (refreshed every 2 s) and Stop buttons of the runs going in the background.

    With ``rerun_when_done``, the whole page runs again when the last of them
    ends, so what the page draws from the run (a best tree, say) follows it.
    """
    if not background_runs().active(kind, fingerprint):
        return

    @st.fragment(run_every=_REFRESH_SECONDS)
    def progress_panel():
        if not _draw_active(kind, fingerprint):
            if rerun_when_done:
                st.rerun()  # from a fragment this reruns the whole page
            st.caption("The background run has ended: it is in the saved runs below.")

    progress_panel()


def _selected_label(frame, run_id):
    row = frame[frame["id"] == run_id].iloc[0]
    return f"{row['label']} ({row['status']}, {row['saved']})"


def saved_runs_panel(kind, fingerprint=None, key="runs"):
    """The saved runs of ``kind`` on this dataset: reopen one, compare two, delete one.

    Parameters
    ----------
    kind : str
        "conditioning", "tables", "split-bias" or "paper-settings".
    fingerprint : str, optional
        The dataset's fingerprint (``state.dataset_key()``); None lists every run of the kind.
    key : str
        A page-prefixed key for the widgets (e.g. "cond_runs").

    Returns
    -------
    (run, result) or None
        The run reopened in this session (see ``lab.reopen``), if any.
    """
    store = results_store()
    if store is None:
        return None
    frame = saved_runs(store, kind=kind, fingerprint=fingerprint)
    opened_key = state.RUNS_OPENED_PREFIX + key
    if frame.empty:
        st.caption("No saved runs yet.")
        return None
    st.dataframe(frame.drop(columns=["kind"]), hide_index=True, key=f"{key}_table")
    ids = list(frame["id"])
    chosen = st.selectbox("Saved run", ids, format_func=lambda i: _selected_label(frame, i),
                          key=f"{key}_choice")  # fmt: skip
    reopen_col, delete_col = st.columns(2)
    if reopen_col.button("Reopen", key=f"{key}_reopen"):
        st.session_state[opened_key] = chosen
    if store.read_only_reason:
        st.caption(f"Saved runs can be opened, not deleted: {store.read_only_reason}")
    if delete_col.button("Delete", key=f"{key}_delete", disabled=bool(store.read_only_reason)):
        delete_run(store, chosen)
        if st.session_state.get(opened_key) == chosen:
            st.session_state.pop(opened_key)
        st.rerun()
    if len(ids) >= 2:
        pair = st.multiselect("Compare two runs", ids, max_selections=2,
                              format_func=lambda i: _selected_label(frame, i),
                              key=f"{key}_compare")  # fmt: skip
        if len(pair) == 2:
            st.dataframe(compare_runs(store, *pair), key=f"{key}_comparison")
    opened = st.session_state.get(opened_key)
    if opened is None or opened not in ids:
        return None
    return reopen(store, opened)


def runs_section(kind, fingerprint, panel_key, saved_label, show_result):
    """A page's background runs of ``kind``: progress, then the opened run's result, with the
    saved runs (reopen, compare, delete) in an expander under it.

    ``show_result(opened)`` draws what :func:`saved_runs_panel` opened (None: nothing yet).
    """
    show_background(kind, fingerprint)
    results = st.container()  # above the expander, though the panel decides what it shows
    with st.expander(saved_label):
        opened = saved_runs_panel(kind, fingerprint, key=panel_key)
    with results:
        show_result(opened)
