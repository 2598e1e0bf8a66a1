"""trees.interop.parity_report: each runtime against the library, explained (issue 55).

The report's count for every runtime equals the test's own comparison (the runtime run
here, directly, on the report's rows, against the library's own predict): onnxruntime on
the lab's export and on the usual converter's file (skl2onnx, onnxmltools, CatBoost's
own), treelite with float32 and float64 rows, m2cgen's generated Python. LightGBM
through onnxmltools disagrees one float64 ulp above its thresholds and the lab's export
does not; each disagreement is located, explained and given its fix.
"""

import functools
import os
import tempfile
import warnings

import numpy as np
import pytest

from tests import interop_helpers as h
from tests.test_interop_import import fitted
from trees.interop import RUNTIMES, export_onnx, from_model, parity_report
from trees.interop._runtimes import _checked_python

LIBRARIES = [("sklearn", "RandomForest"), ("sklearn", "HistGradientBoosting"),
             ("xgboost", "wrapper"), ("lightgbm", "wrapper"), ("catboost", "wrapper")]  # fmt: skip


def _session_output(onnx_bytes, X, dtype, classifier):
    import onnxruntime as ort

    session = ort.InferenceSession(onnx_bytes, providers=["CPUExecutionProvider"])
    outputs = session.run(None, {session.get_inputs()[0].name: X.astype(dtype)})
    out = outputs[1] if classifier and len(outputs) > 1 else outputs[0]
    if isinstance(out, list):  # CatBoost's ZipMap: one {class: probability} per row
        out = [[row[k] for k in sorted(row)] for row in out]
    return np.asarray(out, dtype=float)


def _converted(model, library, n_features):
    """The usual converter's ONNX bytes, as a practitioner calls it."""
    if library == "sklearn":
        from skl2onnx import to_onnx

        options = {"zipmap": False} if hasattr(model, "predict_proba") else None
        return to_onnx(model, np.zeros((1, n_features), np.float32), options=options)
    if library == "catboost":
        path = os.path.join(tempfile.mkdtemp(), "model.onnx")
        model.save_model(path, format="onnx")
        with open(path, "rb") as file:
            return file.read()
    import onnxmltools
    from onnxmltools.convert.common.data_types import FloatTensorType

    types = [("X", FloatTensorType([None, n_features]))]
    if library == "xgboost":
        return onnxmltools.convert_xgboost(model, initial_types=types)
    return onnxmltools.convert_lightgbm(model, initial_types=types, zipmap=False)


def _own_outputs(name, model, library, X, classifier):
    """The runtime's outputs on ``X``, run here; None where it cannot run this model."""
    if name == "onnx-lab":
        return _session_output(export_onnx(model).SerializeToString(), X, np.float64, classifier)
    if name == "onnx-converter":
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                onx = _converted(model, library, X.shape[1])
        except Exception:  # HistGradientBoosting: skl2onnx cannot convert it
            return None
        onx = onx if isinstance(onx, bytes) else onx.SerializeToString()
        return _session_output(onx, X, np.float32, classifier)
    if name.startswith("treelite"):
        import treelite
        import treelite.gtil
        import treelite.sklearn

        readers = {"sklearn": treelite.sklearn.import_model,
                   "xgboost": lambda m: treelite.frontend.from_xgboost(m.get_booster()),
                   "lightgbm": lambda m: treelite.frontend.from_lightgbm(m.booster_)}  # fmt: skip
        if library not in readers:
            return None
        dtype = np.float32 if name.endswith("32") else np.float64
        return treelite.gtil.predict(readers[library](model), X.astype(dtype))
    import m2cgen

    try:
        code = m2cgen.export_to_python(model)
    except Exception:  # unsupported models, and XGBoost 3's TypeError
        return None
    names = {}
    exec(code, names)  # the test's own run of the generated code
    return np.array([names["score"](list(row)) for row in X])


