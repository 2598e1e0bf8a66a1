"""Model files as a hostile user crafts them (issues 60 and 61), built from valid ones.

Each builder returns the bytes of one file: small where the attack is in a
size field, the size of the original attack where it is the file's size
itself. The valid models they start from are trained in the tests
(``valid_models``), so every format is the library's own.
"""

import functools
import io
import json
import zipfile

import numpy as np

from bench import model_fuzz
from tests import interop_helpers as h

# ----------------------------------------------------------------- valid models


@functools.cache
def valid_models():
    """{name: bytes} of a small model of every library in its own format, and the models."""
    import tempfile
    from pathlib import Path

    import skops.io
    from sklearn.tree import DecisionTreeClassifier

    X, _ = h.lattice_data(n_rows=200, missing=False)
    y = h.target(X, "binary")
    out, models = {}, {}
    with tempfile.TemporaryDirectory() as folder:
        folder = Path(folder)
        xgb_model = h.xgboost_model("binary").fit(X, y)
        for name in ("model.json", "model.ubj"):
            xgb_model.save_model(folder / name)
            out[name], models[name] = (folder / name).read_bytes(), xgb_model
        lgb_model = h.lightgbm_model("binary").fit(X, y)
        out["model.txt"], models["model.txt"] = (
            lgb_model.booster_.model_to_string().encode(),
            lgb_model,
        )
        cb_model = h.catboost_model("binary").fit(X, y)
        cb_model.save_model(str(folder / "cb.json"), format="json")
        out["cb.json"], models["cb.json"] = (folder / "cb.json").read_bytes(), cb_model
    tree = DecisionTreeClassifier(max_depth=4, random_state=0).fit(X, y)
    out["tree.skops"], models["tree.skops"] = skops.io.dumps(tree), tree
    return out, models


def rows(n_rows=200):
    """Rows to audit a model on (the lattice data's held-out half, complete)."""
    return h.lattice_data(n_rows=n_rows, missing=False)[1]


# ------------------------------------------------------------------------ UBJSON
# ``ubjson(value)``: the fuzzer's encoder (numpy arrays as typed arrays, as XGBoost writes them).
ubjson = model_fuzz.ubjson
_key = model_fuzz._key


# ------------------------------------------------------------------------ XGBoost


