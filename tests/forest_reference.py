"""The per-tree forest growth: the reference the forests' batches are compared with.

A forest grows its trees in batches (``trees.ensemble._batches``). Here each tree is
prepared and grown on its own, as a tree's own growth does it: its bootstrap weights
(``_bootstrap.forest_tree_weights``), a copy of the forest's template tree with its seed,
its growth (``_classes._forest_growth``) grown and kept (``_batches.grow_per_tree``, which
also grows a forest on a CSC matrix). The batches must give these trees to the bit.
"""

from trees.ensemble import _forest
from trees.ensemble._batches import grow_per_tree


def fit_per_tree(forest, X, y, monkeypatch, **fit_kwargs):
    """``forest`` fitted with its trees grown by :func:`grow_per_tree`."""
    with monkeypatch.context() as patch:
        patch.setattr(_forest, "grow_in_batches", grow_per_tree)
        return forest.fit(X, y, **fit_kwargs)
