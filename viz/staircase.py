"""Figures of the staircase page: regions against a linear boundary, steps against a smooth
function, and error against complexity."""

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from .layout import LABEL_BACKGROUND, LAYOUT
from .partition import partition_figure

__all__ = [
    "complexity_figure",
    "depth_title",
    "linear_boundary",
    "staircase_classification_figure",
    "staircase_regression_figure",
    "surface_comparison_figure",
]


def linear_boundary(coef, intercept, x_range):
    """Points of the line ``coef[0] x + coef[1] y + intercept = 0`` over ``x_range``."""
    xs = np.linspace(*x_range, 50)
    if abs(coef[1]) < 1e-12:
        return np.full(2, -intercept / coef[0]), np.array([x_range[0], x_range[1]])
    return xs, -(intercept + coef[0] * xs) / coef[1]


def depth_title(tree, depth_limit, pieces):
    """``"Depth 3: 8 regions"``, saying when the tree is pure before the depth limit."""
    title = f"Depth {tree.max_depth}: {tree.n_leaves} {pieces}"
    if depth_limit is not None and tree.max_depth < depth_limit:
        title += f" (pure before the limit of {depth_limit})"
    return title


def staircase_classification_figure(
    tree, X, y, names, class_names, coef=None, intercept=None, depth_limit=None, regions=True
):
    """The tree's regions over the points, with the logistic-regression boundary as a line.

    Both axes share one scale (a 45 degree boundary looks like one), and the plot is square.
    ``regions=False`` draws the points and the line only (the question before the answer: how
    can a tree, one feature at a time, separate them?).
    """
    fig = partition_figure(
        tree,
        X,
        y,
        0,
        1,
        names,
        class_names,
        title=depth_title(tree, depth_limit, "regions")
        if regions
        else "Two classes on either side of a slanted line",
    )
    if not regions:
        fig.data = fig.data[1:]  # the regions' heatmap is the first trace
    if coef is not None:
        bx, by = linear_boundary(coef, intercept, (X[:, 0].min(), X[:, 0].max()))
        keep = (by >= X[:, 1].min()) & (by <= X[:, 1].max())
        fig.add_trace(
            go.Scatter(
                x=bx[keep],
                y=by[keep],
                mode="lines",
                name="logistic regression",
                line={"color": "black", "dash": "dash", "width": 2},
            )
        )
    fig.update_yaxes(scaleanchor="x", scaleratio=1, constrain="domain")
    fig.update_xaxes(constrain="domain")
    fig.update_layout(height=460, legend={"orientation": "h", "y": -0.18})
    return fig


def staircase_regression_figure(tree, x, y, true_function, extend=0.4, depth_limit=None):
    """Steps of a regression tree over a smooth function, beyond the training range too.

    The grey bands, where there is no training data, lie under the lines: there the tree
    stays flat at its outermost leaf's value while the true function goes on.
    """
    low, high = float(x.min()), float(x.max())
    span = high - low
    grid = np.linspace(low - extend * span, high + extend * span, 600)
    fig = go.Figure()
    for x0, x1, position in ((grid[0], low, "top left"), (high, grid[-1], "top right")):
        fig.add_vrect(
            x0=x0,
            x1=x1,
            fillcolor="#e6e6e6",
            opacity=0.6,
            layer="below",
            line_width=0,
            annotation_text="no training data",
            annotation_position=position,
            annotation_bgcolor=LABEL_BACKGROUND,  # the curve crossed it
        )
    fig.add_trace(
        go.Scatter(x=x, y=y, mode="markers", name="rows", marker={"size": 5, "color": "#7f7f7f"})
    )
    fig.add_trace(
        go.Scatter(
            x=grid,
            y=true_function(grid),
            mode="lines",
            name="true function",
            line={"color": "#1f77b4", "width": 2},
        )
    )
    fig.add_trace(
        go.Scatter(
            x=grid,
            y=tree.predict(grid[:, None]),
            mode="lines",
            name="tree",
            line={"color": "#d62728", "width": 2, "shape": "hv"},
        )
    )
    fig.update_layout(
        title=depth_title(tree, depth_limit, "constant pieces"),
        xaxis_title="x",
        yaxis_title="y",
        legend={"orientation": "h", "y": -0.2},
        **LAYOUT,
    )
    return fig


