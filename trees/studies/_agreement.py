"""Refits compared with each other: agreement, distances, a map, and node-by-node differences.

The instability page used to compare every refit with one reference tree.
These measures compare the refits with each other, as the literature does:

* **Prediction agreement** (Turney, 1995, "Bias and the quantification of
  stability", Machine Learning 20): the share of rows on which two models
  predict the same class; the mean over pairs of refits on resampled data
  estimates the learner's *stability*. For regression two values agree when
  they differ by at most ``tolerance`` times the SD of all the predictions.
* **Partition metric** (Chipman, George and McCulloch, 1998, "Making sense
  of a forest of trees"; Banerjee, Ding and Noone, 2012, "Identifying
  representative trees from ensembles", Statistics in Medicine 31): the
  share of pairs of rows that one tree puts in the same leaf and the other
  in different leaves. It is computed from the contingency table of the two
  trees' leaf assignments, without a loop over pairs: with ``n_ij`` rows in
  leaf ``i`` of one tree and leaf ``j`` of the other, ``a_i`` and ``b_j``
  the leaf sizes, and ``C(k) = k (k - 1) / 2``,
  ``d = (sum_i C(a_i) + sum_j C(b_j) - 2 sum_ij C(n_ij)) / C(n)``.
* **Structural distance**: :func:`trees.instability.tree_distance`.
* **A map of the refits**: classical multidimensional scaling (Torgerson,
  1952; Gower, 1966) of a distance matrix, with the *medoid* (the tree
  whose distances to the others sum least) as the representative tree, as
  Banerjee et al. choose theirs.
* **A node-by-node diff** of two trees, walked by path (:func:`tree_diff`).
"""

from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..tree import Tree
from ._instability import tree_distance
from ._paths import feature_names_of, split_text

__all__ = [
    "DISTANCES",
    "RefitMap",
    "mean_pairwise",
    "partition_distance",
    "prediction_agreement",
    "refit_map",
    "tree_diff",
    "tree_distances",
]


# ---------------------------------------------------------------- predictions
def _as_tree(model):
    if isinstance(model, Tree):
        return model
    fitted = getattr(model, "tree_", None)
    if isinstance(fitted, Tree):
        return fitted
    raise ValueError(
        "This measure needs trees: trees.Tree objects or fitted trees DecisionTree estimators "
        "(convert scikit-learn trees with from_sklearn)."
    )


def _labels(model, X):
    """Predicted classes as strings (refits may have seen different classes), or values."""
    if isinstance(model, Tree):
        prediction = model.predict(X)
        if not model.is_classifier:
            return prediction, False
        names = model.class_names or [str(k) for k in range(prediction.shape[1])]
        return np.asarray(names)[np.argmax(prediction, axis=1)], True
    prediction = np.asarray(model.predict(X))
    classifier = hasattr(model, "classes_")
    return (prediction.astype(str), True) if classifier else (prediction.astype(float), False)


def prediction_agreement(models, X, tolerance=0.05):
    """Share of rows on which every two models agree (Turney, 1995).

    Parameters
    ----------
    models : list of fitted estimators or Trees
        All classifiers or all regressors.
    X : array-like of shape (n_rows, n_features)
    tolerance : float, default=0.05
        Regression: two predictions agree when they differ by at most this
        times the SD of all the predictions.

    Returns
    -------
    ndarray of shape (n_models, n_models)
        Symmetric, 1 on the diagonal. Its mean off the diagonal
        (:func:`mean_pairwise`) is Turney's stability.
    """
    if len(models) == 0:
        raise ValueError("prediction_agreement needs at least one model.")
    X = np.asarray(X, dtype=float)
    outputs = [_labels(m, X) for m in models]
    if len({kind for _, kind in outputs}) > 1:
        raise ValueError("Mix of classifiers and regressors: compare models of one task.")
    predictions = np.stack([p for p, _ in outputs])
    if outputs[0][1]:
        agree = predictions[:, None, :] == predictions[None, :, :]
    else:
        limit = tolerance * float(np.std(predictions))
        agree = np.abs(predictions[:, None, :] - predictions[None, :, :]) <= limit
    return agree.mean(axis=2)


