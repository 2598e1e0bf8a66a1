"""Issue 35: each library engine's small grid of trees and depth, chosen per dataset by source
000's selection rule (section 4.3: the best mean AUC or R^2 under the implementation's own test
over repeated 5-fold cross-validation), then used by the Tables 2-3 run; from the command line,
in a background run that chains the two, and side by side with the defaults."""

import inspect
import io

import numpy as np
import pytest

from lab import MemoryStore, PaperTablesJob, ResultsStore, run_job
from lab.background import BackgroundRuns
from lab.jobs import _paper_dataset
from lab.saved import CHOSEN_SUFFIX, chosen_settings_frame, engine_runs
from lab.search import SettingsSearchJob, chosen_settings, search_grid, selection_score
from trees.conditioning import (
    LIBRARY_ENGINES,
    LIBRARY_GRIDS,
    PAPER_RANDOM_STATE,
    fit_model,
    native_predictions,
    register_library_engines,
)
from trees.interop._engines import library_estimator
from trees.tasks import folds

# A grid small enough for a test: two candidates that differ a lot (2 shallow trees, 30 deeper).
TINY_GRID = ({"n_estimators": 2, "max_depth": 1}, {"n_estimators": 30, "max_depth": 3})


@pytest.fixture(scope="module", autouse=True)
def library_engines():
    """The library engines in the experiment's table, as the entry points add them."""
    register_library_engines()


@pytest.fixture
def tiny_xgboost_grid(monkeypatch):
    pytest.importorskip("xgboost")
    monkeypatch.setitem(LIBRARY_GRIDS, "xgboost", TINY_GRID)


@pytest.mark.parametrize("engine", sorted(LIBRARY_GRIDS))
def test_every_grid_names_settings_the_library_takes(engine):
    """A candidate's names are the estimator's own parameters (a typo would fail every fit)."""
    pytest.importorskip("xgboost")
    pytest.importorskip("lightgbm")
    pytest.importorskip("catboost")
    estimator = library_estimator(engine, "classification", {}, 5)
    # get_params lists XGBoost's **kwargs settings; CatBoost lists only those set: read both.
    accepted = set(estimator.get_params()) | set(inspect.signature(type(estimator)).parameters)
    assert set(LIBRARY_GRIDS) == set(LIBRARY_ENGINES)
    assert 2 <= len(LIBRARY_GRIDS[engine]) <= 6  # small and fixed
    for candidate in LIBRARY_GRIDS[engine]:
        assert set(candidate) <= accepted, (engine, candidate)


@pytest.mark.parametrize("task", ["classification", "regression"])
def test_native_predictions_are_the_librarys_own(task):
    pytest.importorskip("lightgbm")
    X, y, dataset_task, _ = _paper_dataset("haberman" if task == "classification" else "o-ring")
    params = {"n_estimators": 5, "min_child_samples": 3}
    predicted, classes = native_predictions("lightgbm", task, params, 5, X[:-10], y[:-10], X[-10:])
    model = fit_model("lightgbm", "forest", task, params, 5, X[:-10], y[:-10])
    own = model.estimator.predict_proba(X[-10:]) if task == "classification" else (
        model.estimator.predict(X[-10:]))  # fmt: skip
    np.testing.assert_allclose(predicted, own)
    assert (classes is None) == (task == "regression")


def test_the_selection_takes_the_best_mean_score_under_the_librarys_own_test(tiny_xgboost_grid):
    job = SettingsSearchJob(names=("haberman",), models=("forest",), n_repeats=1, engine="xgboost")
    assert job.grid() == TINY_GRID and search_grid("sklearn") != TINY_GRID
    outcome = run_job(job, MemoryStore())
    X, y, task, _ = _paper_dataset("haberman")
    splits = folds(task, X, y, 5, 1, PAPER_RANDOM_STATE)
    scores = [selection_score(X, y, task, "forest", dict(c), splits, "xgboost") for c in TINY_GRID]
    found = outcome.summary["haberman/forest"]
    assert found["best"] == TINY_GRID[int(np.argmax(scores))]
    assert found["score"] == pytest.approx(max(scores))
    assert chosen_settings(outcome.summary) == (("haberman", tuple(sorted(found["best"].items()))),)
    settings = job.settings()
    assert settings["grid"] == [dict(c) for c in TINY_GRID]
    assert "xgboost" in settings["library versions"]
    assert "xgboost settings chosen" in job.label()


def test_a_library_selection_covers_its_ensemble_only():
    with pytest.raises(ValueError, match="models must be"):
        SettingsSearchJob(names=("haberman",), models=("tree", "forest"), engine="lightgbm")


