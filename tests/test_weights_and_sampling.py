"""Issue 29, item 8: class weights, min_weight_fraction_leaf, max_samples and warm_start, against
scikit-learn's own estimators where both grow the same trees (float32-exact data whose best
splits are unique, as the equivalence tests), and their bad values refused with their rule."""

import numpy as np
import pytest
from sklearn import ensemble as skensemble
from sklearn import tree as sktree
from sklearn.datasets import make_classification
from sklearn.utils.class_weight import compute_sample_weight

from tests.helpers import as_float32_exact, load_common_dataset
from trees import (
    DecisionTreeClassifier,
    DecisionTreeRegressor,
    RandomForestClassifier,
    RandomForestRegressor,
)
from trees.ensemble._bootstrap import (
    bootstrap_indices,
    bootstrap_size,
    subsample_weights,
    tree_weights,
)
from trees.tree._kernels_draws import generator_seeds
from trees.tree._splitter import sort_features


@pytest.fixture(scope="module")
def bupa():
    X, y = load_common_dataset("binary_classification", "load_bupa")
    return as_float32_exact(X), y


@pytest.mark.parametrize("class_weight", ["balanced", {0: 1.0, 1: 3.0}, {1: 0.5}])
def test_a_trees_class_weights_are_scikit_learns(bupa, class_weight):
    X, y = bupa
    classes = np.unique(y)
    if isinstance(class_weight, dict):  # the dataset's own labels
        class_weight = {classes[k]: w for k, w in class_weight.items()}
    ours = DecisionTreeClassifier(max_depth=3, class_weight=class_weight).fit(X, y)
    theirs = sktree.DecisionTreeClassifier(max_depth=3, class_weight=class_weight, random_state=0)
    theirs.fit(X, y)
    assert ours.tree_.node_count == theirs.tree_.node_count
    np.testing.assert_allclose(ours.predict_proba(X), theirs.predict_proba(X), atol=1e-12)


def test_class_weights_multiply_the_sample_weights(bupa):
    X, y = bupa
    weights = np.random.default_rng(0).uniform(0.5, 2, len(y))
    classes = np.unique(y)
    balanced = len(y) / (2 * np.bincount(np.searchsorted(classes, y)))
    by_row = balanced[np.searchsorted(classes, y)]
    ours = DecisionTreeClassifier(max_depth=4, class_weight="balanced").fit(X, y, weights)
    same = DecisionTreeClassifier(max_depth=4).fit(X, y, weights * by_row)
    assert ours.tree_ == same.tree_


@pytest.mark.parametrize("fraction", [0.02, 0.1, 0.3])
def test_min_weight_fraction_leaf_is_scikit_learns(bupa, fraction):
    X, y = bupa
    weights = np.random.default_rng(1).uniform(0.5, 2, len(y))
    ours = DecisionTreeClassifier(max_depth=4, min_weight_fraction_leaf=fraction)
    theirs = sktree.DecisionTreeClassifier(
        max_depth=4, min_weight_fraction_leaf=fraction, random_state=0
    )
    ours.fit(X, y, sample_weight=weights)
    theirs.fit(X, y, sample_weight=weights)
    assert ours.tree_.node_count == theirs.tree_.node_count
    np.testing.assert_allclose(ours.predict_proba(X), theirs.predict_proba(X), atol=1e-12)
    leaves = ours.tree_.feature < 0
    assert ours.tree_.weighted_n_samples[leaves].min() >= fraction * weights.sum() - 1e-9


FOREST_SETTINGS = [
    {},
    {"class_weight": "balanced"},
    {"class_weight": {0: 1.0, 1: 2.5}},
    {"class_weight": "balanced_subsample"},
    {"max_samples": 0.5},
    {"max_samples": 400},
    {"min_weight_fraction_leaf": 0.05},
    {"class_weight": "balanced_subsample", "max_samples": 0.7},
]


def _settings_id(params):
    return ",".join(f"{k}={v}" for k, v in params.items()) or "defaults"


