"""Figures of the conditioning-bias page: surfaces under each test, and score distributions."""

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from .layout import TITLED_SUBPLOTS
from .partition import grid_rows

__all__ = ["score_distribution_figure", "surface_grid", "surfaces_figure"]


def surface_grid(X, fx, fy, fixed=None, n=120):
    """Grid rows over features ``fx`` and ``fy`` that include every observed value of each axis.

    A uniform grid misses the lattice values, the only places where ``<=``
    and ``<`` differ; the observed values are added to it.

    Returns
    -------
    xs, ys : ndarray
    rows : ndarray of shape (len(ys) * len(xs), n_features)
    """
    return grid_rows(X, fx, fy, fixed, n, include_observed=True)


def _scalar(prediction, class_index):
    """The plotted quantity: a class probability, or the regression value."""
    prediction = np.asarray(prediction)
    return prediction[:, class_index] if prediction.ndim == 2 else prediction


def surfaces_figure(
    predictions,
    X,
    y,
    fx,
    fy,
    feature_names,
    changed_points=None,
    class_index=None,
    value_name="prediction",
    fixed=None,
    n=120,
    difference_of=("<=", "<"),
):
    """Side-by-side surfaces of one model under several tests, and where two of them differ.

    Parameters
    ----------
    predictions : dict {title: callable(rows) -> prediction}
        One panel per entry, in order (e.g. "<=", "<", "average").
    X, y : training data, drawn on every panel (and setting the axes' ranges)
    fx, fy : int
        Features on the axes; the others are held at ``fixed`` or their medians.
    changed_points : ndarray of shape (m, n_features), optional
        Rows whose prediction changes between the tests (e.g. held-out rows): marked with a cross.
    class_index : int, optional
        For classification, the class whose probability is shown.
    difference_of : pair of titles, or None
        The two panels compared in an extra last panel (none when None).
    """
    X = np.asarray(X, dtype=float)
    xs, ys, rows = surface_grid(X, fx, fy, fixed, n)
    surfaces = {
        title: _scalar(predict(rows), class_index).reshape(len(ys), len(xs))
        for title, predict in predictions.items()
    }
    titles = [*surfaces] + (
        [f"where {difference_of[0]} and {difference_of[1]} differ"] if difference_of else []
    )
    fig = make_subplots(
        rows=1, cols=len(titles), subplot_titles=titles, shared_yaxes=True, horizontal_spacing=0.02
    )
    low = min(float(s.min()) for s in surfaces.values())
    high = max(float(s.max()) for s in surfaces.values())
    for col, surface in enumerate(surfaces.values(), start=1):
        fig.add_trace(
            go.Heatmap(
                x=xs,
                y=ys,
                z=surface,
                zmin=low,
                zmax=high,
                colorscale="RdBu_r",
                showscale=col == 1,
                colorbar={"title": value_name, "x": 1.01, "len": 0.9},
                hovertemplate="%{x:.4g}, %{y:.4g}<br>" + value_name + " %{z:.3f}<extra></extra>",
            ),
            row=1,
            col=col,
        )
    last = len(titles)
    difference = np.zeros((len(ys), len(xs)), dtype=bool)
    if difference_of:
        difference = np.abs(surfaces[difference_of[0]] - surfaces[difference_of[1]]) > 1e-12
        _difference_panel(fig, xs, ys, difference, last)
    for col in range(1, last + 1):
        _points(fig, X, y, fx, fy, col, changed_points, show_legend=col == 1)
    fig.update_layout(height=380, legend={"orientation": "h", "y": -0.25}, **TITLED_SUBPLOTS)
    fig.update_xaxes(title_text=feature_names[fx])
    fig.update_yaxes(title_text=feature_names[fy], col=1)
    return fig, int(difference.sum())


def _difference_panel(fig, xs, ys, difference, col):
    """Mark the grid points where two surfaces differ, in panel ``col``."""
    gy, gx = np.nonzero(difference)
    fig.add_trace(
        go.Scatter(
            x=xs[gx],
            y=ys[gy],
            mode="markers",
            name="grid points that differ",
            marker={"color": "#9467bd", "size": 4, "symbol": "square"},
        ),
        row=1,
        col=col,
    )


def _points(fig, X, y, fx, fy, col, changed_points, show_legend):
    y = np.asarray(y)
    numeric = np.issubdtype(y.dtype, np.number)
    fig.add_trace(
        go.Scatter(
            x=X[:, fx],
            y=X[:, fy],
            mode="markers",
            name="training rows",
            showlegend=show_legend,
            marker={
                "size": 5,
                "color": y.astype(float) if numeric else None,
                "colorscale": "Greys",
                "line": {"width": 0.5, "color": "white"},
            },
            hoverinfo="skip",
        ),
        row=1,
        col=col,
    )
    if changed_points is not None and len(changed_points):
        fig.add_trace(
            go.Scatter(
                x=changed_points[:, fx],
                y=changed_points[:, fy],
                mode="markers",
                name="rows whose prediction changes",
                showlegend=show_legend,
                marker={"symbol": "x", "size": 10, "color": "#ff7f0e", "line": {"width": 2}},
            ),
            row=1,
            col=col,
        )


def score_distribution_figure(scores, metric):
    """Box plots of the per-fold scores of each variant (same folds)."""
    fig = go.Figure()
    colors = {"<=": "#1f77b4", "<": "#d62728", "average": "#2ca02c", "half": "#9467bd"}
    for variant, values in scores.items():
        fig.add_trace(
            go.Box(
                y=values,
                name=variant,
                boxmean=True,
                marker_color=colors.get(variant),
                boxpoints="outliers",
            )
        )
    fig.update_layout(
        title=f"{metric} on each fold", yaxis_title=metric, showlegend=False, **TITLED_SUBPLOTS
    )
    return fig
