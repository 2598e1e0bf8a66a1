"""What depends on the task, in one place: estimators, folds, scores, held-out rows, subsamples.

Every study of the package (and the app) asks the same small questions of a
task, ``"classification"`` or ``"regression"``: which estimator, which folds
(stratified for classification), which score (AUC or R^2) or error
(1 - accuracy, 1 - R^2, MSE), which rows to hold out, and how to subsample
large data. Each answer is written once, here.
"""

import numpy as np
from sklearn.metrics import accuracy_score, mean_squared_error, r2_score, roc_auc_score
from sklearn.model_selection import RepeatedKFold, RepeatedStratifiedKFold, train_test_split

from ..ensemble import (
    ExtraTreesClassifier,
    ExtraTreesRegressor,
    RandomForestClassifier,
    RandomForestRegressor,
)
from ..tree import DecisionTreeClassifier, DecisionTreeRegressor

__all__ = [
    "ERRORS",
    "TASKS",
    "binary_auc",
    "error",
    "folds",
    "make_model",
    "make_tree",
    "r2",
    "score",
    "subsample",
    "train_test_rows",
]

TASKS = ("classification", "regression")
_TREES = {"classification": DecisionTreeClassifier, "regression": DecisionTreeRegressor}
# A forest's family by its trees' splitter: random forests search their thresholds, extra
# trees draw them.
_FORESTS = {
    "best": {"classification": RandomForestClassifier, "regression": RandomForestRegressor},
    "random": {"classification": ExtraTreesClassifier, "regression": ExtraTreesRegressor},
}
_FOLDS = {"classification": RepeatedStratifiedKFold, "regression": RepeatedKFold}
# The error names of each task; the first is the default.
ERRORS = {
    "classification": ("1 - accuracy",),
    "regression": ("1 - R2", "MSE"),
}
_ERROR_FUNCTIONS = {
    "1 - accuracy": lambda y_true, y_pred: 1.0 - accuracy_score(y_true, y_pred),
    "1 - R2": lambda y_true, y_pred: 1.0 - r2_score(y_true, y_pred),
    "MSE": mean_squared_error,
}


def _check_task(task):
    if task not in TASKS:
        raise ValueError(f"task must be one of {TASKS}, got {task!r}.")
    return task


# Options only the regression estimators have (a classification tree sums class counts); a
# study that passes one set of options to every dataset, as source 000's Tables do, leaves
# them out for classification here.
_REGRESSION_ONLY = ("variance_sums",)


def _params_for(task, params):
    """``params`` without the regression-only options when ``task`` is classification."""
    params = dict(params or {})
    if _check_task(task) == "classification":
        for name in _REGRESSION_ONLY:
            params.pop(name, None)
    return params


def make_tree(task, params=None):
    """An unfitted project tree for ``task`` with ``params`` (see ``_REGRESSION_ONLY``)."""
    return _TREES[_check_task(task)](**_params_for(task, params))


def make_model(kind, task, params=None, seed=None):
    """An unfitted ``"tree"`` or ``"forest"`` for ``task``.

    Both get ``random_state=seed`` (a tree uses it only with
    ``tie_break="random"`` or ``splitter="random"``); a forest has the
    forests' default of 100 trees (source 000's), unless ``params`` says
    otherwise. A forest's ``splitter`` picks its family (``_FORESTS``): a
    random forest (``"best"``, the default) or extra trees (``"random"``).
    """
    params = dict(params or {})
    if kind == "tree":
        if seed is not None:
            params.setdefault("random_state", seed)
        return make_tree(task, params)
    if kind == "forest":
        family = _FORESTS[params.pop("splitter", "best")]
        return family[_check_task(task)](random_state=seed, **_params_for(task, params))
    raise ValueError(f"model must be 'tree' or 'forest', got {kind!r}.")


def folds(task, X, y, n_splits=5, n_repeats=1, random_state=0):
    """Repeated k-fold splits, stratified by class for classification.

    With ``n_repeats=1`` these are the folds of a shuffled (Stratified)KFold
    seeded with ``random_state``.

    Returns
    -------
    list of (train, test) index arrays
    """
    splitter = _FOLDS[_check_task(task)](
        n_splits=n_splits, n_repeats=n_repeats, random_state=random_state
    )
    return list(splitter.split(X, y))


