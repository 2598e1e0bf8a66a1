"""XGBoost models, read from the library's own JSON model document.

Why the JSON document (``Booster.save_raw("json")``, the ``.json`` and
``.ubj`` files of ``save_model``): it is XGBoost's complete, versioned
serialisation (the text dump of ``get_dump`` rounds thresholds to a few
digits and omits the base score), its arrays map one to one onto the
common representation, and it can be read without XGBoost, so an uploaded
file never reaches the library's parser before it is checked.

Verified behaviour (tests/test_interop_import.py): a row goes left when
``float32(x) < split_condition`` (the thresholds are float32 values, often
observed values themselves, since XGBoost's histogram cuts are data values),
a missing value goes the node's ``default_left`` way, the leaf value is the
leaf's ``split_conditions`` entry (learning rate included), and the base
score is stored on the response scale (a probability for logistic
objectives, a mean for log-link ones) except for softmax, where it is a
margin per class.

What the rows must be (``trees.interop._inputs``): the document's
``feature_names``; its ``feature_types`` ("c": categorical, read as codes);
the categories XGBoost >= 3.1 stores beside the trees (``cats``: per
feature its categories in code order, numbers or UTF-8 strings; a value
outside them is refused, as XGBoost refuses it); the wrapper's ``missing=``
sentinel (a ``Booster``'s belongs to its ``DMatrix``: given to
:func:`from_xgboost`, or ``ImportedModel.with_missing_value``).

Early stopping: the scikit-learn wrapper predicts with the rounds up to the
``best_iteration`` it records (``learner.attributes``), and so does a
wrapper that loads the model's file; a ``Booster`` predicts with every tree
unless given ``iteration_range``. :func:`from_xgboost` keeps the trees the
wrapper uses unless told otherwise (``best_iteration=False``, what
``trees.interop.from_model`` passes for a ``Booster``), and says which
(``ImportedModel.trees_used``).
"""

import math

import numpy as np

from ._build import LIMITS, Budget, ModelFileError, check_count, make_tree, need
from ._inputs import model_inputs
from ._model import ImportedModel

__all__ = ["from_xgboost", "xgboost_document"]

_OBJECTIVES = {
    "binary:logistic": ("binary", "logistic"),
    "binary:logitraw": ("binary", "logistic"),
    "multi:softprob": ("multiclass", "softmax"),
    "multi:softmax": ("multiclass", "softmax"),
    "count:poisson": ("regression", "exp"),
    "reg:gamma": ("regression", "exp"),
    "reg:tweedie": ("regression", "exp"),
}
_IDENTITY = ("reg:squarederror", "reg:absoluteerror", "reg:pseudohubererror",
             "reg:squaredlogerror", "reg:quantileerror")  # fmt: skip


def xgboost_document(model):
    """The JSON model document of an XGBoost ``Booster`` or scikit-learn wrapper."""
    import json

    booster = model.get_booster() if hasattr(model, "get_booster") else model
    return json.loads(bytes(booster.save_raw("json")))


def _floats(text):
    """XGBoost's base score, "0.5" or "[5E-1,...]", as floats."""
    text = str(text).strip().strip("[]")
    try:
        return np.array([float(v) for v in text.split(",") if v.strip()])
    except ValueError:
        raise ModelFileError(f"The base score {text!r} is not a list of numbers.") from None


def _margin(base, link, objective):
    """The base score on the margin scale (module docstring)."""
    if link == "logistic" and objective != "binary:logitraw":
        base = np.clip(base, 1e-16, 1 - 1e-16)
        return np.log(base / (1 - base))
    if link == "exp":
        return np.log(np.maximum(base, 1e-300))
    return base


def _categories(tree, n, budget):
    """The category codes of each categorical node (XGBoost sends them right); the codes of
    all nodes are counted (``budget``) before any node's set is made."""
    sets = [None] * n
    nodes = tree.get("categories_nodes", [])
    starts, sizes = tree.get("categories_segments", []), tree.get("categories_sizes", [])
    codes = tree.get("categories", [])
    need(len(nodes) == len(starts) == len(sizes), "The categorical split lists differ in length.")
    budget.spend(np.sum(np.asarray(sizes, dtype=np.int64).clip(0)),
                 "category codes named by categorical splits")  # fmt: skip
    for node, start, size in zip(nodes, starts, sizes, strict=True):
        need(0 <= node < n and start >= 0 and start + size <= len(codes),
             "A categorical split points outside its lists.")  # fmt: skip
        sets[node] = tuple(int(c) for c in codes[start : start + size])
        need(all(0 <= c <= LIMITS["category_code"] for c in sets[node]),
             "A categorical split names a category code out of range.")  # fmt: skip
    return sets


