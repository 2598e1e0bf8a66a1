"""What removing a few training rows does to the candidate splits of one node.

:func:`split_confidence` asks, for every internal node, how many of the
node's rows must be removed before a split on another feature wins. This
module holds the machinery, built on the one split search
(:func:`trees.tree.search_splits`).

Candidates are fixed partitions. Removing rows from a node never creates a
new way to split it: a threshold split of the remaining rows falls between
two of their distinct values, which were already distinct before, and a
category set sends the same categories left. So every split of the node
after a removal is one of its splits before, scored on fewer rows, and a
removal is evaluated by subtracting the removed rows' statistics from each
candidate's sides (:func:`removal_scores`). A candidate whose side falls
below ``min_samples_leaf`` rows is no longer valid.

Category sets. With ``"equality"`` splits the candidates are the single
categories. With ``"membership"`` splits they are *all* subsets of the
categories present when there are at most :data:`MAX_SUBSET_CATEGORIES` of
them: for two classes and for regression the tree's ordered search finds the
best of all subsets (Breiman et al., 1984, section 9.4), so this is the set
it chooses from whatever rows are removed; for more classes the tree orders
categories heuristically and may miss the best subset that we score. With
more categories the candidates are the prefixes of the node's current order,
which a removal may change: results on such nodes are marked inexact.

Bounds (:func:`removal_bounds`) give, for each candidate, the largest and a
lower bound of the smallest score over every removal of ``k`` rows (k = 1
or 2), without enumerating the removals:

* classification (unit weights, counts per class): a removal only matters
  through the classes and sides of the removed rows, so every *type* of
  removal (side and class of each row, where such rows exist) is scored;
  the bounds are exact;
* regression: the squared-error gain of a split is
  ``G = w_L w_R (mean_L - mean_R)^2 / w^2``; with the sides' sizes fixed
  it is the square of an affine function of the removed values, so its
  maximum over the removals is reached at the extreme values of each side
  (the one or two smallest or largest), and its minimum is 0 when that
  affine function changes sign between them, else reached at a corner.

These bounds prune the candidates and the rows that cannot matter, so the
exact searches of :mod:`trees.studies._confidence` stay fast.
"""

import itertools
from dataclasses import dataclass

import numpy as np

from ..tree._categorical import best_categorical_split
from ..tree._splitter import SegmentBatch, search_splits

__all__ = [
    "MAX_SUBSET_CATEGORIES",
    "NodeData",
    "NodeSplits",
    "node_splits",
    "removal_bounds",
    "removal_scores",
]

# Membership splits score every subset of at most this many categories (2^(m-1) - 1 sets).
MAX_SUBSET_CATEGORIES = 10
# Elements of the largest temporary array a chunk of removals may allocate.
_CHUNK_ELEMENTS = 4_000_000


@dataclass
class NodeData:
    """The training data as the removal machinery sees it (every row of weight 1).

    Attributes
    ----------
    X : ndarray of shape (n_samples, n_features)
    stats : ndarray of shape (n_stats, n_samples)
        Per-row criterion statistics (class counts, or ``(1, y, y^2)`` of the centred y).
    y : ndarray of shape (n_samples,)
        Class index (classification) or centred target (regression).
    criterion : criterion object of ``trees.tree``
    min_samples_leaf : int
    categorical : ndarray of bool, shape (n_features,)
    categorical_split : {"membership", "equality"}
    """

    X: np.ndarray
    stats: np.ndarray
    y: np.ndarray
    criterion: object
    min_samples_leaf: int
    categorical: np.ndarray
    categorical_split: str = "membership"

    @property
    def is_classification(self):
        return self.criterion.is_classification


