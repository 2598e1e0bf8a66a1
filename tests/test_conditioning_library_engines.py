"""Issue 35: the conditioning experiment with XGBoost, LightGBM, CatBoost and scikit-learn's
histogram boosting: the library's own predictions, the average between the operators, rho in
the model's precision, the settings a run records, and a killed run resumed identically."""

import io
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from lab import MemoryStore, PaperTablesJob, ResultsStore, comparison_frame, run_job
from lab.paper import write_html
from trees.conditioning import (
    ENGINES,
    LIBRARY_ENGINES,
    combine_conditioning,
    conditioning_plan,
    engine_conditionings,
    fit_model,
    register_library_engines,
    run_conditioning_task,
)
from trees.studies._conditioning_experiment import _rho_counts

ROOT = Path(__file__).resolve().parent.parent
# Tiny models: a few trees, one thread (the engines' fixed settings), no files.
TINY = {
    "xgboost": {"n_estimators": 4, "max_depth": 3},
    "xgboost-rf": {"n_estimators": 4, "max_depth": 3},
    "lightgbm": {"n_estimators": 4, "num_leaves": 7, "min_child_samples": 5},
    "lightgbm-rf": {"n_estimators": 4, "num_leaves": 7, "min_child_samples": 5},
    "catboost": {"iterations": 4, "depth": 3},
    "sklearn-hgb": {"max_iter": 4, "max_leaf_nodes": 7},
}
TASKS = ("classification", "regression")


def _data(task):
    """Lattice data (integer features): thresholds fall on and between observed values."""
    rng = np.random.default_rng(1)
    X = rng.integers(0, 7, size=(120, 3)).astype(float) / 10.0  # decimals: float32 matters
    signal = X[:, 0] + X[:, 1] + rng.normal(0, 0.1, 120)
    y = (signal > 0.6).astype(int) if task == "classification" else signal
    return X, y


@pytest.fixture(scope="module", autouse=True)
def library_engines():
    """The library engines in the experiment's table, as the entry points add them."""
    return register_library_engines()


@pytest.fixture(scope="module")
def fitted():
    """Every library engine fitted once per task on the lattice data."""
    pytest.importorskip("xgboost")
    pytest.importorskip("lightgbm")
    pytest.importorskip("catboost")
    return {
        (engine, task): fit_model(engine, "forest", task, TINY[engine], 5, *_data(task))
        for engine in LIBRARY_ENGINES
        for task in TASKS
    }


def test_every_library_engine_is_registered(library_engines):
    assert library_engines == tuple(LIBRARY_ENGINES)
    assert set(LIBRARY_ENGINES) <= set(ENGINES)
    assert {"trees", "extra-trees", "sklearn", "xgboost", "xgboost-rf", "lightgbm",
            "lightgbm-rf", "catboost", "sklearn-hgb"} == set(ENGINES)  # fmt: skip


@pytest.mark.parametrize("engine", sorted(TINY))
@pytest.mark.parametrize("task", TASKS)
def test_folds_give_the_librarys_own_predictions_under_its_operator(fitted, engine, task):
    model = fitted[(engine, task)]
    X, _ = _data(task)
    rows = np.vstack([X, X + 0.05, X[:, ::-1]])  # on the thresholds and between them
    native = model.imported.native_op
    ours = model.predict(rows, native)
    if task == "classification":
        theirs = model.estimator.predict_proba(rows)
    else:
        theirs = model.estimator.predict(rows)
    precision = 1e-5 if model.imported.precision == "float32" else 1e-9
    np.testing.assert_allclose(ours, theirs, rtol=precision, atol=precision)


@pytest.mark.parametrize("engine", sorted(TINY))
@pytest.mark.parametrize("task", TASKS)
def test_the_average_lies_between_the_two_operators_for_every_row(fitted, engine, task):
    model = fitted[(engine, task)]
    X, _ = _data(task)
    le, lt, average = (model.predict(X, c) for c in ("<=", "<", "average"))
    low, high = np.minimum(le, lt), np.maximum(le, lt)
    assert np.all(average >= low - 1e-12) and np.all(average <= high + 1e-12)
    np.testing.assert_allclose(average, 0.5 * (le + lt))


