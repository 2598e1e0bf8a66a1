"""How much a tree changes when the data changes a little (source 002, section 2).

:func:`perturbation_study` refits a tree many times on perturbed data
(bootstrap samples, a few rows removed, or features jittered) and records
which feature each depth splits on, the root thresholds, the structural
distance to the tree fitted on the unperturbed data, and how many test
predictions change. :func:`tree_distance` is the structural distance;
:func:`compare_trees` marks the nodes that differ between two trees.

Structural distance (our definition). Walk both trees from the root along
the same paths. A pair of nodes ``(u, v)`` carries the weight ``w``, the mean
of the shares of training rows reaching ``u`` and ``v``:

* both leaves: 0;
* one leaf, or different features: ``w`` (everything below is different);
* same feature, thresholds ``t_u``, ``t_v``: with the shift
  ``s = min(1, |t_u - t_v| / range of the feature)``,
  ``d = w s + (1 - s) (d(left pair) + d(right pair))``.

It is 0 for identical trees and at most 1, reached when the roots ask
different questions; it reads as the share of the data that meets a
different question.
"""

from dataclasses import dataclass, field

import numpy as np

from ._by_task import make_tree
from ._progress import report

__all__ = [
    "PERTURBATIONS",
    "PerturbationStudy",
    "compare_trees",
    "perturb_data",
    "perturbation_refit",
    "perturbation_study",
    "refit_without_row",
    "summarize_perturbations",
    "tree_distance",
]

PERTURBATIONS = ("bootstrap", "remove", "jitter")


def tree_distance(a, b, feature_ranges):
    """Structural distance between two trees on the same features (see the module docstring).

    Parameters
    ----------
    a, b : Tree
    feature_ranges : ndarray of shape (n_features,)
        Range (max - min) of each feature, to scale threshold shifts.

    Returns
    -------
    float in [0, 1]
    """
    ranges = np.where(np.asarray(feature_ranges, dtype=float) > 0, feature_ranges, 1.0)

    def distance(u, v):
        weight = 0.5 * (
            a.weighted_n_samples[u] / a.weighted_n_samples[0]
            + b.weighted_n_samples[v] / b.weighted_n_samples[0]
        )
        leaf_u, leaf_v = a.feature[u] < 0, b.feature[v] < 0
        if leaf_u and leaf_v:
            return 0.0
        if leaf_u or leaf_v or a.feature[u] != b.feature[v]:
            return weight
        shift = min(1.0, abs(a.threshold[u] - b.threshold[v]) / ranges[a.feature[u]])
        below = distance(a.left[u], b.left[v]) + distance(a.right[u], b.right[v])
        return weight * shift + (1.0 - shift) * below

    return float(min(1.0, distance(0, 0)))


def compare_trees(a, b, tolerance=1e-12):
    """Nodes of each tree that differ from the other, walking both from the root.

    A node differs when the other tree has no node on the same path, or has
    a different question there (feature, or threshold beyond ``tolerance``),
    or one is a leaf and the other not.

    Returns
    -------
    changed_a, changed_b : set of int
    """
    changed_a, changed_b = set(), set()

    def mark_subtree(tree, node, out):
        stack = [node]
        while stack:
            n = stack.pop()
            out.add(int(n))
            if tree.feature[n] >= 0:
                stack += [tree.left[n], tree.right[n]]

    stack = [(0, 0)]
    while stack:
        u, v = stack.pop()
        same = a.feature[u] == b.feature[v] and (
            a.feature[u] < 0 or abs(a.threshold[u] - b.threshold[v]) <= tolerance
        )
        if not same:
            mark_subtree(a, u, changed_a)
            mark_subtree(b, v, changed_b)
        elif a.feature[u] >= 0:
            stack += [(a.left[u], b.left[v]), (a.right[u], b.right[v])]
    return changed_a, changed_b


@dataclass
class PerturbationStudy:
    """What happened over the refits.

    Attributes
    ----------
    reference : Tree
        The tree fitted on the unperturbed data.
    trees : list of Tree
    root_feature : ndarray of int, shape (n_fits,)
        Root feature of each refit (-1 when the root is a leaf).
    root_threshold : ndarray, shape (n_fits,)
    depth_feature_counts : ndarray of shape (max_depth + 1, n_features)
        How often each feature is split on at each depth, over all refits.
    distance : ndarray, shape (n_fits,)
        Structural distance of each refit to the reference.
    changed_share : ndarray, shape (n_fits,)
        Share of test rows whose prediction differs from the reference's
        (the class for classification; more than ``tolerance`` times the
        target's SD for regression).
    cancelled : bool
    """

    reference: object
    trees: list
    root_feature: np.ndarray
    root_threshold: np.ndarray
    depth_feature_counts: np.ndarray
    distance: np.ndarray
    changed_share: np.ndarray
    cancelled: bool = False
    extra: dict = field(default_factory=dict)

    @property
    def n_fits(self):
        return len(self.trees)

    def root_feature_share(self, n_features):
        """Share of refits whose root splits on each feature."""
        counts = np.bincount(self.root_feature[self.root_feature >= 0], minlength=n_features)
        return counts / max(1, self.n_fits)


