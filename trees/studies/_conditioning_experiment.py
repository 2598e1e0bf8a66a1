"""Source 000's evaluation protocol (sections 4.3 to 4.6) as independent tasks.

An experiment is a :class:`ConditioningPlan`: the data, the model and its
settings, the engine, the folds and the seeds. It splits into independent
tasks, one per fold plus one fit on all the data (rho), each a pure function
of the plan and its key (:func:`run_conditioning_task`), and a combine step
(:func:`combine_conditioning`). Any executor (a loop, joblib threads, a Dask
cluster, a run resumed from a results store) therefore gives the same
numbers. :func:`conditioning_experiment` runs a plan with joblib threads.

Choices of the paper, made here:

* every fit uses ``random_state=5`` (``estimator_seed``), as the study's
  code does (``"per fold"`` draws a seed per fold from ``random_state``);
* rho: the share of internal nodes whose threshold falls on an observed
  lattice value, of the model fitted on all the data, pooled over the trees
  of a forest, with the study's own test (``LatticeIndex(test="paper")``);
* rho_k: the same share pooled over the models of the folds, counted against
  the fold's training rows (``rho_k_against="training rows"``, the paper's
  definition) or against every observed value (``"all rows"``, the values a
  held-out row can take);
* the folds: repeated k-fold, stratified for classification, seeded with
  ``random_state``.
* sparse rows (a scipy matrix of any format) are kept sparse, as CSR rows, and never made
  dense: the engines whose models take them (:data:`SPARSE_ENGINES`) fit on the fold's rows
  and predict its held-out rows under every test as they predict dense rows, an implicit zero
  equal to a threshold going where the test sends it; rho reads each column's stored values
  and its implicit zeros (``_lattice.column_values``). The numbers are the dense matrix's. The study's own fold seeds are not reproducible (it
  shuffled the rows with a generator shared across datasets), so d and the
  marks agree with the paper statistically, not to the digit.

A task's own work is kept at the floor, with the same numbers
(``tests/data/protocol_reference.json`` pins them): AUC and R^2 in numpy
(``_by_task.binary_auc``, scikit-learn's ``roc_curve`` and ``auc`` operation for
operation, equal to the bit; ``_by_task.r2``), rho from each distinct threshold once,
the Wilcoxon p-values of up to 13 folds with ties counted by a subset-sum over the
ranks instead of scipy's enumeration of 2**n sign flips
(``_significance._sign_flip_p_values``, equal to scipy's to the bit), the paper's
settings read once, and ``get_params`` with the constructor's parameter names read once
per class (``trees.tree._params.get_params``; scikit-learn inspects the signature at
every call). ``bench/bench_protocol.py`` times this loop against a plain scikit-learn
loop of the same work.
"""

from dataclasses import dataclass, field
from types import SimpleNamespace

import numpy as np
from joblib import Parallel, delayed
from scipy import sparse

from ._by_task import folds as task_folds
from ._by_task import score
from ._engines import PACKAGE_ENGINES, check_engine, engine_conditionings, fit_model
from ._lattice import LatticeIndex, column_values, observed_rows
from ._significance import ALPHA, SIGNIFICANCE_RULES, improvement_over_worse, wilcoxon_marks

__all__ = [
    "ALL_DATA",
    "PAPER_RANDOM_STATE",
    "RHO_K_REFERENCES",
    "SPARSE_ENGINES",
    "ConditioningPlan",
    "ConditioningResult",
    "combine_conditioning",
    "conditioning_experiment",
    "conditioning_plan",
    "run_conditioning_task",
]

PAPER_RANDOM_STATE = 5
ALL_DATA = "all-data"
# Which rows' values a fold's thresholds are matched against for rho_k.
RHO_K_REFERENCES = {
    "training rows": "the fold's training rows (the paper's definition)",
    "all rows": "every observed value of the dataset (the values a held-out row can take)",
}
# The engines whose models fit and predict sparse rows as they are: this package's estimators,
# and scikit-learn's trees (their fit takes CSC, ``from_sklearn``'s trees walk CSR rows). The
# other libraries' engines take dense rows (their fit reads a dense float64 matrix).
SPARSE_ENGINES = (*PACKAGE_ENGINES, "sklearn")


