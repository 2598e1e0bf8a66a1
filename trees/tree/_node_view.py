"""What the nodes of a growing tree hold, read by attribute: :class:`NodeView`.

``growth.nodes.feature``, ``.threshold``, ``.value``, ``.impurity``,
``.improvement``... read the node store of the compiled growth loop
(``_kernels_growth``) of a :class:`~trees.tree._growth.GrowingTree`. Values
and impurities come from each node's statistics with the numpy criteria,
or, for regression, from each node's own rows: the mean of its targets
(``_kernels_node_values.node_means``), or their weighted median and absolute
error (``_kernels_absolute_error.node_medians``).
"""

import numpy as np

from ._kernels_absolute_error import node_medians
from ._kernels_growth import (
    DEPTH,
    FEATURE,
    LEFT,
    MISSING_LEFT,
    N_SAMPLES,
    RIGHT,
    START,
    STORE_FLOATS,
    STORE_INTS,
    STORE_STATS,
    THRESHOLD,
)
from ._kernels_node_values import node_means

__all__ = ["NodeView", "impurity_decrease"]


class NodeView:
    """Read access to the node store by attribute: ``nodes.feature``, ``nodes.value``..."""

    _INTS = {
        "feature": FEATURE,
        "left": LEFT,
        "right": RIGHT,
        "n_samples": N_SAMPLES,
        "depth": DEPTH,
        "start": START,
        "missing_left": MISSING_LEFT,
    }

    def __init__(self, growth):
        self._growth = growth

    @property
    def size(self):
        return self._growth.size

    def __getattr__(self, name):
        growth = self._growth
        if name in self._INTS:
            return growth.store[STORE_INTS][: growth.size, self._INTS[name]]
        if name == "threshold":
            return growth.store[STORE_FLOATS][: growth.size, THRESHOLD]
        raise AttributeError(name)

    @property
    def stats(self):
        """Statistics of every node, shape (n_stats, size)."""
        return self._growth.store[STORE_STATS][: self._growth.size].T

    @property
    def weighted_n_samples(self):
        return self._growth.criterion.weight(self.stats)

    @property
    def impurity(self):
        """The compiled growth's (``GrowingTree.grown_impurity``), or the criterion's formula of
        the statistics (the same function), or under the absolute error from the rows."""
        growth = self._growth
        if growth.criterion.needs_rows:
            return self._medians()[1]
        if growth.grown_impurity is not None:
            return growth.grown_impurity
        return growth.criterion.impurity(self.stats)

    def _medians(self):
        """Each node's weighted median and absolute-error impurity, from its rows
        (``_kernels_absolute_error.node_medians``), shape (2, size); computed once per size of
        the tree (``value`` and ``impurity`` both read it, and only estimators grow under the
        absolute error: the grower, which undoes splits, refuses it)."""
        growth = self._growth
        cached = getattr(growth, "_median_cache", None)  # on the growth: views are made anew
        if cached is not None and cached.shape[1] == self.size:
            return cached
        out = np.empty((2, self.size))
        contiguous = np.ascontiguousarray  # one compiled specialisation for every caller
        node_medians(growth.rows, growth.targets, contiguous(growth._stats_by_row[:, 0]),
                     contiguous(self.start), contiguous(self.n_samples), out)  # fmt: skip
        growth._median_cache = out
        return out

    @property
    def value(self):
        """Class shares, or the regression mean of each node's rows (exact for a pure node), or
        their weighted median (the absolute error)."""
        growth = self._growth
        if growth.criterion.needs_rows:
            return self._medians()[0][:, None]
        if growth.criterion.is_classification:
            return growth.criterion.value(self.stats)
        if growth.raw_targets:
            means = np.empty(self.size)
            contiguous = np.ascontiguousarray  # one compiled specialisation for every caller
            node_means(growth.rows[0], growth.targets, contiguous(growth._stats_by_row[:, 0]),
                       contiguous(self.start), contiguous(self.n_samples), means)  # fmt: skip
            return means[:, None]
        return growth.criterion.value(self.stats) + growth.value_offset

    @property
    def improvement(self):
        """Weighted impurity decrease of each split (0 at leaves): :func:`impurity_decrease`."""
        return impurity_decrease(
            self.weighted_n_samples * self.impurity,
            self.feature,
            self.left,
            self.right,
            self._growth.total_weight,
        )


def impurity_decrease(weighted_impurity, feature, left, right, total_weight):
    """Weighted impurity decrease ``(w_t I_t - w_L I_L - w_R I_R) / w`` of each split (0 at
    leaves), from the nodes' ``w_t I_t``, as scikit-learn's feature importances.

    One rule for the growth's node view and for a fitted tree's arrays (``Tree``'s
    ``weighted_n_samples * impurity``), which hold the same numbers.
    """
    out = np.zeros(feature.shape[0])
    internal = np.flatnonzero(feature >= 0)
    decrease = (
        weighted_impurity[internal]
        - weighted_impurity[left[internal]]
        - weighted_impurity[right[internal]]
    )
    out[internal] = decrease / total_weight
    return out