@pytest.mark.parametrize("weighted", [False, True], ids=["unweighted", "weighted"])
@pytest.mark.parametrize("params", FOREST_SETTINGS, ids=_settings_id)
def test_each_tree_sees_the_rows_and_weights_of_scikit_learns_tree(params, weighted):
    """scikit-learn 1.9's rule: weights draw the bootstrap rows, each tree weighs a row by its
    draws (times its class weight within the tree's sample with "balanced_subsample")."""
    X, y = make_classification(n_samples=200, n_features=4, weights=[0.7], random_state=0)
    weights = np.random.default_rng(0).uniform(0.5, 2, len(y)) if weighted else None
    common = {"n_estimators": 6, "max_depth": 3, "random_state": 7, **params}
    ours = RandomForestClassifier(**common).fit(X, y, sample_weight=weights)
    theirs = skensemble.RandomForestClassifier(**common).fit(X, y, sample_weight=weights)
    for seed, tree, rows in zip(ours._seeds, ours.estimators_, theirs.estimators_samples_,
                                strict=True):  # fmt: skip
        drawn = bootstrap_indices(seed, len(y), *ours._draws)
        np.testing.assert_array_equal(drawn, rows)
        expected = np.bincount(rows, minlength=len(y)).astype(float)
        if params.get("class_weight") == "balanced_subsample":
            expected *= compute_sample_weight("balanced", y, indices=rows)
        alone = DecisionTreeClassifier(max_depth=3, max_features="sqrt")
        alone._grow_and_keep(
            alone._forest_growth(X, y, expected, sort_features(X), tree.tree_params_, None,
                                 int(generator_seeds([seed])[0]))
        )  # fmt: skip
        assert tree.tree_ == alone.tree_


@pytest.mark.parametrize("params", [{}, {"min_weight_fraction_leaf": 0.05}, {"max_samples": 345}],
                         ids=_settings_id)  # fmt: skip
def test_a_forest_equals_scikit_learns_forest(bupa, params):
    """Where both libraries grow the same trees (no tied splits): the same forest."""
    X, y = bupa
    common = {"n_estimators": 8, "max_features": None, "max_depth": 3, "random_state": 7}
    ours = RandomForestClassifier(**common, **params).fit(X, y)
    theirs = skensemble.RandomForestClassifier(**common, **params).fit(X, y)
    np.testing.assert_allclose(ours.predict_proba(X), theirs.predict_proba(X), atol=1e-12)


def test_the_out_of_bag_rows_follow_the_weighted_draws():
    X, y = make_classification(n_samples=300, random_state=1)
    weights = np.random.default_rng(2).uniform(0.1, 3, 300)
    common = {"n_estimators": 40, "random_state": 3, "oob_score": True, "max_samples": 0.8}
    ours = RandomForestClassifier(**common).fit(X, y, sample_weight=weights)
    with pytest.warns(UserWarning, match="do not have OOB scores"):
        theirs = skensemble.RandomForestClassifier(**common).fit(X, y, sample_weight=weights)
    unseen = np.isnan(ours.oob_decision_function_[:, 0])  # scikit-learn writes 0 there
    np.testing.assert_array_equal(unseen, theirs.oob_decision_function_.sum(axis=1) == 0)
    assert abs(ours.oob_score_ - theirs.oob_score_) < 0.05  # the same rows, other tie-breaks


def test_max_samples_sizes_every_bootstrap_sample():
    assert [bootstrap_size(200, m) for m in (None, 50, 500, 0.25, 1e-9)] == [200, 50, 500, 50, 1]
    assert bootstrap_size(200, 0.25, np.full(200, 2.0)) == 100  # a share of the total weight
    X, y = make_classification(n_samples=200, random_state=0)
    forest = RandomForestRegressor(n_estimators=4, max_samples=30, random_state=0).fit(X, y)
    for seed, tree in zip(forest._seeds, forest.estimators_, strict=True):
        drawn = bootstrap_indices(seed, 200, 30)
        assert tree.tree_.weighted_n_samples[0] == pytest.approx(30)
        assert tree.tree_.n_samples[0] == np.unique(drawn).size