def mean_pairwise(matrix):
    """Mean of a square matrix off its diagonal (NaN for a single model)."""
    matrix = np.asarray(matrix, dtype=float)
    n = matrix.shape[0]
    if n < 2:
        return np.nan
    return float((matrix.sum() - np.trace(matrix)) / (n * (n - 1)))


# ------------------------------------------------------------------ distances
def _pairs(counts):
    counts = np.asarray(counts, dtype=float)
    return float(np.sum(counts * (counts - 1.0) / 2.0))


def partition_distance(leaves_a, leaves_b):
    """Share of row pairs that one partition puts together and the other apart.

    Parameters
    ----------
    leaves_a, leaves_b : array-like of int, shape (n_rows,)
        The leaf (or any group label) of every row under each tree.

    Returns
    -------
    float in [0, 1]
        0 for the same partition (whatever the labels); NaN with fewer than 2 rows.
    """
    a = np.unique(np.asarray(leaves_a), return_inverse=True)[1]
    b = np.unique(np.asarray(leaves_b), return_inverse=True)[1]
    if a.shape != b.shape:
        raise ValueError("Both partitions must label the same rows.")
    n = a.shape[0]
    if n < 2:
        return np.nan
    joint = np.bincount(a * (b.max() + 1) + b)  # the contingency table, flattened
    together = _pairs(np.bincount(a)) + _pairs(np.bincount(b)) - 2.0 * _pairs(joint)
    return together / (n * (n - 1) / 2.0)


def _partition_matrix(trees, X):
    leaves = [t.apply(X) for t in trees]
    n = len(trees)
    out = np.zeros((n, n))
    for i in range(n):
        for j in range(i + 1, n):
            out[i, j] = out[j, i] = partition_distance(leaves[i], leaves[j])
    return out


def _structural_matrix(trees, X):
    ranges = np.nanmax(X, axis=0) - np.nanmin(X, axis=0)  # missing values kept: their spans
    n = len(trees)
    out = np.zeros((n, n))
    for i in range(n):
        for j in range(i + 1, n):
            out[i, j] = out[j, i] = tree_distance(trees[i], trees[j], ranges)
    return out


def _prediction_matrix(models, X):
    return 1.0 - prediction_agreement(models, X)


# Kinds of distance between refits, by name.
DISTANCES = {
    "partition": _partition_matrix,
    "structural": _structural_matrix,
    "prediction": _prediction_matrix,
}


def tree_distances(models, X, kind="partition"):
    """Distance between every two models.

    Parameters
    ----------
    models : list of Trees or fitted tree estimators
        Any fitted model for ``kind="prediction"``.
    X : array-like
        Rows the partition and prediction distances count; the structural
        distance scales threshold shifts by the range of each feature in X.
    kind : {"partition", "structural", "prediction"}
        The partition metric, :func:`tree_distance`, or 1 - prediction agreement.

    Returns
    -------
    ndarray of shape (n_models, n_models)
    """
    if kind not in DISTANCES:
        raise ValueError(f"kind must be one of {tuple(DISTANCES)}, got {kind!r}.")
    X = np.asarray(X, dtype=float)
    if kind == "prediction":
        return _prediction_matrix(models, X)
    return DISTANCES[kind]([_as_tree(m) for m in models], X)


# ------------------------------------------------------------------------ map
@dataclass
class RefitMap:
    """Classical multidimensional scaling of a distance matrix.

    Attributes
    ----------
    coordinates : ndarray of shape (n, n_components)
    medoid : int
        The most central item: least sum of distances to the others.
    eigenvalues : ndarray
        All eigenvalues of the doubly centred matrix, largest first.
    explained : float
        Share of the positive eigenvalues kept by the map.
    """

    coordinates: np.ndarray
    medoid: int
    eigenvalues: np.ndarray
    explained: float


