"""Cultivated random forests: robust-split and option modules, soft surfaces, reliability (source 002)."""

import numpy as np
import pandas as pd
import streamlit as st

from datasets import generate
from trees import (
    VARIANTS,
    CultivatedForestClassifier,
    DecisionTreeClassifier,
    RandomForestClassifier,
    abstention_curve,
    compare_models,
)
from ui import shell, state
from ui.cached import crf_references, fit_crf, oof_reliability, sample
from ui.experiments import run_with_progress
from viz.conditioning import surfaces_figure
from viz.cultivated import abstention_figure, cultivated_to_dot, leaf_fraction_figure

shell.page_frame()

st.title("Cultivated random forests")
st.markdown(
    "A tree commits to one feature and one threshold at every node, even when the choice is tight; "
    "that is where its instability comes from. A cultivated forest (Nalenz & Augustin, source 002) "
    "keeps the tree's shape but lets each node hesitate: a **robust split module** spreads the "
    "decision over the thresholds near the best one, an **option module** keeps every feature that "
    "is almost as good. Rows are split into fractions, the surface becomes smooth, and the spread of "
    "the leaves a row reaches says how reliable its prediction is."
)
st.latex(
    r"\psi(x, \mathcal{T}(t_0)) = \frac{\sum_{t \in \mathcal{T}(t_0)} \phi(t)\, I(x \le t)}"
    r"{\sum_{t \in \mathcal{T}(t_0)} \phi(t)}, \qquad \eta_l = \eta_0 / s_l^3"
)

data = state.current()
binary = data.task == "classification" and data.y.nunique() == 2
use_example = st.toggle(
    "Use the simulated data of Supplement B",
    value=True,
    disabled=not binary,
    key="crf_example",
    help="Two Gaussian classes centred at (-1, -1) and (1, 1), SD 0.75: the paper's Figure 3.",
)
if not binary:
    st.info(
        f"{data.name} is not a two-class dataset; cultivated forests are defined for two classes, so the "
        "page uses the simulated data of Supplement B."
    )
if use_example or not binary:
    example = generate("CRF simulation", n_samples=300)
    X, y = example.arrays()
    names, source, rows_key = list(example.X.columns), example.name, "CRF simulation, 300 rows"
else:
    X, y, subsampled = sample(state.dataset_key(), 5_000, 0, *data.arrays())
    names, source, rows_key = list(data.X.columns), data.name, (state.dataset_key(), 5_000)
    if subsampled:
        st.caption("A random 5,000 rows are used.")
classes = np.unique(y)

c1, c2, c3, c4 = st.columns(4)
variant = c1.selectbox(
    "Variant",
    list(VARIANTS),
    key="crf_variant",
    format_func=lambda v: {
        "full": "CRF-full (both modules)",
        "split": "CRF-split (robust splits)",
        "option": "CRF-option (option modules)",
        "shallow": "CRF-shallow (depth 6)",
    }[v],
)
depth = c2.number_input(
    "Max depth", 1, 30, VARIANTS[variant]["max_depth"], key=f"crf_depth_{variant}"
)
eta0 = c3.number_input("η₀ (option tolerance)", 0.0, 2.0, 0.3, 0.05, key="crf_eta")
k_scale = c4.number_input(
    "k as a multiple of √(node weight)",
    0.1,
    5.0,
    1.0,
    0.1,
    key="crf_k",
    help="1 is the paper's k = √(sum of weights in the node).",
)


model = fit_crf(rows_key, variant, int(depth), float(eta0), float(k_scale), X, y)
structure = model.structure()
kinds = pd.Series([m["kind"] for m in structure]).value_counts()
st.caption(
    f"On {source}: {len(structure)} modules, {model.n_leaves_} leaves; "
    + ", ".join(f"{n} {kind}" for kind, n in kinds.items())
    + f". Class 1 is {classes[1]}."
)

st.subheader("The cultivated tree")
max_modules = st.slider(
    "Modules drawn (level by level from the root)",
    3,
    max(3, len(structure)),
    min(15, len(structure)),
    key="crf_draw",
)
st.graphviz_chart(cultivated_to_dot(structure, names, max_modules=max_modules))
st.caption(
    "A robust split module shows its threshold neighbourhood as a bar chart of φ (▁ to █) and its "
    "range; an option module lists one decision per feature. ψ is the share sent left."
)

