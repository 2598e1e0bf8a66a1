"""Source 000's threshold test for many thresholds equals its test for one (issue 34, item 9).

The many-threshold test skips, by a binary search, thresholds with no observed value within
1e-8 (their rounded distances hold no 0); the thresholds tried here sit on values, between
them, and off them by amounts around the rounding's edge (5e-9), so a wrong skip shows.
"""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from trees.conditioning import THRESHOLD_TESTS

_PREPARE, _ONE, _MANY = THRESHOLD_TESTS["paper"]
_OFFSETS = [0.0, 1e-9, 4.9e-9, 5e-9, 5.1e-9, 9.9e-9, 1e-8, 1.01e-8, 3e-8, 1e-4]


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    n_values=st.integers(1, 60),
    spacing=st.sampled_from([1.0, 0.1, 0.25, 1e-7]),
)
def test_many_thresholds_are_judged_as_each_alone(seed, n_values, spacing):
    rng = np.random.default_rng(seed)
    column = spacing * rng.integers(0, 2 * n_values, size=n_values)  # a lattice with gaps
    column = np.concatenate([column, rng.normal(size=n_values // 3)])  # and continuous values
    values = _PREPARE(column)
    on_values = rng.choice(values, size=min(12, values.shape[0]))
    offsets = rng.choice(_OFFSETS, size=on_values.shape[0]) * rng.choice(
        [-1, 1], size=on_values.shape[0]
    )
    midpoints = (values[:-1] + values[1:]) / 2
    thresholds = np.concatenate([on_values + offsets, midpoints[:12], on_values])
    expected = np.array([_ONE(t, values) for t in thresholds], dtype=bool)
    np.testing.assert_array_equal(_MANY(thresholds, values), expected)


def test_a_lattice_threshold_is_found_and_a_continuous_midpoint_is_not():
    values = _PREPARE(np.array([0.0, 1.0, 2.0, 3.5, 7.25]))
    thresholds = np.array([1.0, 2.0, 0.5, 1.0 + 4e-9, 1.0 + 2e-8, 5.375])
    # 1 is observed and the midpoint of 0 and 2 (4e-9 off it rounds onto it, 2e-8 does not);
    # 2 is observed but no two values are equally far from it; 0.5 and 5.375 are not observed.
    expected = [True, False, False, True, False, False]
    assert _MANY(thresholds, values).tolist() == expected
    assert [_ONE(t, values) for t in thresholds] == expected


def test_no_values_means_no_threshold_on_the_lattice():
    assert _MANY(np.array([0.5, 1.0]), np.array([])).tolist() == [False, False]