def _tree(tree, n_features, budget):
    """One tree of the document as (Tree, missing_left)."""
    try:
        left = np.asarray(tree["left_children"], dtype=np.int64)
        right = np.asarray(tree["right_children"], dtype=np.int64)
        feature = np.asarray(tree["split_indices"], dtype=np.int64)
        cond = np.asarray(tree["split_conditions"], dtype=np.float64)
        # JSON prints float32 values shortest-first; XGBoost compares the float32 value.
        cond = cond.astype(np.float32).astype(np.float64)
        default_left = np.asarray(tree["default_left"], dtype=bool)
        split_type = np.asarray(tree.get("split_type", np.zeros(left.size)), dtype=np.int64)
    except (KeyError, TypeError, ValueError, OverflowError) as error:
        raise ModelFileError(f"A tree of the model lacks or garbles a field ({error}).") from None
    n = left.size
    need(all(a.shape == (n,) for a in (right, feature, cond, default_left, split_type)),
         "The arrays of a tree of the model differ in length.")  # fmt: skip
    leaf = left < 0
    sets = _categories(tree, n, budget) if np.any(split_type[~leaf] == 1) else None
    if sets is not None:  # our membership sends its set left: swap the children back
        swap = np.array([s is not None for s in sets])
        left, right = np.where(swap, right, left), np.where(swap, left, right)
        default_left = np.where(swap, ~default_left, default_left)
    built = make_tree(feature, np.where(leaf, np.nan, cond), left, right, np.where(leaf, cond, 0.0),
                      n_features, "float32", categories=sets)  # fmt: skip
    return built, default_left


def _category_values(entry, j):
    """One feature's stored categories (``cats.enc``): numbers, or UTF-8 strings cut at
    ``offsets`` from a list of signed bytes; None for a numeric feature."""
    if not isinstance(entry, dict) or len(entry.get("values", [])) == 0:
        return None
    values = [v for v in np.asarray(entry["values"]).ravel().tolist()]
    if "offsets" not in entry:
        return tuple(values)
    offsets = [int(v) for v in np.asarray(entry["offsets"]).ravel().tolist()]
    data = bytes(int(v) & 0xFF for v in values)
    bounds = list(zip(offsets[:-1], offsets[1:], strict=True))
    need(offsets and offsets[0] == 0 and offsets[-1] <= len(data)
         and all(a <= b for a, b in bounds),
         f"The stored categories of feature {j} are damaged.")  # fmt: skip
    try:
        return tuple(data[a:b].decode("utf-8") for a, b in bounds)
    except UnicodeDecodeError:
        raise ModelFileError(
            f"XGBoost stored the categories of feature {j} cut short (a name that is not ASCII "
            "loses its last bytes, an XGBoost limitation), so which code each category has "
            "cannot be told. Train with ASCII category names, or pass the codes."
        ) from None


def _row_inputs(learner, model, n_features, missing, kind):
    """What the rows must be: names, categorical features and their categories, the sentinel."""
    names = learner.get("feature_names")
    names = [str(n) for n in names] if isinstance(names, list) and names else None
    types = learner.get("feature_types")
    types = list(types) if isinstance(types, list) and len(types) == n_features else []
    coded = frozenset(j for j, t in enumerate(types) if t == "c")
    enc = (model.get("cats") or {}).get("enc") or []
    categories = {}
    if isinstance(enc, list) and len(enc) == n_features:
        for j in coded:
            values = _category_values(enc[j], j)
            if values is not None:
                categories[j] = values
    return model_inputs(
        names, n_features, coded=coded, categories=categories, refuse_unknown=True,
        missing_value=float(missing), precision="float32", library="xgboost", kind=kind,
    )  # fmt: skip


def _trees_in_use(learner, model, n_trees, best_iteration):
    """(how many of the stored trees predict, the sentence saying which) (module docstring)."""
    attributes = learner.get("attributes") or {}
    try:
        best = int(attributes["best_iteration"])
    except (KeyError, TypeError, ValueError):
        return n_trees, ""
    bounds = model.get("iteration_indptr")
    if isinstance(bounds, list) and 0 <= best + 1 < len(bounds):
        used = int(bounds[best + 1])
    else:
        per_round = int((model.get("gbtree_model_param") or {}).get("num_parallel_tree", 1) or 1)
        n_class = int(learner.get("learner_model_param", {}).get("num_class", 0) or 0)
        used = (best + 1) * per_round * max(n_class, 1)
    if not 0 < used < n_trees:
        return n_trees, ""
    if not best_iteration:
        return n_trees, (
            f"all {n_trees} trees: xgboost.Booster.predict does not apply the best "
            f"iteration it records (round {best + 1}) unless given iteration_range"
        )
    return used, (
        f"trees 1-{used} of {n_trees}, the library's best iteration (early stopping, "
        f"round {best + 1}), as XGBClassifier/XGBRegressor.predict uses them"
    )


