"""The app's other long studies as jobs: a grid search, and a perturbation study.

Both run on data the app holds (an upload, a generated set), so they are
built from arrays and meant for the in-process executors (the background
worker). The algorithms are ``trees.tuning``'s and ``trees.instability``'s: each configuration's
cross-validation error (``cross_validation_error``, the same folds for all)
and each perturbed refit (``perturbation_refit``) are the tasks.
"""

from dataclasses import dataclass, field

import numpy as np

from trees.instability import perturbation_refit, summarize_perturbations
from trees.tasks import make_tree
from trees.tree import Tree
from trees.tuning import cross_validation_error

from .jobs import _SavedJob

__all__ = ["GridSearchJob", "PerturbationJob"]


@dataclass(frozen=True)
class _ArrayJob(_SavedJob):
    """What the array-based jobs share: the data, its name and fingerprint."""

    name: str
    task: str
    data_fingerprint: str
    arrays: tuple = field(compare=False, repr=False)

    def dataset(self):
        return self.name

    def fingerprint(self):
        return self.data_fingerprint


@dataclass(frozen=True)
class _ConfigurationSearch(_ArrayJob):
    """A search over ``configurations`` (kind "grid-search"): one task per configuration, each
    scored by its ``error``; the lowest wins, the first on ties (as the study functions)."""

    configurations: tuple = ()
    kind = "grid-search"

    def task_keys(self):
        return [f"config-{i:04d}" for i in range(len(self.configurations))]

    def part(self, key):
        return "search"

    def combine_part(self, part, results):
        errors = [results[k]["error"] for k in sorted(results)]
        best = int(np.nanargmin(errors))
        return {"errors": errors, "best": dict(self.configurations[best]),
                "best_error": errors[best]}  # fmt: skip

    def summarize(self, parts):
        return parts.get("search")


@dataclass(frozen=True)
class GridSearchJob(_ConfigurationSearch):
    """k-fold cross-validation of every configuration (kind "grid-search"); the best wins."""

    k: int = 5
    seed: int = 0

    def label(self):
        return f"{self.name}: {len(self.configurations)} configurations, {self.k}-fold"

    def settings(self):
        return {"task": self.task, "configurations": [dict(c) for c in self.configurations],
                "k": self.k}  # fmt: skip

    def seeds(self):
        return {"folds": self.seed}

    def run_task(self, key):
        X, y = self.arrays
        params = dict(self.configurations[int(key.split("-")[1])])
        mean, per_fold = cross_validation_error(self.task, params, X, y, self.k, self.seed)
        return {"error": mean, "fold_errors": per_fold}


@dataclass(frozen=True)
class PerturbationJob(_ArrayJob):
    """Refits of a tree on perturbed data (kind "instability"); summarised as the study does."""

    params: tuple = ()
    n_fits: int = 50
    perturbation: str = "bootstrap"
    amount: float = 1
    random_state: int = 0
    kind = "instability"

    def label(self):
        return f"{self.name}: {self.n_fits} refits, {self.perturbation}"

    def settings(self):
        return {"task": self.task, "params": dict(self.params), "n_fits": self.n_fits,
                "perturbation": self.perturbation, "amount": self.amount}  # fmt: skip

    def seeds(self):
        return {"perturbations": self.random_state}

    def task_keys(self):
        return [f"refit-{i:05d}" for i in range(self.n_fits)]

    def part(self, key):
        return "study"

    def run_task(self, key):
        X, y = self.arrays
        tree = perturbation_refit(X, y, self.task, dict(self.params), self.perturbation,
                                  self.amount, self.random_state, int(key.split("-")[1]))  # fmt: skip
        return tree.to_dict()

    def combine_part(self, part, results):
        X, y = self.arrays
        trees = [Tree.from_dict(results[k]) for k in sorted(results)]
        reference = make_tree(self.task, dict(self.params)).fit(X, y).tree_
        study = summarize_perturbations(reference, trees, X, y, self.task)
        return {"root_feature": study.root_feature, "root_threshold": study.root_threshold,
                "distance": study.distance, "changed_share": study.changed_share,
                "depth_feature_counts": study.depth_feature_counts}  # fmt: skip

    def summarize(self, parts):
        return parts.get("study")
