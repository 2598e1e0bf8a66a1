"""The staircase page's two parts, each rerun alone by its own widgets (``ui.fragments``).

* :func:`staircase_part`: the settings of the picture, the picture, and the headline it
  writes into the page's container above the guide;
* :func:`tabs_part`: the two tabs (regression, how deep to grow) and their controls.

A slider of one part redraws that part only: the other part, the guide and the sidebar stay
as they are, and the browser draws the few elements the slider changed.
"""

import numpy as np
import streamlit as st

from datasets.synthetic import smooth_function, surface_function
from ui import figures, fragments, presenter, report, share, state
from ui.cached import sample
from ui.guides import REGIONS
from ui.markdown import plain
from viz.staircase import (
    complexity_figure,
    staircase_classification_figure,
    staircase_regression_figure,
    surface_comparison_figure,
)

from . import keys
from .cache import complexity_curves, logistic_fit, staircase_example, staircase_tree

__all__ = ["staircase_part", "tabs_part"]


@fragments.fragment
def staircase_part(headline):
    """The staircase along an oblique boundary, its settings, and the headline in ``headline``."""
    picture = st.container()
    with st.expander("Settings of the picture", expanded=not presenter.active()):
        c1, c2, c3, c4 = st.columns(4)
        depth = share.slider(c1, "Maximum depth", 1, 12, 3, key="stair_depth")
        angle = share.slider(c2, "Boundary angle (degrees)", 0, 90, 45, 5, key="stair_angle")
        noise = share.slider(c3, "Label noise", 0.0, 0.5, 0.05, 0.05, key="stair_noise")
        rows = share.number_input(c4, "Rows", 50, 5_000, 400, 50, key="stair_rows")
    settings = ("Oblique boundary", angle, rows, noise)
    X, y = staircase_example(
        "Oblique boundary",
        (("angle", float(angle)), ("n_samples", int(rows)), ("noise", float(noise))),
    )
    tree = staircase_tree("classification", int(depth), X, y, settings)
    logistic = logistic_fit(X, y, settings)
    tree_accuracy = float(np.mean(np.argmax(tree.predict(X), axis=1) == y))
    presenter.headline(
        "staircase",
        f"**A tree asks about one feature at a time, so a {int(angle)}° boundary becomes a "
        f"staircase:** depth {tree.max_depth} needs {tree.n_leaves} regions for "
        f"{tree_accuracy:.0%} training accuracy; one oblique line (logistic regression, "
        f"dashed) gets {float(logistic.score(X, y)):.0%}.",
        container=headline.empty(),
    )
    with picture:
        figures.chart(
            staircase_classification_figure(
                tree,
                X,
                y,
                ["x1", "x2"],
                ["0", "1"],
                logistic.coef_[0],
                logistic.intercept_[0],
                int(depth),
                regions=not presenter.held_back("staircase", REGIONS),
            ),  # fmt: skip
            key="stair_clf",
            key_picture=True,
            title="The staircase along an oblique boundary",
        )
    report.add_settings(
        {
            "maximum depth": int(depth),
            "boundary angle": int(angle),
            "label noise": noise,
            "rows": int(rows),
        }  # fmt: skip
    )
    report.add_snippet(_staircase_snippet(int(depth), int(rows), float(angle), float(noise)))


def _staircase_snippet(depth, rows, angle, noise):
    return (
        "from datasets import generate\n"
        "from trees import DecisionTreeClassifier\n\n"
        f'data = generate("Oblique boundary", n_samples={rows}, angle={angle}, noise={noise})\n'
        "X, y = data.arrays()\n"
        f"tree = DecisionTreeClassifier(max_depth={depth}).fit(X, y)\n"
        'print(tree.get_depth(), "levels,", tree.get_n_leaves(), "regions, training accuracy", '
        "tree.score(X, y))\n"
    )


@fragments.fragment
def tabs_part():
    """The regression and depth tabs; only the open one runs (``ui.share.tabs``)."""
    regression_tab, depth_tab = share.tabs(
        st, ["Regression: steps, and no extrapolation", "How deep to grow?"], key=keys.TAB
    )
    share.show_open_tab((regression_tab, _regression), (depth_tab, _depth))


