"""Source 000's protocol, its own work done cheaply with the same numbers: AUC and R^2 in
numpy against scikit-learn, the Wilcoxon p-values counted against scipy's, the settings
looked up once, and the engine's numbers pinned from before the speed work."""

import json
from pathlib import Path

import numpy as np
import pytest
from scipy.stats import wilcoxon
from sklearn.metrics import r2_score, roc_auc_score

from datasets.source000 import paper_settings
from lab.jobs import ConditioningJob
from trees.conditioning import run_conditioning_task
from trees.studies._by_task import binary_auc, r2, score
from trees.studies._significance import _wilcoxon_p

REFERENCE = Path(__file__).parent / "data" / "protocol_reference.json"


@pytest.mark.parametrize("seed", range(20))
def test_auc_equals_scikit_learns_to_the_bit_with_and_without_tied_scores(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 300))
    y = rng.random(n) < rng.uniform(0.05, 0.95)
    y[0], y[1] = True, False  # both classes present
    scores = rng.random(n) if seed % 2 else rng.integers(0, 5, n) / 4.0  # many ties
    assert binary_auc(y, scores) == roc_auc_score(y, scores)  # to the bit


def test_auc_of_a_single_class_is_nan_and_multi_class_is_one_against_the_rest():
    assert np.isnan(binary_auc(np.ones(5, dtype=bool), np.arange(5.0)))
    rng = np.random.default_rng(3)
    y = np.repeat(np.array(["a", "b", "c"]), 20)
    proba = rng.dirichlet(np.ones(3), size=60)
    expected = roc_auc_score(y, proba, multi_class="ovr", labels=["a", "b", "c"])
    assert abs(score("classification", y, proba, np.array(["a", "b", "c"])) - expected) <= 1e-12
    assert np.isnan(score("classification", np.full(4, "a"), proba[:4], np.array(["a", "b", "c"])))


@pytest.mark.parametrize(
    ("y", "prediction"),
    [
        (np.arange(10.0), np.arange(10.0) + 0.5),
        (np.arange(10.0), np.arange(10.0)),
        (np.full(6, 2.0), np.full(6, 2.0)),  # constant and perfect: 1
        (np.full(6, 2.0), np.full(6, 2.5)),  # constant, not perfect: 0
        (np.random.default_rng(0).normal(size=500), np.random.default_rng(1).normal(size=500)),
    ],
)
def test_r2_equals_scikit_learns(y, prediction):
    assert abs(r2(y, prediction) - r2_score(y, prediction)) <= 1e-12


def test_r2_of_one_row_is_nan_as_scikit_learns():
    assert np.isnan(r2([1.0], [1.0]))


def _pairs(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 14))
    a = rng.integers(0, 5, n) / 4.0
    b = rng.integers(0, 5, n) / 4.0
    if np.all(a == b):
        b[0] += 0.25
    return a, b


@pytest.mark.parametrize("seed", range(12))
def test_small_samples_with_ties_get_scipys_exact_permutation_p_values(seed):
    a, b = _pairs(seed)
    for alternative in ("two-sided", "greater", "less"):
        expected = wilcoxon(a, b, zero_method="zsplit", alternative=alternative).pvalue
        assert _wilcoxon_p(a, b, alternative) == float(expected)


def test_thirteen_folds_with_a_zero_and_ties_match_scipy():
    a = np.array([0.7, 0.8, 0.9, 0.6, 0.75, 0.8, 0.85, 0.9, 0.7, 0.65, 0.8, 0.9, 0.7])
    b = a - np.array([0.05, 0, 0.05, -0.05, 0.1, 0.05, -0.1, 0.05, 0.02, 0.05, 0.03, 0.05, 0.0])
    for alternative in ("two-sided", "greater", "less"):
        expected = wilcoxon(a, b, zero_method="zsplit", alternative=alternative).pvalue
        assert _wilcoxon_p(a, b, alternative) == float(expected)


def test_paper_settings_are_read_once_and_handed_out_as_new_dicts():
    first = paper_settings("bupa", "forest")
    first["n_estimators"] = 3
    assert paper_settings("bupa", "forest") == {"min_samples_leaf": 0.008, "n_estimators": 100}
    assert paper_settings("laser", "forest") == {"max_depth": None, "n_estimators": 100}


@pytest.mark.slow
def test_the_trees_engines_protocol_numbers_are_those_pinned_before_the_speed_work():
    """rho, rho_k counts and every fold's scores of the trees engine, to the bit, on small,
    medium and large datasets of both tasks, trees and forests (1 x 5 folds and the fit on
    all rows), as the engine gave them before the protocol was made faster."""
    pinned = json.loads(REFERENCE.read_text())
    for case, tasks in pinned.items():
        name, model = case.split("/")
        plan = ConditioningJob.for_dataset(name, model, n_repeats=1).plan()
        got = {key: run_conditioning_task(plan, key) for key in plan.task_keys()}
        assert got == tasks, case
