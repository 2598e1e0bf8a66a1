"""A stability scoreboard: which remedy buys how much stability, on the same refits.

Seven learners are refitted on the *same* perturbed samples of the training
rows (bootstrap samples, a few rows removed, or jittered features; see
:data:`trees.instability.PERTURBATIONS`) and judged on the same held-out rows:

* **CART**: the greedy tree;
* **pruned CART**: the same tree cut back by minimal cost-complexity pruning
  (Breiman et al., 1984), the classic remedy for a tree's variance; its
  ``ccp_alpha`` is chosen once, by 5-fold cross-validation on the training
  rows over their own pruning path (:func:`pruning_strength`), and kept in
  every refit, as every other learner keeps its settings;
* **p-value selection** (source 001, section 4): the split variable with the
  smallest permutation p-value (classification only);
* **averaged threshold tests** (source 000, section 3.3): the CART tree,
  predicting with the mean of the ``<=`` and ``<`` tests; it grows the same
  trees as CART, so only its predictions can differ;
* a **cultivated forest** (source 002): one tree of soft modules (two
  classes only);
* a **random forest** (Breiman, 2001);
* **extra trees** (Geurts et al., 2006): a forest of random-split trees, whose
  thresholds are drawn and so never lie on an observed value (source 000's
  rho is 0: the ``<=``/``<`` choice cannot change them).

Every tree-based learner gets the same depth limit. Measures, over the
refits: prediction agreement (Turney, 1995: the mean share of held-out rows
on which two refits predict the same class, or values within ``tolerance``
SD of y); the entropy in bits of the root feature (single trees only: a
forest has no single root); the mean structural distance and partition
metric between refits (single trees only); the held-out score (AUC or R^2).
The random forest and the extra trees keep the same seed in every refit, so only the data
differs between its refits.
"""

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ..ensemble import (
    CultivatedForestClassifier,
    ExtraTreesClassifier,
    ExtraTreesRegressor,
    RandomForestClassifier,
    RandomForestRegressor,
)
from ..tree import DecisionTreeClassifier, DecisionTreeRegressor
from ._agreement import mean_pairwise, partition_distance
from ._by_task import score, train_test_rows
from ._curves import complexity_curve, pruning_alphas
from ._instability import perturb_data, tree_distance
from ._progress import report

__all__ = ["Scoreboard", "pruning_strength", "scoreboard_models", "stability_scoreboard"]


@dataclass
class Learner:
    """One learner of the scoreboard: how to make it, and whether it applies to the data."""

    name: str
    make: object  # callable() -> unfitted estimator
    settings: str
    single_tree: bool
    applies: bool = True
    reason: str = ""


def pruning_strength(X, y, task, max_depth=None, n_splits=5, seed=0):
    """The ``ccp_alpha`` with the lowest cross-validated error on ``(X, y)`` (ties: the strongest).

    The candidates are :func:`pruning_alphas` of a tree of ``max_depth``; the
    error is :func:`complexity_curve`'s (``1 - accuracy`` or ``1 - R^2``).
    Fewer folds when the smallest class has fewer rows; 0 (no pruning) when
    even two folds cannot hold every class.
    """
    smallest = np.unique(y, return_counts=True)[1].min() if task == "classification" else len(y)
    n_splits = min(n_splits, int(smallest))
    params = {"max_depth": max_depth}
    alphas = pruning_alphas(X, y, task, base_params=params) if n_splits >= 2 else [0.0]
    if len(alphas) == 1:
        return 0.0
    curve = complexity_curve(X, y, task, "ccp_alpha", alphas, n_splits=n_splits,
                             random_state=seed, base_params=params)  # fmt: skip
    return float(curve.best_value)


