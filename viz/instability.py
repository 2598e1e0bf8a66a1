"""Figures of the instability page."""

import numpy as np
import plotly.graph_objects as go

from .layout import LAYOUT
from .partition import grid_rows, heatmap_cells

__all__ = [
    "depth_feature_figure",
    "histogram_figure",
    "root_feature_figure",
    "root_threshold_figure",
    "spread_map_figure",
]


def root_feature_figure(shares, names):
    """Share of refits whose root splits on each feature."""
    order = np.argsort(shares)[::-1]
    fig = go.Figure(
        go.Bar(
            x=[names[i] for i in order],
            y=shares[order],
            marker_color="#2E7D32",
            hovertemplate="%{x}: %{y:.0%}<extra></extra>",
        )
    )
    fig.update_layout(
        title="Feature chosen at the root",
        yaxis_tickformat=".0%",
        yaxis_title="share of refits",
        **LAYOUT,
    )
    return fig


def depth_feature_figure(counts, names):
    """How often each feature is split on at each depth (rows: depth)."""
    shares = counts / np.maximum(counts.sum(axis=1, keepdims=True), 1)
    fig = go.Figure(
        go.Heatmap(
            z=shares,
            x=names,
            y=list(range(counts.shape[0])),
            colorscale="Greens",
            zmin=0,
            zmax=1,
            customdata=counts,
            hovertemplate="depth %{y}, %{x}: %{z:.0%} (%{customdata} splits)<extra></extra>",
        )
    )
    fig.update_layout(
        title="Feature split on, by depth",
        yaxis_title="depth",
        yaxis_autorange="reversed",
        **LAYOUT,
    )
    return fig


def root_threshold_figure(study, names):
    """Distribution of the root thresholds, one colour per root feature."""
    fig = go.Figure()
    for feature in np.unique(study.root_feature[study.root_feature >= 0]):
        values = study.root_threshold[study.root_feature == feature]
        fig.add_trace(go.Histogram(x=values, name=names[feature], opacity=0.75, nbinsx=30))
    fig.update_layout(
        title="Root thresholds",
        barmode="overlay",
        xaxis_title="threshold",
        yaxis_title="refits",
        **LAYOUT,
    )
    return fig


def histogram_figure(values, title, x_title, color="#1f77b4", percent=False):
    """A histogram of one number per refit."""
    fig = go.Figure(go.Histogram(x=values, nbinsx=25, marker_color=color))
    fig.update_layout(title=title, xaxis_title=x_title, yaxis_title="refits", **LAYOUT)
    if percent:
        fig.update_xaxes(tickformat=".0%")
    return fig


def spread_map_figure(
    spread_of_rows, X, fx, fy, names, n=60, value_name="variance of the prediction"
):
    """Variance of the predictions over the refits, as a map over two features.

    ``spread_of_rows(rows)`` returns the variance for grid rows (other features at medians).
    The map is sent as :func:`viz.partition.heatmap_cells` sends it (the refits' variance is
    constant between their thresholds: the default 60 x 60 grid of the Tree instability page
    held 38 KB of its 55).
    """
    xs, ys, rows = grid_rows(X, fx, fy, n=n)
    x, y, z = heatmap_cells(xs, ys, spread_of_rows(rows).reshape(len(ys), len(xs)))
    fig = go.Figure(
        go.Heatmap(x=x, y=y, z=z, colorscale="YlOrRd", zmin=0, colorbar={"title": "variance"})
    )
    fig.add_trace(
        go.Scatter(
            x=X[:, fx],
            y=X[:, fy],
            mode="markers",
            name="rows",
            marker={"size": 4, "color": "#1f77b4", "line": {"width": 0.5, "color": "white"}},
        )
    )
    fig.update_layout(
        title=value_name.capitalize(), xaxis_title=names[fx], yaxis_title=names[fy], **LAYOUT
    )
    return fig