def test_boosting_is_scored_without_half_and_the_forest_modes_with_it():
    assert engine_conditionings("xgboost", "forest") == ("<=", "<", "average")
    assert engine_conditionings("sklearn-hgb", "forest") == ("<=", "<", "average")
    assert engine_conditionings("lightgbm-rf", "forest")[-1] == "half"
    assert engine_conditionings("sklearn", "forest")[-1] == "half"  # unchanged


def test_a_library_engine_refuses_a_single_tree():
    X, y = _data("regression")
    with pytest.raises(ValueError, match="model 'forest'"):
        fit_model("xgboost", "tree", "regression", {}, 5, X, y)


def test_rho_judges_a_float32_models_thresholds_in_float32(fitted):
    """XGBoost's thresholds are float32 values of observed decimals (0.3 is not float32(0.3)):
    they count as those values, as the model compares float32(x) with them."""
    model = fitted[("xgboost", "regression")]
    X, _ = _data("regression")
    on, total = _rho_counts(model, X)
    assert total > 0 and on > 0
    float64_on = _rho_counts(type(model)(model.trees, None, None), X)[0]
    assert float64_on < on  # judged in float64, decimals like 0.3 miss float32(0.3)


def test_a_library_experiment_scores_average_as_its_remedy():
    X, y = _data("classification")
    plan = conditioning_plan(X, y, "classification", "forest", TINY["lightgbm"], n_repeats=1,
                             n_splits=3, engine="lightgbm")  # fmt: skip
    results = {key: run_conditioning_task(plan, key) for key in plan.task_keys()}
    result = combine_conditioning(plan, results)
    assert set(result.scores) == {"<=", "<", "average"} and result.proposed == "average"
    summary = result.summary()
    assert summary["engine"] == "lightgbm" and "mean average" in summary


def _job(**options):
    return PaperTablesJob(names=("o-ring", "haberman"), models=("forest",), n_repeats=1,
                          n_splits=5, engine="xgboost",
                          extra_params=(("max_depth", 2), ("n_estimators", 3)), **options)  # fmt: skip


class _KilledAfter:
    """An executor whose process 'dies' after ``n`` tasks."""

    def __init__(self, n):
        self.n = n

    def map(self, function, keys):
        for index, key in enumerate(keys):
            if index == self.n:
                raise SystemExit("killed")
            yield key, function(key), 0.0

    def close(self):
        pass


def test_a_library_run_killed_midway_resumes_to_identical_numbers(tmp_path):
    pytest.importorskip("xgboost")
    uninterrupted = run_job(_job(), MemoryStore())
    store = ResultsStore(tmp_path / "runs.sqlite")
    with pytest.raises(SystemExit):
        run_job(_job(), store, _KilledAfter(7))
    assert store.run(_job().run_id())["n_done"] == 7
    resumed = run_job(_job(), ResultsStore(tmp_path / "runs.sqlite"))
    assert resumed.status == "done" and resumed.summary == uninterrupted.summary
    settings = store.run(_job().run_id())["settings"]
    assert settings["engine"] == "xgboost" and "xgboost" in settings["library versions"]
    assert settings["extra_params"] == {"max_depth": 2, "n_estimators": 3}
    frame = comparison_frame(resumed.summary)
    assert list(frame["dataset"]) == ["o-ring", "haberman"]
    write_html(frame, tmp_path / "table.html", "xgboost")
    assert "<table" in (tmp_path / "table.html").read_text()


@pytest.mark.slow
def test_importing_trees_does_not_import_the_libraries():
    code = ("import sys, trees, trees.conditioning; "
            "print([m for m in ('xgboost', 'lightgbm', 'catboost') if m in sys.modules])")  # fmt: skip
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                         check=True)  # fmt: skip
    assert out.stdout.strip() == "[]"


