"""The lab's long experiments as jobs: independent seeded tasks, parts, a summary.

A job is a small picklable description. Its heavy state (the dataset, the
folds) is rebuilt once per worker process from that description and cached
(:func:`_cached`), so executors ship only the description and a task key.

Every job has: ``kind``, ``label()``, ``dataset()``, ``fingerprint()``,
``settings()``, ``seeds()``, ``version()``, ``run_id()``, ``task_keys()``,
``part(key)``, ``run_task(key)``, ``combine_part(part, results)`` and
``summarize(parts)``; :func:`lab.runner.run_job` runs any of them.
"""

import hashlib
import json
import threading
from dataclasses import dataclass, field
from importlib import metadata

import numpy as np

from datasets import DataError, fingerprint, load
from datasets.bundled import PAPER_CLASSIFICATION
from datasets.source000 import paper_settings
from trees.conditioning import (
    ALL_DATA,
    LIBRARY_ENGINES,
    PAPER_RANDOM_STATE,
    ConditioningResult,
    check_library_params,
    combine_conditioning,
    conditioning_plan,
    engine_versions,
    run_conditioning_task,
)

from .checks import (
    MODELS,
    check_seed,
    in_paper_order,
    normalise,
    paper_models,
    paper_names,
    without_default_options,
)
from .paper import ALL_PAPER_DATASETS, comparison_row

__all__ = [
    "ConditioningJob",
    "PaperTablesJob",
    "check_folds",
    "conditioning_result",
    "engine_settings",
    "fold_limit",
    "package_version",
]

_CACHE, _CACHE_LOCK = {}, threading.RLock()  # re-entrant: a plan loads its dataset


def package_version():
    """The installed version of the lab (pyproject's when not installed)."""
    try:
        return metadata.version("tree-bias-lab")
    except metadata.PackageNotFoundError:
        return "0.1.0+source"


def _cached(key, build):
    """``build()`` once per process and key (the datasets and plans of the tasks)."""
    with _CACHE_LOCK:
        if key not in _CACHE:
            _CACHE[key] = build()
        return _CACHE[key]