def test_a_tables_run_takes_the_chosen_settings_and_records_them():
    chosen = (("haberman", (("max_depth", 3), ("n_estimators", 50))),)
    job = PaperTablesJob(names=("haberman",), models=("forest",), n_repeats=1, engine="xgboost",
                         selected=chosen)  # fmt: skip
    assert dict(job.job("haberman", "forest").params) == {"max_depth": 3, "n_estimators": 50}
    assert job.settings()["selected params"] == {"haberman": {"max_depth": 3, "n_estimators": 50}}
    assert "settings chosen per dataset" in job.label()
    defaults = PaperTablesJob(names=("haberman",), models=("forest",), engine="xgboost")
    assert "selected params" not in defaults.settings()  # the runs saved before keep their ids
    assert defaults.run_id() != job.run_id()
    with pytest.raises(ValueError, match="library engines"):
        PaperTablesJob(names=("haberman",), engine="sklearn", selected=chosen)
    with pytest.raises(ValueError, match="No chosen settings for o-ring"):
        PaperTablesJob(names=("haberman", "o-ring"), models=("forest",), engine="xgboost",
                       selected=chosen)  # fmt: skip


def _tables(engine="xgboost", selected=()):
    return PaperTablesJob(names=("o-ring",), models=("forest",), n_repeats=1, engine=engine,
                          selected=selected,
                          extra_params=() if selected else (("n_estimators", 3),))  # fmt: skip


def test_defaults_and_chosen_settings_stand_side_by_side(tmp_path):
    pytest.importorskip("xgboost")
    store = ResultsStore(tmp_path / "results.sqlite")
    run_job(_tables(), store)
    run_job(_tables(selected=(("o-ring", (("max_depth", 1), ("n_estimators", 4))),)), store)
    found = engine_runs(store, ["xgboost"], ["o-ring"])
    assert list(found) == ["xgboost", "xgboost" + CHOSEN_SUFFIX]
    frame = chosen_settings_frame(found)
    assert list(frame.columns) == ["dataset", "xgboost" + CHOSEN_SUFFIX]
    assert frame.iloc[0].tolist() == ["o-ring", "max_depth=1, n_estimators=4"]


def test_the_command_line_selects_then_runs(tmp_path, tiny_xgboost_grid):
    from lab.cli import main

    args = ["--data-dir", str(tmp_path), "conditioning", "--datasets", "o-ring", "--engine",
            "xgboost", "--repeats", "1", "--scheduler", "threads", "--jobs", "1"]  # fmt: skip
    assert main([*args, "--select", "--select-repeats", "1"], out=io.StringIO()) == 0
    store = ResultsStore(tmp_path / "results.sqlite")
    search = store.runs(kind="paper-settings")[0]
    assert search["status"] == "done" and search["settings"]["engine"] == "xgboost"
    tables = store.runs(kind="tables")[0]
    best = store.run(search["id"])["summary"]["o-ring/forest"]["best"]
    assert tables["settings"]["selected params"] == {"o-ring": best}
    printed = io.StringIO()
    assert main(["--data-dir", str(tmp_path), "engines-table", "--engines", "xgboost"],
                out=printed) == 0  # fmt: skip
    assert "Settings chosen per dataset" in printed.getvalue()
    assert main([*args, "--select", "--library-params", "max_depth=2"], out=io.StringIO()) == 2
    trees_args = [a if a != "xgboost" else "sklearn" for a in args]
    assert main([*trees_args, "--select"], out=io.StringIO()) == 2


def test_a_background_run_chains_the_selection_and_the_tables(tmp_path, tiny_xgboost_grid):
    store = ResultsStore(tmp_path / "results.sqlite")
    search = SettingsSearchJob(names=("o-ring",), models=("forest",), n_repeats=1, engine="xgboost")

    def following(summary):
        return _tables(selected=chosen_settings(summary))

    runs = BackgroundRuns()
    entry = runs.start(search, store, then=following, kind="tables")
    assert entry.kind == "tables"
    assert entry.wait(240) and entry.status == "done", entry.error
    assert "settings chosen per dataset" in entry.label
    assert store.runs(kind="tables")[0]["status"] == "done"


def test_a_stop_during_the_selection_starts_no_tables(tmp_path, tiny_xgboost_grid):
    store = ResultsStore(tmp_path / "results.sqlite")
    search = SettingsSearchJob(names=("o-ring",), models=("forest",), n_repeats=1, engine="xgboost")
    started = []

    def following(summary):
        started.append(summary)
        return _tables(selected=chosen_settings(summary))

    runs = BackgroundRuns()
    entry = runs.start(search, store, then=following, kind="tables")
    entry.stop()
    assert entry.wait(240)
    assert not started and store.runs(kind="tables") == []
    assert entry.fraction <= 1.0


def test_a_selection_that_scores_nothing_says_so():
    job = SettingsSearchJob(names=("o-ring",), models=("forest",), n_repeats=1, engine="xgboost")
    nan = {"score": float("nan")}
    with pytest.raises(ValueError, match="no candidate could be scored"):
        job.combine_part("o-ring/forest", {f"o-ring/forest/{i:02d}": nan for i in range(6)})
