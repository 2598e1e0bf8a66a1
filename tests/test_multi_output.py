"""Multi-output y (``trees/tree/_multi_output.py``): trees and forests against scikit-learn's.

On float32-exact continuous data the best split of every node is unique, so the lab's trees
must be scikit-learn's (features, thresholds, rows, every output's values); forests without
randomness (no bootstrap, every feature) are their trees' mean, as scikit-learn's.
"""

from functools import partial

import numpy as np
import pytest
from sklearn import ensemble as skensemble
from sklearn import tree as sktree
from sklearn.metrics import f1_score
from sklearn.utils.class_weight import compute_sample_weight

import trees
from tests.helpers import as_float32_exact, assert_same_structure, matching_sklearn_tree
from trees import from_sklearn


@pytest.fixture(scope="module")
def data():
    rng = np.random.RandomState(7)
    X = as_float32_exact(rng.rand(240, 5))
    classes = np.column_stack(
        [
            (X[:, 0] > 0.5).astype(int) + (X[:, 1] > 0.3),
            np.where(X[:, 2] + 0.2 * rng.rand(240) > 0.6, "yes", "no"),
        ]
    )
    values = np.column_stack([3 * X[:, 0] + rng.rand(240), X[:, 1] - X[:, 3], np.sin(6 * X[:, 4])])
    return X, classes, values


@pytest.mark.parametrize("criterion", ["gini", "entropy", "log_loss"])
@pytest.mark.parametrize("settings", [{"max_depth": 3}, {"max_depth": 6, "min_samples_leaf": 7}])
def test_classifier_is_sklearns_tree(data, criterion, settings):
    X, y, _ = data
    ours = trees.DecisionTreeClassifier(
        criterion=criterion, threshold_dtype="float32", **settings
    ).fit(X, y)
    # Deep nodes of few rows may tie between features; scikit-learn's seed then decides.
    theirs = matching_sklearn_tree(
        ours,
        lambda seed: sktree.DecisionTreeClassifier(
            criterion=criterion, random_state=seed, **settings
        ),
        X,
        y,
    )
    assert theirs is not None, "no scikit-learn seed grows the lab's tree"
    assert ours.n_outputs_ == theirs.n_outputs_ == 2
    for mine, sk in zip(ours.classes_, theirs.classes_, strict=True):
        np.testing.assert_array_equal(mine, sk)
    np.testing.assert_array_equal(ours.n_classes_, theirs.n_classes_)
    probe = np.random.RandomState(1).rand(300, 5)
    np.testing.assert_array_equal(ours.predict(probe), theirs.predict(probe))
    for mine, sk in zip(ours.predict_proba(probe), theirs.predict_proba(probe), strict=True):
        np.testing.assert_allclose(mine, sk, rtol=1e-12, atol=1e-12)
    # The node impurities are the mean of the outputs' (scikit-learn's Criterion).
    np.testing.assert_allclose(
        np.sort(ours.tree_.impurity), np.sort(theirs.tree_.impurity), atol=1e-12
    )


@pytest.mark.parametrize("criterion", ["squared_error", "friedman_mse"])
@pytest.mark.parametrize("settings", [{"max_depth": 4}, {"min_samples_leaf": 5}])
def test_regressor_is_sklearns_tree(data, criterion, settings):
    X, _, y = data
    ours = trees.DecisionTreeRegressor(
        criterion=criterion, threshold_dtype="float32", **settings
    ).fit(X, y)
    # scikit-learn 1.9 maps "friedman_mse" to the squared error (the same splits).
    theirs = sktree.DecisionTreeRegressor(random_state=0, **settings).fit(X, y)
    assert_same_structure(ours.tree_, from_sklearn(theirs), atol=1e-10)
    probe = np.random.RandomState(2).rand(300, 5)
    assert ours.predict(probe).shape == (300, 3)
    np.testing.assert_allclose(ours.predict(probe), theirs.predict(probe), rtol=1e-10)
    np.testing.assert_allclose(
        np.sort(ours.tree_.impurity), np.sort(theirs.tree_.impurity), rtol=1e-9, atol=1e-12
    )


@pytest.mark.parametrize("settings", [{"max_depth": 4}, {"min_samples_leaf": 5}])
def test_poisson_regressor_is_sklearns_tree(data, settings):
    X, _, y = data
    counts = np.floor(2 * (y - y.min(axis=0)))  # counts, each output with a positive sum
    ours = trees.DecisionTreeRegressor(criterion="poisson", threshold_dtype="float32", **settings)
    # Counts tie often in small nodes: scikit-learn's seed then decides (as for the classes).
    theirs = matching_sklearn_tree(
        ours.fit(X, counts),
        lambda seed: sktree.DecisionTreeRegressor(
            criterion="poisson", random_state=seed, **settings
        ),
        X,
        counts,
    )
    assert theirs is not None, "no scikit-learn seed grows the lab's tree"
    with pytest.raises(ValueError, match="Some value\\(s\\) of y are negative"):
        trees.DecisionTreeRegressor(criterion="poisson").fit(X, y - 5)