def refit_map(distances, n_components=2):
    """Classical (Torgerson) multidimensional scaling, with the medoid marked.

    With ``D2`` the squared distances and ``J = I - 11'/n``, the matrix
    ``B = -J D2 J / 2`` holds the inner products of centred points; its
    eigenvectors scaled by the square roots of the largest eigenvalues are the
    coordinates. A Euclidean distance matrix is recovered exactly (up to
    rotation) in as many dimensions as it needs.

    Parameters
    ----------
    distances : ndarray of shape (n, n)
        Symmetric, zero diagonal.
    n_components : int, default=2

    Returns
    -------
    RefitMap
    """
    D = np.asarray(distances, dtype=float)
    if D.ndim != 2 or D.shape[0] != D.shape[1]:
        raise ValueError(f"distances must be a square matrix, got shape {D.shape}.")
    if not np.allclose(D, D.T, equal_nan=False) or np.any(~np.isfinite(D)):
        raise ValueError("distances must be finite and symmetric.")
    n = D.shape[0]
    J = np.eye(n) - 1.0 / n
    B = -0.5 * J @ (D * D) @ J
    values, vectors = np.linalg.eigh((B + B.T) / 2.0)
    order = np.argsort(values)[::-1]
    values, vectors = values[order], vectors[:, order]
    kept = np.clip(values[:n_components], 0.0, None)
    coordinates = vectors[:, :n_components] * np.sqrt(kept)
    if coordinates.shape[1] < n_components:  # fewer items than dimensions
        coordinates = np.pad(coordinates, ((0, 0), (0, n_components - coordinates.shape[1])))
    positive = values[values > 0].sum()
    return RefitMap(
        coordinates=coordinates,
        medoid=int(np.argmin(D.sum(axis=1))),
        eigenvalues=values,
        explained=float(kept.sum() / positive) if positive > 0 else 1.0,
    )


# ----------------------------------------------------------------------- diff
def _node_status(a, u, b, v, tolerance):
    if u is None:
        return "only in b"
    if v is None:
        return "only in a"
    leaf_u, leaf_v = a.feature[u] < 0, b.feature[v] < 0
    if leaf_u and leaf_v:
        return "same leaf"
    if leaf_u != leaf_v:
        return "split only in a" if leaf_v else "split only in b"
    if a.feature[u] != b.feature[v]:
        return "feature changed"
    if a.categories[u] != b.categories[v]:
        return "categories changed"
    if a.categories[u] is None and abs(a.threshold[u] - b.threshold[v]) > tolerance:
        return "threshold changed"
    return "same split"


def tree_diff(a, b, feature_names=None, tolerance=1e-12):
    """Node-by-node differences of two trees, matched by path from the root.

    Both trees are walked together; a path that one tree has and the other
    does not is listed as ``"only in a"`` or ``"only in b"`` (with its whole
    subtree). Nodes under a changed feature are still matched by path, so
    the diff also says how the regions below a change were split.

    Parameters
    ----------
    a, b : Tree or fitted tree estimator
    feature_names : list of str, optional
    tolerance : float
        Thresholds closer than this count as the same.

    Returns
    -------
    pandas.DataFrame
        ``path``, ``depth``, ``node_a``, ``node_b`` (-1 where absent),
        ``status`` (``same split``, ``same leaf``, ``threshold changed``,
        ``feature changed``, ``categories changed``, ``split only in a``,
        ``split only in b``, ``only in a``, ``only in b``), ``split_a``,
        ``split_b``, ``threshold_shift`` (b - a, same feature only).
    """
    a, b = _as_tree(a), _as_tree(b)
    names = feature_names_of(a, feature_names)
    rows, queue = [], [("root", 0, 0)]
    while queue:
        path, u, v = queue.pop(0)
        status = _node_status(a, u, b, v, tolerance)
        same_feature = status in ("same split", "threshold changed")
        rows.append(
            {
                "path": path,
                "depth": path.count("-"),
                "node_a": -1 if u is None else int(u),
                "node_b": -1 if v is None else int(v),
                "status": status,
                "split_a": "" if u is None else split_text(a, u, names),
                "split_b": "" if v is None else split_text(b, v, names),
                "threshold_shift": float(b.threshold[v] - a.threshold[u])
                if same_feature
                else np.nan,
            }
        )
        kids_a = (a.left[u], a.right[u]) if u is not None and a.feature[u] >= 0 else (None, None)
        kids_b = (b.left[v], b.right[v]) if v is not None and b.feature[v] >= 0 else (None, None)
        for side, x, y in zip("LR", kids_a, kids_b, strict=True):
            if x is not None or y is not None:
                queue.append((f"{path}-{side}", x, y))
    return pd.DataFrame(rows)
