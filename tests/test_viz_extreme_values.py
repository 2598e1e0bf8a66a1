"""Numbers at the edge of scale (issue item 5): tick labels and figures of values near 1e20 or 1e-11.

``viz.margins`` foresees the tick labels plotly.js prints to size a figure's
margins; a column of values near 1e20 (or 1e-11) once made it raise, and every
figure of the Data, Grow and Conditioning pages with that column showed the
error box. The labels are checked over any finite values (Hypothesis, from
1e-300 to 1e300, either sign, all equal), and the pages' figures are built from
such a dataset and sized as ``ui.figures.chart`` sizes them.
"""

import re
from decimal import Decimal

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from datasets import Dataset
from trees import DecisionTreeClassifier, DecisionTreeRegressor, TreeGrower
from trees.inspection import feature_importances
from viz.conditioning import held_values, surfaces_figure, thresholds_by_feature
from viz.curves import score_curve_figure, step_scores_figure
from viz.data_figures import scatter_figure, target_figure
from viz.margins import _tick_labels, reserve_margins
from viz.node_views import importance_figure, node_distribution_figure
from viz.partition import partition_figure
from viz.tables import candidates_table

# A label: a plain number, or a number with an SI prefix ("20k", "2p"; "B" for 10^9) or a
# power of ten ("2×10²⁰"), as plotly.js's default "B" exponent format prints them.
_LABEL = re.compile(r"^(-?\d+(?:\.\d+)?)(?:([fpnμmkMBT])|×10([⁻⁰¹²³⁴⁵⁶⁷⁸⁹]+))?$")
_PREFIX_POWERS = {"f": -15, "p": -12, "n": -9, "μ": -6, "m": -3, "k": 3, "M": 6, "B": 9, "T": 12}
_FROM_SUPERSCRIPT = str.maketrans("⁻⁰¹²³⁴⁵⁶⁷⁸⁹", "-0123456789")


def _read(label):
    """The number a tick label stands for, exactly (a Decimal: no overflow at 1e308)."""
    match = _LABEL.match(label)
    assert match, f"unreadable label {label!r}"
    mantissa, prefix, power = match.groups()
    if prefix:
        return Decimal(mantissa).scaleb(_PREFIX_POWERS[prefix])
    if power:
        return Decimal(mantissa).scaleb(int(power.translate(_FROM_SUPERSCRIPT)))
    return Decimal(mantissa)


def _check_labels(values):
    """The properties every set of labels has; returns the labels."""
    labels = _tick_labels(values)
    assert all(isinstance(label, str) and label for label in labels)
    assert not any(word in label.lower() for label in labels for word in ("inf", "nan"))
    assert all(len(label) <= 32 for label in labels), labels  # readable: no runaway digits
    numbers = [_read(label) for label in labels]
    low, high = Decimal(float(np.min(values))), Decimal(float(np.max(values)))
    if low == high:
        # One label, the value to six significant digits.
        assert len(labels) == 1
        assert abs(numbers[0] - low) <= abs(low) * Decimal("5e-6")
        return labels
    # About eight steps to the padded range: four to nine ticks, all distinct and evenly spaced,
    # each step as printed (the precision shown tells every tick apart) ...
    assert 4 <= len(labels) <= 9, labels
    assert len(set(labels)) == len(labels)
    steps = {b - a for a, b in zip(numbers, numbers[1:], strict=False)}
    assert len(steps) == 1 and min(steps) > 0, labels
    # ... and covering the values: none more than a step beyond the first or last tick.
    step = steps.pop()
    assert numbers[0] - step <= low and high <= numbers[-1] + step, (labels, low, high)
    return labels


def _numbers(low=-1e300, high=1e300):
    return st.floats(min_value=low, max_value=high, allow_nan=False, allow_infinity=False)


def _near(center, relative_width):
    """A value within ``relative_width`` of ``center`` (a range that is narrow for its size)."""
    return st.floats(0.0, 1.0).map(lambda u: center * (1.0 + relative_width * u))


@st.composite
def _scaled_values(draw):
    """A few values at one scale from 1e-300 to 1e300, either sign, possibly all equal."""
    scale = 10.0 ** draw(st.integers(-300, 300))
    width = 10.0 ** draw(st.integers(-15, 3))  # relative: from a few float steps to wide
    center = draw(st.floats(-9.9, 9.9, allow_nan=False)) * scale
    return draw(st.lists(_near(center, width), min_size=1, max_size=8))


_SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@_SETTINGS
@given(st.lists(_numbers(), min_size=1, max_size=12))
def test_any_finite_values_get_readable_distinct_labels(values):
    _check_labels(np.array(values))


@_SETTINGS
@given(_scaled_values())
def test_values_at_any_scale_get_readable_distinct_labels(values):
    _check_labels(np.array(values))


@_SETTINGS
@given(_numbers(), st.integers(1, 5))
def test_values_all_equal_get_one_label(value, count):
    _check_labels(np.full(count, value))


@_SETTINGS
@given(_numbers(0.0, 1e300), _numbers(0.0, 1e300))
def test_mixed_signs_get_a_zero_tick_between_them(negative, positive):
    values = np.array([-negative, positive])
    labels = _check_labels(values)
    if negative and positive and min(negative, positive) > 0.2 * max(negative, positive):
        assert "0" in labels  # plotly.js's ticks are multiples of the step: zero among them