def _digest(*parts):
    text = json.dumps(parts, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _paper_dataset(name):
    """Arrays and fingerprint of one of the 40 datasets, as the paper used it (no preprocessing)."""

    def build():
        dataset = load(name)
        X = dataset.X.to_numpy(dtype=float)
        if np.isnan(X).any():
            raise DataError(f"{name} has missing values; the paper's datasets have none.")
        return X, dataset.y.to_numpy(), dataset.task, fingerprint(dataset)

    return _cached(("dataset", name), build)


def fold_limit(name):
    """The most folds one of the 40 datasets can be split into, and why, in words.

    scikit-learn's splitters refuse more folds than rows (regression), or
    than the rows of the largest class (classification: every fold is
    stratified); a run asking for more would fail at its first task.
    """
    _, y, task, _ = _paper_dataset(name)
    if task == "classification":
        _, counts = np.unique(y, return_counts=True)
        return int(counts.max()), f"its largest class has {int(counts.max())} rows"
    return len(y), f"it has {len(y)} rows"


def check_folds(names, n_splits):
    """``n_splits`` as an int, when every dataset of ``names`` can be split into that many folds.

    Raises
    ------
    ValueError
        Fewer than 2 folds, or more than a dataset allows (:func:`fold_limit`; which, and why).
    """
    if isinstance(n_splits, bool) or int(n_splits) != n_splits or n_splits < 2:
        raise ValueError(f"Cross-validation needs 2 folds or more, got {n_splits!r}.")
    limits = {name: fold_limit(name) for name in names}
    over = {name: why for name, (limit, why) in limits.items() if n_splits > limit}
    if over:
        most = min(limit for limit, _ in limits.values())
        raise ValueError(
            f"{n_splits} folds are more than "
            + "; ".join(f"{name} allows ({why})" for name, why in over.items())
            + f". Use at most {most} folds, or leave {', '.join(over)} out."
        )
    return int(n_splits)


def engine_settings(engine):
    """What a run records of a library engine: its settings and the libraries' versions.

    The ``trees`` and ``sklearn`` engines record nothing more (their runs keep
    their ids); a library engine records the library defaults it fits with
    (``trees.conditioning.LIBRARY_ENGINES``) and the versions of the libraries.
    """
    if engine not in LIBRARY_ENGINES:
        return {}
    _, fixed, described = LIBRARY_ENGINES[engine]
    return {"engine settings": described, "engine fixed params": dict(fixed),
            "library versions": engine_versions(engine)}  # fmt: skip


# Source 000's model selection: 20 x 5-fold cross-validation per configuration (section 4.3).
SELECTION_REPEATS = 20


class _SavedJob:
    """What every job of the store shares: the package version it ran with, and a run id made
    of its kind, settings, seeds and data fingerprint (the same job resumes the same run).

    One set of settings gives one id, whoever builds the job (the app or the command line):
    each job's constructor brings its fields to one normal form (:mod:`lab.checks`) before
    this derives the id from them.
    """

    def version(self):
        return package_version()

    def run_id(self):
        return _digest(self.kind, self.settings(), self.seeds(), self.fingerprint())


@dataclass(frozen=True)
class ConditioningJob(_SavedJob):
    """Source 000's experiment on one dataset and model (kind "conditioning").

    Build it with :meth:`for_dataset` (a catalogue name: the paper's settings
    by default) or :meth:`for_arrays` (data the app holds, e.g. an upload).
    """

    name: str
    task: str
    model: str
    params: tuple
    n_repeats: int = 10
    n_splits: int = 5
    random_state: int = 0
    engine: str = "trees"
    estimator_seed: object = PAPER_RANDOM_STATE
    rho_k_against: str = "training rows"
    significance: str = "paper"
    data_fingerprint: str = ""
    arrays: tuple = field(default=None, compare=False, repr=False)
    kind = "conditioning"

    @classmethod
    def for_dataset(cls, name, model="tree", params=None, **options):
        """A job on a catalogue dataset; ``params`` default to the paper's settings."""
        _, _, task, digest = _paper_dataset(name)
        if params is None:
            params = paper_settings(name, model)
        return cls(name, task, model, tuple(sorted(params.items())), data_fingerprint=digest,
                   **options)  # fmt: skip

    @classmethod
    def for_arrays(cls, X, y, task, name, data_fingerprint, model="tree", params=None, **options):
        """A job on arrays held in memory (run with a threads executor: they are not reloaded)."""
        return cls(name, task, model, tuple(sorted((params or {}).items())),
                   data_fingerprint=data_fingerprint, arrays=(np.asarray(X), np.asarray(y)),
                   **options)  # fmt: skip

    def plan(self):
        def build():
            if self.arrays is not None:
                X, y = self.arrays
            else:
                X, y, _, _ = _paper_dataset(self.name)
            return conditioning_plan(
                X, y, self.task, self.model, dict(self.params), self.n_repeats, self.n_splits,
                self.random_state, self.engine, self.estimator_seed, self.rho_k_against,
                self.significance,
            )  # fmt: skip

        return _cached(("plan", self.run_id()), build)

    def label(self):
        model = f"{self.engine}'s ensemble" if self.engine in LIBRARY_ENGINES else self.model
        return f"{self.name}: {model}, {self.n_repeats} x {self.n_splits} folds, {self.engine}"

    def dataset(self):
        return self.name

    def fingerprint(self):
        return self.data_fingerprint

    def settings(self):
        return {
            "dataset": self.name, "task": self.task, "model": self.model,
            "params": dict(self.params), "n_repeats": self.n_repeats, "n_splits": self.n_splits,
            "engine": self.engine, "rho_k_against": self.rho_k_against,
            "significance": self.significance, **engine_settings(self.engine),
        }  # fmt: skip

    def seeds(self):
        return {"folds": self.random_state, "estimators": self.estimator_seed}

    def task_keys(self):
        return [*[f"fold-{i:05d}" for i in range(self.n_repeats * self.n_splits)], ALL_DATA]

    def part(self, key):
        return self.name

    def run_task(self, key):
        return run_conditioning_task(self.plan(), key)

    def combine_part(self, part, results):
        result = combine_conditioning(self.plan(), results)
        return {
            "summary": result.summary(),
            "scores": {v: s.tolist() for v, s in result.scores.items()},
            "rho": result.rho_all,
            "rho_k": result.rho_folds,
            "n_folds_total": result.n_folds_total,
        }

    def summarize(self, parts):
        return parts.get(self.name)


def conditioning_result(run):
    """The :class:`ConditioningResult` of a saved conditioning run, without refitting.

    ``run`` is ``store.run(run_id)``; a run still going or stopped gives the
    folds of the last combine (None when none was combined yet).
    """
    settings, saved = run["settings"], run["summary"]
    if not saved:
        return None
    return ConditioningResult(
        model=settings["model"],
        task=settings["task"],
        metric="AUC" if settings["task"] == "classification" else "R2",
        scores={v: np.asarray(s, dtype=float) for v, s in saved["scores"].items()},
        rho_all=saved["rho"],
        rho_folds=saved["rho_k"],
        n_folds_total=saved["n_folds_total"],
        cancelled=run["status"] != "done",
        engine=settings["engine"],
        rho_k_against=settings["rho_k_against"],
        significance=settings["significance"],
    )


@dataclass(frozen=True)
class PaperTablesJob(_SavedJob):
    """Source 000's Tables 2 and 3 on a subset of its 40 datasets (kind "tables").

    One part per dataset and model; each part's row stands beside the
    paper's (:func:`lab.paper.comparison_row`). A library engine fits with
    the library's defaults, or, given ``selected`` (from
    :func:`lab.search.chosen_settings`), with each dataset's settings chosen
    by the paper's selection rule; ``extra_params`` apply on top of either.
    """

    names: tuple = ALL_PAPER_DATASETS
    models: tuple = ("tree", "forest")
    n_repeats: int = 400
    n_splits: int = 5
    random_state: int = 0
    engine: str = "trees"
    estimator_seed: object = PAPER_RANDOM_STATE
    rho_k_against: str = "training rows"
    significance: str = "paper"
    extra_params: tuple = ()
    selected: tuple = ()
    selection_repeats: int = SELECTION_REPEATS
    kind = "tables"

    def __post_init__(self):
        """Check the settings and bring them to their normal form (one run id per settings:
        plain numbers, options at their defaults left out; see also :meth:`settings`)."""
        names = paper_names(self.names)
        if self.n_repeats < 1:
            raise ValueError(f"Give 1 repeat or more, got {self.n_repeats}.")
        normalise(self, names=names, models=paper_models(self.models),
                  n_repeats=int(self.n_repeats), n_splits=check_folds(names, self.n_splits),
                  random_state=check_seed(self.random_state, "seed of the folds"),
                  extra_params=without_default_options(self.extra_params),
                  selected=tuple(sorted(self.selected)))  # fmt: skip
        if self.engine in LIBRARY_ENGINES and self.extra_params:
            # the library's own ranges, before a run exists (a run refused by the library at
            # its first fit would be saved as failed)
            check_library_params(self.engine, dict(self.extra_params), self._tasks())
        if self.selected and self.engine not in LIBRARY_ENGINES:
            raise ValueError(
                "Settings chosen per dataset apply to the library engines; the trees and "
                "sklearn engines take the paper's own choice (Table 1)."
            )
        missing = [n for n in self.names if self.selected and n not in dict(self.selected)]
        if missing:
            raise ValueError(
                f"No chosen settings for {', '.join(missing)}: run the selection first."
            )

    def _tasks(self):
        """The tasks of the run's datasets ("classification", "regression"), in that order."""
        found = {"classification" if n in PAPER_CLASSIFICATION else "regression"
                 for n in self.names}  # fmt: skip
        return tuple(t for t in ("classification", "regression") if t in found)

    def job(self, name, model):
        if self.engine in LIBRARY_ENGINES:
            base = dict(dict(self.selected).get(name, ()))
        else:
            base = paper_settings(name, model)
        params = {**base, **dict(self.extra_params)}
        return ConditioningJob.for_dataset(
            name, model, params, n_repeats=self.n_repeats, n_splits=self.n_splits,
            random_state=self.random_state, engine=self.engine,
            estimator_seed=self.estimator_seed, rho_k_against=self.rho_k_against,
            significance=self.significance,
        )  # fmt: skip

    def label(self):
        names = "all 40 datasets" if len(self.names) == 40 else f"{len(self.names)} datasets"
        models = " and ".join(self.models)
        chosen = ", settings chosen per dataset" if self.selected else ""
        return (f"Tables 2-3: {names}, {models}, {self.n_repeats} x {self.n_splits} folds, "
                f"{self.engine}{chosen}")  # fmt: skip

    def dataset(self):
        return ",".join(self.names)

    def fingerprint(self):
        return _digest([_paper_dataset(n)[3] for n in in_paper_order(self.names)])

    def settings(self):
        return {
            "datasets": in_paper_order(self.names), "models": in_paper_order(self.models, MODELS),
            "n_repeats": self.n_repeats, "n_splits": self.n_splits, "engine": self.engine,
            "rho_k_against": self.rho_k_against, "significance": self.significance,
            "extra_params": dict(self.extra_params), **engine_settings(self.engine),
            **self._selected_settings(),
        }  # fmt: skip

    def _selected_settings(self):
        """The chosen settings as the run records them (nothing without: run ids stay)."""
        if not self.selected:
            return {}
        return {"selected params": {name: dict(params) for name, params in self.selected},
                "selection repeats": self.selection_repeats}  # fmt: skip

    def seeds(self):
        return {"folds": self.random_state, "estimators": self.estimator_seed}

    def task_keys(self):
        fold_keys = self.job(self.names[0], self.models[0]).task_keys() if self.names else []
        return [f"{n}/{m}/{k}" for n in self.names for m in self.models for k in fold_keys]

    def part(self, key):
        name, model, _ = key.split("/")
        return f"{name}/{model}"

    def run_task(self, key):
        name, model, fold = key.split("/")
        return self.job(name, model).run_task(fold)

    def combine_part(self, part, results):
        name, model = part.split("/")
        job = self.job(name, model)
        own = {key.split("/")[2]: value for key, value in results.items()}
        result = combine_conditioning(job.plan(), own)
        return comparison_row(name, job.task, model, result.summary(), result.n_folds_done)

    def summarize(self, parts):
        order = [f"{n}/{m}" for n in self.names for m in self.models]
        return {"rows": [parts[p] for p in order if p in parts]}
