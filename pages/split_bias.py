"""Split-variable selection bias and its correction (Dobra & Gehrke, source 001)."""

import numpy as np
import streamlit as st

from trees import (
    bias_experiment,
    gini_null_moments,
    noise_root_study,
    null_gini_gains,
)
from ui import shell, state
from ui.cached import sample
from ui.experiments import run_with_progress, session_cached
from viz.split_bias import bias_heatmaps, noise_root_figure, null_distribution_figure

shell.page_frame()

st.title("Split-variable selection bias")
st.markdown(
    "When no feature says anything about the class, a fair criterion picks each of them equally "
    "often. The Gini gain and the information gain do not: a feature with many values has more "
    "room for chance patterns, so it wins far more often. Dobra & Gehrke (source 001) measure the "
    "bias as the log-odds of picking the first of two uninformative features, and remove it by "
    "comparing p-values instead of gains, with a Gamma approximation for the Gini gain:"
)
st.latex(
    r"\mathrm{Bias}(X_1, X_2) = \log_{10} \frac{P_s(X_1, X_2)}{1 - P_s(X_1, X_2)}, "
    r"\qquad P_s(X_1, X_2) = P[s(\mathcal{D}, X_1) > s(\mathcal{D}, X_2)]"
)

# ------------------------------------------------------------------ heatmaps
st.header("The bias of each criterion")
c1, c2, c3, c4 = st.columns(4)
n1 = c1.number_input("Values of X₁", 2, 50, 10, key="bias_n1")
n2 = c2.number_input("Values of X₂", 2, 50, 2, key="bias_n2")
paper = c3.toggle(
    "The paper's setting (100,000 trials, full grid)",
    key="bias_paper",
    help="N from 10 to 1,000 in steps of 40 and 12 priors: this takes hours; it can be stopped.",
)
trials = (
    100_000
    if paper
    else c4.number_input("Trials per cell", 100, 20_000, 1_000, 100, key="bias_trials")
)
if paper:
    c4.caption("100,000 trials per cell")
N_grid = list(range(10, 1001, 40)) if paper else [10, 30, 100, 300, 1000]
p1_grid = np.geomspace(1e-4 if paper else 1e-3, 0.5, 12 if paper else 7)

RESULT = state.BIAS_RESULT
signature = (int(n1), int(n2), int(trials), tuple(N_grid), tuple(np.round(p1_grid, 8)))
stored = st.session_state.get(RESULT)
if stored is None or stored.get("signature") != signature:
    if paper and not st.button("Run the paper's experiment", type="primary", key="bias_run_paper"):
        st.info("The paper's setting runs only when you ask for it: press the button.")
    else:

        def run(progress):
            def report(done, total):
                progress(done, total, None)

            result = bias_experiment(
                n1=int(n1),
                n2=int(n2),
                N=N_grid,
                p1=p1_grid,
                trials=int(trials),
                seed=0,
                progress=report,
            )
            result["signature"] = signature
            return result

        run_with_progress(RESULT, "Simulating", run)