def scoreboard_models(
    task, n_classes, max_depth=4, n_estimators=50, n_permutations=99, seed=0, ccp_alpha=0.0
):
    """The seven learners of the scoreboard with like-for-like settings.

    ``ccp_alpha`` is pruned CART's strength (:func:`pruning_strength`).

    Returns
    -------
    list of Learner
        Those that do not apply to the data say why in ``reason``.
    """
    depth = f"max_depth={max_depth}" if max_depth is not None else "no depth limit"
    clf = task == "classification"
    tree = DecisionTreeClassifier if clf else DecisionTreeRegressor
    forest = RandomForestClassifier if clf else RandomForestRegressor
    extra = ExtraTreesClassifier if clf else ExtraTreesRegressor
    criterion = "gini" if clf else "squared error"
    return [
        Learner("CART", lambda: tree(max_depth=max_depth), f"{criterion}, {depth}", True),
        Learner(
            "pruned CART",
            lambda: tree(max_depth=max_depth, ccp_alpha=ccp_alpha),
            f"{criterion}, {depth}, pruned: ccp_alpha={ccp_alpha:.3g} (cross-validated)",
            True,
        ),
        Learner(
            "p-value selection",
            lambda: DecisionTreeClassifier(
                max_depth=max_depth,
                selection="p_value",
                n_permutations=n_permutations,
                random_state=seed,
            ),
            f"gini, {depth}, smallest permutation p-value ({n_permutations} permutations)",
            True,
            applies=clf,
            reason="source 001 selects by p-value for classification only",
        ),
        Learner(
            "averaged thresholds",
            lambda: tree(max_depth=max_depth, conditioning="average"),
            f"{criterion}, {depth}, predicts with the mean of the <= and < tests",
            True,
        ),
        Learner(
            "cultivated forest",
            lambda: CultivatedForestClassifier("full", max_depth=max_depth),
            f"variant 'full' (robust splits and option modules), {depth}",
            False,
            applies=clf and n_classes == 2,
            reason="cultivated forests are defined for two classes (source 002)",
        ),
        Learner(
            "random forest",
            lambda: forest(n_estimators=n_estimators, max_depth=max_depth, random_state=seed),
            f"{n_estimators} trees, {'sqrt' if clf else 'all'} features per split, {depth}, "
            "the same seed in every refit",
            False,
        ),
        Learner(
            "extra trees",
            lambda: extra(n_estimators=n_estimators, max_depth=max_depth, random_state=seed),
            f"{n_estimators} random-split trees, {depth}, same seed",
            False,
        ),
    ]


@dataclass
class Scoreboard:
    """The scoreboard's table, its reading in words, and the details behind it.

    Attributes
    ----------
    table : pandas.DataFrame
        One row per learner: ``model``, ``settings``, ``applies``, ``note``,
        ``agreement``, ``root_entropy``, ``root_features``,
        ``mean_distance``, ``mean_partition``, ``score_mean``, ``score_sd``,
        ``n_refits``. NaN where a measure does not apply; ``note`` says why.
    reading : list of str
        Plain-language conclusions.
    metric : str
        ``"AUC"`` or ``"R²"``.
    agreement : dict {name: ndarray}
        Pairwise agreement matrices over the refits.
    """

    table: pd.DataFrame
    reading: list
    metric: str
    perturbation: str
    n_refits: int
    cancelled: bool = False
    agreement: dict = field(default_factory=dict)


def _aligned_proba(model, X, classes):
    """Class probabilities on the dataset's classes (a refit may have seen fewer)."""
    proba = model.predict_proba(X)
    out = np.zeros((X.shape[0], len(classes)))
    out[:, np.searchsorted(classes, model.classes_)] = proba
    return out


def _fit_and_predict(learner, X, y, X_test, task, classes):
    """Fit one refit; its labels (or values), probabilities, and tree (single trees)."""
    model = learner.make().fit(X, y)
    if task == "classification":
        proba = _aligned_proba(model, X_test, classes)
        return classes[np.argmax(proba, axis=1)], proba, getattr(model, "tree_", None)
    prediction = model.predict(X_test)
    return prediction, prediction, getattr(model, "tree_", None)


def _entropy(features):
    counts = np.unique(features, return_counts=True)[1]
    shares = counts / counts.sum()
    return float(-(shares * np.log2(shares)).sum()) + 0.0


def _pairwise_mean(items, distance):
    values = [distance(a, b) for i, a in enumerate(items) for b in items[i + 1 :]]
    return float(np.mean(values)) if values else np.nan


def _agreement_matrix(predictions, task, scale, tolerance):
    P = np.stack(predictions)
    if task == "classification":
        same = P[:, None, :] == P[None, :, :]
    else:
        same = np.abs(P[:, None, :] - P[None, :, :]) <= tolerance * scale
    return same.mean(axis=2)


