"""Evaluate: train/test split, cross-validation, tuning, exhaustive trees and a forest (source 004)."""

import numpy as np
import streamlit as st
from sklearn.metrics import confusion_matrix, roc_auc_score, roc_curve

from trees import (
    CRITERIA_CLF,
    configuration_grid,
    cross_validated_search,
    holdout_tuning,
    nested_cross_validation,
    split_error,
)
from trees.studies import train_test_rows
from ui import errors, shell, state
from ui.cached import as_key, exhaustive, fit_model, sample
from ui.experiments import run_with_progress
from viz.evaluation import confusion_figure, roc_figure, search_table

shell.page_frame()

st.title("Evaluate and tune a tree")
st.markdown(
    "How good is a tree, and which stopping rules make it best? Hold out a test split, grow one tree per "
    "criterion to purity as a reference, then search a grid of stopping rules (depth, leaves, nodes, "
    "rows to split, impurity decrease) by k-fold cross-validation, holdout validation or nested "
    "cross-validation (source 004, section 4). The error is the zero-one loss, or 1 − R² for regression."
)

data = state.current()
X, y = data.arrays()
is_classifier = data.task == "classification"
categorical, _ = data.categorical_features()
base = {"categorical_features": categorical} if categorical else {}
if categorical:
    st.caption(
        f"{len(categorical)} columns are kept as categories: the trees split them by membership."
    )
data_key = state.dataset_key()
X, y, subsampled = sample(data_key, 20_000, 0, X, y)
if subsampled:
    st.caption("A random 20,000 rows are used.")

t1, t2 = st.columns(2)
test_share = t1.slider("Test share", 0.1, 0.5, 0.2, 0.05, key="eval_test")
seed = t2.number_input("Seed", 0, 10_000, 0, key="eval_seed")
counts = np.unique(y, return_counts=True)[1] if is_classifier else None
if len(y) < 10:
    st.warning(
        "This dataset is too small to split into training and test parts; pick one with at least 10 rows."
    )
    errors.end_page()
train_rows, test_rows = train_test_rows(data.task, y, test_share, int(seed))
X_train, X_test, y_train, y_test = X[train_rows], X[test_rows], y[train_rows], y[test_rows]
split_name = f"test split {test_share}/{int(seed)}"
st.caption(f"{len(y_train):,} training rows, {len(y_test):,} test rows.")

if is_classifier:
    st.header("Trees grown to purity, one per criterion")
    st.dataframe(
        exhaustive(data_key, split_name, as_key(base), X_train, y_train, X_test, y_test),
        hide_index=True,
        column_config={
            "train error": st.column_config.NumberColumn(format="%.3f"),
            "test error": st.column_config.NumberColumn(format="%.3f"),
        },
    )
    st.caption(
        "Source 004, Table 4.1: their depth and size bound the ranges worth searching. A training "
        "error above 0 means identical rows with different classes, which no split can separate."
    )

st.header("Search the stopping rules")


def parse_values(text, cast):
    """'none, 3, 5' -> [None, 3, 5]; raises ValueError with a readable message."""
    values = []
    for part in text.split(","):
        part = part.strip().lower()
        if not part:
            continue
        if part in ("none", "no limit"):
            values.append(None)
            continue
        try:
            values.append(cast(part))
        except ValueError as err:
            raise ValueError(f"{part!r} is not a number") from err
    return values


criteria = sorted(CRITERIA_CLF) if is_classifier else ["squared_error"]
g1, g2, g3 = st.columns(3)
chosen_criteria = g1.multiselect(
    "Criterion", criteria, default=["gini"] if is_classifier else criteria, key="eval_criteria"
)
depth_text = g2.text_input("Max depth", "2, 4, 6, none", key="eval_depth")
leaves_text = g3.text_input("Max leaves", "none", key="eval_leaves")
g4, g5, g6 = st.columns(3)
nodes_text = g4.text_input("Max nodes", "none", key="eval_nodes")
split_text = g5.text_input("Min rows to split", "2, 20", key="eval_split")
impurity_text = g6.text_input("Min impurity decrease", "0", key="eval_impurity")
try:
    grid = configuration_grid(
        criterion=chosen_criteria,
        max_depth=parse_values(depth_text, int),
        max_leaf_nodes=parse_values(leaves_text, int),
        max_nodes=parse_values(nodes_text, int),
        min_samples_split=[v for v in parse_values(split_text, int) if v is not None],
        min_impurity_decrease=[v for v in parse_values(impurity_text, float) if v is not None],
    )
    lowest = {
        "max_depth": 1,
        "max_leaf_nodes": 2,
        "max_nodes": 1,
        "min_samples_split": 2,
        "min_impurity_decrease": 0,
    }
    if any(c.get(name) is not None and c[name] < low for c in grid for name, low in lowest.items()):
        raise ValueError(
            "depths and node counts start at 1, leaves at 2, rows to split at 2, impurity at 0"
        )
except ValueError as err:
    st.error(
        f"The grid cannot be read: {err}. Write comma-separated numbers, and 'none' for no limit."
    )
    errors.end_page()