@dataclass
class NodeSplits:
    """Every candidate split of one node as a fixed partition of its rows.

    Attributes
    ----------
    rows : ndarray of int, shape (n,)
        The node's training rows.
    feature, threshold : ndarray of shape (K,)
        Threshold candidates send ``x <= threshold`` left; category-set
        candidates have a NaN threshold.
    set_index : ndarray of int, shape (K,)
        Row of ``members`` of a category-set candidate, -1 for thresholds.
    members : ndarray of bool, shape (n_sets, max_code + 1)
        Category codes each set sends left.
    left : ndarray of shape (n_stats, K)
        Statistics of each candidate's left side.
    n_left : ndarray of int, shape (K,)
    parent : ndarray of shape (n_stats,)
    score : ndarray of shape (K,)
        Score of each candidate on all the node's rows.
    extremes : ndarray of shape (K, 2, 4) or None
        Regression: the two smallest and two largest centred y of the left
        (``[:, 0]``) and right (``[:, 1]``) side, ``(min1, min2, max1, max2)``.
    exact : bool
        False when a categorical feature has more categories than every
        subset can be scored for (see the module docstring).
    """

    rows: np.ndarray
    feature: np.ndarray
    threshold: np.ndarray
    set_index: np.ndarray
    members: np.ndarray
    left: np.ndarray
    n_left: np.ndarray
    parent: np.ndarray
    score: np.ndarray
    extremes: np.ndarray | None
    exact: bool = True

    @property
    def n(self):
        return int(self.rows.shape[0])

    def goes_left(self, X, rows, cands):
        """Whether each of ``rows`` is on the left side of each candidate, shape (len(rows), len(cands))."""
        cands = np.asarray(cands, dtype=np.intp)
        values = X[np.ix_(np.asarray(rows, dtype=np.intp), self.feature[cands])]
        with np.errstate(invalid="ignore"):
            left = values <= self.threshold[cands]
        sets = self.set_index[cands] >= 0
        if sets.any():
            width = self.members.shape[1]
            codes = values[:, sets]
            valid = np.isfinite(codes) & (codes >= 0) & (codes < width)
            index = np.where(valid, codes, 0).astype(np.intp)
            table = self.members[self.set_index[cands[sets]]]  # (n_sets_here, width)
            left[:, sets] = valid & table[np.arange(table.shape[0])[None, :], index]
        return left


# ------------------------------------------------------------------ candidates
def _two_smallest(values):
    """Smallest and second smallest of every prefix along axis 1 (inf where absent).

    The second smallest of ``v[:i+1]`` is ``min_j max(v[j], min(v[:j]))``:
    each term is the larger of two distinct elements, so it is at least the
    second smallest, and the term at the second smallest's position equals it.
    """
    first = np.minimum.accumulate(values, axis=1)
    before = np.concatenate([np.full((values.shape[0], 1), np.inf), first[:, :-1]], axis=1)
    return first, np.minimum.accumulate(np.maximum(values, before), axis=1)


def _prefix_extremes(values):
    """(min1, min2, max1, max2) of every prefix along axis 1, shape (..., 4)."""
    low1, low2 = _two_smallest(values)
    high1, high2 = _two_smallest(-values)
    return np.stack([low1, low2, -high1, -high2], axis=-1)


def _threshold_candidates(data, rows):
    """Threshold candidates of the node's ordered features, from the split search."""
    batch = SegmentBatch.from_rows(data.X, [rows])
    table = search_splits(
        batch,
        data.stats,
        data.criterion,
        min_samples_leaf=data.min_samples_leaf,
        feature_allowed=~data.categorical[None, :],
    )
    features, positions = np.nonzero(np.isfinite(table.proxy))
    out = {
        "feature": features,
        "threshold": np.asarray(table.threshold(features, positions), dtype=float),
        "left": table.left[:, features, positions],
        "n_left": positions + 1,
    }
    if not data.is_classification:
        ys = data.y[batch.rows]  # (F, n): y in the order of each feature
        before = _prefix_extremes(ys)
        after = _prefix_extremes(ys[:, ::-1])[:, ::-1]
        out["extremes"] = np.stack([before[features, positions], after[features, positions + 1]], 1)
    return out


def _category_sets(data, codes, stats):
    """Boolean masks over the present categories: the candidate sets sent left."""
    m = codes.shape[0]
    if data.categorical_split == "equality":
        return np.eye(m, dtype=bool), True
    if m <= MAX_SUBSET_CATEGORIES:
        # Every subset holding the first category, but not all of them: each partition once.
        bits = np.arange(2 ** (m - 1) - 1)[:, None] >> np.arange(m - 1)[None, :] & 1
        return np.column_stack([np.ones(len(bits), dtype=bool), bits.astype(bool)]), True
    # One pseudo-row per category: only the scan order of the tree's search is needed.
    found = best_categorical_split(codes, stats, data.criterion, "membership", min_samples_leaf=1)
    order = np.searchsorted(codes, found["curve"]["order"])
    masks = np.zeros((m - 1, m), dtype=bool)
    for i in range(m - 1):
        masks[i, order[: i + 1]] = True
    return masks, False


