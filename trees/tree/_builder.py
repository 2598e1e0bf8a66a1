"""Growing a tree: the mutable growth state, stopping rules and growth orders.

:class:`TreeGrowth` holds a partially grown tree together with the sorted
feature orders of its training rows, and knows how to score the splits of any
set of its leaves and to split them; :func:`grow` applies the stopping rules
in one of two orders:

* ``"best_first"``: the leaf whose best split has the largest weighted
  impurity decrease is expanded next (scikit-learn's best-first builder);
* ``"level_order"``: leaves are expanded level by level, left to right, from a
  queue (source 004, section 3.4.2).

Both orders give the same tree unless ``max_leaf_nodes`` or ``max_nodes``
stops the growth early, so without those limits the tree is grown a whole
level at a time, the fast path.
"""

import heapq
from dataclasses import dataclass

import numpy as np

from ._categorical import CATEGORICAL_SPLITS, best_categorical_split
from ._pvalues import permutation_pvalue, split_criteria
from ._settings import EPSILON
from ._splitter import (
    TIE_BREAKS,
    SegmentBatch,
    check_tie_break,
    gather_segments,
    partition_segments,
    position_to_threshold,
    search_splits,
    sort_features,
)
from ._tree import Tree

__all__ = ["GROWTH_ORDERS", "SELECTIONS", "Choice", "TreeGrowth", "accepted_splits", "grow"]


@dataclass
class Choice:
    """The split a node takes.

    Attributes
    ----------
    feature : int
    score : float
        The criterion's score.
    position : int, optional
        Threshold splits: the batch position of the candidate.
    local : int, optional
        Threshold splits: the position inside the node's segment (the left
        child gets ``local + 1`` rows).
    codes : tuple of int, optional
        Membership splits: the category codes sent left.
    n_left : int, optional
        Membership splits: rows sent left.
    log_pvalue : float, optional
        Set when the node chooses by p-value.
    """

    feature: int
    score: float
    position: int = None
    local: int = None
    codes: tuple = None
    n_left: int = None
    log_pvalue: float = None

    def __lt__(self, other):  # heap entries compare choices only on exact ties of the other keys
        return self.feature < other.feature


class _NodeArrays:
    """Growable parallel arrays of node attributes."""

    def __init__(self, n_values, capacity=64):
        self.size = 0
        self.n_values = n_values
        self._arrays = {}
        self._allocate(capacity)

    _SPEC = None

    def _allocate(self, capacity):
        spec = self._SPEC = {
            "feature": (np.intp, -1),
            "threshold": (np.float64, np.nan),
            "left": (np.intp, -1),
            "right": (np.intp, -1),
            "n_samples": (np.intp, 0),
            "weighted_n_samples": (np.float64, 0.0),
            "impurity": (np.float64, 0.0),
            "depth": (np.intp, 0),
            "start": (np.intp, 0),
            "improvement": (np.float64, 0.0),
        }
        new = {name: np.full(capacity, fill, dtype=dtype) for name, (dtype, fill) in spec.items()}
        new["value"] = np.zeros((capacity, self.n_values))
        for name, old in self._arrays.items():
            new[name][: self.size] = old[: self.size]
        self._arrays = new

    def add(self, count):
        """Reserve ``count`` new node ids and return them."""
        capacity = self._arrays["feature"].shape[0]
        if self.size + count > capacity:
            self._allocate(max(2 * capacity, self.size + count))
        ids = np.arange(self.size, self.size + count)
        for name, (_, fill) in self._SPEC.items():  # ids freed by undo may hold old values
            self._arrays[name][ids] = fill
        self._arrays["value"][ids] = 0.0
        self.size += count
        return ids

    def __getattr__(self, name):
        arrays = self.__dict__.get("_arrays", {})
        if name in arrays:
            return arrays[name][: self.size]
        raise AttributeError(name)

    def truncate(self, size):
        """Forget nodes ``size`` and above (used by undo)."""
        self.size = size


