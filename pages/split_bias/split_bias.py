"""Split-variable selection bias and its correction (Dobra & Gehrke, source 001)."""

import numpy as np
import streamlit as st

from lab import SplitBiasJob
from pages.split_bias.cache import bias_grid, noise_roots, null_gains
from trees import gini_null_moments
from ui import figures, glossary, presenter, report, runs, share, state
from ui.cached import sample
from viz.split_bias import (
    bias_heatmaps,
    noise_root_figure,
    null_distribution_figure,
    saved_bias_grid,
)

st.title("Split-variable selection bias")
N_GRID = (10, 30, 100, 300, 1000)
PAPER_N = tuple(range(10, 1001, 40))
PAPER_P1 = tuple(float(p) for p in np.geomspace(1e-4, 0.5, 12))
P1_GRID = tuple(float(p) for p in np.round(np.geomspace(1e-3, 0.5, 7), 6))

headline, picture = st.container(), st.container()
with st.expander("Settings of the experiment"):
    c1, c2, c3 = st.columns(3)
    n1 = share.number_input(c1, "Values of X₁", 2, 50, 10, key="bias_n1")
    n2 = share.number_input(c2, "Values of X₂", 2, 50, 2, key="bias_n2")
    trials = share.number_input(
        c3,
        "Datasets per cell",
        100,
        20_000,
        1_000,
        100,
        key="bias_trials",
        help="More is smoother and slower.",
    )

result = bias_grid(int(n1), int(n2), int(trials), N_GRID, P1_GRID)
cell = (len(P1_GRID) - 1, N_GRID.index(100))  # p1 = 0.5, N = 100
gini, corrected = result["bias"]["gini gain"][cell], result["bias"]["Gamma-corrected Gini"][cell]
with headline:
    st.markdown(
        f"**Neither feature says anything about the class, yet the Gini gain picks the one with {int(n1)} values "
        f"{10**gini:.1f} times as often as the one with {int(n2)}; its p-value (the Gamma correction) picks them "
        f"{10**corrected:.2f} : 1.** (N = 100 rows, balanced classes.)"
    )
    presenter.guide("split_bias")
with picture:
    figures.chart(
        bias_heatmaps(result, ["gini gain", "Gamma-corrected Gini"], columns=2, height_per_row=330),
        key="bias_key_heatmaps",
        title="Bias of the Gini gain and of its Gamma-corrected p-value",
    )
    st.caption(
        "Each cell: datasets of N rows where the class (prior p₁ for class 1) is independent of both features. "
        "Red: the criterion prefers X₁ (more values); blue: X₂; white: fair. "
        + glossary.explain("bias (log-odds)")
    )
report.add_settings(
    {"values of X₁": int(n1), "values of X₂": int(n2), "datasets per cell": int(trials)}
)
report.add_note(
    f"At N = 100 and p₁ = 0.5 the Gini gain's bias is {gini:.2f} (X₁ chosen {10**gini:.1f} times as often); "
    f"the Gamma-corrected Gini's is {corrected:.2f}."
)
report.add_snippet(
    "import numpy as np\n"
    "from trees import bias_experiment\n\n"
    f"result = bias_experiment(n1={int(n1)}, n2={int(n2)}, N=[100], p1=[0.5], trials={int(trials)}, seed=0)\n"
    'for name, bias in result["bias"].items():\n'
    '    print(f"{name}: bias {bias[0, 0]:+.2f}, odds {10 ** bias[0, 0]:.2f} : 1")\n'
)

TABS = [
    "All six criteria",
    "The Gini gain's null distribution",
    "On your data",
    "The paper's full experiment",
]
criteria_tab, null_tab, data_tab, paper_tab = share.tabs(st, TABS, key=state.BIAS_TAB)


def show_criteria_tab():
    st.markdown(
        "The bias of a criterion is the log-odds that it picks X₁ over X₂ when neither is informative "
        "(source 001, eq. 7). Gains favour features with many values; p-values are nearly fair, except near "
        "p₁ N = 1, where every statistical test leans to the feature with few values (section 5)."
    )
    st.latex(r"\mathrm{Bias}(X_1, X_2) = \log_{10} \frac{P_s}{1 - P_s}")
    st.latex(r"P_s = P\big[s(\mathcal{D}, X_1) > s(\mathcal{D}, X_2)\big]")
    figures.chart(bias_heatmaps(result), key="bias_all_heatmaps", title="Bias of each criterion")


