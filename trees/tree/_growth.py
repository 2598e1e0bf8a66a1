"""A tree being grown: its nodes, the sorted orders of its rows, and how to search and split them.

:class:`GrowingTree` is the state shared by the batch fit (``_builder.grow``),
the step-by-step grower and the forests. Its nodes live in the node store of
the compiled growth loop (``_kernels_growth``: one row per node id of four
arrays), so the loop can grow a whole tree in one call and the grower can
continue, split by hand or undo on the same arrays. Node values and
impurities are computed from each node's statistics with the numpy criteria
(``_criterion``), the same formulas for every path.

Searching a node has two forms, both on the same sorted orders:

* :meth:`GrowingTree.best_splits`: the compiled search of each node's best
  split (selection by gain), what growth uses;
* :meth:`GrowingTree.evaluate`: every candidate of every feature as a
  :class:`~trees.tree._splitter.SplitTable`, for score curves, for the
  inspection of a node, and for selection by p-value (source 001).
"""

from dataclasses import dataclass

import numpy as np

from ._categorical import best_categorical_split
from ._kernels_arrays import kernel_array
from ._kernels_criteria import KERNEL_IDS
from ._kernels_entries import grower_kernels, growth_kernel
from ._kernels_growth import (
    CHOICE_FEATURE,
    CHOICE_IMPROVEMENT,
    CHOICE_LOCAL,
    CHOICE_MISSING_LEFT,
    CHOICE_N_LEFT,
    CHOICE_SCORE,
    CHOICE_THRESHOLD,
    DEPTH,
    FEATURE,
    FLOAT_COLUMNS,
    INT_COLUMNS,
    LEFT,
    LIMIT_MAX_DEPTH,
    LIMIT_MAX_SPLITS,
    LIMIT_MIN_SAMPLES_LEAF,
    LIMIT_MIN_SAMPLES_SPLIT,
    LIMIT_N_CODES,
    LIMIT_REFUSE_ZERO_GAIN,
    MISSING_LEFT,
    N_LIMITS,
    N_SAMPLES,
    RIGHT,
    SKLEARN_VARIANCE,
    STORE_FLOATS,
    STORE_INTS,
    STORE_SETS,
    STORE_STATS,
    THRESHOLD,
    WEIGHT_MIN_IMPURITY_DECREASE,
    WEIGHT_MIN_LEAF,
    WEIGHT_TOTAL,
    root_sklearn_variance,
)
from ._kernels_layout import feature_columns
from ._kernels_plan import kernel_plan
from ._kernels_search import (
    DATA_CATEGORICAL,
    DATA_COLUMNS,
    DATA_ORDERS,
    DATA_ROWS,
    DATA_STATS,
    DATA_TARGETS,
    DATA_X,
)
from ._node_view import NodeView
from ._selection import SELECTIONS
from ._splitter import (
    SPLITTERS,
    TIE_BREAKS,
    SegmentBatch,
    gather_segments,
    search_splits,
    sort_features,
)
from ._tree import Tree

__all__ = [
    "SELECTIONS",
    "Choice",
    "GrowingTree",
    "node_categories",
    "root_statistics",
    "store_categories",
    "tree_from_store",
]


@dataclass
class Choice:
    """The split a node takes.

    Attributes
    ----------
    feature : int
    score : float
        The criterion's score.
    position : int, optional
        Threshold splits found in a table: the batch position of the candidate.
    local : int, optional
        Threshold splits: the position inside the node's segment (the left
        child gets ``local + 1`` rows).
    codes : tuple of int, optional
        Membership splits: the category codes sent left.
    n_left : int, optional
        Membership splits: rows sent left.
    log_pvalue : float, optional
        Set when the node chooses by p-value.
    threshold : float, optional
        A random split's drawn threshold (``splitter="random"``); NaN: the
        midpoint of the cut.
    missing_left : bool, optional
        Threshold splits: whether the feature's missing rows go left.
    """

    feature: int
    score: float
    position: int = None
    local: int = None
    codes: tuple = None
    n_left: int = None
    log_pvalue: float = None
    threshold: float = np.nan
    missing_left: bool = False

    def __lt__(self, other):  # heap entries compare choices only on exact ties of the other keys
        return self.feature < other.feature


