"""The conditioning bias (source 000): where ``<=`` and ``<`` disagree, and whether it matters.

* :func:`conditioning_disagreement`: for a fitted tree or forest and data,
  the rows that reach another leaf, or get another prediction, under ``<``
  than under ``<=``, and the nodes that cause it (a row's value equals the
  node's threshold).
* :func:`wilcoxon_marks`: the paper's marks from paired score samples.
* :func:`conditioning_experiment`: the evaluation protocol of section 4:
  repeated k-fold cross-validation (stratified for classification) on the
  same folds for every variant, AUC or R^2, rho on all data and in the folds.
"""

from dataclasses import dataclass, field

import numpy as np
from joblib import Parallel, delayed
from scipy.stats import wilcoxon

from ..ensemble import tree_operators
from ..tree import FOREST_CONDITIONINGS, OPERATORS, ROUTING_OPERATORS, Tree
from ._by_task import folds as task_folds
from ._by_task import make_model, score
from ._lattice import LatticeIndex

__all__ = [
    "ALPHA",
    "ConditioningResult",
    "Disagreement",
    "conditioning_disagreement",
    "conditioning_experiment",
    "row_paths",
    "wilcoxon_marks",
]

ALPHA = 0.05
# The variants scored: a tree under each test and their average; a forest also "half".
TREE_VARIANTS = OPERATORS
FOREST_VARIANTS = FOREST_CONDITIONINGS


# ------------------------------------------------------------ disagreement
@dataclass
class Disagreement:
    """Where ``<`` and ``<=`` disagree on a set of rows.

    Attributes
    ----------
    leaf_differs : ndarray of bool, shape (n_samples,)
        The row reaches another leaf in at least one tree.
    prediction_differs : ndarray of bool, shape (n_samples,)
        The model's prediction (probabilities or value) changes.
    label_differs : ndarray of bool, shape (n_samples,)
        Classification: the predicted class changes (all False for regression).
    prediction_le, prediction_lt : ndarray
        The model's predictions under each test.
    causes : ndarray of int, shape (n_causes, 3)
        ``(row, tree, node)``: the row's value of the node's feature equals
        its threshold, on the row's path under ``<=`` or under ``<``.
    trees_differing : ndarray of int, shape (n_samples,)
        How many trees route the row to another leaf.
    """

    leaf_differs: np.ndarray
    prediction_differs: np.ndarray
    label_differs: np.ndarray
    prediction_le: np.ndarray
    prediction_lt: np.ndarray
    causes: np.ndarray
    trees_differing: np.ndarray = field(default=None)

    @property
    def n_rows(self):
        return int(self.leaf_differs.shape[0])


def _trees_of(model):
    """The project Trees of a tree, an estimator, a forest, or a list of them."""
    if isinstance(model, Tree):
        return [model]
    if hasattr(model, "estimators_"):
        return [est.tree_ for est in model.estimators_]
    if hasattr(model, "tree_"):
        return [model.tree_]
    if isinstance(model, list | tuple) and all(isinstance(t, Tree) for t in model):
        return list(model)
    raise TypeError("Expected a Tree, a fitted project tree or forest, or a list of Trees.")


def _equality_nodes(tree, X, op):
    """(row, node) pairs on the rows' paths where the value equals the threshold."""
    path = tree.decision_path(X, op).tocoo()
    rows, nodes = path.row, path.col
    internal = tree.feature[nodes] >= 0
    rows, nodes = rows[internal], nodes[internal]
    hit = X[rows, tree.feature[nodes]] == tree.threshold[nodes]
    return rows[hit], nodes[hit]


def _model_prediction(model, trees, X, op):
    if hasattr(model, "estimators_") and hasattr(model, "predict_proba"):
        return model.predict_proba(X, conditioning=op)
    if hasattr(model, "estimators_"):
        return model.predict(X, conditioning=op)
    return np.mean([tree.predict(X, op) for tree in trees], axis=0)


def conditioning_disagreement(model, X):
    """Rows and nodes where ``<`` and ``<=`` disagree.

    Parameters
    ----------
    model : Tree, project DecisionTree*, RandomForest*, or list of Tree
    X : array-like of shape (n_samples, n_features)

    Returns
    -------
    Disagreement
    """
    X = np.asarray(X, dtype=np.float64)
    trees = _trees_of(model)
    trees_differing = np.zeros(X.shape[0], dtype=int)
    causes = []
    for index, tree in enumerate(trees):
        trees_differing += tree.apply(X, "<=") != tree.apply(X, "<")
        pairs = set()
        for op in ROUTING_OPERATORS:
            rows, nodes = _equality_nodes(tree, X, op)
            pairs.update(zip(rows.tolist(), nodes.tolist(), strict=True))
        causes += [(row, index, node) for row, node in sorted(pairs)]
    le = _model_prediction(model, trees, X, "<=")
    lt = _model_prediction(model, trees, X, "<")
    differs = np.abs(np.asarray(le) - np.asarray(lt)) > 1e-12
    prediction_differs = differs.any(axis=1) if np.ndim(le) == 2 else differs
    is_classifier = trees[0].is_classifier
    label_differs = (
        np.argmax(le, axis=1) != np.argmax(lt, axis=1)
        if is_classifier
        else np.zeros(X.shape[0], dtype=bool)
    )
    return Disagreement(
        leaf_differs=trees_differing > 0,
        prediction_differs=prediction_differs,
        label_differs=label_differs,
        prediction_le=le,
        prediction_lt=lt,
        causes=np.array(causes, dtype=int).reshape(-1, 3),
        trees_differing=trees_differing,
    )


