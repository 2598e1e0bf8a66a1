"""Criteria against hand computation, proxies against scores, and the compiled formulas
against the numpy reference (``tests/criterion_reference.py``)."""

import numpy as np
import pytest

from tests import criterion_reference as reference
from trees.tree import CRITERIA_CLF, CRITERIA_REG, REPORT_CRITERIA

# Parent: 4 of class 0, 2 of class 1. Left child: 3 / 0, right: 1 / 2.
PARENT = np.array([[4.0], [2.0]])
LEFT = np.array([[3.0], [0.0]])
RIGHT = np.array([[1.0], [2.0]])


def test_gini_by_hand():
    gini = CRITERIA_CLF["gini"]()
    assert gini.impurity(PARENT)[0] == pytest.approx(1 - (4 / 6) ** 2 - (2 / 6) ** 2)
    right_impurity = 1 - (1 / 3) ** 2 - (2 / 3) ** 2
    expected = gini.impurity(PARENT)[0] - 3 / 6 * 0.0 - 3 / 6 * right_impurity
    assert gini.score(LEFT, PARENT)[0] == pytest.approx(expected)


def test_entropy_by_hand():
    entropy = CRITERIA_CLF["entropy"]()
    h = lambda p: -sum(q * np.log2(q) for q in p if q > 0)  # noqa: E731
    expected = h([4 / 6, 2 / 6]) - 0.5 * h([1.0]) - 0.5 * h([1 / 3, 2 / 3])
    assert entropy.score(LEFT, PARENT)[0] == pytest.approx(expected)


def test_misclassification_by_hand():
    mis = CRITERIA_CLF["misclassification"]()
    assert mis.impurity(PARENT)[0] == pytest.approx(2 / 6)
    # children misclassify 0 and 1 row: gain = 2/6 - 1/6.
    assert mis.score(LEFT, PARENT)[0] == pytest.approx(1 / 6)


def test_chi_square_matches_scipy():
    from scipy.stats import chi2_contingency

    table = np.hstack([LEFT, RIGHT]).T  # rows: children, columns: classes
    expected = chi2_contingency(table, correction=False)[0]
    assert CRITERIA_CLF["chi2"]().score(LEFT, PARENT)[0] == pytest.approx(expected)


def test_squared_error_by_hand():
    y = np.array([1.0, 2.0, 3.0, 10.0])
    w = np.ones(4)
    crit = CRITERIA_REG["squared_error"]()
    stats = crit.row_statistics(y, w)
    left, parent = stats[:, :2].sum(axis=1), stats.sum(axis=1)
    assert crit.impurity(parent) == pytest.approx(np.var(y))
    expected = np.var(y) - 0.5 * np.var(y[:2]) - 0.5 * np.var(y[2:])
    assert crit.score(left, parent) == pytest.approx(expected)
    assert crit.value(parent)[0] == pytest.approx(y.mean())


@pytest.mark.parametrize("name", sorted(CRITERIA_CLF))
def test_proxy_orders_candidates_as_the_score(name):
    rng = np.random.default_rng(0)
    crit = CRITERIA_CLF[name]()
    parent = np.array([[30.0], [20.0], [10.0]])
    left = np.floor(rng.random((3, 200)) * parent)
    right = parent - left
    left, right = left[:, left.sum(axis=0) > 0], right[:, left.sum(axis=0) > 0]
    keep = right.sum(axis=0) > 0
    left, right = left[:, keep], right[:, keep]
    proxy = crit.proxy(left, parent)
    score = crit.score(left, parent)
    np.testing.assert_allclose(crit.score_from_proxy(proxy, parent), score, atol=1e-12)
    assert np.argmax(proxy) == np.argmax(score)


@pytest.mark.parametrize("name", sorted(CRITERIA_CLF))
def test_pure_split_gains_the_parent_impurity(name):
    crit = CRITERIA_CLF[name]()
    parent = np.array([[5.0], [5.0]])
    left = np.array([[5.0], [0.0]])  # the right child (0, 5)
    if name == "chi2":
        assert crit.score(left, parent)[0] == pytest.approx(10.0)
    else:
        assert crit.score(left, parent)[0] == pytest.approx(crit.impurity(parent)[0])


def _candidates(name, rng):
    """Parents and left children of 60 candidates under ``name``'s statistics (some children
    empty), statistics along the first axis."""
    if name in CRITERIA_REG:
        y = rng.poisson(3.0, size=(60, 12)).astype(float)
        w = rng.integers(0, 3, size=(60, 12)).astype(float)
        third = y * y if name != "poisson" else np.where(y > 0, y * np.log(np.maximum(y, 1)), 0)
        rows = np.stack([w, w * y, w * third])  # (3, 60, 12)
        n_left = rng.integers(0, 13, size=60)
        taken = np.arange(12)[None, :] < n_left[:, None]
        return rows.sum(axis=2), (rows * taken).sum(axis=2)
    n_classes = 2 + rng.integers(0, 4)
    parent = rng.integers(0, 12, size=(n_classes, 60)).astype(float)
    left = np.floor(rng.random(parent.shape) * (parent + 1))
    return parent, left


@pytest.mark.parametrize("name", sorted({**CRITERIA_CLF, **CRITERIA_REG, **REPORT_CRITERIA}))
def test_compiled_formulas_equal_the_numpy_reference(name):
    """The compiled formulas (``_kernels_criteria``, called here through the criterion's
    loops) compute each impurity, proxy and score as the readable numpy reference does, to
    the bit: the same operations in the same order."""
    crit = {**CRITERIA_CLF, **CRITERIA_REG, **REPORT_CRITERIA}[name]()
    parent, left = _candidates(name, np.random.default_rng(len(name)))
    np.testing.assert_array_equal(crit.impurity(parent), reference.impurity(name, parent))
    np.testing.assert_array_equal(crit.proxy(left, parent), reference.proxy(name, left, parent))
    np.testing.assert_array_equal(crit.score(left, parent), reference.score(name, left, parent))
    one = crit.score(left[:, 7], parent[:, 7])  # one candidate: a number, as numpy's
    assert np.ndim(one) == 0 and one == reference.score(name, left, parent)[7]