def _category_extremes(data, rows, codes_of_rows, present, masks):
    """(min1, min2, max1, max2) of y on each side of each category set."""
    best = np.full((present.shape[0], 4), np.nan)
    for i, code in enumerate(present):
        ys = np.sort(data.y[rows[codes_of_rows == code]])
        best[i] = [
            ys[0],
            ys[1] if ys.size > 1 else np.inf,
            ys[-1],
            ys[-2] if ys.size > 1 else -np.inf,
        ]
    sides = []
    for side in (masks, ~masks):
        low = np.sort(np.where(side[:, :, None], best[None, :, :2], np.inf).reshape(len(masks), -1))
        high = np.sort(
            np.where(side[:, :, None], best[None, :, 2:], -np.inf).reshape(len(masks), -1)
        )
        sides.append(np.column_stack([low[:, 0], low[:, 1], high[:, -1], high[:, -2]]))
    return np.stack(sides, axis=1)


def _set_candidates(data, rows, feature):
    """Category-set candidates of one categorical feature (see the module docstring)."""
    codes_of_rows = data.X[rows, feature].astype(np.intp)
    present, inverse, counts = np.unique(codes_of_rows, return_inverse=True, return_counts=True)
    if present.shape[0] < 2:
        return None
    stats = np.vstack([np.bincount(inverse, weights=s) for s in data.stats[:, rows]])
    masks, exact = _category_sets(data, present, stats)
    n_left = masks.astype(int) @ counts
    msl = data.min_samples_leaf
    keep = (n_left >= msl) & (rows.shape[0] - n_left >= msl)
    masks, n_left = masks[keep], n_left[keep]
    if not masks.shape[0]:
        return None
    members = np.zeros((masks.shape[0], int(present.max()) + 1), dtype=bool)
    for i, mask in enumerate(masks):
        members[i, present[mask]] = True
    out = {
        "feature": np.full(masks.shape[0], feature),
        "threshold": np.full(masks.shape[0], np.nan),
        "left": stats @ masks.T.astype(float),
        "n_left": n_left,
        "members": members,
        "exact": exact,
    }
    if not data.is_classification:
        out["extremes"] = _category_extremes(data, rows, codes_of_rows, present, masks)
    return out


def node_splits(data, rows):
    """Every candidate split of the node holding ``rows`` (a :class:`NodeSplits`)."""
    rows = np.asarray(rows, dtype=np.intp)
    parent = data.stats[:, rows].sum(axis=1)
    parts = [_threshold_candidates(data, rows)]
    for feature in np.flatnonzero(data.categorical):
        found = _set_candidates(data, rows, feature)
        if found is not None:
            parts.append(found)
    width = max([p["members"].shape[1] for p in parts if "members" in p], default=1)
    members, set_index, offset = [], [], 0
    for part in parts:
        count = part["feature"].shape[0]
        if "members" in part:
            block = np.zeros((count, width), dtype=bool)
            block[:, : part["members"].shape[1]] = part["members"]
            members.append(block)
            set_index.append(np.arange(offset, offset + count))
            offset += count
        else:
            set_index.append(np.full(count, -1))
    left = np.concatenate([p["left"] for p in parts], axis=1)
    extremes = None
    if not data.is_classification:
        extremes = np.concatenate([p["extremes"] for p in parts], axis=0)
    parent_b = np.broadcast_to(parent[:, None], left.shape)
    return NodeSplits(
        rows=rows,
        feature=np.concatenate([p["feature"] for p in parts]).astype(np.intp),
        threshold=np.concatenate([p["threshold"] for p in parts]),
        set_index=np.concatenate(set_index).astype(np.intp),
        members=np.concatenate(members) if members else np.zeros((0, 1), dtype=bool),
        left=left,
        n_left=np.concatenate([p["n_left"] for p in parts]).astype(np.intp),
        parent=parent,
        score=data.criterion.score(left, parent_b),
        extremes=extremes,
        exact=all(p.get("exact", True) for p in parts),
    )