def test_sklearn_value_shape_and_names(data):
    X, y, _ = data
    ours = trees.DecisionTreeClassifier(max_depth=3).fit(X, y)
    tree = ours.tree_
    assert tree.n_outputs == 2
    assert tree.value.shape == (tree.node_count, 2 * 3)  # the outputs side by side
    assert tree.output_values().shape == (tree.node_count, 2, 3)
    np.testing.assert_array_equal(tree.n_classes, [3, 2])
    assert tree.max_n_classes == 3
    # Each output's shares sum to 1 at every node; the second output's padding stays 0.
    np.testing.assert_allclose(tree.output_values()[:, 0].sum(axis=1), 1.0)
    np.testing.assert_array_equal(tree.output_values()[:, 1, 2], 0.0)


def test_pruned_and_mirrored_trees_keep_their_outputs(data):
    """Pruning (``ccp_alpha``, scikit-learn's weakest link on the mean impurity) and mirroring
    (source 000) copy a tree: its outputs stay."""
    X, _, y = data
    alpha = 0.002
    ours = trees.DecisionTreeRegressor(ccp_alpha=alpha, threshold_dtype="float32").fit(X, y)
    theirs = sktree.DecisionTreeRegressor(ccp_alpha=alpha, random_state=0).fit(X, y)
    assert ours.tree_.n_outputs == 3
    assert_same_structure(ours.tree_, from_sklearn(theirs), atol=1e-10)
    mirrored = trees.mirror(ours.tree_)
    assert mirrored.n_outputs == 3
    np.testing.assert_array_equal(mirrored.predict(-X, "<="), ours.tree_.predict(X, "<"))


def test_one_column_is_one_target(data):
    X, _, values = data
    column = trees.DecisionTreeRegressor(max_depth=3).fit(X, values[:, :1])
    flat = trees.DecisionTreeRegressor(max_depth=3).fit(X, values[:, 0])
    assert column.n_outputs_ == 1 and column.tree_.n_outputs == 1
    np.testing.assert_array_equal(column.predict(X), flat.predict(X))
    assert column.predict(X).shape == (X.shape[0],)


def test_saved_multi_output_tree_round_trips(data):
    X, _, y = data
    tree = trees.DecisionTreeRegressor(max_depth=3).fit(X, y).tree_
    again = trees.Tree.from_json(tree.to_json())
    assert again.n_outputs == 3
    np.testing.assert_array_equal(again.predict(X), tree.predict(X))
    assert (
        "n_outputs" not in trees.DecisionTreeRegressor(max_depth=2).fit(X, y[:, 0]).tree_.to_dict()
    )


@pytest.mark.parametrize("op", ["<=", "<", "average"])
def test_conditioning_on_multi_output(op):
    """The threshold test changes a multi-output tree's predictions on lattice data, where
    rows lie on thresholds, exactly as it changes each output's single tree (source 000)."""
    rng = np.random.RandomState(3)
    X = rng.randint(0, 4, size=(200, 3)).astype(float)
    y = np.column_stack([X[:, 0] * 2 + rng.rand(200), X[:, 1] - X[:, 2]])
    model = trees.DecisionTreeRegressor(max_depth=3).fit(X, y)
    probe = np.array([[1.5, 0.5, 2.5], [1.0, 2.0, 3.0], [2.5, 1.5, 0.5]])
    on_lattice = probe.copy()
    tree = model.tree_
    internal = tree.feature >= 0
    on_lattice[0, tree.feature[0]] = tree.threshold[0]  # a row on the root's threshold
    below, strict = model.predict(on_lattice, "<="), model.predict(on_lattice, "<")
    got = model.predict(on_lattice, op)
    expected = {"<=": below, "<": strict, "average": (below + strict) / 2}[op]
    np.testing.assert_allclose(got, expected)
    assert internal.any()
    # Every output is predicted from the same leaf under each test.
    leaves = tree.apply(on_lattice, op if op != "average" else "<=")
    np.testing.assert_allclose(model.predict(on_lattice, op if op != "average" else "<="),
                               tree.value[leaves])  # fmt: skip


@pytest.mark.parametrize("criterion", ["misclassification", "chi2"])
def test_single_target_criteria_are_refused_in_words(data, criterion):
    X, y, _ = data
    with pytest.raises(ValueError, match="scores one target.*'gini', 'entropy'"):
        trees.DecisionTreeClassifier(criterion=criterion).fit(X, y)


