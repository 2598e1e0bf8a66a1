"""Split search for categorical features: membership ``x in S`` and equality ``x == v``.

Categorical features hold integer category codes. For one node and one
feature the rows' statistics are summed per category, then:

* ``"membership"``: the categories are ordered and the best split between a
  prefix and the rest of that order is taken. For two classes the order is
  the share of class 1, for regression the mean of y: then the best prefix
  is the best subset of all (Breiman et al., 1984, section 9.4), found with
  ``m - 1`` candidates instead of ``2^(m-1)``. For more classes we order by
  the share of the node's most frequent class, a heuristic: the best subset
  is not guaranteed.
* ``"equality"``: each category against all others (source 004's equality
  condition).

Scores are the criterion's, so they compare directly with threshold splits.
"""

import numpy as np

__all__ = ["CATEGORICAL_SPLITS", "best_categorical_split", "category_statistics"]


def category_statistics(codes, row_stats):
    """Per-category statistics and row counts of one node.

    Parameters
    ----------
    codes : ndarray of int, shape (n_rows,)
    row_stats : ndarray of shape (n_stats, n_rows)

    Returns
    -------
    present : ndarray of int
        The category codes that occur.
    stats : ndarray of shape (n_stats, n_present)
    counts : ndarray of shape (n_present,)
    """
    size = int(codes.max()) + 1 if codes.size else 0
    counts = np.bincount(codes, minlength=size)
    stats = np.vstack([np.bincount(codes, weights=s, minlength=size) for s in row_stats])
    present = np.flatnonzero(counts)
    return present, stats[:, present], counts[present]


def _order(criterion, stats):
    """Order of the categories along which the best subset is a prefix (see the module docstring)."""
    weight = np.maximum(criterion.weight(stats), 1e-300)
    if not criterion.is_classification or stats.shape[0] == 2:
        key = stats[1] / weight
    else:
        majority = int(np.argmax(stats.sum(axis=1)))
        key = stats[majority] / weight
    return np.argsort(key, kind="stable")


def _membership_cuts(criterion, present, stats, counts):
    """Prefixes of the ordered categories: ``m - 1`` candidate sets."""
    order = _order(criterion, stats)
    left = np.cumsum(stats[:, order], axis=1)[:, :-1]
    n_left = np.cumsum(counts[order])[:-1]
    sets = [present[order[: i + 1]] for i in range(present.size - 1)]
    return order, left, n_left, sets


def _equality_cuts(criterion, present, stats, counts):
    """Each category against all the others: ``m`` candidate sets of one code."""
    order = np.arange(present.size)
    sets = [present[[i]] for i in range(present.size)]
    return order, stats, counts, sets


# Candidate category sets by kind of split: (scan order, left statistics, left counts, sets).
CATEGORICAL_SPLITS = {"membership": _membership_cuts, "equality": _equality_cuts}


def best_categorical_split(
    codes, row_stats, criterion, kind="membership", min_samples_leaf=1, min_weight_leaf=0.0
):
    """The best membership (or equality) split of one categorical feature at one node.

    Each child keeps ``min_samples_leaf`` rows and ``min_weight_leaf`` weight.

    Returns
    -------
    dict or None
        ``codes`` (the categories sent left, sorted), ``score``, ``n_left``,
        ``curve`` (``order``: categories in the order scanned, ``scores``: the
        score of cutting after each of them); None when no split exists.
    """
    if kind not in CATEGORICAL_SPLITS:
        raise ValueError(
            f"categorical splits must be one of {tuple(CATEGORICAL_SPLITS)}, got {kind!r}."
        )
    codes = np.asarray(codes).astype(np.intp)
    present, stats, counts = category_statistics(codes, row_stats)
    if present.size < 2:
        return None
    parent = stats.sum(axis=1, keepdims=True)
    order, left, n_left, sets = CATEGORICAL_SPLITS[kind](criterion, present, stats, counts)
    right = parent - left
    n_total = counts.sum()
    valid = (n_left >= min_samples_leaf) & (n_total - n_left >= min_samples_leaf)
    if min_weight_leaf > 0:
        valid &= (criterion.weight(left) >= min_weight_leaf) & (
            criterion.weight(right) >= min_weight_leaf
        )
    if not valid.any():
        return None
    scores = np.full(left.shape[1], -np.inf)
    scores[valid] = criterion.score(left[:, valid], parent)
    best = int(np.argmax(scores))
    return {
        "codes": np.sort(sets[best]),
        "score": float(scores[best]),
        "n_left": int(n_left[best]),
        "curve": {"order": present[order], "scores": scores},
    }