def show_null_tab():
    st.markdown(
        "Under the Null Hypothesis the mean and variance of the Gini gain are known exactly (eqs. 19, 20), "
        "and a Gamma distribution with the same two moments approximates it; its tail is the p-value."
    )
    st.latex(r"E(\Delta g) = \frac{n-1}{N}\Big(1 - \sum_j p_j^2\Big)")
    st.latex(
        r"\begin{aligned}\mathrm{Var}(\Delta g) = \frac{1}{N^2}\Big[&(n-1)\Big(2\sum_j p_j^2 "
        r"+ 2\big(\sum_j p_j^2\big)^2 - 4\sum_j p_j^3\Big) \\ &+ \Big(\sum_i \frac{1}{N_i} - \frac{2n}{N} "
        r"+ \frac{1}{N}\Big) \\ &\quad\times \Big(-2\sum_j p_j^2 - 6\big(\sum_j p_j^2\big)^2 "
        r"+ 8\sum_j p_j^3\Big)\Big]\end{aligned}"
    )
    st.latex(r"\alpha = E^2/\mathrm{Var}, \qquad \theta = \mathrm{Var}/E")
    d1, d2, d3, d4 = st.columns(4)
    n_values = share.number_input(d1, "Values n", 2, 100, 10, key="null_n")
    rows = share.number_input(d2, "Rows N", 2, 100_000, 200, key="null_N")
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


def show_data_tab():
    data = state.current()
    if data.task != "classification":
        st.info(
            f"{data.name} is a regression dataset; the bias and its correction are about classification. "
            "Pick a classification dataset in the sidebar."
        )
    else:
        X, y, subsampled = sample(state.dataset_key(), 5_000, 0, *data.arrays())
        st.markdown(
            f"Columns of pure noise, with a distinct value on every row, are added to **{data.name}**; a stump is "
            "fitted on bootstrap resamples, once choosing the root by the Gini gain and once by the smallest "
            "permutation p-value. How often does the root split on noise?"
            + (" (A random 5,000 rows are used.)" if subsampled else "")
        )
        e1, e2, e3 = st.columns(3)
        n_noise = share.number_input(e1, "Noise columns", 1, 20, 3, key="noise_n")
        resamples = share.number_input(e2, "Resamples", 5, 200, 20, key="noise_resamples")
        permutations = share.number_input(
            e3, "Permutations per p-value", 19, 999, 49, key="noise_perm"
        )
        outcome = noise_roots(
            state.dataset_key(), int(n_noise), int(resamples), int(permutations), X, y
        )
        labels = {"gain": "largest Gini gain", "p_value": "smallest p-value"}
        left, right = st.columns([2, 3])
        figures.chart(noise_root_figure(outcome, labels), key="noise_figure", container=left)
        counts = {k: int(round(outcome[k] * outcome["resamples"])) for k in labels}
        if not any(counts.values()):
            verdict = (
                f"In {outcome['resamples']} resamples the root **never** split on a noise column, under either rule: "
                f"{data.name}'s real features beat {int(n_noise)} noise columns every time. Try a dataset whose "
                "features say less about the class, or more noise columns."
            )
        else:
            verdict = (
                f"Over {outcome['resamples']} resamples the Gini gain put a noise column at the root "
                f"**{counts['gain']} times** ({outcome['gain']:.0%}), the p-value rule **{counts['p_value']} times** "
                f"({outcome['p_value']:.0%}). A root on noise is a tree whose first question means nothing."
            )
        right.markdown(verdict)


def show_paper_tab():
    st.markdown(
        "Source 001 simulated 100,000 datasets per cell on a finer grid: N from 10 to 1,000 in steps of 40 and "
        "12 priors from 10⁻⁴ to 0.5. That takes hours: it runs in the background (it goes on when this tab "
        "closes), saves every cell as it finishes, resumes where it stopped, and appears below when it ends. "
        "The command line runs the same experiment into the same store: `python -m lab split-bias`."
    )
    job = SplitBiasJob(n1=int(n1), n2=int(n2), N=PAPER_N, p1=PAPER_P1, trials=100_000, seed=0)
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


share.show_open_tab(
    (criteria_tab, show_criteria_tab),
    (null_tab, show_null_tab),
    (data_tab, show_data_tab),
    (paper_tab, show_paper_tab),
)