@dataclass
class ConditioningPlan:
    """Everything an experiment needs; its tasks are keyed by :meth:`task_keys`.

    ``X`` is float64 dense rows or a scipy CSR matrix of float64 (:func:`experiment_rows`)."""

    X: object
    y: np.ndarray
    task: str
    model: str
    params: dict
    engine: str
    folds: list
    fold_seeds: list
    rho_k_against: str
    significance: str
    settings: dict = field(default_factory=dict)

    @property
    def conditionings(self):
        """The threshold tests the experiment scores (``engine_conditionings``)."""
        return engine_conditionings(self.engine, self.model)

    def fold_keys(self):
        return [f"fold-{i:05d}" for i in range(len(self.folds))]

    def task_keys(self):
        """The fold tasks in order, then the fit on all the data."""
        return [*self.fold_keys(), ALL_DATA]


def _check_choice(value, options, name):
    if value not in options:
        raise ValueError(f"Unknown {name} {value!r}; use one of {sorted(options)}.")


def conditioning_plan(
    X,
    y,
    task,
    model="tree",
    params=None,
    n_repeats=10,
    n_splits=5,
    random_state=0,
    engine="trees",
    estimator_seed=PAPER_RANDOM_STATE,
    rho_k_against="training rows",
    significance="paper",
):
    """Build the plan of an experiment (the parameters of :func:`conditioning_experiment`)."""
    _check_choice(model, ("tree", "forest"), "model")
    _check_choice(rho_k_against, RHO_K_REFERENCES, "rho_k reference")
    _check_choice(significance, SIGNIFICANCE_RULES, "significance rule")
    check_engine(engine)
    X = experiment_rows(X, engine)
    y = np.asarray(y)
    folds = task_folds(task, X, y, n_splits, n_repeats, random_state)
    if estimator_seed == "per fold":
        seeds = np.random.default_rng(random_state).integers(0, 2**31 - 1, size=len(folds))
        fold_seeds = [int(s) for s in seeds]
    elif isinstance(estimator_seed, int | np.integer):
        fold_seeds = [int(estimator_seed)] * len(folds)
    else:
        raise ValueError(f"estimator_seed must be an int or 'per fold', got {estimator_seed!r}.")
    settings = {
        "task": task,
        "model": model,
        "params": dict(params or {}),
        "n_repeats": int(n_repeats),
        "n_splits": int(n_splits),
        "random_state": int(random_state),
        "engine": engine,
        "estimator_seed": estimator_seed if estimator_seed == "per fold" else int(estimator_seed),
        "rho_k_against": rho_k_against,
        "significance": significance,
    }
    return ConditioningPlan(
        X, y, task, model, dict(params or {}), engine, folds, fold_seeds, rho_k_against,
        significance, settings,
    )  # fmt: skip


def experiment_rows(X, engine):
    """``X`` as an experiment keeps it: float64 dense rows, or a sparse matrix of any format as
    float64 CSR rows (the folds take rows; never made dense).

    Raises
    ------
    ValueError
        When ``X`` is sparse and ``engine`` is not one of :data:`SPARSE_ENGINES`.
    """
    if not sparse.issparse(X):
        return np.asarray(X, dtype=np.float64)
    if engine not in SPARSE_ENGINES:
        raise ValueError(
            f"Engine {engine!r} takes dense rows, and X is a sparse matrix: pass X.toarray() if "
            f"it fits in memory, or use one of the engines {list(SPARSE_ENGINES)}, which take "
            "sparse rows as they are."
        )
    return X.tocsr().astype(np.float64)


def _snapped(tree, X_reference):
    """A float32 model's tree with each threshold equal to ``float32(v)`` of an observed
    value ``v`` replaced by ``v`` (``feature`` and ``threshold`` only, what rho reads)."""
    thresholds = np.array(tree.threshold, dtype=np.float64)
    for feature in np.unique(tree.feature[tree.feature >= 0]):
        nodes = np.flatnonzero(tree.feature == feature)
        values = np.unique(column_values(X_reference, feature))
        rounded = values.astype(np.float32)
        wanted = thresholds[nodes].astype(np.float32)
        where = np.minimum(np.searchsorted(rounded, wanted), values.shape[0] - 1)
        hit = rounded[where] == wanted
        thresholds[nodes[hit]] = values[where[hit]]
    return SimpleNamespace(feature=tree.feature, threshold=thresholds)


