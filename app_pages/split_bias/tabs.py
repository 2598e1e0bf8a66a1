"""The split-bias page's tabs: all six criteria, the Gini gain's null distribution, the user's
data (which columns take the root, and roots on noise), and source 001's full experiment. Each
tab is a function of its inputs."""

import numpy as np
import streamlit as st

from app_pages.split_bias import keys
from lab import SplitBiasJob
from trees.selection_bias import gini_null_moments
from ui import errors, figures, runs, share
from ui.cached import sample
from ui.experiments import computed_in_background, latest_study, said_stopped
from ui.markdown import plain
from viz.split_bias import (
    bias_heatmaps,
    noise_root_figure,
    null_distribution_figure,
    saved_bias_grid,
)

from .cache import noise_is_large, noise_roots, null_gains, shared_study
from .root_choice import show_root_choice

__all__ = [
    "PAPER_N",
    "PAPER_P1",
    "show_criteria_tab",
    "show_data_tab",
    "show_null_tab",
    "show_paper_tab",
]

# Source 001's own grid: N from 10 to 1,000 in steps of 40, 12 priors from 1e-4 to 0.5.
PAPER_N = tuple(range(10, 1001, 40))
PAPER_P1 = tuple(float(p) for p in np.geomspace(1e-4, 0.5, 12))


def show_criteria_tab(result):
    """Every criterion's bias on the page's grid (``result``: :func:`trees.bias_experiment`'s;
    None while it is simulated in the background)."""
    if result is None:
        st.info(
            "The grid is not simulated yet: its progress, or its restart after a Stop, is above."
        )
        return
    st.markdown(
        "The bias of a criterion is the log-odds that it picks X₁ over X₂ when neither is informative "
        "(source 001, eq. 7). Gains favour features with many values; p-values (the chance that a feature "
        "unrelated to the class scores as well) are nearly fair, except near p₁ N = 1 (about one row of "
        "class 1 in the data), where every statistical test leans to the feature with few values (section 5)."
    )
    st.latex(r"\mathrm{Bias}(X_1, X_2) = \log_{10} \frac{P_s}{1 - P_s}")
    st.caption(
        "The bias: log₁₀ of the odds that the criterion picks X₁. 0 is fair, 1 means ten times as often, "
        "−1 a tenth as often."
    )
    st.latex(r"P_s = P\big[s(\mathcal{D}, X_1) > s(\mathcal{D}, X_2)\big]")
    st.caption(
        "Pₛ: the chance that criterion s scores X₁ above X₂ on a dataset 𝒟 in which neither feature "
        "says anything about the class."
    )
    figures.chart(bias_heatmaps(result), key="bias_all_heatmaps", title="Bias of each criterion")


def show_null_tab():
    """The Gini gain's null distribution, its exact moments and their Gamma approximation."""
    st.markdown(
        "Under the Null Hypothesis the mean and variance of the Gini gain are known exactly (eqs. 19, 20), "
        "and a Gamma distribution with the same two moments approximates it; its tail is the p-value."
    )
    st.latex(r"E(\Delta g) = \frac{n-1}{N}\Big(1 - \sum_j p_j^2\Big)")
    st.caption(
        "The mean Gini gain Δg of a feature unrelated to the class: n is its number of values, N the "
        "rows, pⱼ the share of class j. It grows with n: the bias towards features with many values."
    )
    st.latex(
        r"\begin{aligned}\mathrm{Var}(\Delta g) = \frac{1}{N^2}\Big[&(n-1)\Big(2\sum_j p_j^2 "
        r"+ 2\big(\sum_j p_j^2\big)^2 - 4\sum_j p_j^3\Big) \\ &+ \Big(\sum_i \frac{1}{N_i} - \frac{2n}{N} "
        r"+ \frac{1}{N}\Big) \\ &\quad\times \Big(-2\sum_j p_j^2 - 6\big(\sum_j p_j^2\big)^2 "
        r"+ 8\sum_j p_j^3\Big)\Big]\end{aligned}"
    )
    st.caption("Its variance (eq. 20); Nᵢ is the number of rows with the feature's i-th value.")
    st.latex(r"\alpha = E^2/\mathrm{Var}, \qquad \theta = \mathrm{Var}/E")
    st.caption(
        "α (shape) and θ (scale) make a Gamma distribution Γ with that mean and variance. The chance "
        "that it passes an observed gain is the Γ-corrected p-value (Gini's p-value): small when the "
        "gain is larger than chance would give a feature with as many values."
    )
    d1, d2, d3, d4 = st.columns(4)
    n_values = share.number_input(d1, "Values of the feature, n", 2, 100, 10, key="null_n")
    rows = share.number_input(d2, "Rows, N", 2, 100_000, 200, key="null_N")
    p_first = share.slider(d3, "Prior of class 1, p₁", 0.01, 0.99, 0.3, 0.01, key="null_p1")
    classes = share.number_input(d4, "Classes", 2, 6, 2, key="null_k")
    if rows < n_values:
        st.warning(
            f"Each of the {int(n_values)} values needs at least one row: make N at least {int(n_values)}."
        )
    else:
        rest = (1.0 - p_first) / (classes - 1)
        priors = (float(p_first),) + (float(rest),) * (int(classes) - 1)
        gains, row_totals = null_gains(int(n_values), int(rows), priors)
        mean, variance = gini_null_moments(row_totals, np.asarray(priors))
        figures.chart(
            null_distribution_figure(gains, mean, variance),
            key="null_figure",
            title="Null distribution of the Gini gain and its Gamma approximation",
        )
        m1, m2, m3, m4 = st.columns(4)
        m1.metric("Mean, formula", f"{mean:.5f}")
        m2.metric("Mean, simulated", f"{gains.mean():.5f}")
        m3.metric("Variance, formula", f"{variance:.3g}")
        m4.metric("Variance, simulated", f"{gains.var():.3g}")
        st.caption(
            f"20,000 tables with equal-sized values ({row_totals[0]} rows each) and class priors "
            + ", ".join(f"{p:.2f}" for p in priors)
            + "."
        )


