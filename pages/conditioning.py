"""The conditioning bias: the same tree under x <= t, x < t and their average (source 000)."""

import numpy as np
import pandas as pd
import streamlit as st

from datasets import DataError, load, preprocess
from datasets.bundled import PAPER_CLASSIFICATION, PAPER_REGRESSION, PAPER_SETTINGS
from trees import (
    DecisionTreeClassifier,
    conditioning_disagreement,
    conditioning_experiment,
    lattice_nodes,
    lattice_split_share,
    mirror,
)
from ui import shell, state
from ui.cached import SMALL, fit_forest, fit_tree, held_out_split
from ui.dataset_facts import lattice_flags
from ui.experiments import run_with_progress
from viz.conditioning import score_distribution_figure, surfaces_figure
from viz.tables import summary_table
from viz.tree_dot import tree_to_dot

shell.page_frame()

st.title("The conditioning bias")
st.markdown(
    "A tree sends a row left when `x <= t` (scikit-learn) or when `x < t` (R's `tree`). Thresholds "
    "are midpoints between observed values, so on *lattice* features (ages, counts, rounded "
    "prices) a threshold can land exactly on a value that new data takes, and the two tests then "
    "disagree. Timár & Kovács (source 000) call this the conditioning bias and remove it by "
    "averaging both predictions, or, in a forest, by letting half of the trees use each test. "
    "The two tests are linked by mirroring the tree:"
)
st.latex(r"T(\mathbf{x}, <) \;=\; \mathcal{M}[T](-\mathbf{x}, \le)")
st.caption("𝓜 swaps the children of every node and negates its threshold; the identity is exact.")

data = state.current()
X, y = data.arrays()
names = list(data.X.columns)
is_classifier = data.task == "classification"


def use_loan_example():
    state.set_dataset(load("Loan table"))


if data.name != "Loan table":
    st.button(
        "Load the paper's loan example (Appendix A)", on_click=use_loan_example, key="cond_loan"
    )

# ------------------------------------------------------------------ the tree
st.header("One tree, three tests")
lattice = lattice_flags(data)
order = sorted(range(len(names)), key=lambda j: not lattice.get(names[j], False))
c1, c2, c3, c4 = st.columns(4)
max_depth = c1.number_input("Max depth (0: none)", 0, 40, 0, key="cond_max_depth")
min_leaf = c2.number_input("Min rows per leaf", 1, 500, 1, key="cond_min_leaf")
fx = c3.selectbox(
    "Horizontal", range(len(names)), index=order[0], format_func=names.__getitem__, key="cond_fx"
)
fy_default = order[1] if len(names) > 1 else 0
fy = c4.selectbox(
    "Vertical", range(len(names)), index=fy_default, format_func=names.__getitem__, key="cond_fy"
)

# Training rows never sit on a threshold of their own path; held-out rows can.
data_key = state.dataset_key()
X_train, X_test, y_train, y_test = held_out_split(data_key, data.task, 0.3, 0, X, y)
tree_params = {"max_depth": int(max_depth) or None, "min_samples_leaf": int(min_leaf)}
model = fit_tree(data_key, "held-out split 0.3/0", data.task, tree_params, X_train, y_train)
tree = model.tree_
report = conditioning_disagreement(tree, X_test)
rho, on_lattice, internal = lattice_split_share(tree, X)
class_index = None
value_name = "prediction"
if is_classifier:
    classes = [str(c) for c in model.classes_]
    shown = st.selectbox(
        "Probability shown",
        range(len(classes)),
        index=len(classes) - 1,
        format_func=lambda k: f"P({classes[k]})",
        key="cond_class",
    )
    class_index, value_name = shown, f"P({classes[shown]})"

if len(y) < SMALL:
    st.caption(
        f"With {len(y)} rows nothing is held out: the tree is fitted on all rows, as in the paper's example."
    )
