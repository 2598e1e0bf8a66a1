"""The Evaluate page's computations: the test split, importances, Table 4.1's trees, the grid search.

Cached like ``ui/cached.py``: keyed on the dataset's fingerprint and the
settings, arrays passed as ``_``-prefixed arguments. The long runs (the
grid search, Table 4.1's four trees) go through
``ui.experiments.run_with_progress`` one step at a time, so the progress
bar moves, Stop keeps the steps that finished, and a step done before is
taken from the cache.
"""

from dataclasses import dataclass

import numpy as np
import pandas as pd
from sklearn.inspection import permutation_importance

from datasets.source004 import REPORT_ROWS, REPORT_SPLIT_SEED, report_split
from lab import GridSearchJob, HoldoutSearchJob, NestedSearchJob, reopen, saved_runs
from trees.tasks import make_model, train_test_rows
from trees.tuning import (
    SearchResult,
    cross_validated_search,
    exhaustive_trees,
    holdout_tuning,
    nested_cross_validation,
)
from ui import cache_budget

__all__ = [
    "METHODS",
    "MAX_ROWS",
    "SearchRecord",
    "Split",
    "conflicting_rows",
    "count_conflicting_rows",
    "exhaustive_row",
    "fit_model",
    "permutation_importances",
    "report_script_split",
    "run_search",
    "saved_search",
    "search_job",
    "test_split",
]

# The interactive tree is fitted on at most this many rows (a random sample, said on the page).
MAX_ROWS = 20_000
METHODS = ("k-fold cross-validation", "holdout validation", "nested cross-validation")


@dataclass(frozen=True)
class Split:
    """Training and test rows of the page, and a name that keys the caches."""

    X_train: np.ndarray
    X_test: np.ndarray
    y_train: np.ndarray
    y_test: np.ndarray
    name: str


@cache_budget.data(show_spinner=False, max_entries=32)
def _split_rows(data_key, task, test_share, seed, _y):
    return train_test_rows(task, _y, test_share, seed)


def test_split(data_key, task, test_share, seed, X, y, label="page"):
    """The rows held out for testing (stratified by class), as a :class:`Split`."""
    train, test = _split_rows((data_key, label, len(y)), task, float(test_share), int(seed), y)
    name = f"{label} {len(y)} rows, test share {test_share}, seed {int(seed)}"
    return Split(X[train], X[test], y[train], y[test], name)


def count_conflicting_rows(X, y):
    """How many rows share every feature value with a row of another class: no split can part
    them, so a tree grown to purity still errs on some of them (missing values count as equal)."""
    frame = pd.DataFrame(np.asarray(X)).assign(_class=np.asarray(y))
    keys = [c for c in frame.columns if c != "_class"]
    if not keys or frame.empty:
        return 0
    classes = frame.groupby(keys, dropna=False)["_class"].transform("nunique")
    return int((classes > 1).sum())


@cache_budget.data(show_spinner=False, max_entries=32)
def conflicting_rows(data_key, split_name, _X, _y):
    """:func:`count_conflicting_rows` of a split's training rows, cached (a tenth of a second
    on 50,000 rows, which every run of the page would pay)."""
    return count_conflicting_rows(_X, _y)


@cache_budget.data(show_spinner="Shuffling each feature of the test rows...", max_entries=16)
def permutation_importances(data_key, split_name, params, _model, _X_test, _y_test):
    """Mean and SD over 5 shuffles of the rise of the test error when each feature is shuffled.

    The score is accuracy (classification) or R² (regression), so its fall is
    the rise of the page's error (1 - accuracy, 1 - R²).
    """
    result = permutation_importance(_model, _X_test, _y_test, n_repeats=5, random_state=0)
    return result.importances_mean, result.importances_std


@cache_budget.data(show_spinner=False, max_entries=64)
def exhaustive_row(
    data_key, split_name, criterion, base, leaf_classes, _X_train, _y_train, _X_test, _y_test
):
    """One row of Table 4.1: the tree grown to purity with ``criterion`` (``base`` a tuple of
    pairs), its leaves' classes read as ``leaf_classes`` says (``trees.tuning.exhaustive_trees``)."""
    return exhaustive_trees(
        _X_train, _y_train, _X_test, _y_test, criteria=[criterion], base_params=dict(base),
        leaf_classes=leaf_classes,
    )[0]  # fmt: skip


def report_script_split(X, y):
    """Source 004's own train/test split of its first rows (``datasets.source004.report_split``),
    as a :class:`Split`."""
    train, test = report_split(REPORT_ROWS)
    name = f"report's script: first {REPORT_ROWS} rows, seed {REPORT_SPLIT_SEED}"
    return Split(X[train], X[test], y[train], y[test], name)


@dataclass
class SearchRecord:
    """A grid search as the page shows it: how it was run, and its result."""

    method: str
    folds: int
    inner: int
    grid_text: str
    result: SearchResult

    def describe(self):
        """The method in words ("5-fold cross-validation", "holdout validation on 20% ...")."""
        if self.method == "k-fold cross-validation":
            how = f"{self.folds}-fold cross-validation"
        elif self.method == "holdout validation":
            how = f"holdout validation on {self.inner}% of the training rows"
        else:
            how = f"nested cross-validation ({self.folds} outer, {self.inner} inner folds)"
        tried = int(np.isfinite(self.result.errors).sum())
        total = len(self.result.configurations)
        stopped = f", stopped after {tried} of {total}" if tried < total else ""
        return f"{how}, {total} configurations{stopped}"


