"""Source 000's model selection (section 4.3), rerun for the datasets Table 1 leaves out.

The paper selected, per dataset and model, the ``min_samples_leaf`` fraction
(``LEAF_FRACTION_GRID``) or the ``max_depth`` (2 to 15, or none: Table 1
prints beta = infinity) with the best mean AUC or R^2 under ``<=`` over
20 x 5-fold cross-validation, with scikit-learn's estimators and
``random_state=5``. Lymphography and stock-portfolio have no row in Table 1;
``python -m lab paper-settings --search lymphography,stock-portfolio`` finds
their settings the same way. Choices the paper leaves open: the folds are
seeded with 5 like its estimators, and a tie between configurations goes to
the first in grid order (fractions from small to large, then depths).

A library engine (``engine="xgboost"``, ...) chooses among its own small grid
(``trees.conditioning.LIBRARY_GRIDS``: the number of trees and the depth) by
the same rule, its ensemble ("forest") only, each candidate scored with the
library's own predictions, i.e. under the library's own test, as the paper
scored scikit-learn's under its default ``<=``. :func:`chosen_settings` turns
the search's summary into the settings a Tables 2-3 run takes per dataset.
"""

from dataclasses import dataclass

import numpy as np

from datasets.source000 import LEAF_FRACTION_GRID, MAX_DEPTH_GRID
from trees.conditioning import (
    LIBRARY_ENGINES,
    LIBRARY_GRIDS,
    PAPER_RANDOM_STATE,
    engine_models,
    fit_model,
    native_predictions,
)
from trees.tasks import folds, score

from .checks import MODELS, in_paper_order, normalise, paper_models, paper_names
from .jobs import SELECTION_REPEATS, _cached, _digest, _paper_dataset, _SavedJob, engine_settings

__all__ = ["SEARCH_GRID", "SettingsSearchJob", "chosen_settings", "search_grid", "selection_score"]

SEARCH_GRID = tuple({"min_samples_leaf": f} for f in LEAF_FRACTION_GRID) + tuple(
    {"max_depth": d} for d in MAX_DEPTH_GRID
)


def search_grid(engine):
    """The candidates of ``engine``: Table 1's grid, or a library engine's own small grid."""
    return LIBRARY_GRIDS.get(engine, SEARCH_GRID)


def _default_test_predictions(engine, model, task, params, seed, X_train, y_train, X_test):
    """Predictions under the implementation's default test: ``<=``, or the library's own."""
    if engine in LIBRARY_ENGINES:
        return native_predictions(engine, task, params, seed, X_train, y_train, X_test)
    fitted = fit_model(engine, model, task, params, seed, X_train, y_train)
    return fitted.predict(X_test, "<="), fitted.classes


def selection_score(X, y, task, model, params, splits, engine="sklearn", seed=PAPER_RANDOM_STATE):
    """Mean AUC or R^2 of one configuration over ``splits``, under the default test."""
    values = []
    for train, test in splits:
        prediction, classes = _default_test_predictions(
            engine, model, task, params, seed, X[train], y[train], X[test]
        )
        values.append(score(task, y[test], prediction, classes))
    return float(np.nanmean(values))


def chosen_settings(summary):
    """``((dataset, ((name, value), ...)), ...)``: each dataset's best settings in a search summary.

    The form :class:`lab.jobs.PaperTablesJob` takes as ``selected``; one
    model per dataset (a library engine's search covers its ensemble only).
    """
    chosen = {}
    for part, found in (summary or {}).items():
        name = part.split("/")[0]
        chosen[name] = tuple(sorted(found["best"].items()))
    return tuple(sorted(chosen.items()))


@dataclass(frozen=True)
class SettingsSearchJob(_SavedJob):
    """The paper's selection for some datasets (kind "paper-settings"): one task per configuration."""

    names: tuple
    models: tuple = ("tree", "forest")
    n_repeats: int = SELECTION_REPEATS
    n_splits: int = 5
    engine: str = "sklearn"
    kind = "paper-settings"

    def __post_init__(self):
        """Check the settings (the run's lists them in the paper's order: one id per settings)."""
        normalise(self, names=paper_names(self.names), models=paper_models(self.models))
        if self.n_repeats < 1:
            raise ValueError(f"Give 1 repeat or more, got {self.n_repeats}.")
        if engine_models(self.engine, self.models) != tuple(self.models):
            raise ValueError(
                f"engine {self.engine!r} chooses its ensemble's settings: models must be "
                "('forest',) (a single tree of a boosting library is not the paper's tree)."
            )

    def grid(self):
        """The candidates searched (:func:`search_grid`)."""
        return search_grid(self.engine)

    def _splits(self, name):
        def build():
            X, y, task, _ = _paper_dataset(name)
            return folds(task, X, y, self.n_splits, self.n_repeats, PAPER_RANDOM_STATE)

        return _cached(("search folds", name, self.n_repeats, self.n_splits), build)

    def label(self):
        searched = f"{', '.join(self.names)} ({' and '.join(self.models)})"
        if self.engine in LIBRARY_ENGINES:
            return f"{self.engine} settings chosen by the paper's rule: {searched}"
        return f"paper settings searched: {searched}"

    def dataset(self):
        return ",".join(self.names)

    def fingerprint(self):
        return _digest([_paper_dataset(n)[3] for n in in_paper_order(self.names)])

    def settings(self):
        return {"datasets": in_paper_order(self.names),
                "models": in_paper_order(self.models, MODELS), "n_repeats": self.n_repeats,
                "n_splits": self.n_splits, "engine": self.engine,
                "grid": [dict(c) for c in self.grid()], **engine_settings(self.engine)}  # fmt: skip

    def seeds(self):
        return {"folds": PAPER_RANDOM_STATE, "estimators": PAPER_RANDOM_STATE}

    def task_keys(self):
        return [f"{n}/{m}/{i:02d}" for n in self.names for m in self.models
                for i in range(len(self.grid()))]  # fmt: skip

    def part(self, key):
        name, model, _ = key.split("/")
        return f"{name}/{model}"

    def run_task(self, key):
        name, model, index = key.split("/")
        X, y, task, _ = _paper_dataset(name)
        params = dict(self.grid()[int(index)])
        if model == "forest" and self.engine not in LIBRARY_ENGINES:
            params["n_estimators"] = 100
        return {"score": selection_score(X, y, task, model, params, self._splits(name),
                                         self.engine)}  # fmt: skip

    def combine_part(self, part, results):
        ordered = sorted(results)  # keys end with the grid index: grid order
        scores = [results[k]["score"] for k in ordered]
        grid = self.grid()
        if not np.isfinite(scores).any():
            raise ValueError(
                f"{part}: no candidate could be scored (every fold's AUC or R^2 is undefined); "
                "the paper's rule cannot choose settings for this dataset."
            )
        best = int(np.nanargmax(scores))  # the first of equal scores
        return {"best": dict(grid[int(ordered[best].split("/")[2])]),
                "score": scores[best],
                "scores": {str(grid[int(k.split("/")[2])]): s
                           for k, s in zip(ordered, scores, strict=True)}}  # fmt: skip

    def summarize(self, parts):
        return dict(parts)
