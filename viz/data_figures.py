"""Figures of the Data page: class balance, target histogram, 2-D scatter."""

import numpy as np
import pandas as pd
import plotly.express as px
import plotly.graph_objects as go

from .colors import class_color_map
from .layout import LAYOUT

__all__ = [
    "MAX_SCATTER_POINTS",
    "class_balance_figure",
    "scatter_figure",
    "target_figure",
    "target_histogram",
]

MAX_SCATTER_POINTS = 5_000


def class_balance_figure(y):
    """Bar chart of the number of rows per class, each bar in its class's colour, shares on hover."""
    colors = class_color_map(y.to_numpy())
    labels = list(colors)
    counts = y.astype(str).value_counts().reindex(labels, fill_value=0)
    share = counts / counts.sum()
    fig = go.Figure(
        go.Bar(
            x=labels,
            y=counts.to_numpy(),
            customdata=share.to_numpy(),
            text=[f"{s:.0%}" for s in share],
            textposition="auto",
            hovertemplate="class %{x}<br>%{y} rows (%{customdata:.1%})<extra></extra>",
            marker_color=[colors[label] for label in labels],
        )
    )
    fig.update_layout(
        title="Class balance",
        xaxis_title=str(y.name or "class"),
        yaxis_title="rows",
        height=300,
        **LAYOUT,
    )
    fig.update_xaxes(type="category")
    return fig


def target_histogram(y, bins=40):
    """Histogram of a regression target."""
    fig = px.histogram(x=y.to_numpy(dtype=float), nbins=bins, color_discrete_sequence=["#2E7D32"])
    fig.update_layout(
        title="Target distribution",
        xaxis_title=str(y.name or "target"),
        yaxis_title="rows",
        height=300,
        **LAYOUT,
    )
    return fig


def target_figure(dataset):
    """Class balance for classification, histogram for regression."""
    if dataset.task == "classification":
        return class_balance_figure(dataset.y)
    return target_histogram(dataset.y)


def _jittered(values, rng, share=0.15):
    """Values moved by up to ``share`` of their smallest gap, so stacked points show."""
    distinct = np.unique(values[np.isfinite(values)])
    gap = np.diff(distinct).min() if distinct.size > 1 else 1.0
    return values + rng.uniform(-share, share, values.shape) * gap


def scatter_figure(
    dataset, x_feature, y_feature, max_points=MAX_SCATTER_POINTS, seed=0, jitter=False
):
    """Scatter of two features coloured by the target (a random subsample beyond ``max_points``).

    With ``jitter``, points are moved by up to 15% of the smallest gap between
    distinct values, so rows stacked on a lattice become visible.

    Returns
    -------
    fig : plotly.graph_objects.Figure
    n_shown : int
        Number of points drawn.
    """
    frame = pd.DataFrame(
        {
            "x": dataset.X[x_feature].to_numpy(),
            "y": dataset.X[y_feature].to_numpy(),
            "target": dataset.y.to_numpy(),
        }
    )
    rng = np.random.default_rng(seed)
    if len(frame) > max_points:
        keep = rng.choice(len(frame), max_points, replace=False)
        frame = frame.iloc[np.sort(keep)]
    if jitter:
        frame["x"] = _jittered(frame["x"].to_numpy(dtype=float), rng)
        frame["y"] = _jittered(frame["y"].to_numpy(dtype=float), rng)
    if dataset.task == "classification":
        colors = class_color_map(dataset.y.to_numpy())  # every class's colour, as everywhere
        frame["target"] = frame["target"].astype(str)
        fig = px.scatter(
            frame,
            x="x",
            y="y",
            color="target",
            opacity=0.75,
            category_orders={"target": [c for c in colors if c in set(frame["target"])]},
            color_discrete_map=colors,
        )
    else:
        fig = px.scatter(
            frame, x="x", y="y", color="target", opacity=0.75, color_continuous_scale="Viridis"
        )
    target_name = str(dataset.y.name or "target")
    fig.update_traces(marker={"size": 7, "line": {"width": 0.3, "color": "white"}})
    fig.update_layout(
        title=f"{y_feature} against {x_feature}",
        xaxis_title=str(x_feature),
        yaxis_title=str(y_feature),
        legend_title_text=target_name,
        coloraxis_colorbar_title_text=target_name,
        **LAYOUT,
    )
    return fig, len(frame)