else:
    st.caption(
        f"The tree is fitted on {len(y_train)} rows; {len(y_test)} rows are held out, as new data."
    )
m1, m2, m3, m4 = st.columns(4)
m1.metric(
    "ρ: splits on an observed lattice value",
    f"{rho:.2f} ({on_lattice} of {internal})",
    help="Source 000, Table 2: the share of splits whose threshold equals an observed value that lies "
    "midway between two others.",
)
m2.metric("Held-out rows routed differently", int(report.leaf_differs.sum()))
m3.metric("… whose prediction changes", int(report.prediction_differs.sum()))
m4.metric(
    "… whose predicted class changes" if is_classifier else "… largest change",
    int(report.label_differs.sum())
    if is_classifier
    else f"{np.max(np.abs(report.prediction_le - report.prediction_lt), initial=0):.3g}",
)
if len(names) >= 2:
    figure, n_diff = surfaces_figure(
        {op: (lambda rows, op=op: tree.predict(rows, op)) for op in ("<=", "<", "average")},
        X_train,
        y_train,
        fx,
        fy,
        names,
        changed_points=X_test[report.prediction_differs],
        class_index=class_index,
        value_name=value_name,
    )
    st.plotly_chart(figure, key="cond_tree_surfaces")
    st.caption(
        "Dots: training rows; crosses: held-out rows whose prediction changes. The grid contains every "
        f"observed value of both axes; other features are held at their medians. {n_diff} grid points "
        "differ between `<=` and `<`."
    )

left, right = st.columns(2)
marked = np.flatnonzero(lattice_nodes(tree, X))
with left:
    st.subheader("The tree, tested with ≤")
    st.graphviz_chart(tree_to_dot(tree, names, model.tree_.class_names, op="<=", marked=marked))
    st.caption(
        "Double purple border: the threshold is an observed value between two others (counts in ρ)."
    )
with right:
    st.subheader("Its mirror 𝓜[T], on −x")
    st.graphviz_chart(
        tree_to_dot(mirror(tree), [f"−{n}" for n in names], model.tree_.class_names, op="<=")
    )

st.subheader("A worked example")
example_source = st.radio(
    "Example",
    ["loan", "data"],
    horizontal=True,
    key="cond_example",
    format_func={
        "loan": "the paper's loan applicant (Appendix A)",
        "data": f"a held-out row of {data.name}",
    }.get,
)
if example_source == "loan":
    loan = load("Loan table")
    example_model = DecisionTreeClassifier().fit(*loan.arrays())
    example_tree, example_names = example_model.tree_, list(loan.X.columns)
    default_row = np.array([1.0, 50.0, 3.0])
    st.markdown(
        "The paper's applicant: self-employed, income 50k, **3 dependents**; the tree is fitted on "
        "the six rows of Appendix A (1 = defaults)."
    )
    st.graphviz_chart(
        tree_to_dot(
            example_tree,
            example_names,
            ["pays back", "defaults"],
            op="<=",
            marked=np.flatnonzero(lattice_nodes(example_tree, loan.X.to_numpy())),
        )
    )
else:
    example_model, example_tree, example_names = model, tree, names
    candidates = np.flatnonzero(report.prediction_differs)
    row_index = st.number_input(
        "Held-out row to explain",
        0,
        len(X_test) - 1,
        int(candidates[0]) if candidates.size else 0,
        key="cond_row",
        help="Defaults to a held-out row whose prediction changes with the test, when there is one.",
    )
    default_row = X_test[int(row_index)]
x = default_row[None, :]
pred_le, pred_lt = example_tree.predict(x, "<="), example_tree.predict(x, "<")
pred_mirror = mirror(example_tree).predict(-x, "<=")


def shown_value(prediction):
    if example_tree.is_classifier:
        return ", ".join(
            f"{c}: {p:.2f}" for c, p in zip(example_tree.class_names, prediction[0], strict=True)
        )
    return f"{prediction[0]:.4g}"