def perturb_data(X, y, kind, amount, rng):
    """Perturbed copy of the data and the sample weights to fit with.

    ``"bootstrap"``: the counts of a bootstrap sample; ``"remove"``: ``amount``
    random rows get weight 0; ``"jitter"``: Gaussian noise of ``amount`` times
    each feature's SD is added.

    Returns
    -------
    X, y, weight : ndarray
    """
    n = X.shape[0]
    if kind == "bootstrap":
        return X, y, np.bincount(rng.integers(0, n, n), minlength=n).astype(float)
    if kind == "remove":
        weight = np.ones(n)
        weight[rng.choice(n, size=min(int(amount), n - 2), replace=False)] = 0.0
        return X, y, weight
    if kind == "jitter":
        noise = rng.normal(0.0, 1.0, X.shape) * (float(amount) * X.std(axis=0))
        return X + noise, y, np.ones(n)
    raise ValueError(f"perturbation must be one of {PERTURBATIONS}, got {kind!r}.")


def _changed_share(task, reference, tree, X_test, y_scale, tolerance):
    a, b = reference.predict(X_test), tree.predict(X_test)
    if task == "classification":
        return float(np.mean(np.argmax(a, axis=1) != np.argmax(b, axis=1)))
    return float(np.mean(np.abs(a - b) > tolerance * y_scale))


def perturbation_refit(X, y, task, params, perturbation, amount, random_state, index):
    """The ``index``-th refit of a perturbation study: an independent, seeded task.

    Its perturbation draws from ``default_rng([random_state, index])``, so
    refits can run in any order, on any machine, with the same trees.

    Returns
    -------
    Tree
    """
    rng = np.random.default_rng([int(random_state), int(index)])
    Xp, yp, weight = perturb_data(X, y, perturbation, amount, rng)
    return make_tree(task, params).fit(Xp, yp, sample_weight=weight).tree_


def summarize_perturbations(reference, trees, X, y, task, X_test=None, tolerance=0.05,
                            cancelled=False):  # fmt: skip
    """The combine step of a perturbation study: what the refits share and where they differ."""
    X, y = np.asarray(X, dtype=float), np.asarray(y)
    X_test = X if X_test is None else np.asarray(X_test, dtype=float)
    ranges = np.nanmax(X, axis=0) - np.nanmin(X, axis=0)  # missing values kept: their spans
    y_scale = float(np.std(y.astype(float))) if task == "regression" else 1.0
    max_depth = max(t.max_depth for t in trees)
    depth_counts = np.zeros((max_depth + 1, X.shape[1]), dtype=int)
    for tree in trees:
        internal = tree.feature >= 0
        np.add.at(depth_counts, (tree.depth[internal], tree.feature[internal]), 1)
    return PerturbationStudy(
        reference=reference,
        trees=trees,
        root_feature=np.array([t.feature[0] for t in trees]),
        root_threshold=np.array([t.threshold[0] for t in trees]),
        depth_feature_counts=depth_counts,
        distance=np.array([tree_distance(reference, t, ranges) for t in trees]),
        changed_share=np.array(
            [_changed_share(task, reference, t, X_test, y_scale, tolerance) for t in trees]
        ),
        cancelled=cancelled,
    )


def perturbation_study(
    X,
    y,
    task,
    params=None,
    n_fits=50,
    perturbation="bootstrap",
    amount=1,
    X_test=None,
    random_state=0,
    tolerance=0.05,
    progress=None,
    should_stop=None,
):
    """Refit a tree ``n_fits`` times on perturbed data.

    Each refit is an independent task (:func:`perturbation_refit`, seeded
    from ``random_state`` and its index); :func:`summarize_perturbations`
    combines them.

    Parameters
    ----------
    X, y : arrays
    task : {"classification", "regression"}
    params : dict, optional
        Tree parameters.
    perturbation : {"bootstrap", "remove", "jitter"}
        Bootstrap samples; ``amount`` random rows removed; or every feature
        jittered by Gaussian noise of ``amount`` times its SD.
    X_test : array, optional
        Rows on which prediction changes are counted (default: ``X``).
    random_state : int
    tolerance : float
        Regression: a prediction counts as changed beyond this share of y's SD.
    progress : callable(done, total), optional
    should_stop : callable() -> bool, optional

    Returns
    -------
    PerturbationStudy
    """
    X, y = np.asarray(X, dtype=float), np.asarray(y)
    if perturbation not in PERTURBATIONS:
        raise ValueError(f"perturbation must be one of {PERTURBATIONS}, got {perturbation!r}.")
    reference = make_tree(task, params).fit(X, y).tree_
    trees, cancelled = [], False
    for i in range(n_fits):
        trees.append(perturbation_refit(X, y, task, params, perturbation, amount, random_state, i))
        if report(progress, should_stop, i + 1, n_fits):
            cancelled = True
            break
    return summarize_perturbations(reference, trees, X, y, task, X_test, tolerance, cancelled)


