"""The feature draw of a sparse node: which drawn features a sparse growth's node visits.

A tree that draws its features (``max_features``) visits, at each node, the first
``n_allowed`` non-constant features in the order of the dense draw's keys
(``_kernels_search.visiting_order``). On a sparse matrix a feature's constancy is read from
its stored values in the node (``_kernels_sparse_search.feature_in_node``), so the draw reads
a feature only when it reaches it in key order: :func:`drawn_sparse_order`. The rest of the
sparse search is ``_kernels_sparse_search``'s.
"""

import numpy as np
from numba import njit

from ._kernels_sparse_search import feature_in_node, values_separable
from ._kernels_uniform import uniforms

__all__ = ["drawn_sparse_order"]

_JIT = {"cache": True, "nogil": True, "error_model": "numpy"}


@njit(**_JIT)
def _constant_in_node(gathered, count):
    """Whether a feature's values in a node span at most ``FEATURE_THRESHOLD`` (the dense
    search's rule for a node without missing rows), from its gathered stored values
    (``(values, first, m)``: at ``[first, first + m)``)."""
    values, first, m = gathered
    lo, hi = (0.0, 0.0) if m < count else (np.inf, -np.inf)
    for i in range(first, first + m):
        lo, hi = min(lo, values[i]), max(hi, values[i])
    return not values_separable(lo, hi)


@njit(**_JIT)
def _non_constant_in_order(source, node, by_key, n_allowed, order, buckets):
    """Write in ``order`` the first ``n_allowed`` features of ``by_key`` not constant in the
    node (fewer when ``by_key`` runs out), their values left in ``buckets``; how many."""
    n_visit, at = 0, 0
    for i in range(by_key.shape[0]):
        if n_visit == n_allowed:
            break
        f = by_key[i]
        first, m = feature_in_node(source, node, f, buckets, at)
        if not _constant_in_node((buckets[2], first, m), node[1]):
            order[n_visit] = f
            n_visit += 1
            at += m  # kept for the search
    return n_visit


@njit(**_JIT)
def _by_key(keys, bucketed, lengths):
    """The features in increasing ``keys``, those that may be not constant in a node: with its
    values ``bucketed`` only the features it stores a value of (``lengths[f] > 0``: the others'
    values are all implicit zeros, a constant), every feature otherwise. In a node of a few
    rows that is a few features, sorted instead of every one."""
    if not bucketed:
        return np.argsort(keys)
    stored = np.flatnonzero(lengths > 0)
    return stored[np.argsort(keys[stored])]


@njit(**_JIT)
def drawn_sparse_order(source, node, bit_generator, tie_random, n_allowed, order, buckets):
    """``_kernels_search.visiting_order``'s drawn feature subset and order of a node, its
    features' constancy read from their stored values (:func:`feature_in_node`, which leaves
    the visited features' values in ``buckets``).

    The dense draw gives each feature a key from ``bit_generator`` (``n_features`` draws, the
    same here), adds 1 to a constant feature's, and visits the ``n_allowed`` smallest keys, in
    key order (``tie_random``) or index order. A constant feature offers no candidate, so the
    search's result depends only on the non-constant features it visits: the first
    ``n_allowed`` non-constant ones in key order. They are found walking the keys in order,
    reading features only until that many are found (at a large node, the first
    ``n_allowed``, as scikit-learn's splitter reads only the features it draws): the dense
    search's choice, to the bit (keys tie with probability 0). The walk first sorts only the
    keys below ``(2 n_allowed + 16) / n_features`` (about that many: the keys are uniform), a
    prefix of the whole order, and sorts every key only when that prefix runs out: a node
    then sorts a few dozen keys, not ``n_features``; a node whose values are bucketed
    (``_kernels_sparse_growth.buckets_cheaper``) then sorts only the features it stores values
    of (:func:`_by_key`). ``node`` is ``(start, count)``.

    Returns
    -------
    int
        How many features of ``order`` to visit.
    """
    n_features = order.shape[0]
    keys = uniforms(bit_generator, n_features)
    limit = (2.0 * n_allowed + 16.0) / n_features
    n_visit = -1
    if limit < 1.0:
        below = np.flatnonzero(keys < limit)
        prefix = below[np.argsort(keys[below])]
        n_visit = _non_constant_in_order(source, node, prefix, n_allowed, order, buckets)
    if n_visit < n_allowed:  # the prefix ran out (or was the whole order): every key sorted
        n_visit = _non_constant_in_order(source, node, _by_key(keys, source[0], buckets[1]),
                                         n_allowed, order, buckets)  # fmt: skip
    if not tie_random:
        order[:n_visit].sort()
    return n_visit
