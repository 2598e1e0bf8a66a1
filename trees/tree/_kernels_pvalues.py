"""The permutation test of an ordered feature's best threshold, compiled (source 001).

:func:`best_gini_gains` scores the best Gini gain over the thresholds of
one sorted feature for the observed labels and for each permutation of them,
one pass per permutation with running class counts. Each threshold is scored
by the criteria's own compiled Gini formulas (``_kernels_criteria``: its proxy
per threshold, the gain of the best proxy), on exact integer counts, so the
gains, and hence the p-values and the trees grown on them, are those a Gini
split table gives.
"""

import numpy as np
from numba import njit

from ._kernels_criteria import GINI, PROXIES, SCORES

__all__ = ["best_gini_gains"]

_gini_proxy = PROXIES[GINI]
_gini_score = SCORES[GINI]


@njit(cache=True, nogil=True)
def best_gini_gains(xs, labels, orders, n_classes, out):
    """Best Gini gain of each labelling of the rows of sorted ``xs``.

    Parameters
    ----------
    xs : ndarray of shape (n,)
        The feature's values, sorted; a threshold lies between two different values.
    labels : ndarray of int64, shape (n,)
        The class of each row, in the order of ``xs``.
    orders : ndarray of int64, shape (B, n)
        Permutations of ``0..n-1``: labelling ``b + 1`` is ``labels[orders[b]]``.
    n_classes : int
    out : ndarray of shape (B + 1,)
        Receives the best gain of the observed labels (``out[0]``) and of each
        permutation; ``-inf`` when ``xs`` is constant.

    Notes
    -----
    For a split after row ``i``: ``proxy = sum_c L_c^2 / n_L + sum_c R_c^2 / n_R``,
    ``gain = (proxy - sum_c S_c^2 / n) / n``, with class counts ``L_c`` left,
    ``R_c = S_c - L_c`` right and ``S_c`` in all (source 001, eq. 2). The gain
    grows with the proxy (and rounding keeps that order), so the best gain is
    the gain of the best proxy.
    """
    n = xs.shape[0]
    totals = np.zeros(n_classes)
    for i in range(n):
        totals[labels[i]] += 1.0
    left = np.empty(n_classes)
    for b in range(orders.shape[0] + 1):
        left[:] = 0.0
        best = -np.inf
        for i in range(n - 1):
            label = labels[i] if b == 0 else labels[orders[b - 1, i]]
            left[label] += 1.0
            if xs[i + 1] > xs[i]:
                best = max(best, _gini_proxy(left, totals))
        out[b] = _gini_score(best, totals) if best > -np.inf else -np.inf
