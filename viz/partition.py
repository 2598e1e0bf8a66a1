"""The partition of the feature space by a tree, for two chosen features.

Other features are held at chosen values (their medians by default).

* :func:`partition_figure` draws the regions exactly: cells bounded by the tree's own
  thresholds (:func:`region_edges`), one prediction per cell (:func:`region_grid`).
* :func:`grid_rows` and :func:`prediction_grid` sample a fine grid, for pictures of what is
  not a single tree's partition (forests' surfaces, refits compared). The grid can include
  every observed value of each axis, which a uniform grid would miss (that matters where
  thresholds sit on observed values). :func:`heatmap_cells` is what such a map sends: a
  run of equal columns or rows of the grid as one cell.
"""

import numpy as np
import plotly.graph_objects as go

from .colors import CLASS_COLORS, class_color
from .layout import LAYOUT

__all__ = [
    "grid_axis",
    "grid_rows",
    "heatmap_cells",
    "partition_figure",
    "prediction_grid",
    "region_edges",
    "region_grid",
    "rows_on_axes",
    "view_range",
]


def grid_axis(values, n=150, include_observed=False, pad=0.05):
    """Sorted grid over the range of ``values`` (padded by ``pad`` of the range).

    With ``include_observed``, every distinct observed value is added.
    """
    axis = np.linspace(*view_range(values, pad), n)
    if include_observed:
        axis = np.union1d(axis, np.unique(np.asarray(values, dtype=float)))
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


def _cell_edges(axis, n_cells):
    """The edges of an axis's ``n_cells`` cells: ``axis`` itself when it holds them (an exact
    map: one more than the cells, ``viz.conditioning.cell_axis``), else the edges plotly.js draws around
    sampled centres (halfway between two neighbours, the outer ones half a gap out)."""
    axis = np.asarray(axis, dtype=float)
    if axis.size == n_cells + 1:
        return axis
    if axis.size == 1:
        return np.array([axis[0] - 0.5, axis[0] + 0.5])
    inner = (axis[1:] + axis[:-1]) / 2
    return np.concatenate(
        [[1.5 * axis[0] - 0.5 * axis[1]], inner, [1.5 * axis[-1] - 0.5 * axis[-2]]]
    )


def heatmap_cells(xs, ys, z, rows=None, columns=None):
    """What a heatmap sends: the block ``rows`` x ``columns`` (slices; all by default) of
    the map ``z`` on the axes ``xs``, ``ys``, as float32 with its cells' edges, each run of
    equal columns (rows) of a sampled axis sent as one cell.

    float32: 4 bytes a value where JSON's float64 took 8; the values are drawn as colours and
    hovered with three digits. The runs: a sampled axis (``viz.conditioning.cell_axis`` past its cells, :func:`grid_rows`) puts
    a point every step whether the model changes there or not, and a forest's map on bupa had
    26 distinct columns and 35 distinct rows among its 90 x 90 points, each 90 x 90 panel
    43 KB of its figure's 333 KB. A run drawn as one cell from the first's edge to the last's
    paints the same pixels; its hover names the run's centre, with the same value. The exact
    axes keep their cells as they are: each is a place of the model's own (a threshold's line).
    """
    z = np.asarray(z, dtype=np.float32)
    rows = slice(0, z.shape[0]) if rows is None else rows
    columns = slice(0, z.shape[1]) if columns is None else columns
    x = _cell_edges(xs, z.shape[1])[columns.start : columns.stop + 1]
    y = _cell_edges(ys, z.shape[0])[rows.start : rows.stop + 1]
    block = z[rows, columns]
    if len(xs) == z.shape[1]:
        x, block = _merged_runs(x, block, axis=1)
    if len(ys) == z.shape[0]:
        y, block = _merged_runs(y, block, axis=0)
    return x, y, block


def _merged_runs(edges, block, axis):
    """``block``'s runs of equal slices along ``axis`` (NaN equal to NaN) as one slice each,
    and their edges (``edges``: one more than the slices)."""
    along = np.moveaxis(block, axis, 0)
    equal = (along[1:] == along[:-1]) | (np.isnan(along[1:]) & np.isnan(along[:-1]))
    starts = np.flatnonzero(np.concatenate([[True], ~equal.all(axis=1)]))
    return np.append(edges[starts], edges[-1]), np.take(block, starts, axis=axis)


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


def view_range(values, pad=0.05):
    """``(low, high)``: the range of ``values`` padded by ``pad`` of its span (1 when flat)."""
    values = np.asarray(values, dtype=float)
    low, high = float(values.min()), float(values.max())
    span = high - low if high > low else 1.0
    return low - pad * span, high + pad * span


