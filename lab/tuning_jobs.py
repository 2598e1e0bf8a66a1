"""Source 004's other two searches as jobs: holdout validation and nested cross-validation.

With :class:`lab.GridSearchJob` (k-fold cross-validation) they make the
Evaluate page's grid search a saved, resumable run of kind "grid-search".
Each gives the numbers of its function in ``trees.tuning`` exactly:

* :class:`HoldoutSearchJob` = ``holdout_tuning``: one task per configuration,
  fitted on the same training part and scored on the same validation part
  (``train_test_rows`` with the job's seed);
* :class:`NestedSearchJob` = ``nested_cross_validation``: one task per outer
  fold and configuration (its inner cross-validation error on the outer
  training part); each outer fold is one part, combined when its
  configurations are in by refitting the best on the outer training part and
  scoring it on the outer test fold.

Summaries have the same keys as ``GridSearchJob``'s (``errors``, ``best``,
``best_error``), plus ``outer_errors`` and ``outer_best`` for nested
cross-validation; a nested run stopped part-way summarises the outer folds
it finished.
"""

from dataclasses import dataclass

import numpy as np

from trees.tasks import error, folds, make_tree, train_test_rows
from trees.tuning import cross_validation_error

from .jobs import _cached
from .study_jobs import _ArrayJob, _ConfigurationSearch

__all__ = ["HoldoutSearchJob", "NestedSearchJob"]


def _configuration(job, index):
    return dict(job.configurations[int(index)])


@dataclass(frozen=True)
class HoldoutSearchJob(_ConfigurationSearch):
    """Holdout validation of every configuration (kind "grid-search"); the best wins."""

    validation_share: float = 0.2
    seed: int = 0

    def label(self):
        return (
            f"{self.name}: {len(self.configurations)} configurations, "
            f"holdout validation on {self.validation_share:.0%}"
        )

    def settings(self):
        return {"task": self.task, "configurations": [dict(c) for c in self.configurations],
                "method": "holdout", "validation_share": self.validation_share}  # fmt: skip

    def seeds(self):
        return {"split": self.seed}

    def run_task(self, key):
        X, y = self.arrays
        train, validation = train_test_rows(self.task, y, self.validation_share, self.seed)
        model = make_tree(self.task, _configuration(self, key.split("-")[1])).fit(
            X[train], y[train]
        )
        return {"error": float(error(self.task, y[validation], model.predict(X[validation])))}


@dataclass(frozen=True)
class NestedSearchJob(_ArrayJob):
    """Nested cross-validation of the configurations (kind "grid-search"), source 004 §4.3.3."""

    configurations: tuple = ()
    outer_k: int = 5
    inner_k: int = 3
    seed: int = 0
    kind = "grid-search"

    def label(self):
        return (
            f"{self.name}: {len(self.configurations)} configurations, nested cross-validation "
            f"({self.outer_k} outer, {self.inner_k} inner folds)"
        )

    def settings(self):
        return {"task": self.task, "configurations": [dict(c) for c in self.configurations],
                "method": "nested", "outer_k": self.outer_k, "inner_k": self.inner_k}  # fmt: skip

    def seeds(self):
        return {"folds": self.seed}

    def _outer(self):
        X, y = self.arrays
        return _cached(
            ("nested outer folds", self.run_id()),
            lambda: folds(self.task, X, y, self.outer_k, random_state=self.seed),
        )

    def task_keys(self):
        return [f"outer-{f:02d}/config-{i:04d}" for f in range(self.outer_k)
                for i in range(len(self.configurations))]  # fmt: skip

    def part(self, key):
        return key.split("/")[0]

    def run_task(self, key):
        X, y = self.arrays
        fold, config = key.split("/")
        train, _ = self._outer()[int(fold.split("-")[1])]
        mean, _ = cross_validation_error(
            self.task, _configuration(self, config.split("-")[1]), X[train], y[train],
            self.inner_k, self.seed,
        )  # fmt: skip
        return {"error": float(mean)}

    def combine_part(self, part, results):
        X, y = self.arrays
        train, test = self._outer()[int(part.split("-")[1])]
        errors = [results[k]["error"] for k in sorted(results)]
        best = dict(self.configurations[int(np.nanargmin(errors))])
        model = make_tree(self.task, best).fit(X[train], y[train])
        outer = float(error(self.task, y[test], model.predict(X[test])))
        return {"errors": errors, "best": best, "outer_error": outer}

    def summarize(self, parts):
        if not parts:
            return None
        done = sorted(parts)
        inner = np.mean([parts[p]["errors"] for p in done], axis=0)
        best = int(np.nanargmin(inner))
        return {"errors": inner.tolist(), "best": dict(self.configurations[best]),
                "best_error": float(inner[best]),
                "outer_errors": [parts[p]["outer_error"] for p in done],
                "outer_best": [parts[p]["best"] for p in done]}  # fmt: skip
