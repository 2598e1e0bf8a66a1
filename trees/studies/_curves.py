"""Depth-versus-error curves (source 003: "Decision tree variance" and "bias").

:func:`complexity_curve` cross-validates a tree for each value of one
complexity parameter (``max_depth`` or ``min_samples_leaf``) and returns the
train and test error with their spread over folds, the linear baseline
(logistic regression for classification, linear regression for regression)
and the best value. Errors: ``1 - accuracy`` for classification; ``1 - R^2``
or the mean squared error for regression.
"""

from dataclasses import dataclass

import numpy as np
from sklearn.linear_model import LinearRegression, LogisticRegression
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from ._by_task import ERRORS, error, folds, make_tree

__all__ = ["ComplexityCurve", "complexity_curve", "pruning_alphas"]

# Parameters whose larger values give simpler trees (the others: smaller values do).
_LARGER_IS_SIMPLER = ("min_samples_leaf", "ccp_alpha")


@dataclass
class ComplexityCurve:
    """Train and test error against the values of one parameter.

    Attributes
    ----------
    parameter : str
    values : list
    train_mean, train_std, test_mean, test_std : ndarray
    baseline_mean, baseline_std : float
        The linear model's cross-validated test error.
    error_name : str
    best_index : int
        Position of the lowest mean test error (the simplest on ties).
    """

    parameter: str
    values: list
    train_mean: np.ndarray
    train_std: np.ndarray
    test_mean: np.ndarray
    test_std: np.ndarray
    baseline_mean: float
    baseline_std: float
    error_name: str
    best_index: int

    @property
    def best_value(self):
        return self.values[self.best_index]


def _baseline(task):
    if task == "classification":
        return make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000))
    return make_pipeline(StandardScaler(), LinearRegression())


def _simplicity_order(parameter, values):
    """Indices of ``values`` from the simplest tree to the most complex."""
    order = sorted(range(len(values)), key=lambda i: np.inf if values[i] is None else values[i])
    return order[::-1] if parameter in _LARGER_IS_SIMPLER else order


def pruning_alphas(X, y, task, n_values=10, base_params=None):
    """``n_values`` pruning strengths spanning the pruning path of a tree grown on all rows.

    0 (no pruning), then up to ``n_values - 1`` alphas spaced evenly on a log
    scale from the path's smallest positive alpha to its second largest (the
    largest leaves the root alone), each rounded to 3 significant digits.
    Choice made here: the grid comes from the whole data's path, as
    scikit-learn's example does; every fold then prunes its own tree with it.
    """
    path = make_tree(task, dict(base_params or {})).cost_complexity_pruning_path(X, y)
    positive = np.unique(path.ccp_alphas[path.ccp_alphas > 0])
    if positive.size == 0:
        return [0.0]
    high = positive[-2] if positive.size > 1 else positive[-1]
    grid = np.geomspace(positive[0], high, n_values - 1)
    return [0.0, *sorted({float(f"{v:.3g}") for v in grid})]


def complexity_curve(
    X,
    y,
    task,
    parameter="max_depth",
    values=range(1, 11),
    n_splits=5,
    n_repeats=1,
    error_name=None,
    random_state=0,
    base_params=None,
    progress=None,
):
    """Cross-validated train and test error of a tree for each value of ``parameter``.

    Parameters
    ----------
    X, y : arrays
    task : {"classification", "regression"}
    parameter : {"max_depth", "min_samples_leaf", "ccp_alpha"}
    values : iterable
        Values of the parameter (None allowed for max_depth: unbounded).
    n_splits, n_repeats : int
        Repeated (stratified) k-fold; every value uses the same folds.
    error_name : str, optional
        One of ``ERRORS[task]``.
    base_params : dict, optional
        Other tree parameters, kept fixed.
    progress : callable(done, total), optional

    Returns
    -------
    ComplexityCurve
        The best value is the lowest mean test error; ties go to the simplest tree.
    """
    X, y = np.asarray(X, dtype=float), np.asarray(y)
    values = list(values)
    error_name = error_name or ERRORS[task][0]
    splits = folds(task, X, y, n_splits, n_repeats, random_state)
    train = np.zeros((len(values), len(splits)))
    test = np.zeros((len(values), len(splits)))
    baseline = np.zeros(len(splits))
    total = (len(values) + 1) * len(splits)
    done = 0
    for f, (tr, te) in enumerate(splits):
        for v, value in enumerate(values):
            model = make_tree(task, {**(base_params or {}), parameter: value}).fit(X[tr], y[tr])
            train[v, f] = error(task, y[tr], model.predict(X[tr]), error_name)
            test[v, f] = error(task, y[te], model.predict(X[te]), error_name)
            done += 1
            if progress is not None:
                progress(done, total)
        linear = _baseline(task).fit(X[tr], y[tr])
        baseline[f] = error(task, y[te], linear.predict(X[te]), error_name)
        done += 1
        if progress is not None:
            progress(done, total)
    test_mean = test.mean(axis=1)
    lowest = test_mean.min()
    best = next(i for i in _simplicity_order(parameter, values) if test_mean[i] <= lowest + 1e-12)
    return ComplexityCurve(
        parameter=parameter,
        values=values,
        train_mean=train.mean(axis=1),
        train_std=train.std(axis=1),
        test_mean=test_mean,
        test_std=test.std(axis=1),
        baseline_mean=float(baseline.mean()),
        baseline_std=float(baseline.std()),
        error_name=error_name,
        best_index=int(best),
    )
