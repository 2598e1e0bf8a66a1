"""Cultivated random forests (Nalenz & Augustin, source 002).

A cultivated tree replaces each internal node by an *ensemble module*: a set
of decisions pooled into one soft decision. A row that reaches a module with
weight ``w`` sends ``w psi(x)`` to the left child and ``w (1 - psi(x))`` to
the right (fractional observations), so the weights of a row over the
current leaves always sum to its starting weight.

* Robust split module (section 3, eq. 2): around a feature's best split point
  ``t0`` (split points are observed values; the decision is ``x <= t``), the
  neighbourhood ``T(t0)`` takes ordered observed values on each side until
  ``k`` "full" observations of weight are reached, the border value taking
  the remainder of ``k``; ``phi(t)`` is the weight of the observations at
  ``t``; ``psi(x) = sum_t phi(t) I(x <= t) / sum_t phi(t)``;
  ``k = sqrt(sum of weights in the node)`` by default.
* Option module: every feature whose impurity ``h_j`` lies within
  ``eta_l = eta_0 / s_l^3`` of the best, ``s_l`` the node's depth counted
  from 1 at the root (the paper leaves it open; from 0 the root would divide
  by zero). With robust splits, ``h_j`` is the mean of the weighted children
  Gini impurity over the split points of ``T(t0)``, and each feature's
  ``phi`` is normalised to sum to one, so every option weighs the same.
* Decisions are directed: a decision whose left side has the higher
  ``P(y = 1)`` is flipped (``x > t`` goes left), so the right child has the
  higher ``P(y = 1)``.

Leaves predict the weighted mean of y. A prediction is the average of the
leaf values weighted by the fractions with which the row reaches them; their
weighted variance is the prediction's *spread*, its reliability.

Choices where the paper is open, besides the depth count: values are grouped
(a value's ``phi`` is the total weight of the rows holding it); when a side of
the neighbourhood runs out of values before reaching ``k``, all its values
count fully; the impurity of the split "everything left" (at the largest
value) is the parent's; a node whose minority class weighs less than one
full observation is not split (fractional rows never make a node pure). Multi-class data is refused: the directed decisions
are defined for two classes.
"""

from dataclasses import dataclass, field

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils.multiclass import check_classification_targets, type_of_target
from sklearn.utils.validation import check_is_fitted, validate_data

from ..tree import CRITERIA_CLF
from ..tree._kernels_arrays import kernel_array
from ..tree._kernels_criteria import GINI
from ..tree._kernels_cultivated import neighbourhood, node_neighbourhoods
from ..tree._kernels_layout import keep_rows
from ..tree._splitter import SegmentBatch, search_splits, sort_features, sorted_values

__all__ = ["VARIANTS", "CultivatedForestClassifier", "Decision", "Module"]

VARIANTS = {
    "full": {"robust": True, "options": True, "max_depth": 14},
    "split": {"robust": True, "options": False, "max_depth": 14},
    "option": {"robust": False, "options": True, "max_depth": 14},
    "shallow": {"robust": True, "options": True, "max_depth": 6},
}
_TINY = 1e-12
# A node whose minority class holds less than one full observation of weight is a
# leaf: fractional observations never leave a node exactly pure, and without this
# rule the fractions that leak past each module would be chased down long chains.
MIN_MINORITY = 1.0


@dataclass
class Decision:
    """One decision of a module: ``I(x[feature] <= t)`` for the thresholds ``t``, weighted by ``phi``.

    ``flipped`` decisions send ``x > t`` left instead (directed decisions).
    """

    feature: int
    thresholds: np.ndarray
    phi: np.ndarray
    flipped: bool = False

    def left_share(self, x):
        """psi of this decision for the values ``x`` of its feature (vectorised)."""
        order = np.argsort(self.thresholds)
        ts, weights = self.thresholds[order], self.phi[order] / self.phi.sum()
        # sum of phi over thresholds t >= x: the share of decisions sending x left.
        tail = np.concatenate([np.cumsum(weights[::-1])[::-1], [0.0]])
        share = tail[np.searchsorted(ts, x, side="left")]
        return 1.0 - share if self.flipped else share