def test_importing_the_studies_adds_no_engine_until_asked():
    """Registration is explicit: an import leaves the table as the studies define it."""
    code = ("from trees.conditioning import ENGINES, register_library_engines; "
            "before = sorted(ENGINES); register_library_engines(); register_library_engines(); "
            "print(before, len(ENGINES))")  # fmt: skip
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                         check=True)  # fmt: skip
    assert out.stdout.strip() == "['extra-trees', 'sklearn', 'trees'] 9"


def test_an_engine_not_yet_registered_is_refused_with_the_way_to_add_it():
    """A notebook that asks for a library engine before registering it is told how, not just
    that the name is unknown (a fresh process: this module's fixture registered them here)."""
    code = ("import numpy as np; from trees.conditioning import conditioning_experiment\n"
            "try:\n    conditioning_experiment(np.zeros((6, 1)), np.arange(6) % 2, 'classification', "
            "engine='xgboost', n_repeats=1, n_splits=2)\nexcept ValueError as err:\n    print(err)")  # fmt: skip
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                         check=True)  # fmt: skip
    assert "Unknown engine 'xgboost'" in out.stdout
    assert "trees.conditioning.register_library_engines()" in out.stdout


def test_the_engines_table_has_a_column_group_per_engine(tmp_path):
    from lab.cli import main
    from lab.paper import PAPER_ENGINE, engines_frame

    row = {"dataset": "haberman", "task": "classification", "model": "forest", "folds": 5,
           **{c: "=" for c in ("rho", "rho_k", "d", "p≠", "p≤", "p<", "improvement")},
           **{f"paper {c}": "x" for c in ("rho", "rho_k", "d", "p≠", "p≤", "p<", "improvement")}}  # fmt: skip
    frame = engines_frame({"xgboost": {"rows": [row]}, "lightgbm": {"rows": []}})
    assert frame.loc[0, "xgboost: p≠"] == "=" and frame.loc[0, f"{PAPER_ENGINE}: rho"] == "x"
    assert frame.loc[0, "lightgbm: rho"] == "" and frame.loc[0, "xgboost: folds"] == "5"
    store = tmp_path / "data"
    run_job(_job(), ResultsStore(store / "results.sqlite"))
    out = tmp_path / "t.csv"
    printed = io.StringIO()
    assert main(["--data-dir", str(store), "engines-table", "--engines", "xgboost",
                 "--csv", str(out)], out=printed) == 0  # fmt: skip
    assert "xgboost: rho" in out.read_text() and "haberman" in printed.getvalue()


def test_a_share_of_one_prints_as_one():
    from lab.paper import format_share

    assert [format_share(v) for v in (0.0, 0.001, 0.12, 0.994, 0.996, 1.0)] == [
        "0",
        ".00",
        ".12",
        ".99",
        "1.00",
        "1.00",
    ]


def test_the_command_line_passes_library_settings_and_refuses_a_tree(tmp_path):
    from lab.cli import main

    args = ["--data-dir", str(tmp_path), "conditioning", "--datasets", "o-ring", "--engine",
            "lightgbm", "--repeats", "1", "--scheduler", "threads", "--jobs", "1",
            "--library-params", "n_estimators=3,min_child_samples=5",
            "--csv", str(tmp_path / "t.csv")]  # fmt: skip
    assert main(args, out=io.StringIO()) == 0
    run = ResultsStore(tmp_path / "results.sqlite").runs(kind="tables")[0]
    assert run["settings"]["extra_params"] == {"min_child_samples": 5, "n_estimators": 3}
    assert run["settings"]["models"] == ["forest"] and (tmp_path / "t.csv").exists()
    assert main([*args[:-2], "--model", "tree"], out=io.StringIO()) == 2
    assert main([*args[:3], "--datasets", "o-ring", "--library-params", "x=1"],
                out=io.StringIO()) == 2  # fmt: skip
