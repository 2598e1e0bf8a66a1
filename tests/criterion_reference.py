"""The split criteria in numpy, readable: the reference the compiled formulas are tested against.

The package computes each criterion's formulas once, compiled
(``trees/tree/_kernels_criteria.py``), for one candidate at a time and, through compiled
loops, for many (``trees/tree/_criterion.py``). These are the same formulas written over
whole arrays, statistics along the first axis, in the same order of operations, as the
package computed them in numpy before (source 004, section 4.1; scikit-learn's
``_criterion.pyx``): ``impurity(name, stats)``, ``proxy(name, left, parent)`` and
``score(name, left, parent)``.
"""

import numpy as np

# A Poisson child's sum at most this (times the parent's above 1) is not positive (scikit-learn's
# ``_criterion.pyx``; ``_kernels_numbers.poisson_child_positive``).
POISSON_EPSILON = 10 * np.finfo(np.float64).eps


def _divide(num, den):
    """``num / den`` with 0 where ``den`` is not positive."""
    num, den = np.asarray(num, dtype=np.float64), np.asarray(den, dtype=np.float64)
    out = np.zeros(np.broadcast(num, den).shape)
    np.divide(num, den, out=out, where=den > 0)
    return out


def _xlogx(p):
    logs = np.zeros_like(p)
    np.log2(p, out=logs, where=p > 0)
    return p * logs


def _s_log_mean(stats):
    """Poisson's ``S log(S / w)``, 0 where ``S <= 0``."""
    s, w = stats[1], stats[0]
    positive = (s > 0) & (w > 0)
    return np.where(positive, s * np.log(np.where(positive, _divide(s, w), 1.0)), 0.0)


def _smallest_present(stats):
    """Source 004's index: the smallest count among the classes present (0 when empty)."""
    smallest = np.where(stats > 0, stats, np.inf).min(axis=0)
    return np.where(np.isfinite(smallest), smallest, 0.0)


def _gini(stats):
    w = stats.sum(axis=0)
    return 1.0 - _divide((stats * stats).sum(axis=0), w * w)


def _variance(stats):
    mean = _divide(stats[1], stats[0])
    return np.maximum(_divide(stats[2], stats[0]) - mean * mean, 0.0)


IMPURITIES = {
    "gini": _gini,
    "entropy": lambda s: -_xlogx(_divide(s, s.sum(axis=0))).sum(axis=0),
    "misclassification": lambda s: 1.0 - _divide(s.max(axis=0), s.sum(axis=0)),
    "chi2": _gini,
    "report_chi2": _gini,
    "report_misclassification": _smallest_present,
    "squared_error": _variance,
    "friedman_mse": _variance,
    "poisson": lambda s: np.maximum(_divide(s[2] - _s_log_mean(s), s[0]), 0.0),
}


def impurity(name, stats):
    """Impurity of the rows summarised by ``stats``."""
    return IMPURITIES[name](stats)


def _weighted_impurities(name, left, right):
    """``-(w_L I(S_L) + w_R I(S_R))`` (the entropy's proxy)."""
    weight = lambda s: s.sum(axis=0)  # noqa: E731
    return -(weight(left) * impurity(name, left) + weight(right) * impurity(name, right))


def _chi2(left, right, parent):
    """Pearson's statistic of the children's class table."""
    shares = _divide(parent, parent.sum(axis=0))
    statistic = 0.0
    for child in (left, right):
        expected = child.sum(axis=0) * shares
        statistic = statistic + _divide((child - expected) ** 2, expected).sum(axis=0)
    return statistic


def _report_chi2_child(child, shares):
    """One child's sum of source 004's chi-square: its first present class's term plus the
    sequential sum of the others' (as ``np.sum`` adds a short list)."""
    w_child = child.sum(axis=0)
    first, rest = np.zeros(np.shape(w_child)), np.zeros(np.shape(w_child))
    seen = np.zeros(np.shape(w_child), dtype=bool)
    for k in range(child.shape[0]):
        deviation = child[k] - w_child * shares[k]
        term = np.sqrt(_divide(deviation * deviation, w_child * shares[k]))
        present = child[k] > 0
        rest = np.where(present & seen, rest + term, rest)
        first = np.where(present & ~seen, term, first)
        seen = seen | present
    return first + rest


def _report_chi2(left, right, parent):
    shares = _divide(parent, parent.sum(axis=0))
    return _report_chi2_child(right, shares) + _report_chi2_child(left, shares)


def _report_misclassification(left, right, parent):
    """``I(S) - (0 + (w_R / w) I(S_R) + (w_L / w) I(S_L))``, the failing child first."""
    w = parent.sum(axis=0)
    measure = 0.0 + _divide(right.sum(axis=0), w) * _smallest_present(right)
    measure = measure + _divide(left.sum(axis=0), w) * _smallest_present(left)
    return _smallest_present(parent) - measure


def _poisson(left, right, parent):
    value = _s_log_mean(left) + _s_log_mean(right)
    bound = POISSON_EPSILON * np.maximum(parent[1], 1.0)  # scaled above a sum of 1
    return np.where((left[1] <= bound) | (right[1] <= bound), -np.inf, value)


def _friedman(left, right, parent):
    diff = right[0] * left[1] - left[0] * right[1]
    return _divide(diff * diff, left[0] * right[0])


PROXIES = {
    "gini": lambda left, right, parent: (
        _divide((left * left).sum(axis=0), left.sum(axis=0))
        + _divide((right * right).sum(axis=0), right.sum(axis=0))
    ),
    "entropy": lambda left, right, parent: _weighted_impurities("entropy", left, right),
    "misclassification": lambda left, right, parent: left.max(axis=0) + right.max(axis=0),
    "chi2": _chi2,
    "report_chi2": _report_chi2,
    "report_misclassification": _report_misclassification,
    "squared_error": lambda left, right, parent: (
        _divide(left[1] * left[1], left[0]) + _divide(right[1] * right[1], right[0])
    ),
    "friedman_mse": _friedman,
    "poisson": _poisson,
}

# The score from the proxy and the parent's statistics.
SCORES = {
    "gini": lambda p, s: _divide(p - _divide((s * s).sum(axis=0), s.sum(axis=0)), s.sum(axis=0)),
    "entropy": lambda p, s: _divide(p + s.sum(axis=0) * impurity("entropy", s), s.sum(axis=0)),
    "misclassification": lambda p, s: _divide(p - s.max(axis=0), s.sum(axis=0)),
    "chi2": lambda p, s: p,
    "report_chi2": lambda p, s: p,
    "report_misclassification": lambda p, s: p,
    "squared_error": lambda p, s: _divide(p - _divide(s[1] * s[1], s[0]), s[0]),
    "friedman_mse": lambda p, s: _divide(p, s[0]),
    "poisson": lambda p, s: _divide(p - _s_log_mean(s), s[0]),
}


def proxy(name, left, parent):
    """The proxy of candidates (left children ``left``, parents ``parent``)."""
    return PROXIES[name](left, parent - left, parent)


def score(name, left, parent):
    """The score of candidates: the gain, or the chi-square statistic."""
    return SCORES[name](proxy(name, left, parent), parent)
