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
