"""threshold_probes and parity_check (issue 31, part 3), run on real converters.

Findings these tests pin down (lattice data, small models):

* scikit-learn forest -> skl2onnx -> onnxruntime: no probe disagrees (the
  float32 thresholds the converter writes route float32 rows as
  scikit-learn's float64 midpoints do);
* LightGBM -> onnxmltools -> onnxruntime: every split's "above" probe (the
  next float64 above the threshold) disagrees: ONNX rounds rows and
  thresholds to float32, where the two become equal and x <= t sends the row
  left; LightGBM compares in float64 and sends it right;
* XGBoost -> onnxmltools -> onnxruntime: no probe disagrees (both compare
  float32 values with x < t).
"""

import functools
import warnings

import numpy as np
import pytest

from tests import interop_helpers as h
from trees.interop import PROBE_COLUMNS, from_model, parity_check, threshold_probes


@functools.cache
def data():
    return h.lattice_data(missing=False)


@functools.cache
def forest():
    from sklearn.ensemble import RandomForestClassifier

    X, _ = data()
    model = RandomForestClassifier(n_estimators=5, max_depth=5, random_state=0, n_jobs=1)
    return model.fit(X, h.target(X, "binary"))


def _session(onx):
    import onnxruntime as ort

    sess = ort.InferenceSession(onx.SerializeToString(), providers=["CPUExecutionProvider"])
    name = sess.get_inputs()[0].name
    return lambda A: sess.run(None, {name: A.astype(np.float32)})[1]


def test_probes_sit_on_every_threshold_and_one_ulp_either_side():
    model = forest()
    probes = threshold_probes(model, data()[1])
    imported = from_model(model)
    n_splits = sum(int((t.feature >= 0).sum()) for t in imported.trees)
    assert len(probes) == 3 * n_splits
    assert list(probes.columns[-5:]) == list(PROBE_COLUMNS)
    for side, check in (("on", np.equal), ("below", np.less), ("above", np.greater)):
        part = probes[probes["probe_side"] == side]
        values = np.array([row[row["probe_feature"]] for _, row in part.iterrows()])
        thresholds = part["probe_threshold"].to_numpy()
        assert check(values, thresholds).all()
        # the nearest float32 values: no float32 lies strictly between them and the threshold
        step = np.nextafter(
            values.astype(np.float32), np.float32(np.inf if side == "below" else -np.inf)
        )
        if side == "below":
            assert np.all(step >= thresholds)
        elif side == "above":
            assert np.all(step <= thresholds)


def test_probes_reach_their_node_and_tell_the_operators_apart():
    model = forest()
    imported = from_model(model)
    probes = threshold_probes(model, data()[1])
    X = probes[probes.attrs["feature_columns"]].to_numpy()
    for tree_id in range(imported.n_trees):
        rows = (probes["probe_tree"] == tree_id).to_numpy()
        path = imported.trees[tree_id].decision_path(X[rows], op="<=").toarray()
        nodes = probes.loc[rows, "probe_node"].to_numpy()
        assert path[np.arange(rows.sum()), nodes].all()
    report = parity_check(imported.predict_proba,
                          lambda A: imported.predict_proba(A, conditioning="<"), probes)  # fmt: skip
    assert report.summary()["disagree_on"] > 0


def test_probes_without_data_follow_the_path_constraints():
    model = forest()
    probes = threshold_probes(model)
    imported = from_model(model)
    X = probes[probes.attrs["feature_columns"]].to_numpy()
    tree0 = (probes["probe_tree"] == 0).to_numpy()
    path = imported.trees[0].decision_path(X[tree0]).toarray()
    assert path[np.arange(tree0.sum()), probes.loc[tree0, "probe_node"]].all()


def test_the_representation_agrees_with_the_library_on_every_probe():
    for library in ("xgboost", "lightgbm", "catboost"):
        X, X_test = data()
        model = getattr(h, f"{library}_model")("multiclass").fit(X, h.target(X, "multiclass"))
        report = parity_check(model.predict_proba, from_model(model).predict_proba,
                              threshold_probes(model, X_test), atol=1e-5)  # fmt: skip
        assert report.summary()["n_disagree"] == 0, library


def test_skl2onnx_forest_agrees_on_every_probe():
    from skl2onnx import to_onnx

    model = forest()
    onx = to_onnx(model, data()[0][:1].astype(np.float32), options={"zipmap": False})
    report = parity_check(model.predict_proba, _session(onx), threshold_probes(model, data()[1]))
    assert report.n_probes > 100 and report.summary()["n_disagree"] == 0


@pytest.mark.slow
def test_onnxmltools_lightgbm_disagrees_just_above_every_threshold():
    import onnxmltools
    from onnxmltools.convert.common.data_types import FloatTensorType

    X, X_test = data()
    model = h.lightgbm_model("binary").fit(X, h.target(X, "binary"))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        onx = onnxmltools.convert_lightgbm(
            model, initial_types=[("X", FloatTensorType([None, 4]))], zipmap=False
        )
    probes = threshold_probes(model, X_test)
    s = parity_check(model.predict_proba, _session(onx), probes, atol=1e-5).summary()
    assert s["disagree_above"] == len(probes) // 3
    assert s["disagree_on"] == s["disagree_below"] == 0


@pytest.mark.slow
def test_onnxmltools_xgboost_agrees_on_every_probe():
    import onnxmltools
    from onnxmltools.convert.common.data_types import FloatTensorType

    X, X_test = data()
    model = h.xgboost_model("binary").fit(X, h.target(X, "binary"))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        onx = onnxmltools.convert_xgboost(model, initial_types=[("X", FloatTensorType([None, 4]))])
    probes = threshold_probes(model, X_test)
    s = parity_check(model.predict_proba, _session(onx), probes, atol=1e-5).summary()
    assert s["n_probes"] > 30 and s["n_disagree"] == 0
