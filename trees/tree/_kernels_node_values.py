"""Regression node values in compiled code: each node's mean target, from its own rows.

A node's value is the weighted mean of its rows' targets, summed from the
rows themselves rather than from the node's statistics (centred sums plus
their offset, or a parent's sums minus a sibling's, round off it): issue 29's
rule, shared by a growth's tree (``_node_view``) and a forest's batches
(``_kernels_forest``).
"""

import numpy as np
from numba import njit

from ._kernels_arrays import KERNEL

__all__ = ["node_means"]

_JIT = KERNEL


@njit(**_JIT)
def node_means(rows, targets, weights, starts, counts, out):
    """Each node's weighted mean target, summed from its own rows (regression values).

    ``rows`` lists row ids so that node ``i`` owns ``rows[starts[i]:starts[i] +
    counts[i]]``. A node whose weighted rows all share one target gets that
    target itself, so a pure leaf predicts its value exactly (a sum of equal
    terms divided by their weight may round off it, and a mean of centred
    targets plus their offset does: issue 29). A node without weight gets 0.
    """
    for node in range(starts.shape[0]):
        start, count = starts[node], counts[node]
        total, weight_sum, first, constant = 0.0, 0.0, np.nan, True
        for i in range(count):
            row = rows[start + i]
            w = weights[row]
            if w <= 0:
                continue
            if first != first:
                first = targets[row]
            elif targets[row] != first:
                constant = False
            total += w * targets[row]
            weight_sum += w
        if weight_sum <= 0:
            out[node] = 0.0
        else:
            out[node] = first if constant else total / weight_sum
