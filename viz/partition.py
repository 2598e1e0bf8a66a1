"""The partition of the feature space by a tree, for two chosen features.

Other features are held at chosen values (their medians by default). The
grid can include every observed value of each axis, which a uniform grid
would miss (that matters where thresholds sit on observed values).
"""

import numpy as np
import plotly.graph_objects as go

from .colors import CLASS_COLORS, class_color
from .layout import LAYOUT

__all__ = ["grid_axis", "grid_rows", "partition_figure", "prediction_grid"]


def grid_axis(values, n=150, include_observed=False, pad=0.05):
    """Sorted grid over the range of ``values`` (padded by ``pad`` of the range).

    With ``include_observed``, every distinct observed value is added.
    """
    values = np.asarray(values, dtype=float)
    low, high = float(values.min()), float(values.max())
    span = high - low if high > low else 1.0
    axis = np.linspace(low - pad * span, high + pad * span, n)
    if include_observed:
        axis = np.union1d(axis, np.unique(values))
    return axis


def grid_rows(X, fx, fy, fixed=None, n=150, include_observed=False):
    """Rows of a grid over features ``fx`` and ``fy``; the other features at ``fixed`` or their medians.

    Returns
    -------
    xs, ys : ndarray
        Grid axes.
    rows : ndarray of shape (len(ys) * len(xs), n_features)
    """
    X = np.asarray(X, dtype=float)
    xs = grid_axis(X[:, fx], n, include_observed)
    ys = grid_axis(X[:, fy], n, include_observed)
    return xs, ys, rows_on_axes(X, fx, fy, xs, ys, fixed)


def rows_on_axes(X, fx, fy, xs, ys, fixed=None):
    """Rows at every point of the grid ``xs`` x ``ys`` over features ``fx`` and ``fy``.

    The other features are at ``fixed`` ({feature: value}) or their medians in
    ``X``. Row ``i * len(xs) + j`` is the point ``(xs[j], ys[i])``.
    """
    point = np.median(np.asarray(X, dtype=float), axis=0)
    for feature, value in (fixed or {}).items():
        point[int(feature)] = float(value)
    grid_x, grid_y = np.meshgrid(xs, ys)
    rows = np.tile(point, (grid_x.size, 1))
    rows[:, fx], rows[:, fy] = grid_x.ravel(), grid_y.ravel()
    return rows


def prediction_grid(tree, X, fx, fy, fixed=None, n=150, include_observed=False, op="<="):
    """Predictions of ``tree`` on a grid of features ``fx`` and ``fy``.

    Parameters
    ----------
    tree : trees.Tree
    X : ndarray of shape (n_samples, n_features)
        Training data: it sets the axes' ranges and the default fixed values.
    fx, fy : int
        Feature indices of the horizontal and vertical axes.
    fixed : dict {feature index: value}, optional
        Values of the other features; medians of ``X`` when absent.
    op : {"<=", "<", "average"}

    Returns
    -------
    xs, ys : ndarray
        Grid axes.
    prediction : ndarray of shape (len(ys), len(xs)[, n_classes])
    """
    xs, ys, rows = grid_rows(X, fx, fy, fixed, n, include_observed)
    prediction = tree.predict(rows, op)
    return xs, ys, prediction.reshape((len(ys), len(xs)) + prediction.shape[1:])


def _class_colorscale(n_classes, opacity_strength=0.35):
    """A stepped colorscale mapping class index k to its colour (faded)."""
    from .colors import blend_with_white

    scale = []
    for k in range(n_classes):
        color = blend_with_white(CLASS_COLORS[k % len(CLASS_COLORS)], opacity_strength)
        low, high = k / n_classes, (k + 1) / n_classes
        scale += [[low, color], [high, color]]
    return scale


def partition_figure(
    tree,
    X,
    y,
    fx,
    fy,
    feature_names,
    class_names=None,
    fixed=None,
    op="<=",
    title=None,
    max_points=3_000,
    seed=0,
):
    """Heatmap of the tree's regions over two features, with the training points.

    Classification: each region in the faded colour of its predicted class.
    Regression: the predicted value on a Viridis scale.
    """
    X = np.asarray(X, dtype=float)
    xs, ys, prediction = prediction_grid(tree, X, fx, fy, fixed=fixed, op=op)
    fig = go.Figure()
    if tree.is_classifier:
        n_classes = prediction.shape[-1]
        names = class_names or [str(k) for k in range(n_classes)]
        predicted = np.argmax(prediction, axis=-1)
        fig.add_trace(
            go.Heatmap(
                x=xs,
                y=ys,
                z=predicted,
                zmin=-0.5,
                zmax=n_classes - 0.5,
                colorscale=_class_colorscale(n_classes),
                showscale=False,
                text=np.asarray(names, dtype=object)[predicted],
                customdata=np.max(prediction, axis=-1),
                hovertemplate="%{x:.3g}, %{y:.3g}<br>class %{text}, share %{customdata:.2f}<extra></extra>",
            )
        )
    else:
        fig.add_trace(
            go.Heatmap(
                x=xs,
                y=ys,
                z=prediction,
                colorscale="Viridis",
                opacity=0.55,
                colorbar={"title": "prediction"},
                hovertemplate="%{x:.3g}, %{y:.3g}<br>prediction %{z:.3g}<extra></extra>",
            )
        )
    _add_points(fig, X, np.asarray(y), fx, fy, tree.is_classifier, class_names, max_points, seed)
    fig.update_layout(
        title=title or "Regions of the tree",
        xaxis_title=feature_names[fx],
        yaxis_title=feature_names[fy],
        **LAYOUT,
    )
    return fig


def _add_points(fig, X, y, fx, fy, is_classifier, class_names, max_points, seed):
    index = np.arange(X.shape[0])
    if index.size > max_points:
        index = np.sort(np.random.default_rng(seed).choice(index, max_points, replace=False))
    if is_classifier:
        labels = np.unique(y)
        for k, label in enumerate(labels):
            rows = index[y[index] == label]
            name = class_names[k] if class_names and k < len(class_names) else str(label)
            fig.add_trace(
                go.Scatter(
                    x=X[rows, fx],
                    y=X[rows, fy],
                    mode="markers",
                    name=name,
                    marker={
                        "color": class_color(k),
                        "size": 6,
                        "line": {"width": 0.5, "color": "white"},
                    },
                )
            )
    else:
        fig.add_trace(
            go.Scatter(
                x=X[index, fx],
                y=X[index, fy],
                mode="markers",
                name="rows",
                marker={
                    "color": y[index].astype(float),
                    "colorscale": "Viridis",
                    "size": 6,
                    "line": {"width": 0.5, "color": "white"},
                },
            )
        )
