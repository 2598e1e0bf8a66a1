"""Reliability of a cultivated forest's predictions (source 002, section 4 and Figure 4).

:func:`out_of_fold_reliability` gives every row a prediction and a spread
from a model that did not see it; :func:`abstention_curve` shows what
abstaining from the least reliable predictions buys.
"""

import numpy as np
from sklearn.base import clone

from ._by_task import folds

__all__ = ["abstention_curve", "out_of_fold_reliability"]


def abstention_curve(y_true, positive_proba, spread, thresholds=None):
    """Accuracy on the predictions kept, and the share kept, against the spread threshold (Figure 4).

    A prediction is kept when its spread is at most the threshold.

    Returns
    -------
    thresholds, accuracy, kept : ndarray
        ``accuracy`` is NaN where nothing is kept.
    """
    y_true = np.asarray(y_true)
    spread = np.asarray(spread, dtype=float)
    predicted = (np.asarray(positive_proba) > 0.5).astype(int)
    correct = predicted == y_true
    if thresholds is None:
        thresholds = np.unique(np.quantile(spread, np.linspace(0.0, 1.0, 41)))
    thresholds = np.asarray(thresholds, dtype=float)
    kept = spread[None, :] <= thresholds[:, None] + 1e-15
    counts = kept.sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        accuracy = np.where(counts > 0, (kept & correct[None, :]).sum(axis=1) / counts, np.nan)
    return thresholds, accuracy, counts / len(y_true)


def out_of_fold_reliability(X, y, model, n_splits=5, seed=0):
    """Out-of-fold probabilities and spreads of a cultivated forest (stratified folds).

    Returns
    -------
    y01 : ndarray of int
        The target coded 0/1 (``model.classes_`` order).
    proba, spread : ndarray of shape (n_samples,)
    """
    X, y = np.asarray(X, dtype=float), np.asarray(y)
    classes, y01 = np.unique(y, return_inverse=True)
    proba, spread = np.zeros(len(y)), np.zeros(len(y))
    for train, test in folds("classification", X, y01, n_splits, random_state=seed):
        fitted = clone(model).fit(X[train], y01[train])
        p, s = fitted.predict_with_reliability(X[test])
        proba[test], spread[test] = p[:, 1], s
    return y01, proba, spread