def region_edges(tree, X, fx, fy, fixed=None, pad=0.05):
    """The cell edges of the tree's partition of the view over features ``fx`` and ``fy``.

    Every leaf's region in the plane (the other features held at ``fixed`` or their medians) is
    a rectangle bounded by the thresholds of the nodes on ``fx`` and ``fy`` that a point of the
    plane can reach, so the grid of those thresholds cuts the view into cells on each of which
    the tree predicts one value: drawn cell by cell, the picture is exact.

    The reachable nodes are found with the tree's own walk, which knows every routing rule
    (the test, the precision compared in, membership nodes): start from the view as one cell,
    walk each cell's centre (``Tree.decision_path``), add the thresholds of the visited nodes
    on ``fx`` and ``fy`` that lie inside the view, and repeat until no edge is new. A node
    reached by some point of a cell is reached by its centre once the cell is bounded by the
    thresholds of the node's ancestors, which the previous pass added; so each pass goes at
    least one level deeper, and the loop ends after at most ``tree.max_depth + 1`` walks.

    A feature that a membership node tests holds integer category codes: its axis is cut into
    bands one code wide (edges at the half-integers), each drawn at its code, since between
    two codes the tree sees no category (a non-integer value is a code of no node).

    Returns
    -------
    x_edges, y_edges : ndarray
        Increasing, the view's bounds first and last; cell ``(i, j)`` spans
        ``[x_edges[j], x_edges[j + 1]] x [y_edges[i], y_edges[i + 1]]``.
    """
    X = np.asarray(X, dtype=float)
    coded = _membership_features(tree)
    axes = (fx, fy)
    edges = [
        _code_bands(*view_range(X[:, f], pad)) if f in coded else np.array(view_range(X[:, f], pad))
        for f in axes
    ]
    for _ in range(tree.max_depth + 1):
        cx, cy = (_centres(e, f in coded) for e, f in zip(edges, axes, strict=True))
        visited = np.zeros(tree.node_count, dtype=bool)
        visited[tree.decision_path(rows_on_axes(X, fx, fy, cx, cy, fixed)).indices] = True
        visited &= ~tree.is_leaf
        grown = [
            e if f in coded else _with_thresholds(e, tree.threshold[visited & (tree.feature == f)])
            for e, f in zip(edges, axes, strict=True)
        ]
        if all(len(g) == len(e) for g, e in zip(grown, edges, strict=True)):
            break
        edges = grown
    return tuple(edges)


def _membership_features(tree):
    """The features some membership node tests (their values are category codes)."""
    return set(np.unique(tree.feature[tree.is_membership]).tolist())


def _code_bands(low, high):
    """Edges of bands one code wide, centred on the integer codes in ``[low, high]``."""
    codes = np.arange(np.ceil(low), np.floor(high) + 1)
    if codes.size == 0:
        codes = np.array([np.round((low + high) / 2)])
    return np.append(codes - 0.5, codes[-1] + 0.5)


def _centres(edges, coded):
    """The point each cell is drawn at: its middle, or its code on a coded axis."""
    middle = (edges[:-1] + edges[1:]) / 2
    return np.round(middle) if coded else middle


def _with_thresholds(edges, thresholds):
    """``edges`` with the ``thresholds`` strictly inside the view added, sorted, unique."""
    inside = thresholds[(thresholds > edges[0]) & (thresholds < edges[-1])]
    return np.union1d(edges, inside)


def region_grid(tree, X, fx, fy, fixed=None, op="<="):
    """The tree's exact partition of the view (:func:`region_edges`) and its prediction per cell.

    Returns
    -------
    x_edges, y_edges : ndarray
    centres : tuple of ndarray
        The point of each column and each row of cells the tree was asked about.
    prediction : ndarray of shape (len(y_edges) - 1, len(x_edges) - 1[, n_classes])
        ``tree.predict`` at each cell's point, under ``op``.
    """
    x_edges, y_edges = region_edges(tree, X, fx, fy, fixed)
    coded = _membership_features(tree)
    cx, cy = _centres(x_edges, fx in coded), _centres(y_edges, fy in coded)
    prediction = tree.predict(rows_on_axes(X, fx, fy, cx, cy, fixed), op)
    return x_edges, y_edges, (cx, cy), prediction.reshape((len(cy), len(cx)) + prediction.shape[1:])


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
    """The tree's regions over two features, exactly (:func:`region_edges`), with the training points.

    One heatmap whose cells are bounded by the tree's own thresholds (plotly reads ``x`` and
    ``y`` one longer than ``z`` as the cells' edges), so a deep tree sends its few hundred
    cells, not a fine grid's 22,500 samples, and no boundary is off by a grid step.
    Classification: each region in the faded colour of its predicted class.
    Regression: the predicted value on a Viridis scale.
    """
    X = np.asarray(X, dtype=float)
    xs, ys, _, prediction = region_grid(tree, X, fx, fy, fixed=fixed, op=op)
    fig = go.Figure()
    if tree.is_classifier:
        n_classes = prediction.shape[-1]
        names = class_names or [str(k) for k in range(n_classes)]
        predicted = np.argmax(prediction, axis=-1)
        fig.add_trace(
            go.Heatmap(
                x=xs,
                y=ys,
                z=predicted.astype(np.int16),
                zmin=-0.5,
                zmax=n_classes - 0.5,
                colorscale=_class_colorscale(n_classes),
                showscale=False,
                text=np.asarray(names, dtype=object)[predicted],
                customdata=np.max(prediction, axis=-1).astype(np.float32),
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