@dataclass
class Module:
    """A node of the cultivated tree.

    Attributes
    ----------
    kind : {"leaf", "split", "robust", "option"}
        ``split``: one decision, one threshold; ``robust``: one decision over a
        neighbourhood; ``option``: several features.
    depth : int
        0 at the root.
    weight : float
        Total fraction of training rows in the node.
    positive_share : float
        Weighted share of class 1 (the leaf prediction).
    decisions : list of Decision
    left, right : int
        Children (-1 at a leaf).
    impurities : dict {feature: h_j}
        Impurity of every feature considered (for explanations).
    """

    kind: str
    depth: int
    weight: float
    positive_share: float
    decisions: list = field(default_factory=list)
    left: int = -1
    right: int = -1
    impurities: dict = field(default_factory=dict)

    def left_share(self, X):
        """psi of the module for rows ``X``: the mean over its decisions."""
        return np.mean([d.left_share(X[:, d.feature]) for d in self.decisions], axis=0)

    def as_dict(self):
        return {
            "kind": self.kind,
            "depth": self.depth,
            "weight": self.weight,
            "positive_share": self.positive_share,
            "left": self.left,
            "right": self.right,
            "decisions": [
                {
                    "feature": d.feature,
                    "thresholds": d.thresholds.tolist(),
                    "phi": (d.phi / d.phi.sum()).tolist(),
                    "direction": ">" if d.flipped else "<=",
                }
                for d in self.decisions
            ],
        }


def robust_neighbourhood(values, weights, center, k):
    """Neighbourhood ``T(t0)`` of eq. 2 and its weights ``phi``.

    Parameters
    ----------
    values : ndarray
        Sorted distinct observed values of the feature in the node.
    weights : ndarray
        Total weight of the rows at each value.
    center : int
        Index of ``t0`` in ``values``.
    k : float
        Weight of "full" observations to take on each side.

    Returns
    -------
    thresholds, phi : ndarray
        ``phi(t0)`` is its full weight; inner values their full weight; the
        outermost value of each side the remainder of ``k`` (computed by the
        compiled ``_kernels_cultivated.neighbourhood``, as the fit does).
    """
    values = np.asarray(values, dtype=np.float64)
    chosen = np.empty(values.shape[0], dtype=np.int64)
    phi = np.empty(values.shape[0])
    weights = kernel_array(weights, dtype=np.float64)
    n = neighbourhood(weights, values.shape[0], int(center), float(k), chosen, phi)
    return values[chosen[:n]], phi[:n]


