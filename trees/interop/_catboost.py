"""CatBoost models (oblivious trees), read from the library's own JSON export.

Why the JSON export (``save_model(path, format="json")``): it is the
documented, complete description of the oblivious trees (every split's
float border, the leaf values of every output, the scale and bias, each
feature's treatment of missing values), it can be read without CatBoost,
and CatBoost loads it back (``load_model(format="json")``).

An oblivious tree of depth :math:`d` tests one split per level; its leaf is
:math:`\\sum_j 2^j [x_{f_j} > b_j]`. It becomes a complete binary tree of
:math:`2^{d+1} - 1` nodes whose level :math:`j` tests split :math:`j`.
Verified behaviour (tests/test_interop_import.py): a row goes left (bit 0)
when ``float32(x) <= border``; a missing value goes left unless the
feature's ``nan_value_treatment`` is ``"AsTrue"``; the raw score is
``scale * sum(leaf values) + bias``, leaf values stored leaf-major
(``leaf_values[leaf * n_outputs + k]``). Categorical features (one-hot and
counter statistics) and text or embedding features are not supported.
The rows' columns are matched by the names each float feature carries
(``feature_id``), as CatBoost's own predict matches a DataFrame's.
"""

import numpy as np

from ._build import LIMITS, ModelFileError, check_count, make_tree, need
from ._model import ImportedModel
from ._oblivious import ObliviousTrees

__all__ = ["catboost_document", "from_catboost"]

_LOSSES = {"Logloss": ("binary", "logistic"), "CrossEntropy": ("binary", "logistic"),
           "MultiClass": ("multiclass", "softmax"), "Poisson": ("regression", "exp"),
           "Tweedie": ("regression", "exp")}  # fmt: skip
_IDENTITY = ("RMSE", "MAE", "Quantile", "MAPE", "Huber", "Lq", "Expectile", "LogLinQuantile")


def catboost_document(model):
    """The JSON export of a fitted CatBoost model (written to a temporary file and read)."""
    import json
    import os
    import tempfile

    handle, path = tempfile.mkstemp(suffix=".json")
    os.close(handle)
    try:
        model.save_model(path, format="json")
        with open(path, encoding="utf-8") as file:
            return json.load(file)
    finally:
        os.unlink(path)


def _features(document):
    """Column and missing-value direction of each float feature, and the number of columns."""
    info = document.get("features_info", {})
    need(isinstance(info, dict), "features_info is not a JSON object.")
    unsupported = [k for k in ("categorical_features", "text_features", "embedding_features")
                   if info.get(k)]  # fmt: skip
    if unsupported:
        raise ModelFileError(f"Models with {unsupported[0].replace('_', ' ')} are not supported; "
                             "encode those columns as numbers before training.")  # fmt: skip
    floats = info.get("float_features", [])
    need(isinstance(floats, list), "float_features is not a list.")
    check_count(len(floats), "features", "features")
    column, nan_left = {}, {}
    for feature in floats:
        need(isinstance(feature, dict), "A float feature is not a JSON object.")
        index = check_count(feature.get("feature_index"), "features", "feature index")
        column[index] = check_count(feature.get("flat_feature_index", index), "features", "column")
        nan_left[index] = feature.get("nan_value_treatment", "AsIs") != "AsTrue"
    n_features = max(column.values(), default=-1) + 1
    return column, nan_left, n_features


def _feature_names(document, n_features):
    """The training columns' names (``feature_id`` of each float feature), or None."""
    floats = (document.get("features_info") or {}).get("float_features") or []
    names = {f.get("flat_feature_index", f.get("feature_index")): f.get("feature_id")
             for f in floats if isinstance(f, dict)}  # fmt: skip
    ids = [names.get(j) for j in range(n_features)]
    return [str(n) for n in ids] if all(isinstance(n, str) and n for n in ids) else None