def _rho_counts(fitted, X_reference):
    """(nodes on a lattice value, internal nodes) over a model's trees, source 000's count.

    A library engine's model (``fitted.precision`` set) is judged on the
    observed values rounded to the precision it compares in: a float32
    threshold "is" an observed value when it equals ``float32(value)``.
    """
    trees = fitted.trees
    X_reference = observed_rows(X_reference)
    if fitted.precision == "float32":
        trees = [_snapped(tree, X_reference) for tree in trees]
    on, total = LatticeIndex(X_reference, test="paper").count(trees)
    return [on, total]


def run_conditioning_task(plan, key):
    """One task of a plan: a fold's scores and rho counts, or rho on all the data.

    Returns
    -------
    dict
        A fold: ``{"scores": {conditioning: float}, "rho": [on, total]}``; the
        all-data fit: ``{"rho": [on, total]}``. Plain numbers, ready for JSON.
    """
    X, y = plan.X, plan.y
    if key == ALL_DATA:
        seed = plan.fold_seeds[0] if plan.fold_seeds else PAPER_RANDOM_STATE
        fitted = fit_model(plan.engine, plan.model, plan.task, plan.params, seed, X, y)
        return {"rho": _rho_counts(fitted, X)}
    index = int(key.split("-")[1])
    train, test = plan.folds[index]
    fitted = fit_model(
        plan.engine, plan.model, plan.task, plan.params, plan.fold_seeds[index], X[train], y[train]
    )
    scores = {
        conditioning: score(
            plan.task, y[test], fitted.predict(X[test], conditioning), fitted.classes
        )
        for conditioning in plan.conditionings
    }
    reference = X[train] if plan.rho_k_against == "training rows" else X
    return {
        "scores": {v: float(s) for v, s in scores.items()},
        "rho": _rho_counts(fitted, reference),
    }


def combine_conditioning(plan, results, cancelled=None):
    """The :class:`ConditioningResult` of the tasks done (``results``: key -> task result).

    Folds are taken in their order; a missing fold or a missing all-data fit
    (rho NaN) makes the result partial (``cancelled`` True unless given).
    """
    done = [k for k in plan.fold_keys() if k in results]
    scores = {v: np.asarray([results[k]["scores"][v] for k in done]) for v in plan.conditionings}
    on = sum(results[k]["rho"][0] for k in done)
    total = sum(results[k]["rho"][1] for k in done)
    if ALL_DATA in results:
        all_on, all_total = results[ALL_DATA]["rho"]
        rho_all = all_on / all_total if all_total else 0.0
    else:
        rho_all = np.nan
    complete = len(done) == len(plan.folds) and ALL_DATA in results
    return ConditioningResult(
        model=plan.model,
        task=plan.task,
        metric="AUC" if plan.task == "classification" else "R2",
        scores=scores,
        rho_all=rho_all,
        rho_folds=on / total if total else 0.0,
        n_folds_total=len(plan.folds),
        cancelled=(not complete) if cancelled is None else cancelled,
        engine=plan.engine,
        rho_k_against=plan.rho_k_against,
        significance=plan.significance,
    )


