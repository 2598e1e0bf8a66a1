"""The forests as scikit-learn's ensembles: the container of their trees, ``estimator``,
``estimator_``, ``estimators_samples_``, and scikit-learn's errors and warnings."""

import warnings
from unittest.mock import patch

import numpy as np
import pytest
from sklearn import ensemble as sk_ensemble
from sklearn.base import clone
from sklearn.datasets import make_classification
from sklearn.exceptions import NotFittedError

from trees import (
    DecisionTreeClassifier,
    DecisionTreeRegressor,
    ExtraTreeClassifier,
    ExtraTreeRegressor,
    ExtraTreesClassifier,
    ExtraTreesRegressor,
    RandomForestClassifier,
    RandomForestRegressor,
)

FORESTS = [RandomForestClassifier, RandomForestRegressor, ExtraTreesClassifier, ExtraTreesRegressor]


@pytest.fixture(scope="module")
def data():
    return make_classification(n_samples=120, n_features=5, random_state=0)


@pytest.fixture(scope="module")
def fitted(data):
    return RandomForestClassifier(n_estimators=4, max_depth=3, random_state=0).fit(*data)


def test_a_fitted_forest_is_the_container_of_its_trees(fitted):
    assert len(fitted) == 4
    assert list(fitted) == fitted.estimators_
    assert fitted[1] is fitted.estimators_[1] and fitted[-1] is fitted.estimators_[-1]
    assert fitted[1:3] == fitted.estimators_[1:3]


def test_an_unfitted_forest_is_true_and_says_it_is_not_fitted():
    forest = RandomForestClassifier()
    assert forest  # ``if model:`` does not call len()
    for use in (len, list, lambda f: f[0]):
        with pytest.raises(NotFittedError):
            use(forest)


@pytest.mark.parametrize(
    ("forest", "tree"),
    [
        (RandomForestClassifier, DecisionTreeClassifier),
        (RandomForestRegressor, DecisionTreeRegressor),
        (ExtraTreesClassifier, ExtraTreeClassifier),
        (ExtraTreesRegressor, ExtraTreeRegressor),
    ],
)
def test_estimator_is_the_kind_of_tree_grown_and_estimator_its_template(data, forest, tree):
    model = forest(n_estimators=2, max_depth=2, random_state=0)
    assert type(model.estimator) is tree
    assert model.estimator.get_params() == tree().get_params()  # scikit-learn's: the defaults
    assert not hasattr(model, "estimator_")
    model.fit(*data)
    assert type(model.estimator_) is tree and not hasattr(model.estimator_, "tree_")
    assert model.estimator_.max_depth == 2  # the template carries the forest's settings
    assert all(type(member) is tree for member in model)


@pytest.mark.parametrize("weighted", [False, True])
def test_estimators_samples_are_scikit_learns_bootstrap_samples(data, weighted):
    X, y = data
    weights = np.random.default_rng(1).uniform(0.5, 2.0, len(y)) if weighted else None
    common = {"n_estimators": 5, "max_samples": 0.5, "random_state": 3}
    ours = RandomForestClassifier(**common).fit(X, y, sample_weight=weights)
    theirs = sk_ensemble.RandomForestClassifier(**common).fit(X, y, sample_weight=weights)
    samples = ours.estimators_samples_
    assert [s.dtype for s in samples] == [np.dtype(np.int32)] * 5
    for mine, its in zip(samples, theirs.estimators_samples_, strict=True):
        np.testing.assert_array_equal(mine, its)
    n_draws = int(0.5 * (len(y) if weights is None else weights.sum()))  # a share of the weight
    assert len(samples[0]) == n_draws and len(np.unique(samples[0])) < n_draws  # with repeats


def test_a_tree_refitted_on_its_sample_is_the_same_tree(data):
    X, y = data
    model = RandomForestRegressor(n_estimators=3, max_features=0.5, random_state=2).fit(X, y)
    for rows, tree in zip(model.estimators_samples_, model, strict=True):
        refit = clone(tree).fit(X[rows], y[rows])
        np.testing.assert_allclose(refit.tree_.value, tree.tree_.value)


def test_without_bootstrap_every_tree_has_every_row(data):
    model = ExtraTreesClassifier(n_estimators=2, random_state=0).fit(*data)
    for rows in model.estimators_samples_:
        np.testing.assert_array_equal(rows, np.arange(120, dtype=np.int32))