def surface_comparison_figure(tree, true_surface, X, n=80):
    """A 2-D regression: the true surface beside the tree's blocky approximation."""
    xs = np.linspace(X[:, 0].min(), X[:, 0].max(), n)
    ys = np.linspace(X[:, 1].min(), X[:, 1].max(), n)
    gx, gy = np.meshgrid(xs, ys)
    truth = true_surface(gx, gy)
    prediction = tree.predict(np.column_stack([gx.ravel(), gy.ravel()])).reshape(gx.shape)
    fig = make_subplots(
        rows=1,
        cols=2,
        subplot_titles=["true surface", f"tree, depth {tree.max_depth}"],
        shared_yaxes=True,
        horizontal_spacing=0.03,
    )
    low, high = float(min(truth.min(), prediction.min())), float(max(truth.max(), prediction.max()))
    fig.add_trace(
        go.Heatmap(x=xs, y=ys, z=truth, zmin=low, zmax=high, colorscale="Viridis", showscale=False),
        1,
        1,
    )
    fig.add_trace(
        go.Heatmap(x=xs, y=ys, z=prediction, zmin=low, zmax=high, colorscale="Viridis"), 1, 2
    )
    fig.update_layout(height=380, **LAYOUT)
    fig.update_xaxes(title_text="x1")
    fig.update_yaxes(title_text="x2", col=1)
    return fig


PARAMETER_NAMES = {
    "max_depth": "maximum depth",
    "min_samples_leaf": "minimum rows per leaf",
    "ccp_alpha": "pruning strength α (ccp_alpha)",
}
# Where a name is too long for a title beside another figure.
SHORT_PARAMETER_NAMES = {"ccp_alpha": "pruning strength α"}


def _value_label(value):
    """A parameter value as a tick: "no limit" for None, short numbers (alphas: 2 digits)."""
    if value is None:
        return "no limit"
    return f"{value:.2g}" if isinstance(value, float) else value


def complexity_figure(curve):
    """Train and test error (mean ± SD over folds) against a parameter, baseline and best marked.

    The title breaks before "against" and the legend sits under the axis title, so two
    figures side by side at 1024 pixels keep both whole.
    """
    labels = [_value_label(v) for v in curve.values]
    xs = list(range(len(labels)))
    fig = go.Figure()
    for name, mean, std, color in (
        ("train", curve.train_mean, curve.train_std, "#1f77b4"),
        ("test (cross-validated)", curve.test_mean, curve.test_std, "#d62728"),
    ):
        fig.add_trace(
            go.Scatter(
                x=xs + xs[::-1],
                y=np.concatenate([mean + std, (mean - std)[::-1]]),
                mode="lines",
                fill="toself",
                fillcolor=color,
                opacity=0.15,
                line={"width": 0},
                hoverinfo="skip",
                showlegend=False,
            )
        )
        fig.add_trace(
            go.Scatter(x=xs, y=mean, mode="lines+markers", name=name, line={"color": color})
        )
    # The baseline is named in the legend: a label on the line sat under the curves.
    fig.add_trace(
        go.Scatter(
            x=[xs[0], xs[-1]],
            y=[curve.baseline_mean] * 2,
            mode="lines",
            name="linear baseline",
            line={"color": "black", "dash": "dash"},
            hoverinfo="skip",
        )
    )
    fig.add_trace(
        go.Scatter(
            x=[curve.best_index],
            y=[curve.test_mean[curve.best_index]],
            mode="markers",
            name=f"best: {labels[curve.best_index]}",
            marker={"size": 14, "symbol": "star", "color": "#ff7f0e"},
        )
    )
    parameter = PARAMETER_NAMES.get(curve.parameter, curve.parameter)
    fig.update_layout(
        # The short name: "pruning strength α (ccp_alpha)" was cut at half of 1024 px; the axis
        # title says it whole.
        title=f"{curve.error_name}<br>against the {SHORT_PARAMETER_NAMES.get(curve.parameter, parameter)}",
        yaxis_title=curve.error_name,
        legend={"orientation": "h", "y": -0.38, "yanchor": "top"},
        **LAYOUT,
    )
    fig.update_xaxes(tickvals=xs, ticktext=[str(v) for v in labels], title_text=parameter)
    return fig