def test_absolute_error_is_refused_in_words(data):
    X, _, y = data
    with pytest.raises(ValueError, match="scores one target.*'squared_error'"):
        trees.DecisionTreeRegressor(criterion="absolute_error").fit(X, y)


def test_selection_by_p_value_is_refused_in_words(data):
    X, y, _ = data
    with pytest.raises(ValueError, match="selection='p_value' tests one target"):
        trees.DecisionTreeClassifier(selection="p_value").fit(X, y)


def test_class_weight_per_output(data):
    X, y, _ = data
    weights = [{0: 1.0, 1: 2.0, 2: 1.0}, {"no": 1.0, "yes": 3.0}]
    ours = trees.DecisionTreeClassifier(class_weight=weights, threshold_dtype="float32",
                                        max_depth=3).fit(X, y)  # fmt: skip
    theirs = sktree.DecisionTreeClassifier(class_weight=weights, max_depth=3, random_state=0)
    assert_same_structure(ours.tree_, from_sklearn(theirs.fit(X, y)))


@pytest.fixture(scope="module")
def forest_data(data):
    X, classes, values = data
    return X[:160], classes[:160], values[:160]


def test_forest_classifier_is_sklearns(forest_data):
    """Every row and feature in every tree: each tree is scikit-learn's, and the forest's
    shares are their mean per output."""
    X, y, _ = forest_data
    settings = {"n_estimators": 5, "max_features": None, "bootstrap": False,
                "random_state": 0, "max_depth": 4}  # fmt: skip
    ours = trees.RandomForestClassifier(threshold_dtype="float32", **settings).fit(X, y)
    theirs = skensemble.RandomForestClassifier(**settings).fit(X, y)
    assert ours.n_outputs_ == 2 and ours.n_classes_ == theirs.n_classes_
    probe = np.random.RandomState(4).rand(200, 5)
    np.testing.assert_array_equal(ours.predict(probe), theirs.predict(probe))
    for mine, sk in zip(ours.predict_proba(probe), theirs.predict_proba(probe), strict=True):
        np.testing.assert_allclose(mine, sk, atol=1e-12)


def test_forest_trees_are_the_trees_of_their_bootstrap_samples(forest_data):
    """With bootstrap, each tree is the lab's own tree fitted on its sample's counts as
    weights (bootstrap samples repeat rows, so equally good splits tie, and scikit-learn's
    trees then depend on its random feature order: the comparison is with the lab's tree)."""
    from trees.ensemble._bootstrap import forest_tree_weights

    X, y, _ = forest_data
    forest = trees.RandomForestClassifier(
        n_estimators=4, max_features=None, random_state=0, max_depth=4
    ).fit(X, y)
    encoded = np.column_stack([np.unique(column, return_inverse=True)[1] for column in y.T])
    for seed, estimator in zip(forest._seeds, forest.estimators_, strict=True):
        counts = forest_tree_weights(seed, X.shape[0], X.shape[0], None)
        alone = trees.DecisionTreeClassifier(max_depth=4, random_state=seed)
        alone.fit(X, encoded, sample_weight=counts)
        assert_same_structure(estimator.tree_, alone.tree_)


@pytest.mark.parametrize("forest", ["RandomForestRegressor", "ExtraTreesRegressor"])
def test_forest_regressor_averages_each_output(forest_data, forest):
    X, _, y = forest_data
    model = getattr(trees, forest)(n_estimators=4, random_state=0, max_depth=3).fit(X, y)
    probe = np.random.RandomState(5).rand(50, 5)
    mean = np.mean([tree.predict(probe) for tree in model.estimators_], axis=0)
    assert model.predict(probe).shape == (50, 3)
    np.testing.assert_allclose(model.predict(probe), mean, rtol=1e-12)


def test_forest_regressor_is_sklearns(forest_data):
    X, _, y = forest_data
    settings = {"n_estimators": 4, "max_features": None, "random_state": 0, "max_depth": 4}
    ours = trees.RandomForestRegressor(threshold_dtype="float32", **settings).fit(X, y)
    theirs = skensemble.RandomForestRegressor(**settings).fit(X, y)
    probe = np.random.RandomState(6).rand(100, 5)
    np.testing.assert_allclose(ours.predict(probe), theirs.predict(probe), rtol=1e-10)


def test_forest_refuses_out_of_bag_classes_in_words(forest_data):
    X, y, _ = forest_data
    with pytest.raises(ValueError, match="The type of target cannot be used to compute OOB"):
        trees.RandomForestClassifier(n_estimators=3, oob_score=True).fit(X, y)


