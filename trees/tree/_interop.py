"""Conversion of fitted scikit-learn trees into the project's :class:`Tree`."""

import numpy as np

from ._tree import Tree

__all__ = ["from_sklearn"]

_SKLEARN_LEAF = -1


def _node_depths(left, right):
    """Depth of every node, from the children arrays (root 0)."""
    depth = np.zeros(left.shape[0], dtype=np.intp)
    level = np.array([0])
    current = 0
    while level.size:
        depth[level] = current
        internal = level[left[level] != _SKLEARN_LEAF]
        level = np.concatenate([left[internal], right[internal]])
        current += 1
    return depth


def from_sklearn(estimator):
    """A :class:`Tree` from a fitted scikit-learn decision tree.

    Every analysis of the project (the three threshold tests, mirroring,
    lattice statistics, drawing) then applies to scikit-learn models.

    Parameters
    ----------
    estimator : sklearn.tree.DecisionTreeClassifier or DecisionTreeRegressor
        Fitted; several outputs give a multi-output ``Tree`` (its ``value`` holds the outputs
        side by side: ``trees/tree/_multi_output.py``).

    Returns
    -------
    Tree
        Class probabilities (normalised leaf counts) for a classifier, means
        for a regressor. Feature and class names are kept when known. Its
        ``input_dtype`` is ``"float32"``: scikit-learn rounds X to float32
        before comparing, so the tree predicts exactly as scikit-learn's
        ``predict_proba`` / ``predict`` on float64 inputs.
    """
    sk_tree = getattr(estimator, "tree_", None)
    if isinstance(sk_tree, Tree):  # answers scikit-learn's names, but is this package's already
        raise ValueError(
            f"{type(estimator).__name__} is this package's estimator: its tree_ is a Tree "
            "already (use estimator.tree_, or tree_.copy() for a copy)."
        )
    if sk_tree is None or not hasattr(sk_tree, "children_left"):
        raise ValueError(
            "from_sklearn needs a fitted scikit-learn DecisionTreeClassifier/Regressor."
        )
    left = sk_tree.children_left.astype(np.intp)
    right = sk_tree.children_right.astype(np.intp)
    leaf = left == _SKLEARN_LEAF
    is_classifier = hasattr(estimator, "classes_")
    value = sk_tree.value.astype(np.float64)  # (node_count, n_outputs, max_n_classes)
    if is_classifier:  # each output's shares (scikit-learn >= 1.4 stores them already)
        totals = value.sum(axis=2, keepdims=True)
        value = np.divide(value, totals, out=np.zeros_like(value), where=totals > 0)
    value = value.reshape(value.shape[0], -1)
    single = sk_tree.n_outputs == 1
    names = getattr(estimator, "feature_names_in_", None)
    classes = getattr(estimator, "classes_", None)
    # scikit-learn >= 1.3 records where each node sends a missing value.
    missing_left = np.asarray(getattr(sk_tree, "missing_go_to_left", np.zeros(left.shape)), bool)
    return Tree(
        feature=np.where(leaf, -1, sk_tree.feature),
        threshold=np.where(leaf, np.nan, sk_tree.threshold),
        left=np.where(leaf, -1, left),
        right=np.where(leaf, -1, right),
        value=value,
        n_samples=sk_tree.n_node_samples,
        weighted_n_samples=sk_tree.weighted_n_node_samples,
        impurity=sk_tree.impurity,
        depth=_node_depths(left, right),
        is_classifier=is_classifier,
        n_features=sk_tree.n_features,
        feature_names=None if names is None else list(names),
        class_names=None if classes is None or not single else [str(c) for c in classes],
        input_dtype="float32",
        missing_go_to_left=missing_left & ~leaf,
        n_outputs=sk_tree.n_outputs,
    )
