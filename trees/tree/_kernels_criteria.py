"""Compiled criteria: impurity, proxy, score and gain of one candidate split.

These are the formulas of ``trees/tree/_criterion.py`` written for one split
at a time, so that the compiled split search (``_kernels_search``) can score
a candidate as it walks a node's segment. Every formula is computed in the
same order of operations as the numpy criterion (sums over classes from the
first class to the last, the right child as ``parent - left``, the same
divisions), so both give the same choices.

Statistics are 1-D arrays of length ``n_stats``:

* classification: the weighted class counts;
* regression: ``(sum w, sum w*y, sum w*y**2)`` of the centred ``y``
  (squared error, and Friedman's improvement of it, whose
  ``w_R S_L - w_L S_R`` is the same for any centring);
* several targets (``MULTI_*``, scikit-learn's multi-output trees): the weight first, then each
  output's statistics, output after output: ``(w, n_11 .. n_1C1, n_21 .. n_2C2, ...)``, the
  weighted class counts of each output (no padding), or ``(w, S_1, Q_1, S_2, Q_2, ...)``, the
  sums ``w*y_j`` and ``w*y_j**2`` of each (centred) target. A node's impurity is the mean of
  its outputs' impurities and a split's gain the mean of their gains (scikit-learn's
  ``Criterion``: each output's impurity summed, divided by ``n_outputs``). A regression
  layout tells its number of outputs by its length; a classification layout by its sums
  (each row adds its weight once to every output's block, so the blocks sum to ``k w``:
  :func:`_class_outputs`).

A candidate is given by its left child's statistics and its parent's (the
right child is their difference, computed on the fly). A criterion is named
by an integer (``KERNEL_IDS``, from the criterion's ``name``). Each formula
that differs by criterion (:func:`impurity`, :func:`rule_impurity`,
:func:`proxy`, :func:`score_from_proxy`) is one compiled function per
criterion, in a table by id; compiled with a literal id (a growth's plan,
``_kernels_plan``) the function is that criterion's alone, inlined, so a
Gini growth compiles no other criterion and a candidate's proxy is computed
in registers, without a call. Given an id known only at run time (the split
tables, the cultivated forest) it tests the id, every criterion compiled.
"""

from functools import cache

import numpy as np
from numba import njit, types
from numba.extending import overload

from ._kernels_arrays import KERNEL, NO_C_WRAPPER
from ._kernels_multi_output import (
    MULTI_ENTROPY,
    MULTI_FRIEDMAN_MSE,
    MULTI_GINI,
    MULTI_IMPURITIES,
    MULTI_POISSON,
    MULTI_PROXIES,
    MULTI_SCORES,
    MULTI_SQUARED_ERROR,
    is_multi_output,
    multi_impurity,
    multi_proxy,
    multi_score,
)
from ._kernels_numbers import poisson_child_positive, s_log_mean, safe_divide, xlog2x

__all__ = [
    "ABSOLUTE_ERROR",
    "CHI2",
    "ENTROPY",
    "FRIEDMAN_MSE",
    "GINI",
    "KERNEL_IDS",
    "MISCLASSIFICATION",
    "MULTI_ENTROPY",
    "MULTI_FRIEDMAN_MSE",
    "MULTI_GINI",
    "MULTI_POISSON",
    "MULTI_SQUARED_ERROR",
    "POISSON",
    "REPORT_CHI2",
    "REPORT_MISCLASSIFICATION",
    "SQUARED_ERROR",
    "acceptance_loop",
    "accepts_score",
    "candidate_loop",
    "gain",
    "gain_loop",
    "impurity",
    "improvement_loop",
    "is_multi_output",
    "is_regression",
    "node_loop",
    "proxy",
    "right_weight",
    "rule_impurity",
    "score_from_proxy",
    "weight",
    "weight_first",
    "weighted_improvement",
]

(GINI, ENTROPY, MISCLASSIFICATION, CHI2, SQUARED_ERROR, REPORT_CHI2, FRIEDMAN_MSE, POISSON,
 ABSOLUTE_ERROR, REPORT_MISCLASSIFICATION) = range(10)  # fmt: skip

