"""The estimators: scikit-learn API conformance, parameters and stopping rules."""

import numpy as np
import pandas as pd
import pytest
from sklearn.model_selection import GridSearchCV, cross_val_score
from sklearn.utils.estimator_checks import parametrize_with_checks

from trees import DecisionTreeClassifier, DecisionTreeRegressor, mirror

ESTIMATORS = [
    DecisionTreeClassifier(),
    DecisionTreeClassifier(criterion="entropy", conditioning="<"),
    DecisionTreeClassifier(criterion="chi2", conditioning="average", growth="level_order"),
    DecisionTreeClassifier(criterion="misclassification", max_leaf_nodes=8),
    DecisionTreeClassifier(selection="p_value", n_permutations=19, random_state=0),
    DecisionTreeClassifier(splitter="random", random_state=0),
    DecisionTreeRegressor(),
    DecisionTreeRegressor(splitter="random", random_state=0),
    DecisionTreeRegressor(conditioning="average", max_nodes=15),
    DecisionTreeRegressor(criterion="absolute_error", splitter="random", random_state=0),
]


@parametrize_with_checks(ESTIMATORS)
def test_sklearn_api_conformance(estimator, check):
    """Every check of scikit-learn's check_estimator passes; none is marked to fail."""
    check(estimator)


@pytest.fixture
def lattice_data():
    rng = np.random.default_rng(0)
    X = rng.integers(0, 6, size=(300, 3)).astype(float)
    y = ((X[:, 0] + X[:, 1] + rng.normal(0, 1, 300)) > 5).astype(int)
    return X, y


def test_conditioning_changes_only_prediction(lattice_data):
    X, y = lattice_data
    X_new = np.random.default_rng(1).integers(0, 6, size=(200, 3)).astype(float) + 0.5
    fitted = {
        op: DecisionTreeClassifier(max_depth=6, conditioning=op).fit(X, y)
        for op in ("<=", "<", "average")
    }
    assert fitted["<="].tree_ == fitted["<"].tree_ == fitted["average"].tree_
    tree = fitted["<="].tree_
    np.testing.assert_array_equal(fitted["<"].predict_proba(X_new), tree.predict(X_new, "<"))
    np.testing.assert_allclose(
        fitted["average"].predict_proba(X_new),
        0.5 * (tree.predict(X_new, "<=") + tree.predict(X_new, "<")),
    )
    np.testing.assert_array_equal(
        fitted["<"].predict_proba(X_new), mirror(tree).predict(-X_new, "<=")
    )


def test_apply_refuses_average_with_a_clear_message(lattice_data):
    X, y = lattice_data
    est = DecisionTreeClassifier(conditioning="average", max_depth=3).fit(X, y)
    with pytest.raises(ValueError, match="two leaves"):
        est.apply(X)
    assert est.apply(X, conditioning="<").shape == (300,)


def test_prediction_takes_the_test_per_call_as_forests_do(lattice_data):
    X, y = lattice_data
    X_new = X[:50] + 0.5
    classifier = DecisionTreeClassifier(max_depth=6).fit(X, y)
    tree = classifier.tree_
    for op in ("<=", "<", "average"):
        np.testing.assert_array_equal(
            classifier.predict_proba(X_new, conditioning=op), tree.predict(X_new, op)
        )
    np.testing.assert_array_equal(classifier.predict_proba(X_new), tree.predict(X_new, "<="))
    np.testing.assert_array_equal(classifier.apply(X_new, "<"), tree.apply(X_new, "<"))
    regressor = DecisionTreeRegressor(max_depth=6, conditioning="<").fit(X, X[:, 0] + y)
    np.testing.assert_array_equal(regressor.predict(X_new), regressor.tree_.predict(X_new, "<"))
    np.testing.assert_array_equal(
        regressor.predict(X_new, conditioning="average"),
        regressor.tree_.predict(X_new, "average"),
    )
    with pytest.raises(ValueError, match="op must be one of"):
        classifier.predict(X_new, conditioning="half")


@pytest.mark.parametrize("max_leaf_nodes", [2, 5, 17])
@pytest.mark.parametrize("growth", ["best_first", "level_order"])
def test_max_leaf_nodes_is_respected(lattice_data, max_leaf_nodes, growth):
    X, y = lattice_data
    est = DecisionTreeClassifier(max_leaf_nodes=max_leaf_nodes, growth=growth).fit(X, y)
    assert est.get_n_leaves() == max_leaf_nodes


@pytest.mark.parametrize("max_nodes", [1, 3, 8, 21])
def test_max_nodes_is_respected(lattice_data, max_nodes):
    X, y = lattice_data
    est = DecisionTreeClassifier(max_nodes=max_nodes, growth="level_order").fit(X, y)
    assert est.tree_.node_count == max_nodes - (1 - max_nodes % 2)


def test_level_order_expands_shallow_nodes_first(lattice_data):
    X, y = lattice_data
    tree = DecisionTreeClassifier(max_nodes=7, growth="level_order").fit(X, y).tree_
    np.testing.assert_array_equal(np.sort(tree.depth), [0, 1, 1, 2, 2, 2, 2])


def test_best_first_expands_the_largest_decrease_first(lattice_data):
    X, y = lattice_data
    depth_two = DecisionTreeClassifier(max_depth=2).fit(X, y)
    children = [depth_two.tree_.left[0], depth_two.tree_.right[0]]
    gains = depth_two._improvement[children]
    best_first = DecisionTreeClassifier(max_leaf_nodes=3, growth="best_first").fit(X, y).tree_
    split_side = 0 if best_first.feature[best_first.left[0]] >= 0 else 1
    assert split_side == int(np.argmax(gains))