class CultivatedForestClassifier(ClassifierMixin, BaseEstimator):
    """Cultivated random forest for binary classification (source 002).

    Parameters
    ----------
    variant : {"full", "split", "option", "shallow"}, default="full"
        Both module types; robust splits only; option modules only; both with
        depth 6 (the paper's four versions).
    max_depth : int, optional
        Overrides the variant's depth (14, or 6 for "shallow").
    min_node_weight : float, default=6
        Least total weight a node needs to be split (the paper's minimum node size).
    k : "sqrt" or float, default="sqrt"
        Neighbourhood size: ``k_factor * sqrt(node weight)``, or a fixed weight.
    k_factor : float, default=1.0
        Multiplies ``sqrt(node weight)`` when ``k="sqrt"`` (1 is the paper's choice).
    eta0 : float, default=0.3
        Option-module tolerance at the root; ``eta_l = eta0 / depth^3``.
    abstain_threshold : float, optional
        Spread above which :meth:`predict_abstain` abstains.

    Attributes
    ----------
    modules_ : list of Module
        The cultivated tree, root first.
    classes_ : ndarray of shape (2,)
    training_fractions_ : ndarray of shape (n_leaves, n_samples)
        Fraction of each training row in each leaf (``leaf_ids_`` order).
    leaf_ids_ : ndarray of int
    """

    def __init__(
        self,
        variant="full",
        *,
        max_depth=None,
        min_node_weight=6.0,
        k="sqrt",
        k_factor=1.0,
        eta0=0.3,
        abstain_threshold=None,
    ):
        self.variant = variant
        self.max_depth = max_depth
        self.min_node_weight = min_node_weight
        self.k = k
        self.k_factor = k_factor
        self.eta0 = eta0
        self.abstain_threshold = abstain_threshold

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = False  # refused: see the module docstring
        return tags

    # ---------------------------------------------------------------- fit
    def fit(self, X, y):
        """Grow the cultivated tree on ``(X, y)``; ``y`` must have two classes."""
        if self.variant not in VARIANTS:
            raise ValueError(f"variant must be one of {list(VARIANTS)}, got {self.variant!r}.")
        if not (self.k == "sqrt" or (isinstance(self.k, int | float) and self.k > 0)):
            raise ValueError(f"k must be 'sqrt' or a positive number, got {self.k!r}.")
        X, y = validate_data(self, X, y, dtype=np.float64)
        check_classification_targets(y)
        self.classes_, y01 = np.unique(y, return_inverse=True)
        if len(self.classes_) != 2:
            raise ValueError(
                f"Only binary classification is supported. The type of the target is {type_of_target(y)}. "
                f"Cultivated forests are defined for two classes (source 002); this target has "
                f"{len(self.classes_)}: recode it as one class against the rest."
            )
        settings = VARIANTS[self.variant]
        self._robust, self._options = settings["robust"], settings["options"]
        self._depth_limit = settings["max_depth"] if self.max_depth is None else int(self.max_depth)
        self.modules_ = []
        leaves = []
        X = kernel_array(X)
        # Sorted once; each child keeps its rows from its parent's orders.
        self._grow(X, y01.astype(float), np.ones(X.shape[0]), 0, leaves, sort_features(X))
        self.leaf_ids_ = np.array([node for node, _ in leaves])
        self.training_fractions_ = np.vstack([w for _, w in leaves])
        return self

    def _grow(self, X, y, w, depth, leaves, sorted_rows):
        """Add the module of the rows weighted ``w`` and grow its children (depth first).

        ``sorted_rows`` are the sorted orders of the rows of positive weight.
        """
        node = len(self.modules_)
        weight = float(w.sum())
        positive = float(np.dot(w, y) / weight) if weight > 0 else 0.0
        module = Module("leaf", depth, weight, positive)
        self.modules_.append(module)
        minority = weight * min(positive, 1.0 - positive)
        splittable = (
            depth < self._depth_limit
            and weight >= self.min_node_weight
            and minority >= MIN_MINORITY
        )
        decisions = (
            self._module_decisions(X, y, w, depth, module, sorted_rows) if splittable else []
        )
        if not decisions:
            leaves.append((node, w))
            return node
        module.decisions = decisions
        module.kind = (
            "option"
            if len(decisions) > 1
            else ("robust" if len(decisions[0].thresholds) > 1 else "split")
        )
        rows = np.flatnonzero(w > 0)  # rows of weight 0 stay at 0 in both children
        psi = module.left_share(X[rows])
        for side, share in (("left", psi), ("right", 1.0 - psi)):
            child_w = np.zeros_like(w)
            child_w[rows] = w[rows] * share
            child_w[child_w < _TINY] = 0.0
            child_rows = keep_rows(sorted_rows, child_w > 0)
            setattr(module, side, self._grow(X, y, child_w, depth + 1, leaves, child_rows))
        return node

    def _module_decisions(self, X, y, w, depth, module, sorted_rows):
        """The decisions of a new module (empty when no feature can split the node)."""
        rows = np.flatnonzero(w > 0)
        if rows.size < 2:
            return []
        criterion = CRITERIA_CLF["gini"]()
        stats = criterion.row_statistics(y.astype(int), w, 2)
        values = sorted_values(X, sorted_rows)
        batch = SegmentBatch(sorted_rows, values, np.array([0]), np.array([rows.size]))
        table = search_splits(batch, stats, criterion)
        parent_impurity = float(criterion.impurity(table.parent[:, 0]))
        k = self.k_factor * np.sqrt(w[rows].sum()) if self.k == "sqrt" else float(self.k)
        candidates = self._feature_decisions(table, w, parent_impurity, k)
        if not candidates:
            return []
        module.impurities = {f: h for f, (_, h, _) in candidates.items()}
        if self._options:
            h_min = min(h for _, h, _ in candidates.values())
            eta = self.eta0 / (depth + 1) ** 3
            chosen = [f for f, (_, h, _) in sorted(candidates.items()) if h <= h_min + eta + _TINY]
        else:
            chosen = [max(candidates, key=lambda f: (candidates[f][2], -f))]
        decisions = [candidates[f][0] for f in chosen]
        for decision in decisions:
            _direct(decision, X[rows], y[rows], w[rows])
        return decisions

    def _feature_decisions(self, table, w, parent_impurity, k):
        """Each feature's decision (robust or single), its impurity h_j and its best gain.

        The split point ``t0`` is the feature's best candidate; a robust
        decision takes the neighbourhood of eq. 2 around it, and ``h_j`` is
        the parent's impurity minus the mean gain over the neighbourhood's
        split points (``_kernels_cultivated.node_neighbourhoods``).
        """
        batch = table.batch
        n_features, count = batch.rows.shape
        best = np.empty(n_features, dtype=np.int64)
        best_score, n_chosen = np.empty(n_features), np.empty(n_features, dtype=np.int64)
        thresholds, phi, scores = (np.empty((n_features, count)) for _ in range(3))
        node_neighbourhoods(
            batch.xs,
            batch.rows,
            count,
            table.proxy,
            w,
            kernel_array(table.parent[:, 0]),
            GINI,
            k if self._robust else 0.0,
            (best, best_score, n_chosen, thresholds, phi, scores),
        )
        candidates = {}
        for f in np.flatnonzero(best >= 0):
            n = n_chosen[f]
            gain = float(scores[f, :n].mean()) if self._robust else float(best_score[f])
            decision = Decision(int(f), thresholds[f, :n].copy(), phi[f, :n].copy())
            candidates[int(f)] = (decision, parent_impurity - gain, float(best_score[f]))
        return candidates

    # ------------------------------------------------------------ predict
    def leaf_fractions(self, X):
        """Fraction of each row reaching each leaf, shape (n_samples, n_leaves), in ``leaf_ids_`` order."""
        check_is_fitted(self, "modules_")
        X = validate_data(self, X, dtype=np.float64, reset=False)
        weights = {0: np.ones(X.shape[0])}
        for node, module in enumerate(self.modules_):
            w = weights.get(node)
            if w is None or module.kind == "leaf":
                continue
            psi = module.left_share(X)
            weights[module.left], weights[module.right] = w * psi, w * (1.0 - psi)
        return np.column_stack([weights[leaf] for leaf in self.leaf_ids_])

    def predict_with_reliability(self, X):
        """Class probabilities and the spread of each prediction.

        Returns
        -------
        proba : ndarray of shape (n_samples, 2)
        spread : ndarray of shape (n_samples,)
            Weighted variance of the leaf values the row reaches.
        """
        fractions = self.leaf_fractions(X)
        values = np.array([self.modules_[leaf].positive_share for leaf in self.leaf_ids_])
        p = fractions @ values
        spread = fractions @ values**2 - p**2
        return np.column_stack([1.0 - p, p]), np.maximum(spread, 0.0)

    def predict_proba(self, X):
        """Class probabilities (the fraction-weighted mean of leaf values)."""
        return self.predict_with_reliability(X)[0]

    def predict(self, X):
        """The more probable class."""
        proba = self.predict_proba(X)
        return self.classes_[(proba[:, 1] > 0.5).astype(int)]

    def predict_abstain(self, X, threshold=None):
        """Predictions, and which of them to abstain from (spread above ``threshold``).

        Returns
        -------
        labels : ndarray
        abstain : ndarray of bool
        """
        threshold = self.abstain_threshold if threshold is None else threshold
        proba, spread = self.predict_with_reliability(X)
        labels = self.classes_[(proba[:, 1] > 0.5).astype(int)]
        abstain = np.zeros(len(labels), dtype=bool) if threshold is None else spread > threshold
        return labels, abstain

    def structure(self):
        """The modules as plain dicts, for drawing and export."""
        check_is_fitted(self, "modules_")
        return [m.as_dict() for m in self.modules_]

    @property
    def n_leaves_(self):
        return len(self.leaf_ids_)


def _direct(decision, X, y, w):
    """Flip a decision whose left side has the higher weighted P(y = 1)."""
    psi = decision.left_share(X[:, decision.feature])
    left, right = w * psi, w * (1.0 - psi)
    if left.sum() <= _TINY or right.sum() <= _TINY:
        return
    if np.dot(left, y) / left.sum() > np.dot(right, y) / right.sum():
        decision.flipped = True
