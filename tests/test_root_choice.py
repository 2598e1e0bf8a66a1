"""The root-choice study (issue 34, item 12): which of a table's own columns takes the root,
by the Gini gain and by the p-value (source 001), against their distinct values; and its figure."""

import numpy as np
import pytest

from tests.helpers import run_stopped_study
from trees import DecisionTreeClassifier
from trees.selection_bias import (
    ROOT_RULES,
    many_valued_shares,
    resample_size,
    root_choice_study,
)
from viz.split_bias import root_choice_figure

LABELS = {"gini": "largest Gini gain", "p_value": "smallest p-value"}


def _binary_against_noise(rows=400, agree=0.56, seed=7):
    """An informative binary column (the class equals it on ``agree`` of the rows) beside a
    column of pure noise with a distinct value on every row."""
    rng = np.random.default_rng(seed)
    informative = rng.integers(0, 2, rows)
    y = np.where(rng.random(rows) < agree, informative, 1 - informative)
    return np.column_stack([informative, rng.random(rows)]), y


def test_a_many_valued_noise_column_wins_under_gini_but_not_under_the_p_value():
    X, y = _binary_against_noise()
    result = root_choice_study(X, y, n_refits=100, n_permutations=99, seed=0)
    assert list(result["distinct"]) == [2, 400]
    gini, p_value = result["shares"]["gini"], result["shares"]["p_value"]
    assert gini[1] >= 0.75  # the noise column: 84 of 100 refits
    assert p_value[1] <= 0.2  # 12 of 100
    assert p_value[0] >= 0.8 and gini[0] <= 0.25
    assert result["refits"] == 100 and not result["cancelled"]
    assert all(result["no_root"][rule] == 0 for rule in ROOT_RULES)
    for rule in ROOT_RULES:
        assert result["counts"][rule].sum() == 100
        np.testing.assert_array_equal(np.bincount(result["roots"][rule], minlength=2),
                                      result["counts"][rule])  # fmt: skip
    summary = many_valued_shares(result)
    assert summary["threshold"] == 29  # ceil(sqrt(2 * 400))
    assert list(summary["many"]) == [False, True]
    assert summary["gini"] == gini[1] and summary["p_value"] == p_value[1]
    assert summary["gini_only"] > summary["p_value_only"] and summary["chance"] < 1e-6


def test_under_the_null_the_p_value_is_fair_and_the_gini_gain_is_not():
    """Neither column says anything: the p-value picks the continuous one about half the time,
    the Gini gain nearly always (source 001, section 3, for a binary split's best cut)."""
    wins = {rule: 0 for rule in ROOT_RULES}
    tables = 60
    for t in range(tables):
        rng = np.random.default_rng(1000 + t)
        X = np.column_stack([rng.integers(0, 2, 150), rng.random(150)])
        y = rng.integers(0, 2, 150)
        result = root_choice_study(X, y, n_refits=1, n_permutations=49, seed=t)
        for rule in ROOT_RULES:
            wins[rule] += int(result["roots"][rule][0] == 1)
    assert wins["gini"] >= 0.8 * tables
    assert 0.3 * tables <= wins["p_value"] <= 0.7 * tables


def test_the_gini_root_is_the_root_of_a_stump_fitted_on_the_refits_rows():
    rng = np.random.default_rng(3)
    X = np.column_stack([rng.normal(size=300), rng.integers(0, 4, 300), rng.random(300)])
    y = (X[:, 0] + 0.8 * X[:, 1] + rng.normal(scale=2.0, size=300) > 1).astype(int)
    result = root_choice_study(X, y, n_refits=8, n_permutations=19, seed=5)
    for r in range(8):  # the refit's rows, drawn as the study's docstring says
        rows = np.random.default_rng([5, r]).choice(300, resample_size(300), replace=False)
        stump = DecisionTreeClassifier(max_depth=1).fit(X[np.sort(rows)], y[np.sort(rows)])
        assert result["roots"]["gini"][r] == stump.tree_.feature[0]


def test_category_codes_are_judged_by_the_gamma_corrected_p_value_of_their_table():
    rng = np.random.default_rng(11)
    informative = rng.integers(0, 2, 300)
    y = np.where(rng.random(300) < 0.6, informative, 1 - informative)
    X = np.column_stack([informative, rng.integers(0, 12, 300)])  # 12 categories of noise
    result = root_choice_study(X, y, n_refits=40, n_permutations=19, categorical=[1], seed=0)
    assert result["shares"]["p_value"][0] >= 0.9
    assert result["shares"]["gini"][1] > result["shares"]["p_value"][1]


def test_refits_are_independent_tasks_and_the_seed_fixes_them():
    X, y = _binary_against_noise(rows=120)
    short = root_choice_study(X, y, n_refits=4, n_permutations=19, seed=2)
    long = root_choice_study(X, y, n_refits=8, n_permutations=19, seed=2)
    again = root_choice_study(X, y, n_refits=8, n_permutations=19, seed=2)
    for rule in ROOT_RULES:
        np.testing.assert_array_equal(long["roots"][rule][:4], short["roots"][rule])
        np.testing.assert_array_equal(long["roots"][rule], again["roots"][rule])