def xgboost_document(n_trees=4, nodes_per_tree=7, n_classes=0, n_features=4):
    """A valid XGBoost model document of complete binary trees (multi:softprob when classes)."""
    n = nodes_per_tree
    ids = np.arange(n)
    left = np.where(2 * ids + 2 < n, 2 * ids + 1, -1)
    right = np.where(2 * ids + 2 < n, 2 * ids + 2, -1)
    trees = [{
        "left_children": left.tolist(), "right_children": right.tolist(),
        "parents": [2147483647] + ((ids[1:] - 1) // 2).tolist(),
        "split_indices": (ids % n_features).tolist(),
        "split_conditions": np.where(left >= 0, 2.5, 0.01 * (t % 7 - 3)).tolist(),
        "default_left": [0] * n, "split_type": [0] * n, "base_weights": [0.0] * n,
        "loss_changes": [0.0] * n, "sum_hessian": [1.0] * n, "categories": [],
        "categories_nodes": [], "categories_segments": [], "categories_sizes": [], "id": t,
        "tree_param": {"num_deleted": "0", "num_feature": str(n_features), "num_nodes": str(n),
                       "size_leaf_vector": "1"},
    } for t in range(n_trees)]  # fmt: skip
    outputs = max(n_classes, 1)
    return {"learner": {
        "attributes": {}, "feature_names": [], "feature_types": [],
        "gradient_booster": {"model": {
            "gbtree_model_param": {"num_parallel_tree": "1", "num_trees": str(n_trees)},
            "iteration_indptr": list(range(0, n_trees + 1, outputs)),
            "tree_info": [t % outputs for t in range(n_trees)], "trees": trees}, "name": "gbtree"},
        "learner_model_param": {"base_score": "5E-1", "num_class": str(n_classes),
                                "num_feature": str(n_features), "num_target": "1"},
        "objective": {"name": "multi:softprob" if n_classes else "binary:logistic"},
    }, "version": [3, 2, 0]}  # fmt: skip


def xgboost_many_classes(n_classes=1_000, n_nodes=100_000):
    """Issue 60: an XGBoost UBJSON model of ``n_classes`` classes and about ``n_nodes`` nodes.

    A 3-class XGBoost model of depth 4 trained here, saved by XGBoost, its trees repeated
    over ``n_classes`` classes for whole boosting rounds (XGBoost itself loads the result).
    """
    import copy
    import tempfile
    from pathlib import Path

    from trees.interop._ubjson import decode_ubjson

    X, _ = h.lattice_data(n_rows=200, missing=False)
    model = h.xgboost_model("multiclass").set_params(n_estimators=2, max_depth=4)
    model.fit(X, h.target(X, "multiclass"))
    with tempfile.TemporaryDirectory() as folder:
        model.save_model(Path(folder) / "m.ubj")
        document = decode_ubjson((Path(folder) / "m.ubj").read_bytes())
    learner = document["learner"]
    booster = learner["gradient_booster"]["model"]
    trees = booster["trees"]
    rounds = max(1, n_nodes // (n_classes * trees[0]["left_children"].size))
    n_trees = rounds * n_classes
    booster["trees"] = [dict(trees[t % len(trees)], id=t) for t in range(n_trees)]
    booster["tree_info"] = [t % n_classes for t in range(n_trees)]
    booster["iteration_indptr"] = list(range(0, n_trees + 1, n_classes))
    booster["gbtree_model_param"] = dict(booster["gbtree_model_param"], num_trees=str(n_trees))
    params = learner["learner_model_param"]
    params["num_class"] = str(n_classes)
    params["base_score"] = "[" + ",".join(["0E0"] * n_classes) + "]"
    learner["objective"] = copy.deepcopy(learner["objective"])
    learner["objective"]["softmax_multiclass_param"]["num_class"] = str(n_classes)
    return ubjson(document)


def typed(document):
    """An XGBoost document with its per-node lists as typed arrays, as XGBoost writes UBJSON."""
    kinds = {"left_children": np.int32, "right_children": np.int32, "parents": np.int32,
             "split_indices": np.int32, "split_type": np.uint8, "default_left": np.uint8,
             "split_conditions": np.float32, "base_weights": np.float32,
             "loss_changes": np.float32, "sum_hessian": np.float32}  # fmt: skip
    for tree in document["learner"]["gradient_booster"]["model"]["trees"]:
        for key, kind in kinds.items():
            tree[key] = np.asarray(tree[key], dtype=kind)
    return document


def nested_lists_ubjson(n_bytes=63 * 2**20):
    """Issue 60: a UBJSON file of ``n_bytes`` of empty lists inside an XGBoost-looking object."""
    n = (n_bytes - 32) // 2
    return b"{" + _key("learner") + b"[" + b"[]" * n + b"]}"


def amplifying_json(n_bytes=63 * 2**20):
    """Issue 60: a JSON file of ``n_bytes`` of empty objects, each 64 bytes once parsed."""
    n = (n_bytes - 16) // 3
    return b'{"learner": [' + b"{}," * (n - 1) + b"{}]}"


# ------------------------------------------------------------------------ LightGBM


def lightgbm_text():
    """The valid LightGBM text model, as str."""
    return valid_models()[0]["model.txt"].decode()


def lightgbm_with_categories(words, n_nodes=5_000, high_bit=False):
    """Issue 60: a LightGBM model whose categorical nodes all name one bitset of ``words`` words.

    Every bit set (``words * 32`` categories a node), or with ``high_bit`` only the top bit
    of the last word (one category, of code ``words * 32 - 1``). ``n_nodes`` internal nodes
    in one tree (a complete binary tree, in heap order), each a membership test on that bitset.
    """
    n_int = n_nodes
    word = 2**31 if high_bit else 2**32 - 1
    bitset = ["0"] * (words - 1) + [str(word)] if high_bit else [str(word)] * words
    # LightGBM numbers leaves apart: child k >= n_int is leaf k - n_int, written ~(k - n_int).
    children = [[k if k < n_int else -(k - n_int) - 1 for k in (2 * i + 1 + side for i in
                 range(n_int))] for side in (0, 1)]  # fmt: skip
    children_left, children_right = children
    tree = "\n".join([
        "Tree=0", f"num_leaves={n_int + 1}", "num_cat=1",
        "split_feature=" + " ".join(["0"] * n_int), "split_gain=" + " ".join(["1"] * n_int),
        "threshold=" + " ".join(["0"] * n_int), "decision_type=" + " ".join(["1"] * n_int),
        "left_child=" + " ".join(map(str, children_left)),
        "right_child=" + " ".join(map(str, children_right)),
        "leaf_value=" + " ".join(["0.1"] * (n_int + 1)),
        "cat_boundaries=0 " + str(words), "cat_threshold=" + " ".join(bitset),
        "is_linear=0", "shrinkage=1", "", "",
    ])  # fmt: skip
    header = lightgbm_text().split("\nTree=")[0]
    header = "\n".join(line for line in header.splitlines() if not line.startswith("tree_sizes"))
    return (header + "\n\n" + tree + "\nend of trees\n").encode()


def lightgbm_with_threshold(value, text=None):
    """Issue 60: a LightGBM model text (the valid one by default) with its first numeric
    threshold read as ``value`` (and its first tree's declared size changed to match)."""
    text = lightgbm_text() if text is None else text
    start = text.index("\nthreshold=") + len("\nthreshold=")
    end = text.index(" ", start)
    sizes = text.split("tree_sizes=")[1].split("\n")[0]
    first = sizes.split()
    first[0] = str(int(first[0]) + len(value) - (end - start))
    text = text.replace("tree_sizes=" + sizes, "tree_sizes=" + " ".join(first), 1)
    shift = len(" ".join(first)) - len(sizes)
    return (text[: start + shift] + value + text[end + shift :]).encode()


def lightgbm_cut_in_half(at_a_tree=True):
    """Issue 61: the valid LightGBM model text cut in half (at the start of a tree: every
    tree read is whole, only the count and the end say the rest is missing)."""
    data = valid_models()[0]["model.txt"]
    middle = len(data) // 2
    return data[: data.rindex(b"\nTree=", 0, middle) + 1] if at_a_tree else data[:middle]


# ------------------------------------------------------------------------ CatBoost


def catboost_document():
    """The valid CatBoost JSON model, as a dict."""
    return json.loads(valid_models()[0]["cb.json"])


def catboost_bytes(document):
    """A CatBoost document as JSON bytes (NaN and infinities as Python writes them)."""
    return json.dumps(document).encode()


def catboost_class_names_as_string():
    document = catboost_document()
    document["model_info"]["class_params"]["class_names"] = "01"
    return catboost_bytes(document)


def catboost_nan_border():
    document = catboost_document()
    document["oblivious_trees"][-1]["splits"][-1]["border"] = float("nan")
    return catboost_bytes(document)


def catboost_scale_and_bias(scale, bias):
    document = catboost_document()
    document["scale_and_bias"] = [scale, [bias]]
    return catboost_bytes(document)


def catboost_many_trees(n_trees=20_000):
    """Issue 60: the valid CatBoost model with its trees repeated to ``n_trees``."""
    document = catboost_document()
    trees = document["oblivious_trees"]
    document["oblivious_trees"] = [trees[t % len(trees)] for t in range(n_trees)]
    return catboost_bytes(document)


# -------------------------------------------------------------------------- skops


def skops_tree(change):
    """Issue 60: the valid skops decision tree with ``change(tree_)`` applied to its arrays."""
    import skops.io
    from sklearn.tree import DecisionTreeClassifier

    X, _ = h.lattice_data(n_rows=200, missing=False)
    tree = DecisionTreeClassifier(max_depth=4, random_state=0).fit(X, h.target(X, "binary"))
    change(tree.tree_)
    return skops.io.dumps(tree)


def root_its_own_child(sk_tree):
    sk_tree.children_left[0] = 0


def cycle_of_children(sk_tree):
    sk_tree.children_left[sk_tree.children_left[0]] = 0


def skops_with_schema(edit):
    """The valid skops file with ``edit(schema)`` applied to its ``schema.json``."""
    original = zipfile.ZipFile(io.BytesIO(valid_models()[0]["tree.skops"]))
    schema = json.loads(original.read("schema.json"))
    edit(schema)
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        for info in original.infolist():
            data = original.read(info.filename)
            if info.filename == "schema.json":
                data = json.dumps(schema).encode()
            archive.writestr(info.filename, data)
    return out.getvalue()


def tree_schema(schema):
    """The schema node of the tree's ``tree_`` (a scikit-learn ``Tree``)."""
    return schema["content"]["content"]["tree_"]


def schema_nodes(value):
    """Every dict of a skops schema."""
    if isinstance(value, dict):
        yield value
        for item in value.values():
            yield from schema_nodes(item)
    elif isinstance(value, list):
        for item in value:
            yield from schema_nodes(item)