def _labels(X):
    """Three 0/1 labels of the rows (a multilabel y, scikit-learn's "multilabel-indicator")."""
    noise = np.random.RandomState(3).rand(X.shape[0])
    return np.column_stack([X[:, 0] > 0.5, X[:, 1] + 0.2 * noise > 0.4, X[:, 2] > 0.7]).astype(int)


# Enough trees that every row is left out by some (scikit-learn counts a row no tree left out
# as predicted 0, the lab leaves it out of the score), shallow enough that no node ties.
OUT_OF_BAG = {"n_estimators": 30, "max_features": None, "max_depth": 2, "bootstrap": True,
              "random_state": 0}  # fmt: skip


def test_forest_classifier_out_of_bag_of_a_multilabel_y_is_sklearns(forest_data):
    """scikit-learn's number: each row's mean class shares over the trees that left it out,
    ``(n_samples, n_classes, n_outputs)``, and the subset accuracy of their most probable
    classes (or ``oob_score`` itself when it is a callable)."""
    X, _, _ = forest_data
    y = _labels(X)
    for oob_score in (True, partial(f1_score, average="micro")):
        ours = trees.RandomForestClassifier(
            threshold_dtype="float32", oob_score=oob_score, **OUT_OF_BAG
        ).fit(X, y)
        theirs = skensemble.RandomForestClassifier(oob_score=oob_score, **OUT_OF_BAG).fit(X, y)
        assert ours.oob_decision_function_.shape == (X.shape[0], 2, 3)
        np.testing.assert_allclose(
            ours.oob_decision_function_, theirs.oob_decision_function_, rtol=1e-12
        )
        assert ours.oob_score_ == pytest.approx(theirs.oob_score_, rel=1e-12)
    assert 0.5 < ours.oob_score_ <= 1.0


def test_extra_trees_out_of_bag_of_a_multilabel_y_follows_the_definition(forest_data):
    """The definition written out on the forest's own trees and bootstrap samples (the lab's
    extra trees draw other thresholds than scikit-learn's)."""
    X, _, _ = forest_data
    y = _labels(X)
    forest = trees.ExtraTreesClassifier(oob_score=True, **OUT_OF_BAG).fit(X, y)
    total, counts = np.zeros((X.shape[0], 2, 3)), np.zeros(X.shape[0])
    for tree, drawn in zip(forest.estimators_, forest.estimators_samples_, strict=True):
        out = np.bincount(drawn, minlength=X.shape[0]) == 0
        total[out] += np.stack([p[out] for p in tree.predict_proba(X)], axis=2)
        counts[out] += 1
    expected = total / counts[:, None, None]
    np.testing.assert_allclose(forest.oob_decision_function_, expected, rtol=1e-12)
    assert forest.oob_score_ == np.mean((expected.argmax(axis=1) == y).all(axis=1))


def test_forest_regressor_out_of_bag_per_output(forest_data):
    X, _, y = forest_data
    ours = trees.RandomForestRegressor(n_estimators=20, oob_score=True, random_state=0)
    theirs = skensemble.RandomForestRegressor(n_estimators=20, oob_score=True, random_state=0)
    ours.fit(X, y)
    theirs.fit(X, y)
    assert ours.oob_prediction_.shape == theirs.oob_prediction_.shape == (X.shape[0], 3)
    # Ties on repeated rows may change a tree: the scores agree closely, not to the bit.
    assert abs(ours.oob_score_ - theirs.oob_score_) < 0.05


def test_forest_balanced_subsample_weighs_each_trees_sample(forest_data):
    from trees.ensemble._bootstrap import bootstrap_indices, forest_tree_weights

    X, y, _ = forest_data
    forest = trees.RandomForestClassifier(
        n_estimators=3, class_weight="balanced_subsample", max_depth=3, random_state=0
    ).fit(X, y)
    encoded = np.column_stack([np.unique(column, return_inverse=True)[1] for column in y.T])
    for seed, estimator in zip(forest._seeds, forest.estimators_, strict=True):
        drawn = bootstrap_indices(seed, X.shape[0])
        weights = forest_tree_weights(seed, X.shape[0], X.shape[0], None)
        weights = weights * compute_sample_weight("balanced", encoded, indices=drawn)
        assert estimator.tree_.weighted_n_samples[0] == pytest.approx(weights.sum())


def test_forest_column_vector_warns_as_sklearn(forest_data):
    from sklearn.exceptions import DataConversionWarning

    X, _, y = forest_data
    with pytest.warns(DataConversionWarning, match="A column-vector y was passed"):
        model = trees.RandomForestRegressor(n_estimators=2, random_state=0).fit(X, y[:, :1])
    assert model.n_outputs_ == 1 and model.predict(X).shape == (X.shape[0],)