KERNEL_IDS = {
    "gini": GINI,
    "entropy": ENTROPY,
    "misclassification": MISCLASSIFICATION,
    "chi2": CHI2,
    "squared_error": SQUARED_ERROR,
    "report_chi2": REPORT_CHI2,
    "friedman_mse": FRIEDMAN_MSE,
    "poisson": POISSON,
    # No formula below: its errors need the node's rows (``_kernels_absolute_error``); its
    # statistics are the squared error's, read only for weights.
    "absolute_error": ABSOLUTE_ERROR,
    "report_misclassification": REPORT_MISCLASSIFICATION,
    "multi_output_gini": MULTI_GINI,
    "multi_output_entropy": MULTI_ENTROPY,
    "multi_output_squared_error": MULTI_SQUARED_ERROR,
    "multi_output_friedman_mse": MULTI_FRIEDMAN_MSE,
    "multi_output_poisson": MULTI_POISSON,
}
_INLINE = KERNEL


@njit(**_INLINE)
def is_regression(crit):
    """Whether ``crit`` is a regression criterion (statistics ``(w, w*y, third)``: ``w*y**2``,
    or Poisson's ``w*y*log y``)."""
    return crit in (SQUARED_ERROR, FRIEDMAN_MSE, POISSON, ABSOLUTE_ERROR)


@njit(**_INLINE)
def weight_first(crit):
    """Whether the first statistic of ``crit`` is the rows' weight: single-output regression's,
    and every multi-output criterion's (:func:`is_multi_output`)."""
    return is_regression(crit) or is_multi_output(crit)


@njit(**_INLINE)
def weight(stats, crit):
    """Total weight of the rows summarised by ``stats``."""
    if weight_first(crit):
        return stats[0]
    total = 0.0
    for k in range(stats.shape[0]):
        total += stats[k]
    return total


@njit(**_INLINE)
def right_weight(left, parent, crit):
    """Total weight of the right child ``parent - left``."""
    if weight_first(crit):
        return parent[0] - left[0]
    total = 0.0
    for k in range(left.shape[0]):
        total += parent[k] - left[k]
    return total


@njit(**_INLINE)
def _entropy(stats):
    """Entropy in bits, ``-sum_k p_k log2 p_k`` (0 log 0 = 0)."""
    w = weight(stats, ENTROPY)
    total = 0.0
    for k in range(stats.shape[0]):
        total += xlog2x(safe_divide(stats[k], w))
    return -total


@njit(**_INLINE)
def _smallest_present(stats, parent, sign):
    """Source 004's index of a child (``sign`` 0: ``stats``; 1: ``parent - stats``): the
    smallest count among the classes present, 0 for an empty child."""
    smallest = np.inf
    for k in range(stats.shape[0]):
        count = parent[k] - stats[k] if sign else stats[k]
        if count > 0:
            smallest = min(smallest, count)
    return smallest if smallest < np.inf else 0.0


def _compiled_by_criterion(generic, by_crit):
    """Compile ``generic(..., crit)`` (two or three arguments) as the module docstring says:
    for a literal ``crit`` the function ``by_crit[crit]`` of the other arguments; for one
    known at run time ``generic`` itself, compiled, which tests it."""
    any_crit = njit(**_INLINE)(generic)
    if generic.__code__.co_argcount == 2:

        @overload(generic, prefer_literal=True, jit_options=NO_C_WRAPPER)
        def _one(stats, crit):
            if isinstance(crit, types.IntegerLiteral):
                function = by_crit[crit.literal_value]
                return lambda stats, crit: function(stats)
            return lambda stats, crit: any_crit(stats, crit)

    else:

        @overload(generic, prefer_literal=True, jit_options=NO_C_WRAPPER)
        def _two(first, second, crit):
            if isinstance(crit, types.IntegerLiteral):
                function = by_crit[crit.literal_value]
                return lambda first, second, crit: function(first, second)
            return lambda first, second, crit: any_crit(first, second, crit)


@njit(**_INLINE)
def _gini_impurity(stats):
    """``1 - sum_k p_k^2`` (also the chi-squares')."""
    w, squares = 0.0, 0.0
    for k in range(stats.shape[0]):
        w += stats[k]
        squares += stats[k] * stats[k]
    return 1.0 - safe_divide(squares, w * w)


@njit(**_INLINE)
def _misclassification_impurity(stats):
    """``1 - max_k p_k``."""
    w, largest = 0.0, stats[0]
    for k in range(stats.shape[0]):
        w += stats[k]
        largest = max(largest, stats[k])
    return 1.0 - safe_divide(largest, w)