def _learner_row(learner, runs, task, y_test, classes, X_train, X_test, scale, tolerance):
    """Measures of one learner over its refits."""
    row = {"model": learner.name, "settings": learner.settings, "applies": learner.applies}
    if not learner.applies or not runs:
        return {**row, "note": learner.reason or "no refit finished", "n_refits": 0}, None
    labels = [r[0] for r in runs]
    matrix = _agreement_matrix(labels, task, scale, tolerance)
    scores = np.array([score(task, y_test, r[1], classes) for r in runs])
    row.update(
        agreement=mean_pairwise(matrix),
        score_mean=float(np.nanmean(scores)),
        score_sd=float(np.nanstd(scores)),
        n_refits=len(runs),
        note="",
    )
    if learner.single_tree:
        trees = [r[2] for r in runs]
        roots = np.array([t.feature[0] for t in trees])
        ranges = np.nanmax(X_train, axis=0) - np.nanmin(X_train, axis=0)
        leaves = [t.apply(X_test) for t in trees]
        row.update(
            root_entropy=_entropy(roots),
            root_features=int(np.unique(roots).size),
            mean_distance=_pairwise_mean(trees, lambda a, b: tree_distance(a, b, ranges)),
            mean_partition=_pairwise_mean(leaves, partition_distance),
        )
    else:
        row["note"] = (
            "a forest has no single root or structure: root entropy and tree distances do not apply"
        )
    return row, matrix


def _features(count):
    return f"{int(count)} feature{'s' if int(count) != 1 else ''} seen at the root"


def _reading_lines(table, metric, n_refits, perturbation):
    """Plain-language conclusions from the table (see :func:`stability_scoreboard`)."""
    rows = table[table["n_refits"] > 0].set_index("model")
    if "CART" not in rows.index:
        return ["No refit finished: nothing to compare."]
    if n_refits < 2:
        return [
            f"Only {n_refits} refit finished: agreement and distances compare refits in pairs, "
            "so they need at least two."
        ]
    cart = rows.loc["CART"]
    lines = [
        f"Over {n_refits} refits ({perturbation}), two CART refits give the same held-out "
        f"prediction on {cart['agreement']:.1%} of the rows on average, with a held-out "
        f"{metric} of {cart['score_mean']:.3f}."
    ]
    for name, row in rows.drop(index="CART").iterrows():
        gain = 100 * (row["agreement"] - cart["agreement"])
        change = row["score_mean"] - cart["score_mean"]
        if abs(gain) < 0.05:
            effect = f"leaves agreement at {row['agreement']:.1%}"
        else:
            verb = "raises" if gain > 0 else "lowers"
            effect = f"{verb} agreement by {abs(gain):.1f} points (to {row['agreement']:.1%})"
        lines.append(
            f"{name} {effect}, held-out {metric} {row['score_mean']:.3f} "
            f"({change:+.3f} against CART)."
        )
    if "averaged thresholds" in rows.index:
        lines.append(
            "Averaged thresholds grow the very trees of CART (the test only changes how a row "
            "exactly at a threshold is predicted), so their root entropy and distances are CART's."
        )
    others = [n for n in ("pruned CART", "p-value selection") if n in rows.index]
    if others:
        entropies = [f"{name}'s {rows.loc[name, 'root_entropy']:.2f} bits "
                     f"({_features(rows.loc[name, 'root_features'])})" for name in others]  # fmt: skip
        lines.append(
            f"Root feature over the refits: CART's has an entropy of {cart['root_entropy']:.2f} "
            f"bits ({_features(cart['root_features'])}), "
            + ", ".join(entropies)
            + "; 0 means the root never changes feature."
        )
    best = rows["agreement"].idxmax()
    lines.append(f"Most stable predictions: {best} ({rows.loc[best, 'agreement']:.1%} agreement).")
    for name in table.loc[~table["applies"], "model"]:
        reason = table.loc[table["model"] == name, "note"].iloc[0]
        lines.append(f"{name}: not shown, {reason}.")
    return lines


def _refit_samples(X, y, n_refits, perturbation, amount, rng):
    """The perturbed training samples every learner is fitted on, drawn once."""
    samples = []
    for _ in range(n_refits):
        Xp, yp, weight = perturb_data(X, y, perturbation, amount, rng)
        rows = np.repeat(np.arange(len(yp)), weight.astype(int))  # weights as repeated rows
        samples.append((Xp[rows], yp[rows]))
    return samples


