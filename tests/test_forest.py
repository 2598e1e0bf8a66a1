"""Random forests: API conformance, scikit-learn equivalence on the same bootstrap samples,
and the "average" and "half" conditionings against hand computation."""

import numpy as np
import pytest
from sklearn import tree as sktree
from sklearn.datasets import load_diabetes, load_iris
from sklearn.utils.estimator_checks import parametrize_with_checks

from tests.helpers import as_float32_exact, load_common_dataset
from trees import (
    ExtraTreesClassifier,
    ExtraTreesRegressor,
    RandomForestClassifier,
    RandomForestRegressor,
)
from trees.ensemble._bootstrap import bootstrap_indices
from trees.ensemble._halves import tree_operators

# Bagging draws rows, so a weight of 2 is not the same as a repeated row, nor
# a weight of 0 the same as a removed one: scikit-learn marks this check as
# expected to fail for its own forests, for the same reason.
BAGGING_XFAIL = {
    "check_sample_weight_equivalence_on_dense_data": "bootstrap samples rows, not weights",
    "check_sample_weight_equivalence_on_sparse_data": "bootstrap samples rows, not weights",
}


def _expected_failures(estimator):
    return BAGGING_XFAIL if estimator.bootstrap else {}


@parametrize_with_checks(
    [
        RandomForestClassifier(n_estimators=5, random_state=0),
        RandomForestClassifier(n_estimators=4, conditioning="half", oob_score=True, random_state=0),
        RandomForestRegressor(n_estimators=5, conditioning="average", random_state=0),
        RandomForestRegressor(n_estimators=3, bootstrap=False, conditioning="<"),
        ExtraTreesClassifier(n_estimators=5, random_state=0),
        ExtraTreesRegressor(n_estimators=4, bootstrap=True, oob_score=True, random_state=0),
    ],
    expected_failed_checks=_expected_failures,
)
def test_sklearn_api_conformance(estimator, check):
    check(estimator)


@pytest.fixture
def lattice_classification():
    rng = np.random.default_rng(0)
    X = rng.integers(0, 5, size=(240, 3)).astype(float)
    y = (X[:, 0] + X[:, 1] + rng.normal(0, 1, 240) > 4).astype(int)
    return X, y


def test_trees_equal_sklearn_trees_on_the_same_bootstrap_samples():
    """Every tree equals scikit-learn's tree fitted on the same bootstrap rows."""
    X, y = load_common_dataset("binary_classification", "load_bupa")
    X = as_float32_exact(X)
    forest = RandomForestClassifier(
        n_estimators=8, max_features=None, max_depth=3, random_state=7
    ).fit(X, y)
    theirs = []
    for seed, ours in zip(forest._seeds, forest.estimators_, strict=True):
        rows = bootstrap_indices(seed, X.shape[0])
        reference = sktree.DecisionTreeClassifier(max_depth=3, random_state=0).fit(X[rows], y[rows])
        np.testing.assert_allclose(ours.predict_proba(X), reference.predict_proba(X), atol=1e-12)
        theirs.append(reference.predict_proba(X))
    np.testing.assert_allclose(forest.predict_proba(X), np.mean(theirs, axis=0), atol=1e-12)


def test_bootstrap_samples_are_scikit_learns():
    """Each tree's rows are those scikit-learn's forest draws for the same tree seed (its public
    ``estimators_samples_``, and the seed it gave each tree as ``random_state``)."""
    from sklearn.ensemble import RandomForestClassifier as SkForest

    rng = np.random.default_rng(0)
    X, y = rng.normal(size=(50, 3)), np.arange(50) % 2
    theirs = SkForest(n_estimators=4, random_state=12345).fit(X, y)
    for tree, rows in zip(theirs.estimators_, theirs.estimators_samples_, strict=True):
        np.testing.assert_array_equal(bootstrap_indices(tree.random_state, 50), rows)


