"""Running long experiments from a page: a progress bar, a Stop button, partial results kept.

Streamlit stops a script run when the user presses a button during it; the
next run then starts from the top. So each fold's partial result is written
to ``st.session_state`` before the progress bar is updated: after a Stop,
the page shows the folds that finished. Streamlit's header offers no Stop of
its own in this app (``toolbarMode = "minimal"`` in ``.streamlit/config.toml``):
that Stop ended the run with nothing drawn after it, a progress bar frozen and
no partial result, so the app's Stop is the one way to stop a run.

Work of a minute or more runs instead in the server's background worker
(:func:`in_background`, on :mod:`lab.computations`): the page answers meanwhile,
a bar refreshed every second shows the progress, and the result is drawn when
it is there.
"""

import streamlit as st

from lab.computations import Stopped, server_computations
from ui import cache_budget


def run_with_progress(key, label, run, stop_label="Stop"):
    """Run ``run(progress)`` with a progress bar and a Stop button.

    ``run`` receives a callback ``progress(done, total, partial)`` and returns
    the final result. The latest partial result, and then the final one, are
    stored in ``st.session_state[key]``; a new run first clears the last one,
    so a Stop before the first step shows nothing old as new
    (:func:`stopped_before_any_step`).
    """
    st.session_state[key] = None
    stop = st.empty()
    stop.button(
        stop_label, key=f"{key}_stop", help="Stops after the current step; finished steps are kept."
    )
    bar = st.progress(0.0, text=label)

    def progress(done, total, partial):
        st.session_state[key] = partial
        bar.progress(done / total, text=f"{label}: {done} of {total}")

    result = run(progress)
    st.session_state[key] = result
    bar.empty()
    stop.empty()
    return result


def stopped_before_any_step(key):
    """Whether this run follows a Stop of the run of ``key`` that came before its first step."""
    return bool(st.session_state.get(f"{key}_stop")) and st.session_state.get(key) is None


def latest_study(prefix, identity, label, compute):
    """The result of ``compute(progress)`` for ``identity``, kept in the session under ``prefix``.

    Run now under :func:`run_with_progress` (progress and a Stop) when not yet kept; only the
    last identity's result is kept (the others' are dropped, their Stop flags left). None after
    a Stop that came before the first step ended.
    """
    key = prefix + repr(identity)
    for stale in [k for k in st.session_state if str(k).startswith(prefix)]:
        if stale != key and not str(stale).endswith("_stop"):
            del st.session_state[stale]
    if st.session_state.get(key) is None and not stopped_before_any_step(key):
        run_with_progress(key, label, compute)
    return st.session_state.get(key)


def said_stopped(outcome, count, total, unit):
    """Say on the page that a :func:`latest_study` was stopped; True when nothing is left to show.

    ``outcome`` is the study's result (None after a Stop before its first step), ``count`` the
    key of its steps done, ``total`` the steps asked for, ``unit`` their name ("refit").
    """
    if outcome is None:
        st.info(f"Stopped before the first {unit} ended. Change a setting to run the study again.")
        return True
    if outcome["cancelled"]:
        st.caption(
            f"Stopped after {outcome[count]} of {total} {unit}s: what follows covers those "
            f"{unit}s. Change a setting to run the study again."
        )
    return False


class NotKept(LookupError):
    """No result is kept under this key yet (:func:`kept_result`)."""


@cache_budget.resource(show_spinner=False, max_entries=32)
def kept_result(key, _result=None):
    """The result kept under ``key``; with ``_result``, keep it.

    A cache entry shared by every session, within the caches' byte and time budget, like the
    pages' own cached computations. Looking up a key not kept raises :class:`NotKept`, which
    Streamlit does not cache.
    """
    if _result is None:
        raise NotKept(key)
    return _result


def was_cancelled(result):
    """Whether a study's ``result`` says a Stop cut it short: ``result["cancelled"]`` (a dict),
    ``result.attrs["cancelled"]`` (a table) or ``result.cancelled``."""
    if isinstance(result, dict):
        return bool(result.get("cancelled"))
    attrs = getattr(result, "attrs", None)
    if isinstance(attrs, dict) and "cancelled" in attrs:
        return bool(attrs["cancelled"])
    return bool(getattr(result, "cancelled", False))


def computed_in_background(name, key, label, compute, restart_label):
    """:func:`in_background`'s result, computed once and then kept (:func:`kept_result`): a
    rerun, a reload or another session gets it without computing it again. None while it is
    computed or after a Stop (the progress and Stop, or the restart, are drawn where this is
    called).

    A study that a Stop ends early returns what it did, marked cancelled
    (:func:`was_cancelled`); here that counts as stopped, never as a result to keep.
    """
    try:
        return kept_result(key)
    except NotKept:
        pass

    def whole(progress, should_stop):
        result = compute(progress, should_stop)
        if was_cancelled(result):
            raise Stopped
        return result

    result = in_background(name, key, label, whole, restart_label)
    return None if result is None else kept_result(key, _result=result)


# Seconds between two refreshes of a background computation's progress bar.
_REFRESH_SECONDS = 1.0


def in_background(name, key, label, compute, restart_label):
    """The result of ``compute(progress, should_stop)`` computed in the server's background
    worker (:mod:`lab.computations`), or None while it is not there.

    The first call starts it; until it ends, the page draws a progress bar refreshed every
    second with a Stop, and the rest of the page works meanwhile; when it ends, the whole page
    runs again and this call returns the result (the caller keeps it: the registry drops it
    ``lab.computations.KEEP_SECONDS`` after it ended). ``key`` names what is computed
    (sessions asking for the same share the work, and a Stop); ``name`` prefixes the widgets'
    keys. After a Stop, the page says so and offers ``restart_label``, a button that starts it
    again. A computation that failed raises RuntimeError with its error.
    """
    registry = server_computations()
    entry = registry.get(key)
    if entry is not None and entry.status == "stopped":
        done = f"{entry.done} of {entry.total} done" if entry.total else "before its first step"
        st.info(f"Stopped ({done}). Press “{restart_label}” to start again.")
        if not st.button(restart_label, key=f"{name}_restart", type="primary"):
            return None
        entry = None
    if entry is None:  # (``start`` replaces a stopped computation)
        entry = registry.start(key, label, compute)
    if entry.status == "done":
        # Left in the registry (dropped a while after it ended): a rerun that interrupts the
        # caller before it kept the result, or another session asking for the same, finds it.
        return entry.result
    if entry.status == "failed":
        registry.take(key)  # the next run starts it again instead of saying the error again
        raise RuntimeError(entry.error)
    _progress_panel(name, key)
    return None


def _progress_panel(name, key):
    """The progress bar and Stop of the computation of ``key``, refreshed every second; the
    whole page runs again once it has ended."""

    @st.fragment(run_every=_REFRESH_SECONDS)
    def panel():
        entry = server_computations().get(key)
        if entry is None or not entry.going:
            st.rerun()  # from a fragment this reruns the whole page, which takes the result
        waiting = "waits for another computation on this server to end"
        steps = f"{entry.done} of {entry.total}" if entry.total else "starting"
        text = f"{entry.label}: {waiting if entry.status == 'queued' else steps}"
        # One row, the Stop beside the bar: a page may show two of them above its key picture.
        bar, stop = st.columns([7, 1], vertical_alignment="bottom")
        bar.progress(entry.fraction, text=text)
        help_text = "Stops after the current step. Meanwhile the rest of the page works."
        if stop.button("Stop", key=f"{name}_stop", help=help_text):
            entry.stop()

    panel()