@pytest.mark.parametrize("forest", [RandomForestClassifier, RandomForestRegressor])
def test_warm_start_grows_the_trees_a_one_shot_fit_grows(forest):
    X, y = make_classification(n_samples=150, random_state=2)
    model = forest(n_estimators=3, warm_start=True, random_state=4, oob_score=True).fit(X, y)
    first = list(model.estimators_)
    model.set_params(n_estimators=6).fit(X, y)
    assert model.estimators_[:3] == first  # the trees kept are the same objects
    once = forest(n_estimators=6, random_state=4, oob_score=True).fit(X, y)
    for kept, fresh in zip(model.estimators_, once.estimators_, strict=True):
        assert kept.tree_ == fresh.tree_
    np.testing.assert_allclose(model.predict(X), once.predict(X))
    assert model.oob_score_ == pytest.approx(once.oob_score_)
    with pytest.warns(UserWarning, match="no tree was added"):
        model.fit(X, y)
    with pytest.raises(ValueError, match="can only grow"):
        model.set_params(n_estimators=2).fit(X, y)
    cold = forest(n_estimators=3, random_state=4).fit(X, y)
    cold.set_params(n_estimators=4).fit(X, y)
    assert len(cold.estimators_) == 4 and cold.estimators_[0].tree_ == once.estimators_[0].tree_


@pytest.mark.parametrize(
    ("estimator", "message"),
    [
        (DecisionTreeClassifier(class_weight="balanced_subsample"), "class_weight must be None"),
        (DecisionTreeClassifier(class_weight="bogus"), "class_weight must be None"),
        (RandomForestClassifier(class_weight=3), "class_weight must be None"),
        (DecisionTreeRegressor(min_weight_fraction_leaf=0.6), r"in the range \[0.0, 0.5\]"),
        (RandomForestClassifier(max_samples=0), "max_samples must be an int >= 1"),
        (RandomForestClassifier(max_samples=-0.5), "max_samples must be None"),
        (RandomForestClassifier(max_samples=0.5, bootstrap=False), "needs bootstrap=True"),
    ],
)
def test_bad_weights_and_sampling_are_refused_with_their_rule(estimator, message):
    X, y = make_classification(n_samples=60, random_state=0)
    with pytest.raises(ValueError, match=message):
        estimator.fit(X, y)


# ------------------------------------------------------------- item 9: the forest's API
def test_a_forest_applies_and_walks_as_scikit_learns(bupa):
    X, y = bupa
    common = {"n_estimators": 8, "max_features": None, "max_depth": 3, "random_state": 7}
    ours = RandomForestClassifier(**common).fit(X, y)
    theirs = skensemble.RandomForestClassifier(**common).fit(X, y)
    leaves = ours.apply(X)
    assert leaves.shape == theirs.apply(X).shape == (len(y), 8)
    for k, tree in enumerate(ours.estimators_):  # estimators_ indexes as scikit-learn's
        np.testing.assert_array_equal(leaves[:, k], tree.apply(X))
    indicator, ptr = ours.decision_path(X)
    their_indicator, their_ptr = theirs.decision_path(X)
    np.testing.assert_array_equal(ptr, their_ptr)  # the same trees, the same node counts
    np.testing.assert_array_equal(indicator.sum(axis=1), their_indicator.sum(axis=1))
    for k in range(8):  # tree k's columns: the nodes of its path, its leaf among them
        block = indicator[:, ptr[k] : ptr[k + 1]].toarray()
        assert block[np.arange(len(y)), leaves[:, k]].all()
    with np.errstate(divide="ignore"):
        np.testing.assert_allclose(ours.predict_log_proba(X), np.log(theirs.predict_proba(X)))
    assert len(ours.estimators_) == 8 and ours.estimators_[-1] is ours.estimators_[7]


