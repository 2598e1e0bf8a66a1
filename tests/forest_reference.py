"""The per-tree forest growth: the reference the forests' batches are compared with.

A forest grows its trees in batches (``trees.ensemble._batches``). Here each tree is
prepared and grown on its own, as a tree's own growth does it: its bootstrap weights
(``_bootstrap.forest_tree_weights``), a copy of the forest's template tree with its seed,
its growth (``_classes._forest_growth``) grown and kept. The batches must give these
trees to the bit.
"""

from joblib import Parallel, delayed

from trees.ensemble import _forest
from trees.ensemble._batches import estimator_like
from trees.ensemble._bootstrap import forest_tree_weights


def grow_per_tree(forest, data, draws, params, template):
    """The fitted trees of ``forest``, each grown alone (``_batches.grow_in_batches``'s
    arguments and result), in threads as the batches run."""
    X, y, sorted_rows = data
    seeds, generator_seeds, n_draws, weights, classes_of = draws
    names = getattr(forest, "feature_names_in_", None)

    def grow_one(seed, generator_seed):
        weight = forest_tree_weights(seed, X.shape[0], n_draws, weights, classes_of)
        tree = estimator_like(template, random_state=seed)
        growth = tree._forest_growth(X, y, weight, sorted_rows, params, names, generator_seed)
        return tree._grow_and_keep(growth)

    return Parallel(n_jobs=forest.n_jobs, prefer="threads")(
        delayed(grow_one)(seed, int(generator_seed))
        for seed, generator_seed in zip(seeds, generator_seeds, strict=True)
    )


def fit_per_tree(forest, X, y, monkeypatch, **fit_kwargs):
    """``forest`` fitted with its trees grown by :func:`grow_per_tree`."""
    with monkeypatch.context() as patch:
        patch.setattr(_forest, "grow_in_batches", grow_per_tree)
        return forest.fit(X, y, **fit_kwargs)
