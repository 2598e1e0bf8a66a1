"""A forest's trees on a multi-output y, grown one by one (``trees/tree/_multi_output.py``).

The compiled batches (``_batches``) build each tree's statistics from one target in compiled
code; several targets take the per-tree path instead: each tree draws its bootstrap weights
(``_bootstrap.forest_tree_weights``, the batches' rule and seeds), keeps the forest's sorted
orders of its rows (on a CSC matrix: the rows of its sample, the matrix's arrays made once for
every tree, ``tree._sparse_growth``) and grows with the multi-output criterion, in threads (the
growth releases the GIL). Each tree is fitted on the forest's encoded ``y`` (class indices per output), so it
knows every class of the forest, as scikit-learn's trees in a forest do, and its values line
up with the forest's: a forest's prediction is the mean of its trees' per output. Under
``class_weight="balanced_subsample"`` each tree weighs its rows by the classes of its own
sample, every output's (scikit-learn's ``compute_sample_weight("balanced", y, indices)``).
"""

from joblib import Parallel, delayed, effective_n_jobs
from sklearn.base import ClassifierMixin
from sklearn.utils.class_weight import compute_sample_weight
from sklearn.utils.multiclass import type_of_target

from ..tree._sparse import is_sparse
from ..tree._sparse_growth import SparseFitRows
from ..tree._splitter import search_layout
from ._batches import estimator_like
from ._bootstrap import bootstrap_indices, forest_tree_weights

__all__ = ["check_forest_outputs", "grow_outputs"]


def check_forest_outputs(forest, y):
    """Refuse, in words, the out-of-bag score of a multi-output classifier whose target
    scikit-learn refuses it for.

    A regressor's out-of-bag predictions are its trees' per output, and its score their R^2
    averaged over the outputs, as scikit-learn's. A classifier's are defined, as scikit-learn
    defines them, for a multilabel ``y`` only (``type_of_target``'s "multilabel-indicator":
    every output has the classes 0 and 1): each row's out-of-bag class probabilities of
    every output, shape ``(n_samples, n_classes, n_outputs)``, and their most probable classes
    scored against ``y`` (the subset accuracy by default: a row counts when every output is
    right). Other targets of several columns of classes ("multiclass-multioutput") have no
    such definition (outputs of different classes).

    Raises
    ------
    ValueError
        For ``oob_score`` with a multi-output classification ``y`` not multilabel.
    """
    if not forest.oob_score or not isinstance(forest, ClassifierMixin):
        return
    target = type_of_target(y)
    if target != "multilabel-indicator":  # scikit-learn's message first
        raise ValueError(
            f"The type of target cannot be used to compute OOB estimates. Got {target} while "
            "only the following are supported: continuous, continuous-multioutput, binary, "
            "multiclass, multilabel-indicator. A multi-output classifier's out-of-bag score is "
            "defined when every output is a 0/1 label; fit with oob_score=False and score the "
            "outputs on held-out rows."
        )


def grow_outputs(forest, data, draws, params, template):
    """The fitted trees of ``forest`` on a multi-output ``y``; the arguments are
    ``_batches.grow_in_batches``'s (``y``: class indices per output, or values)."""
    X, y, sorted_rows = data
    if is_sparse(X):  # its arrays made, its columns sorted, once for every tree
        X = SparseFitRows(X).sort_by_value(forest.n_jobs)
    seeds, generator_seeds, n_draws, weights, classes_of = draws
    names = getattr(forest, "feature_names_in_", None)

    def grow_one(seed, generator_seed):
        tree_weights = forest_tree_weights(seed, X.shape[0], n_draws, weights)
        if classes_of is not None:  # "balanced_subsample": scikit-learn's weights of the sample
            drawn = bootstrap_indices(seed, X.shape[0], n_draws, weights)
            tree_weights = tree_weights * compute_sample_weight(
                "balanced", classes_of, indices=drawn
            )
        present = tree_weights > 0
        # A CSC matrix's tree keeps its rows by ``present`` (``tree._sparse_growth``).
        sparse = isinstance(X, SparseFitRows)
        kept = present if sparse else search_layout(X, params.splitter, present, sorted_rows)
        estimator = estimator_like(template, random_state=seed)
        estimator._record_forest_fit(params, X.shape, float(tree_weights.sum()), names)
        return estimator._fit_outputs(X, y, tree_weights, presorted=kept,
                                      generator_seed=int(generator_seed))  # fmt: skip

    n_jobs = min(effective_n_jobs(forest.n_jobs), len(seeds))
    return Parallel(n_jobs=n_jobs, prefer="threads")(
        delayed(grow_one)(seed, generator_seed)
        for seed, generator_seed in zip(seeds, generator_seeds, strict=True)
    )
