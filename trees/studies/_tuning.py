"""Evaluating and tuning trees (source 004, section 4): train/test split, k-fold
cross-validation, holdout tuning, nested cross-validation, exhaustive trees.

Errors are the zero-one loss (classification) or ``1 - R^2`` (regression).
Every search takes a grid of configurations (dicts of estimator parameters),
plus ``base_params`` kept fixed (e.g. ``categorical_features``), reports
progress through a callback and can be stopped between fits.
"""

from dataclasses import dataclass

import numpy as np
from sklearn.model_selection import ParameterGrid

from ..tree import CRITERIA_CLF, DecisionTreeClassifier
from ._by_task import error, folds, make_tree, train_test_rows
from ._progress import report

__all__ = [
    "SearchResult",
    "configuration_grid",
    "cross_validated_search",
    "cross_validation_error",
    "LEAF_CLASSES",
    "exhaustive_trees",
    "first_seen_leaf_classes",
    "holdout_tuning",
    "nested_cross_validation",
    "split_error",
]


def split_error(task, y_true, y_pred):
    """Zero-one loss (classification) or 1 - R^2 (regression)."""
    return error(task, y_true, y_pred)


def configuration_grid(**ranges):
    """Every combination of the given parameter values (source 004, Table 4.2).

    ``None`` entries are kept (no limit). Returns a list of dicts.
    """
    ranges = {
        name: list(values) for name, values in ranges.items() if values is not None and len(values)
    }
    return list(ParameterGrid(ranges)) if ranges else [{}]


def cross_validation_error(task, params, X, y, k=5, seed=0, base_params=None):
    """K-fold cross-validation error of a tree with ``params``: (mean, per-fold errors)."""
    X, y = np.asarray(X, dtype=float), np.asarray(y)
    errors = []
    for train, test in folds(task, X, y, k, random_state=seed):
        model = make_tree(task, {**(base_params or {}), **params}).fit(X[train], y[train])
        errors.append(split_error(task, y[test], model.predict(X[test])))
    return float(np.mean(errors)), np.asarray(errors)


@dataclass
class SearchResult:
    """Errors of the configurations tried.

    Attributes
    ----------
    configurations : list of dict
    errors : ndarray
        Validation (holdout) or cross-validation error of each configuration
        tried, NaN for those not reached before a stop.
    best : dict
        The configuration with the lowest error (the first on ties).
    best_error : float
    outer_errors : ndarray or None
        Nested cross-validation: the test error of each outer fold.
    outer_best : list of dict or None
        Nested cross-validation: the configuration chosen in each outer fold.
    cancelled : bool
    """

    configurations: list
    errors: np.ndarray
    best: dict
    best_error: float
    outer_errors: np.ndarray = None
    outer_best: list = None
    cancelled: bool = False

    @property
    def estimate(self):
        """The estimated risk: nested CV's mean outer error, or the best validation error."""
        return (
            float(np.nanmean(self.outer_errors))
            if self.outer_errors is not None
            else self.best_error
        )


def _best(configurations, errors):
    index = int(np.nanargmin(errors)) if np.any(np.isfinite(errors)) else 0
    return configurations[index], float(errors[index])


def cross_validated_search(
    task, configurations, X, y, k=5, seed=0, progress=None, should_stop=None, base_params=None
):
    """K-fold cross-validation of every configuration, on the same folds.

    Each configuration is an independent task (:func:`cross_validation_error`
    with the same ``seed``, hence the same folds) and the combine step is the
    lowest error (the first on ties), so any executor gives the same result.
    """
    errors = np.full(len(configurations), np.nan)
    cancelled = False
    for i, params in enumerate(configurations):
        errors[i] = cross_validation_error(task, params, X, y, k, seed, base_params)[0]
        if report(progress, should_stop, i + 1, len(configurations)):
            cancelled = True
            break
    best, best_error = _best(configurations, errors)
    return SearchResult(configurations, errors, best, best_error, cancelled=cancelled)


def holdout_tuning(
    task,
    configurations,
    X,
    y,
    validation_size=0.2,
    seed=0,
    progress=None,
    should_stop=None,
    base_params=None,
):
    """Holdout tuning (train/validation split): fit each configuration once, score it on the validation part."""
    X, y = np.asarray(X, dtype=float), np.asarray(y)
    train, validation = train_test_rows(task, y, validation_size, seed)
    X_train, X_val, y_train, y_val = X[train], X[validation], y[train], y[validation]
    errors = np.full(len(configurations), np.nan)
    cancelled = False
    for i, params in enumerate(configurations):
        model = make_tree(task, {**(base_params or {}), **params}).fit(X_train, y_train)
        errors[i] = split_error(task, y_val, model.predict(X_val))
        if report(progress, should_stop, i + 1, len(configurations)):
            cancelled = True
            break
    best, best_error = _best(configurations, errors)
    return SearchResult(configurations, errors, best, best_error, cancelled=cancelled)