def _papers_half(trees, X):
    """Source 000's code for "half" (``AveragedRandomForestClassifier``, mode "half"),
    transcribed: ``n_half = int(n / 2)`` trees under ``<``, the rest under ``<=``, and the
    mean of the two halves' means."""
    n_half = int(len(trees) / 2)
    first = np.mean([t.predict(X, "<") for t in trees[:n_half]], axis=0)
    second = np.mean([t.predict(X, "<=") for t in trees[n_half:]], axis=0)
    return np.mean([first, second], axis=0)


@pytest.mark.parametrize("n_estimators", [2, 7, 8, 25])
def test_half_averages_the_two_half_forests_as_the_paper(lattice_classification, n_estimators):
    X, y = lattice_classification
    rows = np.vstack([X, X + 0.5])  # rows on the thresholds, where the tests differ
    forest = RandomForestClassifier(
        n_estimators=n_estimators, conditioning="half", random_state=0
    ).fit(X, y)
    n_less = n_estimators // 2
    assert tree_operators(n_estimators, "half") == ["<"] * n_less + ["<="] * (n_estimators - n_less)
    trees = [t.tree_ for t in forest.estimators_]
    np.testing.assert_allclose(forest.predict_proba(rows), _papers_half(trees, rows), atol=1e-15)
    all_equal = np.mean(
        [
            t.predict(rows, op)
            for t, op in zip(trees, tree_operators(n_estimators, "half"), strict=True)
        ],
        axis=0,
    )
    if n_estimators % 2:  # an odd count weighs the smaller half's trees more, as the paper does
        assert np.abs(forest.predict_proba(rows) - all_equal).max() > 1e-3
    else:
        np.testing.assert_allclose(forest.predict_proba(rows), all_equal, atol=1e-15)


def test_a_one_tree_forest_under_half_is_its_tree_under_the_default_test(lattice_classification):
    X, y = lattice_classification
    forest = RandomForestClassifier(n_estimators=1, conditioning="half", random_state=0).fit(X, y)
    np.testing.assert_allclose(forest.predict_proba(X), forest.estimators_[0].tree_.predict(X))


def test_average_is_the_mean_of_both_tests(lattice_classification):
    X, y = lattice_classification
    forest = RandomForestClassifier(n_estimators=6, conditioning="average", random_state=0).fit(
        X, y
    )
    both = [0.5 * (t.tree_.predict(X, "<=") + t.tree_.predict(X, "<")) for t in forest.estimators_]
    np.testing.assert_allclose(forest.predict_proba(X), np.mean(both, axis=0))
    np.testing.assert_allclose(
        forest.predict_proba(X),
        0.5
        * (forest.predict_proba(X, conditioning="<=") + forest.predict_proba(X, conditioning="<")),
    )


def test_conditioning_only_changes_prediction(lattice_classification):
    X, y = lattice_classification
    fits = {
        op: RandomForestClassifier(n_estimators=5, conditioning=op, random_state=3).fit(X, y)
        for op in ("<=", "<", "half")
    }
    trees = [[t.tree_ for t in f.estimators_] for f in fits.values()]
    assert trees[0] == trees[1] == trees[2]
    lattice_rows = np.vstack([X, X + 0.5])
    differs = np.any(
        fits["<="].predict_proba(lattice_rows) != fits["<"].predict_proba(lattice_rows)
    )
    assert differs  # thresholds at .5 midpoints hit the shifted lattice


def test_regression_half_and_oob():
    X, y = load_diabetes(return_X_y=True)
    forest = RandomForestRegressor(
        n_estimators=20, conditioning="half", oob_score=True, random_state=0
    ).fit(X, y)
    assert 0.2 < forest.oob_score_ < 0.7
    assert forest.oob_prediction_.shape == (442,)
    by_hand = np.mean(
        [t.tree_.predict(X, "<" if i < 10 else "<=") for i, t in enumerate(forest.estimators_)],
        axis=0,
    )
    np.testing.assert_allclose(forest.predict(X), by_hand)
    odd = RandomForestRegressor(n_estimators=5, conditioning="half", random_state=0).fit(X, y)
    trees = [t.tree_ for t in odd.estimators_]
    np.testing.assert_allclose(odd.predict(X), _papers_half(trees, X).reshape(-1), rtol=1e-12)