@njit(**_INLINE)
def _smallest_count(stats):
    """Source 004's index of a node: its smallest class count among those present."""
    return _smallest_present(stats, stats, 0)


@njit(**_INLINE)
def _poisson_impurity(stats):
    """Poisson's half deviance over the weight, ``(sum w y log y - S log(S / w)) / w``."""
    return max(safe_divide(stats[2] - s_log_mean(stats[1], stats[0]), stats[0]), 0.0)


@njit(**_INLINE)
def _variance(stats):
    """``sum w y^2 / w - (sum w y / w)^2``, at least 0."""
    mean = safe_divide(stats[1], stats[0])
    return max(safe_divide(stats[2], stats[0]) - mean * mean, 0.0)


def impurity(stats, crit):
    """Impurity of a node: Gini (also the chi-squares'), entropy, misclassification or variance
    (or source 004's smallest class count); compiled by criterion (module docstring)."""
    if is_multi_output(crit):
        return multi_impurity(stats, crit)
    if crit == ENTROPY:
        return _entropy(stats)
    if crit == REPORT_MISCLASSIFICATION:
        return _smallest_present(stats, stats, 0)
    if crit == POISSON:
        return _poisson_impurity(stats)
    if is_regression(crit):
        return _variance(stats)
    if crit == MISCLASSIFICATION:
        return _misclassification_impurity(stats)
    return _gini_impurity(stats)


def rule_impurity(stats, crit):
    """The impurity the node rules compare with ``EPSILON`` (``Criterion.rule_impurity``): the
    criterion's own, but entropy for source 004's smallest-count index, which never reaches
    0 (a pure node scores its size); the report's code stops a node at entropy 0."""
    if crit == REPORT_MISCLASSIFICATION:
        return _entropy(stats)
    return impurity(stats, crit)


# Each criterion's impurity. The absolute error's statistics are the squared error's (its
# weights are read by the node rules; its splits and impurities come from the rows:
# ``_kernels_absolute_error``).
IMPURITIES = {
    GINI: _gini_impurity,
    ENTROPY: _entropy,
    MISCLASSIFICATION: _misclassification_impurity,
    CHI2: _gini_impurity,
    SQUARED_ERROR: _variance,
    REPORT_CHI2: _gini_impurity,
    FRIEDMAN_MSE: _variance,
    POISSON: _poisson_impurity,
    ABSOLUTE_ERROR: _variance,
    REPORT_MISCLASSIFICATION: _smallest_count,
    **MULTI_IMPURITIES,
}
_compiled_by_criterion(impurity, IMPURITIES)
_compiled_by_criterion(rule_impurity, {**IMPURITIES, REPORT_MISCLASSIFICATION: _entropy})


@njit(**_INLINE)
def accepts_score(score, crit):
    """Whether a node's best candidate may split it by its score (``Criterion.accepts_score``):
    source 004's criteria need a score above 0, as the report's code keeps a candidate only
    when it beats a best score that starts at 0; the others always may."""
    if crit in (REPORT_MISCLASSIFICATION, REPORT_CHI2):
        return score > 0
    return True


@njit(**_INLINE)
def _gini_proxy(left, parent):
    """``sum_k L_k^2 / w_L + sum_k R_k^2 / w_R``."""
    w_left, s_left, w_right, s_right = 0.0, 0.0, 0.0, 0.0
    for k in range(left.shape[0]):
        right = parent[k] - left[k]
        w_left += left[k]
        s_left += left[k] * left[k]
        w_right += right
        s_right += right * right
    return safe_divide(s_left, w_left) + safe_divide(s_right, w_right)


@njit(**_INLINE)
def _entropy_proxy(left, parent):
    """``-(w_L H(S_L) + w_R H(S_R))``."""
    w_left, w_right = 0.0, 0.0
    for k in range(left.shape[0]):
        w_left += left[k]
        w_right += parent[k] - left[k]
    h_left, h_right = 0.0, 0.0
    for k in range(left.shape[0]):
        h_left += xlog2x(safe_divide(left[k], w_left))
        h_right += xlog2x(safe_divide(parent[k] - left[k], w_right))
    return -(w_left * -h_left + w_right * -h_right)