def test_growth_orders_agree_without_limits(lattice_data):
    X, y = lattice_data
    a = DecisionTreeClassifier(growth="best_first").fit(X, y)
    b = DecisionTreeClassifier(growth="level_order").fit(X, y)
    np.testing.assert_array_equal(a.predict_proba(X), b.predict_proba(X))
    assert a.tree_.node_count == b.tree_.node_count


@pytest.mark.parametrize("min_samples_leaf", [1, 7, 0.05])
def test_min_samples_leaf(lattice_data, min_samples_leaf):
    X, y = lattice_data
    tree = DecisionTreeClassifier(min_samples_leaf=min_samples_leaf).fit(X, y).tree_
    expected = min_samples_leaf if isinstance(min_samples_leaf, int) else int(np.ceil(0.05 * 300))
    assert tree.n_samples[tree.is_leaf].min() >= expected


def test_min_impurity_decrease_prunes(lattice_data):
    X, y = lattice_data
    full = DecisionTreeClassifier().fit(X, y).tree_
    pruned = DecisionTreeClassifier(min_impurity_decrease=0.01).fit(X, y).tree_
    assert pruned.node_count < full.node_count


def test_max_features_uses_random_subsets_reproducibly(lattice_data):
    X, y = lattice_data
    a = DecisionTreeClassifier(max_features=1, random_state=3).fit(X, y)
    b = DecisionTreeClassifier(max_features=1, random_state=3).fit(X, y)
    c = DecisionTreeClassifier(max_features=1, random_state=4).fit(X, y)
    assert a.tree_ == b.tree_
    assert a.tree_ != c.tree_


def test_sample_weight_equals_repetition(lattice_data):
    X, y = lattice_data
    weights = np.random.default_rng(2).integers(0, 3, size=300)
    weighted = DecisionTreeClassifier(max_depth=5).fit(X, y, sample_weight=weights)
    repeated = DecisionTreeClassifier(max_depth=5).fit(
        np.repeat(X, weights, axis=0), np.repeat(y, weights)
    )
    np.testing.assert_allclose(weighted.predict_proba(X), repeated.predict_proba(X))


def test_dataframe_feature_names_are_kept():
    df = pd.DataFrame({"income": [10, 20, 30, 40.0], "age": [1, 2, 1, 2.0]})
    est = DecisionTreeRegressor().fit(df, [1.0, 2.0, 3.0, 4.0])
    assert list(est.feature_names_in_) == ["income", "age"]
    assert est.tree_.feature_names == ["income", "age"]


def test_string_classes_and_multiclass():
    X = np.arange(30.0)[:, None]
    y = np.array(["low"] * 10 + ["mid"] * 10 + ["high"] * 10)
    est = DecisionTreeClassifier().fit(X, y)
    assert list(est.classes_) == ["high", "low", "mid"]
    np.testing.assert_array_equal(est.predict(X), y)
    assert est.tree_.class_names == ["high", "low", "mid"]


@pytest.mark.parametrize(
    "params, message",
    [
        ({"criterion": "gain"}, "criterion must be one of"),
        ({"conditioning": "=="}, "op must be one of"),
        ({"growth": "random"}, "growth must be one of"),
        ({"max_depth": -1}, "max_depth"),
        ({"min_samples_leaf": 0}, "min_samples_leaf"),
        ({"min_samples_split": 1}, "min_samples_split"),
        ({"max_features": "half"}, "max_features"),
        ({"max_leaf_nodes": 1}, "max_leaf_nodes"),
        ({"min_impurity_decrease": -0.1}, "min_impurity_decrease"),
    ],
)
def test_bad_parameters_are_refused_at_fit(lattice_data, params, message):
    X, y = lattice_data
    with pytest.raises(ValueError, match=message):
        DecisionTreeClassifier(**params).fit(X, y)


def test_infinite_input_is_refused_and_missing_values_are_routed(lattice_data):
    X, y = lattice_data
    X = X.copy()
    X[0, 0] = np.nan  # a missing value: routed (tests/test_missing_values.py)
    assert DecisionTreeClassifier().fit(X, y).predict(X[:1]).shape == (1,)
    X[1, 0] = np.inf
    with pytest.raises(ValueError, match="infinity"):
        DecisionTreeClassifier().fit(X, y)


def test_works_in_model_selection(lattice_data):
    X, y = lattice_data
    scores = cross_val_score(
        DecisionTreeClassifier(max_depth=3, conditioning="average"), X, y, cv=3
    )
    assert scores.shape == (3,) and np.all(scores > 0.5)
    search = GridSearchCV(
        DecisionTreeClassifier(), {"max_depth": [1, 3], "conditioning": ["<=", "<"]}, cv=3
    )
    search.fit(X, y)
    assert search.best_params_["max_depth"] in (1, 3)


def test_feature_importances_sum_to_one(lattice_data):
    X, y = lattice_data
    importances = DecisionTreeClassifier(max_depth=4).fit(X, y).feature_importances_
    assert importances.sum() == pytest.approx(1.0)
    assert importances[2] < importances[0]


def test_regressor_fits_a_step_exactly():
    X = np.arange(10.0)[:, None]
    y = np.where(X[:, 0] < 5, 1.0, 3.0)
    est = DecisionTreeRegressor(max_depth=1).fit(X, y)
    assert est.tree_.threshold[0] == 4.5
    np.testing.assert_allclose(est.predict(X), y)
    assert est.score(X, y) == pytest.approx(1.0)


def test_constant_target_gives_a_single_leaf():
    X = np.arange(10.0)[:, None]
    assert DecisionTreeRegressor().fit(X, np.full(10, 1e6)).tree_.node_count == 1
    assert DecisionTreeClassifier().fit(X, np.zeros(10)).tree_.node_count == 1
