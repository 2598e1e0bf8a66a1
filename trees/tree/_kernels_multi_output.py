"""Compiled criteria of several targets at once: scikit-learn's multi-output trees.

The formulas ``_kernels_criteria`` dispatches to for the ``MULTI_*`` ids (``KERNEL_IDS``
``"multi_output_*"``; the classes are ``_criterion.MultiOutputCriterion``'s). Their statistics
put the weight first, then each output's, output after output:

* classification: ``(w, n_11 .. n_1C1, n_21 .. n_2C2, ...)``, the weighted class counts of
  each output (no padding);
* regression: ``(w, S_1, Q_1, S_2, Q_2, ...)``, the sums ``w*y_j`` and ``w*y_j**2`` of each
  (centred) target; Poisson's ``(w, S_1, L_1, ...)`` with ``L_j`` the sum of ``w*y_j*log y_j``
  of the targets as given.

A node's impurity is the mean of its outputs' impurities and a split's gain the mean of their
gains, as scikit-learn's ``Criterion`` (each output's impurity summed, then divided by
``n_outputs``); proxies are summed over the outputs (the mean orders candidates alike). A
regression layout tells its number of outputs by its length; a classification layout by its
sums (:func:`_class_outputs`). Single-output fits never reach this module: their criteria and
statistics are unchanged.
"""

import numpy as np
from numba import njit

from ._kernels_numbers import poisson_child_positive, s_log_mean, safe_divide, xlog2x

__all__ = [
    "MULTI_ENTROPY",
    "MULTI_FRIEDMAN_MSE",
    "MULTI_GINI",
    "MULTI_POISSON",
    "MULTI_IMPURITIES",
    "MULTI_PROXIES",
    "MULTI_SCORES",
    "MULTI_SQUARED_ERROR",
    "is_multi_output",
    "multi_impurity",
    "multi_proxy",
    "multi_score",
]

# After ``_kernels_criteria``'s ten single-output ids.
MULTI_GINI, MULTI_ENTROPY, MULTI_SQUARED_ERROR, MULTI_FRIEDMAN_MSE, MULTI_POISSON = range(10, 15)

_INLINE = {"cache": True, "nogil": True, "error_model": "numpy"}


@njit(**_INLINE)
def is_multi_output(crit):
    """Whether ``crit`` scores several targets at once."""
    return crit in (
        MULTI_GINI, MULTI_ENTROPY, MULTI_SQUARED_ERROR, MULTI_FRIEDMAN_MSE, MULTI_POISSON,
    )  # fmt: skip


@njit(**_INLINE)
def _class_outputs(stats):
    """The number of outputs ``k`` of a multi-output classification layout ``(w, blocks)``.

    Each row adds its weight to ``stats[0]`` and to one class of every output's block, so the
    blocks sum to ``k w``; the ratio is rounded to the integer it is up to the sums' rounding.
    An empty node (``w`` 0) has no rows to tell: 1, and its formulas give 0 anyway.
    """
    if stats[0] <= 0:
        return 1.0
    total = 0.0
    for i in range(1, stats.shape[0]):
        total += stats[i]
    return max(np.floor(total / stats[0] + 0.5), 1.0)


@njit(**_INLINE)
def _multi_gini_impurity(stats):
    """Mean over outputs of ``1 - sum_c p_jc^2``: ``1 - sum_jc n_jc^2 / (k w^2)``."""
    w, squares = stats[0], 0.0
    for i in range(1, stats.shape[0]):
        squares += stats[i] * stats[i]
    return 1.0 - safe_divide(squares, _class_outputs(stats) * w * w)


@njit(**_INLINE)
def _multi_entropy_sum(stats, other, sign, w):
    """``sum_j H_j`` (bits) of the child ``stats`` (``sign`` 0) or ``other - stats`` (1), of
    weight ``w``: the entropies of its outputs summed."""
    total = 0.0
    for i in range(1, stats.shape[0]):
        count = other[i] - stats[i] if sign else stats[i]
        total += xlog2x(safe_divide(count, w))
    return -total


@njit(**_INLINE)
def _multi_entropy(stats):
    """Mean over outputs of the entropy in bits."""
    return _multi_entropy_sum(stats, stats, 0, stats[0]) / _class_outputs(stats)


