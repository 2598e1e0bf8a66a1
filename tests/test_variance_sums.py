"""A regression tree's sums: centred on the mean (this package) or raw (scikit-learn's).

With raw sums a node is pure when its variance, computed in scikit-learn's
order of operations, is at most machine epsilon; rounding leaves some nodes
whose target is constant just above it, and they are split, as scikit-learn
splits them. On source 000's excitation-current (targets around 1.3, many
repeated) this is where the two engines' trees, and their rho, differed.
"""

import numpy as np
import pytest
from sklearn.tree import DecisionTreeRegressor as SkTree

from datasets import load
from trees import DecisionTreeClassifier, DecisionTreeRegressor, RandomForestRegressor, TreeGrower
from trees.tasks import make_model, make_tree
from trees.tree._builder import GROWTH_ORDERS, grow
from trees.tree._criterion import CRITERIA_REG
from trees.tree._growth import GrowingTree
from trees.tree._params import TreeParams
from trees.tree._settings import StoppingRules, regression_offset, target_statistics

SKLEARN_LIKE = {"tie_break": "random", "threshold_dtype": "float32", "variance_sums": "raw"}


@pytest.fixture(scope="module")
def excitation():
    data = load("excitation-current")
    return data.X.to_numpy(float), data.y.to_numpy(float)


def _constant_target_splits(estimator, X, y):
    """Internal nodes of a fitted tree whose training rows all have the same target."""
    paths = estimator.decision_path(X).toarray().astype(bool)
    internal = np.flatnonzero(np.asarray(estimator.tree_.feature) >= 0)
    return sum(np.ptp(y[paths[:, node]]) == 0 for node in internal)


def test_raw_sums_split_constant_targets_as_scikit_learn_does(excitation):
    X, y = excitation
    centred = DecisionTreeRegressor(max_depth=10, random_state=0).fit(X, y)
    assert _constant_target_splits(centred, X, y) == 0
    ours = [
        DecisionTreeRegressor(max_depth=10, random_state=s, **SKLEARN_LIKE).fit(X, y)
        for s in range(8)
    ]
    theirs = [SkTree(max_depth=10, random_state=s).fit(X, y) for s in range(8)]
    ours_split = [_constant_target_splits(t, X, y) for t in ours]
    theirs_split = [_constant_target_splits(t, X, y) for t in theirs]
    assert min(ours_split) > 0 and min(theirs_split) > 0
    # As many such splits as scikit-learn makes (within a quarter), and as many nodes (2%).
    assert abs(np.mean(ours_split) / np.mean(theirs_split) - 1) < 0.25
    ours_nodes = np.mean([t.tree_.node_count for t in ours])
    theirs_nodes = np.mean([t.tree_.node_count for t in theirs])
    assert abs(ours_nodes / theirs_nodes - 1) < 0.02
    assert centred.tree_.node_count < 0.9 * theirs_nodes


def test_raw_sums_change_no_prediction_of_a_pure_tree(excitation):
    X, y = excitation
    raw = DecisionTreeRegressor(variance_sums="raw").fit(X, y)
    np.testing.assert_allclose(raw.predict(X), y, rtol=0, atol=1e-12)


def test_raw_sums_sum_the_targets_as_given():
    y = np.array([1.0, 2.0, 4.0])
    weight = np.ones(3)
    assert regression_offset(y, weight, "raw") == 0.0
    assert regression_offset(y, weight, "centred") == pytest.approx(7 / 3)
    stats, offset, _ = target_statistics(CRITERIA_REG["squared_error"](), y, weight, "raw")
    assert offset == 0.0
    np.testing.assert_array_equal(stats[1], y)


def test_python_growth_judges_purity_as_the_compiled_loop(excitation):
    """The Python loop (``splittable``) and the compiled one grow the same tree."""
    X, y = excitation
    criterion = CRITERIA_REG["squared_error"]()
    stats, offset, _ = target_statistics(criterion, y, np.ones(len(y)), "raw")
    trees = []
    for loop in ("compiled", "python"):
        params = TreeParams.checked(criterion="squared_error", variance_sums="raw")
        growth = GrowingTree(
            X, stats, params, StoppingRules(max_depth=10), value_offset=offset, targets=y
        )
        if loop == "compiled":
            grow(growth, "level_order")
        else:
            GROWTH_ORDERS["level_order"](growth)
        trees.append(growth.to_tree())
    np.testing.assert_array_equal(trees[0].feature, trees[1].feature)
    np.testing.assert_array_equal(trees[0].threshold, trees[1].threshold)
    assert trees[0].node_count > 611  # the centred tree's 611 nodes: constant nodes were split


def test_forests_pass_the_sums_to_their_trees(excitation):
    X, y = excitation
    forest = RandomForestRegressor(n_estimators=3, max_depth=11, random_state=0,
                                   variance_sums="raw").fit(X, y)  # fmt: skip
    assert {t.variance_sums for t in forest.estimators_} == {"raw"}
    centred = RandomForestRegressor(n_estimators=3, max_depth=11, random_state=0).fit(X, y)
    assert sum(t.tree_.node_count for t in forest.estimators_) > sum(
        t.tree_.node_count for t in centred.estimators_
    )


def test_an_unknown_sum_is_refused():
    with pytest.raises(ValueError, match="variance_sums must be one of"):
        DecisionTreeRegressor(variance_sums="mean").fit([[0.0], [1.0]], [0.0, 1.0])


def test_studies_leave_the_sums_out_for_classification():
    """One set of options serves every dataset of source 000's Tables."""
    X, y = np.array([[0.0], [1.0], [2.0], [3.0]]), np.array([0, 0, 1, 1])
    options = {"variance_sums": "raw", "max_depth": 2}
    assert isinstance(make_tree("classification", options), DecisionTreeClassifier)
    make_model("forest", "classification", {**options, "n_estimators": 3}, seed=0).fit(X, y)
    assert make_model("tree", "regression", options, seed=0).variance_sums == "raw"
    assert make_model("forest", "regression", options, seed=0).variance_sums == "raw"


def test_the_grower_sums_as_the_regressor(excitation):
    """The step-by-step grower takes ``variance_sums`` and grows the regressor's tree."""
    X, y = excitation
    for sums in ("centred", "raw"):
        regressor = DecisionTreeRegressor(max_depth=8, variance_sums=sums).fit(X, y)
        grower = TreeGrower(X, y, criterion="squared_error", max_depth=8, variance_sums=sums,
                            growth="level_order")  # fmt: skip
        grower.grow_all()
        assert grower.tree == regressor.tree_