@njit(**_INLINE)
def _misclassification_proxy(left, parent):
    """``max_k L_k + max_k R_k``."""
    a, b = left[0], parent[0] - left[0]
    for k in range(1, left.shape[0]):
        a = max(a, left[k])
        b = max(b, parent[k] - left[k])
    return a + b


@njit(**_INLINE)
def _chi2_part(child_k, w_child, share):
    """One cell of Pearson's statistic: ``(O - E)^2 / E`` with ``E = w_child * share``."""
    expected = w_child * share
    deviation = child_k - expected
    return safe_divide(deviation * deviation, expected)


@njit(**_INLINE)
def _chi2_proxy(left, parent):
    """Pearson's statistic of the children's class table (``_criterion.ChiSquare``)."""
    w = weight(parent, CHI2)
    w_left, w_right = 0.0, 0.0
    for k in range(left.shape[0]):
        w_left += left[k]
        w_right += parent[k] - left[k]
    part_left, part_right = 0.0, 0.0
    for k in range(left.shape[0]):
        share = safe_divide(parent[k], w)
        part_left += _chi2_part(left[k], w_left, share)
        part_right += _chi2_part(parent[k] - left[k], w_right, share)
    return 0.0 + part_left + part_right


@njit(**_INLINE)
def _report_chi2_child(left, parent, side, w_child, w):
    """Source 004's chi-square of one child (``side`` 0: ``left``; 1: ``parent - left``), as its
    code's ``chi_square`` computes it: over the classes *present in the child*, in class
    order, ``sqrt((c - e)^2 / e)`` with the expected count ``e = w_child * (P_k / w)``.

    The terms are added as ``np.sum`` adds a short list: the first, plus the sequential sum
    of the others (exact to the last bit for up to nine classes).
    """
    first, rest, seen = 0.0, 0.0, False
    for k in range(left.shape[0]):
        count = parent[k] - left[k] if side else left[k]
        if count > 0:
            expected = w_child * safe_divide(parent[k], w)
            deviation = count - expected
            term = np.sqrt(safe_divide(deviation * deviation, expected))
            if seen:
                rest += term
            else:
                first, seen = term, True
    return first + rest


@njit(**_INLINE)
def _report_chi2_proxy(left, parent):
    """Source 004's chi-square (``_criterion.ReportChiSquare``): the child failing the test
    (the right one) plus the child passing it, in that order, as the code adds them."""
    w = weight(parent, REPORT_CHI2)
    w_left = weight(left, REPORT_CHI2)
    w_right = right_weight(left, parent, REPORT_CHI2)
    failing = _report_chi2_child(left, parent, 1, w_right, w)
    return failing + _report_chi2_child(left, parent, 0, w_left, w)


@njit(**_INLINE)
def _report_misclassification_score(left, parent):
    """Source 004's misclassification gain as its code computes it (``measure_gain`` with
    ``minimum``; ``_criterion.ReportMisclassification``): ``I(S) - ((w_R / w) I(S_R) +
    (w_L / w) I(S_L))``, the child failing the test (right) added first, in the code's
    order of operations, so that candidates of equal gain tie or differ as they do there."""
    w = weight(parent, REPORT_MISCLASSIFICATION)
    w_left = weight(left, REPORT_MISCLASSIFICATION)
    w_right = right_weight(left, parent, REPORT_MISCLASSIFICATION)
    measure = 0.0 + safe_divide(w_right, w) * _smallest_present(left, parent, 1)
    measure = measure + safe_divide(w_left, w) * _smallest_present(left, parent, 0)
    return _smallest_present(parent, parent, 0) - measure


@njit(**_INLINE)
def _squared_error_proxy(left, parent):
    """``S_L^2 / w_L + S_R^2 / w_R``."""
    right_w, right_s = parent[0] - left[0], parent[1] - left[1]
    return safe_divide(left[1] * left[1], left[0]) + safe_divide(right_s * right_s, right_w)


@njit(**_INLINE)
def _friedman_proxy(left, parent):
    """``(w_R S_L - w_L S_R)^2 / (w_L w_R)``."""
    right_w, right_s = parent[0] - left[0], parent[1] - left[1]
    diff = right_w * left[1] - left[0] * right_s
    return safe_divide(diff * diff, left[0] * right_w)