def binary_auc(positive, scores):
    """Area under the ROC curve of ``scores`` for the rows where ``positive`` is True.

    scikit-learn's ``roc_curve`` and ``auc``, operation for operation and so
    to the bit, without their input checks (a tenth of their time, which
    counts when a protocol scores thousands of folds): the rows sorted by
    decreasing score; true and false positives counted at the last row of
    each run of equal scores; the points on a straight line between their
    neighbours dropped (``drop_intermediate``); (0, 0) prepended; rates by
    division by the totals; the trapezoid rule ``sum(dx * (y1 + y0) / 2)``.
    NaN when ``positive`` holds a single value.
    """
    positive = np.asarray(positive, dtype=bool)
    scores = np.asarray(scores, dtype=np.float64)
    if positive.all() or not positive.any():
        return np.nan
    order = np.argsort(scores, kind="stable")[::-1]
    sorted_scores = scores[order]
    ends = np.r_[np.flatnonzero(np.diff(sorted_scores)), positive.size - 1]
    true_positives = np.cumsum(positive[order].astype(np.float64))[ends]
    false_positives = 1 + ends.astype(np.float64) - true_positives
    if false_positives.shape[0] > 2:
        bends = np.logical_or(np.diff(false_positives, 2), np.diff(true_positives, 2))
        kept = np.flatnonzero(np.r_[True, bends, True])
        true_positives, false_positives = true_positives[kept], false_positives[kept]
    tpr = np.r_[0.0, true_positives] / true_positives[-1]
    fpr = np.r_[0.0, false_positives] / false_positives[-1]
    return float(np.sum((fpr[1:] - fpr[:-1]) * (tpr[1:] + tpr[:-1]) / 2.0))


def r2(y_true, prediction):
    """R^2, ``1 - sum (y - p)^2 / sum (y - mean y)^2``, as scikit-learn's ``r2_score``
    (1.0 for a perfect fit of a constant target, 0.0 for an imperfect one; NaN below two
    rows), without its input checks."""
    y_true = np.asarray(y_true, dtype=np.float64)
    if y_true.shape[0] < 2:
        return np.nan
    residual = float(np.sum((y_true - np.asarray(prediction, dtype=np.float64)) ** 2))
    spread = float(np.sum((y_true - y_true.mean()) ** 2))
    if spread == 0.0:
        return 1.0 if residual == 0.0 else 0.0
    return 1.0 - residual / spread


def score(task, y_true, prediction, classes=None):
    """AUC (classification, from class probabilities) or R^2 (regression).

    Parameters
    ----------
    prediction : ndarray
        Class probabilities of shape (n, n_classes), or values.
    classes : ndarray, optional
        The classes of the probability columns (classification).

    Returns
    -------
    float
        NaN when ``y_true`` holds a single class (AUC is undefined). With more
        than two classes: the mean of each class's AUC against the rest
        (scikit-learn's ``multi_class="ovr"``, macro average).
    """
    if _check_task(task) == "regression":
        return r2(y_true, prediction)
    y_true = np.asarray(y_true)
    if np.unique(y_true).size < 2:
        return np.nan
    classes = np.arange(prediction.shape[1]) if classes is None else np.asarray(classes)
    if prediction.shape[1] == 2:
        return binary_auc(y_true == classes[1], prediction[:, 1])
    if not np.all(np.isin(classes, y_true)):  # scikit-learn's own message for a missing class
        return float(roc_auc_score(y_true, prediction, multi_class="ovr", labels=classes))
    return float(
        np.mean([binary_auc(y_true == c, prediction[:, i]) for i, c in enumerate(classes)])
    )


def error(task, y_true, y_pred, kind=None):
    """An error of predictions: ``1 - accuracy``, ``1 - R2`` or ``MSE`` (default: the task's first)."""
    kind = kind or ERRORS[_check_task(task)][0]
    if kind not in _ERROR_FUNCTIONS:
        raise ValueError(f"Unknown error {kind!r}; use one of {ERRORS[task]}.")
    return _ERROR_FUNCTIONS[kind](y_true, y_pred)


def _can_stratify(task, y, n_groups=2):
    return task == "classification" and np.unique(y, return_counts=True)[1].min() >= n_groups


def train_test_rows(task, y, test_share, seed=0):
    """Indices of training and held-out rows.

    Stratified by class for classification when every class has at least two
    rows; a plain random split otherwise.

    Returns
    -------
    train, test : ndarray of int
    """
    rows = np.arange(len(y))
    stratify = y if _can_stratify(task, y) else None
    try:
        train, test = train_test_split(
            rows, test_size=test_share, random_state=seed, stratify=stratify
        )
    except ValueError:  # too few rows of a class for the requested stratified split
        train, test = train_test_split(rows, test_size=test_share, random_state=seed)
    return train, test


def subsample(X, y, max_rows, seed=0):
    """At most ``max_rows`` random rows (in their original order), and whether rows were dropped.

    Returns
    -------
    X, y : ndarray
    subsampled : bool
    """
    if len(y) <= max_rows:
        return X, y, False
    keep = np.sort(np.random.default_rng(seed).choice(len(y), max_rows, replace=False))
    return X[keep], y[keep], True
