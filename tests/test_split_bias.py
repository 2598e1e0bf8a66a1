"""Split-variable selection bias (source 001): formulas, p-values, the bias experiment."""

import numpy as np
import pytest
from scipy.stats import chi2_contingency, ks_2samp

from tests.helpers import run_stopped_study
from trees import DecisionTreeClassifier, TreeGrower, bias_experiment
from trees.selection_bias import (
    BIAS_CRITERIA,
    gamma_log_pvalue,
    gini_null_moments,
    permutation_pvalue,
    split_criteria,
)
from trees.studies._split_bias import _null_tables
from trees.tree._pvalues import log_gamma_sf
from trees.tree._pvalues import table_criteria as _criteria


@pytest.mark.parametrize(
    "row_totals, priors",
    [
        ([5, 10, 20, 15], [0.3, 0.7]),
        ([30, 30], [0.5, 0.5]),
        ([4] * 10, [0.1, 0.9]),
        ([8, 12, 20], [0.2, 0.3, 0.5]),
    ],
)
def test_null_moments_match_monte_carlo(row_totals, priors):
    rng = np.random.default_rng(0)
    tables = np.stack([rng.multinomial(n, priors, size=100_000) for n in row_totals], axis=1)
    gains = _criteria(tables)["gini_gain"]
    mean, variance = gini_null_moments(row_totals, priors)
    assert gains.mean() == pytest.approx(mean, rel=0.02)
    assert gains.var() == pytest.approx(variance, rel=0.05)


