"""The saved-run widgets of ui/runs.py on a tiny page (AppTest)."""

from pathlib import Path

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from lab import ConditioningJob, ResultsStore, run_job

SCRIPT = """
import streamlit as st
from ui import runs

opened = runs.saved_runs_panel("conditioning", None, key="t_runs")
if opened:
    run, result = opened
    st.write(f"opened {run['id']} with {result.n_folds_done} folds")
"""


def _job(seed):
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 5, size=(40, 2)).astype(float)
    y = (X[:, 0] > 2).astype(int)
    return ConditioningJob.for_arrays(X, y, "classification", f"toy {seed}", "fp",
                                      params={"max_depth": 2}, n_repeats=1)  # fmt: skip


@pytest.fixture
def store(tmp_path, monkeypatch):
    monkeypatch.setenv("TREE_BIAS_LAB_DATA", str(tmp_path))
    from ui import runs

    runs._store.clear()
    store = ResultsStore(tmp_path / "results.sqlite")
    yield store
    runs._store.clear()


def test_list_reopen_compare_and_delete(store):
    first = run_job(_job(1), store).run_id
    second = run_job(_job(2), store).run_id
    at = AppTest.from_string(SCRIPT, default_timeout=60).run()
    assert not at.exception and len(at.dataframe) == 1
    assert at.selectbox(key="t_runs_choice").options[0].startswith("toy 2")
    at.selectbox(key="t_runs_choice").set_value(first).run()
    at.button(key="t_runs_reopen").click().run()
    assert any(f"opened {first} with 5 folds" in m.value for m in at.markdown)
    at.multiselect(key="t_runs_compare").set_value([first, second]).run()
    assert len(at.dataframe) == 2 and not at.exception
    at.button(key="t_runs_delete").click().run()
    assert [r["id"] for r in store.runs()] == [second]
    assert not any("opened" in m.value for m in at.markdown)


def test_an_empty_store_says_so(store):
    at = AppTest.from_string(SCRIPT, default_timeout=60).run()
    assert not at.exception and "No saved runs yet." in [c.value for c in at.caption]


def test_an_unusable_store_shows_the_reason(tmp_path, monkeypatch):
    from ui import runs

    monkeypatch.setenv("TREE_BIAS_LAB_DATA", str(tmp_path))
    (tmp_path / "results.sqlite").write_text("not a database")
    runs._store.clear()
    at = AppTest.from_string(SCRIPT, default_timeout=60).run()
    runs._store.clear()
    assert not at.exception and "not an SQLite database" in at.error[0].value


def test_a_store_removed_under_the_app_is_started_again_with_a_warning(store):
    run_job(_job(1), store)
    at = AppTest.from_string(SCRIPT, default_timeout=60).run()
    assert len(at.dataframe) == 1  # the app's store is open (kept for the server's life)
    for suffix in ("", "-wal", "-shm"):
        Path(f"{store.path}{suffix}").unlink(missing_ok=True)
    at.run()
    assert not at.exception and not at.error
    assert "was removed" in at.warning[0].value
    assert "No saved runs yet." in [c.value for c in at.caption]
    at.run()
    assert not at.warning  # said once


BACKGROUND = """
import numpy as np
import streamlit as st
from lab import ConditioningJob
from ui import runs

rng = np.random.default_rng(0)
X = rng.integers(0, 5, size=(60, 2)).astype(float)
y = (X[:, 0] > 2).astype(int)
job = ConditioningJob.for_arrays(X, y, "classification", "bg toy", "fp-bg",
                                 params={"max_depth": 2}, n_repeats=400)
if st.button("Run in the background", key="t_bg"):
    runs.start(job)
runs.show_background("conditioning", "fp-bg")
"""


@pytest.mark.slow
def test_a_background_run_shows_its_progress_and_stops(store):
    from lab import background_runs

    at = AppTest.from_string(BACKGROUND, default_timeout=60).run()
    assert not at.exception and not at.get("progress")
    at.button(key="t_bg").click().run()
    [entry] = background_runs().active(fingerprint="fp-bg")
    assert not at.exception and at.get("progress")
    again = AppTest.from_string(BACKGROUND, default_timeout=60).run()  # another session
    assert again.get("progress") and again.button(key=f"runs_stop_{entry.run_id}")
    again.button(key=f"runs_stop_{entry.run_id}").click().run()
    assert entry.wait(60) and entry.status == "stopped"
    assert store.run(entry.run_id)["status"] == "stopped"