def _partial(configurations, errors, cancelled):
    """A SearchResult of the configurations scored so far (the first best on ties)."""
    finite = np.isfinite(errors)
    best = int(np.nanargmin(np.where(finite, errors, np.inf))) if finite.any() else 0
    return SearchResult(
        list(configurations), errors.copy(), configurations[best], float(errors[best]),
        cancelled=cancelled,
    )  # fmt: skip


def run_search(progress, task, grid, method, folds, inner, seed, base, X, y):
    """Search ``grid`` by ``method``, reporting ``progress(done, total, partial SearchResult)``.

    k-fold and holdout searches score one configuration at a time on the same
    folds (the same numbers as one call of ``cross_validated_search`` or
    ``holdout_tuning``), so a Stop keeps what was scored; a nested search
    reports its progress but keeps nothing before it ends.
    """
    if method == "nested cross-validation":
        return nested_cross_validation(
            task, grid, X, y, outer_k=folds, inner_k=inner, seed=seed, base_params=base,
            progress=lambda done, total: progress(done, total, None),
        )  # fmt: skip
    errors = np.full(len(grid), np.nan)
    for i, params in enumerate(grid):
        if method == "k-fold cross-validation":
            one = cross_validated_search(task, [params], X, y, k=folds, seed=seed, base_params=base)
        else:
            one = holdout_tuning(
                task, [params], X, y, validation_size=inner / 100, seed=seed, base_params=base
            )
        errors[i] = one.errors[0]
        progress(i + 1, len(grid), _partial(grid, errors, cancelled=i + 1 < len(grid)))
    return _partial(grid, errors, cancelled=False)


# ------------------------------------------------------------ searches in the results store
_METHOD_OF_SETTINGS = {"holdout": "holdout validation", "nested": "nested cross-validation"}


def search_job(method, name, task, fingerprint, X, y, grid, folds, inner, seed, base):
    """The grid search as a job of the results store (kind "grid-search"; see ``lab``).

    ``fingerprint`` names the rows searched (the dataset and the page's test
    split): the saved runs are listed per dataset and split, since a search
    on other training rows would have seen this split's test rows. ``base``
    (the nominal features' settings) joins every configuration.
    """
    configurations = tuple(
        tuple(
            sorted(
                {
                    **c,
                    **{k: tuple(v) if isinstance(v, list) else v for k, v in base.items()},
                }.items()
            )
        )
        for c in grid
    )
    common = {"name": name, "task": task, "data_fingerprint": fingerprint, "arrays": (X, y),
              "configurations": configurations, "seed": int(seed)}  # fmt: skip
    if method == "k-fold cross-validation":
        return GridSearchJob(**common, k=int(folds))
    if method == "holdout validation":
        return HoldoutSearchJob(**common, validation_share=int(inner) / 100)
    return NestedSearchJob(**common, outer_k=int(folds), inner_k=int(inner))


def _record_of_run(store, run, summary):
    """A :class:`SearchRecord` of a saved run, finished or stopped part-way."""
    settings = run["settings"]
    configurations = [dict(c) for c in settings["configurations"]]
    method = _METHOD_OF_SETTINGS.get(settings.get("method"), "k-fold cross-validation")
    folds = int(settings.get("k") or settings.get("outer_k") or 0)
    inner = int(settings.get("inner_k") or round(100 * settings.get("validation_share", 0)))
    errors = np.full(len(configurations), np.nan)
    if summary and summary.get("errors") is not None:
        errors[:] = summary["errors"]
    elif method != "nested cross-validation":  # a stopped search: the configurations scored so far
        for key, result in store.task_results(run["id"]).items():
            errors[int(key.split("-")[1])] = result["error"]
    if not np.isfinite(errors).any():
        return None
    result = _partial(configurations, errors, cancelled=run["status"] != "done")
    if summary and summary.get("outer_errors") is not None:
        result.outer_errors = np.asarray(summary["outer_errors"])
        result.outer_best = [dict(b) for b in summary["outer_best"]]
    return SearchRecord(method, folds, inner, str(configurations), result)


def saved_search(store, fingerprint, opened_id=None):
    """``(run id, SearchRecord)`` of the run reopened in this session, else of the newest that is
    not running, on these rows; None when there is none."""
    frame = saved_runs(store, kind="grid-search", fingerprint=fingerprint)
    if frame.empty:
        return None
    candidates = frame[frame["status"] != "running"]
    if opened_id is not None and opened_id in set(frame["id"]):
        run_id = opened_id
    elif not candidates.empty:
        run_id = candidates["id"].iloc[0]  # newest first
    else:
        return None
    run, summary = reopen(store, run_id)
    record = _record_of_run(store, run, summary)
    return None if record is None else (run_id, record)


@cache_budget.resource(show_spinner="Fitting...", max_entries=32)
def fit_model(data_key, rows, kind, task, params, seed, _X, _y):
    """A ``"tree"`` or ``"forest"`` fitted on the rows named by ``rows`` (part of the key).

    ``params`` is a tuple of ``(name, value)`` pairs (hashable).
    """
    return make_model(kind, task, dict(params), seed).fit(_X, _y)