def _oblivious(tree, column, nan_left, n_features, n_outputs):
    """One oblivious tree as (Tree, missing_left, its levels: columns, borders, leaf values)."""
    need(isinstance(tree, dict), "A tree of the model is not a JSON object.")
    splits = tree.get("splits") or []
    need(isinstance(splits, list), "A tree's splits are not a list.")
    depth = check_count(len(splits), "oblivious_depth", "levels in a tree")
    try:
        features = [column[s["float_feature_index"]] for s in splits]
        nan_sides = [nan_left[s["float_feature_index"]] for s in splits]
        borders = np.array([float(s["border"]) for s in splits], dtype=np.float32)
        leaves = np.asarray(tree["leaf_values"], dtype=np.float64)
    except (KeyError, TypeError, ValueError) as error:
        raise ModelFileError(f"A split is not a float-feature split ({error}).") from None
    need(all(s.get("split_type", "FloatFeature") == "FloatFeature" for s in splits),
         "Only float-feature splits are supported (no one-hot or counter splits).")  # fmt: skip
    bad = borders[~np.isfinite(borders)]
    need(not bad.size, f"A split has the border {', '.join(map(str, bad[:1]))}: {_NOT_A_NUMBER}")
    need(leaves.shape == (n_outputs << depth,), "A tree's leaf values do not match its depth.")
    n_internal = (1 << depth) - 1
    level = np.floor(np.log2(np.arange(n_internal) + 1)).astype(np.intp)
    ids = np.arange(n_internal)
    feature = np.concatenate([np.take(features, level), np.full(1 << depth, -1)]).astype(np.intp)
    threshold = np.concatenate([np.take(borders, level), np.full(1 << depth, np.nan)])
    pad = np.full(1 << depth, -1)
    position = np.arange(1 << depth)  # leaf position p: its bits, first level first
    bits = (position[:, None] >> (depth - 1 - np.arange(depth))[None, :]) & 1
    index = (bits << np.arange(depth)[None, :]).sum(axis=1)
    value = np.zeros((n_internal + (1 << depth), n_outputs))
    value[n_internal:] = leaves.reshape(1 << depth, n_outputs)[index]
    built = make_tree(feature, threshold, np.concatenate([2 * ids + 1, pad]),
                      np.concatenate([2 * ids + 2, pad]), value, n_features, "float32")  # fmt: skip
    missing = np.concatenate([np.take(nan_sides, level), np.zeros(1 << depth)]).astype(bool)
    return built, missing, (features, borders, leaves.reshape(1 << depth, n_outputs))


def _levels(levels, scale, column, nan_left, n_features):
    """The trees as CatBoost walks them (``_oblivious.ObliviousTrees``)."""
    depths = np.array([len(f) for f, _, _ in levels], dtype=np.int64)
    width = max(int(depths.max(initial=0)), 1)
    features = np.zeros((len(levels), width), dtype=np.int64)
    borders = np.zeros((len(levels), width), dtype=np.float32)
    for t, (feature, border, _) in enumerate(levels):
        features[t, : len(feature)], borders[t, : len(border)] = feature, border
    sizes = np.array([leaves.shape[0] for _, _, leaves in levels], dtype=np.int64)
    nan_right = np.zeros(n_features, dtype=bool)
    for index, flat in column.items():
        nan_right[flat] = not nan_left[index]
    return ObliviousTrees(
        features=features, borders=borders, depths=depths,
        offsets=np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np.int64),
        leaves=np.ascontiguousarray((np.concatenate([leaves for _, _, leaves in levels]) * scale).T),
        nan_right=nan_right,
    )  # fmt: skip


# What CatBoost 1.2.10 does with NaN or Infinity in its JSON (measured): its reader stops at
# the token and keeps what it read before (a NaN border: the trees before it, and that tree's
# split on the first feature's first border with uninitialised leaf values); a NaN or infinite
# scale crashes it (a segmentation fault).
_NOT_A_NUMBER = (
    "CatBoost never writes such a number, and its own JSON reader cannot use it (it stops "
    "reading there, or crashes), so no reading of this file is the model that was saved; "
    "export the model again with save_model(path, format='json')."
)


