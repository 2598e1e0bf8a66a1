"""The safe loader of model files (issue 31, part 6): own formats in, pickles out, fuzzed.

Every damaged or hostile file must give a ModelFileError (a ValueError) with
a message, never another exception, a hang or unbounded memory.
"""

import functools
import json
import pickle

import numpy as np
import pytest

from tests import interop_helpers as h
from trees.interop import LIMITS, ModelFileError, from_model, load_model_file


@functools.cache
def files():
    """{name: bytes} of one small model of every library, in its own format."""
    import tempfile
    from pathlib import Path

    import skops.io

    X, _ = h.lattice_data(n_rows=200)
    out = {}
    with tempfile.TemporaryDirectory() as folder:
        folder = Path(folder)
        xgb_model = h.xgboost_model("multiclass").fit(X, h.target(X, "multiclass"))
        for name in ("model.json", "model.ubj"):
            xgb_model.save_model(folder / name)
            out[name] = (folder / name).read_bytes()
        lgb_model = h.lightgbm_model("binary").fit(X, h.target(X, "binary"))
        out["model.txt"] = lgb_model.booster_.model_to_string().encode()
        cb_model = h.catboost_model("regression").fit(X, h.target(X, "regression"))
        cb_model.save_model(str(folder / "cb.json"), format="json")
        out["cb.json"] = (folder / "cb.json").read_bytes()
    forest = h.sklearn_models("binary")[1][1].fit(X, h.target(X, "binary"))
    out["model.skops"] = skops.io.dumps(forest)
    return out, {"model.json": xgb_model, "model.ubj": xgb_model, "model.txt": lgb_model,
                 "cb.json": cb_model, "model.skops": forest}  # fmt: skip


@pytest.mark.parametrize("name", ["model.json", "model.ubj", "model.txt", "cb.json", "model.skops"])
def test_each_format_loads_and_predicts_as_the_library(name):
    data, models = files()
    imported = load_model_file(name, data[name])
    _, X_test = h.lattice_data(n_rows=200)
    np.testing.assert_allclose(
        imported.output(X_test), h.library_prediction(models[name], X_test), atol=1e-5
    )


def test_pickle_and_joblib_files_are_refused_even_when_renamed():
    payload = pickle.dumps({"learner": 1})
    for name in ("model.pkl", "model.joblib", "model.json", "model.txt"):
        with pytest.raises(ModelFileError, match="pickle or joblib"):
            load_model_file(name, payload)


def test_a_skops_file_naming_other_types_is_refused():
    import skops.io
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import FunctionTransformer

    pipe = make_pipeline(FunctionTransformer(np.log1p))
    with pytest.raises(ModelFileError, match="does not load|only scikit-learn tree models"):
        load_model_file("pipe.skops", skops.io.dumps(pipe))


def test_size_and_declared_counts_are_capped():
    with pytest.raises(ModelFileError, match="limit"):
        load_model_file("big.json", b" " * (LIMITS["bytes"] + 1))
    text = files()[0]["model.txt"].decode()  # without its declared tree sizes, as before v3
    text = "\n".join(line for line in text.splitlines() if not line.startswith("tree_sizes="))
    with pytest.raises(ModelFileError, match="at most"):
        load_model_file("m.txt", text.replace("num_leaves=", "num_leaves=9999999", 1).encode())
    document = json.loads(files()[0]["model.json"])
    document["learner"]["learner_model_param"]["num_feature"] = "1000000000"
    with pytest.raises(ModelFileError, match="at most"):
        load_model_file("m.json", json.dumps(document).encode())
    huge = b"{#L" + (2**40).to_bytes(8, "big")  # an object declaring 2**40 members
    with pytest.raises(ModelFileError):
        load_model_file("m.ubj", huge)
    typed = b"[$d#L" + (2**40).to_bytes(8, "big") + b"\x00" * 8
    with pytest.raises(ModelFileError, match="truncated"):
        load_model_file("m.ubj", typed)


def test_deep_nesting_and_wrong_types_give_messages():
    cases = {
        "deep.json": b"[" * 200_000,
        "deep.ubj": b"[" * 100_000,
        "list.json": b"[1, 2]",
        "types.json": json.dumps(
            {"learner": {"learner_model_param": [], "objective": 3, "gradient_booster": "x"}}
        ).encode(),  # fmt: skip
        "trees.json": json.dumps({"oblivious_trees": {"a": 1}}).encode(),
        "empty.txt": b"",
        "text.txt": b"hello",
        "lgb.txt": b"tree\nobjective=binary\nTree=0\nnum_leaves=abc\n",
    }
    for name, data in cases.items():
        with pytest.raises(ModelFileError):
            load_model_file(name, data)


def test_a_cycle_of_children_is_refused_before_any_walk():
    document = json.loads(files()[0]["model.json"])
    tree = document["learner"]["gradient_booster"]["model"]["trees"][0]
    tree["left_children"][1] = 0
    with pytest.raises(ModelFileError, match="reached twice|outside|reached"):
        from_model(document)


def test_a_lightgbm_model_with_a_tree_of_one_leaf_imports():
    import numpy as np

    from trees.interop import from_model, train_demo_model

    rng = np.random.default_rng(0)
    X = rng.normal(size=(30, 2))  # fewer rows than LightGBM's leaf minimum: one-leaf trees
    model = train_demo_model("lightgbm", X, (X[:, 0] > 0).astype(int), "binary")
    imported = from_model(model)
    assert np.allclose(imported.predict_proba(X), model.predict_proba(X), atol=1e-6)


def test_a_tree_deeper_than_the_limit_is_refused():
    import numpy as np

    from trees.interop import LIMITS, ModelFileError
    from trees.interop._build import make_tree

    depth = LIMITS["depth"] + 2  # a chain: each node's left child is a leaf, its right the next
    n = 2 * depth + 1
    left, right = np.full(n, -1), np.full(n, -1)
    for k in range(depth):
        left[2 * k], right[2 * k] = 2 * k + 1, 2 * k + 2
    feature = np.where(left >= 0, 0, -1)
    threshold = np.where(left >= 0, 0.5, np.nan)
    with pytest.raises(ModelFileError, match="deeper than"):
        make_tree(feature, threshold, left, right, np.zeros(n), 1, "float64")


def test_a_model_without_trees_is_refused():
    from trees.interop import ModelFileError
    from trees.interop._model import ImportedModel

    with pytest.raises(ModelFileError, match="no tree"):
        ImportedModel(library="xgboost", kind="Booster", task="regression", trees=[],
                      tree_weight=[], tree_output=[], base_score=[0.0], link="identity",
                      native_op="<", precision="float32", missing_left=[], missing_kind=[],
                      classes_=None, n_features=1)  # fmt: skip
