"""Tree instability: how much the tree changes when the data changes a little."""

import numpy as np
import streamlit as st

from trees import (
    PERTURBATIONS,
    CultivatedForestClassifier,
    DecisionTreeClassifier,
    perturbation_study,
    prediction_instability,
    prediction_spread,
)
from ui import shell, state
from ui.cached import held_out_split, removal, sample
from ui.experiments import session_cached
from viz.instability import (
    depth_feature_figure,
    histogram_figure,
    root_feature_figure,
    root_threshold_figure,
    spread_map_figure,
)
from viz.tree_dot import tree_to_dot

shell.page_frame()

st.title("Tree instability")
st.markdown(
    "A tree makes an all-or-nothing choice at every node, and every later choice depends on it. When "
    "two splits are almost equally good, a few changed rows flip the choice and the whole subtree "
    "below it changes (source 002, section 2). Refit the tree on slightly changed data many times and "
    "see how much of it survives."
)

data = state.current()
X, y = data.arrays()
names = list(data.X.columns)
data_key = state.dataset_key()
X, y, subsampled = sample(data_key, 20_000, 0, X, y)
if subsampled:
    st.caption("A random 20,000 rows are used.")
X_train, X_test, y_train, y_test = held_out_split(data_key, data.task, 0.3, 0, X, y)