@njit(**_INLINE)
def _poisson_proxy(left, parent):
    """``S_L log(S_L / w_L) + S_R log(S_R / w_R)``; ``-inf`` where a child's sum is not
    positive (``_kernels_numbers.poisson_child_positive``)."""
    right_w, right_s = parent[0] - left[0], parent[1] - left[1]
    if not (
        poisson_child_positive(left[1], parent[1]) and poisson_child_positive(right_s, parent[1])
    ):
        return -np.inf
    return s_log_mean(left[1], left[0]) + s_log_mean(right_s, right_w)


def proxy(left, parent, crit):
    """A quantity ordering one node's candidates as the score does (``Criterion.proxy``);
    compiled by criterion (module docstring)."""
    if is_multi_output(crit):
        return multi_proxy(left, parent, crit)
    if crit == GINI:
        return _gini_proxy(left, parent)
    if crit == SQUARED_ERROR:
        return _squared_error_proxy(left, parent)
    if crit == FRIEDMAN_MSE:
        return _friedman_proxy(left, parent)
    if crit == POISSON:
        return _poisson_proxy(left, parent)
    if crit == ENTROPY:
        return _entropy_proxy(left, parent)
    if crit == MISCLASSIFICATION:
        return _misclassification_proxy(left, parent)
    if crit == CHI2:
        return _chi2_proxy(left, parent)
    if crit == REPORT_MISCLASSIFICATION:  # the score itself, in the report's arithmetic
        return _report_misclassification_score(left, parent)
    return _report_chi2_proxy(left, parent)


@njit(**_INLINE)
def _proxy_is_score(value, parent):
    """The chi-squares' and the report's misclassification: the proxy is the score."""
    return value


@njit(**_INLINE)
def _gini_score(value, parent):
    w = weight(parent, GINI)
    squares = 0.0
    for k in range(parent.shape[0]):
        squares += parent[k] * parent[k]
    return safe_divide(value - safe_divide(squares, w), w)


@njit(**_INLINE)
def _misclassification_score(value, parent):
    w = weight(parent, MISCLASSIFICATION)
    largest = parent[0]
    for k in range(1, parent.shape[0]):
        largest = max(largest, parent[k])
    return safe_divide(value - largest, w)


@njit(**_INLINE)
def _squared_error_score(value, parent):
    w = weight(parent, SQUARED_ERROR)
    return safe_divide(value - safe_divide(parent[1] * parent[1], w), w)


@njit(**_INLINE)
def _friedman_score(value, parent):
    return safe_divide(value, weight(parent, FRIEDMAN_MSE))


@njit(**_INLINE)
def _poisson_score(value, parent):
    w = weight(parent, POISSON)
    return safe_divide(value - s_log_mean(parent[1], w), w)


@njit(**_INLINE)
def _entropy_score(value, parent):
    w = weight(parent, ENTROPY)
    return safe_divide(value + w * _entropy(parent), w)


def score_from_proxy(value, parent, crit):
    """The score (gain, or the chi-square statistic) of a candidate from its proxy; compiled by
    criterion (module docstring)."""
    if crit in (CHI2, REPORT_CHI2, REPORT_MISCLASSIFICATION):  # proxies that are the score
        return value
    if is_multi_output(crit):
        return multi_score(value, parent, crit)
    if crit == GINI:
        return _gini_score(value, parent)
    if crit == MISCLASSIFICATION:
        return _misclassification_score(value, parent)
    if crit == SQUARED_ERROR:
        return _squared_error_score(value, parent)
    if crit == FRIEDMAN_MSE:
        return _friedman_score(value, parent)
    if crit == POISSON:
        return _poisson_score(value, parent)
    return _entropy_score(value, parent)


# Each criterion's proxy and score (module docstring); the absolute error's are the squared
# error's (its splits are scored from the rows: ``_kernels_absolute_error``).
PROXIES = {
    GINI: _gini_proxy,
    ENTROPY: _entropy_proxy,
    MISCLASSIFICATION: _misclassification_proxy,
    CHI2: _chi2_proxy,
    SQUARED_ERROR: _squared_error_proxy,
    REPORT_CHI2: _report_chi2_proxy,
    FRIEDMAN_MSE: _friedman_proxy,
    POISSON: _poisson_proxy,
    ABSOLUTE_ERROR: _squared_error_proxy,
    REPORT_MISCLASSIFICATION: _report_misclassification_score,
    **MULTI_PROXIES,
}
SCORES = {
    GINI: _gini_score,
    ENTROPY: _entropy_score,
    MISCLASSIFICATION: _misclassification_score,
    CHI2: _proxy_is_score,
    SQUARED_ERROR: _squared_error_score,
    REPORT_CHI2: _proxy_is_score,
    FRIEDMAN_MSE: _friedman_score,
    POISSON: _poisson_score,
    ABSOLUTE_ERROR: _squared_error_score,
    REPORT_MISCLASSIFICATION: _proxy_is_score,
    **MULTI_SCORES,
}
_compiled_by_criterion(proxy, PROXIES)
_compiled_by_criterion(score_from_proxy, SCORES)


