"""trees.interop.export_onnx: the remedy as an ONNX file, run in onnxruntime (issue 55).

For every library, model type and task the lab reads, the exported graph reproduces in
onnxruntime the library's own predictions (the native test), and the lab's own walk
under ``x <= t``, ``x < t``, their average and "half", on probe rows (on every threshold
and one ulp either side) and held-out rows with missing values: no row disagrees. Then
the details each library needs: LightGBM's float64 thresholds and missing-value rules,
categorical splits, trees of one leaf, labels that are words, the input's type.
"""

import dataclasses

import numpy as np
import pytest

from tests import interop_helpers as h
from tests.test_interop_import import CASES, fitted
from trees.interop import ModelFileError, export_onnx, from_model, threshold_probes
from trees.interop._inputs import array_rows
from trees.interop._onnx_trees import nudged_thresholds
from trees.interop._probes import probe_values

CONDITIONINGS = ("native", "<=", "<", "average", "half")


def _run(onx, X, dtype=np.float64):
    import onnxruntime as ort

    session = ort.InferenceSession(onx.SerializeToString(), providers=["CPUExecutionProvider"])
    names = [o.name for o in session.get_outputs()]
    return dict(zip(names, session.run(None, {"X": X.astype(dtype)}), strict=True))


def _rows(model, X_test):
    """Probe rows from the held-out rows, then the held-out rows (missing values included):
    the probes as the array the library's predict takes (a categorical model's probes hold
    its categories, read back by the model's rule)."""
    imported = from_model(model)
    probes = array_rows(imported.inputs, probe_values(imported, threshold_probes(model, X_test)))
    return np.vstack([probes, X_test])


def _output(imported, result):
    return result["probabilities"] if imported.is_classifier else result["prediction"]


def _disagreeing(a, b, atol=1e-9, rtol=1e-9):
    a, b = np.asarray(a).reshape(len(a), -1), np.asarray(b).reshape(len(b), -1)
    return int((~np.isclose(a, b, atol=atol, rtol=rtol)).any(axis=1).sum())


@pytest.mark.parametrize("case", CASES, ids=lambda c: "-".join(c))
def test_the_export_reproduces_the_library_and_each_test(case):
    model, _, X_test, imported = fitted(*case)
    rows = _rows(model, X_test)
    for conditioning in CONDITIONINGS:
        result = _run(export_onnx(model, conditioning), rows)
        got = _output(imported, result)
        # the lab's walk under the same test: the same leaves, summed in float64
        assert _disagreeing(got, imported.output(rows, conditioning)) == 0, conditioning
        if conditioning == "native":
            # the library itself (XGBoost adds its leaves in float32)
            expected = h.library_prediction(model, rows)
            assert _disagreeing(got, expected, atol=1e-5, rtol=1e-6) == 0
            if imported.is_classifier:
                assert np.array_equal(result["label"], np.ravel(model.predict(rows)))


def test_lightgbm_keeps_its_float64_thresholds_and_the_rows_above_them():
    model, _, X_test, imported = fitted("lightgbm", "wrapper", "binary")
    onx = export_onnx(model)
    node = next(n for n in onx.graph.node if n.op_type == "TreeEnsemble")
    splits = next(a.t for a in node.attribute if a.name == "nodes_splits")
    assert splits.data_type == 11  # double
    thresholds = np.concatenate([t.threshold[t.feature >= 0] for t in imported.trees])
    written = np.frombuffer(splits.raw_data, dtype=np.float64)
    assert set(thresholds.tolist()) == set(written[np.isfinite(written)].tolist())
    probes = threshold_probes(model, X_test)
    above = probes[probes["probe_side"] == "above"]
    X = above[above.attrs["feature_columns"]].to_numpy()
    # one float64 ulp above a threshold: float32 would read it as the threshold itself
    assert np.any(
        X.astype(np.float32).astype(np.float64) == above["probe_threshold"].to_numpy()[:, None]
    )
    got = _run(onx, X)["probabilities"]
    assert _disagreeing(got, model.predict_proba(X), atol=1e-6) == 0
    assert dict((o.domain, o.version) for o in onx.opset_import)["ai.onnx.ml"] == 5


def test_nudged_thresholds_route_every_float32_row_as_the_float64_threshold():
    rng = np.random.default_rng(0)
    t = np.concatenate([rng.normal(size=200), np.float32(rng.normal(size=50)).astype(float),
                        [np.inf, -np.inf, 0.0]])  # fmt: skip
    for strict in (False, True):
        t32 = nudged_thresholds(t, np.full(t.size, strict))
        assert np.array_equal(t32, t32.astype(np.float32).astype(np.float64))
        for step in (-np.inf, np.inf):  # the float32 rows nearest each threshold, both sides
            x = np.nextafter(t32.astype(np.float32), np.float32(step)).astype(np.float64)
            for row in (x, t32):
                if strict:
                    assert np.array_equal(row < t, row < t32)
                else:
                    assert np.array_equal(row <= t, row <= t32)