@njit(**_INLINE)
def _multi_variance(stats):
    """Mean over outputs of ``Q_j / w - (S_j / w)^2``, each at least 0."""
    n_outputs = (stats.shape[0] - 1) // 2
    total = 0.0
    for j in range(n_outputs):
        mean = safe_divide(stats[1 + 2 * j], stats[0])
        total += max(safe_divide(stats[2 + 2 * j], stats[0]) - mean * mean, 0.0)
    return total / n_outputs


@njit(**_INLINE)
def _multi_gini_proxy(left, parent):
    """``sum_jc L_jc^2 / w_L + sum_jc R_jc^2 / w_R`` (Gini's proxy summed over outputs)."""
    w_left, w_right = left[0], parent[0] - left[0]
    s_left, s_right = 0.0, 0.0
    for i in range(1, left.shape[0]):
        right = parent[i] - left[i]
        s_left += left[i] * left[i]
        s_right += right * right
    return safe_divide(s_left, w_left) + safe_divide(s_right, w_right)


@njit(**_INLINE)
def _multi_entropy_proxy(left, parent):
    """``-(w_L sum_j H_j(S_L) + w_R sum_j H_j(S_R))``."""
    w_left, w_right = left[0], parent[0] - left[0]
    h_left = _multi_entropy_sum(left, parent, 0, w_left)
    h_right = _multi_entropy_sum(left, parent, 1, w_right)
    return -(w_left * h_left + w_right * h_right)


@njit(**_INLINE)
def _multi_squared_error_proxy(left, parent):
    """``sum_j (S_Lj^2 / w_L + S_Rj^2 / w_R)``."""
    w_left, w_right = left[0], parent[0] - left[0]
    total = 0.0
    for i in range(1, left.shape[0], 2):
        right = parent[i] - left[i]
        total += safe_divide(left[i] * left[i], w_left) + safe_divide(right * right, w_right)
    return total


@njit(**_INLINE)
def _multi_friedman_proxy(left, parent):
    """``sum_j (w_R S_Lj - w_L S_Rj)^2 / (w_L w_R)``: each output's Friedman improvement.

    scikit-learn before 1.9 added the outputs' sums before the difference; 1.9 makes
    ``"friedman_mse"`` the squared error, "as both were always equivalent", which holds output
    by output: ``(w_R S_L - w_L S_R)^2 / (w_L w_R w) = w`` times the variance decrease. Taking
    each output's improvement keeps that equivalence (the squared error's splits, Friedman's
    scale), as the single-output ``FRIEDMAN_MSE`` does.
    """
    w_left, w_right = left[0], parent[0] - left[0]
    total = 0.0
    for i in range(1, left.shape[0], 2):
        diff = w_right * left[i] - w_left * (parent[i] - left[i])
        total += safe_divide(diff * diff, w_left * w_right)
    return total


@njit(**_INLINE)
def _multi_gini_score(value, parent):
    """``G = (proxy - sum_jc P_jc^2 / w) / (k w)``, the mean of the outputs' Gini gains."""
    w, squares = parent[0], 0.0
    for i in range(1, parent.shape[0]):
        squares += parent[i] * parent[i]
    return safe_divide(value - safe_divide(squares, w), _class_outputs(parent) * w)


@njit(**_INLINE)
def _multi_entropy_score(value, parent):
    """``G = (proxy + w sum_j H_j(S)) / (k w)``, the mean of the outputs' information gains."""
    w = parent[0]
    whole = _multi_entropy_sum(parent, parent, 0, w)
    return safe_divide(value + w * whole, _class_outputs(parent) * w)