def row_paths(tree, row):
    """The nodes one row visits under ``<=`` and under ``<``, and the node where the two part.

    Parameters
    ----------
    tree : Tree
    row : array-like of shape (n_features,)

    Returns
    -------
    dict
        ``"<="`` and ``"<"``: the node ids from the root to the leaf; ``"parting"``: the
        first node where the two paths go different ways (the row's value equals that
        node's threshold), or None when they reach the same leaf.
    """
    x = np.asarray(row, dtype=np.float64).reshape(1, -1)
    paths = {}
    for op in ROUTING_OPERATORS:
        nodes = tree.decision_path(x, op).indices
        paths[op] = [int(n) for n in nodes[np.argsort(tree.depth[nodes], kind="stable")]]
    parting = None
    for node_le, node_lt in zip(paths["<="], paths["<"], strict=False):
        if node_le != node_lt:
            break
        parting = node_le
    if paths["<="] == paths["<"]:
        parting = None
    return {**paths, "parting": parting}


# ----------------------------------------------------------------- marks
def _wilcoxon_p(a, b, alternative):
    """Wilcoxon signed-rank p-value with ``zero_method="zsplit"``; 1.0 when a == b everywhere."""
    keep = np.isfinite(a) & np.isfinite(b)
    a, b = a[keep], b[keep]
    if a.size == 0 or np.all(a == b):
        return 1.0
    return float(wilcoxon(a, b, zero_method="zsplit", alternative=alternative).pvalue)


def wilcoxon_marks(a, b, alpha=ALPHA):
    """Compare paired scores ``a`` and ``b`` as source 000 does (sections 4.4 to 4.6).

    Returns
    -------
    dict
        ``p_two_sided`` and ``different`` ("*" when < alpha, Table 2's
        p_≠); ``p_greater`` and ``p_less``, the one-sided p-values of "a
        scores higher" and "a scores lower"; ``mark``: "+" when a
        stochastically dominates b, "-" when b dominates a, "" otherwise
        (Table 3's p_≤ and p_<).
    """
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    p_two = _wilcoxon_p(a, b, "two-sided")
    p_greater = _wilcoxon_p(a, b, "greater")
    p_less = _wilcoxon_p(a, b, "less")
    mark = "+" if p_greater < alpha else "-" if p_less < alpha else ""
    return {
        "p_two_sided": p_two,
        "different": "*" if p_two < alpha else "",
        "p_greater": p_greater,
        "p_less": p_less,
        "mark": mark,
    }


# ------------------------------------------------------------ experiment
@dataclass
class ConditioningResult:
    """Scores of every variant on every fold, and rho.

    Attributes
    ----------
    model : {"tree", "forest"}
    task : {"classification", "regression"}
    metric : {"AUC", "R2"}
    scores : dict {variant: ndarray of shape (n_folds_done,)}
        Same folds, same order, for every variant.
    rho_all : float
        Share of nodes with thresholds on observed lattice values, model fit on all data.
    rho_folds : float
        The same share over the models of the folds (pooled).
    n_folds_total : int
    cancelled : bool
    """

    model: str
    task: str
    metric: str
    scores: dict
    rho_all: float
    rho_folds: float
    n_folds_total: int
    cancelled: bool = False

    @property
    def n_folds_done(self):
        return int(len(next(iter(self.scores.values()))))

    @property
    def proposed(self):
        """The bias-free variant of source 000: "average" for trees, "half" for forests."""
        return "average" if self.model == "tree" else "half"

    def summary(self, alpha=ALPHA):
        """The row of Tables 2 and 3 for this experiment (dict)."""
        le, lt, proposed = self.scores["<="], self.scores["<"], self.scores[self.proposed]
        bias = wilcoxon_marks(le, lt, alpha)
        versus_le = wilcoxon_marks(proposed, le, alpha)
        versus_lt = wilcoxon_marks(proposed, lt, alpha)
        worst = min(np.nanmean(le), np.nanmean(lt))
        significant = bool(versus_le["mark"] or versus_lt["mark"])
        return {
            "rho": self.rho_all,
            "rho_k": self.rho_folds,
            "mean <=": float(np.nanmean(le)),
            "mean <": float(np.nanmean(lt)),
            f"mean {self.proposed}": float(np.nanmean(proposed)),
            "d (<= minus <)": float(np.nanmean(le) - np.nanmean(lt)),
            "p≠": bias["different"],
            "p≠ value": bias["p_two_sided"],
            "p≤": versus_le["mark"],
            "p<": versus_lt["mark"],
            "improvement over worst": float(np.nanmean(proposed) - worst),
            "improvement significant": significant,
            "folds": self.n_folds_done,
        }