def _class_names(info):
    """The class names of ``model_info.class_params``: a list of strings or numbers, or None."""
    params = info.get("class_params") if isinstance(info, dict) else None
    names = params.get("class_names") if isinstance(params, dict) else None
    need(names is None or (isinstance(names, list) and all(
         isinstance(n, str | int | float) and not isinstance(n, bool) for n in names)),
         "The model's class names (model_info.class_params.class_names) are not a list of "
         "labels: export the model again with save_model(path, format='json').")  # fmt: skip
    return names or None


def _scale_and_bias(document):
    """``(scale, bias)`` of ``scale_and_bias`` (1 and [0] when absent), finite numbers."""
    if "scale_and_bias" not in document:
        return 1.0, np.zeros(1)
    try:
        scale, bias = float(document["scale_and_bias"][0]), document["scale_and_bias"][1]
        bias = np.atleast_1d(np.asarray(bias, dtype=np.float64))
    except (TypeError, ValueError, IndexError, KeyError):
        raise ModelFileError("scale_and_bias is not [scale, [bias, ...]].") from None
    need(bias.ndim == 1, "scale_and_bias is not [scale, [bias, ...]].")
    need(np.isfinite(scale) and np.all(np.isfinite(bias)),
         f"The model's scale and bias are {scale} and {bias.tolist()}: {_NOT_A_NUMBER}")  # fmt: skip
    return scale, bias


def _task(document):
    """(task, link, classes) from the model's loss function and class names."""
    info = document.get("model_info", {})
    params = info.get("params", {}) if isinstance(info, dict) else {}
    loss = params.get("loss_function", {}) if isinstance(params, dict) else {}
    name = loss.get("type") if isinstance(loss, dict) else None
    classes = _class_names(info)
    if name in _IDENTITY:
        return "regression", "identity", None
    need(name in _LOSSES, f"The CatBoost loss {name!r} is not supported.")
    task, link = _LOSSES[name]
    return task, link, classes


def from_catboost(document, kind="CatBoost"):
    """An :class:`ImportedModel` from CatBoost's JSON export (a dict; module docstring)."""
    need(isinstance(document, dict) and "oblivious_trees" in document,
         "This is not a CatBoost JSON model (no oblivious_trees); non-symmetric trees "
         "(grow_policy Depthwise or Lossguide) are not supported.")  # fmt: skip
    task, link, classes = _task(document)
    column, nan_left, n_features = _features(document)
    trees = document["oblivious_trees"]
    need(isinstance(trees, list), "oblivious_trees is not a list.")
    check_count(len(trees), "trees", "trees")
    scale, bias = _scale_and_bias(document)
    n_outputs = max(len(classes) if task == "multiclass" and classes else len(bias), 1)
    check_count(n_outputs, "classes", "outputs")
    nodes = sum(1 << min(len(t.get("splits") or []) if isinstance(t, dict) else 0,
                         LIMITS["oblivious_depth"] + 1) for t in trees)  # fmt: skip
    check_count(2 * nodes, "nodes", "nodes in all")
    built = [_oblivious(t, column, nan_left, n_features, n_outputs) for t in trees]
    return ImportedModel(
        library="catboost", kind=kind, task=task, trees=[b[0] for b in built],
        tree_weight=np.full(len(built), scale), tree_output=np.full(len(built), -1),
        base_score=np.resize(bias, n_outputs), link=link, native_op="<=", precision="float32",
        missing_left=[b[1] for b in built],
        missing_kind=[np.zeros(b[0].node_count, dtype=np.int8) for b in built],
        classes_=None if task == "regression" else np.asarray(
            classes if classes else np.arange(max(n_outputs, 2))),
        n_features=n_features, feature_names=_feature_names(document, n_features),
        document=document, oblivious=_levels([b[2] for b in built], scale, column, nan_left,
                                             n_features),
    )  # fmt: skip