@njit(**_INLINE)
def _multi_squared_error_score(value, parent):
    """``G = (proxy - sum_j S_j^2 / w) / (k w)``, the mean of the outputs' variance decreases."""
    w, squares = parent[0], 0.0
    for i in range(1, parent.shape[0], 2):
        squares += safe_divide(parent[i] * parent[i], w)
    return safe_divide(value - squares, (parent.shape[0] - 1) // 2 * w)


@njit(**_INLINE)
def _multi_friedman_score(value, parent):
    """``proxy / (k w)``: the mean of the outputs' Friedman improvements."""
    return safe_divide(value, (parent.shape[0] - 1) // 2 * parent[0])


@njit(**_INLINE)
def _multi_poisson_impurity(stats):
    """Mean over outputs of the half Poisson deviance over the weight,
    ``(L_j - S_j log(S_j / w)) / w`` (each at least 0)."""
    n_outputs = (stats.shape[0] - 1) // 2
    total = 0.0
    for i in range(1, stats.shape[0], 2):
        total += max(safe_divide(stats[i + 1] - s_log_mean(stats[i], stats[0]), stats[0]), 0.0)
    return total / n_outputs


@njit(**_INLINE)
def _multi_poisson_proxy(left, parent):
    """``sum_j S_Lj log(S_Lj / w_L) + S_Rj log(S_Rj / w_R)``; ``-inf`` where a child's sum of
    any output is not positive (scikit-learn's ``Poisson`` refuses the split;
    ``_kernels_numbers.poisson_child_positive``)."""
    w_left, w_right = left[0], parent[0] - left[0]
    total = 0.0
    for i in range(1, left.shape[0], 2):
        right = parent[i] - left[i]
        if not (
            poisson_child_positive(left[i], parent[i]) and poisson_child_positive(right, parent[i])
        ):
            return -np.inf
        total += s_log_mean(left[i], w_left) + s_log_mean(right, w_right)
    return total


@njit(**_INLINE)
def _multi_poisson_score(value, parent):
    """``G = (proxy - sum_j S_j log(S_j / w)) / (k w)``."""
    w, whole = parent[0], 0.0
    for i in range(1, parent.shape[0], 2):
        whole += s_log_mean(parent[i], w)
    return safe_divide(value - whole, (parent.shape[0] - 1) // 2 * w)


MULTI_IMPURITIES = {
    MULTI_GINI: _multi_gini_impurity,
    MULTI_ENTROPY: _multi_entropy,
    MULTI_SQUARED_ERROR: _multi_variance,
    MULTI_FRIEDMAN_MSE: _multi_variance,
    MULTI_POISSON: _multi_poisson_impurity,
}
MULTI_PROXIES = {
    MULTI_GINI: _multi_gini_proxy,
    MULTI_ENTROPY: _multi_entropy_proxy,
    MULTI_SQUARED_ERROR: _multi_squared_error_proxy,
    MULTI_FRIEDMAN_MSE: _multi_friedman_proxy,
    MULTI_POISSON: _multi_poisson_proxy,
}
MULTI_SCORES = {
    MULTI_GINI: _multi_gini_score,
    MULTI_ENTROPY: _multi_entropy_score,
    MULTI_SQUARED_ERROR: _multi_squared_error_score,
    MULTI_FRIEDMAN_MSE: _multi_friedman_score,
    MULTI_POISSON: _multi_poisson_score,
}


@njit(**_INLINE)
def multi_impurity(stats, crit):
    """A multi-output criterion's impurity, ``crit`` known at run time."""
    if crit == MULTI_GINI:
        return _multi_gini_impurity(stats)
    if crit == MULTI_ENTROPY:
        return _multi_entropy(stats)
    if crit == MULTI_POISSON:
        return _multi_poisson_impurity(stats)
    return _multi_variance(stats)


@njit(**_INLINE)
def multi_proxy(left, parent, crit):
    """A multi-output criterion's proxy, ``crit`` known at run time."""
    if crit == MULTI_GINI:
        return _multi_gini_proxy(left, parent)
    if crit == MULTI_ENTROPY:
        return _multi_entropy_proxy(left, parent)
    if crit == MULTI_SQUARED_ERROR:
        return _multi_squared_error_proxy(left, parent)
    if crit == MULTI_POISSON:
        return _multi_poisson_proxy(left, parent)
    return _multi_friedman_proxy(left, parent)


@njit(**_INLINE)
def multi_score(value, parent, crit):
    """A multi-output criterion's score from its proxy, ``crit`` known at run time."""
    if crit == MULTI_GINI:
        return _multi_gini_score(value, parent)
    if crit == MULTI_ENTROPY:
        return _multi_entropy_score(value, parent)
    if crit == MULTI_SQUARED_ERROR:
        return _multi_squared_error_score(value, parent)
    if crit == MULTI_POISSON:
        return _multi_poisson_score(value, parent)
    return _multi_friedman_score(value, parent)
