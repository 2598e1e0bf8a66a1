"""A forest's trees grown in batches (issue 30, item 1): the per-tree path's trees to the bit.

The per-tree path is the tests' reference (``tests/forest_reference.py``).
"""

import numpy as np
import pandas as pd
import pytest
from sklearn.base import clone
from sklearn.datasets import make_classification, make_regression

from tests.forest_reference import fit_per_tree
from trees import (
    ExtraTreesClassifier,
    ExtraTreesRegressor,
    RandomForestClassifier,
    RandomForestRegressor,
)
from trees.ensemble import _batches
from trees.ensemble._batches import estimator_like
from trees.ensemble._bootstrap import forest_tree_weights
from trees.tree._builder import kernel_inputs
from trees.tree._kernels_draws import generator_seeds
from trees.tree._splitter import sort_features

TREE_ARRAYS = ("feature", "threshold", "left", "right", "value", "impurity",
               "weighted_n_samples", "n_samples", "depth", "missing_go_to_left")  # fmt: skip
TREE_ATTRIBUTES = ("classes_", "n_classes_", "max_features_", "n_features_in_", "n_outputs_",
                   "_n_rows_given", "_total_weight", "random_state")  # fmt: skip


@pytest.fixture(scope="module")
def three_classes():
    X, y = make_classification(
        n_samples=240, n_features=6, n_informative=4, n_classes=3, random_state=0
    )
    X[::17, 2] = np.nan  # missing values are routed the same way on both paths
    return X, y


def _fit(forest, X, y, batched, monkeypatch, **fit_kwargs):
    """``forest`` fitted in batches, or tree by tree (the reference, ``forest_reference``)."""
    if batched:
        return forest.fit(X, y, **fit_kwargs)
    return fit_per_tree(forest, X, y, monkeypatch, **fit_kwargs)


def _fit_in_batches(forest, X, y, monkeypatch, **fit_kwargs):
    """``forest`` fitted, having grown its trees in the batches' kernel (checked)."""
    calls = []
    original = _batches.forest_kernel  # the batches' kernel of the forest's plan
    with monkeypatch.context() as patch:
        patch.setattr(_batches, "forest_kernel", lambda plan: calls.append(1) or original(plan))
        fitted = forest.fit(X, y, **fit_kwargs)
    assert calls, "the forest took the per-tree path"
    return fitted


def _assert_same_tree_arrays(batched, per_tree, X):
    for a, b in zip(batched.estimators_, per_tree.estimators_, strict=True):
        for name in TREE_ARRAYS:
            np.testing.assert_array_equal(getattr(a.tree_, name), getattr(b.tree_, name))
        assert a._total_weight == b._total_weight
        assert a.tree_.categories == b.tree_.categories
    np.testing.assert_array_equal(batched.predict(X), per_tree.predict(X))


def _assert_same_trees(batched, per_tree, X):
    assert len(batched.estimators_) == len(per_tree.estimators_)
    for a, b in zip(batched.estimators_, per_tree.estimators_, strict=True):
        for name in TREE_ARRAYS:
            np.testing.assert_array_equal(getattr(a.tree_, name), getattr(b.tree_, name))
        for name in TREE_ATTRIBUTES:
            np.testing.assert_array_equal(getattr(a, name), getattr(b, name))
        assert a.tree_.class_names == b.tree_.class_names
        assert a.tree_.feature_names == b.tree_.feature_names
    np.testing.assert_array_equal(batched.predict_proba(X), per_tree.predict_proba(X))
    np.testing.assert_array_equal(batched.feature_importances_, per_tree.feature_importances_)


@pytest.mark.parametrize(
    "settings",
    [
        {},
        {"criterion": "entropy", "max_depth": 4},
        {"max_features": None, "min_samples_leaf": 3},
        {"max_leaf_nodes": 9},  # best-first growth
        {"max_samples": 60, "tie_break": "random"},
        {"ccp_alpha": 0.02},
        {"threshold_dtype": "float32"},
        {"n_jobs": 2, "conditioning": "half"},
        {"oob_score": True},
    ],
)
def test_batches_grow_the_per_tree_paths_trees(three_classes, settings, monkeypatch):
    X, y = three_classes
    batched, per_tree = (
        _fit(RandomForestClassifier(n_estimators=12, random_state=3, **settings), X, y, batched,
             monkeypatch)
        for batched in (True, False)
    )  # fmt: skip
    _assert_same_trees(batched, per_tree, X)
    if settings.get("oob_score"):
        assert batched.oob_score_ == per_tree.oob_score_