labels = {
    "bootstrap": "bootstrap samples",
    "remove": "a few rows removed",
    "jitter": "features jittered",
}
c1, c2, c3, c4 = st.columns(4)
kind = c1.selectbox("Change the data by", PERTURBATIONS, format_func=labels.get, key="inst_kind")
if kind == "remove":
    amount = c2.number_input(
        "Rows removed each time",
        1,
        max(1, len(y_train) // 2),
        min(5, len(y_train) // 2),
        key="inst_remove",
    )
elif kind == "jitter":
    amount = c2.slider(
        "Noise (share of each feature's SD)", 0.0, 0.5, 0.05, 0.01, key="inst_jitter"
    )
else:
    amount = 1
    c2.caption("Each refit draws as many rows as there are, with replacement.")
n_fits = c3.slider("Refits", 10, 300, 50, 10, key="inst_fits")
max_depth = c4.number_input("Max depth (0: none)", 0, 30, 4, key="inst_depth")
params = {"max_depth": int(max_depth) or None}


def study():
    bar = st.progress(0.0, text="Refitting")
    result = perturbation_study(
        X_train,
        y_train,
        data.task,
        params=params,
        n_fits=int(n_fits),
        perturbation=kind,
        amount=float(amount),
        X_test=X_test,
        progress=lambda d, t: bar.progress(d / t, text=f"Refitting: {d} of {t}"),
    )
    bar.empty()
    return result


signature = (state.dataset_key(), tuple(params.items()), int(n_fits), kind, float(amount))
result = session_cached(state.INST_STUDY, signature, study)
shares = result.root_feature_share(len(names))
top = int(np.argmax(shares))
m1, m2, m3 = st.columns(3)
m1.metric(
    f"Refits whose root splits on {names[top]}",
    f"{shares[top]:.0%}",
    help="The most frequent root feature over the refits.",
)
m2.metric("Mean structural distance to the original tree", f"{result.distance.mean():.2f}")
m3.metric("Held-out rows whose prediction changes (mean)", f"{result.changed_share.mean():.1%}")
with st.expander("How the structural distance is defined"):
    st.markdown(
        "Both trees are walked from the root along the same paths. A pair of nodes weighs the share of "
        "training rows that reach it. Two leaves add nothing; a leaf facing a split, or two different "
        "features, add the whole weight (everything below differs); the same feature adds the weight "
        "times the threshold shift *s* (as a share of the feature's range, at most 1), and the children "
        "count for the rest:"
    )
    st.latex(r"d(u, v) = w\,s + (1 - s)\,\big(d(u_L, v_L) + d(u_R, v_R)\big)")
    st.markdown("0 means the same tree; 1 means the roots ask different questions.")

a, b = st.columns(2)
a.plotly_chart(root_feature_figure(shares, names), key="inst_root")
b.plotly_chart(depth_feature_figure(result.depth_feature_counts, names), key="inst_depths")
a, b, c = st.columns(3)
a.plotly_chart(root_threshold_figure(result, names), key="inst_thresholds")
b.plotly_chart(
    histogram_figure(result.distance, "Distance to the original tree", "structural distance"),
    key="inst_distance",
)
c.plotly_chart(
    histogram_figure(
        result.changed_share,
        "Held-out predictions that change",
        "share of rows",
        color="#d62728",
        percent=True,
    ),
    key="inst_changed",
)

if len(names) >= 2:
    st.subheader("Where the predictions vary")
    s1, s2 = st.columns(2)
    fx = s1.selectbox(
        "Horizontal", range(len(names)), index=0, format_func=names.__getitem__, key="inst_fx"
    )
    fy = s2.selectbox(
        "Vertical", range(len(names)), index=1, format_func=names.__getitem__, key="inst_fy"
    )
    class_index = None if data.task == "regression" else -1
    value = (
        "variance of the predicted probability of the last class"
        if class_index is not None
        else "variance of the prediction"
    )
    st.plotly_chart(
        spread_map_figure(
            lambda rows: prediction_spread(result.trees, rows, class_index),
            X_train,
            fx,
            fy,
            names,
            value_name=value,
        ),
        key="inst_spread",
    )
    st.caption(
        "Other features at their medians. Bright bands are where refits disagree: near the splits that move."
    )

st.subheader("Beside a cultivated forest")
binary = data.task == "classification" and len(np.unique(y_train)) == 2
if not binary:
    st.caption(
        "Cultivated forests are defined for two classes: the comparison needs a two-class dataset."
    )
else:
    st.markdown(
        "A cultivated forest (source 002) keeps one tree's shape but softens each decision. Refit it and the "
        "tree on the same perturbed samples and count how many held-out predictions flip."
    )
    compare_fits = st.slider("Refits of each", 5, 50, 15, 5, key="inst_crf_fits")

    def compare():
        bar = st.progress(0.0, text="Refitting both models")
        tree_changed, tree_sd = prediction_instability(
            lambda: DecisionTreeClassifier(**params),
            X_train,
            y_train,
            X_test,
            n_fits=compare_fits,
            perturbation=kind,
            amount=float(amount),
            progress=lambda d, t: bar.progress(d / t / 2),
        )
        crf_changed, crf_sd = prediction_instability(
            CultivatedForestClassifier,
            X_train,
            y_train,
            X_test,
            n_fits=compare_fits,
            perturbation=kind,
            amount=float(amount),
            progress=lambda d, t: bar.progress(0.5 + d / t / 2),
        )
        bar.empty()
        return tree_changed, tree_sd, crf_changed, crf_sd

    tree_changed, tree_sd, crf_changed, crf_sd = session_cached(
        state.INST_CRF,
        (state.dataset_key(), tuple(params.items()), compare_fits, kind, float(amount)),
        compare,
    )
    k1, k2, k3, k4 = st.columns(4)
    k1.metric("Tree: held-out labels that flip", f"{tree_changed.mean():.1%}")
    k2.metric("Cultivated forest: labels that flip", f"{crf_changed.mean():.1%}")
    k3.metric("Tree: SD of predicted probability", f"{tree_sd.mean():.3f}")
    k4.metric("Cultivated forest: SD of predicted probability", f"{crf_sd.mean():.3f}")

st.subheader("Remove one point")


def first_influential_row():
    """The first of the first 100 training rows whose removal changes the tree (0 if none)."""
    for candidate in range(min(100, len(y_train))):
        _, _, changed, _ = removal(
            data_key, data.task, tuple(params.items()), candidate, X_train, y_train
        )
        if changed:
            return candidate
    return 0


default_row = session_cached(
    state.INST_DEFAULT_ROW, (state.dataset_key(), tuple(params.items())), first_influential_row
)
row = st.number_input(
    "Training row to remove",
    0,
    len(y_train) - 1,
    default_row,
    key=f"inst_row_{default_row}",
    help="Starts at a row whose removal changes the tree, when one of the first 100 does.",
)
before, after, changed_before, changed_after = removal(
    data_key, data.task, tuple(params.items()), int(row), X_train, y_train
)
st.caption(
    "Row "
    + str(int(row))
    + ": ("
    + ", ".join(f"{n} {v:.4g}" for n, v in zip(names, X_train[int(row)], strict=True))
    + f"), target {y_train[int(row)]}. "
    + (
        f"{len(changed_after)} nodes of the new tree differ (purple double border)."
        if changed_after
        else "The tree does not change."
    )
)
left, right = st.columns(2)
with left:
    st.markdown("**Before**")
    st.graphviz_chart(tree_to_dot(before, names, marked=changed_before))
with right:
    st.markdown("**After removing the row**")
    st.graphviz_chart(tree_to_dot(after, names, marked=changed_after))