st.dataframe(
    pd.DataFrame(
        [
            {
                "prediction": "T(x, ≤)",
                "leaf": int(example_tree.apply(x, "<=")[0]),
                "value": shown_value(pred_le),
            },
            {
                "prediction": "T(x, <)",
                "leaf": int(example_tree.apply(x, "<")[0]),
                "value": shown_value(pred_lt),
            },
            {
                "prediction": "𝓜[T](−x, ≤)",
                "leaf": int(mirror(example_tree).apply(-x, "<=")[0]),
                "value": shown_value(pred_mirror),
            },
            {
                "prediction": "average",
                "leaf": None,
                "value": shown_value(example_tree.predict(x, "average")),
            },
        ]
    ),
    hide_index=True,
)
st.caption(
    "x = (" + ", ".join(f"{n} {v:g}" for n, v in zip(example_names, default_row, strict=True)) + ")"
)
if np.array_equal(pred_lt, pred_mirror):
    st.success("T(x, <) equals 𝓜[T](−x, ≤), as the identity says.")
else:  # the identity is exact; this would be a bug worth reporting
    st.error("T(x, <) and 𝓜[T](−x, ≤) differ: this contradicts the mirroring identity.")

# ---------------------------------------------------------------- the forest
st.header("A random forest, four ways")
st.markdown(
    "In a forest every tree can use both tests (*average*, twice the work), or the first half of "
    "the trees can use `<` and the rest `<=` (*half*): the paper's free remedy."
)
f1, f2 = st.columns(2)
n_trees = f1.slider("Trees", 10, 200, 50, 10, key="cond_trees")
forest_seed = f2.number_input("Seed", 0, 10_000, 0, key="cond_forest_seed")
forest = fit_forest(
    data_key,
    "held-out split 0.3/0",
    data.task,
    {**tree_params, "n_estimators": int(n_trees)},
    int(forest_seed),
    X_train,
    y_train,
)
forest_report = conditioning_disagreement(forest, X_test)
if len(names) >= 2:
    if is_classifier:
        variants = {
            op: (lambda rows, op=op: forest.predict_proba(rows, conditioning=op))
            for op in ("<=", "<", "average", "half")
        }
    else:
        variants = {
            op: (lambda rows, op=op: forest.predict(rows, conditioning=op))
            for op in ("<=", "<", "average", "half")
        }
    figure, n_diff = surfaces_figure(
        variants,
        X_train,
        y_train,
        fx,
        fy,
        names,
        changed_points=X_test[forest_report.prediction_differs],
        class_index=class_index,
        value_name=value_name,
        n=90,
    )
    st.plotly_chart(figure, key="cond_forest_surfaces")
st.caption(
    f"{int(forest_report.prediction_differs.sum())} held-out rows get another forest prediction under `<` "
    f"than under `<=`; on average {forest_report.trees_differing.mean():.1f} of {n_trees} trees route a row "
    "differently."
)

# ---------------------------------------------------------------- experiment
st.header("Does it matter? The paper's experiment")
st.markdown(
    "Repeated k-fold cross-validation on the same folds for every test; AUC (classification) or "
    "R² (regression); Wilcoxon signed-rank tests: two-sided for `<=` against `<` (p≠: `*` when "
    "p < 0.05), one-sided for the bias-free variant against each test (`+`: it scores higher with "
    "significance, `-`: lower)."
)
e1, e2, e3, e4 = st.columns(4)
kind = e1.radio("Model", ["tree", "forest"], horizontal=True, key="cond_exp_model")
repeats = e2.number_input("Repeats", 1, 400, 10, key="cond_exp_repeats")
folds = e3.number_input("Folds", 2, 10, 5, key="cond_exp_folds")
exp_trees = e4.number_input(
    "Trees per forest", 5, 500, 30, key="cond_exp_trees", disabled=kind == "tree"
)
paper = PAPER_SETTINGS.get(data.name, {}).get(kind)
use_paper = st.checkbox(
    f"Use the paper's setting for {data.name} ({paper})"
    if paper
    else "Use the settings above (max depth, min rows per leaf)",
    value=bool(paper),
    disabled=not paper,
    key="cond_exp_paper",
)
params = (
    dict(paper)
    if (paper and use_paper)
    else {"max_depth": int(max_depth) or None, "min_samples_leaf": int(min_leaf)}
)
if kind == "forest":
    params["n_estimators"] = int(exp_trees)

