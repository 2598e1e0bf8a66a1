"""Which rows can the other test, or the other precision, send elsewhere: one compiled scan.

The two tests send a row apart only at a node whose threshold equals its
value, and the two precisions only where rounding moves a value across or
onto a threshold of its feature. One binary search of each value among its
feature's sorted thresholds tells both (the thresholds next to it bound the
rounded value), and which thresholds some row sits on (source 000's rho
counts those splits). Written as a compiled loop: NumPy's ``searchsorted``
of unsorted values took longer than CatBoost's whole prediction.
"""

import numpy as np
from numba import njit

__all__ = ["scan_thresholds", "threshold_table"]

_JIT = {"cache": True, "nogil": True, "error_model": "numpy"}


@njit(**_JIT)
def _scan(X, Xq, features, starts, thresholds, on_threshold, moved, hit):
    """For each listed feature ``features[f]`` with sorted thresholds
    ``thresholds[starts[f]:starts[f + 1]]``: rows whose value is one of them
    (``on_threshold``), rows whose value in the other precision ``Xq`` lies on the other
    side of one or on it (``moved``), and the thresholds some row equals (``hit``)."""
    for f in range(features.shape[0]):
        j = features[f]
        lo, hi = starts[f], starts[f + 1]
        for i in range(X.shape[0]):
            x = X[i, j]
            if x != x:
                continue
            a, b = lo, hi  # the first threshold >= x
            while a < b:
                middle = (a + b) >> 1
                if thresholds[middle] < x:
                    a = middle + 1
                else:
                    b = middle
            if a < hi and thresholds[a] == x:
                on_threshold[i] = True
                hit[a] = True
            q = Xq[i, j]
            if q > x:  # a threshold in (x, q]: the first one >= x is at most q
                moved[i] |= a < hi and thresholds[a] <= q
            elif q < x:  # a threshold in [q, x): the last one below x is at least q
                moved[i] |= a > lo and thresholds[a - 1] >= q


def threshold_table(feature, threshold):
    """Each feature's sorted distinct thresholds, for :func:`scan_thresholds` (a property of
    the model: ``Pack`` keeps it). Returns (features, starts, thresholds, the nodes with a
    threshold, each one's entry)."""
    nodes = (feature >= 0) & ~np.isnan(threshold)
    order = np.lexsort((threshold[nodes], feature[nodes]))
    keys_f, keys_t = feature[nodes][order], threshold[nodes][order]
    new = np.ones(order.size, dtype=bool)
    new[1:] = (keys_f[1:] != keys_f[:-1]) | (keys_t[1:] != keys_t[:-1])
    entry = np.empty(order.size, dtype=np.int64)
    entry[order] = np.cumsum(new) - 1
    distinct_f, distinct_t = keys_f[new], keys_t[new]
    features, first = np.unique(distinct_f, return_index=True)
    starts = np.append(first, distinct_f.size).astype(np.int64)
    return features.astype(np.int64), starts, np.ascontiguousarray(distinct_t), nodes, entry


def scan_thresholds(table, feature, threshold, X, Xq, as_zero=None):
    """Rows on a threshold of their feature, rows the other precision moves across one, and
    the nodes whose threshold some row equals.

    Parameters
    ----------
    table : tuple
        :func:`threshold_table` of the nodes.
    feature, threshold : ndarray of shape (n_nodes,)
        The nodes' features (negative: not a threshold node) and thresholds (NaN: none).
    X, Xq : ndarray of shape (n_samples, n_features)
        The rows in the model's precision, and in the other.
    as_zero : ndarray of shape (n_nodes,), bool, optional
        Nodes that read a missing value as 0 (LightGBM): a missing value is on their
        threshold when it is 0.

    Returns
    -------
    on_threshold, moved : ndarray of shape (n_samples,), bool
    on_value : ndarray of shape (n_nodes,), bool
    """
    features, starts, thresholds, nodes, entry = table
    on_threshold = np.zeros(X.shape[0], dtype=np.bool_)
    moved = np.zeros(X.shape[0], dtype=np.bool_)
    hit = np.zeros(thresholds.shape[0], dtype=np.bool_)
    _scan(X, Xq, features, starts, thresholds, on_threshold, moved, hit)
    on_value = np.zeros(feature.shape[0], dtype=bool)
    on_value[nodes] = hit[entry]
    if as_zero is not None and as_zero.any():
        zero = np.unique(feature[as_zero & (threshold == 0.0)])
        if zero.size:
            on_threshold |= np.isnan(X[:, zero]).any(axis=1)
    return on_threshold, moved, on_value