def _check_exports(model, X, rows, expected, dtype="float64"):
    imported = from_model(model)
    rows = np.vstack([_rows(model, X), rows])
    for conditioning in ("native", "<", "average"):
        got = _output(imported, _run(export_onnx(model, conditioning, dtype), rows, dtype))
        assert _disagreeing(got, imported.output(rows, conditioning)) == 0, conditioning
    got = _output(imported, _run(export_onnx(model, input_dtype=dtype), rows, dtype))
    assert _disagreeing(got, expected(rows), atol=1e-6, rtol=1e-6) == 0


def test_lightgbm_missing_value_rules_and_categorical_splits():
    import lightgbm

    X, X_test = h.lattice_data()
    y = h.target(X, "binary")
    zeros = X.copy()
    zeros[::5, 0] = 0.0
    params = {"n_estimators": 5, "num_leaves": 7, "verbose": -1, "min_child_samples": 5}
    for extra, data in (({"zero_as_missing": True}, zeros), ({"use_missing": False}, X)):
        model = lightgbm.LGBMClassifier(**params, **extra).fit(data, y)
        kinds = {int(k) for nodes in from_model(model).missing_kind for k in nodes}
        assert kinds - {0}, extra  # the model does read values under that rule
        _check_exports(model, data, np.vstack([X_test, zeros[:20]]), model.predict_proba)
    coded = np.nan_to_num(X)
    model = lightgbm.LGBMClassifier(**params, min_data_per_group=5, cat_smooth=1.0)
    model.fit(coded, y, categorical_feature=[0])
    assert any(t.is_membership.any() for t in from_model(model).trees)
    odd = np.array([[2.7, 1, 1, 0.0], [-0.5, 1, 1, 0.0], [17.0, 2, 3, 1.0], [np.nan, 1, 1, 0]])
    _check_exports(model, coded, np.vstack([np.nan_to_num(X_test), odd]), model.predict_proba)


def test_xgboost_categorical_splits():
    import pandas as pd
    import xgboost

    X, X_test = h.lattice_data(missing=False)
    frame = pd.DataFrame(X, columns=list("abcd")).astype({"a": int}).astype({"a": "category"})
    model = xgboost.XGBClassifier(n_estimators=4, max_depth=3, enable_categorical=True,
                                  tree_method="hist", nthread=1).fit(frame, h.target(X, "binary"))  # fmt: skip
    assert any(t.is_membership.any() for t in from_model(model).trees)

    def expected(rows):
        table = pd.DataFrame(rows, columns=list("abcd"))
        table["a"] = pd.Categorical(np.floor(rows[:, 0]), categories=frame["a"].cat.categories)
        return model.predict_proba(table)

    _check_exports(model, X, X_test, expected)


def test_single_leaf_trees_word_labels_and_the_exponential_link():
    import lightgbm
    import xgboost
    from sklearn.ensemble import RandomForestClassifier

    X, X_test = h.lattice_data()
    stump = lightgbm.LGBMRegressor(n_estimators=3, verbose=-1, min_child_samples=1_000)
    stump.fit(X, h.target(X, "regression"))
    assert all(t.node_count == 1 for t in from_model(stump).trees)
    _check_exports(stump, X, X_test, stump.predict)
    words = np.array(["no", "yes", "maybe"])[h.target(X, "multiclass")]
    forest = RandomForestClassifier(n_estimators=3, max_depth=4, random_state=0).fit(X, words)
    _check_exports(forest, X, X_test, forest.predict_proba, dtype="float32")
    labels = _run(export_onnx(forest), X_test)["label"]
    assert np.array_equal(labels.astype(str), forest.predict(X_test))
    counts = np.abs(h.target(X, "regression")).round()
    poisson = xgboost.XGBRegressor(n_estimators=5, objective="count:poisson", nthread=1)
    _check_exports(poisson.fit(X, counts), X, X_test, poisson.predict)


def test_the_graph_is_checked_and_says_what_it_holds():
    import onnx

    model, *_ = fitted("xgboost", "wrapper", "multiclass")
    onx = export_onnx(model, "average")
    onnx.checker.check_model(onx, full_check=True)
    properties = {p.key: p.value for p in onx.metadata_props}
    assert properties["conditioning"] == "average" and properties["native_test"] == "x < t"
    assert properties["library"] == "xgboost" and properties["precision"] == "float32"
    assert sum(n.op_type == "TreeEnsemble" for n in onx.graph.node) == 2
    assert [o.name for o in onx.graph.output] == ["label", "probabilities"]


def test_requests_the_export_cannot_honour_are_refused_in_words():
    model, *_ = fitted("lightgbm", "wrapper", "regression")
    with pytest.raises(ValueError, match="float64"):
        export_onnx(model, input_dtype="float32")
    with pytest.raises(ValueError, match="conditioning must be one of"):
        export_onnx(model, "lt")
    imported = from_model(model)
    kinds = [k.copy() for k in imported.missing_kind]
    root_feature = imported.trees[0].feature[0]
    same = [(t, n) for t, tree in enumerate(imported.trees)
            for n in np.flatnonzero(tree.feature == root_feature)]  # fmt: skip
    assert len(same) > 1 and all(kinds[t][n] != 1 for t, n in same)
    kinds[0][0] = 1  # one node reads a zero as missing, the feature's other nodes do not
    mixed = dataclasses.replace(imported, missing_kind=kinds, _pack=None)
    with pytest.raises(ModelFileError, match="two missing-value rules"):
        export_onnx(mixed)
