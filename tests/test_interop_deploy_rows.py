"""The export and the parity report read rows by the one rule (issues 54 and 55 together).

A runtime gets the array the library's own predict takes (``_inputs.array_rows``): the
training columns in their order, a category as the library's code or, for
HistGradientBoosting, its value, XGBoost's sentinel as missing, the trees of the best
iteration. Each case: the lab's ONNX file reproduces the library and the lab's walk on
probe rows and the user's rows, and the report's counts are 0 for it; what no array can
hold is refused in words. The parity report's walk to the leaves (``leaf_nodes``) is the
walk of the predictions, node for node.
"""

import numpy as np
import pandas as pd
import pytest

from trees.interop import (
    ModelInputError,
    check_export,
    export_onnx,
    from_model,
    load_model_file,
    parity_check,
    parity_report,
    threshold_probes,
)
from trees.interop._inputs import array_rows
from trees.interop._predict import leaf_nodes, raw_scores
from trees.interop._probes import probe_values

CONDITIONINGS = ("native", "<=", "<", "average", "half")


def _frame(n=400, seed=0):
    """Numbers on a lattice, and a categorical column of numeric categories, in the middle."""
    rng = np.random.default_rng(seed)
    frame = pd.DataFrame({
        "a": rng.integers(0, 8, n).astype(float),
        "c": pd.Categorical(rng.choice([3.0, 7.0, 10.0], n)),
        "b": rng.integers(0, 5, n).astype(float),
    })  # fmt: skip
    y = ((frame["a"] > 3) ^ (frame["c"] == 7.0)).astype(int).to_numpy()
    return frame, y


def _run(onx, X):
    import onnxruntime as ort

    session = ort.InferenceSession(onx.SerializeToString(), providers=["CPUExecutionProvider"])
    return session.run(["probabilities"], {"X": np.ascontiguousarray(X, dtype=np.float64)})[0]


def _array(model, frame):
    """Probe rows and the frame's rows as the array the library's predict takes."""
    imported = from_model(model)
    probes = probe_values(imported, threshold_probes(model, frame))
    return np.vstack([array_rows(imported.inputs, probes),
                      array_rows(imported.inputs, imported.check_X(frame))])  # fmt: skip


def _ran(report, runtime):
    line = report.summary.set_index("runtime").loc[runtime]
    return line["status"], line["disagree"]


def test_histogram_boosting_categories_are_exported_in_its_encoder_and_column_order():
    from sklearn.ensemble import HistGradientBoostingClassifier

    frame, y = _frame()
    model = HistGradientBoostingClassifier(max_iter=10, categorical_features="from_dtype")
    model.fit(frame, y)
    imported = from_model(model)
    assert imported.inputs.order is not None and any(t.is_membership.any() for t in imported.trees)
    X = _array(model, frame)
    unseen = X[:5].copy()
    unseen[:, 1] = 5.0  # a category it never saw: missing, as its encoder reads it
    X = np.vstack([X, unseen])
    for conditioning in CONDITIONINGS:
        got = _run(export_onnx(model, conditioning), X)
        assert np.allclose(got, imported.output(X, conditioning), atol=1e-12), conditioning
    assert np.allclose(_run(export_onnx(model), X), model.predict_proba(X), atol=1e-9)
    report = parity_report(model, frame, runtimes=["onnx-lab"])
    assert _ran(report, "onnx-lab") == ("ran", 0)
    assert report.reference == "scikit-learn's own predict"
    assert check_export(model, export_onnx(model, "average"), frame, "average") == (len(frame), 0)


def test_histogram_boosting_text_categories_are_refused_in_words():
    from sklearn.ensemble import HistGradientBoostingClassifier

    frame, y = _frame()
    frame["c"] = frame["c"].astype(str).astype("category")
    model = HistGradientBoostingClassifier(max_iter=5, categorical_features="from_dtype")
    model.fit(frame, y)
    with pytest.raises(ModelInputError, match="text.*no array of numbers holds them"):
        export_onnx(model)
    report = parity_report(model, frame, runtimes=["onnx-lab", "onnx-converter"])
    assert set(report.summary["status"]) == {"does not read this model"}
    assert all("ConditionedModel" in d for d in report.summary["detail"])
    assert report.array is None


