"""The server's caches are bounded by bytes, by time and by the sessions that use them (issue 33, item 1)."""

import gc

import numpy as np
import pandas as pd

from ui import cache_budget

MB = 1024 * 1024


def test_sizes_count_arrays_frames_and_the_arrays_inside_objects():
    class Model:
        def __init__(self):
            self.weights = np.zeros(1000)  # 8,000 bytes
            self.trees = [np.zeros(500), np.zeros(500)]

    assert cache_budget.estimated_bytes(np.zeros(1000)) == 8000
    frame = pd.DataFrame({"a": np.zeros(1000), "b": ["x" * 10] * 1000})
    assert cache_budget.estimated_bytes(frame) == frame.memory_usage(deep=True).sum()
    assert 16000 <= cache_budget.estimated_bytes(Model()) < 20000
    shared = np.zeros(1000)
    assert cache_budget.estimated_bytes([shared, shared]) < 9000  # one object counted once


def test_the_budget_is_a_setting_and_a_bad_value_keeps_the_default(monkeypatch):
    monkeypatch.setenv("TREE_BIAS_LAB_CACHE_MB", "64")
    assert cache_budget.budget_bytes() == 64 * MB
    assert cache_budget.upload_budget_bytes() == 16 * MB
    monkeypatch.setenv("TREE_BIAS_LAB_CACHE_MB", "lots")
    assert cache_budget.budget_bytes() == cache_budget.DEFAULT_BUDGET_MB * MB


def test_past_the_budget_the_largest_caches_are_cleared(monkeypatch):
    monkeypatch.setenv("TREE_BIAS_LAB_CACHE_MB", "8")
    monkeypatch.setattr(cache_budget, "_REGISTRY", [])  # only this test's caches count
    calls = []

    @cache_budget.resource(max_entries=8)
    def big(key):
        calls.append(key)
        return np.ones(MB // 8 * 3)  # 3 MB

    @cache_budget.resource(max_entries=8)
    def small(key):
        return np.ones(1000)

    small("s")
    big("a")
    big("b")  # 6 MB: within the budget
    big("a")
    assert calls == ["a", "b"]
    big("c")  # 9 MB > 8: the largest cache goes
    assert cache_budget.held_bytes() < 8 * MB
    big("a")
    assert calls == ["a", "b", "c", "a"]  # recomputed: it was cleared
    big.clear()
    small.clear()


def test_work_on_data_no_session_holds_any_more_is_dropped():
    calls = []

    @cache_budget.data(max_entries=8)
    def work(data_key, setting, _rows):
        calls.append((data_key, setting))
        return np.arange(setting)

    rows = np.zeros(10)
    cache_budget.hold("session-1", {"upload-key"})
    cache_budget.hold("session-2", {"upload-key", "other"})
    work("upload-key", 3, rows)
    work("bundled", 3, rows)
    cache_budget.end_session("session-1")
    work("upload-key", 3, rows)
    assert len(calls) == 2  # session 2 still holds it: kept
    cache_budget.hold("session-2", {"other"})  # session 2 moved to other data
    work("upload-key", 3, rows)
    work("bundled", 3, rows)
    assert calls[2:] == [("upload-key", 3)]  # recomputed; the data nobody held stays
    cache_budget.end_session("session-2")
    work.clear()


def test_a_session_that_ends_releases_its_data():
    from ui import state

    released = []
    original = cache_budget.end_session
    try:
        cache_budget.end_session = released.append
        holder = state._SessionData()
        token = holder.token
        del holder
        gc.collect()
    finally:
        cache_budget.end_session = original
    assert released == [token]


def test_a_result_kept_under_a_tuple_naming_its_data_is_dropped_with_the_data():
    """Background results are kept under a tuple (what, data key, settings): they are released
    like the caches keyed by the data key itself."""
    calls = []

    @cache_budget.resource(max_entries=8)
    def kept(key):
        calls.append(key)
        return np.arange(3)

    cache_budget.hold("session-t", {"upload-t"})
    kept(("study", "upload-t", (("depth", 3),)))
    kept(("study", "upload-t", (("depth", 3),)))
    assert len(calls) == 1
    cache_budget.end_session("session-t")
    kept(("study", "upload-t", (("depth", 3),)))
    assert len(calls) == 2  # released with the session that held its data
    kept.clear()


def test_a_cancelled_study_is_told_apart_from_a_finished_one():
    from ui.experiments import was_cancelled

    table = pd.DataFrame({"a": [1]})
    table.attrs["cancelled"] = True
    assert was_cancelled({"cancelled": True}) and was_cancelled(table)
    assert was_cancelled(type("Study", (), {"cancelled": True})())
    assert not was_cancelled({"cancelled": False}) and not was_cancelled(pd.DataFrame())
    assert not was_cancelled(np.arange(3))


def test_the_sweep_collects_sessions_left_in_reference_cycles():
    """An ended session is freed only by the garbage collector: the sweep runs it."""
    import threading
    import weakref

    class Session:
        pass

    ended, stop = threading.Event(), threading.Event()
    gc.disable()  # only the sweep may collect the cycle
    try:
        session = Session()
        session.itself = session
        weakref.finalize(session, ended.set)
        del session
        cache_budget.collect_ended_sessions(every=0.01, stop=stop)
        assert ended.wait(timeout=60)
    finally:
        stop.set()
        gc.enable()


def test_a_listener_hears_of_data_no_session_holds_any_more():
    heard = []
    cache_budget.on_release(heard.append)
    cache_budget.on_release(heard.append)  # registered once
    try:
        cache_budget.hold("session-a", {"file-digest"})
        cache_budget.hold("session-b", {"file-digest"})
        cache_budget.end_session("session-a")
        assert heard == []  # session b still works on it
        cache_budget.end_session("session-b")
        assert heard == ["file-digest"]
    finally:
        cache_budget._RELEASE_LISTENERS.remove(heard.append)


def _live_sweeps():
    import threading

    return sum(
        t.name == "tree-bias-lab-session-sweep" and t.is_alive() for t in threading.enumerate()
    )


def test_clearing_the_caches_starts_no_second_session_sweep():
    """Each AppTest clears Streamlit's caches and the app's start runs again; it once left a
    sweep thread per run (178 in one test run, collecting several times a second)."""
    from ui import shell

    shell._start_process_services()
    before = _live_sweeps()
    assert before >= 1
    for _ in range(3):
        shell._start_process_services.clear()
        shell._start_process_services()
    assert _live_sweeps() <= before
    assert cache_budget.ensure_session_sweep() is cache_budget.ensure_session_sweep()
