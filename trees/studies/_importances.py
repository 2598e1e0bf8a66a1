"""How much each feature matters to a fitted tree: impurity decrease and permutation.

Two views, as scikit-learn and dtreeviz offer them:

* **impurity-based importance** (Breiman et al., 1984): the weighted
  impurity decrease of every split, summed by feature and normalised to 1
  (:func:`trees.instability.tree_importances`). It is read from the training
  rows, so it also credits splits that only fit noise, and it favours
  features with many thresholds (source 001's bias);
* **permutation importance** (Breiman, 2001, "Random forests", section 10):
  the drop of the tree's held-out score when one feature's column is
  shuffled, which breaks the feature's link with the target and keeps its
  distribution. Measured on rows the tree has not seen, it shows what the
  tree *uses to predict well*; a negative value means shuffling helped
  (the feature's splits hurt on new rows).

:func:`permutation_importances` scores with accuracy (classification) or
R^2 (regression), the scores the grow page plots after each step.
"""

import numpy as np
import pandas as pd

from ..tree import Tree
from ._paths import feature_names_of
from ._rashomon import tree_importances

__all__ = ["feature_importances", "permutation_importances"]


def _as_tree(model):
    if isinstance(model, Tree):
        return model
    for attribute in ("tree_", "tree"):  # an estimator's fitted tree, or a grower's current one
        fitted = getattr(model, attribute, None)
        if isinstance(fitted, Tree):
            return fitted
    raise ValueError(
        "model must be a trees.Tree, a fitted trees DecisionTree estimator or a TreeGrower "
        "(convert a scikit-learn tree with from_sklearn)."
    )


def _scorer(tree, y):
    """Accuracy of the predicted class names against ``y``, or R^2 of the values."""
    if tree.is_classifier:
        names = np.asarray(tree.class_names or [str(k) for k in range(tree.value.shape[1])])
        truth = np.asarray(y).astype(str)
        return lambda prediction: float(np.mean(names[np.argmax(prediction, axis=1)] == truth))
    truth = np.asarray(y, dtype=float)
    total = float(np.sum((truth - truth.mean()) ** 2))

    def r2(prediction):
        residual = float(np.sum((truth - prediction) ** 2))
        return 1.0 - residual / total if total > 0 else 0.0

    return r2


def permutation_importances(model, X, y, n_repeats=5, random_state=0, conditioning="<="):
    """Drop of the score when each feature's column is shuffled (Breiman, 2001).

    Parameters
    ----------
    model : Tree, fitted trees DecisionTree estimator, or TreeGrower
    X, y : arrays
        Rows to score on: held-out rows, so the importance says what helps on new data.
    n_repeats : int, default=5
        Shuffles per feature; the mean and SD of the drops are returned.
    random_state : int, default=0
    conditioning : {"<=", "<", "average"}
        The threshold test the tree predicts with.

    Returns
    -------
    pandas.DataFrame
        One row per feature: ``feature``, ``name``, ``importance`` (mean drop
        of accuracy or R^2), ``sd``; and the attribute ``baseline`` in
        ``frame.attrs`` (the unshuffled score). Features the tree never
        tests have importance 0 exactly.
    """
    tree = _as_tree(model)
    X = np.asarray(X, dtype=float)
    if X.ndim != 2 or X.shape[1] != tree.n_features:
        raise ValueError(
            f"X must have {tree.n_features} columns (the tree's), got shape {X.shape}."
        )
    if len(y) != X.shape[0] or X.shape[0] == 0:
        raise ValueError("X and y must hold the same, non-zero number of rows.")
    if int(n_repeats) < 1:
        raise ValueError(f"n_repeats must be at least 1, got {n_repeats}.")
    score = _scorer(tree, y)
    baseline = score(tree.predict(X, conditioning))
    rng = np.random.default_rng(random_state)
    used = set(tree.feature[tree.feature >= 0].tolist())
    drops = np.zeros((tree.n_features, int(n_repeats)))
    for feature in range(tree.n_features):
        for repeat in range(int(n_repeats)):
            order = rng.permutation(X.shape[0])  # drawn for every feature: seeds stay aligned
            if feature not in used:
                continue  # a column the tree never reads cannot change its predictions
            shuffled = X.copy()
            shuffled[:, feature] = X[order, feature]
            drops[feature, repeat] = baseline - score(tree.predict(shuffled, conditioning))
    frame = pd.DataFrame(
        {
            "feature": np.arange(tree.n_features),
            "name": feature_names_of(tree),
            "importance": drops.mean(axis=1),
            "sd": drops.std(axis=1),
        }
    )
    frame.attrs["baseline"] = baseline
    return frame


def feature_importances(model, X_test=None, y_test=None, n_repeats=5, random_state=0):
    """Impurity-based and (with held-out rows) permutation importance of every feature.

    Returns
    -------
    pandas.DataFrame
        ``feature``, ``name``, ``impurity`` (sums to 1, or all 0 for a single
        leaf), and with ``X_test``: ``permutation`` and ``permutation_sd``.
        Sorted by impurity importance, then permutation importance.
    """
    tree = _as_tree(model)
    frame = pd.DataFrame(
        {
            "feature": np.arange(tree.n_features),
            "name": feature_names_of(tree),
            "impurity": tree_importances(tree),
        }
    )
    sort = ["impurity"]
    if X_test is not None and len(X_test):
        perm = permutation_importances(tree, X_test, y_test, n_repeats, random_state)
        frame["permutation"] = perm["importance"].to_numpy()
        frame["permutation_sd"] = perm["sd"].to_numpy()
        frame.attrs["baseline"] = perm.attrs["baseline"]
        sort.append("permutation")
    return frame.sort_values(sort, ascending=False, ignore_index=True, kind="stable")
