"""scikit-learn models: single trees, forests, extra trees, gradient boosting.

The fitted arrays are read directly (``tree_`` of every tree, the node
records of ``HistGradientBoosting*``): scikit-learn has no other dump
format, and these arrays are what its own ``predict`` walks.

Verified behaviour (tests/test_interop_import.py):

* ``DecisionTree*``, forests, extra trees and ``GradientBoosting*`` round X
  to float32 and send a row left when ``x <= threshold`` (a float64
  midpoint); a missing value goes the node's ``missing_go_to_left`` way;
* ``HistGradientBoosting*`` compares float64 rows with ``num_threshold``
  (``<=``; the thresholds are midpoints between bin edges) and sends a
  missing value the node's ``missing_go_to_left`` way.
* A ``HistGradientBoosting*`` model with categorical features (its default
  ``categorical_features="from_dtype"`` on a DataFrame with pandas
  categories included) reads its rows through a preprocessor: an ordinal
  encoder maps each categorical column's values to their position among the
  categories seen in training (unknown values and gaps to NaN), and the
  encoded columns come first, the numeric ones after them, in their order.
  The trees index that order (``ModelInputs.order``), and a categorical
  split sends left the codes of its bitset (``raw_left_cat_bitsets``); NaN
  goes the node's missing way, as an unknown category does.
* ``GradientBoosting*`` refuses rows with missing values; so do the rows read for it.
"""

import numpy as np

from trees.tree import from_sklearn

from ._build import check_count, check_tree_shape, make_tree, need
from ._inputs import model_inputs
from ._model import ImportedModel

__all__ = ["SKLEARN_TYPES", "from_sklearn_model"]

_FORESTS = ("RandomForestClassifier", "RandomForestRegressor", "ExtraTreesClassifier",
            "ExtraTreesRegressor")  # fmt: skip
_SINGLE = ("DecisionTreeClassifier", "DecisionTreeRegressor", "ExtraTreeClassifier",
           "ExtraTreeRegressor")  # fmt: skip
_BOOSTING = ("GradientBoostingClassifier", "GradientBoostingRegressor")
_HIST = ("HistGradientBoostingClassifier", "HistGradientBoostingRegressor")
SKLEARN_TYPES = (*_SINGLE, *_FORESTS, *_BOOSTING, *_HIST)


def _task(model):
    classes = getattr(model, "classes_", None)
    if classes is None:
        return "regression", None
    check_count(len(classes), "classes", "classes")
    return ("binary" if len(classes) == 2 else "multiclass"), np.asarray(classes)


def _missing(estimator):
    """The default direction of every node of a scikit-learn tree."""
    sk_tree = estimator.tree_
    default = getattr(sk_tree, "missing_go_to_left", None)
    if default is None:
        return np.zeros(sk_tree.node_count, dtype=bool)
    return np.asarray(default, dtype=bool)


def _common(model, trees, missing, inputs=None, **fields):
    """The ImportedModel; ``inputs`` by default: the fitted feature names, every feature a
    number, gaps accepted unless the estimator refuses them (``GradientBoosting*``)."""
    names = getattr(model, "feature_names_in_", None)
    if inputs is None:
        inputs = model_inputs(names, int(model.n_features_in_), precision=fields["precision"],
                              accepts_missing=type(model).__name__ not in _BOOSTING,
                              library="sklearn", kind=type(model).__name__)  # fmt: skip
    order = list(inputs.order or range(inputs.n_columns))
    return ImportedModel(
        library="sklearn", kind=type(model).__name__, trees=trees, missing_left=missing,
        missing_kind=[np.zeros(t.node_count, dtype=np.int8) for t in trees],
        n_features=int(model.n_features_in_),
        feature_names=None if inputs.names is None else [inputs.names[j] for j in order],
        document=model, inputs=inputs, **fields,
    )  # fmt: skip


def _checked_trees(estimators, n_features):
    """Each fitted tree's ``tree_`` checked (before anything walks it), then converted.

    A tree loaded from a file holds whatever the file said: its node count
    beyond the nodes it allocated, children that loop back, features out of
    range. Each is refused in words (``_build.check_tree_shape``) before
    :func:`trees.tree.from_sklearn`, whose depth walk would loop on a cycle.
    """
    check_count(len(estimators), "trees", "trees")
    total = 0
    for estimator in estimators:
        sk_tree = estimator.tree_
        need(sk_tree.n_outputs == 1, "Multi-output scikit-learn models are not supported.")
        count = check_count(sk_tree.node_count, "nodes_per_tree", "nodes in a tree")
        need(count <= sk_tree.capacity, "A tree of the model declares more nodes than it holds.")
        total = check_count(total + count, "nodes", "nodes in all")
        check_tree_shape(sk_tree.children_left, sk_tree.children_right)
        internal = sk_tree.children_left >= 0
        features = sk_tree.feature[internal]
        need(sk_tree.n_features == n_features and np.all((features >= 0) & (features < n_features)),
             f"A split of the model tests a feature outside 0..{n_features - 1}.")  # fmt: skip
    return [from_sklearn(e) for e in estimators]


def _averaged(model, estimators):
    """A single tree or a forest: the mean of the trees' probabilities or values."""
    task, classes = _task(model)
    trees = _checked_trees(estimators, int(model.n_features_in_))
    n_outputs = 1 if classes is None else len(classes)
    return _common(
        model, trees, [_missing(e) for e in estimators], task=task,
        tree_weight=np.full(len(trees), 1.0 / len(trees)), tree_output=np.full(len(trees), -1),
        base_score=np.zeros(n_outputs), link="identity" if classes is None else "proba",
        native_op="<=", precision="float32", classes_=classes, averaging=len(trees) > 1,
    )  # fmt: skip