# The attribute of a growing tree at each position of the kernels' ``data``.
_KERNEL_DATA = {
    DATA_ROWS: "rows",
    DATA_STATS: "_stats_by_row",
    DATA_X: "X",
    DATA_CATEGORICAL: "categorical",
    DATA_TARGETS: "targets",
    DATA_ORDERS: "orders",
    DATA_COLUMNS: "columns",
}


def _category_codes(X, categorical):
    """Number of category codes (largest code + 1) over the categorical features."""
    return int(X[:, categorical].max()) + 1 if categorical.any() else 0


class GrowingTree:
    """A tree being grown, with the sorted orders of its training rows.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features), float64
    row_stats : ndarray of shape (n_stats, n_samples)
        Per-row criterion statistics (``criterion.row_statistics``).
    params : TreeParams
        The tree's settings (``_params``), validated. Besides the stopping
        rules, the growth reads the criterion, ``max_features``, the
        selection (``"p_value"``: the smallest permutation p-value of each
        feature's best threshold, source 001; see :meth:`choose`) and its
        ``n_permutations``, the categorical split, the tie-break (the lowest
        index, or the first in a random order drawn per node from ``rng``,
        scikit-learn's behaviour; see ``trees/tree/_splitter.py``) and
        ``variance_sums`` (regression: whether ``row_stats`` hold centred
        targets, and a node whose target is constant is a leaf, or raw ones,
        with scikit-learn's rule: a node is a leaf when its variance,
        computed in scikit-learn's order of operations, is at most
        ``EPSILON``; ``_settings.VARIANCE_SUMS``).
    rules : StoppingRules, optional
        The stopping rules resolved for the rows (default:
        ``params.stopping_rules`` of the rows of ``X``; a forest's tree
        resolves fractions against every row given).
    categorical : ndarray of shape (n_features,), bool, optional
        Features holding integer category codes, split by membership or
        equality (``trees._categorical``) instead of thresholds (default:
        ``params.categorical_mask(X)``).
    value_offset : float, default=0.0
        Added to regression leaf means (the builder centres y).
    rng : numpy.random.Generator, optional
        Source of the feature subsets, of the random tie-break and of the
        permutations.
    presorted : ndarray of shape (n_orders, n_present), optional
        The layout of the rows (``_splitter.search_layout``), when the
        caller has them (a forest sorts once for all its trees); row ids in
        ``rows`` index ``X`` and ``row_stats``.
    criterion : Criterion, optional
        A multi-output one (``_criterion_multi_output``); default ``params.new_criterion()``.
    targets : ndarray of shape (n_samples,), optional
        Regression: the target of each row, read to leave a node whose
        target is constant a leaf (its computed variance may be a rounding
        error above zero), and to give each node the mean of its rows'
        targets (``_kernels_node_values.node_means``; a pure leaf its target
        exactly). Defaults to ``w*y / w`` from ``row_stats``, and the values
        to the criterion's mean plus ``value_offset``.
    """

    def __init__(
        self,
        X,
        row_stats,
        params,
        rules=None,
        *,
        categorical=None,
        value_offset=0.0,
        rng=None,
        presorted=None,
        targets=None,
        criterion=None,
    ):
        self.X = kernel_array(X, dtype=np.float64)
        self.row_stats = row_stats
        self.params = params
        self.criterion = params.new_criterion() if criterion is None else criterion
        self.rules = rules if rules is not None else params.stopping_rules(X.shape[0])
        self.value_offset = value_offset
        self.n_features = X.shape[1]
        self.max_features = params.max_features_for(self.n_features)
        self.rng = rng if rng is not None else np.random.default_rng(0)
        self.categorical = (
            params.categorical_mask(self.X)
            if categorical is None
            else np.asarray(categorical, bool)
        )
        if self.criterion.needs_rows and self.categorical.any():
            raise ValueError(
                f"criterion={self.criterion.name!r} splits ordered features only, and features "
                f"{np.flatnonzero(self.categorical).tolist()} are categorical (a median has no "
                "order of categories to scan). Encode them as numbers (ordinal or one-hot), or "
                "use criterion='squared_error'."
            )
        self._rank = None  # visiting ranks of the features in the last evaluated table
        # Random splits read X feature by feature (``_kernels_random``); other searches never.
        random = SPLITTERS[params.splitter]
        self.columns = feature_columns(self.X) if random else np.empty((0, 0))
        self.rows = sort_features(self.X) if presorted is None else presorted
        self._stats_by_row = kernel_array(row_stats.T)
        self.targets = self._row_targets(targets)
        # Regression values are means of the rows' own targets when the caller gave them.
        self.raw_targets = targets is not None and not self.criterion.is_classification
        in_index_order = np.sort(self.rows[0])
        self.orders = self._sklearn_orders(in_index_order)
        self._start_store(root_statistics(row_stats, in_index_order))
        self.total_weight = float(self.criterion.weight(self.store[STORE_STATS][0]))

    @property
    def nodes(self):
        """What the nodes hold, by attribute (:class:`NodeView`), read from the store now.

        A new view at each access: a view kept on the growth would make a
        reference cycle (growth -> view -> growth), and the growth's arrays
        (its rows, sorted layouts and node store, several times the data) would
        outlive each tree until the garbage collector ran.
        """
        return NodeView(self)

    @property
    def selection(self):
        """How a node picks its split variable (``params.selection``)."""
        return self.params.selection

    def _row_targets(self, targets):
        """Each row's target, for the constant-target rule of regression (empty otherwise)."""
        if self.criterion.is_classification:
            return np.zeros(0)
        if targets is not None:
            return kernel_array(targets, dtype=np.float64)
        weight = self.row_stats[0]
        return np.divide(self.row_stats[1], weight, out=np.zeros_like(weight), where=weight > 0)

    def _sklearn_orders(self, in_index_order):
        """The rows in scikit-learn's order (raw sums: ``_kernels_sklearn_order``), at first in
        index order as scikit-learn's splitter takes them; an empty pair otherwise."""
        if not self._sklearn_pure_rule:
            return np.empty((2, 0), dtype=self.rows.dtype)
        return np.vstack([in_index_order, in_index_order])

    def _start_store(self, root_stats):
        n_codes = max(_category_codes(self.X, self.categorical), 1)
        ints = np.zeros((64, INT_COLUMNS), dtype=np.int64)
        ints[0, [FEATURE, LEFT, RIGHT]] = -1
        ints[0, N_SAMPLES] = self.rows.shape[1]
        floats = np.zeros((64, FLOAT_COLUMNS))
        floats[0, THRESHOLD] = np.nan
        if self._sklearn_pure_rule:
            floats[0, SKLEARN_VARIANCE] = root_sklearn_variance(
                self.orders, self.targets, self._stats_by_row
            )
        node_stats = np.zeros((64, root_stats.shape[0]))
        node_stats[0] = root_stats
        self.store = (ints, floats, node_stats, np.zeros((64, n_codes), dtype=np.uint8))
        self.size = 1
        # The nodes' impurities when the compiled growth gave them (``_builder``), until a
        # split or an undo changes the nodes (``NodeView.impurity``).
        self.grown_impurity = None

    # ------------------------------------------------------- compiled inputs
    def kernel_data(self):
        """The arrays the compiled kernels read, at the positions ``_kernels_search.DATA_*``."""
        data = [None] * len(_KERNEL_DATA)
        for position, name in _KERNEL_DATA.items():
            data[position] = getattr(self, name)
        return tuple(data)

    def growth_kernel(self):
        """The entry kernel that grows this tree whole (``_builder``), called with
        :meth:`kernel_data` then ``(root_stats, settings, rules, rng)``: ``growth_kernel`` of
        its plan (``_kernels_entries``)."""
        return growth_kernel(self.kernel_plan())

    def kernel_plan(self):
        """The growth's plan (``_kernels_plan.KernelPlan``): what chooses its compiled code."""
        return kernel_plan(
            KERNEL_IDS[self.criterion.name],
            by_score=self.categorical.any(),
            random=SPLITTERS[self.params.splitter],
            draw=self.kernel_randomness()[1],
            raw_sums=self._sklearn_pure_rule,
        )

    def kernel_settings(self):
        """``(min_leaf, min_weight, equality)``: the split rules besides the plan
        (``_kernels_search.SETTING_*``)."""
        return (
            int(self.rules.min_samples_leaf),
            float(self.rules.min_weight_leaf),
            self.params.categorical_split == "equality",
        )

    def kernel_rules(self):
        """``limits`` and ``weights`` arrays of ``_kernels_growth.grow_compiled``."""
        rules = self.rules
        limits = np.empty(N_LIMITS, dtype=np.int64)
        limits[LIMIT_MAX_DEPTH] = -1 if rules.max_depth is None else rules.max_depth
        limits[LIMIT_MIN_SAMPLES_SPLIT] = rules.min_samples_split
        limits[LIMIT_MIN_SAMPLES_LEAF] = rules.min_samples_leaf
        limits[LIMIT_MAX_SPLITS] = -1 if rules.max_splits is None else rules.max_splits
        limits[LIMIT_REFUSE_ZERO_GAIN] = int(getattr(self.criterion, "refuses_zero_gain", False))
        limits[LIMIT_N_CODES] = self.store[STORE_SETS].shape[1]
        weights = np.empty(3)
        weights[WEIGHT_MIN_LEAF] = rules.min_weight_leaf
        weights[WEIGHT_MIN_IMPURITY_DECREASE] = rules.min_impurity_decrease
        weights[WEIGHT_TOTAL] = self.total_weight
        return limits, weights

    def kernel_randomness(self):
        """``(rng, draw, tie_random, n_allowed)``: when and how nodes draw feature keys."""
        subset = self.max_features is not None and self.max_features < self.n_features
        draw = subset or self.params.tie_break == "random"
        n_allowed = self.max_features if subset else self.n_features
        return self.rng, draw, self.params.tie_break == "random", int(n_allowed)

    def _kernel_search(self):
        """The ``search`` of the grower's kernels (``_kernels_growth.evaluate_nodes``)."""
        limits, weights = self.kernel_rules()
        rng, _, tie_random, n_allowed = self.kernel_randomness()  # draws: the plan's
        visit = np.empty(self.n_features, dtype=np.int64)
        return (self.kernel_settings(), limits, weights, rng, tie_random, n_allowed, visit)

    # ------------------------------------------------------------ queries
    def node_rows(self, node):
        """Training rows of a node (in order of feature 0)."""
        start, count = self.nodes.start[node], self.nodes.n_samples[node]
        return self.rows[0, start : start + count]

    @property
    def _sklearn_pure_rule(self):
        """Whether a regression node's purity is judged as scikit-learn does (raw sums); not
        under a criterion that judges it from the rows (the absolute error), nor of several targets."""
        criterion = self.criterion
        return (
            not criterion.is_classification
            and not criterion.needs_rows and criterion.n_outputs == 1
            and self.params.variance_sums == "raw"
        )  # fmt: skip

    def splittable(self, nodes):
        """The nodes, among ``nodes`` (leaves), that the node rules allow to split: the
        compiled growth's own rule (``_kernels_growth.splittable_nodes``)."""
        nodes = np.asarray(nodes, dtype=np.int64)
        splittable = grower_kernels(self.kernel_plan()).splittable
        return nodes[splittable(self.kernel_data(), self.store, nodes, self._kernel_search())]

    @property
    def categories(self):
        """Membership nodes and the category codes each sends left."""
        if not self.categorical.any():
            return {}  # only a categorical feature makes membership splits
        return store_categories(self.store, self.size)

    # ------------------------------------------------------------ searching
    def best_splits(self, nodes):
        """The compiled search of the best split of each node (selection by gain).

        Draws the nodes' feature keys from ``rng`` in node order, as the
        compiled growth does.

        Returns
        -------
        choices : list of Choice or None
        improvement : ndarray
            Weighted impurity decrease of each choice (``-inf``: none).
        ok : ndarray of bool
            Whether the stopping rules accept it.
        """
        nodes = np.asarray(nodes, dtype=np.int64)
        evaluate = grower_kernels(self.kernel_plan()).evaluate
        ok = evaluate(self.kernel_data(), self.store, nodes, self._kernel_search())
        ints, floats, sets = (
            self.store[STORE_INTS],
            self.store[STORE_FLOATS],
            self.store[STORE_SETS],
        )
        choices, improvement = [], np.full(nodes.shape[0], -np.inf)
        for i, node in enumerate(nodes):
            feature = int(ints[node, CHOICE_FEATURE])
            if feature < 0 or floats[node, CHOICE_SCORE] == -np.inf:
                choices.append(None)
                ok[i] = False
                continue
            local = int(ints[node, CHOICE_LOCAL])
            score = float(floats[node, CHOICE_SCORE])
            if local >= 0:
                threshold = float(floats[node, CHOICE_THRESHOLD])
                missing_left = bool(ints[node, CHOICE_MISSING_LEFT])
                choices.append(
                    Choice(feature, score, local=local, threshold=threshold,
                           missing_left=missing_left)
                )  # fmt: skip
            else:
                codes = tuple(np.flatnonzero(sets[node]).tolist())
                n_left = int(ints[node, CHOICE_N_LEFT])
                choices.append(Choice(feature, score, codes=codes, n_left=n_left))
            improvement[i] = floats[node, CHOICE_IMPROVEMENT]
        return choices, improvement, ok

    def evaluate(self, nodes):
        """Score every candidate split of the given leaves (one table).

        Returns
        -------
        SplitTable
            Node ``i`` of the table is ``nodes[i]``.
        """
        nodes = np.asarray(nodes, dtype=np.intp)
        batch, _ = gather_segments(
            self.rows, self.X, self.nodes.start[nodes], self.nodes.n_samples[nodes]
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
        The compiled search (``_kernels_search.visiting_order``) draws the
        same keys.

        Returns
        -------
        allowed : ndarray of shape (n_nodes, n_features), bool, or None
            None: every feature.
        rank : ndarray of shape (n_nodes, n_features), int, or None
            Visiting rank of each feature; None: index order.
        """
        subset = self.max_features is not None and self.max_features < self.n_features
        if not subset and self.params.tie_break == "first":
            return None, None
        last = batch.seg_start + batch.seg_count - 1
        constant = batch.xs[:, batch.seg_start] == batch.xs[:, last]  # (F, n_nodes)
        keys = self.rng.random((batch.n_nodes, self.n_features)) + constant.T
        ranks = np.argsort(np.argsort(keys, axis=1), axis=1)
        allowed = ranks < self.max_features if subset else None
        return allowed, TIE_BREAKS[self.params.tie_break](ranks)

    def choose(self, table):
        """The split each node of ``table`` takes (a :class:`Choice`, or None when none exists).

        With ``selection="gain"`` the best-scoring candidate over threshold
        and categorical splits (ties: the feature visited first, then the
        lower threshold). With ``selection="p_value"`` the feature with the
        smallest p-value (source 001): the permutation p-value of its best
        threshold for an ordered feature (:func:`trees.split_bias.permutation_pvalue`,
        unweighted rows, ``n_permutations`` label permutations), the
        Gamma-corrected Gini p-value of its k-ary table for a categorical
        one; ties go to the larger score, then the feature visited first.
        The split is then that feature's best one.
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
                self.params.categorical_split,
                self.rules.min_samples_leaf,
                self.rules.min_weight_leaf,
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

    def choice_improvement(self, table, choice, node_in_batch):
        """Weighted impurity decrease ``w_t / w * G`` of a :class:`Choice` found in a table."""
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
        gain = self.criterion.gain(left, parent)
        return float(
            self.criterion.weighted_improvement(
                self.criterion.weight(parent), self.total_weight, gain
            )
        )

    def improvement(self, table, feature, position, node_in_batch):
        """Weighted impurity decrease ``w_t / w * G`` of candidates of a table."""
        left, _ = table.children(feature, position, node_in_batch)
        parent = table.parent[:, node_in_batch]
        weight = self.criterion.weight(parent)
        gain = self.criterion.gain(left, parent)
        return self.criterion.weighted_improvement(weight, self.total_weight, gain)

    # ------------------------------------------------------------- splitting
    def _split_by_choice(self, node, feature, local=-1, codes=None, threshold=np.nan,
                         missing_left=False):  # fmt: skip
        """Record a choice for ``node`` and split it (compiled); return its children.

        ``threshold``: a random split's draw (NaN: the midpoint of the cut);
        ``missing_left``: whether the feature's missing rows go left.
        """
        ints = self.store[STORE_INTS]
        ints[node, CHOICE_FEATURE], ints[node, CHOICE_LOCAL] = feature, local
        ints[node, CHOICE_MISSING_LEFT] = missing_left
        self.store[STORE_FLOATS][node, CHOICE_THRESHOLD] = threshold
        if codes is not None:
            self.store[STORE_SETS][node] = 0
            self.store[STORE_SETS][node, list(codes)] = 1
        split = grower_kernels(self.kernel_plan()).split
        self.store = split(self.kernel_data(), self.store, node, self.size)
        self.size += 2
        self.grown_impurity = None
        return np.array([self.size - 2, self.size - 1])

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
        nodes = np.atleast_1d(np.asarray(nodes, dtype=np.intp))
        children = np.zeros((nodes.shape[0], 2), dtype=np.intp)
        for i, node in enumerate(nodes):
            children[i] = self._split_by_choice(int(node), int(feature[i]), int(local_position[i]))
            if threshold is not None:
                self.store[STORE_FLOATS][node, THRESHOLD] = threshold[i]
        return children

    def split_membership(self, node, feature, codes):
        """Split a leaf by membership: rows whose code of ``feature`` is in ``codes`` go left.

        Returns
        -------
        ndarray of shape (2,)
            The new children.
        """
        node = int(node)
        rows = self.node_rows(node)
        n_left = int(np.isin(self.X[rows, feature], np.asarray(codes, dtype=float)).sum())
        if n_left in (0, rows.shape[0]):
            raise ValueError(
                f"The category set {sorted(codes)} leaves one side of node {node} empty."
            )
        codes = [int(c) for c in codes if 0 <= int(c) < self.store[STORE_SETS].shape[1]]
        return self._split_by_choice(node, int(feature), codes=codes)

    def apply(self, nodes, choices):
        """Split leaves by their :class:`Choice`."""
        children = np.zeros((len(choices), 2), dtype=np.intp)
        for i, (node, choice) in enumerate(zip(nodes, choices, strict=True)):
            if choice.codes is None:
                children[i] = self._split_by_choice(
                    int(node), choice.feature, choice.local, threshold=choice.threshold,
                    missing_left=choice.missing_left,
                )  # fmt: skip
            else:
                children[i] = self.split_membership(node, choice.feature, choice.codes)
        return children

    # ------------------------------------------------------------------ undo
    def snapshot(self, node):
        """What :meth:`restore` needs to undo the split of leaf ``node``."""
        start, count = self.nodes.start[node], self.nodes.n_samples[node]
        return {
            "node": int(node),
            "size": self.size,
            "rows": self.rows[:, start : start + count].copy(),
            "orders": self.orders[:, start : start + count].copy(),
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
        self.orders[:, start : start + count] = snapshot["orders"]  # (2, 0) without raw sums
        self.size = snapshot["size"]
        self.grown_impurity = None
        ints = self.store[STORE_INTS]
        ints[node, [FEATURE, LEFT, RIGHT]] = -1
        ints[node, MISSING_LEFT] = 0
        self.store[STORE_FLOATS][node, THRESHOLD] = np.nan
        self.store[STORE_SETS][node] = 0

    # -------------------------------------------------------------- output
    def to_tree(
        self, feature_names=None, class_names=None, category_names=None, input_dtype="float64"
    ):
        """The current tree as an immutable :class:`Tree` (``input_dtype``: the precision of X)."""
        n = self.nodes
        return tree_from_store(
            self.store,
            self.size,
            (n.value, n.weighted_n_samples, n.impurity),
            is_classifier=self.criterion.is_classification,
            n_features=self.n_features,
            feature_names=feature_names,
            class_names=class_names,
            categories=node_categories(self.categories, n.size),
            category_names=category_names,
            input_dtype=input_dtype,
            n_outputs=self.criterion.n_outputs,
        )


def root_statistics(row_stats, held):
    """A root's statistics: ``row_stats`` (n_stats, n_rows) summed over the rows ``held``
    (in index order) with numpy's sums, over every row as given when all are held (a gathered
    copy is laid out otherwise, and numpy sums it in another order). One rule for a growth
    and a forest's batches (``ensemble._batches``), whose trees must be the same to the bit."""
    return row_stats[:, slice(None) if held.shape[0] == row_stats.shape[1] else held].sum(axis=1)


def store_categories(store, size):
    """The membership nodes among the first ``size`` of a node store (``_kernels_growth``),
    each with the category codes it sends left: ``{node: codes}``."""
    ints, floats, sets = store[STORE_INTS], store[STORE_FLOATS], store[STORE_SETS]
    internal = ints[:size, FEATURE] >= 0
    membership = np.flatnonzero(internal & np.isnan(floats[:size, THRESHOLD]))
    return {int(i): tuple(np.flatnonzero(sets[i]).tolist()) for i in membership}


def node_categories(categories, size):
    """:class:`Tree`'s ``categories`` from :func:`store_categories`: each node's codes sent
    left, None for a threshold node or a leaf; None for a tree without membership node."""
    return [categories.get(i) for i in range(size)] if categories else None


def tree_from_store(store, size, node_numbers, **fields):
    """A :class:`Tree` of the first ``size`` nodes of a node store (``_kernels_growth``).

    ``node_numbers`` is ``(value, weighted_n_samples, impurity)`` of those nodes, which the
    criterion gives (:class:`NodeView`); ``fields`` are the tree's other arguments (whether it
    classifies, its features, names, categories, input precision). One layout for a growth's
    tree (:meth:`GrowingTree.to_tree`) and a forest's batches (``ensemble._forest``).
    """
    ints, floats = store[STORE_INTS][:size], store[STORE_FLOATS][:size]
    value, weighted_n_samples, impurity = node_numbers
    return Tree(
        feature=ints[:, FEATURE].copy(),
        threshold=floats[:, THRESHOLD].copy(),
        left=ints[:, LEFT].copy(),
        right=ints[:, RIGHT].copy(),
        value=value,
        n_samples=ints[:, N_SAMPLES].copy(),
        weighted_n_samples=weighted_n_samples,
        impurity=impurity,
        depth=ints[:, DEPTH].copy(),
        missing_go_to_left=ints[:, MISSING_LEFT] != 0,
        check=False,  # built by a growth: consistent by construction
        **fields,
    )