result = st.session_state.get(RESULT)
if result is not None and result.get("signature") == signature:
    st.plotly_chart(bias_heatmaps(result), key="bias_heatmaps")
    middle = result["bias"]
    cell = (len(result["p1"]) - 1, len(result["N"]) // 2)
    st.markdown(
        f"At p₁ = {result['p1'][cell[0]]:.2g} and N = {result['N'][cell[1]]}: the Gini gain prefers X₁ "
        f"{10 ** middle['gini gain'][cell]:.1f} times as often as X₂ (bias {middle['gini gain'][cell]:.2f}); "
        f"the Gamma-corrected Gini {10 ** middle['Gamma-corrected Gini'][cell]:.2f} times "
        f"(bias {middle['Gamma-corrected Gini'][cell]:.2f}). Red: X₁ (more values) preferred; blue: X₂. "
        "Near p₁ N = 1 every statistical criterion leans to the feature with few values (section 5)."
    )
elif stored is not None and stored.get("signature") != signature and result is not None:
    st.caption("Change a setting back, or run again, to see the heatmaps.")

# ---------------------------------------------------------- null distribution
st.header("The null distribution of the Gini gain")
st.markdown(
    "Under the Null Hypothesis the mean and variance of the Gini gain are known exactly (eqs. 19, 20):"
)
st.latex(r"E(\Delta g) = \frac{n-1}{N}\Big(1 - \sum_j p_j^2\Big)")
st.latex(
    r"\begin{aligned}\mathrm{Var}(\Delta g) = \frac{1}{N^2}\Big[&(n-1)\Big(2\sum_j p_j^2 "
    r"+ 2\big(\sum_j p_j^2\big)^2 - 4\sum_j p_j^3\Big) \\ &+ \Big(\sum_i \frac{1}{N_i} - \frac{2n}{N} "
    r"+ \frac{1}{N}\Big)\Big(-2\sum_j p_j^2 - 6\big(\sum_j p_j^2\big)^2 + 8\sum_j p_j^3\Big)\Big]\end{aligned}"
)
st.markdown(
    r"and a Gamma distribution with $\alpha = E^2/\mathrm{Var}$, $\theta = \mathrm{Var}/E$ approximates it:"
)
d1, d2, d3, d4 = st.columns(4)
n_values = d1.number_input("Values n", 2, 100, 10, key="null_n")
rows = d2.number_input("Rows N", 2, 100_000, 200, key="null_N")
p_first = d3.slider("Prior of the first class p₁", 0.01, 0.99, 0.3, 0.01, key="null_p1")
classes = d4.number_input("Classes", 2, 6, 2, key="null_k")
if rows < n_values:
    st.warning("Each value needs at least one row: make N at least n.")
else:
    rest = (1.0 - p_first) / (classes - 1)
    priors = np.array([p_first] + [rest] * (int(classes) - 1))
    gains, row_totals = null_gini_gains(int(n_values), int(rows), priors, trials=20_000)
    mean, variance = gini_null_moments(row_totals, priors)
    st.plotly_chart(null_distribution_figure(gains, mean, variance), key="null_figure")
    m1, m2, m3, m4 = st.columns(4)
    m1.metric("Mean, formula", f"{mean:.5f}")
    m2.metric("Mean, Monte Carlo", f"{gains.mean():.5f}")
    m3.metric("Variance, formula", f"{variance:.3g}")
    m4.metric("Variance, Monte Carlo", f"{gains.var():.3g}")
    st.caption(
        f"20,000 tables with equal-sized values ({row_totals[0]} rows each) and priors "
        + ", ".join(f"{p:.2f}" for p in priors)
        + "."
    )

# ------------------------------------------------------------ current data
st.header("On your data: noise features with many values")
data = state.current()
if data.task != "classification":
    st.info(
        f"{data.name} is a regression dataset; the bias and its correction are about classification. "
        "Pick a classification dataset on the Data page."
    )
else:
    X, y = data.arrays()
    X, y, subsampled = sample(state.dataset_key(), 5_000, 0, X, y)
    if subsampled:
        st.caption("A random 5,000 rows are used.")
    st.markdown(
        f"Columns of pure noise, with a distinct value on every row, are added to **{data.name}**; a "
        "stump is fitted on bootstrap resamples, once choosing the root by the Gini gain and once by the "
        "smallest permutation p-value. How often does the root split on noise?"
    )
    e1, e2, e3 = st.columns(3)
    n_noise = e1.number_input("Noise features", 1, 20, 3, key="noise_n")
    resamples = e2.number_input("Resamples", 5, 200, 20, key="noise_resamples")
    permutations = e3.number_input("Permutations per p-value", 19, 999, 49, key="noise_perm")

    def study():
        bar = st.progress(0.0, text="Resampling")
        result = noise_root_study(
            X,
            y,
            n_noise=int(n_noise),
            n_resamples=int(resamples),
            n_permutations=int(permutations),
            progress=lambda d, t: bar.progress(d / t, text=f"Resampling: {d} of {t}"),
        )
        bar.empty()
        return result

    outcome = session_cached(
        state.NOISE_STUDY,
        (state.dataset_key(), int(n_noise), int(resamples), int(permutations)),
        study,
    )
    labels = {"gain": "largest Gini gain", "p_value": "smallest p-value"}
    left, right = st.columns([2, 3])
    left.plotly_chart(noise_root_figure(outcome, labels), key="noise_figure")
    right.markdown(
        f"Over {outcome['resamples']} resamples the Gini gain put a noise column at the root "
        f"**{outcome['gain']:.0%}** of the time, the p-value rule **{outcome['p_value']:.0%}**. "
        "A root on noise is a tree whose first and most important question is meaningless."
    )
