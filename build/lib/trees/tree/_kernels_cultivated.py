"""Compiled pieces of the cultivated forest (source 002): candidates grouped by value, neighbourhoods.

The cultivated forest (``trees/ensemble/_cultivated.py``) searches a node
with the one split search (``_splitter.search_splits``, whose proxies come
from ``_kernels_search.fill_candidates``) over its fractional rows; these
kernels then read that table for every feature of the node at once:

* the feature's distinct values in the node, the weight of the rows at each
  value, and the score of the split "x <= value" (0 where there is none:
  the largest value, or a side without rows);
* its best split point ``t0`` (the first best candidate, as the table's);
* the robust neighbourhood ``T(t0)`` of eq. 2 and its weights ``phi``.

Layout: ``xs``/``rows`` are the node's sorted orders (one segment starting
at 0), ``proxy`` the table's proxies, ``weights`` the rows' fractions
(indexed by row id), ``parent`` the node's statistics.
"""

import numpy as np
from numba import njit

from ._kernels_criteria import score_from_proxy

__all__ = ["neighbourhood", "node_neighbourhoods", "value_groups"]

_JIT = {"cache": True, "nogil": True, "error_model": "numpy"}
# Weights within this of k count as k (``_cultivated._TINY``).
_TINY = 1e-12


@njit(**_JIT)
def value_groups(xs, rows, f, count, proxy, weights, parent, crit, out):
    """Distinct values of feature ``f`` in the node, their weights and the scores of their splits.

    ``out`` is ``(values, value_weights, scores)``, each with room for
    ``count`` entries. Weights are summed in the sorted order (rows of one
    value in row order, as ``np.bincount``).

    Returns
    -------
    n_values : int
    best : int
        Index (in ``values``) of the first best candidate; -1 when none.
    """
    values, value_weights, scores = out
    best, best_proxy, m = -1, -np.inf, 0
    for p in range(count):
        if p == 0 or xs[f, p] != xs[f, p - 1]:
            values[m], value_weights[m] = xs[f, p], 0.0
            m += 1
        value_weights[m - 1] += weights[rows[f, p]]
        if p == count - 1 or xs[f, p + 1] != xs[f, p]:  # the last row of the value: a candidate
            value = proxy[f, p]
            scores[m - 1] = score_from_proxy(value, parent, crit) if value > -np.inf else 0.0
            if value > best_proxy:
                best, best_proxy = m - 1, value
    return m, best


@njit(**_JIT)
def neighbourhood(value_weights, n_values, center, k, chosen, phi):
    """The robust neighbourhood of eq. 2 around value ``center`` (``_cultivated.robust_neighbourhood``).

    Values are taken outwards from ``center`` on each side until ``k`` full
    observations of weight are reached, the border value taking the
    remainder of ``k``. Writes the indices of the values taken, in
    increasing order, to ``chosen`` and their weights to ``phi``.

    Returns
    -------
    int
        How many values were taken.
    """
    n_left, taken, index = 0, 0.0, center - 1
    while index >= 0 and taken < k - _TINY:
        take = min(value_weights[index], k - taken)
        chosen[n_left], phi[n_left] = index, take  # written in reverse order, flipped below
        taken, index, n_left = taken + take, index - 1, n_left + 1
    chosen[:n_left], phi[:n_left] = chosen[:n_left][::-1].copy(), phi[:n_left][::-1].copy()
    chosen[n_left], phi[n_left] = center, value_weights[center]
    n = n_left + 1
    taken, index = 0.0, center + 1
    while index < n_values and taken < k - _TINY:
        take = min(value_weights[index], k - taken)
        chosen[n], phi[n] = index, take
        taken, index, n = taken + take, index + 1, n + 1
    return n


@njit(**_JIT)
def node_neighbourhoods(xs, rows, count, proxy, weights, parent, crit, k, out):
    """Every feature's split point and neighbourhood in one node.

    ``out`` is ``(best, best_score, n_chosen, thresholds, phi, scores)``,
    one row per feature: the index of ``t0`` (-1 when the feature has no
    candidate), its score, and the neighbourhood's values, weights ``phi``
    and split scores (the first ``n_chosen`` entries of the row). With
    ``k <= 0`` the neighbourhood is ``t0`` alone, weight 1 (a plain split).
    """
    best_out, best_score, n_chosen, thresholds, phi, scores_out = out
    groups = (np.empty(count), np.empty(count), np.empty(count))
    chosen = np.empty(count, dtype=np.int64)
    for f in range(xs.shape[0]):
        m, best = value_groups(xs, rows, f, count, proxy, weights, parent, crit, groups)
        best_out[f] = best
        if best < 0:
            n_chosen[f] = 0
            continue
        values, value_weights, scores = groups
        best_score[f] = scores[best]
        if k <= 0:
            n, chosen[0], phi[f, 0] = 1, best, 1.0
        else:
            n = neighbourhood(value_weights, m, best, k, chosen, phi[f])
        n_chosen[f] = n
        for j in range(n):
            thresholds[f, j] = values[chosen[j]]
            scores_out[f, j] = scores[chosen[j]]