if len(names) >= 2:
    st.subheader("Soft decision surfaces (Figure 3)")
    s1, s2 = st.columns(2)
    fx = s1.selectbox(
        "Horizontal", range(len(names)), index=0, format_func=names.__getitem__, key="crf_fx"
    )
    fy = s2.selectbox(
        "Vertical", range(len(names)), index=1, format_func=names.__getitem__, key="crf_fy"
    )
    cart, forest = crf_references(rows_key, X, y)
    figure, _ = surfaces_figure(
        {
            "CRF": model.predict_proba,
            "CART": cart.predict_proba,
            "random forest": forest.predict_proba,
        },
        X,
        y,
        fx,
        fy,
        names,
        class_index=1,
        value_name=f"P({classes[1]})",
        n=80,
        difference_of=None,
    )
    st.plotly_chart(figure, key="crf_surfaces")
    st.caption(
        "Other features at their medians. CART jumps at its thresholds; the cultivated forest, like "
        "the random forest, changes gradually near the boundary."
    )

st.subheader("One row: where it goes, and how reliable its prediction is")
all_proba, all_spread = model.predict_with_reliability(X)
least_reliable = int(np.argmax(all_spread))
row = st.number_input(
    "Row",
    0,
    len(y) - 1,
    least_reliable,
    key=f"crf_row_{least_reliable}",
    help="Starts at the training row with the largest spread: the least reliable prediction.",
)
fractions = model.leaf_fractions(X[int(row)][None, :])[0]
leaf_values = [structure[leaf]["positive_share"] for leaf in model.leaf_ids_]
proba, spread = model.predict_with_reliability(X[int(row)][None, :])
r1, r2, r3 = st.columns(3)
r1.metric(f"P({classes[1]})", f"{proba[0, 1]:.3f}")
r2.metric("Spread (variance of the leaf values)", f"{spread[0]:.4f}")
r3.metric("True class", str(y[int(row)]))
st.plotly_chart(leaf_fraction_figure(fractions, model.leaf_ids_, leaf_values), key="crf_fractions")
st.caption(
    "x = (" + ", ".join(f"{n} {v:.3g}" for n, v in zip(names, X[int(row)], strict=True)) + "). The "
    f"row reaches {int(np.sum(fractions > 1e-3))} leaves with a fraction above 0.001."
)

st.subheader("Abstaining from unreliable predictions (Figure 4)")
folds = st.number_input("Cross-validation folds", 2, 10, 5, key="crf_folds")
if np.unique(y, return_counts=True)[1].min() < int(folds):
    st.warning("A class has fewer rows than folds: lower the number of folds.")
else:
    y01, oof_proba, oof_spread = oof_reliability(
        rows_key, variant, int(depth), float(eta0), float(k_scale), int(folds), X, y
    )
    thresholds, accuracy, kept = abstention_curve(y01, oof_proba, oof_spread)
    st.plotly_chart(abstention_figure(thresholds, accuracy, kept), key="crf_abstention")
    half = int(np.argmin(np.abs(kept - 0.6)))
    st.caption(
        f"Out of fold: keeping the {kept[half]:.0%} most reliable predictions gives an accuracy of "
        f"{accuracy[half]:.3f}, against {accuracy[-1]:.3f} on all of them."
    )

    st.subheader("Cross-validated AUC (Table 1)")
    RESULT = state.CRF_AUC
    if st.button(
        "Compare CART, a random forest and the four variants", type="primary", key="crf_compare"
    ):
        models = {
            "CART": DecisionTreeClassifier(min_samples_split=20),
            "random forest": RandomForestClassifier(
                n_estimators=200, max_features=max(1, len(names) // 3), random_state=0, n_jobs=2
            ),
        }
        models.update({f"CRF-{v}": CultivatedForestClassifier(v) for v in VARIANTS})

        def run(progress):
            scores = compare_models(
                models, X, y, n_splits=int(folds), progress=lambda d, t: progress(d, t, None)
            )
            return pd.DataFrame(
                {
                    "model": list(scores),
                    "mean AUC": [np.nanmean(s) for s in scores.values()],
                    "SD": [np.nanstd(s) for s in scores.values()],
                    "folds": [len(s) for s in scores.values()],
                }
            )

        run_with_progress(RESULT, "Cross-validating", run)
    table = st.session_state.get(RESULT)
    if table is not None:
        st.dataframe(
            table,
            hide_index=True,
            column_config={
                "mean AUC": st.column_config.NumberColumn(format="%.3f"),
                "SD": st.column_config.NumberColumn(format="%.3f"),
            },
        )