def _shaped(out, classifier, n):
    out = np.asarray(out, dtype=float).reshape(n, -1)
    if classifier and out.shape[1] == 1:
        return np.column_stack([1 - out[:, 0], out[:, 0]])
    return out if classifier else out[:, 0]


@functools.cache
def _report(library, name, task):
    model, _, X_test, _ = fitted(library, name, task)
    return parity_report(model, X_test)


@pytest.mark.slow
@pytest.mark.parametrize("case", LIBRARIES, ids=lambda c: c[0] + "-" + c[1])
def test_the_report_counts_what_each_runtime_does(case):
    model, _, X_test, imported = fitted(*case, "binary")
    report = _report(*case, "binary")
    X = report.rows[report.rows.attrs["feature_columns"]].to_numpy(dtype=float)
    assert (report.rows["source"] == "your rows").sum() == len(X_test)
    expected = h.library_prediction(model, X)
    counts = report.counts()
    assert list(counts) == list(RUNTIMES)
    for runtime in RUNTIMES:
        own = _own_outputs(runtime, model, case[0], X, imported.is_classifier)
        if own is None:
            line = report.summary.set_index("runtime").loc[runtime]
            assert line["status"] in ("fails", "does not read this model"), runtime
            assert counts[runtime] is None and line["detail"]
            continue
        own = _shaped(own, imported.is_classifier, len(X))
        gap = np.abs(own - expected).reshape(len(X), -1)
        disagree = int((gap > 1e-6 + 1e-6 * np.abs(expected).reshape(len(X), -1)).any(axis=1).sum())
        assert counts[runtime] == disagree, runtime
    assert counts["onnx-lab"] == 0


@pytest.mark.slow
def test_lightgbm_through_onnxmltools_disagrees_one_ulp_above_and_the_lab_export_does_not():
    report = _report("lightgbm", "wrapper", "binary")
    counts = report.counts()
    assert counts["onnx-lab"] == 0
    converter = report.table("onnx-converter")
    rows = report.rows
    float64_above = (rows["probe_side"] == "above") & (rows["probe_ulp"] == "float64")
    # every split's row one float64 ulp above it, and nothing below or on a threshold
    assert set(converter["row"]) >= set(np.flatnonzero(float64_above)) and float64_above.any()
    assert set(rows.loc[converter["row"], "probe_side"]) == {"above"}
    assert set(converter["side"]) == {"above"}
    assert converter["cause"].str.contains("rounds the row to float32").all()
    assert converter["fix"].str.contains("the lab's export").all()
    line = report.summary.set_index("runtime").loc["onnx-converter"]
    assert line["above"] == len(converter) and line["below"] == line["on"] == 0


def test_each_disagreement_is_located_explained_and_given_its_fix():
    model, _, X_test, imported = fitted("xgboost", "wrapper", "binary")
    other = ("x <= t", lambda X: imported.output(X, "<="))  # XGBoost tests x < t
    rounded = ("float64 rows", lambda X: imported.output(X, precision="float64"))
    report = parity_report(model, X_test, runtimes=["onnx-lab", other, rounded])
    assert report.counts()["onnx-lab"] == 0
    test = report.table("x <= t")
    # on the threshold as XGBoost reads the row (float32); a row one float64 ulp beside it
    # is "below" or "above" as given, and on it once rounded
    assert len(test) > 0 and "on" in set(test["side"])
    assert test["cause"].str.fullmatch("it tests x <= t where XGBoost tests x < t").all()
    X = report.rows[report.rows.attrs["feature_columns"]].to_numpy()
    for line in test.itertuples():
        # the tree with XGBoost's directions for missing values, which Tree's walk reads
        tree = imported.trees[int(line.tree)]
        tree = tree.copy(missing_go_to_left=imported.missing_left[int(line.tree)])
        node = int(line.node)
        value = X[line.row, tree.feature[node]]
        assert tree.threshold[node] == line.threshold == np.float32(value) and value == line.value
        assert line.side == {-1: "below", 0: "on", 1: "above"}[np.sign(value - line.threshold)]
        path = tree.decision_path(imported.cast(X[[line.row]]), op="<").toarray()[0]
        assert path[node]  # the node is on the library's path
    precision = report.table("float64 rows")
    assert precision["cause"].str.contains("compares the float64 row").all()
    assert precision["fix"].str.contains("cast the rows to float32").all()
    assert report.summary.set_index("runtime").loc["x <= t", "label"] == "your own predictor"