def test_half_routes_each_tree_under_its_own_test_and_average_is_refused():
    X = np.arange(20, dtype=float).reshape(-1, 1)
    y = (X[:, 0] > 9).astype(int)
    forest = RandomForestClassifier(n_estimators=4, conditioning="half", random_state=0).fit(X, y)
    on_thresholds = np.array([[t] for t in forest.estimators_[0].tree_.threshold[:1]])
    leaves = forest.apply(on_thresholds)
    assert leaves[0, 0] == forest.estimators_[0].apply(on_thresholds, conditioning="<")[0]
    assert leaves[0, 3] == forest.estimators_[3].apply(on_thresholds, conditioning="<=")[0]
    with pytest.raises(ValueError, match="may reach two leaves"):
        forest.apply(X, conditioning="average")


def test_log_loss_is_scikit_learns_name_for_entropy(bupa):
    X, y = bupa
    entropy = DecisionTreeClassifier(criterion="entropy", max_depth=4).fit(X, y)
    log_loss = DecisionTreeClassifier(criterion="log_loss", max_depth=4).fit(X, y)
    assert entropy.tree_ == log_loss.tree_
    forest = RandomForestClassifier(criterion="log_loss", n_estimators=3, random_state=0)
    assert forest.fit(X, y).estimators_[0].criterion == "log_loss"


def test_min_weight_fraction_leaf_holds_for_categorical_splits_too():
    rng = np.random.default_rng(3)
    X = np.column_stack([rng.integers(0, 6, 300), rng.normal(size=300)]).astype(float)
    y = (X[:, 0] > 2).astype(int)
    weights = np.where(X[:, 0] == 5, 0.01, 1.0)  # category 5 weighs almost nothing
    model = DecisionTreeClassifier(categorical_features=[0], min_weight_fraction_leaf=0.2)
    model.fit(X, y, sample_weight=weights)
    leaves = model.tree_.feature < 0
    assert model.tree_.weighted_n_samples[leaves].min() >= 0.2 * weights.sum() - 1e-9


def test_the_grower_measures_the_weight_fraction_against_the_weights_and_refuses_pruning():
    from trees import TreeGrower

    X, y = make_classification(n_samples=100, random_state=0)
    grower = TreeGrower(X, y, min_weight_fraction_leaf=0.1, sample_weight=np.full(100, 3.0))
    assert grower.rules.min_weight_leaf == pytest.approx(30.0)
    with pytest.raises(ValueError, match="ccp_alpha prunes a grown tree"):
        TreeGrower(X, y, ccp_alpha=0.01)


def test_warm_start_refuses_other_data_and_scores_out_of_bag_when_asked_later():
    X, y = make_classification(n_samples=150, random_state=2)
    model = RandomForestClassifier(n_estimators=3, warm_start=True, random_state=4).fit(X, y)
    with pytest.raises(ValueError, match="same data"):
        model.set_params(n_estimators=5).fit(X[:100], y[:100])
    model.set_params(n_estimators=3, oob_score=True)
    with pytest.warns(UserWarning, match="no tree was added"):
        model.fit(X, y)
    assert 0 <= model.oob_score_ <= 1


def test_a_samples_class_factors_are_scikit_learns_to_the_bit():
    """Under "balanced_subsample" each class weighs n / (k n_c) in a tree's own sample, 0 when the
    sample missed it; the same numbers as ``compute_sample_weight(..., indices=drawn)``."""
    rng = np.random.default_rng(0)
    for _ in range(400):
        n_rows, n_classes = int(rng.integers(1, 300)), int(rng.integers(1, 6))
        y = np.unique(rng.integers(0, n_classes, n_rows), return_inverse=True)[1]
        n_draws = int(rng.integers(1, 2 * n_rows + 1))
        seed = int(rng.integers(0, 2**31 - 1))
        counts = tree_weights(seed, n_rows, n_draws, None)
        drawn = np.repeat(np.arange(n_rows), counts.astype(np.intp))
        expected = counts * compute_sample_weight("balanced", y, indices=drawn)
        weights, factors = subsample_weights(seed, n_rows, n_draws, None, y)
        np.testing.assert_array_equal(weights, expected)
        assert factors.shape == (y.max() + 1,)
        assert np.all((factors == 0) == (np.bincount(y, weights=counts) == 0))
