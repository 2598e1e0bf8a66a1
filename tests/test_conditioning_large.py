"""The conditioning page on large data (issue 34, item 9): a sample of the rows drawn, the forest
grown a few trees at a time with progress, the same forest as a one-shot fit."""

import numpy as np
import pytest

from app_pages.conditioning import cache as cc
from lab.computations import Stopped
from trees.conditioning import fit_model


def _lattice(n=600, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 6, (n, 3)).astype(float)
    return X, (X.sum(axis=1) + rng.normal(0, 1.5, n) > 7).astype(int)


@pytest.mark.parametrize("engine", ["trees", "sklearn"])
def test_a_forest_grown_in_steps_is_the_forest_of_one_fit(engine):
    X, y = _lattice()
    params = {"n_estimators": 12, "min_samples_leaf": 2}
    one = fit_model(engine, "forest", "classification", params, cc.SEED, X, y)
    calls = []
    steps = cc.fit_in_steps(engine, "classification", params, X, y,
                            lambda done, total: calls.append((done, total)), step=5)  # fmt: skip
    assert calls == [(5, 12), (10, 12), (12, 12)]
    assert len(steps.trees) == 12 and not steps.estimator.warm_start
    for conditioning in ("<=", "<", "average", "half"):
        np.testing.assert_array_equal(one.predict(X, conditioning), steps.predict(X, conditioning))
    for a, b in zip(one.trees, steps.trees, strict=True):
        np.testing.assert_array_equal(a.threshold, b.threshold)


def test_the_background_forest_reports_each_step_and_its_view_equals_the_direct_one():
    X, y = _lattice(800)
    signature = cc.view_signature("test-large", "classification", "trees", "forest",
                                  {"n_estimators": 10, "min_samples_leaf": 1})  # fmt: skip
    seen = []
    inputs = cc.view_inputs(signature, X, y)
    view = cc.grow_forest_view(
        signature, inputs, lambda done, total: seen.append((done, total)), lambda: False
    )
    assert seen == [(5, 10), (10, 10)]  # two steps of 5 trees
    direct = cc.model_view(*signature, X, y)
    np.testing.assert_array_equal(view.report.prediction_differs, direct.report.prediction_differs)
    assert (view.on_lattice, view.internal) == (direct.on_lattice, direct.internal)


def test_the_background_forest_stops_between_two_steps():
    X, y = _lattice(800)
    signature = cc.view_signature("test-large-stop", "classification", "trees", "forest",
                                  {"n_estimators": 10, "min_samples_leaf": 1})  # fmt: skip
    seen = []
    with pytest.raises(Stopped):
        cc.grow_forest_view(signature, cc.view_inputs(signature, X, y),
                            lambda done, total: seen.append(done), lambda: True)  # fmt: skip
    assert seen == [5]  # the first step ended, the Stop was seen before the second


def test_the_rows_drawn_are_all_up_to_the_limit_then_a_fixed_sample():
    assert cc.shown_rows(cc.MAX_DOTS) is None
    sample = cc.shown_rows(70_000)
    assert sample.size == cc.MAX_DOTS == np.unique(sample).size
    assert sample.max() < 70_000 and np.all(np.diff(sample) > 0)
    np.testing.assert_array_equal(sample, cc.shown_rows(70_000))  # the same rows every time


def test_a_large_fit_is_one_that_takes_seconds():
    assert not cc.is_large_fit(100_000, "tree", ())
    assert cc.is_large_fit(100_000, "forest", (("n_estimators", 50),))
    assert not cc.is_large_fit(1_000, "forest", (("n_estimators", 50),))


@pytest.mark.parametrize("compact", [False, True])
def test_a_presenters_key_picture_is_one_row_of_the_two_tests_and_their_difference(compact):
    """A presenter's key picture is at most 400 px high: a 2 x 2 grid left its panels ~100 px
    high, so it shows <=, < and where they differ in one row, with the value's colour bar only
    (two bars' labels overlap in one short row); the legend stands on the bottom edge."""
    X, y = _lattice(300)
    params = {"max_depth": 4, "min_samples_leaf": 2}
    signature = cc.view_signature("test-compact", "classification", "trees", "tree", params)
    view = cc.model_view(*signature, X, y)
    figure, _, _, _ = cc.surfaces(
        signature, 0, 1, 1, "predicted y", ("a", "b", "c"), ("0", "1"), view, compact=compact
    )
    spec = figure.to_plotly_json()
    heatmaps = [t for t in spec["data"] if t["type"] == "heatmap"]
    bars = [t for t in heatmaps if t.get("showscale") is not False]
    domains = {tuple(spec["layout"][k]["domain"]) for k in spec["layout"] if k.startswith("yaxis")}
    assert len(heatmaps) == (3 if compact else 4)
    assert len(domains) == (1 if compact else 2)  # rows of panels
    assert len(bars) == (1 if compact else 2)
    assert spec["layout"]["legend"]["yref"] == "container"
