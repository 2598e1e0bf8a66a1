"""Lattice features and rho (source 000, section 4 and Table 2)."""

import numpy as np
import pytest

from trees import DecisionTreeClassifier, Tree, lattice_features, lattice_split_share

LOAN_X = np.array(
    [[0, 80, 1], [0, 60, 3], [0, 80, 1], [1, 50, 2], [1, 50, 4], [1, 70, 4]], dtype=float
)
LOAN_Y = np.array([1, 1, 0, 0, 1, 0])


def test_lattice_features_by_hand():
    X = np.column_stack(
        [
            [0, 1, 0, 1],  # two values: no middle value
            [1, 2, 3, 3],  # 2 is the midpoint of 1 and 3
            [0.1, 0.7, 1.9, 5.0],  # no midpoint
            [0.1, 0.2, 0.3, 0.3],  # 0.2 is the midpoint within floating-point tolerance
        ]
    )
    np.testing.assert_array_equal(lattice_features(X), [False, True, False, True])


def test_lattice_needs_a_middle_value_not_just_spacing():
    # 1, 2, 4, 8: no value has two others at equal distance.
    assert not lattice_features(np.array([[1.0], [2.0], [4.0], [8.0]]))[0]


def test_lattice_features_of_the_loan_table():
    np.testing.assert_array_equal(lattice_features(LOAN_X), [False, True, True])


def test_continuous_columns_are_not_lattice_and_large_columns_are_fast():
    rng = np.random.default_rng(0)
    X = np.column_stack([rng.random(20_000), rng.integers(0, 100, 20_000)])
    np.testing.assert_array_equal(lattice_features(X), [False, True])


def test_nan_values_are_ignored():
    X = np.array([[1.0], [np.nan], [2.0], [3.0]])
    assert lattice_features(X)[0]


def test_rho_on_the_loan_table():
    """Income thresholds 70 and 60 and dependents 3 lie on observed lattice values."""
    tree = DecisionTreeClassifier().fit(LOAN_X, LOAN_Y).tree_
    share, on_lattice, internal = lattice_split_share(tree, LOAN_X)
    assert (on_lattice, internal) == (3, 4)
    assert share == pytest.approx(0.75)


def test_rho_of_a_single_leaf_is_zero():
    leaf = Tree([-1], [np.nan], [-1], [-1], [[1.0]], [3], [3.0], [0.0], [0], False, 1)
    assert lattice_split_share(leaf, np.zeros((3, 1))) == (0.0, 0, 0)


def test_rho_counts_only_observed_midpoints():
    X = np.array([[1.0], [2.0], [3.0], [10.0]])
    tree = Tree(
        feature=[0, 0, -1, -1, -1],
        threshold=[2.0, 6.5, np.nan, np.nan, np.nan],
        left=[1, -1, -1, -1, -1][:1] + [2, -1, -1, -1],
        right=[4, 3, -1, -1, -1],
        value=np.ones((5, 1)),
        n_samples=np.ones(5),
        weighted_n_samples=np.ones(5),
        impurity=np.zeros(5),
        depth=[0, 1, 2, 2, 1],
        is_classifier=False,
        n_features=1,
    )
    # 2.0 is observed and the midpoint of 1 and 3; 6.5 is not observed.
    assert lattice_split_share(tree, X) == (0.5, 1, 2)


# ------------------------------------------------- the rule at every scale (issue 61, item 3)
def _definition(values):
    """Source 000's definition in exact arithmetic: some observed ``v`` and ``r > 0`` with
    ``v - r`` and ``v + r`` observed, i.e. two values whose mean is a third one."""
    from fractions import Fraction

    exact = sorted({Fraction(v) for v in values})
    present = set(exact)
    return any(
        (a + b) / 2 in present for i, a in enumerate(exact) for b in exact[i + 2 :]
    )  # b two places on at least: a value strictly between them


def _columns(rng):
    """(name, exact values, float column) of lattice and continuous columns, in their units."""
    from fractions import Fraction

    steps = rng.integers(0, 20, 300)
    tenths = rng.integers(0, 50, 300)
    uniform = rng.uniform(0.0, 1.0, 300)
    return [
        ("integers", [Fraction(int(k)) for k in steps], steps.astype(float)),
        ("tenths", [Fraction(int(k), 10) for k in tenths], tenths / 10),
        ("uniform", [Fraction(v) for v in uniform], uniform),
        ("doubling", [Fraction(2**k) for k in range(12)], 2.0 ** np.arange(12)),
    ]


@pytest.mark.parametrize("exponent", range(-12, 13))
def test_the_lattice_rule_does_not_change_with_the_unit(exponent):
    """A column multiplied by a power of ten (micrometres for metres, and so on) is a lattice
    feature exactly when source 000's definition says its values are; it answered True for
    continuous columns in units of 1e-6 and below."""
    rng = np.random.default_rng(7)
    for name, exact, column in _columns(rng):
        scaled = column * 10.0**exponent
        expected = _definition(exact)
        assert lattice_features(scaled[:, None])[0] == expected, (name, exponent)
    assert [_definition(exact) for _, exact, _ in _columns(rng)] == [True, True, False, False]


def test_values_that_differ_in_their_last_digits_are_one_value():
    """Decimal data written by different tools: 0.30000000000000004 and 0.3 are one value,
    so three readings of two values are no lattice, at any scale."""
    for scale in (1e-9, 1.0, 1e9):
        column = np.array([0.1, 0.1 + 0.2, 0.3]) * scale
        assert not lattice_features(column[:, None])[0]