RESULT = state.COND_EXPERIMENT
if st.button("Run the experiment", type="primary", key="cond_exp_run"):
    run_with_progress(
        RESULT,
        "Cross-validating",
        lambda progress: conditioning_experiment(
            X,
            y,
            data.task,
            model=kind,
            params=params,
            n_repeats=int(repeats),
            n_splits=int(folds),
            random_state=0,
            n_jobs=2,
            progress=progress,
        ),
    )
result = st.session_state.get(RESULT)
if result is not None:
    summary = result.summary()
    if result.cancelled:
        st.warning(
            f"Stopped after {result.n_folds_done} of {result.n_folds_total} folds; the results below use them."
        )
    left, right = st.columns([3, 2])
    left.plotly_chart(score_distribution_figure(result.scores, result.metric), key="cond_exp_box")
    with right:
        st.dataframe(summary_table(summary), hide_index=True, height=460)
    d = summary["d (<= minus <)"]
    reading = (
        f"Over {summary['folds']} folds, `<=` scores {summary['mean <=']:.4f} and `<` {summary['mean <']:.4f} "
        f"on average (difference {d:+.2e}). "
        + (
            "The Wilcoxon test finds the difference significant: the choice of test matters on this data. "
            if summary["p≠"]
            else "The Wilcoxon test finds no significant difference between the tests. "
        )
        + f"The bias-free variant ({result.proposed}) scores {summary[f'mean {result.proposed}']:.4f}"
        + (
            f", {summary['improvement over worst']:+.2e} over the worse test."
            if summary["improvement significant"]
            else "; it cannot be told apart from the tests with significance."
        )
    )
    st.markdown(reading)

st.subheader("All 40 datasets of the paper")
st.caption(
    "Runs the experiment above on each of the 20 classification and 20 regression datasets with the "
    "paper's hyperparameters (Table 1) where known. With trees and 5 repeats it takes a few minutes; "
    "forests take much longer."
)
ALL = state.COND_EXPERIMENT_ALL
if st.button("Run on all 40 datasets", key="cond_exp_all"):
    names_all = list(PAPER_CLASSIFICATION) + list(PAPER_REGRESSION)
    rows = []

    def run_all(progress):
        for index, name in enumerate(names_all, start=1):
            try:
                processed, _ = preprocess(load(name))
            except DataError:
                continue
            Xd, yd = processed.arrays()
            settings = dict(PAPER_SETTINGS.get(name, {}).get(kind, {"min_samples_leaf": 5}))
            if kind == "forest":
                settings["n_estimators"] = int(exp_trees)
            outcome = conditioning_experiment(
                Xd,
                yd,
                processed.task,
                model=kind,
                params=settings,
                n_repeats=int(repeats),
                n_splits=int(folds),
                random_state=0,
                n_jobs=2,
            )
            rows.append({"dataset": name, "task": processed.task, **outcome.summary()})
            progress(index, len(names_all), pd.DataFrame(rows))
        return pd.DataFrame(rows)

    run_with_progress(ALL, "Datasets", run_all)
table = st.session_state.get(ALL)
if table is not None and len(table):
    st.dataframe(table, hide_index=True)
    st.download_button(
        "Download the table (CSV)",
        table.to_csv(index=False),
        file_name="conditioning_bias.csv",
        mime="text/csv",
        key="cond_exp_csv",
    )