@njit(**_INLINE)
def weighted_improvement(node_weight, total_weight, g, crit):
    """``Criterion.weighted_improvement``: ``w_t / w * G``, or ``G / w`` for Friedman's.

    Friedman's ``G`` is ``w_t`` times the squared error's gain (``FriedmanMSE``), so ``G / w``
    is the squared error's ``w_t / w * G``: scikit-learn 1.9 makes ``"friedman_mse"`` the
    squared error, whose weighted impurity decrease ``min_impurity_decrease`` bounds (before
    1.9 it compared Friedman's ``G`` itself, ``w`` times larger, and let splits below the bound
    through: ``test_min_impurity_decrease``). Best-first growth orders nodes by it as before.
    """
    if crit in (FRIEDMAN_MSE, MULTI_FRIEDMAN_MSE):
        return safe_divide(g, total_weight)
    return node_weight / total_weight * g


@njit(**_INLINE)
def gain(left, parent, crit):
    """Impurity decrease ``G`` of a split (Gini's for the chi-square criteria)."""
    if crit in (CHI2, REPORT_CHI2):
        return score_from_proxy(_gini_proxy(left, parent), parent, GINI)
    return score_from_proxy(proxy(left, parent, crit), parent, crit)


# ------------------------------------------------------------------ many nodes or candidates
# ``_criterion`` scores many nodes or candidates through these loops, one per formula and
# criterion: its closure holds the id, so numba compiles that criterion alone and caches it
# by the id (as the plans, ``_kernels_plan``). Row ``j`` (one per node or candidate) -> ``out[j]``.
_LOOP = KERNEL


@cache
def node_loop(formula, crit):
    """``each(stats, out)``: ``formula(stats[j], crit)`` of each row of ``stats``; ``formula``
    :func:`impurity` or :func:`rule_impurity` (a Python function numba compiles by its
    overload: held by the closure, it is part of the cache key by its module and name)."""

    @njit(**_LOOP)
    def each(stats, out):
        for j in range(out.shape[0]):
            out[j] = formula(stats[j], crit)

    return each


@cache
def candidate_loop(formula, crit):
    """``each(first, parent, out)``: ``formula(first[j], parent[j], crit)`` of each candidate;
    ``formula`` :func:`proxy` (``first``: the left children's statistics) or
    :func:`score_from_proxy` (``first``: the proxies), as :func:`node_loop`."""

    @njit(**_LOOP)
    def each(first, parent, out):
        for j in range(out.shape[0]):
            out[j] = formula(first[j], parent[j], crit)

    return each


@cache
def gain_loop(crit):
    """``each(left, parent, out)``: :func:`gain` of each candidate (not :func:`candidate_loop`:
    numba keys a closure's compiled function by its process's identity, and would not cache)."""

    @njit(**_LOOP)
    def each(left, parent, out):
        for j in range(out.shape[0]):
            out[j] = gain(left[j], parent[j], crit)

    return each


@cache
def acceptance_loop(crit):
    """``each(scores, out)``: :func:`accepts_score` of each score (``out`` of booleans)."""

    @njit(**_LOOP)
    def each(scores, out):
        for j in range(out.shape[0]):
            out[j] = accepts_score(scores[j], crit)

    return each


@cache
def improvement_loop(crit):
    """``each(node_weight, total_weight, gains, out)``: :func:`weighted_improvement` of each
    candidate (``node_weight`` and ``gains`` one value per candidate)."""

    @njit(**_LOOP)
    def each(node_weight, total_weight, gains, out):
        for j in range(out.shape[0]):
            out[j] = weighted_improvement(node_weight[j], total_weight, gains[j], crit)

    return each
