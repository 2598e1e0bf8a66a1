"""scikit-learn's error types and sentences where its own tests match them, with the lab's
advice after them."""

import numpy as np
import pytest

from trees import DecisionTreeClassifier, DecisionTreeRegressor, RandomForestRegressor

X = np.arange(12.0).reshape(6, 2)


@pytest.mark.parametrize("model", [DecisionTreeRegressor, RandomForestRegressor])
@pytest.mark.parametrize(
    ("y", "sentence", "advice"),
    [
        (
            [1, 0, -0.5, 2, 3, 1],
            "Some value(s) of y are negative which is not allowed for Poisson regression",
            "models counts or rates",
        ),
        (
            [0, 0, 0, 0, 0, 0],
            "Sum of y is not strictly positive which is necessary for Poisson regression",
            "the sum of y is not positive (every target is 0)",
        ),
    ],
)
def test_poisson_targets_are_refused_in_scikit_learns_words_and_ours(model, y, sentence, advice):
    with pytest.raises(ValueError) as refused:
        model(criterion="poisson").fit(X, y)
    message = str(refused.value)
    assert message.startswith(sentence) and advice in message
    assert "Use criterion='squared_error'" in message


def test_a_poisson_target_is_refused_before_rows_and_targets_are_matched():
    """scikit-learn's regressor checks a Poisson target first (its test_error fits one row with
    three targets); a target that is fine leaves the mismatch to the validation."""
    with pytest.raises(ValueError, match="Sum of y is not strictly positive"):
        DecisionTreeRegressor(criterion="poisson").fit([[0, 1, 2]], [0, 0, 0])
    with pytest.raises(ValueError, match="Some value.s. of y are negative"):
        DecisionTreeRegressor(criterion="poisson").fit([[0, 1, 2]], [5, -0.1, 2])
    with pytest.raises(ValueError, match="inconsistent numbers of samples"):
        DecisionTreeRegressor(criterion="poisson").fit([[0, 1, 2]], [5, 0.1, 2])
    with pytest.raises(ValueError, match="Input y contains NaN"):
        DecisionTreeRegressor(criterion="poisson").fit(X, [1, np.nan, 2, 3, 4, 5])


@pytest.mark.parametrize("model", [DecisionTreeClassifier, DecisionTreeRegressor])
def test_a_count_of_rows_is_refused_in_scikit_learns_words(model):
    with pytest.raises(ValueError) as refused:
        model(min_samples_split=1).fit(X, [0, 1, 0, 1, 0, 1])
    assert str(refused.value) == (
        "The 'min_samples_split' parameter must be an int in the range [2, inf) or a float in "
        "the range (0.0, 1.0]. Got 1 instead."
    )
    model(min_samples_split=1.0).fit(X, [0, 1, 0, 1, 0, 1])  # a float 1.0 is every row


def test_a_zero_dimensional_sample_weight_is_a_type_error_a_number_weighs_every_row():
    y = [0, 1, 0, 1, 0, 1]
    with pytest.raises(TypeError, match=r"got scalar `array\(0\.\)` instead\. Give sample_weight"):
        DecisionTreeClassifier().fit(X, y, sample_weight=np.array(0))
    weighed = DecisionTreeClassifier().fit(X, y, sample_weight=2.0)
    assert weighed.tree_.weighted_n_samples[0] == 12.0