def _variant_predictions(fitted, X, variants):
    """Predictions of one fitted model under every variant (one fit serves them all)."""
    out = {}
    for variant in variants:
        if hasattr(fitted, "estimators_"):
            if hasattr(fitted, "predict_proba"):
                out[variant] = fitted.predict_proba(X, conditioning=variant)
            else:
                out[variant] = fitted.predict(X, conditioning=variant)
        else:
            out[variant] = fitted.tree_.predict(X, variant)
    return out


def _rho_counts(fitted, lattice):
    """Splits on lattice values and splits in all, over the trees of a model (``lattice``: a LatticeIndex)."""
    on, total = 0, 0
    for tree in _trees_of(fitted):
        _, n_on, n_internal = lattice.split_share(tree)
        on, total = on + n_on, total + n_internal
    return on, total


def _run_fold(model, task, params, variants, X, y, train, test, seed, lattice):
    fitted = make_model(model, task, params, seed).fit(X[train], y[train])
    classes = getattr(fitted, "classes_", None)
    predictions = _variant_predictions(fitted, X[test], variants)
    scores = {v: score(task, y[test], p, classes) for v, p in predictions.items()}
    # rho against all observed values: those are the values held-out rows can take.
    return scores, _rho_counts(fitted, lattice)


def conditioning_experiment(
    X,
    y,
    task,
    model="tree",
    params=None,
    n_repeats=10,
    n_splits=5,
    random_state=0,
    n_jobs=1,
    progress=None,
    should_stop=None,
):
    """Source 000's evaluation: repeated k-fold CV of every threshold test on the same folds.

    Parameters
    ----------
    X, y : arrays
    task : {"classification", "regression"}
    model : {"tree", "forest"}
        Trees are scored under "<=", "<" and "average"; forests also under "half".
    params : dict, optional
        Estimator parameters (stopping rules, ``n_estimators``...).
    n_repeats, n_splits : int
        The paper used 400 x 5; the defaults are for interactive use.
    random_state : int
        Seeds the folds and the forests: the result is reproducible.
    n_jobs : int
        Folds evaluated in parallel threads.
    progress : callable(done, total, partial), optional
        Called after each fold; ``partial`` is a :class:`ConditioningResult`
        of the folds done so far (rho_all NaN, ``cancelled`` True), which an
        app can keep in case the run is interrupted.
    should_stop : callable() -> bool, optional
        Polled after each fold; when it returns True the run ends early and
        the result holds the folds done so far (``cancelled=True``).

    Returns
    -------
    ConditioningResult
    """
    X = np.asarray(X, dtype=np.float64)
    y = np.asarray(y)
    variants = TREE_VARIANTS if model == "tree" else FOREST_VARIANTS
    folds = task_folds(task, X, y, n_splits, n_repeats, random_state)
    seeds = np.random.default_rng(random_state).integers(0, 2**31 - 1, size=len(folds))
    lattice = LatticeIndex(X)  # the lattice of the data, shared by every fold's trees
    jobs = (
        delayed(_run_fold)(model, task, params, variants, X, y, train, test, int(seed), lattice)
        for (train, test), seed in zip(folds, seeds, strict=True)
    )
    scores = {v: [] for v in variants}
    rho_on = rho_total = 0
    cancelled = False
    results = Parallel(n_jobs=n_jobs, prefer="threads", return_as="generator")(jobs)
    for done, (fold_scores, (on, total)) in enumerate(results, start=1):
        for variant, value in fold_scores.items():
            scores[variant].append(value)
        rho_on, rho_total = rho_on + on, rho_total + total
        if progress is not None:
            partial = _result(
                model, task, scores, np.nan, (rho_on, rho_total), len(folds), done < len(folds)
            )
            progress(done, len(folds), partial)
        if should_stop is not None and should_stop() and done < len(folds):
            cancelled = True
            break
    on, total = _rho_counts(make_model(model, task, params, random_state).fit(X, y), lattice)
    rho_all = on / total if total else 0.0
    return _result(model, task, scores, rho_all, (rho_on, rho_total), len(folds), cancelled)


def _result(model, task, scores, rho_all, rho_fold_counts, n_folds_total, cancelled):
    """A :class:`ConditioningResult` from the score lists and the pooled rho counts of the folds."""
    on, total = rho_fold_counts
    return ConditioningResult(
        model=model,
        task=task,
        metric="AUC" if task == "classification" else "R2",
        scores={v: np.asarray(s) for v, s in scores.items()},
        rho_all=rho_all,
        rho_folds=on / total if total else 0.0,
        n_folds_total=n_folds_total,
        cancelled=cancelled,
    )


def operators_of(model):
    """The test each tree of a fitted forest uses (for drawing and explanations)."""
    return tree_operators(len(model.estimators_), model.conditioning)
