"""A forest's trees on a multi-output y, grown one by one (``trees/tree/_multi_output.py``).

The compiled batches (``_batches``) build each tree's statistics from one target in compiled
code; several targets take the per-tree path instead: each tree draws its bootstrap weights
(``_bootstrap.forest_tree_weights``, the batches' rule and seeds), keeps the forest's sorted
orders of its rows and grows with the multi-output criterion, in threads (the growth releases
the GIL). Each tree is fitted on the forest's encoded ``y`` (class indices per output), so it
knows every class of the forest, as scikit-learn's trees in a forest do, and its values line
up with the forest's: a forest's prediction is the mean of its trees' per output.
"""

from joblib import Parallel, delayed, effective_n_jobs

from ..tree._splitter import search_layout
from ._batches import estimator_like
from ._bootstrap import forest_tree_weights

__all__ = ["check_forest_outputs", "grow_outputs"]


def check_forest_outputs(forest):
    """Refuse, in words, what a multi-output forest does not offer.

    Raises
    ------
    ValueError
        For ``class_weight="balanced_subsample"`` and for ``oob_score``.
    """
    if getattr(forest, "class_weight", None) == "balanced_subsample":
        raise ValueError(
            "class_weight='balanced_subsample' balances one target's classes in each tree's "
            "sample, and y has several columns. Use class_weight='balanced' (or a list of one "
            "dict per output) with a multi-output y."
        )
    if forest.oob_score:
        raise ValueError(
            "oob_score is computed for one target here, and y has several columns. Fit with "
            "oob_score=False and score the outputs on held-out rows."
        )


def grow_outputs(forest, data, draws, params, template):
    """The fitted trees of ``forest`` on a multi-output ``y``; the arguments are
    ``_batches.grow_in_batches``'s (``y``: class indices per output, or values)."""
    X, y, sorted_rows = data
    seeds, generator_seeds, n_draws, weights, _ = draws
    names = getattr(forest, "feature_names_in_", None)

    def grow_one(seed, generator_seed):
        tree_weights = forest_tree_weights(seed, X.shape[0], n_draws, weights)
        kept = search_layout(X, params.splitter, tree_weights > 0, sorted_rows)
        estimator = estimator_like(template, random_state=seed)
        estimator._record_forest_fit(params, X.shape, float(tree_weights.sum()), names)
        return estimator._fit_outputs(X, y, tree_weights, presorted=kept,
                                      generator_seed=int(generator_seed))  # fmt: skip

    n_jobs = min(effective_n_jobs(forest.n_jobs), len(seeds))
    return Parallel(n_jobs=n_jobs, prefer="threads")(
        delayed(grow_one)(seed, generator_seed)
        for seed, generator_seed in zip(seeds, generator_seeds, strict=True)
    )