def test_null_mean_grows_with_the_number_of_values():
    """E = (n - 1) / N (1 - sum p^2): linear in n for a fixed N (eq. 19)."""
    means = np.array([gini_null_moments([60 // n] * n, [0.5, 0.5])[0] for n in (2, 3, 4, 6)])
    np.testing.assert_allclose(means, (np.array([2, 3, 4, 6]) - 1) / 60 * 0.5)


@pytest.mark.parametrize(
    "table",
    [[[10, 5], [3, 12], [7, 7]], [[20, 1], [2, 25]], [[4, 4, 2], [1, 6, 3], [5, 0, 9], [2, 2, 2]]],
)
def test_chi_square_and_g_square_match_scipy(table):
    values = split_criteria(table)
    chi2, p, df, _ = chi2_contingency(np.array(table), correction=False)
    assert values["chi2"] == pytest.approx(chi2) and values["df"] == df
    assert values["chi2_pvalue"] == pytest.approx(p, rel=1e-9)
    g2, p_g2, _, _ = chi2_contingency(np.array(table), correction=False, lambda_="log-likelihood")
    assert values["g2"] == pytest.approx(g2) and values["g2_pvalue"] == pytest.approx(
        p_g2, rel=1e-9
    )


def test_gini_information_and_ratio_by_hand():
    table = np.array([[3.0, 1.0], [0.0, 4.0]])
    values = split_criteria(table)
    gini_parent = 1 - (3 / 8) ** 2 - (5 / 8) ** 2
    gini_children = 0.5 * (1 - (3 / 4) ** 2 - (1 / 4) ** 2) + 0.5 * 0.0
    assert values["gini_gain"] == pytest.approx(gini_parent - gini_children)
    h = lambda p: -sum(q * np.log2(q) for q in p if q > 0)  # noqa: E731
    info = h([3 / 8, 5 / 8]) - 0.5 * h([3 / 4, 1 / 4])
    assert values["information_gain"] == pytest.approx(info)
    assert values["gain_ratio"] == pytest.approx(info / 1.0)


def test_gamma_pvalue_agrees_with_scipy_where_representable():
    from scipy.stats import gamma

    rows, priors = np.array([50, 50, 50]), np.array([0.4, 0.6])
    mean, variance = gini_null_moments(rows, priors)
    for gain in (0.001, 0.01, 0.05):
        expected = gamma.logsf(gain, a=mean**2 / variance, scale=variance / mean)
        assert gamma_log_pvalue(gain, rows, priors) == pytest.approx(expected, rel=1e-9)


def test_log_pvalues_do_not_underflow():
    table = [[50_000, 0], [0, 50_000]]
    values = split_criteria(table)
    assert (
        np.isfinite(values["gamma_gini_log_pvalue"]) and values["gamma_gini_log_pvalue"] < -10_000
    )
    assert np.isfinite(values["chi2_log_pvalue"]) and values["chi2_log_pvalue"] < -10_000
    assert values["gamma_gini_pvalue"] == 0.0  # the plain p-value underflows; its log does not
    weaker = split_criteria([[50_000, 1_000], [1_000, 50_000]])["gamma_gini_log_pvalue"]
    assert (
        values["gamma_gini_log_pvalue"] < weaker < 0
    )  # log p-values still rank strong dependencies


def test_log_gamma_sf_continues_the_exact_tail():
    from scipy.special import gammaincc

    a, x = 3.5, np.array([10.0, 100.0, 600.0])
    exact = np.log(gammaincc(a, x))
    np.testing.assert_allclose(log_gamma_sf(a, x), exact, rtol=1e-10)
    assert np.isfinite(log_gamma_sf(a, 5_000.0))


def test_degenerate_tables_have_no_information():
    values = split_criteria([[5, 0], [7, 0]])  # a single class
    assert (
        values["gini_gain"] == 0 and values["chi2_pvalue"] == 1 and values["gamma_gini_pvalue"] == 1
    )


def test_bad_tables_are_refused():
    with pytest.raises(ValueError, match="2-D"):
        split_criteria([1, 2, 3])
    with pytest.raises(ValueError, match="negative"):
        split_criteria([[1, -2], [3, 4]])


def test_bias_experiment_reproduces_the_papers_signs():
    """Gini gain favours the 10-valued predictor strongly; the corrections stay near 0."""
    result = bias_experiment(n1=10, n2=2, N=[200], p1=[0.3], trials=3_000, seed=1)
    bias = {name: values[0, 0] for name, values in result["bias"].items()}
    assert bias["gini gain"] > 1.3 and bias["information gain"] > 1.3
    assert 0.3 < bias["gain ratio"] < bias["gini gain"]
    assert abs(bias["Gamma-corrected Gini"]) < 0.15
    assert abs(bias["chi-square p-value"]) < 0.15


def test_bias_experiment_grid_is_reproducible_and_cancellable():
    kwargs = dict(N=[50, 100], p1=[0.5, 0.2], trials=500, seed=3, criteria=["gini gain"])
    a, b = bias_experiment(**kwargs), bias_experiment(**kwargs)
    np.testing.assert_array_equal(a["bias"]["gini gain"], b["bias"]["gini gain"])
    assert a["bias"]["gini gain"].shape == (2, 2)
    seen = []
    stopped = bias_experiment(
        **kwargs, progress=lambda d, t: seen.append(d), should_stop=lambda: len(seen) >= 2
    )
    assert stopped["cancelled"] and np.isnan(stopped["bias"]["gini gain"]).sum() == 2


def test_bias_experiment_in_threads_gives_the_same_numbers_and_stops():
    kwargs = dict(N=[30, 100, 300], p1=[0.5, 0.1], trials=400, seed=7)
    serial, threaded = bias_experiment(**kwargs), bias_experiment(**kwargs, n_jobs=2)
    for criterion in serial["bias"]:
        np.testing.assert_array_equal(serial["bias"][criterion], threaded["bias"][criterion])
    seen = []
    stopped = bias_experiment(
        **kwargs, n_jobs=2, progress=lambda d, t: seen.append(d), should_stop=lambda: len(seen) >= 4
    )
    assert seen == [1, 2, 3, 4]  # in the grid's order, whichever thread finished first
    assert stopped["cancelled"] and np.isnan(stopped["bias"]["gini gain"]).sum() == 2


def test_bias_experiment_refuses_bad_arguments():
    with pytest.raises(ValueError, match="Unknown criteria"):
        bias_experiment(criteria=["entropy"])
    with pytest.raises(ValueError, match="p1"):
        bias_experiment(p1=[1.5])
    assert set(BIAS_CRITERIA) >= {"gini gain", "Gamma-corrected Gini"}


def test_permutation_pvalue_separates_signal_from_noise():
    rng = np.random.default_rng(0)
    x = rng.random(200)
    informative = (x > 0.5).astype(int)
    noise = rng.integers(0, 2, 200)
    assert permutation_pvalue(x, informative, 2, 99)[0] == pytest.approx(0.01)
    assert permutation_pvalue(x, noise, 2, 99)[0] > 0.05


def test_selection_by_p_value_avoids_many_valued_noise():
    """A weak binary signal against a continuous noise feature with 200 distinct values."""
    n, picks = 200, {"gain": 0, "p_value": 0}
    for seed in range(20):
        rng = np.random.default_rng(100 + seed)
        weak = rng.integers(0, 2, n)
        y = np.where(rng.random(n) < 0.6, weak, 1 - weak)
        X = np.column_stack([weak, rng.random(n)]).astype(float)
        for selection in picks:
            tree = DecisionTreeClassifier(
                max_depth=1, selection=selection, n_permutations=49, random_state=seed
            )
            picks[selection] += int(tree.fit(X, y).tree_.feature[0] == 1)
    assert picks["gain"] >= 5  # plain Gini often splits on the noise
    assert picks["p_value"] <= picks["gain"] // 2


def test_grower_supports_selection_by_p_value():
    rng = np.random.default_rng(1)
    X = np.column_stack([rng.integers(0, 2, 200), rng.random(200)])
    y = X[:, 0].astype(int)
    grower = TreeGrower(X, y, selection="p_value", n_permutations=19, max_depth=1)
    assert grower.step() == 0 and grower.tree.feature[0] == 0
    with pytest.raises(ValueError, match="regression"):
        TreeGrower(X, rng.random(200), criterion="squared_error", selection="p_value")


def test_null_tables_keep_each_datasets_class_counts():
    rng = np.random.default_rng(5)
    class_counts = np.array([[3, 7], [0, 10], [10, 0], [50, 50]])
    tables = _null_tables(rng, 4, class_counts)
    assert tables.shape == (4, 4, 2)
    np.testing.assert_array_equal(tables.sum(axis=1), class_counts)


def test_null_tables_follow_the_law_of_rows_drawn_one_by_one():
    """Tables drawn as multinomials of the class counts have the law of counted random rows."""
    rng = np.random.default_rng(6)
    trials, size, n_values, prior = 20_000, 60, 5, 0.3
    labels = (rng.random((trials, size)) >= prior).astype(int)
    values = rng.integers(0, n_values, (trials, size))
    counted = np.zeros((trials, n_values, 2))
    np.add.at(counted, (np.arange(trials)[:, None], values, labels), 1)
    class_1 = rng.binomial(size, 1.0 - prior, trials)
    drawn = _null_tables(rng, n_values, np.column_stack([size - class_1, class_1]))
    for statistic in ("gini_gain", "chi2"):
        a, b = _criteria(counted)[statistic], _criteria(drawn)[statistic]
        assert ks_2samp(a, b).pvalue > 0.001


def _numpy_permutation_pvalue(x, labels, n_classes, n_permutations, seed):
    """The numpy test the compiled one replaced, transcribed: one-hot counts of every
    permutation at once, their cumulative sums, the best gain of each."""
    order = np.argsort(x, kind="stable")
    xs, labels = np.asarray(x, dtype=float)[order], np.asarray(labels)[order]
    rng = np.random.default_rng(seed)
    permuted = np.stack([labels] + [rng.permutation(labels) for _ in range(n_permutations)])
    n = xs.shape[0]
    onehot = np.zeros(permuted.shape + (n_classes,))
    np.put_along_axis(onehot, permuted[..., None], 1.0, axis=-1)
    left = np.cumsum(onehot, axis=1)[:, :-1]
    total = onehot.sum(axis=1, keepdims=True)
    right = total - left
    n_left = np.arange(1, n)[None, :]
    proxy = (left**2).sum(axis=-1) / n_left + (right**2).sum(axis=-1) / (n - n_left)
    parent = (total[:, 0] ** 2).sum(axis=-1) / n
    valid = xs[1:] > xs[:-1]
    if not valid.any():
        return 1.0, 0.0
    best = ((proxy[:, valid] - parent[:, None]) / n).max(axis=1)
    p = (1 + np.count_nonzero(best[1:] >= best[0] - 1e-12)) / (1 + n_permutations)
    return float(p), float(best[0])


@pytest.mark.parametrize("seed", range(15))
def test_the_compiled_permutation_test_gives_the_numpy_tests_numbers_to_the_bit(seed):
    rng = np.random.default_rng(seed)
    n, n_classes = int(rng.integers(2, 400)), int(rng.integers(2, 5))
    x = rng.integers(0, int(rng.integers(1, 30)), n).astype(float)  # ties, and constant at times
    labels = rng.integers(0, n_classes, n)
    if seed % 3 == 0:
        labels = (x > np.median(x)).astype(int)  # a signal
    expected = _numpy_permutation_pvalue(x, labels, n_classes, 49, seed)
    assert permutation_pvalue(x, labels, n_classes, 49, seed) == expected


def test_the_noise_root_study_reports_each_resample_and_a_stop_keeps_those_done():
    from trees.selection_bias import noise_root_study

    rng = np.random.default_rng(0)
    X = rng.integers(0, 3, (120, 2)).astype(float)
    y = (X[:, 0] > 0).astype(int)
    seen, result = run_stopped_study(
        noise_root_study, X, y, stop_after=3, n_resamples=6, n_permutations=19
    )
    assert [(d, t) for d, t, _ in seen] == [(1, 6), (2, 6), (3, 6)]
    assert all(partial["cancelled"] and partial["resamples"] == d for d, _, partial in seen)
    assert result["cancelled"] and result["resamples"] == 3
    assert {k: result[k] for k in ("gain", "p_value")} == {
        k: seen[-1][2][k] for k in ("gain", "p_value")
    }
    full = noise_root_study(X, y, n_resamples=6, n_permutations=19)
    assert not full["cancelled"] and full["resamples"] == 6
