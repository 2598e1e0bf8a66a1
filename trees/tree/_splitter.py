"""The one split search of the package: candidates, split tables, thresholds, sorted orders.

Every user of split search (the batch fit, the step-by-step grower, the
forests, the cultivated forest, the score curves of the pages) walks the
same compiled kernels (``_kernels_search``); this module holds the data
layout, the threshold rule, and :func:`search_splits`, which lays every
candidate of a batch of nodes out as a :class:`SplitTable`.

Data layout: every feature is sorted once. ``rows[f]`` lists row ids in
increasing order of feature ``f``, and each node owns one contiguous
*segment* ``[start, start + count)`` of every ``rows[f]``; the values stay
in ``X`` (``X[rows[f, p], f]``; a batch of nodes searched from Python
gathers its own, ``SegmentBatch.xs``). Walking a
segment, the statistics of the rows passed (see ``_criterion``) are those of
the left child of each candidate. Splitting a node is a *stable* partition
of its segment in every feature, which keeps each child's segment sorted.

A *candidate* at position ``p`` of a segment sends the rows at positions
``start..p`` left and the rest right; it exists when ``xs[f, p] <
xs[f, p + 1]`` (a threshold can fall between them) and both children keep
``min_samples_leaf`` rows and ``min_weight_leaf`` weight.

Tie-breaking: within a feature the lowest threshold wins. Between features
the winner is the first one *visited* among the equally good: features are
visited in index order (``tie_break="first"``, the lowest index wins) or in
a random order drawn per node (``tie_break="random"``, as scikit-learn's
splitter, which visits features in a random order and keeps the first best
it meets). :data:`TIE_BREAKS` maps the names to the visiting ranks.

Why the layout holds only the orders (int32), not a sorted copy of the values: a sorted copy
would let walks read memory in order, but it was twice the size of the orders. With it a tree
on 1e6 x 15 needed 2.1x scikit-learn's memory, without it 1.0x; the price is cache misses in
the large nodes near the root (a depth-8 tree on 1e5 x 20 fits in 0.39x scikit-learn's time
instead of 0.28x; small fits are unchanged). Features are sorted a column at a time, so the
sort's temporaries exist for one column; a forest sorts once and each tree filters its
sample's rows from the forest's orders (:func:`search_layout`, :func:`keep_rows`). A fit does
not copy ``X`` when every row has a positive weight.
"""

from dataclasses import dataclass

import numpy as np

from ._kernels_arrays import kernel_array
from ._kernels_criteria import KERNEL_IDS
from ._kernels_layout import keep_rows
from ._kernels_search import fill_candidates, partition

__all__ = [
    "TIE_BREAKS",
    "SegmentBatch",
    "SplitTable",
    "gather_segments",
    "partition_segments",
    "position_to_threshold",
    "search_splits",
    "sort_features",
    "sorted_values",
]


def position_to_threshold(lower, upper):
    """Threshold between two consecutive distinct sorted values.

    The midpoint ``lower / 2 + upper / 2`` in float64; where it rounds onto
    ``upper`` (or overflows) ``lower`` is used instead, scikit-learn's rule,
    so that ``lower <= threshold < upper`` always holds.

    Parameters
    ----------
    lower, upper : float or ndarray

    Returns
    -------
    float or ndarray
    """
    lower = np.asarray(lower, dtype=np.float64)
    upper = np.asarray(upper, dtype=np.float64)
    mid = lower / 2.0 + upper / 2.0
    out = np.where((mid == upper) | ~np.isfinite(mid), lower, mid)
    return out[()] if out.ndim == 0 else out


def _index_order(random_ranks):
    """Features visited in index order: no ranks needed."""
    return None


def _random_order(random_ranks):
    """Features visited in the node's random order: its ranks."""
    return random_ranks


# Feature visiting order by tie-break name: a function of each node's random
# ranks (shape (n_nodes, n_features)) returning the ranks to break ties by
# (None: feature index order).
TIE_BREAKS = {"first": _index_order, "random": _random_order}

