"""The project's own check of sample weights (public APIs only)."""

import numpy as np
import pytest

from trees import DecisionTreeClassifier, RandomForestRegressor
from trees.tree._settings import check_sample_weight


def test_none_and_scalars_become_arrays():
    np.testing.assert_array_equal(check_sample_weight(None, 3), [1.0, 1.0, 1.0])
    np.testing.assert_array_equal(check_sample_weight(2, 2), [2.0, 2.0])


def test_the_callers_array_is_not_changed():
    weight = np.array([1.0, 2.0])
    checked = check_sample_weight(weight, 2)
    checked *= 5
    np.testing.assert_array_equal(weight, [1.0, 2.0])


@pytest.mark.parametrize(
    "weight, message",
    [
        ([1.0, 2.0], "one entry per row"),
        ([[1.0], [1.0], [1.0]], "one entry per row"),
        (["a", "b", "c"], "must hold numbers"),
        ([1.0, np.nan, 1.0], "NaN or infinite"),
        ([1.0, -1.0, 1.0], "non-negative"),
        ([0.0, 0.0, 0.0], "all zero"),
    ],
)
def test_bad_weights_are_refused_with_a_reason(weight, message):
    X, y = np.arange(3.0)[:, None], [0, 1, 0]
    with pytest.raises(ValueError, match=message):
        DecisionTreeClassifier().fit(X, y, sample_weight=weight)
    with pytest.raises(ValueError, match=message):
        RandomForestRegressor(n_estimators=2).fit(X, y, sample_weight=weight)
