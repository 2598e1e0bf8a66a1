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
"""

from dataclasses import dataclass

import numpy as np

from datasets.source000 import LEAF_FRACTION_GRID, MAX_DEPTH_GRID
from trees.conditioning import PAPER_RANDOM_STATE, fit_model
from trees.tasks import folds, score

from .jobs import _cached, _digest, _paper_dataset, _SavedJob

__all__ = ["SEARCH_GRID", "SettingsSearchJob", "selection_score"]

SEARCH_GRID = tuple({"min_samples_leaf": f} for f in LEAF_FRACTION_GRID) + tuple(
    {"max_depth": d} for d in MAX_DEPTH_GRID
)


def selection_score(X, y, task, model, params, splits, engine="sklearn", seed=PAPER_RANDOM_STATE):
    """Mean AUC or R^2 under ``<=`` of one configuration over ``splits``."""
    values = []
    for train, test in splits:
        fitted = fit_model(engine, model, task, params, seed, X[train], y[train])
        values.append(score(task, y[test], fitted.predict(X[test], "<="), fitted.classes))
    return float(np.nanmean(values))


@dataclass(frozen=True)
class SettingsSearchJob(_SavedJob):
    """The paper's selection for some datasets (kind "paper-settings"): one task per configuration."""

    names: tuple
    models: tuple = ("tree", "forest")
    n_repeats: int = 20
    n_splits: int = 5
    engine: str = "sklearn"
    kind = "paper-settings"

    def _splits(self, name):
        def build():
            X, y, task, _ = _paper_dataset(name)
            return folds(task, X, y, self.n_splits, self.n_repeats, PAPER_RANDOM_STATE)

        return _cached(("search folds", name, self.n_repeats, self.n_splits), build)

    def label(self):
        return f"paper settings searched: {', '.join(self.names)} ({' and '.join(self.models)})"

    def dataset(self):
        return ",".join(self.names)

    def fingerprint(self):
        return _digest([_paper_dataset(n)[3] for n in self.names])

    def settings(self):
        return {"datasets": list(self.names), "models": list(self.models),
                "n_repeats": self.n_repeats, "n_splits": self.n_splits, "engine": self.engine,
                "grid": [dict(c) for c in SEARCH_GRID]}  # fmt: skip

    def seeds(self):
        return {"folds": PAPER_RANDOM_STATE, "estimators": PAPER_RANDOM_STATE}

    def task_keys(self):
        return [f"{n}/{m}/{i:02d}" for n in self.names for m in self.models
                for i in range(len(SEARCH_GRID))]  # fmt: skip

    def part(self, key):
        name, model, _ = key.split("/")
        return f"{name}/{model}"

    def run_task(self, key):
        name, model, index = key.split("/")
        X, y, task, _ = _paper_dataset(name)
        params = dict(SEARCH_GRID[int(index)])
        if model == "forest":
            params["n_estimators"] = 100
        return {"score": selection_score(X, y, task, model, params, self._splits(name),
                                         self.engine)}  # fmt: skip

    def combine_part(self, part, results):
        ordered = sorted(results)  # keys end with the grid index: grid order
        scores = [results[k]["score"] for k in ordered]
        best = int(np.nanargmax(scores))  # the first of equal scores
        return {"best": dict(SEARCH_GRID[int(ordered[best].split("/")[2])]),
                "score": scores[best],
                "scores": {str(SEARCH_GRID[int(k.split("/")[2])]): s
                           for k, s in zip(ordered, scores, strict=True)}}  # fmt: skip

    def summarize(self, parts):
        return dict(parts)
