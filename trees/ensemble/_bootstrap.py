"""A forest's bootstrap samples (scikit-learn's scheme, so the same ``random_state`` draws
the same samples as its forests): the rows each tree draws, how many, and the row weights
they give the tree. Shared by the per-tree path (``_forest``) and the batches (``_batches``).
"""

import numbers

import numpy as np

from ..tree._kernels_draws import (
    add_weighted_draw_counts,
    bootstrap_counts,
    bootstrap_rows,
    draw_cdf,
    weighted_bootstrap_rows,
)

__all__ = [
    "bootstrap_indices",
    "bootstrap_size",
    "forest_tree_weights",
    "subsample_class_factors",
    "subsample_weights",
    "tree_weights",
]


def bootstrap_indices(seed, n_samples, n_draws=None, weights=None):
    """Rows drawn with replacement for one tree (scikit-learn's scheme, so the
    same ``random_state`` draws the same bootstrap samples as its forests);
    ``n_draws`` rows (default ``n_samples``: see :func:`bootstrap_size`), with
    probabilities proportional to ``weights`` when given (scikit-learn 1.9's rule for a
    weighted forest). Uniform draws are ``RandomState(seed).randint(0, n_samples,
    n_draws)``, weighted ones ``RandomState(seed).choice(n_samples, n_draws, p=weights /
    sum(weights))``, both computed without the generator object
    (:mod:`~trees.tree._kernels_draws`, the same numbers to the bit)."""
    n_draws = n_samples if n_draws is None else n_draws
    if weights is None:
        return bootstrap_rows(seed, n_samples, n_draws)
    return weighted_bootstrap_rows(seed, draw_cdf(weights), n_draws)


def bootstrap_size(n_samples, max_samples, weights=None):
    """Rows each bootstrap sample draws (scikit-learn 1.9's rule).

    None: ``n_samples``; an int: that many (with replacement, so it may
    exceed the rows); a float > 0: that share of the rows, or of the total
    weight when the forest is weighted, truncated, at least 1 (above 1.0 a
    sample draws more rows than there are, as an int may).

    Raises
    ------
    ValueError
        For any other value.
    """
    if max_samples is None:
        return n_samples
    if isinstance(max_samples, numbers.Integral) and not isinstance(max_samples, bool):
        if max_samples < 1:
            raise ValueError(f"max_samples must be an int >= 1 or a float > 0, got {max_samples}.")
        return int(max_samples)
    if isinstance(max_samples, numbers.Real) and 0.0 < max_samples < np.inf:
        total = n_samples if weights is None else float(np.sum(weights))
        return max(int(max_samples * total), 1)
    raise ValueError(
        f"max_samples must be None, an int >= 1 or a float > 0 (a share of the rows), got "
        f"{max_samples!r}."
    )


def tree_weights(seed, n_samples, n_draws, weights):
    """A tree's row weights: how many times its bootstrap sample drew each row.

    The sample is :func:`bootstrap_indices`'s (the first draws of a fresh
    ``RandomState(seed)``); uniform draws are counted in compiled code
    (:func:`~trees.tree._kernels_draws.bootstrap_counts`) without the rows.
    """
    if weights is None:
        return bootstrap_counts(seed, n_samples, n_draws)
    counts = np.zeros(n_samples)
    add_weighted_draw_counts(int(seed), draw_cdf(weights), int(n_draws), counts)
    return counts


def forest_tree_weights(seed, n_samples, n_draws, weights, subsample_classes_of=None):
    """A forest's tree's row weights (scikit-learn 1.9's rule).

    With bootstrap (``n_draws`` rows drawn), the times its sample drew each row
    (:func:`tree_weights`; ``weights`` are the draws' probabilities), times each row's
    class weight within that sample when ``subsample_classes_of`` gives the rows' classes
    ("balanced_subsample", repeats counted); without (``n_draws`` None), the weights
    themselves, 1 for every row when there are none.
    """
    if n_draws is None:
        return np.ones(n_samples) if weights is None else weights.copy()
    if subsample_classes_of is not None:
        return subsample_weights(seed, n_samples, n_draws, weights, subsample_classes_of)[0]
    return tree_weights(seed, n_samples, n_draws, weights)


def subsample_weights(seed, n_samples, n_draws, weights, classes_of):
    """A "balanced_subsample" tree's row weights and its classes' factors: the times its
    sample drew each row (:func:`tree_weights`) times its class's factor in that sample
    (:func:`subsample_class_factors`; ``classes_of``: each row's class index).

    Returns
    -------
    row_weights : ndarray of shape (n_samples,)
    class_factors : ndarray of shape (n_classes,)
    """
    counts = tree_weights(seed, n_samples, n_draws, weights)
    factors = subsample_class_factors(counts, classes_of)
    return counts * factors[classes_of], factors


def subsample_class_factors(counts, classes_of):
    """Each class's weight within a bootstrap sample ("balanced_subsample"), by class index.

    scikit-learn's ``compute_sample_weight("balanced", y, indices=drawn)``: with ``n_c`` the
    draws of class ``c`` (``counts``: the times each row was drawn, ``classes_of``: each row's
    class index), ``k`` the classes drawn and ``n`` all draws, class ``c`` weighs
    ``n / (k n_c)``, and a class the sample missed 0. The same numbers to the bit (a test):
    the counts are whole numbers, so each class's sum and their total are exact, and the
    weight is the one division scikit-learn makes. Without its label encoding, unique and
    set operations, it costs about 1% of scikit-learn's time (6 us against 0.5 ms on 400
    rows; a forest makes one per tree).

    Returns
    -------
    ndarray of shape (n_classes,)
        ``n_classes``: ``classes_of.max() + 1``.
    """
    drawn = np.bincount(classes_of, weights=counts)
    present = drawn > 0
    factors = np.zeros(drawn.shape[0])
    factors[present] = drawn.sum() / (np.count_nonzero(present) * drawn[present])
    return factors
