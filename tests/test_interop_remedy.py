"""The remedy, shippable (issue 31, part 4): ConditionedModel and the mirrored models.

The mirrored model in the library's own format, fed -X, must predict what
the representation predicts under the operator the library does not use
(source 000, section 3.1).
"""

import numpy as np
import pytest
from sklearn.base import clone, is_classifier, is_regressor

from tests import interop_helpers as h
from trees.interop import ConditionedModel, ModelFileError, from_model, mirrored_model


@pytest.fixture(scope="module")
def lattice():
    return h.lattice_data()


def _fit(model, X, task):
    return model.fit(X, h.target(X, task))


@pytest.mark.parametrize("task", ["binary", "multiclass", "regression"])
def test_xgboost_mirror_fed_minus_x_predicts_under_the_other_operator(lattice, task):
    import xgboost as xgb

    X, X_test = lattice
    model = _fit(h.xgboost_model(task), X, task)
    imported = from_model(model)
    rows = np.vstack([X_test, h.on_threshold_rows(imported, X_test)])
    margin = mirrored_model(model).predict(xgb.DMatrix(-rows), output_margin=True)
    expected = imported.decision_function(rows, conditioning="<=")
    np.testing.assert_allclose(margin, expected, atol=1e-5)
    assert np.abs(expected - imported.decision_function(rows)).max() > 1e-3  # rows do flip


@pytest.mark.parametrize("task", ["binary", "multiclass", "regression"])
def test_lightgbm_mirror_fed_minus_x_predicts_under_the_other_operator(lattice, task):
    X, X_test = lattice
    model = _fit(h.lightgbm_model(task), X, task)
    imported = from_model(model)
    rows = np.vstack([X_test, h.on_threshold_rows(imported, X_test)])
    raw = mirrored_model(model).predict(-rows, raw_score=True)
    np.testing.assert_allclose(raw, imported.decision_function(rows, conditioning="<"), atol=1e-9)


@pytest.mark.parametrize("name", ["DecisionTree", "RandomForest", "GradientBoosting",
                                  "HistGradientBoosting"])  # fmt: skip
def test_sklearn_mirror_fed_minus_x_predicts_under_the_other_operator(lattice, name):
    X, X_test = lattice
    model, nan = next((m, nan) for n, m, nan in h.sklearn_models("multiclass") if n == name)
    X, X_test = (X, X_test) if nan else h.lattice_data(missing=False)
    model = _fit(model, X, "multiclass")
    imported = from_model(model)
    rows = np.vstack([X_test, h.on_threshold_rows(imported, X_test)])
    mirrored = mirrored_model(model)
    np.testing.assert_allclose(
        mirrored.predict_proba(-rows), imported.predict_proba(rows, conditioning="<"), atol=1e-9
    )
    np.testing.assert_allclose(model.predict_proba(rows), imported.predict_proba(rows), atol=1e-9)


def test_catboost_has_no_mirror_but_a_wrapper(lattice):
    X, X_test = lattice
    model = _fit(h.catboost_model("binary"), X, "binary")
    with pytest.raises(ModelFileError, match="ConditionedModel"):
        mirrored_model(model)
    wrapped = ConditionedModel(model, conditioning="<")
    assert wrapped.predict_proba(X_test).shape == (X_test.shape[0], 2)


def test_conditioned_model_is_a_fitless_sklearn_estimator(lattice):
    X, X_test = lattice
    model = _fit(h.xgboost_model("multiclass"), X, "multiclass")
    imported = from_model(model)
    wrapped = ConditionedModel(model)
    assert wrapped.get_params()["conditioning"] == "average"
    assert is_classifier(wrapped) and list(wrapped.classes_) == [0, 1, 2]
    expected = (imported.predict_proba(X_test, "<") + imported.predict_proba(X_test, "<=")) / 2
    np.testing.assert_allclose(wrapped.predict_proba(X_test), expected)
    np.testing.assert_array_equal(wrapped.predict(X_test), expected.argmax(axis=1))
    from sklearn.frozen import FrozenEstimator

    native = clone(ConditionedModel(FrozenEstimator(model), conditioning="native"))
    np.testing.assert_allclose(native.predict_proba(X_test), model.predict_proba(X_test), atol=1e-6)
    assert native.fit() is native
    with pytest.raises(ValueError, match="conditioning"):
        ConditionedModel(model, conditioning="sideways").predict(X_test)