class TreeGrowth:
    """A tree being grown, with the sorted orders of its training rows.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features), float64
    row_stats : ndarray of shape (n_stats, n_samples)
        Per-row criterion statistics (``criterion.row_statistics``).
    criterion : criterion object
    rules : StoppingRules
    value_offset : float, default=0.0
        Added to regression leaf means (the builder centres y).
    max_features : int or None
        Size of the random feature subset drawn at every node.
    rng : numpy.random.Generator, optional
        Source of the feature subsets (and of the permutations).
    selection : {"gain", "p_value"}, default="gain"
        How a node picks its split variable: the largest score, or the
        smallest permutation p-value of each feature's best threshold
        (source 001; classification only, see :meth:`choose`).
    n_permutations : int, default=99
        Label permutations per feature and node for ``selection="p_value"``.
    categorical : ndarray of shape (n_features,), bool, optional
        Features holding integer category codes, split by membership or
        equality (``trees._categorical``) instead of thresholds.
    categorical_split : {"membership", "equality"}, default="membership"
    tie_break : {"first", "random"}, default="first"
        Which of several equally good features a node takes: the lowest
        index, or the first in a random order drawn per node from ``rng``
        (scikit-learn's behaviour); see ``trees/tree/_splitter.py``.
    """

    def __init__(
        self,
        X,
        row_stats,
        criterion,
        rules,
        value_offset=0.0,
        max_features=None,
        rng=None,
        selection="gain",
        n_permutations=99,
        categorical=None,
        categorical_split="membership",
        tie_break="first",
    ):
        self.X = X
        self.row_stats = row_stats
        self.criterion = criterion
        self.rules = rules
        self.value_offset = value_offset
        self.n_features = X.shape[1]
        self.max_features = max_features
        self.rng = rng if rng is not None else np.random.default_rng(0)
        if selection not in SELECTIONS:
            raise ValueError(f"selection must be one of {tuple(SELECTIONS)}, got {selection!r}.")
        if selection == "p_value" and not criterion.is_classification:
            raise ValueError(
                "Selection by p-value is defined for classification (source 001), not regression."
            )
        self.selection = selection
        self.n_permutations = int(n_permutations)
        self.categorical = (
            np.zeros(X.shape[1], dtype=bool)
            if categorical is None
            else np.asarray(categorical, bool)
        )
        if categorical_split not in CATEGORICAL_SPLITS:
            raise ValueError(
                f"categorical_split must be one of {tuple(CATEGORICAL_SPLITS)}, got {categorical_split!r}."
            )
        self.categorical_split = categorical_split
        self.tie_break = check_tie_break(tie_break)
        self._rank = None  # visiting ranks of the features in the last evaluated batch
        self.categories = {}  # membership node -> codes sent left
        self.rows, self.xs = sort_features(X)
        n_values = criterion.value(row_stats[:, :1]).shape[-1]
        self.nodes = _NodeArrays(n_values)
        root = self.nodes.add(1)
        self._set_node_statistics(root, row_stats.sum(axis=1, keepdims=True), [X.shape[0]])
        self.nodes.start[root] = 0
        self.total_weight = self.nodes.weighted_n_samples[0]

    # ----------------------------------------------------------- node stats
    def _set_node_statistics(self, ids, stats, counts):
        crit = self.criterion
        self.nodes.n_samples[ids] = counts
        self.nodes.weighted_n_samples[ids] = crit.weight(stats)
        self.nodes.impurity[ids] = crit.impurity(stats)
        value = crit.value(stats)
        if not crit.is_classification:
            value = value + self.value_offset
        self.nodes.value[ids] = value

    def node_rows(self, node):
        """Training rows of a node (in order of feature 0)."""
        start, count = self.nodes.start[node], self.nodes.n_samples[node]
        return self.rows[0, start : start + count]

    def splittable(self, nodes):
        """The nodes, among ``nodes`` (leaves), that the node rules allow to split."""
        nodes = np.asarray(nodes, dtype=np.intp)
        n = self.nodes
        ok = self.rules.may_split(
            n.n_samples[nodes], n.weighted_n_samples[nodes], n.depth[nodes], n.impurity[nodes]
        )
        return nodes[ok]

    # ------------------------------------------------------------ searching
    def evaluate(self, nodes):
        """Score every candidate split of the given leaves (one batch).

        Returns
        -------
        SplitTable
            Node ``i`` of the table is ``nodes[i]``.
        """
        nodes = np.asarray(nodes, dtype=np.intp)
        batch, _ = gather_segments(
            self.rows, self.xs, self.nodes.start[nodes], self.nodes.n_samples[nodes]
        )
        allowed, self._rank = self._draw_features(batch)
        if allowed is None:
            allowed = np.ones((nodes.shape[0], self.n_features), dtype=bool)
        self._allowed = allowed  # the categorical search of choose() honours the same subsets
        return search_splits(
            batch,
            self.row_stats,
            self.criterion,
            min_samples_leaf=self.rules.min_samples_leaf,
            min_weight_leaf=self.rules.min_weight_leaf,
            feature_allowed=allowed & ~self.categorical[None, :],
        )

    def evaluate_rows(self, rows):
        """The split table of any set of rows (e.g. an internal node's), all features allowed.

        Nothing is drawn from ``rng`` (inspecting a node does not change the
        growth): ties between features go to the lowest index.
        """
        batch = SegmentBatch.from_rows(self.X, [np.asarray(rows, dtype=np.intp)])
        self._allowed = np.ones((1, self.n_features), dtype=bool)
        self._rank = None
        return search_splits(
            batch,
            self.row_stats,
            self.criterion,
            min_samples_leaf=self.rules.min_samples_leaf,
            feature_allowed=~self.categorical[None, :],
        )

    def _draw_features(self, batch):
        """Random feature subsets and visiting orders per node, non-constant features first.

        One random key per node and feature orders the features, constant
        ones last. Like scikit-learn, a subset is the first ``max_features``
        of that order, drawn among the features that are not constant in the
        node, so it holds ``max_features`` usable features when the node has
        that many; with ``tie_break="random"`` the same order breaks ties.

        Returns
        -------
        allowed : ndarray of shape (n_nodes, n_features), bool, or None
            None: every feature.
        rank : ndarray of shape (n_nodes, n_features), int, or None
            Visiting rank of each feature; None: index order.
        """
        subset = self.max_features is not None and self.max_features < self.n_features
        if not subset and self.tie_break == "first":
            return None, None
        last = batch.seg_start + batch.seg_count - 1
        constant = batch.xs[:, batch.seg_start] == batch.xs[:, last]  # (F, n_nodes)
        keys = self.rng.random((batch.n_nodes, self.n_features)) + constant.T
        ranks = np.argsort(np.argsort(keys, axis=1), axis=1)
        allowed = ranks < self.max_features if subset else None
        return allowed, TIE_BREAKS[self.tie_break](ranks)

    def choose(self, table):
        """The split each node of ``table`` takes (a :class:`Choice`, or None when none exists).

        With ``selection="gain"`` the best-scoring candidate over threshold
        and categorical splits (ties: the lower feature index, then the lower
        threshold). With ``selection="p_value"`` the feature with the smallest
        p-value (source 001): the permutation p-value of its best threshold for
        an ordered feature (:func:`trees.split_bias.permutation_pvalue`,
        unweighted rows, ``n_permutations`` label permutations), the
        Gamma-corrected Gini p-value of its k-ary table for a categorical
        one; ties go to the larger score, then the lower feature index. The
        split is then that feature's best one.
        """
        batch = table.batch
        if self.selection == "gain" and not self.categorical.any():
            # The common case, vectorised: one Choice per node straight from the table.
            feature, position, score = table.best(self._rank)
            local = position - batch.seg_start
            return [
                Choice(int(f), float(v), position=int(p), local=int(q)) if np.isfinite(v) else None
                for f, p, q, v in zip(feature, position, local, score, strict=True)
            ]
        scores = table.best_per_feature()
        choices = []
        for i in range(batch.n_nodes):
            options = [
                Choice(int(f), float(scores[f, i]), position=int(table.best_position[f, i]))
                for f in np.flatnonzero(np.isfinite(scores[:, i]))
            ]
            options += self._categorical_options(batch, i)
            if not options:
                choices.append(None)
            elif len(options) == 1:
                choices.append(options[0])
            else:
                choices.append(SELECTIONS[self.selection](self, batch, i, options))
        return choices

    def _categorical_options(self, batch, i):
        start = batch.seg_start[i]
        rows = batch.rows[0, start : start + batch.seg_count[i]]
        options = []
        for f in np.flatnonzero(self.categorical & self._allowed[i]):
            found = best_categorical_split(
                self.X[rows, f],
                self.row_stats[:, rows],
                self.criterion,
                self.categorical_split,
                self.rules.min_samples_leaf,
            )
            if found is not None:
                options.append(
                    Choice(
                        int(f),
                        found["score"],
                        codes=tuple(found["codes"].tolist()),
                        n_left=found["n_left"],
                    )
                )
        return options

    def _gain(self, left, right, parent):
        """Impurity decrease G of splits (the criterion's, or Gini's for chi2)."""
        return self.criterion.gain(left, right, parent)

    def choice_improvement(self, table, choice, node_in_batch):
        """Weighted impurity decrease ``w_t / w * G`` of a :class:`Choice`."""
        if choice.codes is None:
            return float(
                self.improvement(
                    table,
                    np.array([choice.feature]),
                    np.array([choice.position]),
                    np.array([node_in_batch]),
                )[0]
            )
        batch = table.batch
        start = batch.seg_start[node_in_batch]
        rows = batch.rows[0, start : start + batch.seg_count[node_in_batch]]
        left_rows = rows[np.isin(self.X[rows, choice.feature], choice.codes)]
        left = self.row_stats[:, left_rows].sum(axis=1)
        parent = table.parent[:, node_in_batch]
        return float(
            self.criterion.weight(parent)
            / self.total_weight
            * self._gain(left, parent - left, parent)
        )

    def improvement(self, table, feature, position, node_in_batch):
        """Weighted impurity decrease ``w_t / w * G`` of candidates of a table."""
        left, right = table.children(feature, position, node_in_batch)
        parent = table.parent[:, node_in_batch]
        return self.criterion.weight(parent) / self.total_weight * self._gain(left, right, parent)

    # ------------------------------------------------------------- splitting
    def split(self, nodes, feature, local_position, threshold=None):
        """Split leaves at chosen candidates.

        Parameters
        ----------
        nodes : array-like of int
            Leaf ids to split.
        feature : array-like of int
            Feature of each split.
        local_position : array-like of int
            Candidate of each split, counted from the start of the node's
            segment: the left child receives the ``local_position + 1`` rows
            with the lowest values of ``feature``.
        threshold : array-like of float, optional
            Thresholds to store instead of the midpoints (a hand-typed
            threshold); each must separate the same rows as its position.

        Returns
        -------
        ndarray of shape (len(nodes), 2)
            Ids of the new left and right children.
        """
        nodes = np.asarray(nodes, dtype=np.intp)
        feature = np.asarray(feature, dtype=np.intp)
        n_left = np.asarray(local_position, dtype=np.intp) + 1
        counts = self.nodes.n_samples[nodes]
        batch, index = gather_segments(self.rows, self.xs, self.nodes.start[nodes], counts)

        position = batch.seg_start + n_left - 1
        if threshold is None:
            threshold = position_to_threshold(
                batch.xs[feature, position], batch.xs[feature, position + 1]
            )
        split_rows = batch.rows[np.repeat(feature, counts), np.arange(counts.sum())]
        side_starts = np.column_stack([batch.seg_start, position + 1]).ravel()
        side_stats = np.add.reduceat(self.row_stats[:, split_rows], side_starts, axis=1)
        left_stats, right_stats = side_stats[:, 0::2], side_stats[:, 1::2]

        goes_left = np.zeros(self.X.shape[0], dtype=bool)
        goes_left[split_rows[np.arange(counts.sum()) <= np.repeat(position, counts)]] = True
        new_rows, new_xs = partition_segments(batch, n_left, goes_left)
        self.rows[:, index] = new_rows
        self.xs[:, index] = new_xs

        self.nodes.threshold[nodes] = threshold
        return self._add_children(nodes, feature, n_left, counts, left_stats, right_stats)

    def split_membership(self, node, feature, codes):
        """Split a leaf by membership: rows whose code of ``feature`` is in ``codes`` go left.

        Returns
        -------
        ndarray of shape (2,)
            The new children.
        """
        node = int(node)
        count = self.nodes.n_samples[node]
        batch, index = gather_segments(self.rows, self.xs, [self.nodes.start[node]], [count])
        rows = batch.rows[0]
        left_mask = np.isin(self.X[rows, feature], np.asarray(codes, dtype=float))
        n_left = int(left_mask.sum())
        if n_left in (0, count):
            raise ValueError(
                f"The category set {sorted(codes)} leaves one side of node {node} empty."
            )
        goes_left = np.zeros(self.X.shape[0], dtype=bool)
        goes_left[rows[left_mask]] = True
        new_rows, new_xs = partition_segments(batch, np.array([n_left]), goes_left)
        self.rows[:, index] = new_rows
        self.xs[:, index] = new_xs
        left_stats = self.row_stats[:, rows[left_mask]].sum(axis=1, keepdims=True)
        right_stats = self.row_stats[:, rows[~left_mask]].sum(axis=1, keepdims=True)
        self.categories[node] = tuple(sorted(int(c) for c in codes))
        nodes = np.array([node])
        return self._add_children(
            nodes,
            np.array([feature]),
            np.array([n_left]),
            np.array([count]),
            left_stats,
            right_stats,
        )[0]

    def apply(self, nodes, choices):
        """Split leaves by their :class:`Choice` (threshold splits in one batch)."""
        nodes = np.asarray(nodes, dtype=np.intp)
        numeric = [i for i, c in enumerate(choices) if c.codes is None]
        children = np.zeros((nodes.shape[0], 2), dtype=np.intp)
        if numeric:
            children[numeric] = self.split(
                nodes[numeric],
                [choices[i].feature for i in numeric],
                [choices[i].local for i in numeric],
            )
        for i, choice in enumerate(choices):
            if choice.codes is not None:
                children[i] = self.split_membership(nodes[i], choice.feature, choice.codes)
        return children

    def _add_children(self, nodes, feature, n_left, counts, left_stats, right_stats):
        """Record the splits of ``nodes`` and create their children."""
        n = self.nodes
        gain = self._gain(left_stats, right_stats, left_stats + right_stats)
        n.feature[nodes] = feature
        n.improvement[nodes] = n.weighted_n_samples[nodes] / self.total_weight * gain
        children = n.add(2 * nodes.shape[0]).reshape(-1, 2)
        n.left[nodes], n.right[nodes] = children[:, 0], children[:, 1]
        self._set_node_statistics(children[:, 0], left_stats, n_left)
        self._set_node_statistics(children[:, 1], right_stats, counts - n_left)
        n.start[children[:, 0]] = n.start[nodes]
        n.start[children[:, 1]] = n.start[nodes] + n_left
        n.depth[children.ravel()] = np.repeat(n.depth[nodes] + 1, 2)
        return children

    # ------------------------------------------------------------------ undo
    def snapshot(self, node):
        """What :meth:`restore` needs to undo the split of leaf ``node``."""
        start, count = self.nodes.start[node], self.nodes.n_samples[node]
        return {
            "node": int(node),
            "size": self.nodes.size,
            "rows": self.rows[:, start : start + count].copy(),
            "xs": self.xs[:, start : start + count].copy(),
        }

    def restore(self, snapshot):
        """Undo a split: the node becomes a leaf again, its children are forgotten.

        Splits must be undone in reverse order (the children must be the
        last nodes added).
        """
        node = snapshot["node"]
        start = self.nodes.start[node]
        count = snapshot["rows"].shape[1]
        self.rows[:, start : start + count] = snapshot["rows"]
        self.xs[:, start : start + count] = snapshot["xs"]
        self.nodes.truncate(snapshot["size"])
        self.nodes.feature[node] = -1
        self.nodes.threshold[node] = np.nan
        self.nodes.left[node] = self.nodes.right[node] = -1
        self.nodes.improvement[node] = 0.0
        self.categories.pop(node, None)

    # -------------------------------------------------------------- output
    def to_tree(
        self, feature_names=None, class_names=None, category_names=None, input_dtype="float64"
    ):
        """The current tree as an immutable :class:`Tree` (``input_dtype``: the precision of X)."""
        n = self.nodes
        return Tree(
            feature=n.feature.copy(),
            threshold=n.threshold.copy(),
            left=n.left.copy(),
            right=n.right.copy(),
            value=n.value.copy(),
            n_samples=n.n_samples.copy(),
            weighted_n_samples=n.weighted_n_samples.copy(),
            impurity=n.impurity.copy(),
            depth=n.depth.copy(),
            is_classifier=self.criterion.is_classification,
            n_features=self.n_features,
            feature_names=feature_names,
            class_names=class_names,
            categories=[self.categories.get(i) for i in range(n.size)],
            category_names=category_names,
            input_dtype=input_dtype,
        )


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
    for option in options:
        if option.codes is None:
            f = option.feature
            p, _ = permutation_pvalue(
                batch.xs[f, start:stop],
                labels[batch.rows[f, start:stop]],
                n_classes,
                growth.n_permutations,
                seed,
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


def accepted_splits(growth, table):
    """Chosen split of each node of a table, its improvement, and whether the rules accept it."""
    choices = growth.choose(table)
    improvement = np.full(len(choices), -np.inf)
    numeric = np.array(
        [i for i, c in enumerate(choices) if c is not None and c.codes is None], dtype=np.intp
    )
    if numeric.size:  # one vectorised call for every threshold split
        features = np.array([choices[i].feature for i in numeric])
        positions = np.array([choices[i].position for i in numeric])
        improvement[numeric] = growth.improvement(table, features, positions, numeric)
        for i in numeric:
            choices[i].local = int(table.local_position(choices[i].position, i))
    for i, choice in enumerate(choices):
        if choice is not None and choice.codes is not None:
            improvement[i] = growth.choice_improvement(table, choice, i)
    ok = improvement + EPSILON >= growth.rules.min_impurity_decrease
    return choices, improvement, ok


def _grow_level_order(growth):
    """Expand every splittable leaf of a level in one batch, level after level."""
    budget = growth.rules.max_splits
    frontier = np.array([0])
    while frontier.size and (budget is None or budget > 0):
        candidates = growth.splittable(frontier)
        if not candidates.size:
            break
        table = growth.evaluate(candidates)
        choices, _, ok = accepted_splits(growth, table)
        chosen = np.flatnonzero(ok)
        if budget is not None:
            chosen = chosen[:budget]
            budget -= chosen.size
        if not chosen.size:
            break
        children = growth.apply(candidates[chosen], [choices[i] for i in chosen])
        frontier = children.ravel()


def _grow_best_first(growth):
    """Expand the leaf with the largest weighted impurity decrease first.

    Ties go to the lower node id. Each expansion scores the two new children
    in one batch.
    """
    budget = growth.rules.max_splits
    heap = []

    def push(nodes):
        candidates = growth.splittable(nodes)
        if not candidates.size:
            return
        table = growth.evaluate(candidates)
        choices, improvement, ok = accepted_splits(growth, table)
        for i in np.flatnonzero(ok):
            heapq.heappush(heap, (-improvement[i], int(candidates[i]), choices[i]))

    push(np.array([0]))
    while heap and (budget is None or budget > 0):
        _, node, choice = heapq.heappop(heap)
        children = growth.apply([node], [choice])[0]
        if budget is not None:
            budget -= 1
        push(children)


# Growth orders by name (module docstring).
GROWTH_ORDERS = {"best_first": _grow_best_first, "level_order": _grow_level_order}


def grow(growth, order="best_first"):
    """Grow ``growth`` until the stopping rules end it.

    Parameters
    ----------
    growth : TreeGrowth
    order : {"best_first", "level_order"}
        Only matters when ``max_leaf_nodes`` or ``max_nodes`` is set: without
        them both orders give the same tree, grown level by level.
    """
    if order not in GROWTH_ORDERS:
        raise ValueError(f"growth must be one of {tuple(GROWTH_ORDERS)}, got {order!r}.")
    if growth.rules.max_splits is None:
        order = "level_order"  # the same tree either way: grow a whole level at a time
    GROWTH_ORDERS[order](growth)
    return growth
