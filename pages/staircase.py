"""The staircase effect and depth-versus-error curves (source 003)."""

import numpy as np
import streamlit as st
from sklearn.linear_model import LogisticRegression

from datasets import generate, preprocess
from datasets.synthetic import smooth_function, surface_function
from trees import DecisionTreeClassifier, DecisionTreeRegressor, complexity_curve
from ui import shell, state
from ui.cached import sample
from viz.staircase import (
    complexity_figure,
    staircase_classification_figure,
    staircase_regression_figure,
    surface_comparison_figure,
)

shell.page_frame()

st.title("The staircase effect, and how deep to grow")
st.markdown(
    "A tree only asks questions about one feature at a time, so a diagonal class boundary becomes a "
    "staircase and a smooth curve becomes steps; beyond the data it predicts a constant. Deeper trees "
    "follow the training data more closely, until they follow its noise: the test error is lowest "
    "somewhere in between (source 003)."
)


@st.cache_data(show_spinner=False)
def example(name, **params):
    data, _ = preprocess(generate(name, **params))
    return data.arrays()


st.header("Classification: an oblique boundary")
c1, c2, c3, c4 = st.columns(4)
depth = c1.slider("Tree depth", 1, 12, 3, key="stair_depth")
angle = c2.slider("Boundary angle (degrees)", 0, 90, 45, 5, key="stair_angle")
noise = c3.slider("Label noise", 0.0, 0.5, 0.05, 0.05, key="stair_noise")
rows = c4.number_input("Rows", 50, 5_000, 400, 50, key="stair_rows")
X_clf, y_clf = example(
    "Oblique boundary", n_samples=int(rows), angle=float(angle), noise=float(noise)
)
tree = DecisionTreeClassifier(max_depth=depth).fit(X_clf, y_clf).tree_
logistic = LogisticRegression().fit(X_clf, y_clf)
left, right = st.columns([3, 2])
left.plotly_chart(
    staircase_classification_figure(
        tree, X_clf, y_clf, ["x1", "x2"], ["0", "1"], logistic.coef_[0], logistic.intercept_[0]
    ),
    key="stair_clf",
)
with right:
    tree_acc = np.mean(np.argmax(tree.predict(X_clf), axis=1) == y_clf)
    st.metric("Tree training accuracy", f"{tree_acc:.3f}")
    st.metric("Logistic regression training accuracy", f"{logistic.score(X_clf, y_clf):.3f}")
    st.markdown(
        "The dashed line is the logistic-regression boundary: one oblique cut. The tree needs a step "
        "for every change of direction; raise the depth and watch the staircase refine (and, with "
        "noise, start to chase single points)."
    )

st.header("Regression: a smooth function")
r1, r2, r3 = st.columns(3)
reg_depth = r1.slider("Tree depth", 1, 12, 3, key="stair_reg_depth")
reg_noise = r2.slider("Noise SD", 0.0, 1.0, 0.3, 0.05, key="stair_reg_noise")
two_d = r3.toggle("2-D surface", key="stair_2d")
if two_d:
    X_reg, y_reg = example("Smooth 2-D regression", noise=float(reg_noise))
    reg_tree = DecisionTreeRegressor(max_depth=reg_depth).fit(X_reg, y_reg).tree_
    st.plotly_chart(
        surface_comparison_figure(reg_tree, surface_function, X_reg), key="stair_surface"
    )
    st.caption("y = sin(x1) + cos(x2): the tree covers the smooth surface with flat rectangles.")
else:
    X_reg, y_reg = example("Smooth 1-D regression", noise=float(reg_noise))
    reg_tree = DecisionTreeRegressor(max_depth=reg_depth).fit(X_reg, y_reg).tree_
    st.plotly_chart(
        staircase_regression_figure(reg_tree, X_reg[:, 0], y_reg, smooth_function), key="stair_reg"
    )
    st.caption(
        "y = sin(x) + x/3. Outside the grey bands' edges there is no training data: the tree keeps "
        "predicting the value of its outermost leaf, whatever the trend was."
    )

st.header("Depth versus error on your data")
data = state.current()
st.markdown(
    f"Cross-validated on **{data.name}** ({data.n_rows:,} rows). Source 003's toy example (two Gaussian "
    "classes, SD 1, one shifted by 1.5) is best around depth 3."
)
d1, d2, d3, d4 = st.columns(4)
use_toy = d1.toggle("Use source 003's toy data instead", key="stair_toy")
folds = d2.number_input("Folds", 2, 10, 5, key="stair_folds")
repeats = d3.number_input("Repeats", 1, 10, 1, key="stair_repeats")
error_names = ["1 - accuracy"] if (use_toy or data.task == "classification") else ["1 - R2", "MSE"]
error_name = d4.selectbox("Error", error_names, key="stair_error")
if use_toy:
    X_cv, y_cv = example("Two Gaussian classes", n_samples=1_000)
    task = "classification"
else:
    X_cv, y_cv = data.arrays()
    task = data.task
    X_cv, y_cv, subsampled = sample(state.dataset_key(), 20_000, 0, X_cv, y_cv)
    if subsampled:
        st.caption("A random 20,000 rows are used.")


@st.cache_data(show_spinner="Cross-validating trees of every depth and leaf size...")
def curves(X, y, task, folds, repeats, error_name):
    depth_curve = complexity_curve(
        X,
        y,
        task,
        "max_depth",
        [1, 2, 3, 4, 5, 6, 8, 10, 12, 15, None],
        n_splits=folds,
        n_repeats=repeats,
        error_name=error_name,
    )
    leaf_values = sorted({1, 2, 5, 10, 20, 50, 100, max(1, len(y) // 20)})
    leaf_values = [v for v in leaf_values if v <= len(y) // 4] or [1]
    leaf_curve = complexity_curve(
        X,
        y,
        task,
        "min_samples_leaf",
        leaf_values,
        n_splits=folds,
        n_repeats=repeats,
        error_name=error_name,
    )
    return depth_curve, leaf_curve


min_class = np.unique(y_cv, return_counts=True)[1].min() if task == "classification" else len(y_cv)
if len(y_cv) < 2 * int(folds) or min_class < int(folds):
    st.warning(
        f"This dataset is too small for {int(folds)}-fold cross-validation (it needs at least {int(folds)} "
        "rows of every class). Lower the number of folds or pick a larger dataset."
    )
else:
    depth_curve, leaf_curve = curves(X_cv, y_cv, task, int(folds), int(repeats), error_name)
    a, b = st.columns(2)
    a.plotly_chart(complexity_figure(depth_curve), key="stair_depth_curve")
    b.plotly_chart(complexity_figure(leaf_curve), key="stair_leaf_curve")
    best_depth = "unbounded" if depth_curve.best_value is None else depth_curve.best_value
    st.markdown(
        f"Lowest cross-validated error: depth **{best_depth}** "
        f"({depth_curve.test_mean[depth_curve.best_index]:.3f}) and min rows per leaf "
        f"**{leaf_curve.best_value}** ({leaf_curve.test_mean[leaf_curve.best_index]:.3f}); the linear "
        f"baseline scores {depth_curve.baseline_mean:.3f}. Bands: ± one SD over folds."
    )