def test_lightgbm_text_categories_reach_every_runtime_as_its_codes():
    import lightgbm

    frame, y = _frame()
    frame["c"] = frame["c"].map({3.0: "three", 7.0: "seven", 10.0: "ten"}).astype("category")
    model = lightgbm.LGBMClassifier(n_estimators=10, num_leaves=7, verbose=-1,
                                    min_child_samples=5).fit(frame, y)  # fmt: skip
    report = parity_report(model, frame, runtimes=["onnx-lab", "treelite-float64"])
    assert report.reference == "LightGBM's own predict"
    assert _ran(report, "onnx-lab") == ("ran", 0)
    assert report.rows["c"].isin(["three", "seven", "ten"]).all()  # shown as its categories
    expected = model.predict_proba(frame)
    got = _run(export_onnx(model), array_rows(from_model(model).inputs,
                                               from_model(model).check_X(frame)))  # fmt: skip
    assert np.allclose(got, expected, atol=1e-9)
    probes = threshold_probes(model, frame)
    with pytest.raises(ModelInputError, match="pass the model too"):
        parity_check(model.predict_proba, model.predict_proba, probes)
    same = parity_check(model.predict_proba, _export_predictor(model), probes, model=model)
    assert same.summary()["n_disagree"] == 0 and same.n_probes == len(probes)


def _export_predictor(model):
    onx = export_onnx(model)
    return lambda X: _run(onx, X)


def test_an_xgboost_file_with_early_stopping_and_a_sentinel_is_served_as_its_wrapper():
    import xgboost

    frame, y = _frame(seed=1)
    X = frame.assign(c=frame["c"].astype(float)).to_numpy()
    X[::7, 1] = -1.0  # the rows' gaps, written as the model's missing= value
    model = xgboost.XGBClassifier(n_estimators=60, max_depth=3, early_stopping_rounds=3,
                                  missing=-1.0, nthread=1)  # fmt: skip
    model.fit(X[:300], y[:300], eval_set=[(X[300:], y[300:])], verbose=False)
    document = bytes(model.get_booster().save_raw("json"))
    read = load_model_file("model.json", document).with_missing_value(-1.0)
    assert read.trees_used and read.n_trees < len(model.get_booster().get_dump())
    expected = model.predict_proba(X)
    assert np.allclose(_run(export_onnx(read), X), expected, atol=1e-6)
    for source in (model, read):
        report = parity_report(source, X, runtimes=["onnx-lab", "onnx-converter",
                                                    "treelite-float32"])  # fmt: skip
        assert report.reference == "XGBoost's own predict"
        assert np.allclose(report.outputs["library"][-len(X) :], expected, atol=1e-6)
        for runtime in ("onnx-lab", "treelite-float32"):
            assert _ran(report, runtime) == ("ran", 0), runtime


@pytest.mark.parametrize("kind", ["forest", "categorical"])
def test_the_reports_leaves_are_the_predictions_leaves(kind):
    import lightgbm
    from sklearn.ensemble import RandomForestClassifier

    frame, y = _frame()
    if kind == "forest":
        model = RandomForestClassifier(n_estimators=5, max_depth=6, random_state=0)
        model.fit(frame.assign(c=frame["c"].astype(float)), y)
        frame = frame.assign(c=frame["c"].astype(float))
    else:
        model = lightgbm.LGBMClassifier(n_estimators=6, num_leaves=7, verbose=-1,
                                        min_child_samples=5).fit(frame, y)  # fmt: skip
    imported = from_model(model)
    packed = imported.packed()
    X = imported.cast(frame)
    for op in ("<=", "<"):
        strict = imported.strict_flags(op)
        leaves = leaf_nodes(packed, X, strict)
        assert np.all(packed.feature[leaves] == -1)
        summed = np.zeros((X.shape[0], imported.n_outputs))
        for t in range(imported.n_trees):
            block = packed.values[leaves[:, t]]
            if packed.columns[t] >= 0:
                summed[:, packed.columns[t]] += block[:, 0]
            else:
                summed += block
        assert np.allclose(summed, raw_scores(packed, X, strict), atol=1e-12)
