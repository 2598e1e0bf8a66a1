"""A tree's settings: one validated value, one constraints table, read by every layer."""

import dataclasses

import numpy as np
import pytest

from trees import (
    DecisionTreeClassifier,
    DecisionTreeRegressor,
    RandomForestClassifier,
    RandomForestRegressor,
    TreeGrower,
)
from trees.tree import TreeParams
from trees.tree._params import PARAMETER_CONSTRAINTS, TREE_SETTINGS


def test_the_table_constrains_every_setting_and_nothing_else():
    assert set(PARAMETER_CONSTRAINTS) == set(TREE_SETTINGS)
    assert TreeParams.checked() == TreeParams()


@pytest.mark.parametrize("estimator", [DecisionTreeClassifier, DecisionTreeRegressor])
def test_every_estimator_parameter_but_the_seed_is_a_tree_setting(estimator):
    # The seed seeds a fit; class weights become the fit's sample weights (as scikit-learn's):
    # neither is a setting of the growth.
    names = set(estimator().get_params()) - {"random_state", "class_weight"}
    assert names <= set(TREE_SETTINGS)
    assert set(TREE_SETTINGS) == names | (
        {"variance_sums"}
        if estimator is DecisionTreeClassifier
        else {"selection", "n_permutations"}
    )


@pytest.mark.parametrize(
    "settings, message",
    [
        (
            {"max_depth": 1.5},
            r"'max_depth' parameter must be None or an int in the range \[0, inf\)",
        ),
        # scikit-learn's words (its tests match them): scikit-learn's test_min_sample_split_1_error
        (
            {"min_samples_leaf": 0},
            r"'min_samples_leaf' parameter must be an int in the range \[1, "
            r"inf\) or a float in the range \(0.0, 1.0\]. Got 0 instead.",
        ),
        ({"max_features": "half"}, "'max_features' parameter must be None, 'sqrt', 'log2', an int"),
        ({"tie_break": "last"}, r"tie_break must be one of \('first', 'random'\), got 'last'"),
        (
            {"min_impurity_decrease": True},
            r"'min_impurity_decrease' parameter must be a float in "
            r"the range \[0.0, inf\)",
        ),
        (
            {"n_permutations": 0},
            r"'n_permutations' parameter must be an int in the range \[1, inf\)",
        ),
        ({"conditioning": "half"}, "op must be one of"),
        ({"criterion": "squared_error", "selection": "p_value"}, "not regression"),
    ],
)
def test_refusals_name_the_setting_and_what_it_accepts(settings, message):
    with pytest.raises(ValueError, match=message):
        TreeParams.checked(**settings)


def test_unknown_settings_and_changes_after_construction_are_refused():
    with pytest.raises(TypeError, match="not tree settings"):
        TreeParams.checked(max_dept=3)
    with pytest.raises(dataclasses.FrozenInstanceError):
        TreeParams().max_depth = 3
    base = TreeParams.checked(max_depth=3)
    assert TreeParams.checked(base, criterion="entropy").max_depth == 3


def test_resolved_against_the_data():
    params = TreeParams.checked(min_samples_leaf=0.1, max_features="sqrt", max_leaf_nodes=5)
    rules = params.stopping_rules(95)
    assert rules.min_samples_leaf == 10 and rules.max_splits == 4
    assert params.max_features_for(9) == 3
    mask = TreeParams.checked(categorical_features=["b"]).categorical_mask(
        np.zeros((3, 2)), ["a", "b"]
    )
    np.testing.assert_array_equal(mask, [False, True])


def test_a_fit_keeps_the_settings_it_grew_with():
    X = np.arange(40.0).reshape(20, 2)
    y = np.arange(20) % 2
    fitted = DecisionTreeClassifier(max_depth=2, tie_break="random").fit(X, y)
    assert fitted.tree_params_ == TreeParams.checked(max_depth=2, tie_break="random")


@pytest.mark.parametrize("forest", [RandomForestClassifier, RandomForestRegressor])
def test_forests_hand_their_settings_to_every_tree(forest):
    X = np.random.default_rng(0).random((60, 3))
    y = (X[:, 0] > 0.5).astype(int) if forest is RandomForestClassifier else X[:, 0]
    extra = {"variance_sums": "raw"} if forest is RandomForestRegressor else {}
    fitted = forest(n_estimators=3, max_depth=3, max_features=2, conditioning="half",
                    threshold_dtype="float32", random_state=0, **extra).fit(X, y)  # fmt: skip
    for tree in fitted.estimators_:
        params = tree.tree_params_
        assert (params.max_depth, params.max_features, params.threshold_dtype) == (3, 2, "float32")
        assert params.conditioning == tree.conditioning == "<="
        assert params.variance_sums == extra.get("variance_sums", "centred")
        assert tree.get_params()["max_depth"] == 3


def test_the_grower_starts_from_a_settings_value():
    X = np.random.default_rng(1).random((50, 3))
    y = (X[:, 1] > 0.4).astype(int)
    params = TreeParams.checked(max_depth=2, criterion="entropy")
    grower = TreeGrower(X, y, params, min_samples_leaf=3)
    assert grower.params == TreeParams.checked(params, min_samples_leaf=3)
    grower.grow_all()
    assert grower.tree.max_depth <= 2
    with pytest.raises(ValueError, match="growth must be one of"):
        TreeGrower(X, y, params, growth="depth_first")
