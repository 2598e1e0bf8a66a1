"""The Tree structure: routing under the three tests, mirroring, persistence."""

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from trees import DecisionTreeClassifier, DecisionTreeRegressor, Tree, mirror


def stump(threshold=3.0):
    """x0 <= t ? [1, 0] : [0, 1], with a second, unused feature."""
    return Tree(
        feature=[0, -1, -1],
        threshold=[threshold, np.nan, np.nan],
        left=[1, -1, -1],
        right=[2, -1, -1],
        value=[[0.5, 0.5], [1.0, 0.0], [0.0, 1.0]],
        n_samples=[4, 2, 2],
        weighted_n_samples=[4.0, 2.0, 2.0],
        impurity=[0.5, 0.0, 0.0],
        depth=[0, 1, 1],
        is_classifier=True,
        n_features=2,
    )


def test_operators_route_a_value_on_the_threshold_differently():
    X = np.array([[2.0, 0.0], [3.0, 0.0], [4.0, 0.0]])
    tree = stump()
    np.testing.assert_array_equal(tree.apply(X, "<="), [1, 1, 2])
    np.testing.assert_array_equal(tree.apply(X, "<"), [1, 2, 2])
    np.testing.assert_allclose(tree.predict(X, "average")[1], [0.5, 0.5])
    np.testing.assert_allclose(tree.predict(X, "average")[0], [1.0, 0.0])


def test_apply_refuses_average_and_unknown_operators():
    with pytest.raises(ValueError, match="average"):
        stump().apply(np.zeros((1, 2)), "average")
    with pytest.raises(ValueError, match="op must be one of"):
        stump().predict(np.zeros((1, 2)), ">=")


def test_wrong_number_of_columns_is_refused():
    with pytest.raises(ValueError, match="2 columns"):
        stump().predict(np.zeros((3, 5)))


def test_decision_path_lists_visited_nodes():
    path = stump().decision_path(np.array([[3.0, 0.0], [5.0, 1.0]]), "<=").toarray()
    np.testing.assert_array_equal(path, [[1, 1, 0], [1, 0, 1]])
    path = stump().decision_path(np.array([[3.0, 0.0]]), "<").toarray()
    np.testing.assert_array_equal(path, [[1, 0, 1]])


def test_summary_properties():
    tree = stump()
    assert (tree.node_count, tree.n_leaves, tree.max_depth) == (3, 2, 1)


def test_json_round_trip_keeps_the_tree():
    rng = np.random.default_rng(0)
    X = rng.integers(0, 5, size=(80, 3)).astype(float)
    y = rng.integers(0, 3, size=80)
    tree = DecisionTreeClassifier(max_depth=4).fit(X, y).tree_
    text = tree.to_json()
    json.loads(text)  # plain JSON, no NaN tokens
    assert "NaN" not in text
    again = Tree.from_json(text)
    assert again == tree
    np.testing.assert_array_equal(again.predict(X, "<"), tree.predict(X, "<"))


@pytest.mark.parametrize(
    "bad, message",
    [
        ("not json", "not valid JSON"),
        ("[1, 2]", "JSON object"),
        ('{"feature": [0]}', "missing the fields"),
        ("[" * 100_000 + "]" * 100_000, "nests lists or objects too deeply"),
        (b"\xff\xfe", "not UTF-8"),
    ],
)
def test_from_json_rejects_bad_input(bad, message):
    with pytest.raises(ValueError, match=message):
        Tree.from_json(bad)


def test_inconsistent_arrays_are_refused():
    data = stump().to_dict()
    data["left"] = [5, -1, -1]
    with pytest.raises(ValueError, match="Children"):
        Tree.from_dict(data)


def test_mirror_swaps_children_and_negates_thresholds():
    mirrored = mirror(stump())
    assert mirrored.threshold[0] == -3.0
    assert (mirrored.left[0], mirrored.right[0]) == (2, 1)
    assert mirror(mirrored) == stump()


def test_mirror_identity_on_the_loan_example():
    """Source 000, Appendix A: the applicant with 3 dependents is routed differently."""
    X = np.array([[0, 80, 1], [0, 60, 3], [0, 80, 1], [1, 50, 2], [1, 50, 4], [1, 70, 4]], float)
    y = np.array([1, 1, 0, 0, 1, 0])
    tree = DecisionTreeClassifier().fit(X, y).tree_
    applicant = np.array([[1.0, 50.0, 3.0]])
    assert not np.array_equal(tree.predict(applicant, "<="), tree.predict(applicant, "<"))
    np.testing.assert_array_equal(
        mirror(tree).predict(-applicant, "<="), tree.predict(applicant, "<")
    )


# --------------------------------------------------------------- property tests
lattice_data = st.integers(min_value=2, max_value=4).flatmap(
    lambda n_features: st.tuples(
        arrays(np.int8, (40, n_features), elements=st.integers(-3, 3)),
        arrays(np.int8, (40,), elements=st.integers(0, 2)),
        arrays(np.int8, (25, n_features), elements=st.integers(-4, 4)),
    )
)