# Splitters by name: whether the compiled search draws one threshold per feature
# (``_kernels_search.scan_random_thresholds``, extra trees) instead of scanning every cut.
SPLITTERS = {"best": False, "random": True}


def sort_features(X):
    """Sorted orders of every feature: the layout a growth searches.

    The values stay in ``X`` (``_kernels_search``, module docstring: a
    sorted copy would be twice the size of the orders).

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features), float64

    Returns
    -------
    rows : ndarray of shape (n_features, n_samples), int32
        ``rows[f]`` sorts feature ``f`` (stable, so ties keep row order).
    """
    n_samples, n_features = X.shape
    rows = np.empty((n_features, n_samples), dtype=np.int32)
    # One feature at a time: the sort's int64 order exists for one column, not for all at
    # once (at 1e6 x 15, 112 MB of temporaries fewer at the fit's peak); each column's stable
    # sort is the one ``np.argsort(X, axis=0, kind="stable")`` makes.
    for feature in range(n_features):
        rows[feature] = np.argsort(X[:, feature], kind="stable")
    return rows


def sorted_values(X, rows):
    """The values of a layout, ``xs[f, p] = X[rows[f, p], f]``, for the searches that walk a
    batch of nodes in Python (:class:`SegmentBatch`): a copy the size of the batch."""
    return np.take_along_axis(X.T, np.asarray(rows, dtype=np.intp), axis=1)


def search_layout(X, splitter, present=None, sorted_rows=None):
    """The rows' layout a growth searches, ``rows`` of shape (n_orders, n_present), for
    ``splitter``.

    Best splits walk every feature's sorted order (:func:`sort_features`;
    ``sorted_rows``, a forest's orders of all its rows, filtered to the rows
    ``present``).
    Random splits read ``X`` through the node's rows and never in sorted
    order (``_kernels_random``), so they take one row order: the rows
    (``present``, default all) in index order. No sort, and a split moves one
    array instead of one per feature.
    """
    if SPLITTERS[splitter]:
        rows = (
            np.arange(X.shape[0], dtype=np.int32)
            if present is None
            else np.flatnonzero(present).astype(np.int32)
        )
        return rows[None, :]
    rows = sort_features(X) if sorted_rows is None else sorted_rows
    return rows if present is None else keep_rows(rows, kernel_array(present, dtype=np.bool_))


@dataclass
class SegmentBatch:
    """The rows of a batch of nodes, each node one contiguous segment.

    Attributes
    ----------
    rows : ndarray of shape (n_features, n_positions)
        Row ids, sorted by feature within each segment.
    xs : ndarray of shape (n_features, n_positions)
        Matching feature values.
    seg_start, seg_count : ndarray of shape (n_nodes,)
        Start and length of each node's segment inside the batch (segments
        are laid end to end in node order, so ``seg_start`` is increasing).
    """

    rows: np.ndarray
    xs: np.ndarray
    seg_start: np.ndarray
    seg_count: np.ndarray

    @property
    def n_nodes(self):
        return self.seg_start.shape[0]

    @property
    def node_of_position(self):
        """Index (within the batch) of the node owning each position."""
        return np.repeat(np.arange(self.n_nodes), self.seg_count)

    @classmethod
    def from_rows(cls, X, rows_per_node):
        """Build a batch by sorting the given rows of each node afresh.

        Convenient for one-off searches (a single node of the grower, a
        cultivated-forest node); the batch fit keeps its sorted orders instead.
        """
        counts = np.array([len(r) for r in rows_per_node], dtype=np.intp)
        starts = np.concatenate([[0], np.cumsum(counts)[:-1]]).astype(np.intp)
        parts_rows = []
        for node_rows in rows_per_node:
            node_rows = np.asarray(node_rows, dtype=np.intp)
            parts_rows.append(node_rows[sort_features(X[node_rows])])
        rows = np.concatenate(parts_rows, axis=1)
        return cls(rows=rows, xs=sorted_values(X, rows), seg_start=starts, seg_count=counts)


