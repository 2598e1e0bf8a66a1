"""trees.interop imports every library's models exactly (issue 31, part 1).

For every library, model type and task, the common representation under the
model's native operator reproduces the library's own predictions and raw
scores on held-out rows, on rows placed exactly on every threshold, and on
rows with missing values, to 1e-6 (XGBoost, which adds its leaves in
float32: to 1e-5).
"""

import functools
import json
import subprocess
import sys

import numpy as np
import pytest

from tests import interop_helpers as h
from trees.interop import ModelFileError, from_model

TASKS = ("binary", "multiclass", "regression")
SKLEARN = ("DecisionTree", "RandomForest", "ExtraTrees", "GradientBoosting", "HistGradientBoosting")
CASES = [("sklearn", name, task) for name in SKLEARN for task in TASKS] + [
    (library, "wrapper", task) for library in ("xgboost", "lightgbm", "catboost") for task in TASKS
]


@functools.cache
def fitted(library, name, task):
    """(model, X_train, X_test, imported) trained once per session."""
    if library == "sklearn":
        model, nan = next((m, nan) for n, m, nan in h.sklearn_models(task) if n == name)
    else:
        model, nan = getattr(h, f"{library}_model")(task), True
    X, X_test = h.lattice_data(missing=nan)
    model.fit(X, h.target(X, task))
    return model, X, X_test, from_model(model)


def _tolerance(library):
    return 1e-5 if library == "xgboost" else 1e-6


@pytest.mark.parametrize("case", CASES, ids=lambda c: "-".join(c))
def test_native_operator_reproduces_the_library(case):
    model, X, X_test, imported = fitted(*case)
    rows = np.vstack([X_test, h.on_threshold_rows(imported, X_test)])
    expected = h.library_prediction(model, rows)
    got = imported.output(rows)
    np.testing.assert_allclose(got, expected, atol=_tolerance(case[0]), rtol=1e-6)
    assert np.array_equal(np.ravel(model.predict(rows)), imported.predict(rows)) or (
        case[2] == "regression"
    )


# Single trees and forests have no raw scores of their own (their raw scores are the averaged
# probabilities or values, compared above).
RAW_CASES = [c for c in CASES if c[1] not in ("DecisionTree", "RandomForest", "ExtraTrees")]


@pytest.mark.parametrize("case", RAW_CASES, ids=lambda c: "-".join(c))
def test_raw_scores_reproduce_the_library(case):
    model, X, X_test, imported = fitted(*case)
    rows = np.vstack([X_test, h.on_threshold_rows(imported, X_test)])
    raw = h.library_raw(model, rows)
    np.testing.assert_allclose(
        imported.decision_function(rows), raw, atol=_tolerance(case[0]), rtol=1e-6
    )


@pytest.mark.parametrize("case", CASES, ids=lambda c: "-".join(c))
def test_native_operator_and_precision_are_recorded(case):
    imported = fitted(*case)[3]
    native = {"sklearn": "<=", "xgboost": "<", "lightgbm": "<=", "catboost": "<="}[case[0]]
    assert imported.native_op == native
    float64 = case[0] == "lightgbm" or case[1] == "HistGradientBoosting"
    assert imported.precision == ("float64" if float64 else "float32")
    assert imported.predict(X := fitted(*case)[2], conditioning="native").shape[0] == X.shape[0]


def test_the_threshold_rows_do_reach_the_thresholds():
    """The rows above are on thresholds: under the other operator some predictions move."""
    _, _, X_test, imported = fitted("xgboost", "wrapper", "binary")
    rows = h.on_threshold_rows(imported, X_test)
    native = imported.output(rows)
    other = imported.output(rows, conditioning="<=")
    assert np.abs(native - other).max() > 1e-3


def test_xgboost_booster_and_json_and_ubjson_files(tmp_path):
    import xgboost as xgb

    X, X_test = h.lattice_data()
    booster = xgb.train(
        {"objective": "binary:logistic", "max_depth": 3, "nthread": 1},
        xgb.DMatrix(X, label=h.target(X, "binary")),
        num_boost_round=4,
    )
    expected = booster.predict(xgb.DMatrix(X_test))
    assert np.allclose(from_model(booster).predict_proba(X_test)[:, 1], expected, atol=1e-6)
    booster.save_model(tmp_path / "m.json")
    document = json.loads((tmp_path / "m.json").read_text())
    assert np.allclose(from_model(document).predict_proba(X_test)[:, 1], expected, atol=1e-6)