def stability_scoreboard(
    X,
    y,
    task,
    max_depth=4,
    n_refits=20,
    perturbation="bootstrap",
    amount=1,
    test_share=0.3,
    random_state=0,
    *,
    n_estimators=50,
    n_permutations=99,
    tolerance=0.05,
    learners=None,
    progress=None,
    should_stop=None,
    on_refit=None,
):
    """Seven learners refitted on the same perturbed samples, and how stable each is.

    Parameters
    ----------
    X, y : arrays
    task : {"classification", "regression"}
    max_depth : int or None, default=4
        The depth limit of every tree-based learner.
    n_refits : int, default=20
    perturbation : {"bootstrap", "remove", "jitter"}, default="bootstrap"
    amount : float, default=1
        Rows removed, or jitter in SDs (see :func:`perturbation_study`).
    test_share : float, default=0.3
        Share of rows held out (stratified) to judge every refit on.
    random_state : int, default=0
        Seeds the held-out split, the perturbations, the permutations and the forest.
    n_estimators, n_permutations : int
        Random forest size; permutations of p-value selection.
    tolerance : float, default=0.05
        Regression: predictions agree within this times the SD of y.
    learners : list of Learner, optional
        Default: :func:`scoreboard_models`.
    progress : callable(done, total), optional
        One step per learner and refit.
    should_stop : callable() -> bool, optional
        Stops after the current fit; the refits every learner finished are kept.
    on_refit : callable(build), optional
        Called after every refit that all learners finished, with ``build``, a
        function of no arguments that returns the :class:`Scoreboard` of the
        refits finished so far (marked ``cancelled``). Building it costs the
        pairwise measures, so it is left to the caller: a page keeps ``build``
        and calls it only if the run is interrupted.

    Returns
    -------
    Scoreboard
    """
    X, y = np.asarray(X, dtype=float), np.asarray(y)
    classes = np.unique(y) if task == "classification" else None
    train, test = train_test_rows(task, y, test_share, seed=random_state)
    learners = learners or scoreboard_models(
        task,
        0 if classes is None else len(classes),
        max_depth,
        n_estimators,
        n_permutations,
        random_state,
        pruning_strength(X[train], y[train], task, max_depth, seed=random_state),
    )
    rng = np.random.default_rng(random_state)
    samples = _refit_samples(X[train], y[train], int(n_refits), perturbation, amount, rng)
    scale = float(np.std(y[train].astype(float))) if task == "regression" else 1.0
    judged = (task, y[test], classes, X[train], X[test], scale, tolerance)

    def build(runs, cancelled):
        return _board(learners, runs, judged, perturbation, cancelled)

    runs, cancelled = _run_refits(
        learners, samples, X[test], task, classes, progress, should_stop, on_refit, build
    )
    return build(runs, cancelled)


def _board(learners, runs, judged, perturbation, cancelled):
    """The Scoreboard of the refits in ``runs``."""
    rows, matrices = _learner_rows(learners, runs, judged)
    table = pd.DataFrame(rows, columns=_TABLE_COLUMNS)
    metric = "AUC" if judged[0] == "classification" else "R²"
    n_done = max((len(r) for r in runs.values()), default=0)
    words = _PERTURBATION_WORDS.get(perturbation, perturbation)
    return Scoreboard(
        table=table,
        reading=_reading_lines(table, metric, n_done, words),
        metric=metric,
        perturbation=perturbation,
        n_refits=n_done,
        cancelled=cancelled,
        agreement=matrices,
    )


def _learner_rows(learners, runs, judged):
    """Table rows and agreement matrices of every learner."""
    rows, matrices = [], {}
    for learner in learners:
        row, matrix = _learner_row(learner, runs[learner.name], *judged)
        rows.append(row)
        if matrix is not None:
            matrices[learner.name] = matrix
    return rows, matrices


def _run_refits(learners, samples, X_test, task, classes, progress, should_stop, on_refit, build):
    """Fit every learner that applies on every sample; keep the samples all of them finished.

    After each sample, ``on_refit`` (if given) receives a function that builds the board of the
    samples finished so far from a frozen copy of the runs.
    """
    active = [learner for learner in learners if learner.applies]
    runs = {learner.name: [] for learner in learners}
    total, done = len(samples) * len(active), 0
    for X_fit, y_fit in samples:
        results = {}
        for learner in active:
            results[learner.name] = _fit_and_predict(learner, X_fit, y_fit, X_test, task, classes)
            done += 1
            if report(progress, should_stop, done, total):
                return runs, True
        for name, result in results.items():
            runs[name].append(result)
        if on_refit is not None:
            frozen = {name: list(items) for name, items in runs.items()}
            on_refit(lambda frozen=frozen: build(frozen, True))
    return runs, False


_TABLE_COLUMNS = [
    "model", "settings", "applies", "note", "agreement", "root_entropy", "root_features",
    "mean_distance", "mean_partition", "score_mean", "score_sd", "n_refits",
]  # fmt: skip
_PERTURBATION_WORDS = {
    "bootstrap": "bootstrap samples",
    "remove": "a few rows removed each time",
    "jitter": "features jittered",
}