def test_batches_keep_feature_names_and_a_sample_that_misses_a_class(monkeypatch):
    """A bootstrap sample of 8 rows misses a class: the tree knows only its own classes."""
    X, y = make_classification(n_samples=40, n_features=4, n_classes=3, n_informative=3, n_redundant=0,
                               random_state=1)  # fmt: skip
    frame = pd.DataFrame(X, columns=["a", "b", "c", "d"])
    batched, per_tree = (
        _fit(RandomForestClassifier(n_estimators=10, max_samples=8, random_state=0), frame, y,
             batched, monkeypatch)
        for batched in (True, False)
    )  # fmt: skip
    assert any(len(tree.classes_) < 3 for tree in batched.estimators_)
    _assert_same_trees(batched, per_tree, frame)


def test_warm_start_adds_batched_trees_to_the_kept_ones(three_classes, monkeypatch):
    X, y = three_classes
    grown = RandomForestClassifier(n_estimators=5, warm_start=True, random_state=0).fit(X, y)
    grown.set_params(n_estimators=9).fit(X, y)
    one_shot = _fit(RandomForestClassifier(n_estimators=9, random_state=0), X, y, False,
                    monkeypatch)  # fmt: skip
    _assert_same_trees(grown, one_shot, X)


@pytest.mark.parametrize(
    "forest, fit_kwargs",
    [
        (RandomForestClassifier(), {}),
        (RandomForestClassifier(class_weight="balanced"), {}),
        (RandomForestClassifier(), {"sample_weight": np.full(240, 2.0)}),
        (RandomForestClassifier(bootstrap=False), {"sample_weight": np.full(240, 2.0)}),
        (RandomForestClassifier(class_weight="balanced_subsample"), {}),
        (RandomForestClassifier(bootstrap=False), {}),
        (ExtraTreesClassifier(), {}),
        (RandomForestClassifier(categorical_features=[0]), {}),
        (ExtraTreesClassifier(class_weight="balanced"), {}),
        (RandomForestRegressor(), {}),
        (RandomForestRegressor(criterion="poisson"), {}),
        (RandomForestRegressor(criterion="absolute_error"), {}),
        (RandomForestRegressor(variance_sums="raw"), {}),
    ],
)
def test_every_forest_grows_in_batches(three_classes, forest, fit_kwargs, monkeypatch):
    """Every forest grows in batches (the per-tree path is the tests' reference)."""
    X, y = three_classes
    X = np.nan_to_num(X)
    X[:, 0] = np.round(np.abs(X[:, 0]))  # category codes for the categorical case
    if isinstance(forest, RandomForestRegressor):
        y = X[:, 1] ** 2 + 1.0  # positive targets (Poisson's)
    calls = []
    original = _batches.forest_kernel
    monkeypatch.setattr(_batches, "forest_kernel", lambda plan: calls.append(1) or original(plan))
    forest.set_params(n_estimators=3, random_state=0).fit(X, y, **fit_kwargs)
    assert calls


@pytest.mark.parametrize(
    "settings",
    [
        {},
        {"criterion": "friedman_mse", "max_depth": 4},
        {"max_features": 0.5, "min_samples_leaf": 3},
        {"max_leaf_nodes": 9},
        {"n_jobs": 2, "conditioning": "half", "oob_score": True},
    ],
)
def test_regression_batches_grow_the_per_tree_paths_trees(settings, monkeypatch):
    """Offsets and roots from numpy's sums, values the means of each node's own rows."""
    X, y = make_regression(n_samples=200, n_features=5, noise=4.0, random_state=2)
    y = np.round(y, 1)  # repeated targets: pure nodes and constant-target leaves
    X[::13, 1] = np.nan
    batched, per_tree = (
        _fit(RandomForestRegressor(n_estimators=10, random_state=4, **settings), X, y, batched,
             monkeypatch)
        for batched in (True, False)
    )  # fmt: skip
    for a, b in zip(batched.estimators_, per_tree.estimators_, strict=True):
        for name in TREE_ARRAYS:
            np.testing.assert_array_equal(getattr(a.tree_, name), getattr(b.tree_, name))
    np.testing.assert_array_equal(batched.predict(X), per_tree.predict(X))
    np.testing.assert_array_equal(batched.feature_importances_, per_tree.feature_importances_)


