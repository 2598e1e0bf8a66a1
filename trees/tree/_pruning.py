"""Minimal cost-complexity pruning (Breiman, Friedman, Olshen and Stone 1984, section 3.3).

The cost-complexity of a subtree :math:`T` is

.. math::

    R_\\alpha(T) = R(T) + \\alpha |\\tilde T|, \\qquad
    R(T) = \\sum_{t \\in \\tilde T} \\frac{w_t}{w} I(t),

the weighted impurity of its leaves :math:`\\tilde T` plus :math:`\\alpha` per
leaf. For a node :math:`t` with branch :math:`T_t`, the weakest link is the
node of smallest effective alpha

.. math::

    \\alpha_{\\mathrm{eff}}(t) = \\frac{R(t) - R(T_t)}{|\\tilde T_t| - 1},

the price per leaf at which collapsing :math:`T_t` into :math:`t` costs
nothing. Pruning the weakest link again and again gives the nested sequence
of subtrees, each optimal for a range of :math:`\\alpha`; ``ccp_alpha``
keeps the last subtree whose weakest link is at most ``ccp_alpha``.

This is scikit-learn's ``_cost_complexity_prune`` (``sklearn/tree/_tree.pyx``)
step for step, so its path (alphas and subtree impurities) is scikit-learn's
on the same tree: leaves' impurities are bubbled up to their ancestors in
node order, ties between equal effective alphas go to the lowest node id
(this package numbers nodes level by level, scikit-learn depth first, so
exact ties may be pruned in another order; the alphas are the same).
"""

import numpy as np
from numba import njit

__all__ = ["cost_complexity_path", "prune"]

_JIT = {"cache": True, "nogil": True, "error_model": "numpy"}


@njit(**_JIT)
def _weakest_links(left, right, weighted_n_samples, impurity, ccp_alpha, stop_at_alpha):
    """Prune weakest links until the root is a leaf (or, with ``stop_at_alpha``, past ``ccp_alpha``).

    Returns
    -------
    alphas, impurities : ndarray
        The path: each step's effective alpha (0 first) and the weighted
        impurity of the subtree's leaves after it.
    n_steps : int
        How many entries of the path are filled.
    in_subtree, leaf_in_subtree : ndarray of uint8
        The nodes of the pruned subtree, and which of them are its leaves.
    """
    n_nodes = left.shape[0]
    total = weighted_n_samples[0]
    r_node = weighted_n_samples * impurity / total
    parent = np.full(n_nodes, -1, dtype=np.int64)
    leaf_in_subtree = np.zeros(n_nodes, dtype=np.uint8)
    for node in range(n_nodes):
        if left[node] == -1:
            leaf_in_subtree[node] = 1
        else:
            parent[left[node]] = node
            parent[right[node]] = node
    # Each branch's leaf count and weighted leaf impurity, leaves bubbled up in node order.
    n_leaves = np.zeros(n_nodes, dtype=np.int64)
    r_branch = np.zeros(n_nodes)
    for leaf in range(n_nodes):
        if not leaf_in_subtree[leaf]:
            continue
        r_branch[leaf] = r_node[leaf]
        node = leaf
        while node != 0:
            node = parent[node]
            r_branch[node] += r_node[leaf]
            n_leaves[node] += 1
    candidate = 1 - leaf_in_subtree
    in_subtree = np.ones(n_nodes, dtype=np.uint8)
    alphas, impurities = np.zeros(n_nodes + 1), np.zeros(n_nodes + 1)
    alphas[0], impurities[0], n_steps = 0.0, r_branch[0], 1
    stack = np.empty(n_nodes, dtype=np.int64)
    while candidate[0]:
        effective, weakest = np.inf, -1
        for node in range(n_nodes):
            if candidate[node]:
                alpha = (r_node[node] - r_branch[node]) / (n_leaves[node] - 1)
                if alpha < effective:
                    effective, weakest = alpha, node
        if stop_at_alpha and ccp_alpha < effective:
            break
        # The weakest branch's descendants leave the subtree; its root becomes a leaf.
        stack[0], top = weakest, 1
        while top > 0:
            top -= 1
            node = stack[top]
            if not in_subtree[node]:
                continue
            candidate[node], leaf_in_subtree[node], in_subtree[node] = 0, 0, 0
            if left[node] != -1:
                stack[top], stack[top + 1] = left[node], right[node]
                top += 2
        leaf_in_subtree[weakest], in_subtree[weakest] = 1, 1
        n_pruned = n_leaves[weakest] - 1
        n_leaves[weakest] = 0
        r_diff = r_node[weakest] - r_branch[weakest]
        r_branch[weakest] = r_node[weakest]
        node = parent[weakest]
        while node != -1:
            n_leaves[node] -= n_pruned
            r_branch[node] += r_diff
            node = parent[node]
        alphas[n_steps], impurities[n_steps] = effective, r_branch[0]
        n_steps += 1
    return alphas, impurities, n_steps, in_subtree, leaf_in_subtree


def _links(tree, ccp_alpha, stop_at_alpha):
    return _weakest_links(
        np.ascontiguousarray(tree.left, dtype=np.int64),
        np.ascontiguousarray(tree.right, dtype=np.int64),
        np.ascontiguousarray(tree.weighted_n_samples, dtype=np.float64),
        np.ascontiguousarray(tree.impurity, dtype=np.float64),
        float(ccp_alpha),
        stop_at_alpha,
    )


def cost_complexity_path(tree):
    """The minimal cost-complexity pruning path of a fitted :class:`~trees.tree.Tree`.

    Returns
    -------
    ccp_alphas : ndarray
        The effective alphas of the nested subtrees, increasing, 0 first.
    impurities : ndarray
        The weighted impurity of the leaves of each subtree (module docstring).
    """
    alphas, impurities, n_steps, _, _ = _links(tree, 0.0, False)
    return alphas[:n_steps].copy(), impurities[:n_steps].copy()


def prune(tree, ccp_alpha):
    """The subtree of ``tree`` that minimal cost-complexity pruning keeps for ``ccp_alpha``.

    The subtree the weakest-link loop stops at (the last whose weakest link
    costs at most ``ccp_alpha``).

    Returns
    -------
    pruned : Tree
        ``tree`` itself when nothing is pruned.
    kept : ndarray of int
        The old id of each node of ``pruned`` (:meth:`Tree.pruned`).
    """
    _, _, _, in_subtree, leaf_in_subtree = _links(tree, ccp_alpha, True)
    cut = np.flatnonzero(
        in_subtree.astype(bool) & leaf_in_subtree.astype(bool) & (tree.feature >= 0)
    )
    if cut.size == 0:
        return tree, np.arange(tree.node_count)
    return tree.pruned(cut)