def prediction_spread(trees, rows, class_index=None):
    """Variance over trees of each row's prediction (a class probability, or the value).

    ``class_index`` picks a class among the classes of all the trees (default: the last).
    A refit on a few rows may not have seen every class; its probability of a class it never
    saw is 0 (see :func:`_probabilities_by_class`).
    """
    if not trees[0].is_classifier:
        return np.stack([t.predict(rows) for t in trees]).var(axis=0)
    probabilities = _probabilities_by_class(trees, rows)
    return probabilities[..., class_index if class_index is not None else -1].var(axis=0)


def _probabilities_by_class(trees, rows):
    """Every tree's class probabilities in the columns of the union of their classes.

    Returns an array of shape (n_trees, n_rows, n_classes). The classes are ordered as the
    estimators order them (numerically when every name is a number, else by name), so a
    column is the same class in every tree.
    """
    names = [t.class_names or [str(k) for k in range(t.value.shape[-1])] for t in trees]
    union = {name for tree_names in names for name in tree_names}
    try:
        classes = sorted(union, key=float)
    except ValueError:
        classes = sorted(union)
    out = np.zeros((len(trees), len(rows), len(classes)))
    for i, (tree, tree_names) in enumerate(zip(trees, names, strict=True)):
        out[i][:, [classes.index(name) for name in tree_names]] = tree.predict(rows)
    return out


def refit_without_row(X, y, task, row, params=None):
    """The tree on all rows, the tree without ``row``, and the nodes that differ.

    Returns
    -------
    before, after : Tree
    changed_before, changed_after : set of int
    """
    X, y = np.asarray(X, dtype=float), np.asarray(y)
    if not 0 <= row < X.shape[0]:
        raise ValueError(f"row must be between 0 and {X.shape[0] - 1}, got {row}.")
    keep = np.ones(X.shape[0], dtype=bool)
    keep[row] = False
    before = make_tree(task, params).fit(X, y).tree_
    after = make_tree(task, params).fit(X[keep], y[keep]).tree_
    changed_before, changed_after = compare_trees(before, after)
    return before, after, changed_before, changed_after


def prediction_instability(
    make_model,
    X,
    y,
    X_test,
    n_fits=20,
    perturbation="bootstrap",
    amount=1,
    random_state=0,
    progress=None,
):
    """How much any classifier's test predictions move over refits on perturbed data.

    The same perturbed samples are drawn for the same ``random_state``, so two
    models can be compared on equal terms (the instability page compares a
    tree with a cultivated forest).

    Parameters
    ----------
    make_model : callable() -> unfitted classifier with ``predict_proba``
    perturbation, amount : see :func:`perturbation_study`

    Returns
    -------
    changed_share : ndarray of shape (n_fits,)
        Share of test rows whose predicted class differs from the model fitted
        on the unperturbed data.
    probability_sd : ndarray of shape (n_test,)
        Standard deviation of each test row's predicted probability of the
        last class over the refits.
    """
    X, y, X_test = np.asarray(X, dtype=float), np.asarray(y), np.asarray(X_test, dtype=float)
    rng = np.random.default_rng(random_state)
    reference = make_model().fit(X, y).predict_proba(X_test)
    probabilities, changed = [], []
    for i in range(n_fits):
        Xp, yp, weight = perturb_data(X, y, perturbation, amount, rng)
        rows = np.repeat(
            np.arange(len(yp)), weight.astype(int)
        )  # weights as repeated rows: any model can fit
        proba = make_model().fit(Xp[rows], yp[rows]).predict_proba(X_test)
        if proba.shape != reference.shape:  # a class missing from the sample: compare labels only
            proba = (
                np.column_stack([1.0 - proba[:, -1], proba[:, -1]])
                if reference.shape[1] == 2
                else reference
            )
        probabilities.append(proba[:, -1])
        changed.append(float(np.mean(np.argmax(proba, axis=1) != np.argmax(reference, axis=1))))
        if progress is not None:
            progress(i + 1, n_fits)
    return np.asarray(changed), np.std(probabilities, axis=0)