# -------------------------------------------------------------------- removals
def _scores(data, left, parent, n_left, n_right):
    """Scores of candidates from side statistics; -inf where a side is too small."""
    score = data.criterion.score(left, parent)
    msl = data.min_samples_leaf
    return np.where((n_left >= msl) & (n_right >= msl), score, -np.inf)


def removal_scores(data, splits, removed, cands=None):
    """Score of candidates after removing sets of rows.

    Parameters
    ----------
    data : NodeData
    splits : NodeSplits
    removed : ndarray of int, shape (n_sets, k)
        Each line holds ``k`` distinct rows of the node.
    cands : ndarray of int, optional
        Candidates to score (default: all).

    Returns
    -------
    ndarray of shape (n_sets, len(cands))
    """
    removed = np.atleast_2d(np.asarray(removed, dtype=np.intp))
    cands = np.arange(splits.feature.shape[0]) if cands is None else np.asarray(cands, np.intp)
    n_sets, k = removed.shape
    out = np.empty((n_sets, cands.shape[0]))
    size = max(1, _CHUNK_ELEMENTS // max(1, k * cands.shape[0] * data.stats.shape[0]))
    for start in range(0, n_sets, size):
        chunk = removed[start : start + size]
        goes = splits.goes_left(data.X, chunk.ravel(), cands).reshape(len(chunk), k, -1)
        row_stats = data.stats[:, chunk]  # (S, m, k)
        from_left = np.einsum("smk,mkc->smc", row_stats, goes.astype(float))
        parent = splits.parent[:, None, None] - row_stats.sum(axis=2)[:, :, None]
        left = splits.left[:, None, cands] - from_left
        n_left = splits.n_left[cands][None, :] - goes.sum(axis=1)
        out[start : start + size] = _scores(data, left, parent, n_left, splits.n - k - n_left)
    return out


# ---------------------------------------------------------------------- bounds
def _class_removals(n_classes, k):
    """Removal types for classification: (classes removed left, classes removed right)."""
    if k == 1:
        return [((c,), ()) for c in range(n_classes)] + [((), (c,)) for c in range(n_classes)]
    pairs = list(itertools.combinations_with_replacement(range(n_classes), 2))
    mixed = list(itertools.product(range(n_classes), repeat=2))
    return [(p, ()) for p in pairs] + [((), p) for p in pairs] + [((a,), (b,)) for a, b in mixed]


def _available(counts, classes):
    """Whether a side with class ``counts`` (S, ...) holds rows of ``classes`` to remove."""
    ok = np.ones(counts.shape[1:], dtype=bool)
    for c in set(classes):
        ok &= counts[c] >= classes.count(c) - 1e-9
    return ok


def _classification_bounds(data, left, parent, n_left, n_right, k):
    """Exact largest and smallest score over every removal type (see the module docstring)."""
    right = parent - left
    hi = np.full(left.shape[1:], -np.inf)
    lo = np.full(left.shape[1:], np.inf)
    for from_left, from_right in _class_removals(left.shape[0], k):
        ok = _available(left, list(from_left)) & _available(right, list(from_right))
        d_left = np.zeros(left.shape[0])
        d_right = np.zeros(left.shape[0])
        np.add.at(d_left, list(from_left), 1.0)
        np.add.at(d_right, list(from_right), 1.0)
        shape = (-1,) + (1,) * (left.ndim - 1)
        new_left = left - d_left.reshape(shape)
        new_parent = parent - (d_left + d_right).reshape(shape)
        score = _scores(
            data, new_left, new_parent, n_left - len(from_left), n_right - len(from_right)
        )
        hi = np.where(ok, np.maximum(hi, score), hi)
        lo = np.where(ok, np.minimum(lo, score), lo)
    return hi, lo


def _regression_options(extremes, k):
    """Removal options at the sides' extreme values: (config, y removed left, y removed right).

    ``config`` groups options whose sizes agree, within which the gain is the
    square of an affine function of the removed values.
    """
    left, right = extremes[:, 0, :], extremes[:, 1, :]
    if k == 1:
        return [
            ("L", [left[..., 0]], []),
            ("L", [left[..., 2]], []),
            ("R", [], [right[..., 0]]),
            ("R", [], [right[..., 2]]),
        ]
    options = [
        ("LL", [left[..., 0], left[..., 1]], []),
        ("LL", [left[..., 2], left[..., 3]], []),
        ("RR", [], [right[..., 0], right[..., 1]]),
        ("RR", [], [right[..., 2], right[..., 3]]),
    ]
    for a, b in itertools.product((0, 2), (0, 2)):
        options.append(("LR", [left[..., a]], [right[..., b]]))
    return options


def _row_statistics(values, ok, ndim):
    """Summed ``(1, y, y^2)`` of removed values (one array per row, shape (K,)), as (3, 1.., K)."""
    total = np.zeros((3, ok.shape[-1]))
    for v in values:
        total = total + np.where(ok, np.stack([np.ones_like(v), v, v * v]), 0.0)
    return total.reshape((3,) + (1,) * (ndim - 2) + (ok.shape[-1],))


def _regression_bounds(data, left, parent, n_left, n_right, extremes, k):
    """Largest score and a lower bound of the smallest over removals (see the module docstring)."""
    hi = np.full(left.shape[1:], -np.inf)
    lo = np.full(left.shape[1:], np.inf)
    by_config = {}
    for config, ys_left, ys_right in _regression_options(extremes, k):
        ok = np.all([np.isfinite(v) for v in ys_left + ys_right], axis=0)
        d_left = _row_statistics(ys_left, ok, left.ndim)
        removed = d_left + _row_statistics(ys_right, ok, left.ndim)
        new_left, new_parent = left - d_left, parent - removed
        score = _scores(data, new_left, new_parent, n_left - len(ys_left), n_right - len(ys_right))
        with np.errstate(invalid="ignore", divide="ignore"):
            new_right = new_parent - new_left
            gap = new_left[1] / new_left[0] - new_right[1] / new_right[0]
        hi = np.where(ok, np.maximum(hi, score), hi)
        lo = np.where(ok, np.minimum(lo, score), lo)
        by_config.setdefault(config, []).append((ok, np.where(ok, gap, np.nan)))
    for options in by_config.values():
        oks = np.all([ok for ok, _ in options], axis=0)
        gaps = np.stack([gap for _, gap in options])
        with np.errstate(invalid="ignore"):  # fmin/fmax skip the NaN of emptied sides
            crosses = (
                oks & (np.fmin.reduce(gaps, axis=0) <= 0) & (np.fmax.reduce(gaps, axis=0) >= 0)
            )
        lo = np.where(crosses & np.isfinite(lo), np.minimum(lo, 0.0), lo)
    return hi, lo


def removal_bounds(data, splits, k, cands=None, base_rows=None):
    """Largest score, and a lower bound of the smallest, of candidates over every removal of ``k`` rows.

    Parameters
    ----------
    data : NodeData
    splits : NodeSplits
    k : {1, 2}
    cands : ndarray of int, optional
        Candidates to bound (default: all).
    base_rows : ndarray of int, optional
        When given, bound the removal of ``k`` further rows after removing
        each of these rows first (one line per base row).

    Returns
    -------
    hi, lo : ndarray of shape (len(cands),), or (len(base_rows), len(cands))
        ``lo`` is -inf where some removal leaves a side too small.
    """
    cands = np.arange(splits.feature.shape[0]) if cands is None else np.asarray(cands, np.intp)
    left = splits.left[:, cands]
    parent = splits.parent[:, None]
    n_left = splits.n_left[cands]
    n_right = splits.n - n_left
    if base_rows is not None:
        base_rows = np.asarray(base_rows, dtype=np.intp)
        goes = splits.goes_left(data.X, base_rows, cands)  # (B, K)
        row_stats = data.stats[:, base_rows][:, :, None]  # (S, B, 1)
        left = left[:, None, :] - row_stats * goes[None]
        parent = parent[:, None, :] - row_stats
        n_left = n_left[None, :] - goes
        n_right = n_right[None, :] - ~goes
    if data.is_classification:
        return _classification_bounds(data, left, parent, n_left, n_right, k)
    extremes = splits.extremes[cands]  # (K, side, extreme); the same whatever the base row
    return _regression_bounds(data, left, parent, n_left, n_right, extremes, k)
