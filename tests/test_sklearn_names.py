"""scikit-learn's ``tree_`` names on the lab's ``Tree``, and tools that read them.

A scikit-learn tree converted with ``from_sklearn`` keeps scikit-learn's node ids, so its
scikit-learn names must give back scikit-learn's own arrays.
"""

import numpy as np
import pytest
from sklearn import tree as sk_tree
from sklearn.datasets import load_diabetes, load_iris

from trees import DecisionTreeClassifier, DecisionTreeRegressor, from_sklearn
from trees.tree._sklearn_names import TREE_LEAF, TREE_UNDEFINED


@pytest.fixture(scope="module")
def iris():
    return load_iris(return_X_y=True)


@pytest.fixture(scope="module")
def converted(iris):
    """A scikit-learn classification tree with its weighted rows, and its conversion."""
    X, y = iris
    weights = np.random.default_rng(0).uniform(0.5, 2.0, len(y))
    theirs = sk_tree.DecisionTreeClassifier(max_depth=4, random_state=0)
    theirs.fit(X, y, sample_weight=weights)
    return theirs.tree_, from_sklearn(theirs)


def test_the_names_give_scikit_learns_arrays(converted):
    theirs, ours = converted
    for name in ("children_left", "children_right", "n_node_samples", "impurity"):
        np.testing.assert_array_equal(getattr(ours, name), getattr(theirs, name), err_msg=name)
    np.testing.assert_allclose(ours.weighted_n_node_samples, theirs.weighted_n_node_samples)
    for name in ("node_count", "n_features", "n_outputs", "max_n_classes", "max_depth", "n_leaves"):
        assert getattr(ours, name) == getattr(theirs, name), name
    np.testing.assert_array_equal(ours.n_classes, theirs.n_classes)
    assert ours.capacity == ours.node_count <= theirs.capacity
    np.testing.assert_array_equal(ours.compute_node_depths(), theirs.compute_node_depths())
    # value: scikit-learn's numbers (class fractions since 1.4), its shape by a reshape.
    np.testing.assert_allclose(ours.value.reshape(ours.node_count, 1, -1), theirs.value)


@pytest.mark.parametrize("normalize", [True, False])
def test_feature_importances_are_scikit_learns(converted, normalize):
    theirs, ours = converted
    np.testing.assert_allclose(
        ours.compute_feature_importances(normalize=normalize),
        theirs.compute_feature_importances(normalize=normalize),
        rtol=1e-12,
    )


def test_the_split_nodes_read_alike_and_the_leaves_as_documented(converted):
    """At a split, ``feature`` and ``threshold`` are scikit-learn's; at a leaf the lab keeps -1
    and NaN where scikit-learn writes TREE_UNDEFINED, and both mark it TREE_LEAF."""
    theirs, ours = converted
    split = theirs.children_left != TREE_LEAF
    np.testing.assert_array_equal(ours.feature[split], theirs.feature[split])
    np.testing.assert_array_equal(ours.threshold[split], theirs.threshold[split])
    assert (theirs.feature[~split] == TREE_UNDEFINED).all()
    assert (ours.feature[~split] == -1).all() and np.isnan(ours.threshold[~split]).all()
    assert (ours.children_left[~split] == TREE_LEAF).all()


def test_the_names_are_the_trees_own_arrays(iris):
    X, y = iris
    tree = DecisionTreeClassifier(max_depth=3).fit(X, y).tree_
    assert tree.children_left is tree.left and tree.children_right is tree.right
    assert tree.n_node_samples is tree.n_samples
    assert tree.weighted_n_node_samples is tree.weighted_n_samples


def test_a_regression_tree_has_one_class_per_output():
    X, y = load_diabetes(return_X_y=True)
    tree = DecisionTreeRegressor(max_depth=3).fit(X, y).tree_
    assert tree.n_outputs == 1 and tree.max_n_classes == 1
    np.testing.assert_array_equal(tree.n_classes, [1])
    assert tree.value.reshape(tree.node_count, 1, -1).shape == (tree.node_count, 1, 1)


def test_a_single_leaf_has_depth_one_and_no_importance():
    tree = DecisionTreeRegressor().fit(np.zeros((4, 2)), np.ones(4)).tree_
    assert tree.compute_node_depths().tolist() == [1]
    assert tree.compute_feature_importances().tolist() == [0.0, 0.0]


def test_the_estimators_importances_are_the_trees(iris):
    X, y = iris
    model = DecisionTreeClassifier(random_state=0).fit(X, y)
    np.testing.assert_allclose(
        model.tree_.compute_feature_importances(), model.feature_importances_
    )


def test_from_sklearn_refuses_a_tree_of_this_package_in_words(iris):
    model = DecisionTreeClassifier(max_depth=2).fit(*iris)
    with pytest.raises(ValueError, match="its tree_ is a Tree already"):
        from_sklearn(model)


# ------------------------------------------------------------------ tools that read tree_
def test_skl2onnx_converts_a_lab_tree_with_its_scikit_learn_converters(iris):
    """skl2onnx's decision-tree converters read ``tree_`` by scikit-learn's names; registered
    for the lab's classes, the ONNX model predicts as the tree (float32, as ONNX compares)."""
    onnxruntime = pytest.importorskip("onnxruntime")
    skl2onnx = pytest.importorskip("skl2onnx")
    from skl2onnx.operator_converters.decision_tree import (
        convert_sklearn_decision_tree_classifier,
        convert_sklearn_decision_tree_regressor,
    )
    from skl2onnx.shape_calculators.linear_classifier import (
        calculate_linear_classifier_output_shapes,
    )
    from skl2onnx.shape_calculators.linear_regressor import (
        calculate_linear_regressor_output_shapes,
    )

    X, y = iris
    options = {"decision_path": [True, False], "decision_leaf": [True, False]}
    classifier = DecisionTreeClassifier(threshold_dtype="float32", max_depth=4).fit(X, y)
    regressor = DecisionTreeRegressor(threshold_dtype="float32", max_depth=4).fit(X, y * 1.5)
    skl2onnx.update_registered_converter(
        DecisionTreeClassifier,
        "TreesDecisionTreeClassifier",
        calculate_linear_classifier_output_shapes,
        convert_sklearn_decision_tree_classifier,
        options={**options, "zipmap": [True, False], "nocl": [True, False]},
    )
    skl2onnx.update_registered_converter(
        DecisionTreeRegressor,
        "TreesDecisionTreeRegressor",
        calculate_linear_regressor_output_shapes,
        convert_sklearn_decision_tree_regressor,
        options=options,
    )
    rows = X.astype(np.float32)

    def run(model, **kwargs):
        onx = skl2onnx.to_onnx(model, rows[:1], **kwargs)
        session = onnxruntime.InferenceSession(
            onx.SerializeToString(), providers=["CPUExecutionProvider"]
        )
        return session.run(None, {"X": rows})

    labels, proba = run(classifier, options={"zipmap": False})
    np.testing.assert_array_equal(labels, classifier.predict(X))
    np.testing.assert_allclose(proba, classifier.predict_proba(X), atol=1e-6)
    (values,) = run(regressor)
    np.testing.assert_allclose(values.ravel(), regressor.predict(X), rtol=1e-6)