m1, m2, m3 = st.columns(3)
method = m1.radio(
    "Method",
    ["k-fold cross-validation", "holdout validation", "nested cross-validation"],
    key="eval_method",
)
folds = m2.number_input(
    "Outer folds" if method == "nested cross-validation" else "Folds",
    2,
    10,
    5,
    key="eval_folds",
    disabled=method == "holdout validation",
)
if method == "nested cross-validation":
    inner = m3.number_input("Inner folds", 2, 10, 3, key="eval_inner")
elif method == "holdout validation":
    inner = m3.slider(
        "Validation share of the training rows (%)", 5, 50, 20, 5, key="eval_validation"
    )
else:
    inner = 0
    m3.caption("Every configuration is cross-validated on the same folds of the training rows.")
st.caption(f"{len(grid)} configurations on the training rows.")
min_class = counts.min() if is_classifier else len(y_train)
if is_classifier and min_class < int(folds):
    st.warning("A class has fewer rows than folds: lower the number of folds.")
    errors.end_page()

RESULT = state.EVAL_SEARCH
signature = (
    state.dataset_key(),
    float(test_share),
    int(seed),
    method,
    int(folds),
    int(inner),
    str(grid),
    str(base),
)
if st.button("Search", type="primary", key="eval_run"):
    task = data.task

    def run(progress):
        def report(done, total):
            progress(done, total, None)

        if method == "k-fold cross-validation":
            result = cross_validated_search(
                task,
                grid,
                X_train,
                y_train,
                k=int(folds),
                seed=int(seed),
                progress=report,
                base_params=base,
            )
        elif method == "holdout validation":
            share = int(inner) / 100
            result = holdout_tuning(
                task,
                grid,
                X_train,
                y_train,
                validation_size=share,
                seed=int(seed),
                progress=report,
                base_params=base,
            )
        else:
            result = nested_cross_validation(
                task,
                grid,
                X_train,
                y_train,
                outer_k=int(folds),
                inner_k=int(inner),
                seed=int(seed),
                progress=report,
                base_params=base,
            )
        return signature, result

    run_with_progress(RESULT, "Fitting configurations", run)

stored = st.session_state.get(RESULT)
if stored is None or stored[0] != signature:
    st.info("Press Search to evaluate the grid with the chosen method.")
    errors.end_page()
result = stored[1]
left, right = st.columns([3, 2])
with left:
    st.dataframe(
        search_table(result),
        hide_index=True,
        height=300,
        column_config={"error": st.column_config.NumberColumn(format="%.4f")},
    )
with right:
    st.markdown("**Best settings**")
    st.json({k: v for k, v in result.best.items()})
    label = {
        "k-fold cross-validation": "Cross-validation error of the best settings",
        "holdout validation": "Validation error of the best settings",
        "nested cross-validation": "Nested cross-validation estimate of the risk",
    }[method]
    st.metric(label, f"{result.estimate:.4f}")
    if result.outer_best:
        st.caption("Chosen in each outer fold: " + "; ".join(str(b) for b in result.outer_best))

best_tree = fit_model(
    data_key, split_name, "tree", data.task, as_key({**result.best, **base}), None, X_train, y_train
)
test_error = split_error(data.task, y_test, best_tree.predict(X_test))
st.header("The best tree on the test split")
b1, b2, b3 = st.columns(3)
b1.metric("Test error", f"{test_error:.4f}")
b2.metric("Depth", best_tree.get_depth())
b3.metric("Leaves", best_tree.get_n_leaves())

forest_params = {k: v for k, v in result.best.items() if k != "max_nodes"}
forest_params.update(n_estimators=100, oob_score=True, n_jobs=2)
forest = fit_model(
    data_key, split_name, "forest", data.task, as_key(forest_params), int(seed), X_train, y_train
)
forest_error = split_error(data.task, y_test, forest.predict(X_test))
oob_error = 1.0 - forest.oob_score_
f1, f2 = st.columns(2)
difference = forest_error - test_error
f1.metric(
    "Random forest (100 trees, same settings): test error",
    f"{forest_error:.4f}",
    f"{difference:+.4f} against the tree" if abs(difference) > 1e-12 else "same as the tree",
    delta_color="inverse" if abs(difference) > 1e-12 else "off",
)
f2.metric(
    "Its out-of-bag error",
    f"{oob_error:.4f}",
    help="1 − out-of-bag accuracy (or R²): an estimate of the test error that needs no test split.",
)
if result.best.get("max_nodes") is not None:
    st.caption("The forest ignores max_nodes, which forests do not support.")
if categorical:
    st.caption(
        "The forest reads the category codes as ordered numbers: its trees have no membership splits."
    )

if is_classifier:
    c1, c2 = st.columns(2)
    classes = best_tree.classes_
    c1.plotly_chart(
        confusion_figure(
            confusion_matrix(y_test, best_tree.predict(X_test), labels=classes, normalize="true"),
            classes,
        ),
        key="eval_confusion",
    )
    if len(classes) == 2:
        curves = {}
        for name, model in (("tree", best_tree), ("forest", forest)):
            score = model.predict_proba(X_test)[:, 1]
            fpr, tpr, _ = roc_curve(y_test == classes[1], score)
            curves[name] = (fpr, tpr, roc_auc_score(y_test == classes[1], score))
        c2.plotly_chart(roc_figure(curves), key="eval_roc")
    else:
        c2.info("The ROC curve is drawn for two classes; this target has more.")
