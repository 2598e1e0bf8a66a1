"""Growing a tree one split at a time: the engine of the step-by-step page.

:class:`TreeGrower` wraps the batch fit's :class:`GrowingTree` (so it uses the
one split search) and adds what a person growing a tree by hand needs: the
next node in a growth order, every candidate split of a node with its score
curve, hand-chosen splits, undo, and the tree as it was after each step.

Growth orders (source 004, section 3.4.2, and scikit-learn's best-first):

* ``"best_first"``: the next node is the leaf whose best split brings the
  largest weighted impurity decrease (ties: the lower node id);
* ``"level_order"``: the next node is the oldest leaf still in the queue,
  which is the leaf with the lowest id since children are numbered in the
  order they are created.

Stopping rules apply to :meth:`TreeGrower.step` and
:meth:`TreeGrower.grow_all`. A hand-chosen split (:meth:`TreeGrower.expand`
with a feature or threshold) is the user's decision: it is refused only when
it would leave one side empty.
"""

from dataclasses import dataclass

import numpy as np

from ._builder import GrowingTree, accepted_choices
from ._categorical import best_categorical_split
from ._operators import cast_input
from ._params import TreeParams
from ._settings import check_missing_values, missing_features, target_statistics

__all__ = ["Candidate", "TreeGrower"]


@dataclass
class Candidate:
    """The best split of one feature at one node.

    Attributes
    ----------
    feature : int
    feature_name : str
    threshold : float or None
        None when the feature has no candidate (constant in the node, or no
        threshold keeps ``min_samples_leaf`` rows on both sides).
    score : float or None
        The criterion's score (gain, or chi-square).
    n_left, n_right : int
        Rows sent to each side.
    left_value, right_value : list of float
        Class shares (classification) or mean of y (regression) of each side.
    categories : tuple of int, optional
        Categorical features: the category codes sent left (``threshold`` is then None).
    """

    feature: int
    feature_name: str
    threshold: float | None
    score: float | None
    n_left: int
    n_right: int
    left_value: list
    right_value: list
    categories: tuple = None