def test_conditioned_regressor(lattice):
    X, X_test = lattice
    model = _fit(h.lightgbm_model("regression"), X, "regression")
    wrapped = ConditionedModel(model, conditioning="<")
    assert is_regressor(wrapped)
    np.testing.assert_allclose(wrapped.predict(X_test), from_model(model).predict(X_test, "<"))
    with pytest.raises(AttributeError):
        _ = wrapped.classes_


def test_conditioned_model_survives_clone_and_scores_in_cross_validation(lattice):
    from sklearn.model_selection import cross_val_score

    X, X_test = lattice
    y = h.target(X, "binary")
    model = _fit(h.lightgbm_model("binary"), X, "binary")
    wrapped = ConditionedModel(model, conditioning="<")
    cloned = clone(wrapped)
    assert cloned is not wrapped and cloned.model is model  # the fitted model is kept
    np.testing.assert_array_equal(cloned.predict(X_test), wrapped.predict(X_test))
    expected = float(np.mean(wrapped.predict(X) == y))
    assert wrapped.score(X, y) == pytest.approx(expected)
    scores = cross_val_score(wrapped, X, y, cv=3)  # no scoring= needed
    folds = np.array_split(np.arange(len(X)), 3)
    assert scores == pytest.approx([wrapped.score(X[f], y[f]) for f in folds])
    regressor = ConditionedModel(_fit(h.xgboost_model("regression"), X, "regression"))
    from sklearn.metrics import r2_score

    target = h.target(X, "regression")
    assert regressor.score(X, target) == pytest.approx(r2_score(target, regressor.predict(X)))


@pytest.mark.parametrize("library", ["xgboost", "lightgbm", "catboost", "sklearn"])
def test_an_unfitted_model_is_refused_in_words(library):
    unfitted = (h.sklearn_models("binary")[1][1] if library == "sklearn"
                else getattr(h, f"{library}_model")("binary"))  # fmt: skip
    wrapped = ConditionedModel(unfitted)
    with pytest.raises(ModelFileError, match="not fitted"):
        wrapped.predict(np.zeros((2, 4)))
    assert not wrapped.__sklearn_is_fitted__()
    with pytest.raises(ModelFileError, match="not fitted"):
        wrapped.fit()


# Checks of a meta-estimator around a fitted model that do not apply: fit learns nothing, so
# n_features_in_ is the wrapped model's, whatever rows fit is shown.
EXPECTED_FAILED = {
    "check_n_features_in_after_fitting": "a prefit model keeps its own n_features_in_",
}
# Checks beyond scikit-learn's API checks that apply to a wrapper of a fitted model: they
# predict on rows of the model's width, or check parameters and pickling.
META_CHECKS = ("check_estimators_pickle", "check_get_params_invariance", "check_set_params",
               "check_dict_unchanged", "check_fit_check_is_fitted", "check_pipeline_consistency",
               "check_methods_sample_order_invariance", "check_methods_subset_invariance",
               "check_fit2d_predict1d", "check_parameters_default_constructible")  # fmt: skip


def test_conditioned_model_passes_the_estimator_checks_of_a_meta_estimator():
    import warnings

    from sklearn.utils.estimator_checks import estimator_checks_generator

    rng = np.random.default_rng(0)
    X = rng.normal(size=(200, 3))
    model = h.xgboost_model("binary").fit(X, (X[:, 0] > 0).astype(int))
    ran = set()
    generated = estimator_checks_generator(
        ConditionedModel(model), legacy=True, expected_failed_checks=EXPECTED_FAILED, mark="skip"
    )
    for estimator, check in generated:  # fmt: skip
        name = getattr(check, "func", check).__name__
        api = name in {getattr(c, "func", c).__name__ for _, c in estimator_checks_generator(
            ConditionedModel(model), legacy=False, mark="skip")}  # fmt: skip
        if name in EXPECTED_FAILED or not (api or name in META_CHECKS):
            continue
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            check(estimator)
        ran.add(name)
    assert set(META_CHECKS) <= ran and "check_estimators_fit_returns_self" in ran
