"""The conditioning bias (source 000): where ``<=`` and ``<`` disagree, and whether it matters.

* :func:`conditioning_disagreement`: for a fitted tree or forest and data,
  the rows that reach another leaf, or get another prediction, under ``<``
  than under ``<=``, and the nodes that cause it (a row's value equals the
  node's threshold).

The evaluation protocol of section 4 is in ``_conditioning_experiment.py``,
the Wilcoxon marks in ``_significance.py``.
"""

from dataclasses import dataclass, field

import numpy as np

from ..ensemble import tree_operators
from ..tree import ROUTING_OPERATORS, Tree

__all__ = ["Disagreement", "conditioning_disagreement", "operators_of", "row_paths"]


# ------------------------------------------------------------ disagreement
@dataclass
class Disagreement:
    """Where ``<`` and ``<=`` disagree on a set of rows.

    Attributes
    ----------
    leaf_differs : ndarray of bool, shape (n_samples,)
        The row reaches another leaf in at least one tree.
    prediction_differs : ndarray of bool, shape (n_samples,)
        The model's prediction (probabilities or value) changes.
    label_differs : ndarray of bool, shape (n_samples,)
        Classification: the predicted class changes (all False for regression).
    prediction_le, prediction_lt : ndarray
        The model's predictions under each test.
    causes : ndarray of int, shape (n_causes, 3)
        ``(row, tree, node)``: the row's value of the node's feature equals
        its threshold, on the row's path under ``<=`` or under ``<``.
    trees_differing : ndarray of int, shape (n_samples,)
        How many trees route the row to another leaf.
    """

    leaf_differs: np.ndarray
    prediction_differs: np.ndarray
    label_differs: np.ndarray
    prediction_le: np.ndarray
    prediction_lt: np.ndarray
    causes: np.ndarray
    trees_differing: np.ndarray = field(default=None)

    @property
    def n_rows(self):
        return int(self.leaf_differs.shape[0])


def _trees_of(model):
    """The project Trees of a tree, an estimator, a forest, or a list of them."""
    if isinstance(model, Tree):
        return [model]
    if hasattr(model, "estimators_"):
        return [est.tree_ for est in model.estimators_]
    if hasattr(model, "tree_"):
        return [model.tree_]
    if isinstance(model, list | tuple) and all(isinstance(t, Tree) for t in model):
        return list(model)
    raise TypeError("Expected a Tree, a fitted project tree or forest, or a list of Trees.")


def _equality_nodes(tree, X, op):
    """(row, node) pairs on the rows' paths where the value equals the threshold."""
    path = tree.decision_path(X, op).tocoo()
    rows, nodes = path.row, path.col
    internal = tree.feature[nodes] >= 0
    rows, nodes = rows[internal], nodes[internal]
    hit = X[rows, tree.feature[nodes]] == tree.threshold[nodes]
    return rows[hit], nodes[hit]


def _model_prediction(model, trees, X, op):
    if hasattr(model, "estimators_") and hasattr(model, "predict_proba"):
        return model.predict_proba(X, conditioning=op)
    if hasattr(model, "estimators_"):
        return model.predict(X, conditioning=op)
    return np.mean([tree.predict(X, op) for tree in trees], axis=0)


def conditioning_disagreement(model, X):
    """Rows and nodes where ``<`` and ``<=`` disagree.

    Parameters
    ----------
    model : Tree, project DecisionTree*, RandomForest*, or list of Tree
    X : array-like of shape (n_samples, n_features)

    Returns
    -------
    Disagreement
    """
    X = np.asarray(X, dtype=np.float64)
    trees = _trees_of(model)
    trees_differing = np.zeros(X.shape[0], dtype=int)
    causes = []
    for index, tree in enumerate(trees):
        parted = tree.apply(X, "<=") != tree.apply(X, "<")
        trees_differing += parted
        # A row equal to a threshold on its path parts there (the paths agree above the first
        # such node), so only the rows that reach another leaf can hold a cause: the paths of
        # the others (most rows, on large data) are not walked.
        parted_rows = np.flatnonzero(parted)
        pairs = set()
        for op in ROUTING_OPERATORS:
            rows, nodes = _equality_nodes(tree, X[parted_rows], op)
            pairs.update(zip(parted_rows[rows].tolist(), nodes.tolist(), strict=True))
        causes += [(row, index, node) for row, node in sorted(pairs)]
    le = _model_prediction(model, trees, X, "<=")
    lt = _model_prediction(model, trees, X, "<")
    differs = np.abs(np.asarray(le) - np.asarray(lt)) > 1e-12
    prediction_differs = differs.any(axis=1) if np.ndim(le) == 2 else differs
    is_classifier = trees[0].is_classifier
    label_differs = (
        np.argmax(le, axis=1) != np.argmax(lt, axis=1)
        if is_classifier
        else np.zeros(X.shape[0], dtype=bool)
    )
    return Disagreement(
        leaf_differs=trees_differing > 0,
        prediction_differs=prediction_differs,
        label_differs=label_differs,
        prediction_le=le,
        prediction_lt=lt,
        causes=np.array(causes, dtype=int).reshape(-1, 3),
        trees_differing=trees_differing,
    )


def row_paths(tree, row):
    """The nodes one row visits under ``<=`` and under ``<``, and the node where the two part.

    Parameters
    ----------
    tree : Tree
    row : array-like of shape (n_features,)

    Returns
    -------
    dict
        ``"<="`` and ``"<"``: the node ids from the root to the leaf; ``"parting"``: the
        first node where the two paths go different ways (the row's value equals that
        node's threshold), or None when they reach the same leaf.
    """
    x = np.asarray(row, dtype=np.float64).reshape(1, -1)
    paths = {}
    for op in ROUTING_OPERATORS:
        nodes = tree.decision_path(x, op).indices
        paths[op] = [int(n) for n in nodes[np.argsort(tree.depth[nodes], kind="stable")]]
    parting = None
    for node_le, node_lt in zip(paths["<="], paths["<"], strict=False):
        if node_le != node_lt:
            break
        parting = node_le
    if paths["<="] == paths["<"]:
        parting = None
    return {**paths, "parting": parting}


def operators_of(model):
    """The test each tree of a fitted forest uses (for drawing and explanations)."""
    return tree_operators(len(model.estimators_), model.conditioning)