@pytest.mark.parametrize(
    "values, expected",
    [
        ([0, 1e-11], ["0", "2p", "4p", "6p", "8p", "10p"]),
        ([0, 1e20], ["0", "0.2×10²⁰", "0.4×10²⁰", "0.6×10²⁰", "0.8×10²⁰", "1×10²⁰"]),
        ([-1e-11, 0], ["-10p", "-8p", "-6p", "-4p", "-2p", "0"]),
        ([0, 1], ["0", "0.2", "0.4", "0.6", "0.8", "1"]),
        ([0.1, 0.3], ["0.1", "0.15", "0.2", "0.25", "0.3"]),
        ([0, 12345], ["0", "2k", "4k", "6k", "8k", "10k", "12k"]),
        ([-2.5e9, 1e9], ["-2.5B", "-2B", "-1.5B", "-1B", "-0.5B", "0", "0.5B", "1B"]),
        ([0, 5e-324], ["0", "1×10⁻³²⁴", "2×10⁻³²⁴", "3×10⁻³²⁴", "4×10⁻³²⁴", "5×10⁻³²⁴"]),
        ([-1.7976931348623157e308, 1.7976931348623157e308], ["-2×10³⁰⁸", "-1×10³⁰⁸", "0",
                                                             "1×10³⁰⁸", "2×10³⁰⁸"]),
        ([1e-11] * 3, ["10p"]),
        ([5.5, 5.5], ["5.5"]),
        ([-0.0], ["0"]),
        ([np.inf, np.nan], []),
        ([np.inf, 3.0, np.nan], ["3"]),
    ],
)  # fmt: skip
def test_labels_as_plotly_prints_them(values, expected):
    assert _tick_labels(values) == expected


def test_one_ulp_apart_near_1e20_the_labels_keep_every_digit():
    labels = _check_labels(np.array([1e20, np.nextafter(1e20, np.inf)]))
    # 16384 apart at 1e20: ticks every 2500, each printed to its last digit, none alike.
    assert labels[:2] == ["1×10²⁰", "1.000000000000000025×10²⁰"]


# ------------------------------------------------------------ the pages' figures
def _extreme_dataset(task):
    """60 rows: a feature near 1e20 and one near 1e-11 (ten distinct values each)."""
    rng = np.random.default_rng(0)
    big = 1e20 * (1 + rng.integers(0, 10, 60) / 10)
    tiny = 1e-11 * (1 + rng.integers(0, 10, 60) / 10)
    X = pd.DataFrame({"big": big, "tiny": tiny})
    y = (big > 1.5e20).astype(int) if task == "classification" else 1e20 * tiny / 1e-11
    return Dataset("extreme", X, pd.Series(y, name="target"), task)


def _sized(figure):
    """``figure`` with its margins foreseen, as ``ui.figures.chart`` draws every figure."""
    if isinstance(figure, tuple):  # (figure, count) of scatter_figure and surfaces_figure
        figure = figure[0]
    margin = reserve_margins(figure).layout.margin
    assert all(np.isfinite(getattr(margin, side)) for side in "lbr")
    return figure


def _predictor(model, op):
    """The model's predictions under the test ``op``, as the surfaces figure asks for them."""
    if isinstance(model, DecisionTreeClassifier):
        return lambda rows: model.predict_proba(rows, op)
    return lambda rows: model.predict(rows, op)


def _pages_figures(data):
    """Every figure of the Data, Grow and Conditioning pages that plots the dataset's columns."""
    X, y = data.X.to_numpy(), data.y.to_numpy()
    classification = data.task == "classification"
    names = list(data.X.columns)
    grower = TreeGrower(X, y if classification else y.astype(float), feature_names=names)
    model = (DecisionTreeClassifier if classification else DecisionTreeRegressor)(max_depth=3)
    model.fit(X, y)
    thresholds = thresholds_by_feature([model.tree_])
    predictions = {op: _predictor(model, op) for op in ("<=", "<")}
    figures = {
        "data: target": target_figure(data),
        "data: scatter": scatter_figure(data, "big", "tiny"),
        "data: scatter, jittered": scatter_figure(data, "tiny", "big", jitter=True),
        "grow: scores": step_scores_figure([0.5, 0.6], [0.5, 0.55], "score"),
        "grow: importances": importance_figure(feature_importances(model.tree_, X, y)),
        "grow: partition": partition_figure(
            model.tree_, X, y, 0, 1, names, ["0", "1"] if classification else None
        ),
        "conditioning: surfaces": surfaces_figure(
            predictions, X, y, 0, 1, names, class_index=1 if classification else None,
            thresholds=thresholds, fixed=held_values(X, thresholds, (0, 1)),
        ),
    }  # fmt: skip
    for j, name in enumerate(names):
        figures[f"grow: score curve of {name}"] = score_curve_figure(grower.score_curve(0, j), name)
        figures[f"grow: distribution of {name}"] = node_distribution_figure(
            X[:, j], y, name, is_classifier=classification,
            classes=[0, 1] if classification else None,
            class_names=["0", "1"] if classification else None,
            threshold=float(np.median(X[:, j])),
        )  # fmt: skip
    return figures, grower


@pytest.mark.parametrize("task", ["classification", "regression"])
def test_the_pages_figures_of_values_near_1e20_and_1e_11_are_drawn(task):
    data = _extreme_dataset(task)
    figures, grower = _pages_figures(data)
    for name, figure in figures.items():
        try:
            _sized(figure)
        except Exception as error:  # name the figure that broke
            raise AssertionError(f"{name}: {error!r}") from error
    table = candidates_table(grower.candidates(0), task == "classification", ["0", "1"])
    assert "e+20" in table.loc[0, "best split"]