def gather_segments(rows, X, starts, counts):
    """Gather the segments ``[start, start + count)`` of a layout's sorted orders, with their
    values read from ``X``.

    Returns
    -------
    batch : SegmentBatch
    index : ndarray of shape (n_positions,)
        Where each batch position came from, for writing results back.
    """
    starts = np.asarray(starts, dtype=np.intp)
    counts = np.asarray(counts, dtype=np.intp)
    batch_start = np.concatenate([[0], np.cumsum(counts)[:-1]]).astype(np.intp)
    index = np.arange(counts.sum()) + np.repeat(starts - batch_start, counts)
    batch_rows = np.take(rows, index, axis=1)
    batch = SegmentBatch(batch_rows, sorted_values(X, batch_rows), batch_start, counts)
    return batch, index


@dataclass
class SplitTable:
    """Every candidate split of every feature of every node of a batch.

    Attributes
    ----------
    batch : SegmentBatch
    criterion : criterion object
    proxy : ndarray of shape (n_features, n_positions)
        The criterion's proxy of the candidate at each position (it orders a
        node's candidates as the score does); ``-inf`` where there is none.
    left : ndarray of shape (n_stats, n_features, n_positions)
        Statistics of the left child of each candidate.
    parent : ndarray of shape (n_stats, n_nodes)
        Statistics of each node.
    best_proxy : ndarray of shape (n_features, n_nodes)
        Best proxy of each feature in each node (``-inf``: no candidate, or
        the feature is not in the node's random subset).
    best_position : ndarray of shape (n_features, n_nodes)
        Batch position of that best candidate (lowest on ties).
    """

    batch: SegmentBatch
    criterion: object
    proxy: np.ndarray
    left: np.ndarray
    parent: np.ndarray
    best_proxy: np.ndarray
    best_position: np.ndarray

    def score(self, feature, position):
        """Scores of candidates given by (feature, batch position) arrays."""
        node = self.batch.node_of_position[position]
        return self.criterion.score_from_proxy(self.proxy[feature, position], self.parent[:, node])

    def best_per_feature(self):
        """Best score of each feature in each node, shape (n_features, n_nodes)."""
        scores = np.full(self.best_proxy.shape, -np.inf)
        ok = np.isfinite(self.best_proxy)
        features, nodes = np.nonzero(ok)
        scores[ok] = self.score(features, self.best_position[features, nodes])
        return scores

    def best(self, rank=None):
        """The best split of each node.

        Parameters
        ----------
        rank : ndarray of shape (n_nodes, n_features), optional
            Rank of each feature in each node's visiting order; among equally
            good features the lowest rank wins. None: the lowest index wins.

        Returns
        -------
        feature, position : ndarray of shape (n_nodes,), int
            Feature and batch position of the winner.
        score : ndarray of shape (n_nodes,)
            Its score; ``-inf`` where the node has no candidate at all.
        """
        if rank is None:
            feature = np.argmax(self.best_proxy, axis=0)
        else:
            is_best = self.best_proxy == self.best_proxy.max(axis=0)
            feature = np.argmin(np.where(is_best, rank.T, rank.shape[1]), axis=0)
        nodes = np.arange(self.batch.n_nodes)
        position = self.best_position[feature, nodes]
        score = np.full(nodes.shape, -np.inf)
        ok = np.isfinite(self.best_proxy[feature, nodes])
        score[ok] = self.score(feature[ok], position[ok])
        return feature, position, score

    def threshold(self, feature, position):
        """Threshold of the candidate at (feature, batch position)."""
        xs = self.batch.xs
        return position_to_threshold(xs[feature, position], xs[feature, position + 1])

    def children(self, feature, position, node):
        """Left and right statistics of candidates, shape (n_stats, ...)."""
        left = self.left[:, feature, position]
        return left, self.parent[:, node] - left

    def local_position(self, position, node):
        """Offset of a batch position inside its node's segment."""
        return position - self.batch.seg_start[node]

    def curve(self, feature, node=0):
        """Every candidate of one feature in one node, in threshold order.

        Returns
        -------
        dict of ndarray
            ``threshold``, ``score``, ``n_left`` and ``position`` (batch
            positions) of the candidates of ``feature`` in ``node``.
        """
        start = self.batch.seg_start[node]
        stop = start + self.batch.seg_count[node]
        positions = np.arange(start, stop)
        positions = positions[np.isfinite(self.proxy[feature, start:stop])]
        features = np.full(positions.shape, feature)
        return {
            "threshold": self.threshold(feature, positions),
            "score": self.score(features, positions),
            "n_left": positions - start + 1,
            "position": positions,
        }