# ------------------------------------------------------- scikit-learn's errors and warnings
@pytest.mark.parametrize("forest", FORESTS)
@pytest.mark.parametrize(
    ("settings", "words"),
    [
        ({"oob_score": True}, ["Out of bag estimation only available if bootstrap=True", "no row"]),
        (
            {"max_samples": 0.5},
            ["`max_sample` cannot be set if `bootstrap=False`", "needs bootstrap=True"],
        ),
    ],
)
def test_settings_that_need_bootstrap_are_refused_in_both_words(data, forest, settings, words):
    with pytest.raises(ValueError) as refused:
        forest(bootstrap=False, **settings).fit(*data)
    assert all(word in str(refused.value) for word in words)


def test_a_float_max_samples_above_one_draws_more_rows_than_there_are(data):
    """scikit-learn 1.9: ``max_samples=1.5`` draws 1.5 times the rows, as the int would."""
    X, y = data
    as_share = RandomForestClassifier(n_estimators=3, max_samples=1.5, random_state=11).fit(X, y)
    as_count = RandomForestClassifier(n_estimators=3, max_samples=180, random_state=11).fit(X, y)
    assert as_share._n_samples_bootstrap == as_count._n_samples_bootstrap == 180
    assert [len(rows) for rows in as_share.estimators_samples_] == [180] * 3
    np.testing.assert_array_equal(as_share.predict_proba(X), as_count.predict_proba(X))
    for refused in (0.0, -0.5, float("inf")):
        with pytest.raises(ValueError, match="max_samples must be None, an int >= 1 or a float"):
            RandomForestClassifier(max_samples=refused).fit(X, y)


def test_rows_never_out_of_bag_are_warned_of_and_left_out(data):
    X, y = data
    with pytest.warns(UserWarning, match="Some inputs do not have OOB scores") as caught:
        model = RandomForestClassifier(n_estimators=1, oob_score=True, random_state=0).fit(X, y)
    never = np.isnan(model.oob_decision_function_[:, 0])
    assert 0 < never.sum() < len(y)
    assert f"{never.sum()} of {len(y)} rows" in str(caught[0].message)
    assert model.oob_score_ == np.mean(
        model.oob_decision_function_[~never].argmax(axis=1) == y[~never]
    )
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # every row is out of some tree's sample: no warning
        RandomForestClassifier(n_estimators=30, oob_score=True, random_state=0).fit(X, y)


def test_a_warm_start_with_nothing_to_add_warns_in_both_words_and_scores_once(data):
    model = RandomForestRegressor(n_estimators=20, warm_start=True, oob_score=True)
    with patch.object(
        model, "_set_oob_score_and_attributes", wraps=model._set_oob_score_and_attributes
    ) as scoring:
        model.fit(*data)
        with pytest.warns(UserWarning, match="does not fit new trees: no tree was added"):
            model.fit(*data)
    scoring.assert_called_once()


@pytest.mark.parametrize("bootstrap", [False, True])
def test_the_class_weights_of_the_whole_forest(bootstrap):
    """scikit-learn's step ``_validate_y_class_weight``: the classes, ``y`` as indices in its
    shape, each row's class weight ("balanced_subsample" with bootstrap: each tree's own)."""
    y = np.repeat(np.array(["a", "b", "c"]), [2, 3, 5]).reshape(-1, 1)
    weights = np.arange(1.0, 11.0)
    model = RandomForestClassifier(bootstrap=bootstrap, class_weight={"a": 2.0})
    encoded, by_class = model._validate_y_class_weight(y, weights)
    assert encoded.shape == (10, 1) and model.classes_.tolist() == ["a", "b", "c"]
    np.testing.assert_array_equal(by_class, np.where(y.ravel() == "a", 2.0, 1.0))
    model.set_params(class_weight="balanced_subsample")
    _, by_class = model._validate_y_class_weight(y, weights)
    totals = {"a": 3.0, "b": 12.0, "c": 40.0}  # each class's weight; 55 in all
    expected = [55.0 / (3 * totals[label]) for label in y.ravel()]
    assert by_class is None if bootstrap else np.allclose(by_class, expected)
    two = np.column_stack([y.ravel(), np.where(weights > 5, "x", "y")])  # a multi-output y
    encoded, _ = model._validate_y_class_weight(two, weights)
    assert encoded.shape == (10, 2) and [c.tolist() for c in model.classes_] == [
        ["a", "b", "c"],
        ["x", "y"],
    ]