@pytest.mark.parametrize(
    "forest",
    [
        ExtraTreesClassifier(n_estimators=10, random_state=5),
        ExtraTreesClassifier(n_estimators=10, bootstrap=True, max_depth=5, random_state=5),
        ExtraTreesRegressor(n_estimators=10, random_state=5),
        ExtraTreesRegressor(n_estimators=10, bootstrap=True, max_features=2, random_state=5),
        RandomForestClassifier(n_estimators=10, bootstrap=False, max_features=2, random_state=5),
    ],
)
def test_random_splits_and_whole_samples_in_batches(three_classes, forest, monkeypatch):
    """Extra trees (one row order, thresholds drawn) and trees on every row, each weighing 1."""
    X, y = three_classes
    if isinstance(forest, ExtraTreesRegressor):
        y = X[:, 0] * 2.0 + np.nan_to_num(X[:, 2])
    batched = _fit_in_batches(forest, X, y, monkeypatch)
    per_tree = _fit(clone(forest), X, y, False, monkeypatch)
    _assert_same_tree_arrays(batched, per_tree, X)


@pytest.mark.parametrize(
    "forest",
    [
        RandomForestClassifier(n_estimators=8, categorical_features=[0, 3], random_state=6),
        RandomForestClassifier(
            n_estimators=8, categorical_features=[0], categorical_split="equality",
            max_features=None, random_state=6,
        ),
        ExtraTreesClassifier(n_estimators=8, categorical_features=[0, 3], random_state=6),
        RandomForestRegressor(n_estimators=8, categorical_features=[0], max_depth=6,
                              random_state=6),
    ],
)  # fmt: skip
def test_categorical_features_in_batches(three_classes, forest, monkeypatch):
    """Membership (or equality) splits on category codes: the same trees, their categories
    included, as the per-tree path's."""
    X, y = three_classes
    X = X.copy()
    X[:, 0] = np.round(np.abs(X[:, 0]) * 2)  # codes 0..7 or so
    X[:, 3] = np.where(np.isnan(X[:, 2]), 1.0, np.round(np.abs(X[:, 3])))
    if isinstance(forest, RandomForestRegressor):
        y = X[:, 0] + np.nan_to_num(X[:, 1])
    batched = _fit_in_batches(forest, X, y, monkeypatch)
    per_tree = _fit(clone(forest), X, y, False, monkeypatch)
    assert any(a.tree_.is_membership.any() for a in batched.estimators_)
    _assert_same_tree_arrays(batched, per_tree, X)


@pytest.mark.parametrize(
    "forest, weighted",
    [
        (RandomForestClassifier(n_estimators=9, random_state=7), "sample"),
        (RandomForestClassifier(n_estimators=9, class_weight="balanced", random_state=7), None),
        (RandomForestClassifier(n_estimators=9, class_weight={0: 1.0, 1: 3.5, 2: 0.5},
                                max_samples=0.5, n_jobs=2, random_state=7), "sample"),
        (ExtraTreesClassifier(n_estimators=9, bootstrap=True, class_weight="balanced",
                              random_state=7), "sample"),
        (RandomForestRegressor(n_estimators=9, max_depth=6, random_state=7), "sample"),
        # Without bootstrap every tree weighs the rows by the weights themselves.
        (ExtraTreesClassifier(n_estimators=9, class_weight="balanced", random_state=7),
         "sample"),
        (RandomForestClassifier(n_estimators=9, bootstrap=False, max_features=3,
                                min_weight_fraction_leaf=0.02, random_state=7), "with zeros"),
        (ExtraTreesRegressor(n_estimators=9, random_state=7), "sample"),
        (RandomForestRegressor(n_estimators=9, bootstrap=False, max_features=0.5,
                               random_state=7), "with zeros"),
    ],
)  # fmt: skip
def test_weighted_rows_in_batches(three_classes, forest, weighted, monkeypatch):
    """With bootstrap the weights are the draws' probabilities (scikit-learn 1.9), drawn in
    the batch; without, the trees weigh the rows by them. The same trees as the per-tree
    path's."""
    X, y = three_classes
    if isinstance(forest, RandomForestRegressor | ExtraTreesRegressor):
        y = X[:, 0] * 2.0 + np.nan_to_num(X[:, 2])
    sample_weight = np.random.default_rng(8).uniform(0.1, 3.0, X.shape[0]) if weighted else None
    if weighted == "with zeros":  # rows a tree does not hold: its root sums the others
        sample_weight[::5] = 0.0
    batched = _fit_in_batches(forest, X, y, monkeypatch, sample_weight=sample_weight)
    per_tree = _fit(clone(forest), X, y, False, monkeypatch, sample_weight=sample_weight)
    _assert_same_tree_arrays(batched, per_tree, X)


