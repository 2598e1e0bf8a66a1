"""Evaluation and tuning functions (source 004, section 4) on data with a known best setting."""

import numpy as np
import pytest

from datasets import generate
from trees.tuning import (
    configuration_grid,
    cross_validated_search,
    cross_validation_error,
    exhaustive_trees,
    holdout_tuning,
    nested_cross_validation,
    split_error,
)


@pytest.fixture
def noisy_step():
    """y = 1 when x > 0.5, with 20% of labels flipped: one split is the best tree."""
    rng = np.random.default_rng(0)
    X = rng.random((400, 2))
    y = (X[:, 0] > 0.5).astype(int)
    flip = rng.random(400) < 0.2
    y[flip] = 1 - y[flip]
    return X, y


def test_configuration_grid_combines_every_value():
    grid = configuration_grid(max_depth=[None, 3], criterion=["gini", "entropy"], max_leaf_nodes=[])
    assert len(grid) == 4 and {"max_depth": None, "criterion": "gini"} in grid
    assert configuration_grid() == [{}]


def test_cross_validation_error_is_the_mean_of_the_folds(noisy_step):
    X, y = noisy_step
    mean, folds = cross_validation_error("classification", {"max_depth": 1}, X, y, k=5)
    assert folds.shape == (5,) and mean == pytest.approx(folds.mean())
    assert 0.15 < mean < 0.3  # the label noise


@pytest.mark.parametrize("search", ["cv", "holdout", "nested"])
def test_every_search_finds_the_single_split(noisy_step, search):
    X, y = noisy_step
    grid = configuration_grid(max_depth=[1, 4, None])
    if search == "cv":
        result = cross_validated_search("classification", grid, X, y, k=5)
    elif search == "holdout":
        result = holdout_tuning("classification", grid, X, y, validation_size=0.3, seed=1)
    else:
        result = nested_cross_validation("classification", grid, X, y, outer_k=3, inner_k=3)
        assert len(result.outer_errors) == 3 and all(
            b == {"max_depth": 1} for b in result.outer_best
        )
    assert result.best == {"max_depth": 1}
    assert result.best_error < result.errors[-1]  # the unbounded tree overfits the noise
    assert 0.1 < result.estimate < 0.35


def test_searches_can_be_stopped(noisy_step):
    X, y = noisy_step
    grid = configuration_grid(max_depth=[1, 2, 3, 4])
    seen = []
    result = holdout_tuning(
        "classification",
        grid,
        X,
        y,
        progress=lambda d, t: seen.append(d),
        should_stop=lambda: len(seen) >= 2,
    )
    assert result.cancelled and np.isnan(result.errors[2:]).all()
    nested = nested_cross_validation(
        "classification",
        grid,
        X,
        y,
        outer_k=2,
        inner_k=2,
        progress=lambda d, t: seen.append(d),
        should_stop=lambda: len(seen) >= 5,
    )
    assert nested.cancelled


def test_regression_tuning_uses_one_minus_r2():
    data = generate("Smooth 1-D regression", n_samples=300, noise=0.3)
    X, y = data.arrays()
    result = cross_validated_search("regression", configuration_grid(max_depth=[1, 4, None]), X, y)
    assert result.best == {"max_depth": 4}
    assert split_error("regression", y, y) == 0.0


def test_exhaustive_trees_reach_purity(noisy_step):
    X, y = noisy_step
    rows = exhaustive_trees(X[:300], y[:300], X[300:], y[300:])
    assert [r["criterion"] for r in rows] == ["gini", "entropy", "misclassification", "chi2"]
    for row in rows:
        assert row["nodes"] == 2 * row["leaves"] - 1
        if row["criterion"] != "misclassification":  # it can stall before purity (source 003)
            assert row["train error"] == 0.0
        assert row["test error"] > 0.1


def test_a_tied_leaf_takes_the_class_of_its_first_row_as_the_reports_code_reads_it():
    """Counter.most_common keeps equal counts in the order first seen: a leaf with one row of
    each class is labelled by its first training row; the estimators take the first class."""
    X = np.array([[0.0], [0.0], [0.0], [0.0]])  # one leaf: no split can part the rows
    y = np.array(["p", "e", "p", "e"])
    ours = exhaustive_trees(X, y, X[:1], np.array(["p"]), criteria=["gini"])[0]
    reports = exhaustive_trees(
        X, y, X[:1], np.array(["p"]), criteria=["gini"], leaf_classes="report"
    )[0]
    assert ours["test error"] == 1.0  # predicts "e", the first class
    assert reports["test error"] == 0.0  # predicts "p", the class of the first row
    assert ours["train error"] == reports["train error"] == 0.5


def test_exhaustive_trees_names_the_leaf_class_rules_it_knows(noisy_step):
    X, y = noisy_step
    with pytest.raises(ValueError, match="leaf_classes must be one of"):
        exhaustive_trees(X, y, X, y, criteria=["gini"], leaf_classes="vote")