def nested_cross_validation(
    task,
    configurations,
    X,
    y,
    outer_k=5,
    inner_k=3,
    seed=0,
    progress=None,
    should_stop=None,
    base_params=None,
):
    """Nested cross-validation (source 004, 4.3.3).

    In each outer fold, every configuration is cross-validated on the training
    part (``inner_k`` folds); the best is refitted on that part and scored on
    the outer test fold. The estimate is the mean outer error; ``errors``
    holds each configuration's mean inner error over the outer folds.
    """
    X, y = np.asarray(X, dtype=float), np.asarray(y)
    outer = folds(task, X, y, outer_k, random_state=seed)
    inner_errors = np.full((outer_k, len(configurations)), np.nan)
    outer_errors, outer_best = [], []
    total, done, cancelled = outer_k * len(configurations), 0, False
    for f, (train, test) in enumerate(outer):
        for i, params in enumerate(configurations):
            inner_errors[f, i] = cross_validation_error(
                task, params, X[train], y[train], inner_k, seed, base_params
            )[0]
            done += 1
            if report(progress, should_stop, done, total):
                cancelled = True
                break
        if cancelled:
            break
        best, _ = _best(configurations, inner_errors[f])
        model = make_tree(task, {**(base_params or {}), **best}).fit(X[train], y[train])
        outer_errors.append(split_error(task, y[test], model.predict(X[test])))
        outer_best.append(best)
    reached = np.isfinite(inner_errors)
    totals = np.where(reached, inner_errors, 0.0).sum(axis=0)
    counts = reached.sum(axis=0)
    mean_inner = np.divide(
        totals, counts, out=np.full(len(configurations), np.nan), where=counts > 0
    )
    best, best_error = _best(configurations, mean_inner)
    return SearchResult(
        configurations,
        mean_inner,
        best,
        best_error,
        np.asarray(outer_errors),
        outer_best,
        cancelled,
    )


def majority_leaf_classes(model, X_train, y_train):
    """Each node's class as the fitted tree predicts it: the class of largest weight, the first
    in ``classes_`` on a tie (the estimators' rule)."""
    return model.classes_[np.argmax(model.tree_.value, axis=1)]


def first_seen_leaf_classes(model, X_train, y_train):
    """Each node's class as source 004's code labels a leaf: the most common class of its
    training rows, and on a tie the one whose first row comes first in ``y_train``.

    The code labels a node with ``Counter(labels).most_common()[0][0]``, which
    orders equal counts by first appearance; a node's labels keep the order of
    the training rows. Nodes no training row reaches (none, in a fitted tree)
    keep the estimators' class.
    """
    labels = majority_leaf_classes(model, X_train, y_train)
    leaves = model.apply(X_train)
    codes = np.searchsorted(model.classes_, y_train)
    n_nodes, n_classes = model.tree_.node_count, len(model.classes_)
    counts = np.zeros((n_nodes, n_classes))
    np.add.at(counts, (leaves, codes), 1.0)
    first = np.full((n_nodes, n_classes), len(y_train))
    np.minimum.at(first, (leaves, codes), np.arange(len(y_train)))
    tied_first = np.where(counts == counts.max(axis=1, keepdims=True), first, len(y_train) + 1)
    reached = counts.sum(axis=1) > 0
    labels[reached] = model.classes_[np.argmin(tied_first[reached], axis=1)]
    return labels


# How a leaf's class is chosen when its classes tie, by name (``exhaustive_trees``).
LEAF_CLASSES = {"estimator": majority_leaf_classes, "report": first_seen_leaf_classes}


def exhaustive_trees(
    X_train, y_train, X_test, y_test, criteria=None, base_params=None, leaf_classes="estimator"
):
    """One tree per criterion grown to purity (source 004, section 4.2, Table 4.1).

    ``leaf_classes`` names how a leaf's class is read (:data:`LEAF_CLASSES`):
    ``"estimator"``, as ``predict`` (a tie goes to the first class), or
    ``"report"``, as source 004's code (a tie goes to the class seen first).

    Returns
    -------
    list of dict
        ``criterion``, ``depth``, ``nodes``, ``leaves``, ``train error``, ``test error``.
    """
    if leaf_classes not in LEAF_CLASSES:
        raise ValueError(
            f"leaf_classes must be one of {tuple(LEAF_CLASSES)}, got {leaf_classes!r}."
        )
    rows = []
    for criterion in criteria or list(CRITERIA_CLF):
        model = DecisionTreeClassifier(criterion=criterion, **(base_params or {})).fit(
            X_train, y_train
        )
        classes = LEAF_CLASSES[leaf_classes](model, X_train, y_train)
        rows.append(
            {
                "criterion": criterion,
                "depth": model.get_depth(),
                "nodes": model.tree_.node_count,
                "leaves": model.get_n_leaves(),
                "train error": split_error(
                    "classification", y_train, classes[model.apply(X_train)]
                ),
                "test error": split_error("classification", y_test, classes[model.apply(X_test)]),
            }
        )
    return rows