class TreeGrower:
    """Grow a CART tree step by step.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
    y : array-like of shape (n_samples,)
    params : TreeParams, optional
        The tree's settings (``trees.tree.TreeParams``); the keyword
        ``settings`` replace them.
    random_state : int, default=0
        Seeds the feature subsets, the permutations and the random tie-break.
    sample_weight : array-like of shape (n_samples,), optional
    feature_names, class_names : list of str, optional
    category_names : dict {feature: list of str}, optional
        Names of the category codes, for display.
    **settings
        Every tree setting the estimators have, with their meaning there
        (:class:`trees.DecisionTreeClassifier`, and ``variance_sums`` of
        :class:`trees.DecisionTreeRegressor`): ``criterion`` (default
        ``"gini"``; the task follows from it), the stopping rules,
        ``max_features``, ``growth``, ``selection`` and ``n_permutations``
        (source 001; classification only), ``tie_break`` (inspecting a node,
        :meth:`candidates` and :meth:`score_curve`, draws nothing and lists
        ties in index order), ``threshold_dtype``, ``categorical_features``
        and ``categorical_split``, ``variance_sums`` and ``conditioning``
        (kept with the settings; the grower predicts under ``<=``).

    Attributes
    ----------
    params : TreeParams
        The validated settings.
    missing_features : tuple of int
        The features with missing values (NaN), which each split on them routes.
    tree : Tree
        The current tree.
    split_order : list of int
        Nodes in the order they were split.
    classes_ : ndarray
        Class labels (classification).
    """

    def __init__(
        self,
        X,
        y,
        params=None,
        *,
        random_state=0,
        sample_weight=None,
        feature_names=None,
        class_names=None,
        category_names=None,
        **settings,
    ):
        self.params = params = TreeParams.checked(params, **settings)
        if params.ccp_alpha > 0:
            raise ValueError(
                "ccp_alpha prunes a grown tree; the step-by-step grower grows by hand. Grow with "
                "DecisionTreeClassifier/Regressor(ccp_alpha=...) to prune, or leave ccp_alpha at 0."
            )
        self.X = cast_input(np.asarray(X, dtype=np.float64), params.threshold_dtype)
        if self.X.ndim != 2 or self.X.shape[0] < 2:
            raise ValueError("X must be a 2-D array with at least 2 rows.")
        if np.isinf(self.X).any():
            raise ValueError(
                "X has infinite values: replace them by large finite ones or by NaN (a missing "
                "value, which the tree routes)."
            )
        check_missing_values(self.X, params.selection)
        # The features with missing values (NaN): a split on one says where they go (drawing).
        self.missing_features = missing_features(self.X)
        n_samples, n_features = self.X.shape
        self.is_classifier = params.is_classification
        self.feature_names = (
            [str(f) for f in feature_names]
            if feature_names is not None
            else [f"x{j}" for j in range(n_features)]
        )
        weight = (
            np.ones(n_samples) if sample_weight is None else np.asarray(sample_weight, dtype=float)
        )
        self.rules = params.stopping_rules(n_samples, float(weight.sum()))
        self.criterion = params.new_criterion()
        if self.criterion.needs_rows:
            raise ValueError(
                f"The step-by-step grower scores every candidate from sums, and "
                f"criterion={params.criterion!r} has none (its medians need a node's rows). Grow "
                "it with DecisionTreeRegressor, or pick another criterion here."
            )
        self.row_stats, self._offset, self.classes_ = target_statistics(
            self.criterion, y, weight, params.variance_sums
        )
        self._targets = None if self.is_classifier else np.asarray(y, dtype=np.float64)
        self.class_names = None
        if self.is_classifier:
            self.class_names = [
                str(c) for c in (class_names if class_names is not None else self.classes_)
            ]
        self.random_state = random_state
        self.categorical = params.categorical_mask(self.X, self.feature_names)
        self.category_names = category_names
        self.reset()

    # ------------------------------------------------------------ state
    def reset(self):
        """Back to a single leaf."""
        self._growth = GrowingTree(
            self.X,
            self.row_stats,
            self.params,
            self.rules,
            categorical=self.categorical,
            value_offset=self._offset,
            rng=np.random.default_rng(self.random_state),
            targets=self._targets,
        )
        self._history = []  # snapshots, one per split, for undo
        self.split_order = []
        self._best = {}  # leaf -> (feature, local position, improvement) or None

    @property
    def tree(self):
        """The current tree."""
        return self._growth.to_tree(
            feature_names=self.feature_names,
            class_names=self.class_names,
            category_names=self.category_names,
            input_dtype=self.params.threshold_dtype,
        )

    @property
    def n_steps(self):
        """Number of splits made so far."""
        return len(self.split_order)

    @property
    def last_split(self):
        """The node split last, or None."""
        return self.split_order[-1] if self.split_order else None

    def leaves(self):
        """Ids of the current leaves."""
        nodes = self._growth.nodes
        return np.flatnonzero(nodes.feature < 0)

    def node_rows(self, node):
        """Training rows that reach ``node``."""
        return np.sort(self._growth.node_rows(node))

    # ------------------------------------------------------- next node
    def _budget_left(self):
        limit = self.rules.max_splits
        return limit is None or self.n_steps < limit

    def _best_splits(self, leaves):
        """Best acceptable split of each leaf (cached; computed in one batch)."""
        missing = [leaf for leaf in leaves if leaf not in self._best]
        if missing:
            growth = self._growth
            allowed = set(growth.splittable(missing).tolist())
            todo = [leaf for leaf in missing if leaf in allowed]
            for leaf in missing:
                self._best[leaf] = None
            if todo:
                choices, improvement, ok = accepted_choices(growth, todo)
                for i, leaf in enumerate(todo):
                    if ok[i]:
                        self._best[leaf] = (choices[i], float(improvement[i]))
        return {leaf: self._best[leaf] for leaf in leaves}

    def next_node(self):
        """The leaf :meth:`step` would split next, or None when growth is over."""
        if not self._budget_left():
            return None
        best = {leaf: b for leaf, b in self._best_splits(self.leaves().tolist()).items() if b}
        if not best:
            return None
        if self.params.growth == "level_order":
            return min(best)
        return min(best, key=lambda leaf: (-best[leaf][1], leaf))

    # ----------------------------------------------------------- growing
    def step(self):
        """Split the next node of the growth order with its best split.

        Returns
        -------
        int or None
            The node split, or None when the stopping rules end the growth.
        """
        node = self.next_node()
        if node is None:
            return None
        choice, _ = self._best[node]
        self._apply(node, choice)
        return node

    def grow_all(self):
        """Step until the stopping rules end the growth; return the number of splits made."""
        made = 0
        while self.step() is not None:
            made += 1
        return made

    def expand(self, node, feature=None, threshold=None, categories=None):
        """Split a chosen leaf.

        Parameters
        ----------
        node : int
            A current leaf.
        feature : int, optional
            The feature to split on; the node's best feature when None.
        threshold : float, optional
            The threshold (rows with ``x <= threshold`` go left); the best
            threshold of the feature when None. A typed threshold is stored
            as typed.
        categories : iterable of int, optional
            Categorical features: the category codes to send left (the best
            set when None).

        Returns
        -------
        ndarray of shape (2,)
            The new children.

        Raises
        ------
        ValueError
            When ``node`` is not a leaf, the feature has no possible split,
            or the threshold leaves one side empty.
        """
        node = int(node)
        if node < 0 or node >= self._growth.nodes.size or self._growth.nodes.feature[node] >= 0:
            raise ValueError(
                f"Node {node} is not a leaf of the current tree; pick a leaf to split."
            )
        if feature is None and threshold is None and categories is None:
            return self._expand_best(node)
        feature = self._check_feature(
            feature if feature is not None else self.node_best_feature(node)
        )
        if self.categorical[feature]:
            if threshold is not None:
                raise ValueError(
                    f"{self.feature_names[feature]} is categorical: choose the categories that go "
                    "left instead of a threshold."
                )
            return self._expand_categories(node, feature, categories)
        if categories is not None:
            raise ValueError(f"{self.feature_names[feature]} is not categorical: give a threshold.")
        if threshold is None:
            return self._expand_best_of_feature(node, feature)
        return self._expand_at(node, feature, float(threshold))

    def _check_feature(self, feature):
        feature = int(feature)
        if not 0 <= feature < self.X.shape[1]:
            raise ValueError(
                f"There is no feature {feature}; features are 0..{self.X.shape[1] - 1}."
            )
        return feature

    def _expand_best(self, node):
        known = self._best.get(node)
        if known is not None:  # the split step() would take (its tie-break included)
            return self._apply(node, known[0])
        table = self._node_table(node)
        choice = self._growth.choose(table)[0]
        if choice is None:
            raise ValueError(f"Node {node} cannot be split: every feature is constant in it.")
        if choice.codes is None:
            choice.local = int(table.local_position(choice.position, 0))
        return self._apply(node, choice)

    def _expand_categories(self, node, feature, categories):
        rows = self.node_rows(node)
        if categories is None:
            found = self._best_categorical(rows, feature)
            if found is None:
                raise ValueError(
                    f"{self.feature_names[feature]} cannot split node {node}: it has a single "
                    "category there, or no set keeps enough rows on both sides."
                )
            categories = found["codes"]
        codes = sorted(int(c) for c in categories)
        present = set(np.unique(self.X[rows, feature]).astype(int).tolist())
        if not present & set(codes) or present <= set(codes):
            raise ValueError(
                f"The categories {codes} send every row of node {node} to one side: choose some, "
                f"not all, of the categories present ({sorted(present)})."
            )
        self._history.append(self._growth.snapshot(node))
        children = self._growth.split_membership(node, feature, codes)
        self.split_order.append(node)
        self._best.pop(node, None)
        return children

    def _apply(self, node, choice):
        """Split ``node`` by a :class:`trees._builder.Choice`."""
        self._history.append(self._growth.snapshot(node))
        children = self._growth.apply([node], [choice])[0]
        self.split_order.append(node)
        self._best.pop(node, None)
        return children

    def _expand_best_of_feature(self, node, feature):
        table = self._node_table(node)
        if not np.isfinite(table.best_proxy[feature, 0]):
            raise ValueError(
                f"{self.feature_names[feature]} cannot split node {node}: it is constant there, "
                "or no threshold keeps enough rows on both sides."
            )
        position = table.best_position[feature, 0]
        return self._split(node, feature, int(table.local_position(position, 0)))

    def _expand_at(self, node, feature, threshold):
        growth = self._growth
        start, count = growth.nodes.start[node], growth.nodes.n_samples[node]
        values = growth.X[growth.rows[feature, start : start + count], feature]
        n_left = int(np.searchsorted(values, threshold, side="right"))
        if n_left == 0 or n_left == count:
            side = "right" if n_left == 0 else "left"
            raise ValueError(
                f"The threshold {threshold:g} sends all {count} rows of node {node} to the {side}: "
                f"{self.feature_names[feature]} ranges from {values[0]:g} to {values[-1]:g} there. "
                f"Choose a threshold from {values[0]:g} up to (not including) {values[-1]:g}."
            )
        return self._split(node, feature, n_left - 1, threshold=threshold)

    def _split(self, node, feature, local, threshold=None):
        self._history.append(self._growth.snapshot(node))
        children = self._growth.split(
            [node], [feature], [local], threshold=None if threshold is None else [threshold]
        )[0]
        self.split_order.append(node)
        self._best.pop(node, None)
        return children

    def undo(self):
        """Undo the last split; return the node that became a leaf again (None if none)."""
        if not self._history:
            return None
        snapshot = self._history.pop()
        node = self.split_order.pop()
        for child in (self._growth.nodes.left[node], self._growth.nodes.right[node]):
            self._best.pop(int(child), None)
        self._growth.restore(snapshot)
        return node

    # --------------------------------------------------------- inspecting
    def _node_table(self, node):
        """The split table of one node's rows (any node, leaf or internal)."""
        return self._growth.evaluate_rows(self.node_rows(node))

    def node_best_feature(self, node):
        """Feature of the node's chosen split (by the grower's selection rule)."""
        choice = self._growth.choose(self._node_table(node))[0]
        if choice is None:
            raise ValueError(f"Node {node} cannot be split: every feature is constant in it.")
        return choice.feature

    def _side_value(self, stats):
        value = self.criterion.value(stats)
        if not self.is_classifier:
            value = value + self._offset
        return np.round(np.atleast_1d(value), 12).tolist()

    def candidates(self, node):
        """Each feature's best split at ``node``, best first.

        Returns
        -------
        list of Candidate
            Features with no possible split come last, with ``threshold`` None.
        """
        table = self._node_table(node)
        scores = table.best_per_feature()[:, 0]
        out = []
        rows = self.node_rows(node)
        for feature in range(self.X.shape[1]):
            name = self.feature_names[feature]
            if self.categorical[feature]:
                out.append(self._categorical_candidate(node, feature, rows))
                continue
            if not np.isfinite(scores[feature]):
                out.append(Candidate(feature, name, None, None, 0, 0, [], []))
                continue
            position = int(table.best_position[feature, 0])
            left, right = table.children(feature, position, 0)
            n_left = int(table.local_position(position, 0) + 1)
            out.append(
                Candidate(
                    feature=feature,
                    feature_name=name,
                    threshold=float(table.threshold(feature, position)),
                    score=float(scores[feature]),
                    n_left=n_left,
                    n_right=int(table.batch.seg_count[0] - n_left),
                    left_value=self._side_value(left),
                    right_value=self._side_value(right),
                )
            )
        return sorted(out, key=lambda c: (c.score is None, -(c.score or 0.0), c.feature))

    def category_curve(self, node, feature):
        """Categorical feature: the score of cutting its ordered categories after each one.

        Returns
        -------
        dict or None
            ``order`` (category codes in the scanned order) and ``score``
            (one per cut, ``-inf`` where a side would be too small).
        """
        rows = self.node_rows(node)
        found = self._best_categorical(rows, feature)
        return None if found is None else found["curve"]

    def _best_categorical(self, rows, feature):
        """The best set of ``feature``'s categories on ``rows`` under the tree's settings
        (``_categorical.best_categorical_split``; None when no set splits them)."""
        return best_categorical_split(self.X[rows, feature], self.row_stats[:, rows],
                                      self.criterion, self.params.categorical_split,
                                      self.rules.min_samples_leaf, self.rules.min_weight_leaf)  # fmt: skip

    def _categorical_candidate(self, node, feature, rows):
        name = self.feature_names[feature]
        found = self._best_categorical(rows, feature)
        if found is None:
            return Candidate(feature, name, None, None, 0, 0, [], [])
        left_rows = rows[np.isin(self.X[rows, feature], found["codes"])]
        left = self.row_stats[:, left_rows].sum(axis=1)
        right = self.row_stats[:, rows].sum(axis=1) - left
        return Candidate(
            feature,
            name,
            None,
            found["score"],
            found["n_left"],
            len(rows) - found["n_left"],
            self._side_value(left),
            self._side_value(right),
            categories=tuple(found["codes"].tolist()),
        )

    def score_curve(self, node, feature):
        """Score of every candidate threshold of ``feature`` at ``node``.

        Returns
        -------
        dict of ndarray
            ``threshold``, ``score``, ``n_left``, ``n_right``.
        """
        feature = self._check_feature(feature)
        table = self._node_table(node)
        curve = table.curve(feature, 0)
        return {
            "threshold": curve["threshold"],
            "score": curve["score"],
            "n_left": curve["n_left"],
            "n_right": table.batch.seg_count[0] - curve["n_left"],
        }

    # -------------------------------------------------------------- history
    def tree_at_step(self, step):
        """The tree as it was after ``step`` splits (0: the root alone).

        Nodes split later become leaves again and their descendants are
        dropped; node ids are renumbered (see :meth:`Tree.pruned`).
        """
        if not 0 <= step <= self.n_steps:
            raise ValueError(f"step must be between 0 and {self.n_steps}, got {step}.")
        return self.tree.pruned(self.split_order[step:])[0]

    def step_scores(self, X, y):
        """Accuracy (classification) or R^2 (regression) of the tree after each step.

        Returns
        -------
        ndarray of shape (n_steps + 1,)
        """
        X = np.asarray(X, dtype=np.float64)
        y = np.asarray(y)
        scores = np.empty(self.n_steps + 1)
        for step in range(self.n_steps + 1):
            prediction = self.tree_at_step(step).predict(X)
            scores[step] = self._score(prediction, y)
        return scores

    def _score(self, prediction, y):
        if self.is_classifier:
            return float(np.mean(self.classes_[np.argmax(prediction, axis=1)] == y))
        y = y.astype(float)
        total = np.sum((y - y.mean()) ** 2)
        return float(1.0 - np.sum((y - prediction) ** 2) / total) if total > 0 else 0.0

    @classmethod
    def from_tree(cls, X, y, tree, params=None, **arguments):
        """A grower on ``(X, y)`` that replays the splits of ``tree``.

        ``params`` and ``arguments`` are those of the constructor (the
        settings, the names, the seed). Every split keeps the tree's feature
        and threshold; the grower can then go on growing. Raises ValueError
        when a threshold leaves one side empty on this data or the tree has
        another number of features.
        """
        grower = cls(X, y, params, **arguments)
        if tree.n_features != grower.X.shape[1]:
            raise ValueError(
                f"The tree tests {tree.n_features} features but the data has {grower.X.shape[1]}."
            )
        if any(
            c is not None and not grower.categorical[tree.feature[n]]
            for n, c in enumerate(tree.categories)
        ):
            raise ValueError(
                "The tree has category splits on features this data does not treat as categorical."
            )
        mapping = {0: 0}
        queue = [0]
        while queue:
            node = queue.pop(0)
            if tree.feature[node] < 0:
                continue
            if tree.categories[node] is not None:
                left, right = grower.expand(
                    mapping[node], int(tree.feature[node]), categories=tree.categories[node]
                )
            else:
                left, right = grower.expand(
                    mapping[node], int(tree.feature[node]), float(tree.threshold[node])
                )
            mapping[int(tree.left[node])], mapping[int(tree.right[node])] = int(left), int(right)
            queue += [int(tree.left[node]), int(tree.right[node])]
        return grower