@settings(max_examples=60, deadline=None)
@given(data=lattice_data, max_depth=st.sampled_from([1, 2, 4, None]))
def test_mirror_identity_on_fitted_trees(data, max_depth):
    """mirror(T).predict(-X, "<=") == T.predict(X, "<"), exactly, with many ties."""
    X, y, X_new = (a.astype(float) for a in data)
    if np.unique(y).size < 2:
        y[0] = 1 - y[1] if y[1] < 2 else 0
    tree = DecisionTreeClassifier(max_depth=max_depth).fit(X, y).tree_
    for rows in (X, X_new):
        np.testing.assert_array_equal(mirror(tree).predict(-rows, "<="), tree.predict(rows, "<"))
        np.testing.assert_array_equal(mirror(tree).predict(-rows, "<"), tree.predict(rows, "<="))
        np.testing.assert_array_equal(mirror(tree).apply(-rows, "<="), tree.apply(rows, "<"))


@st.composite
def random_trees(draw):
    """Arbitrary regression trees (any shape, thresholds on a half-integer lattice)."""
    n_features = draw(st.integers(1, 3))
    feature, threshold, left, right, depth = [], [], [], [], []
    frontier = [(0, 0)]
    feature.append(-1), threshold.append(np.nan), left.append(-1), right.append(-1), depth.append(0)
    while frontier and len(feature) < 31:
        node, d = frontier.pop(0)
        if not draw(st.booleans()):
            continue
        feature[node] = draw(st.integers(0, n_features - 1))
        threshold[node] = draw(st.integers(-6, 6)) / 2.0
        for side in (left, right):
            side[node] = len(feature)
            frontier.append((len(feature), d + 1))
            feature.append(-1), threshold.append(np.nan), left.append(-1), right.append(-1)
            depth.append(d + 1)
    n = len(feature)
    value = draw(arrays(np.float64, (n, 1), elements=st.floats(-10, 10)))
    return Tree(
        feature,
        threshold,
        left,
        right,
        value,
        np.ones(n),
        np.ones(n),
        np.zeros(n),
        depth,
        is_classifier=False,
        n_features=n_features,
    )


@settings(max_examples=100, deadline=None)
@given(tree=random_trees(), X=arrays(np.int8, (30, 3), elements=st.integers(-6, 6)))
def test_mirror_identity_on_random_trees(tree, X):
    X = X[:, : tree.n_features].astype(float) / 2.0  # values on the thresholds' lattice
    np.testing.assert_array_equal(mirror(tree).predict(-X, "<="), tree.predict(X, "<"))
    average = tree.predict(X, "average")
    np.testing.assert_allclose(average, 0.5 * (tree.predict(X, "<=") + tree.predict(X, "<")))


def test_regression_predict_returns_one_value_per_row():
    X = np.arange(20.0)[:, None]
    tree = DecisionTreeRegressor(max_depth=2).fit(X, X[:, 0] ** 2).tree_
    assert tree.predict(X).shape == (20,)


def test_pruned_keeps_the_reachable_part():
    X = np.arange(40.0).reshape(20, 2)
    tree = DecisionTreeRegressor(max_depth=3).fit(X, X[:, 0] ** 2).tree_
    pruned, kept = tree.pruned([tree.left[0]])
    under_left, stack = 0, [tree.left[0]]
    while stack:
        node = stack.pop()
        if tree.feature[node] < 0:
            under_left += 1
        else:
            stack += [tree.left[node], tree.right[node]]
    assert pruned.n_leaves == tree.n_leaves - under_left + 1
    assert kept[0] == 0 and pruned.feature[pruned.left[0]] == -1
    rows = X[:, 0] > tree.threshold[0]
    np.testing.assert_allclose(pruned.predict(X[rows]), tree.predict(X[rows]))
    np.testing.assert_allclose(pruned.predict(X[~rows]), tree.value[tree.left[0], 0])
    whole, _ = tree.pruned([])
    assert whole == tree


def test_trees_the_growth_builds_pass_the_checks_they_skip():
    """The growth builds its Tree without the consistency checks (``check=False``, for speed):
    the arrays it builds pass them, for the kinds of trees it grows."""
    from sklearn.datasets import load_iris

    from trees import DecisionTreeRegressor, ExtraTreesClassifier, RandomForestClassifier

    X, y = load_iris(return_X_y=True)
    X = X.copy()
    X[::7, 1] = np.nan  # missing values routed
    codes = np.column_stack([np.floor(X[:, 2]), X[:, [0, 3]]])  # a categorical column of codes
    models = [
        DecisionTreeClassifier(categorical_features=[0], random_state=0).fit(codes, y),
        DecisionTreeRegressor(max_leaf_nodes=6).fit(X, X[:, 0]),
        RandomForestClassifier(n_estimators=3, random_state=0).fit(X, y),
        ExtraTreesClassifier(n_estimators=3, random_state=0).fit(X, y),
    ]
    for model in models:
        for member in getattr(model, "estimators_", [model]):
            member.tree_._check_consistency()