def test_lightgbm_booster_and_text_file(tmp_path):
    import lightgbm as lgb

    X, X_test = h.lattice_data()
    data = lgb.Dataset(X, label=h.target(X, "regression"))
    booster = lgb.train({"num_leaves": 5, "verbose": -1, "num_threads": 1}, data, 4)
    booster.save_model(tmp_path / "m.txt")
    text = (tmp_path / "m.txt").read_text()
    for model in (booster, text):
        assert np.allclose(from_model(model).predict(X_test), booster.predict(X_test), atol=1e-9)


def test_catboost_json_export_round_trips():
    model, _, X_test, imported = fitted("catboost", "wrapper", "multiclass")
    again = from_model(imported.document)
    assert np.allclose(again.predict_proba(X_test), model.predict_proba(X_test), atol=1e-9)


def test_nan_rows_follow_the_default_directions():
    for case in [("xgboost", "wrapper", "binary"), ("lightgbm", "wrapper", "regression"),
                 ("catboost", "wrapper", "binary"), ("sklearn", "HistGradientBoosting", "binary"),
                 ("sklearn", "RandomForest", "multiclass")]:  # fmt: skip
        model, _, X_test, imported = fitted(*case)
        rows = X_test.copy()
        rows[:, :2] = np.nan
        np.testing.assert_allclose(
            imported.output(rows), h.library_prediction(model, rows), atol=1e-6
        )


def test_unsupported_models_are_refused_with_a_message():
    from sklearn.linear_model import LinearRegression

    with pytest.raises(ModelFileError, match="not a supported model"):
        from_model(LinearRegression())


def test_import_trees_imports_no_model_library():
    code = (
        "import sys, trees, trees.interop; "
        "print(sorted({'xgboost','lightgbm','catboost','skops','onnx'} & set(sys.modules)))"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.stdout.strip() == "[]", result.stdout + result.stderr


def test_categorical_splits_of_lightgbm_and_xgboost():
    import lightgbm as lgb
    import pandas as pd
    import xgboost as xgb

    rng = np.random.default_rng(0)
    codes, x = rng.integers(0, 8, 600), rng.normal(size=600)
    y = ((codes % 3 == 0) ^ (x > 0.3)).astype(int)
    X = np.column_stack([codes, x]).astype(float)
    lgb_model = lgb.LGBMClassifier(
        n_estimators=5,
        num_leaves=6,
        verbose=-1,
        n_jobs=1,
        min_child_samples=5,
        min_data_per_group=5,
        cat_smooth=1,
    )
    lgb_model.fit(X, y, categorical_feature=[0])  # fmt: skip
    imported = from_model(lgb_model)
    assert any(c is not None for t in imported.trees for c in t.categories)
    rows = X.copy()
    rows[:7, 0] = [8, 9, -1, 2.5, 3.7, np.nan, 0.2]  # unseen, negative, fractional, missing
    np.testing.assert_allclose(imported.predict_proba(rows), lgb_model.predict_proba(rows))
    frame = pd.DataFrame({"c": pd.Categorical(codes), "x": x})
    xgb_model = xgb.XGBClassifier(n_estimators=5, max_depth=3, nthread=1, max_cat_to_onehot=1,
                                  enable_categorical=True).fit(frame, y)  # fmt: skip
    imported = from_model(xgb_model)
    assert any(c is not None for t in imported.trees for c in t.categories)
    np.testing.assert_allclose(imported.predict_proba(X), xgb_model.predict_proba(frame), atol=1e-6)


def test_catboost_nan_mode_max_sends_missing_values_right():
    import catboost as cb

    X, X_test = h.lattice_data()
    model = cb.CatBoostClassifier(iterations=4, depth=3, thread_count=1, verbose=0,
                                  nan_mode="Max", allow_writing_files=False)  # fmt: skip
    model.fit(X, h.target(X, "binary"))
    imported = from_model(model)
    rows = X_test.copy()
    rows[::2, :3] = np.nan
    np.testing.assert_allclose(imported.predict_proba(rows), model.predict_proba(rows), atol=1e-9)
    assert any(not m[0] for m in imported.missing_left if m.size > 1)