@pytest.mark.parametrize(
    "forest",
    [
        RandomForestRegressor(n_estimators=8, criterion="poisson", random_state=9),
        RandomForestRegressor(n_estimators=8, criterion="poisson", max_depth=5,
                              min_samples_leaf=4, max_features=None, random_state=9),
        ExtraTreesRegressor(n_estimators=8, criterion="poisson", random_state=9),
    ],
)  # fmt: skip
def test_poisson_forests_in_batches(three_classes, forest, monkeypatch):
    """Poisson's statistics (w, w y, w y log y), ``y log y`` from numpy's log: the same
    trees as the per-tree path's, on counts with zeros."""
    X, _ = three_classes
    y = np.random.default_rng(10).poisson(np.exp(np.nan_to_num(X[:, 0]) / 2)).astype(float)
    batched = _fit_in_batches(forest, X, y, monkeypatch)
    per_tree = _fit(clone(forest), X, y, False, monkeypatch)
    _assert_same_tree_arrays(batched, per_tree, X)


def test_a_poisson_sample_of_zero_targets_is_refused_as_on_the_per_tree_path(monkeypatch):
    """A bootstrap sample whose targets are all 0 has no Poisson deviance: both paths say so."""
    X = np.arange(40.0).reshape(20, 2)
    y = np.zeros(20)
    y[0] = 1.0  # the forest's targets sum above 0; some trees' samples miss row 0
    messages = []
    for batched in (True, False):
        forest = RandomForestRegressor(n_estimators=30, criterion="poisson", random_state=0)
        with pytest.raises(ValueError, match="sum of y is not positive") as raised:
            _fit(forest, X, y, batched, monkeypatch)
        messages.append(str(raised.value))
    assert messages[0] == messages[1]


@pytest.mark.parametrize(
    "forest",
    [
        RandomForestRegressor(n_estimators=8, criterion="absolute_error", random_state=11),
        RandomForestRegressor(n_estimators=8, criterion="absolute_error", max_depth=4,
                              max_features=None, min_samples_leaf=3, random_state=11),
        ExtraTreesRegressor(n_estimators=8, criterion="absolute_error", random_state=11),
    ],
)  # fmt: skip
def test_absolute_error_forests_in_batches(three_classes, forest, monkeypatch):
    """Nodes valued by the weighted median of their rows, impurities their mean absolute
    error (as the growth's node view): the same trees as the per-tree path's, with missing
    values and repeated targets."""
    X, _ = three_classes
    y = np.round(np.nan_to_num(X[:, 0]) * 3 + X[:, 1], 0)
    batched = _fit_in_batches(forest, X, y, monkeypatch, sample_weight=np.linspace(1, 2, 240))
    per_tree = _fit(clone(forest), X, y, False, monkeypatch, sample_weight=np.linspace(1, 2, 240))
    _assert_same_tree_arrays(batched, per_tree, X)
    np.testing.assert_array_equal(batched.feature_importances_, per_tree.feature_importances_)


@pytest.mark.parametrize(
    "forest",
    [
        RandomForestRegressor(n_estimators=8, variance_sums="raw", random_state=12),
        RandomForestRegressor(n_estimators=8, variance_sums="raw", tie_break="random",
                              threshold_dtype="float32", max_depth=6, random_state=12),
        RandomForestRegressor(n_estimators=8, variance_sums="raw", bootstrap=False,
                              max_features=2, random_state=12),
        ExtraTreesRegressor(n_estimators=8, variance_sums="raw", random_state=12),
    ],
)  # fmt: skip
def test_raw_variance_sums_in_batches(three_classes, forest, monkeypatch):
    """scikit-learn's arithmetic (raw sums, each node's rows in scikit-learn's order, its
    pure-node rule): the same trees as the per-tree path's."""
    X, _ = three_classes
    y = np.round(np.abs(np.nan_to_num(X[:, 0])) * 3 + X[:, 1] ** 2, 1)
    batched = _fit_in_batches(forest, X, y, monkeypatch)
    per_tree = _fit(clone(forest), X, y, False, monkeypatch)
    _assert_same_tree_arrays(batched, per_tree, X)