def test_oob_score_is_sensible_and_reproducible():
    X, y = load_iris(return_X_y=True)
    a = RandomForestClassifier(n_estimators=30, oob_score=True, random_state=1).fit(X, y)
    b = RandomForestClassifier(n_estimators=30, oob_score=True, random_state=1, n_jobs=2).fit(X, y)
    assert 0.85 < a.oob_score_ <= 1.0
    assert a.oob_score_ == b.oob_score_
    np.testing.assert_array_equal(a.predict_proba(X), b.predict_proba(X))


def test_a_tree_missing_a_class_is_aligned():
    X = np.arange(20.0)[:, None]
    y = np.array([0] * 18 + [1, 2])
    forest = RandomForestClassifier(n_estimators=10, random_state=0).fit(X, y)
    proba = forest.predict_proba(X)
    assert proba.shape == (20, 3)
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)


@pytest.mark.parametrize(
    "params, message",
    [
        ({"n_estimators": 0}, "n_estimators"),
        ({"conditioning": "both"}, "conditioning"),
        ({"oob_score": True, "bootstrap": False}, "bootstrap"),
    ],
)
def test_bad_parameters(lattice_classification, params, message):
    X, y = lattice_classification
    with pytest.raises(ValueError, match=message):
        RandomForestClassifier(**params).fit(X, y)


def test_the_compiled_draws_are_numpys_randomstate_draws_to_the_bit():
    """The forests' seeds and bootstrap samples come from a compiled Mersenne Twister
    (``trees.tree._kernels_draws``): the same numbers as a fresh ``RandomState(seed)``."""
    from trees.tree._kernels_draws import (
        MAX_SEED,
        bootstrap_counts,
        bootstrap_rows,
        generator_seeds,
    )

    rng = np.random.default_rng(0)
    for n_samples in (1, 2, 3, 7, 100, 1000, 65_539):
        for seed in [0, 1, MAX_SEED - 1, 2**32 - 1, *rng.integers(0, 2**32, 5).tolist()]:
            n_draws = int(rng.integers(1, 2_000))
            expected = np.random.RandomState(seed).randint(0, n_samples, n_draws, dtype=np.int32)
            np.testing.assert_array_equal(bootstrap_rows(seed, n_samples, n_draws), expected)
            counts = np.bincount(expected, minlength=n_samples).astype(float)
            np.testing.assert_array_equal(bootstrap_counts(seed, n_samples, n_draws), counts)
    seeds = rng.integers(0, MAX_SEED, 300)
    expected = [np.random.RandomState(s).randint(MAX_SEED) for s in seeds]
    np.testing.assert_array_equal(generator_seeds(seeds), expected)
    with pytest.raises(ValueError, match="2\\*\\*32"):
        bootstrap_rows(-1, 10, 10)


def test_the_compiled_weighted_draws_are_numpys_randomstate_choice_to_the_bit():
    """A weighted forest's samples: ``RandomState(seed).choice(n, n_draws, p=w / sum(w))``,
    drawn in compiled code (one uniform double a draw, searched in the cumulative shares),
    rows and counts, with zero weights and a row that holds almost every weight."""
    from trees.tree._kernels_draws import (
        add_weighted_draw_counts,
        draw_cdf,
        weighted_bootstrap_rows,
    )

    rng = np.random.default_rng(1)
    for n_samples in (1, 2, 5, 300, 4_099):
        for case in range(4):
            weights = rng.uniform(0.01, 5.0, n_samples)
            if case == 1:
                weights[rng.random(n_samples) < 0.4] = 0.0
                weights[-1] = 2.0
            if case == 2:
                weights[0] = 1e9
            seed, n_draws = int(rng.integers(0, 2**32)), int(rng.integers(1, 3_000))
            p = weights / np.sum(weights)
            expected = np.random.RandomState(seed).choice(n_samples, n_draws, p=p)
            cdf = draw_cdf(weights)
            np.testing.assert_array_equal(weighted_bootstrap_rows(seed, cdf, n_draws), expected)
            counts = np.zeros(n_samples)
            add_weighted_draw_counts(seed, cdf, n_draws, counts)
            np.testing.assert_array_equal(counts, np.bincount(expected, minlength=n_samples))