def _kernel_rows(rows):
    """Row ids as the kernels read them: C-ordered int32."""
    return kernel_array(rows, dtype=np.int32)


def search_splits(
    batch,
    row_stats,
    criterion,
    min_samples_leaf=1,
    min_weight_leaf=0.0,
    feature_allowed=None,
):
    """Score every candidate split of every feature of every node in ``batch``.

    The candidates are walked by the compiled kernel
    ``_kernels_search.fill_candidates``, the same walk as the growth's.

    Parameters
    ----------
    batch : SegmentBatch
    row_stats : ndarray of shape (n_stats, n_samples)
        Statistics of each training row (``criterion.row_statistics``).
    criterion : criterion object from ``trees._criterion``
    min_samples_leaf : int, default=1
        Fewest rows (unweighted) a child may have.
    min_weight_leaf : float, default=0.0
        Least total weight a child may have.
    feature_allowed : ndarray of shape (n_nodes, n_features), bool, optional
        Features each node may split on (random feature subsets); all if None.

    Returns
    -------
    SplitTable
    """
    n_features, n_positions = batch.rows.shape
    counts = np.asarray(batch.seg_count, dtype=np.int64)
    starts = np.asarray(batch.seg_start, dtype=np.int64)
    proxy = np.empty((n_features, n_positions))
    left = np.empty((row_stats.shape[0], n_features, n_positions))
    parent = np.empty((row_stats.shape[0], starts.shape[0]))
    fill_candidates(
        kernel_array(batch.xs, dtype=np.float64),
        _kernel_rows(batch.rows),
        starts,
        counts,
        kernel_array(row_stats.T, dtype=np.float64),
        KERNEL_IDS[criterion.name],
        int(min_samples_leaf),
        float(min_weight_leaf),
        (proxy, left, parent),
    )
    if n_positions == 0:
        empty = np.full((n_features, 0), -np.inf)
        return SplitTable(batch, criterion, proxy, left, parent, empty, empty.astype(np.intp))
    best_proxy = np.maximum.reduceat(proxy, starts, axis=1)
    if feature_allowed is not None:
        best_proxy[~feature_allowed.T] = -np.inf
    is_best = proxy == np.repeat(best_proxy, counts, axis=1)
    is_best &= np.isfinite(proxy)
    first = np.where(is_best, np.arange(n_positions)[None], n_positions)
    best_position = np.minimum.reduceat(first, starts, axis=1)
    best_position = np.minimum(best_position, n_positions - 1)
    return SplitTable(batch, criterion, proxy, left, parent, best_proxy, best_position)


def partition_segments(batch, n_left, goes_left):
    """Stable-partition every segment of a batch, left rows first.

    Parameters
    ----------
    batch : SegmentBatch
        The segments of the nodes that split (all of them split).
    n_left : ndarray of shape (n_nodes,), int
        Rows each node sends left.
    goes_left : ndarray of shape (n_samples,), bool
        For every row of a splitting node, whether it goes left.

    Returns
    -------
    rows : ndarray of shape (n_features, n_positions)
        The batch's orders with every segment partitioned
        (``_kernels_search.partition``); in every feature row, each side
        keeps its sorted order, so each child's segment is sorted.
    """
    rows = _kernel_rows(batch.rows).copy()
    flags = kernel_array(goes_left, dtype=np.bool_)
    spare_rows = np.empty(rows.shape[1], dtype=np.int32)
    for start, count in zip(batch.seg_start, batch.seg_count, strict=True):
        partition(rows, int(start), int(count), flags, -1, spare_rows)
    return rows.astype(batch.rows.dtype, copy=False)