def _gradient_boosting(model):
    """``GradientBoosting*``: a constant initial raw score plus learning rate times the trees."""
    task, classes = _task(model)
    need(model.init_ == "zero" or type(model.init_).__name__.startswith("Dummy"),
         "Only GradientBoosting models with the default (constant) init are supported.")  # fmt: skip
    need(getattr(model, "loss", "") != "exponential",
         "GradientBoostingClassifier(loss='exponential') is not supported.")  # fmt: skip
    base = np.asarray(model._raw_predict_init(np.zeros((1, model.n_features_in_))))[0]
    grid = model.estimators_
    order = [(i, k) for k in range(grid.shape[1]) for i in range(grid.shape[0])]
    trees = _checked_trees([grid[i, k] for i, k in order], int(model.n_features_in_))
    missing = [_missing(grid[i, k]) for i, k in order]
    output = [k for _, k in order]
    link = {"regression": "identity", "binary": "logistic", "multiclass": "softmax"}[task]
    return _common(
        model, trees, missing, task=task, tree_weight=np.full(len(trees), model.learning_rate),
        tree_output=np.array(output), base_score=base, link=link, native_op="<=",
        precision="float32", classes_=classes,
    )  # fmt: skip


def _left_codes(predictor, categorical):
    """The codes each categorical node sends left (its ``raw_left_cat_bitsets`` row)."""
    sets = [None] * categorical.shape[0]
    if not categorical.any():
        return None
    bitsets = np.ascontiguousarray(predictor.raw_left_cat_bitsets, dtype=np.uint32)
    for node in np.flatnonzero(categorical):
        row = bitsets[int(predictor.nodes["bitset_idx"][node])]
        sets[node] = tuple(int(c) for c in np.flatnonzero(
            np.unpackbits(row.view(np.uint8), bitorder="little")))  # fmt: skip
    return sets


def _hist_tree(predictor, n_features):
    nodes = predictor.nodes
    leaf = nodes["is_leaf"].astype(bool)
    categorical = nodes["is_categorical"].astype(bool) & ~leaf
    tree = make_tree(nodes["feature_idx"], np.where(categorical, np.nan, nodes["num_threshold"]),
                     np.where(leaf, -1, nodes["left"].astype(np.int64)),
                     np.where(leaf, -1, nodes["right"].astype(np.int64)),
                     np.where(leaf, nodes["value"], 0.0), n_features, "float64",
                     categories=_left_codes(predictor, categorical))  # fmt: skip
    return tree, nodes["missing_go_to_left"].astype(bool) & ~leaf


def _hist_inputs(model):
    """The rows of a HistGradientBoosting model with categorical features (module docstring):
    categories in code order, encoded columns first; None without categorical features."""
    preprocessor = getattr(model, "_preprocessor", None)
    if preprocessor is None:
        return None
    is_categorical = np.asarray(model.is_categorical_, dtype=bool)
    encoded = np.flatnonzero(is_categorical)
    encoder = preprocessor.named_transformers_["encoder"]
    categories = {}
    for j, values in zip(encoded, encoder.categories_, strict=True):
        values = [v.item() if hasattr(v, "item") else v for v in values]
        if values and isinstance(values[-1], float) and np.isnan(values[-1]):
            values = values[:-1]  # the encoder lists NaN last; it reads as missing
        categories[int(j)] = tuple(values)
    order = tuple(int(j) for j in np.concatenate([encoded, np.flatnonzero(~is_categorical)]))
    return model_inputs(
        getattr(model, "feature_names_in_", None), int(model.n_features_in_), order=order,
        coded=frozenset(categories), categories=categories, numbers_are_values=True,
        precision="float64", library="sklearn", kind=type(model).__name__,
    )  # fmt: skip


def _hist_gradient_boosting(model):
    """``HistGradientBoosting*``: baseline plus every tree (values include the learning rate)."""
    task, classes = _task(model)
    loss = getattr(model, "loss", "")
    link = {"binary": "logistic", "multiclass": "softmax"}.get(task)
    link = link or ("exp" if loss in ("poisson", "gamma") else "identity")
    need(link != "identity" or loss in ("squared_error", "absolute_error", "quantile"),
         f"HistGradientBoostingRegressor(loss={loss!r}) is not supported.")  # fmt: skip
    check_count(sum(len(iteration) for iteration in model._predictors), "trees", "trees")
    nodes = sum(predictor.nodes.shape[0] for it in model._predictors for predictor in it)
    check_count(nodes, "nodes", "nodes in all")
    trees, missing, output = [], [], []
    for iteration in model._predictors:
        for k, predictor in enumerate(iteration):
            tree, default = _hist_tree(predictor, model.n_features_in_)
            trees.append(tree)
            missing.append(default)
            output.append(k)
    return _common(
        model, trees, missing, inputs=_hist_inputs(model), task=task,
        tree_weight=np.ones(len(trees)), tree_output=np.array(output),
        base_score=np.ravel(model._baseline_prediction), link=link, native_op="<=",
        precision="float64", classes_=classes,
    )  # fmt: skip


def from_sklearn_model(model):
    """An :class:`ImportedModel` from a fitted scikit-learn tree model (module docstring)."""
    name = type(model).__name__
    need(name in SKLEARN_TYPES, f"{name} is not a supported scikit-learn tree model.")
    need(hasattr(model, "n_features_in_"), f"The {name} is not fitted.")
    check_count(model.n_features_in_, "features", "features")
    if name in _SINGLE:
        return _averaged(model, [model])
    if name in _FORESTS:
        return _averaged(model, list(model.estimators_))
    if name in _BOOSTING:
        return _gradient_boosting(model)
    return _hist_gradient_boosting(model)