def show_data_tab(data, data_key):
    """The studies of the user's data: which columns take the root, by the Gini gain and by the
    p-value, against their distinct values; then how often a stump's root splits on added noise."""
    if errors.needs_complete_rows(
        data,
        "This tab",
        "selection by p-value (source 001) has no side for missing values",
    ):
        return
    if data.task != "classification":
        st.info(
            f"{plain(data.name)} is a regression dataset; the bias and its correction are about classification. "
            "Pick a classification dataset in the sidebar."
        )
        return
    show_root_choice(data, data_key)
    st.divider()
    _show_noise_roots(data, data_key)


def _show_noise_roots(data, data_key):
    """How often a stump's root splits on added noise columns, by gain and by p-value."""
    st.markdown("#### Does the root ever split on pure noise?")
    X, y, subsampled = sample(data_key, 5_000, 0, *data.arrays())
    st.markdown(
        f"Columns of pure noise, with a distinct value on every row, are added to **{plain(data.name)}**; a stump is "
        "fitted on bootstrap resamples, once choosing the root by the Gini gain and once by the smallest "
        "permutation p-value. How often does the root split on noise?"
        + (" (A random 5,000 rows are used.)" if subsampled else "")
    )
    e1, e2, e3 = st.columns(3)
    n_noise = share.number_input(e1, "Noise columns", 1, 20, 3, key="noise_n")
    resamples = share.number_input(e2, "Resamples", 5, 200, 20, key="noise_resamples")
    permutations = share.number_input(e3, "Permutations per p-value", 19, 999, 49, key="noise_perm")
    settings = (int(n_noise), int(resamples), int(permutations))
    if noise_is_large(len(y), *settings[1:]):
        outcome = _noise_in_background(data_key, X, y, settings)
        if outcome is None:
            return  # its progress and Stop are drawn
    else:
        outcome = _noise_outcome(data_key, X, y, settings)
    if said_stopped(outcome, "resamples", settings[1], "resample"):
        return
    labels = {"gain": "largest Gini gain", "p_value": "smallest p-value"}
    figures.chart(noise_root_figure(outcome, labels), key="noise_figure")
    counts = {k: int(round(outcome[k] * outcome["resamples"])) for k in labels}
    if not any(counts.values()):
        verdict = (
            f"In {outcome['resamples']} resamples the root **never** split on a noise column, under either rule: "
            f"the real features of {plain(data.name)} beat {int(n_noise)} noise columns every time. Try a dataset whose "
            "features say less about the class, or more noise columns."
        )
    else:
        verdict = (
            f"Over {outcome['resamples']} resamples the Gini gain put a noise column at the root "
            f"**{counts['gain']} times** ({outcome['gain']:.0%}), the p-value rule **{counts['p_value']} times** "
            f"({outcome['p_value']:.0%}). A root on noise is a tree whose first question means nothing."
        )
    st.markdown(verdict)


def _noise_in_background(data_key, X, y, settings):
    """The noise-root study of large work, in the server's background worker with progress and
    a Stop (then a button to run it again), kept for every session; None until it is there."""
    return computed_in_background(
        keys.NOISE_STUDY_BACKGROUND,
        ("noise roots", data_key, len(y), settings),
        "Fitting stumps on resamples with noise columns, resamples",
        lambda progress, should_stop: noise_roots(
            X, y, *settings, lambda done, total, partial: progress(done, total), should_stop
        ),
        "Run the study again",
    )


def _noise_outcome(data_key, X, y, settings):
    """The noise-root study of these rows and settings: finished once for the server
    (``cache.shared_study``), else kept in the session once run, else run now with progress and
    a Stop (at the widgets' limits it takes minutes). Only the last settings' result is kept.
    None after a Stop before the first resample ended."""
    return shared_study(
        "noise roots",
        data_key,
        (len(y), settings),
        lambda: latest_study(
            keys.NOISE_STUDY_PREFIX,
            (data_key, settings),
            "Fitting stumps on resamples with noise columns",
            lambda progress: noise_roots(X, y, *settings, progress),
        ),
    )


def show_paper_tab(n1, n2):
    """Source 001's full grid (100,000 datasets per cell) as a background run, and its saved runs."""
    st.markdown(
        "Source 001 simulated 100,000 datasets per cell on a finer grid: N from 10 to 1,000 in steps of 40 and "
        "12 priors from 10⁻⁴ to 0.5. That takes hours: it runs in the background (it goes on when this tab "
        "closes), saves every cell as it finishes, resumes where it stopped, and appears below when it ends. "
        "The command line runs the same experiment into the same store: `python -m lab split-bias`."
    )
    job = SplitBiasJob(n1=n1, n2=n2, N=PAPER_N, p1=PAPER_P1, trials=100_000, seed=0)
    if st.button("Run the paper's experiment in the background", key="bias_run_paper"):
        runs.start(job)
    runs.show_background("split-bias")
    opened = runs.saved_runs_panel("split-bias", key="bias_runs")
    if opened:
        run, summary = opened
        figures.chart(
            bias_heatmaps(saved_bias_grid(summary)),
            key="bias_paper_heatmaps",
            title=f"Saved run: {run['label']}",
        )