@dataclass
class ConditioningResult:
    """Scores of every threshold test on every fold, and rho.

    Attributes
    ----------
    model : {"tree", "forest"}
    task : {"classification", "regression"}
    metric : {"AUC", "R2"}
    scores : dict {conditioning: ndarray of shape (n_folds_done,)}
        Same folds, same order, for every test.
    rho_all : float
        rho: share of nodes with thresholds on observed lattice values, the
        model fitted on all data (NaN until that fit is done).
    rho_folds : float
        rho_k: the same share over the models of the folds (pooled).
    n_folds_total : int
    cancelled : bool
    engine, rho_k_against, significance : str
        The engine, the rows rho_k is counted against, and the default
        significance rule of :meth:`summary`.
    """

    model: str
    task: str
    metric: str
    scores: dict
    rho_all: float
    rho_folds: float
    n_folds_total: int
    cancelled: bool = False
    engine: str = "trees"
    rho_k_against: str = "training rows"
    significance: str = "paper"

    @property
    def n_folds_done(self):
        return int(len(next(iter(self.scores.values()))))

    @property
    def proposed(self):
        """The bias-free test of source 000: "average" for trees and boosted
        ensembles (no "half" scored), "half" for forests."""
        return "half" if self.model == "forest" and "half" in self.scores else "average"

    def summary(self, alpha=ALPHA, rule=None):
        """The row of Tables 2 and 3 for this experiment (dict).

        ``rule`` defaults to the experiment's significance rule; the marks
        follow :data:`trees.conditioning.MARKS` and the row names the rule in force.
        """
        rule = rule or self.significance
        le, lt, proposed = self.scores["<="], self.scores["<"], self.scores[self.proposed]
        bias = wilcoxon_marks(le, lt, alpha, rule)
        versus_le = wilcoxon_marks(proposed, le, alpha, rule)
        versus_lt = wilcoxon_marks(proposed, lt, alpha, rule)
        improvement = improvement_over_worse(proposed, le, lt, versus_le["mark"], versus_lt["mark"])
        return {
            "rho": self.rho_all,
            "rho_k": self.rho_folds,
            "mean <=": float(np.nanmean(le)),
            "mean <": float(np.nanmean(lt)),
            f"mean {self.proposed}": float(np.nanmean(proposed)),
            "d (<= minus <)": float(np.nanmean(le) - np.nanmean(lt)),
            "p≠": bias["different"],
            "p≠ value": min(bias["p_greater"], bias["p_less"])
            if rule == "paper"
            else bias["p_two_sided"],
            "p≤": versus_le["mark"],
            "p<": versus_lt["mark"],
            "improvement over worst": improvement,
            "improvement significant": bool(np.isfinite(improvement)),
            "folds": self.n_folds_done,
            "significance rule": SIGNIFICANCE_RULES[rule][0],
            "rho_k against": self.rho_k_against,
            "engine": self.engine,
        }


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
    engine="trees",
    estimator_seed=PAPER_RANDOM_STATE,
    rho_k_against="training rows",
    significance="paper",
):
    """Source 000's evaluation: repeated k-fold CV of every threshold test on the same folds.

    Parameters
    ----------
    X : array-like or sparse matrix of shape (n_samples, n_features)
        A sparse matrix (any scipy format) stays sparse (module docstring); the engines of
        :data:`SPARSE_ENGINES` take it.
    y : array-like of shape (n_samples,)
    task : {"classification", "regression"}
    model : {"tree", "forest"}
        Trees are scored under "<=", "<" and "average"; forests also under "half".
    params : dict, optional
        Estimator parameters (stopping rules, ``n_estimators``...);
        ``min_samples_leaf`` may be a fraction of the rows, as in the paper.
    n_repeats, n_splits : int
        The paper used 400 x 5; the defaults are for interactive use.
    random_state : int
        Seeds the folds (and the models with ``estimator_seed="per fold"``).
    n_jobs : int
        Folds evaluated in parallel threads.
    progress : callable(done, total, partial), optional
        Called after each fold with the :class:`ConditioningResult` of the
        folds done so far (``cancelled`` True, rho NaN until the end).
    should_stop : callable() -> bool, optional
        Polled after each fold; True ends the run with the folds done.
    engine : str, default="trees"
        A key of ``ENGINES``: this package's models, scikit-learn's converted
        with ``from_sklearn`` (source 000's own pipeline), or a library's
        ensemble (``"xgboost"``, ``"lightgbm"``, ...; "forest" only).
    estimator_seed : int or "per fold", default=5
        The ``random_state`` of every fit (the paper's 5).
    rho_k_against : {"training rows", "all rows"}, default="training rows"
    significance : {"paper", "two-sided"}, default="paper"
        The rule of :meth:`ConditioningResult.summary` (``SIGNIFICANCE_RULES``).

    Returns
    -------
    ConditioningResult
    """
    plan = conditioning_plan(
        X, y, task, model, params, n_repeats, n_splits, random_state, engine, estimator_seed,
        rho_k_against, significance,
    )  # fmt: skip
    keys = plan.fold_keys()
    jobs = (delayed(run_conditioning_task)(plan, key) for key in keys)
    results, cancelled = {}, False
    stream = Parallel(n_jobs=n_jobs, prefer="threads", return_as="generator")(jobs)
    for done, (key, result) in enumerate(zip(keys, stream, strict=False), start=1):
        results[key] = result
        if progress is not None:
            progress(done, len(keys), combine_conditioning(plan, results, cancelled=True))
        if should_stop is not None and should_stop() and done < len(keys):
            cancelled = True
            break
    results[ALL_DATA] = run_conditioning_task(plan, ALL_DATA)
    return combine_conditioning(plan, results, cancelled=cancelled)