def _declared(model, trees):
    """Check the trees read against the counts the document declares, before building any.

    XGBoost declares the number of trees (``gbtree_model_param.num_trees``),
    the trees each boosting round added (``iteration_indptr``) and each tree's
    nodes (``tree_param.num_nodes``): a document cut short or edited holds
    other counts than it declares. The nodes of all trees are counted against
    the limits from the arrays' lengths, before any array is built.
    """
    message = ("The XGBoost model declares {} and holds {}: the file is cut short or was edited; "
               "save the model again with save_model('model.json') and use the whole file.")  # fmt: skip
    declared = (model.get("gbtree_model_param") or {}).get("num_trees")
    if declared is not None:
        need(str(declared) == str(len(trees)),
             message.format(f"{declared} trees", f"{len(trees):,}"))  # fmt: skip
    indptr = model.get("iteration_indptr")
    if indptr is not None:
        indptr = np.asarray(indptr, dtype=np.int64)
        need(indptr.ndim == 1 and indptr.size >= 1 and indptr[0] == 0
             and np.all(np.diff(indptr) >= 0) and indptr[-1] == len(trees),
             message.format("its trees per boosting round (iteration_indptr)",
                            f"{len(trees):,} trees"))  # fmt: skip
    total = 0
    for tree in trees:
        need(isinstance(tree, dict), "A tree of the model is not a JSON object.")
        children = tree.get("left_children")
        n = len(children) if isinstance(children, list | np.ndarray) else 0
        declared = (tree.get("tree_param") or {}).get("num_nodes")
        need(declared is None or str(declared) == str(n),
             message.format(f"a tree of {declared} nodes", f"{n:,}"))  # fmt: skip
        total = check_count(total + check_count(n, "nodes_per_tree", "nodes in a tree"),
                            "nodes", "nodes in all")  # fmt: skip


def from_xgboost(document, kind="Booster", classes=None, missing=math.nan, best_iteration=True):
    """An :class:`ImportedModel` from an XGBoost JSON model document (a dict).

    Parameters
    ----------
    document : dict
        ``json.loads(booster.save_raw("json"))`` or a ``save_model`` JSON/UBJSON file, decoded.
    kind : str
        The model's type, for display.
    classes : array-like, optional
        The wrapper's ``classes_`` (default: 0..n_classes-1).
    missing : float, default=nan
        The value read as missing besides NaN (the wrapper's ``missing=``).
    best_iteration : bool, default=True
        Predict with the rounds up to the recorded best iteration, as the scikit-learn
        wrapper does (False: every tree, as a ``Booster`` does).
    """
    try:
        learner = document["learner"]
        params = learner["learner_model_param"]
        objective = learner["objective"]["name"]
        booster = learner["gradient_booster"]
    except (KeyError, TypeError):
        raise ModelFileError("This is not an XGBoost model document (no learner).") from None
    weights = None
    if booster.get("name") == "dart":
        weights, booster = booster.get("weight_drop"), booster.get("gbtree", {})
    need(booster.get("name", "gbtree") == "gbtree",
         f"Only tree boosters can be imported, not {booster.get('name')!r}.")  # fmt: skip
    model = booster.get("model", {})
    trees, info = model.get("trees"), model.get("tree_info")
    need(isinstance(trees, list) and isinstance(info, list) and len(trees) == len(info),
         "The model's trees and tree_info are missing or differ in length.")  # fmt: skip
    check_count(len(trees), "trees", "trees")
    _declared(model, trees)
    used, trees_used = _trees_in_use(learner, model, len(trees), best_iteration)
    trees, info = trees[:used], info[:used]
    weights = weights[:used] if isinstance(weights, list) else weights
    n_features = check_count(params.get("num_feature"), "features", "features")
    n_class = check_count(params.get("num_class", 0), "classes", "classes")
    need(
        str(params.get("num_target", "1")) == "1", "Multi-target XGBoost models are not supported."
    )
    if objective in _IDENTITY:
        task, link = "regression", "identity"
    else:
        need(objective in _OBJECTIVES, f"The objective {objective!r} is not supported.")
        task, link = _OBJECTIVES[objective]
    n_outputs = max(n_class, 1)
    base = _floats(params.get("base_score", "0"))
    base = np.resize(base, n_outputs) if base.size else np.zeros(n_outputs)
    budget = Budget("category_entries")
    built = [_tree(t, n_features, budget) for t in trees]
    weight = np.ones(len(trees)) if weights is None else np.asarray(weights, dtype=np.float64)
    need(weight.shape == (len(trees),), "The dart weights do not match the trees.")
    output = np.asarray(info, dtype=np.int64)
    need(np.all((output >= 0) & (output < n_outputs)), "A tree adds to a class the model lacks.")
    inputs = _row_inputs(learner, model, n_features, missing, kind)
    return ImportedModel(
        library="xgboost", kind=kind, task=task, trees=[t for t, _ in built], tree_weight=weight,
        tree_output=output, base_score=_margin(base, link, objective), link=link, native_op="<",
        precision="float32", missing_left=[m for _, m in built],
        missing_kind=[np.zeros(t.node_count, dtype=np.int8) for t, _ in built],
        classes_=None if task == "regression" else np.asarray(
            classes if classes is not None else np.arange(max(n_class, 2))),
        n_features=n_features, feature_names=None if inputs.names is None else list(inputs.names),
        document=document, inputs=inputs, trees_used=trees_used,
    )  # fmt: skip