def _regression():
    r1, r2, r3 = st.columns(3)
    reg_depth = share.slider(r1, "Maximum depth", 1, 12, 3, key="stair_reg_depth")
    reg_noise = share.slider(r2, "Noise SD", 0.0, 1.0, 0.3, 0.05, key="stair_reg_noise")
    two_d = share.toggle(r3, "2-D surface", key="stair_2d")
    name = "Smooth 2-D regression" if two_d else "Smooth 1-D regression"
    X, y = staircase_example(name, (("noise", float(reg_noise)),))
    tree = staircase_tree("regression", int(reg_depth), X, y, (name, reg_noise))
    if two_d:
        figures.chart(surface_comparison_figure(tree, surface_function, X), key="stair_surface")
        st.caption(
            "y = sin(x1) + cos(x2): the tree covers the smooth surface with flat rectangles."
        )
        return
    figures.chart(
        staircase_regression_figure(tree, X[:, 0], y, smooth_function, depth_limit=int(reg_depth)),
        key="stair_reg",
    )
    st.caption(
        "y = sin(x) + x/3. In the grey bands there is no training data: the true function goes "
        "on changing, but the tree stays flat at the value of its outermost leaf. Trees do not "
        "extrapolate."
    )


def _depth():
    data = state.current()
    st.markdown(
        "Deeper trees follow the training data more closely, until they follow its noise: the "
        "cross-validated error is lowest somewhere in between. Source 003's toy data (two "
        "Gaussian classes, SD 1, one shifted by 1.5) is best around depth 3."
    )
    d1, d2, d3, d4 = st.columns([1.5, 1, 1, 1.2])  # the toggle's label whole at 1024 px
    use_toy = share.toggle(d1, "Source 003's toy data", key="stair_toy")
    folds = int(share.number_input(d2, "Folds", 2, 10, 5, key="stair_folds"))
    repeats = int(share.number_input(d3, "Repeats", 1, 10, 1, key="stair_repeats"))
    errors = ["1 - accuracy"] if (use_toy or data.task == "classification") else ["1 - R2", "MSE"]
    error_name = share.selectbox(d4, "Error", errors, key="stair_error")
    if use_toy:
        X, y = staircase_example("Two Gaussian classes", (("n_samples", 1_000),))
        task, source, subsampled = "classification", "toy data", False
    else:
        X, y, subsampled = sample(state.dataset_key(), 20_000, 0, *data.arrays())
        task, source = data.task, state.dataset_key()
    smallest = np.unique(y, return_counts=True)[1].min() if task == "classification" else len(y)
    if len(y) < 2 * folds or smallest < folds:
        st.warning(
            f"{plain(data.name)} is too small for {folds}-fold cross-validation: every class "
            f"needs at least {folds} rows. Lower the number of folds or pick a larger dataset."
        )
        return
    signature = (source, task, folds, repeats, error_name)
    if st.button(
        "Cross-validate every depth, leaf size and pruning strength α",
        key="stair_run",
        type="primary",
    ):
        st.session_state[keys.CURVES] = signature
    if st.session_state.get(keys.CURVES) != signature:
        st.info(
            "Press the button to cross-validate 29 tree sizes on "
            + ("the toy data" if use_toy else plain(data.name))
            + (" (a random 20,000 rows)" if subsampled else "")
            + "."
        )
        return
    _curves(*complexity_curves(signature, X, y))


def _curves(depth_curve, leaf_curve, alpha_curve):
    a, b = st.columns(2)
    figures.chart(complexity_figure(depth_curve), key="stair_depth_curve", container=a)
    figures.chart(complexity_figure(alpha_curve), key="stair_alpha_curve", container=b)
    c, d = st.columns(2)
    figures.chart(complexity_figure(leaf_curve), key="stair_leaf_curve", container=c)
    best_depth = "no limit" if depth_curve.best_value is None else depth_curve.best_value
    d.markdown(
        f"Lowest cross-validated error: maximum depth **{best_depth}** "
        f"({depth_curve.test_mean[depth_curve.best_index]:.3f}), pruning strength "
        f"α = **{alpha_curve.best_value:g}** ({alpha_curve.test_mean[alpha_curve.best_index]:.3f}) "
        f"and minimum rows per leaf **{leaf_curve.best_value}** "
        f"({leaf_curve.test_mean[leaf_curve.best_index]:.3f}); the linear baseline scores "
        f"{depth_curve.baseline_mean:.3f}. Bands: ± one standard deviation over folds."
    )
    d.markdown(
        "**Two ways to a smaller tree.** A depth limit stops every branch at the same "
        "depth while it grows. Cost-complexity pruning grows the whole tree, then cuts "
        "back the branches whose splits buy the least: each leaf costs α, so a branch "
        "survives only if it lowers the impurity by more than α per extra leaf. The α "
        "values come from this data's own pruning path (0: no pruning)."
    )
