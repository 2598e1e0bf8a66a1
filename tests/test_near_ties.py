"""Near-tie trees: hand-checked sets, the budget, the measures and the alternative paths."""

import numpy as np
import pytest

from trees import TreeGrower
from trees.instability import near_tie_options, near_tie_trees, tree_importances

# Six rows, classes 0 0 0 1 1 1. x0 and x1 both separate them perfectly at the root
# (Gini gain 0.5 each: an exact tie). x2 <= 2.5 leaves row 2 (x2 = 6, class 0) among the 1s:
# gain 0.5 - 4/6 * (1 - 1/16 - 9/16) = 0.25, half the best. Its right side {2, 3, 4, 5} is
# then split perfectly by x0 <= 3.5, x1 <= 35 or x2 <= 5.5 (three exact ties, gain 0.375).
X = np.array([[1, 10, 1], [2, 20, 2], [3, 30, 6], [4, 40, 3], [5, 50, 4], [6, 60, 5]], float)
Y = np.array([0, 0, 0, 1, 1, 1])


def test_two_tied_root_splits_give_two_trees_at_epsilon_zero():
    found = near_tie_trees(X, Y, epsilon=0.0, test_share=0)
    assert found.n_trees == 2 and not found.truncated
    assert list(found.table["root"]) == ["x0 ≤ 3.5", "x1 ≤ 35"]  # the greedy tree first
    assert list(found.table["alternatives"]) == [0, 1]
    np.testing.assert_allclose(found.scores, 1.0)


def test_a_larger_epsilon_admits_the_weaker_root():
    # epsilon 0.6 admits x2 (half the best): 2 trees through x0 or x1, 3 through x2.
    found = near_tie_trees(X, Y, epsilon=0.6, test_share=0)
    assert found.n_trees == 5
    assert sorted(found.table["root"]) == ["x0 ≤ 3.5", "x1 ≤ 35"] + ["x2 ≤ 2.5"] * 3
    assert near_tie_trees(X, Y, epsilon=0.4, test_share=0).n_trees == 2


def test_the_budget_cuts_the_set_and_says_so():
    found = near_tie_trees(X, Y, epsilon=0.6, max_trees=3, test_share=0)
    assert found.n_trees == 3 and found.truncated
    assert found.table["root"].iloc[0] == "x0 ≤ 3.5"
    assert "cut" in found.summary()


def test_regression_and_categorical_features():
    found = near_tie_trees(X, Y.astype(float), epsilon=0.0, test_share=0, task="regression")
    assert found.n_trees == 2 and found.metric == "R²"
    codes = X.copy()
    codes[:, 0] = [0, 0, 0, 1, 1, 1]  # x0 as two categories: the same partition as x0 <= 3.5
    found = near_tie_trees(codes, Y, epsilon=0.0, test_share=0, categorical_features=[0])
    assert list(found.table["root"]) == ["x0 = 0", "x1 ≤ 35"]


def test_ambiguity_discrepancy_and_feature_use():
    # Row [3, 40, 0]: x0 <= 3.5 says 0, x1 <= 35 says 1. Row [1, 10, 1]: both say 0.
    X_test = np.array([[3.0, 40.0, 0.0], [1.0, 10.0, 1.0]])
    found = near_tie_trees(X, Y, epsilon=0.0, X_test=X_test, y_test=np.array([0, 0]))
    assert found.ambiguity == 0.5 and found.discrepancy == 0.5
    np.testing.assert_array_equal(found.ambiguous, [True, False])
    np.testing.assert_allclose(found.scores, [1.0, 0.5])
    use = found.feature_use.set_index("name")
    assert use.loc["x0", "share_of_trees"] == 0.5 and use.loc["x2", "share_of_trees"] == 0.0
    assert use.loc["x0", "max_importance"] == 1.0


def test_alternative_paths_add_up():
    paths = near_tie_trees(X, Y, epsilon=0.6, test_share=0).paths
    top = paths[paths["parent"] == ""]
    assert sorted(top["n_trees"]) == [1, 1, 3]
    x2 = top.loc[top["label"] == "root: x2 ≤ 2.5", "id"].iloc[0]
    children = paths[paths["parent"] == x2]
    assert len(children) == 3 and children["n_trees"].sum() == 3
    assert set(children["label"]) == {"root-R: x0 ≤ 3.5", "root-R: x1 ≤ 35", "root-R: x2 ≤ 5.5"}


def test_options_of_a_grower_node_and_importances():
    grower = TreeGrower(X, Y)
    assert [c.feature for c in near_tie_options(grower, 0, 0.0)] == [0, 1]
    assert [c.feature for c in near_tie_options(grower, 0, 0.6)] == [0, 1, 2]
    grower.grow_all()
    np.testing.assert_allclose(tree_importances(grower.tree), [1.0, 0.0, 0.0])
    with pytest.raises(ValueError, match="epsilon"):
        near_tie_options(grower, 0, -0.1)


def test_refusals_and_stop():
    with pytest.raises(ValueError, match="max_features"):
        near_tie_trees(X, Y, max_features=1)
    with pytest.raises(ValueError, match="p-value"):
        near_tie_trees(X, Y, selection="p_value")
    stopped = near_tie_trees(X, Y, epsilon=0.6, test_share=0, should_stop=lambda: True)
    assert stopped.cancelled and stopped.n_trees == 1


def test_held_out_rows_by_default():
    rng = np.random.default_rng(0)
    Xr = rng.normal(size=(120, 4))
    yr = (Xr[:, 0] + 0.3 * rng.normal(size=120) > 0).astype(int)
    found = near_tie_trees(Xr, yr, epsilon=0.05, max_depth=3, random_state=1)
    assert found.evaluated_on == "held-out rows" and found.ambiguous.shape == (36,)
    assert found.n_trees >= 1 and 0.0 <= found.ambiguity <= 1.0