def test_each_refit_is_reported_and_a_stop_keeps_those_done():
    X, y = _binary_against_noise(rows=120)
    seen, result = run_stopped_study(
        root_choice_study, X, y, stop_after=3, n_refits=6, n_permutations=19
    )
    assert [(d, t) for d, t, _ in seen] == [(1, 6), (2, 6), (3, 6)]
    assert all(partial["cancelled"] and partial["refits"] == d for d, _, partial in seen)
    assert result["cancelled"] and result["refits"] == 3
    for rule in ROOT_RULES:
        np.testing.assert_array_equal(result["shares"][rule], seen[-1][2]["shares"][rule])
        assert result["counts"][rule].sum() == 3


def test_a_resample_with_one_class_has_no_root():
    X = np.arange(10, dtype=float)[:, None]
    y = np.array([1] + [0] * 9)  # a resample of 6 rows leaves the one 1 out 4 times in 10
    result = root_choice_study(X, y, n_refits=20, n_permutations=9, seed=0)
    for rule in ROOT_RULES:
        assert 0 < result["no_root"][rule] < 20
        assert result["counts"][rule].sum() + result["no_root"][rule] == 20
    np.testing.assert_array_equal(result["roots"]["gini"] < 0, result["roots"]["p_value"] < 0)


def test_the_resample_holds_the_share_of_distinct_rows_a_bootstrap_holds():
    assert resample_size(1000) == 632
    assert resample_size(2) == 2 and resample_size(3) == 2


@pytest.mark.parametrize(
    "X, y, options, message",
    [
        (np.ones(5), [0, 1, 0, 1, 0], {}, "2-D"),
        (np.ones((1, 2)), [0], {}, "2-D"),
        ([[0.0], [np.nan], [1.0]], [0, 1, 0], {}, "missing or infinite"),
        ([[0.0], [np.inf], [1.0]], [0, 1, 0], {}, "missing or infinite"),
        ([[0.0], [1.0], [2.0]], [0, 1], {}, "one label per row"),
        ([[0.0], [1.0], [2.0]], [1, 1, 1], {}, "single class"),
        ([[0.0], [1.0], [2.0]], [0, 1, 0], {"n_refits": 0}, "n_refits"),
        ([[0.0], [1.0], [2.0]], [0, 1, 0], {"n_refits": 2.5}, "n_refits"),
        ([[0.0], [1.0], [2.0]], [0, 1, 0], {"n_permutations": 1}, "at least 2"),
        ([[0.0], [1.0], [2.0]], [0, 1, 0], {"categorical": [3]}, "lacks"),
        ([[0.0], [1.5], [2.0]], [0, 1, 0], {"categorical": [0]}, "codes"),
        ([[0.0], [-1.0], [2.0]], [0, 1, 0], {"categorical": [0]}, "codes"),
    ],
)
def test_bad_input_is_refused_with_what_to_fix(X, y, options, message):
    with pytest.raises(ValueError, match=message):
        root_choice_study(X, y, **options)


def test_columns_too_alike_in_their_counts_are_not_split_into_many_and_few():
    X, y = _binary_against_noise(rows=60)
    result = root_choice_study(X, y, n_refits=3, n_permutations=9)
    result["distinct"] = np.array([40, 60])
    assert many_valued_shares(result) is None
    result["distinct"] = np.array([30, 60])
    assert many_valued_shares(result)["threshold"] == 43  # ceil(sqrt(30 * 60))


# ----------------------------------------------------------------- the figure
def _figure(names, distinct, gini, p_value):
    result = {
        "distinct": np.asarray(distinct),
        "shares": {"gini": np.asarray(gini, float), "p_value": np.asarray(p_value, float)},
    }
    return root_choice_figure(result, names, LABELS)


def _names(figure):
    return next(t for t in figure.data if t.mode == "markers+text")


def test_the_figure_has_a_log_axis_of_distinct_values_and_both_rules_shares():
    figure = _figure(["a", "b", "c"], [2, 40, 900], [0.1, 0.2, 0.7], [0.8, 0.2, 0.0])
    xaxis = figure.layout.xaxis
    assert xaxis.type == "log" and "distinct values" in xaxis.title.text
    assert list(xaxis.ticktext[:3]) == ["2", "5", "10"]  # every tick at full size
    assert figure.layout.yaxis.tickformat == ".0%"
    by_name = {t.name: t for t in figure.data}
    np.testing.assert_allclose(by_name[LABELS["gini"]].y, [0.1, 0.2, 0.7])
    np.testing.assert_allclose(by_name[LABELS["p_value"]].y, [0.8, 0.2, 0.0])
    names = _names(figure)
    assert list(names.text) == ["a", "c", "b"]  # by the higher share, all at least once root
    assert names.textfont.size >= 12


def test_column_names_are_plotly_text_cut_to_a_readable_length():
    long = "a column whose name goes on and on"
    figure = _figure(["<b>x</b>", long, "never"], [2, 5, 9], [0.5, 0.5, 0.0], [0.5, 0.5, 0.0])
    names = _names(figure)
    assert names.text[0] == "&lt;b&gt;x&lt;/b&gt;"
    assert len(names.text[1]) <= 22 and names.text[1].endswith("…")
    assert "never" not in names.text  # never the root: named on hover only
    hover = next(t for t in figure.data if t.name == LABELS["gini"]).customdata
    assert [row[0] for row in hover] == ["&lt;b&gt;x&lt;/b&gt;", long, "never"]


def test_names_are_placed_apart_from_each_other():
    """Two columns with the same count and the same share: their names take different places."""
    figure = _figure(["first", "second"], [10, 10], [0.5, 0.5], [0.4, 0.4])
    names = _names(figure)
    assert names.textposition[0] != names.textposition[1]