def test_a_runtime_not_installed_is_listed_as_such(monkeypatch):
    import sys

    monkeypatch.setitem(sys.modules, "treelite", None)
    monkeypatch.setitem(sys.modules, "m2cgen", None)
    model, _, X_test, _ = fitted("sklearn", "RandomForest", "binary")
    report = parity_report(model, X_test, runtimes=["treelite-float32", "m2cgen", "onnx-lab"])
    lines = report.summary.set_index("runtime")
    assert lines.loc["treelite-float32", "status"] == "not installed"
    assert lines.loc["treelite-float32", "detail"] == (
        f'{sys.executable} -m pip install "treelite>=4.8.1"'
    )
    assert lines.loc["m2cgen", "status"] == "not installed"
    assert lines.loc["onnx-lab", "status"] == "ran"


def test_without_the_library_the_lab_walk_stands_in_and_a_stop_is_kept():
    model, _, X_test, imported = fitted("lightgbm", "wrapper", "multiclass")
    bare = from_model(model.booster_.model_to_string())
    bare.document = None
    report = parity_report(bare, X_test, runtimes=["onnx-lab", "treelite-float64"])
    assert report.reference.startswith("the lab's walk")
    lines = report.summary.set_index("runtime")
    assert lines.loc["onnx-lab", "disagree"] == 0
    assert lines.loc["treelite-float64", "status"] == "fails"
    calls = []
    stopped = parity_report(model, X_test, runtimes=["onnx-lab", "m2cgen"],
                            progress=lambda done, total: calls.append((done, total)),
                            should_stop=lambda: len(calls) > 0)  # fmt: skip
    assert stopped.cancelled and list(stopped.summary["runtime"]) == ["onnx-lab"]
    assert calls == [(1, 2)]


def test_many_rows_are_sampled_and_said():
    model, X, _, _ = fitted("xgboost", "wrapper", "regression")
    many = np.vstack([X] * 4)
    report = parity_report(model, many, runtimes=["onnx-lab"], max_rows=500)
    assert (report.rows["source"] == "your rows").sum() == 500
    assert "500 of your 1,200 rows" in report.note
    with pytest.raises(ValueError, match="Unknown runtimes"):
        parity_report(model, X, runtimes=["tvm"])


def test_m2cgen_code_runs_only_when_it_is_plain_arithmetic():
    plain = "import math\ndef score(input):\n    if input[0] <= 1.5:\n        return [math.exp(1.0)]\n    return [0.0]\n"
    names = {"math": __import__("math"), "__builtins__": {}}
    exec(_checked_python(plain), names)
    assert names["score"]([1.0]) == [np.e]
    for hostile in ("import os\ndef score(input):\n    return 1\n",
                    "def score(input):\n    return open('x')\n",
                    "def score(input):\n    return input.__class__\n",
                    "def score(input):\n    return (lambda: 1)()\n",
                    "def score(input):\n    return __import__('os')\n"):  # fmt: skip
        with pytest.raises(ValueError):
            _checked_python(hostile)


def test_a_library_that_refuses_the_rows_is_said_and_the_lab_walk_stands_in(monkeypatch):
    from trees.interop import _parity

    def refuse(*args):
        raise ValueError("feature names mismatch")

    monkeypatch.setattr(_parity, "library_output", refuse)
    model, _, X_test, _ = fitted("xgboost", "wrapper", "binary")
    report = parity_report(model, X_test, runtimes=["onnx-lab", "treelite-float32"])
    assert "XGBoost's own predict failed on these rows: feature names mismatch" in report.reference
    assert report.counts() == {"onnx-lab": 0, "treelite-float32": 0}
