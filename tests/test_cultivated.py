"""Cultivated random forests (source 002): modules by hand, weight conservation, behaviour."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from sklearn.model_selection import cross_val_score
from sklearn.utils.estimator_checks import parametrize_with_checks

from datasets import generate
from trees import CultivatedForestClassifier, DecisionTreeClassifier
from trees.ensemble._cultivated import Decision, robust_neighbourhood


@parametrize_with_checks(
    [CultivatedForestClassifier(), CultivatedForestClassifier("option", max_depth=3)]
)
def test_sklearn_api_conformance(estimator, check):
    check(estimator)


def test_neighbourhood_takes_k_full_observations_each_side():
    values = np.arange(10.0)
    weights = np.ones(10)
    thresholds, phi = robust_neighbourhood(values, weights, center=5, k=2.5)
    # t0 = 5; left: 4 (1), 3 (1), 2 (0.5); right: 6 (1), 7 (1), 8 (0.5).
    np.testing.assert_array_equal(thresholds, [2, 3, 4, 5, 6, 7, 8])
    np.testing.assert_allclose(phi, [0.5, 1, 1, 1, 1, 1, 0.5])


def test_neighbourhood_with_fractional_and_grouped_weights():
    values = np.array([1.0, 2.0, 3.0, 4.0])
    weights = np.array([0.4, 2.0, 0.3, 0.6])
    thresholds, phi = robust_neighbourhood(values, weights, center=1, k=1.0)
    # left: 1.0 holds only 0.4 < k, so the side takes it fully; right: 3 (0.3) then 4 (0.7 of 0.6 -> 0.6).
    np.testing.assert_array_equal(thresholds, [1, 2, 3, 4])
    np.testing.assert_allclose(phi, [0.4, 2.0, 0.3, 0.6])
    thresholds, phi = robust_neighbourhood(values, np.array([3.0, 1.0, 3.0, 1.0]), center=1, k=1.5)
    np.testing.assert_allclose(phi, [1.5, 1.0, 1.5])  # border values keep the remainder of k


def test_gate_psi_by_hand():
    decision = Decision(0, np.array([2.0, 3.0, 4.0]), np.array([0.5, 1.0, 0.5]))
    # psi(x) = sum phi(t) I(x <= t) / sum phi
    np.testing.assert_allclose(
        decision.left_share(np.array([1.0, 2.0, 2.5, 3.0, 3.5, 4.0, 5.0])),
        [1.0, 1.0, 0.75, 0.75, 0.25, 0.25, 0.0],
    )
    flipped = Decision(0, np.array([3.0]), np.array([1.0]), flipped=True)
    np.testing.assert_allclose(flipped.left_share(np.array([2.0, 4.0])), [0.0, 1.0])


def test_a_sharp_split_module_on_tiny_data():
    X = np.array([[1.0], [2.0], [3.0], [4.0], [5.0], [6.0], [7.0], [8.0]])
    y = np.array([1, 1, 1, 1, 0, 0, 0, 0])
    model = CultivatedForestClassifier("option", min_node_weight=2).fit(X, y)
    root = model.modules_[0]
    assert root.kind == "split"
    decision = root.decisions[0]
    assert decision.thresholds.tolist() == [4.0]  # split points are observations: x <= 4
    assert decision.flipped  # the left side holds class 1: directed so the right has higher P(y=1)
    right = model.modules_[root.right]
    assert right.positive_share == 1.0


def test_robust_module_on_tiny_data_uses_k():
    X = np.arange(1.0, 17.0)[:, None]
    y = (X[:, 0] > 8).astype(int)
    model = CultivatedForestClassifier("split", k=2.0).fit(X, y)
    decision = model.modules_[0].decisions[0]
    np.testing.assert_array_equal(decision.thresholds, [6, 7, 8, 9, 10])
    np.testing.assert_allclose(decision.phi, [1, 1, 1, 1, 1])
    assert not decision.flipped
    proba = model.predict_proba(np.array([[8.0], [9.0]]))[:, 1]
    assert 0 < proba[0] < proba[1] < 1  # soft near the boundary


def test_option_module_collects_features_within_eta():
    rng = np.random.default_rng(0)
    x = rng.normal(size=400)
    X = np.column_stack(
        [x, x + rng.normal(0, 0.01, 400), rng.normal(size=400)]
    )  # two near-copies, one noise
    y = (x > 0).astype(int)
    root = CultivatedForestClassifier("option").fit(X, y).modules_[0]
    assert root.kind == "option"
    assert sorted(d.feature for d in root.decisions) == [0, 1]
    h = root.impurities
    assert h[2] > min(h.values()) + 0.3  # the noise feature is not an option


def test_refuses_more_than_two_classes():
    with pytest.raises(ValueError, match="defined for two classes"):
        CultivatedForestClassifier().fit(np.arange(9.0)[:, None], [0, 1, 2] * 3)


@settings(max_examples=25, deadline=None)
@given(
    X=arrays(np.int8, (60, 2), elements=st.integers(-5, 5)),
    y=arrays(np.int8, (60,), elements=st.integers(0, 1)),
    variant=st.sampled_from(["full", "split", "option", "shallow"]),
)
def test_weights_of_a_row_over_the_leaves_sum_to_one(X, y, variant):
    if len(np.unique(y)) < 2:
        y[0], y[1] = 0, 1
    model = CultivatedForestClassifier(variant).fit(X.astype(float), y)
    np.testing.assert_allclose(model.training_fractions_.sum(axis=0), 1.0)
    np.testing.assert_allclose(model.leaf_fractions(X.astype(float)).sum(axis=1), 1.0)
    np.testing.assert_allclose(
        model.leaf_fractions(X.astype(float)), model.training_fractions_.T, atol=1e-12
    )


def test_reliability_and_abstention():
    data = generate("CRF simulation", n_samples=300)
    X, y = data.arrays()
    model = CultivatedForestClassifier().fit(X, y)
    proba, spread = model.predict_with_reliability(X)
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)
    assert spread.min() >= 0 and spread.max() <= 0.25 + 1e-12
    labels, abstain = model.predict_abstain(X, threshold=np.quantile(spread, 0.8))
    assert 0.1 < abstain.mean() < 0.3
    kept_accuracy = np.mean(labels[~abstain] == y[~abstain])
    assert kept_accuracy >= np.mean(labels == y)


def test_crf_beats_cart_on_a_smooth_boundary():
    data = generate("CRF simulation", n_samples=300, seed=2)
    X, y = data.arrays()
    crf = cross_val_score(CultivatedForestClassifier(), X, y, scoring="roc_auc", cv=5).mean()
    cart = cross_val_score(
        DecisionTreeClassifier(min_samples_split=20), X, y, scoring="roc_auc", cv=5
    ).mean()
    assert crf > cart


def test_structure_is_exposed_for_drawing():
    data = generate("CRF simulation", n_samples=200)
    X, y = data.arrays()
    structure = CultivatedForestClassifier("shallow").fit(X, y).structure()
    assert structure[0]["depth"] == 0 and structure[0]["kind"] in ("option", "robust")
    for module in structure:
        for decision in module["decisions"]:
            assert np.isclose(sum(decision["phi"]), 1.0)
    assert max(m["depth"] for m in structure) <= 6
