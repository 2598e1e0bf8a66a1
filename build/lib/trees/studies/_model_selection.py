"""Cross-validated scores of several models on the same folds."""

import numpy as np
from sklearn.base import clone

from ._by_task import folds, score
from ._progress import report

__all__ = ["compare_models"]


def compare_models(
    models, X, y, task="classification", n_splits=5, seed=0, progress=None, should_stop=None
):
    """Score every model on the same folds: AUC (classification) or R^2 (regression).

    Parameters
    ----------
    models : dict {name: estimator}
        Unfitted estimators (cloned for each fold).
    progress : callable(done, total), optional
    should_stop : callable() -> bool, optional

    Returns
    -------
    dict {name: ndarray of fold scores}
        Folds not done (after a stop) are left out.
    """
    X, y = np.asarray(X, dtype=float), np.asarray(y)
    classes, y_codes = np.unique(y, return_inverse=True) if task == "classification" else (None, y)
    splits = folds(task, X, y_codes, n_splits, random_state=seed)
    scores = {name: [] for name in models}
    total, done = len(splits) * len(models), 0
    for train, test in splits:
        for name, model in models.items():
            fitted = clone(model).fit(X[train], y_codes[train])
            if task == "classification":
                value = score(
                    task, y_codes[test], fitted.predict_proba(X[test]), np.arange(len(classes))
                )
            else:
                value = score(task, y_codes[test], fitted.predict(X[test]))
            scores[name].append(float(value))
            done += 1
            if report(progress, should_stop, done, total):
                return {n: np.asarray(s) for n, s in scores.items()}
    return {n: np.asarray(s) for n, s in scores.items()}
