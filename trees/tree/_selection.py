"""How a node picks its split variable among each feature's best split (``selection``).

* ``"gain"``: the largest score (CART);
* ``"p_value"``: the smallest p-value (source 001, section 3): the permutation
  p-value of an ordered feature's best threshold, the Gamma-corrected Gini
  p-value of a categorical feature's k-ary table; ties go to the larger
  score, then to the feature visited first.

Each rule takes the growing tree (``_growth.GrowingTree``), the node batch,
the node's index in it and its options (``_growth.Choice``), and returns the
option taken.
"""

import numpy as np

from ._pvalues import permutation_orders, permutation_pvalue, split_criteria

__all__ = ["SELECTIONS"]


def _visit_rank(growth, i):
    """Rank of each feature in node ``i``'s visiting order (the tie-break)."""
    return np.arange(growth.n_features) if growth._rank is None else growth._rank[i]


def _pick_by_score(growth, batch, i, options):
    """The option with the largest score; ties go to the feature visited first."""
    rank = _visit_rank(growth, i)
    return max(options, key=lambda c: (c.score, -rank[c.feature]))


def _pick_by_p_value(growth, batch, i, options):
    """The option with the smallest p-value (source 001); ties: larger score, feature visited first."""
    start, stop = batch.seg_start[i], batch.seg_start[i] + batch.seg_count[i]
    labels = np.argmax(growth.row_stats, axis=0)
    n_classes = growth.row_stats.shape[0]
    seed = int(growth.rng.integers(2**31 - 1))
    # Every feature of the node is tested with the same seed, hence the same label orders.
    orders = permutation_orders(stop - start, growth.params.n_permutations, seed)
    for option in options:
        if option.codes is None:
            f = option.feature
            p, _ = permutation_pvalue(
                batch.xs[f, start:stop],
                labels[batch.rows[f, start:stop]],
                n_classes,
                growth.params.n_permutations,
                seed,
                orders=orders,
            )
            option.log_pvalue = float(np.log(p))
        else:
            rows = batch.rows[0, start:stop]
            codes = growth.X[rows, option.feature].astype(np.intp)
            table = np.zeros((codes.max() + 1, n_classes))
            np.add.at(table, (codes, labels[rows]), 1.0)
            option.log_pvalue = split_criteria(table[table.sum(axis=1) > 0])[
                "gamma_gini_log_pvalue"
            ]
    rank = _visit_rank(growth, i)
    return min(options, key=lambda c: (c.log_pvalue, -c.score, rank[c.feature]))


# How a node picks its split variable among each feature's best split.
SELECTIONS = {"gain": _pick_by_score, "p_value": _pick_by_p_value}