@pytest.mark.parametrize(
    "forest",
    [
        RandomForestClassifier(n_estimators=9, class_weight="balanced_subsample",
                               min_weight_fraction_leaf=0.04, random_state=5),
        RandomForestClassifier(n_estimators=9, class_weight="balanced_subsample",
                               min_impurity_decrease=0.004, max_samples=0.6, random_state=5),
        RandomForestClassifier(n_estimators=9, class_weight="balanced_subsample",
                               max_samples=14, min_weight_fraction_leaf=0.1, random_state=5),
        ExtraTreesClassifier(n_estimators=9, class_weight="balanced_subsample", bootstrap=True,
                             min_weight_fraction_leaf=0.03, random_state=5),
    ],
)  # fmt: skip
@pytest.mark.parametrize("weighted", [False, True], ids=["unweighted", "weighted"])
def test_balanced_subsample_forests_in_batches(three_classes, forest, weighted, monkeypatch):
    """Each tree balances the classes of its own sample: its rows' weights, its root and its
    total (the draws, to a rounding that differs from tree to tree) are its own, and so are its
    least weight of a leaf and its improvements' scale. The same trees as the per-tree path's,
    totals included, with and without weights (a sample of 14 rows may miss a class)."""
    X, y = three_classes
    y = np.where(y == 2, np.where(np.arange(y.shape[0]) % 3 == 0, 2, 0), y)  # a rare class
    sample_weight = np.random.default_rng(4).uniform(0.2, 2.0, X.shape[0]) if weighted else None
    batched = _fit_in_batches(forest, X, y, monkeypatch, sample_weight=sample_weight)
    per_tree = _fit(clone(forest), X, y, False, monkeypatch, sample_weight=sample_weight)
    _assert_same_trees(batched, per_tree, X)


def test_each_balanced_subsample_tree_gets_the_rules_its_own_growth_has(three_classes):
    """The rules a batch gives each "balanced_subsample" tree are those its own growth makes
    (``_builder.kernel_inputs``), to the bit, and they are not one tree's for all: the totals
    differ from tree to tree in their last bits, where a leaf's least weight is decided."""
    X, y = three_classes
    X = np.nan_to_num(X)
    forest = RandomForestClassifier(n_estimators=6, class_weight="balanced_subsample",
                                    min_weight_fraction_leaf=0.05, random_state=1)  # fmt: skip
    forest.fit(X, y)
    params = forest._tree_params()
    template = params.estimator(forest._tree_class)
    n_draws, sorted_rows = X.shape[0], sort_features(X)
    seeds = forest._seeds
    growths = [
        estimator_like(template)._forest_growth(
            X, y, forest_tree_weights(seed, X.shape[0], n_draws, None, y), sorted_rows, params,
            None, int(generator_seed),
        )
        for seed, generator_seed in zip(seeds, generator_seeds(seeds), strict=True)
    ]  # fmt: skip
    expected = np.array([kernel_inputs(growth, "best_first")[1] for growth in growths])
    shared = (expected[0], 0.0, np.zeros(0), forest.n_classes_)
    _, _, rules, totals = _batches._class_inputs(
        growths[0].criterion, params, y, seeds, (n_draws, None, y), shared
    )
    np.testing.assert_array_equal(rules, expected)
    np.testing.assert_array_equal(totals, [tree._total_weight for tree in forest.estimators_])
    assert len({row.tobytes() for row in rules}) > 1


@pytest.mark.slow  # each worker process loads the compiled kernels (seconds; minutes when cold)
@pytest.mark.parametrize(
    "shape", ["batches", "sparse rows, tree by tree", "several outputs, tree by tree"]
)
def test_a_process_backend_chosen_around_the_fit_grows_the_same_forest(three_classes, shape):
    """joblib.parallel_backend("loky") around a fit sends the batches to worker processes, as
    scikit-learn's forests do (its test_backend_respected). The entry kernels travel by their
    plan (``_kernels_entries._Recorded.__reduce__``): copied by value, numba could not type
    their ``only_when`` helpers there, and the fit failed with a TypingError."""
    import joblib
    from scipy import sparse

    X, y = three_classes
    X = np.nan_to_num(X)
    if shape == "sparse rows, tree by tree":
        X = sparse.csr_matrix(np.where(np.abs(X) < 0.5, 0.0, X))
    if shape == "several outputs, tree by tree":
        y = np.column_stack([y, y % 2])
    forest = RandomForestClassifier(n_estimators=4, n_jobs=2, random_state=0)
    plain = clone(forest).fit(X, y)
    with joblib.parallel_backend("loky"):
        chosen = clone(forest).fit(X, y)
    for ours, theirs in zip(chosen.estimators_, plain.estimators_, strict=True):
        assert ours.tree_ == theirs.tree_
