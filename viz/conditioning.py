"""Figures of the conditioning-bias page (source 000): surfaces under each test, and fold scores.

Colour conventions (one across the app, see ``viz.colors``):

* two classes: a class probability is drawn on a diverging scale centred on
  the decision value P = 0.5, from the colour of the first class (P = 0)
  through white (undecided) to the colour of the second (P = 1): the colour
  says which class the model predicts, and how surely;
* more classes: white cannot mean "undecided" (no single probability is
  undecided), so the hue is the predicted class (its colour) and the
  strength its probability, pale at 1/K (unsure among K classes) to the full
  colour at 1 (:func:`class_map_scale`, one colour bar of K stacked ramps);
* a regression prediction on a sequential scale titled with the target;
* where two tests differ, the size of the difference on a purple scale that
  starts at white, so a grid point where only one tree of a forest changes
  its vote is pale, and points where nothing changes are not drawn at all.

Every colour bar has a title.
"""

import numpy as np
import plotly.graph_objects as go

from .colors import blend_with_white, class_color
from .layout import LAYOUT, LEGEND_AT_BOTTOM, axis_key, panel_grid
from .partition import grid_axis, grid_rows, heatmap_cells, rows_on_axes, view_range

__all__ = [
    "PANEL_TITLES",
    "class_map_scale",
    "cell_axis",
    "class_map_values",
    "lattice_axis",
    "held_values",
    "probability_scale",
    "score_distribution_figure",
    "surface_grid",
    "surfaces_figure",
    "thresholds_by_feature",
]

PANEL_TITLES = {
    "<=": "x ≤ t (scikit-learn)",
    "<": "x < t (R's tree)",
    "average": "average of both tests",
    "half": "half: < in half the trees",
}
DIFFERENCE_SCALE = [[0.0, "#efe5f7"], [1.0, "#4a1d6e"]]
_CHANGED_MARKER = {"symbol": "x-thin", "size": 11, "color": "#111111", "line": {"width": 2.5}}
_MANY_CHANGED_MARKER = {**_CHANGED_MARKER, "size": 7, "line": {"width": 1.2}, "opacity": 0.7}
_MAX_LABEL = 14  # class names longer than this are cut on colour-bar ticks


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


def thresholds_by_feature(trees):
    """``{feature: thresholds}`` of the numeric splits of a list of :class:`trees.Tree`."""
    found = {}
    for tree in trees:
        internal = (tree.feature >= 0) & ~tree.is_membership  # a membership test has no threshold
        for feature in np.unique(tree.feature[internal]):
            values = tree.threshold[internal & (tree.feature == feature)]
            found.setdefault(int(feature), []).append(values)
    return {f: np.unique(np.concatenate(v)) for f, v in found.items()}


def lattice_axis(values, thresholds, n=120, pad=0.05, widen=0.02):
    """Where a surface is drawn and where it is evaluated: a uniform grid, with the observed
    values that lie on a threshold evaluated in place of the grid points nearest them.

    ``<=`` and ``<`` can only differ where a feature equals a threshold, so
    the surface must be evaluated exactly there. Adding every observed value
    (hundreds on a continuous feature) adds nothing a grid needs: only the
    observed values within 1e-6 (relative) of one of ``thresholds`` count
    (the "lines"). The tolerance keeps a value on a float32 threshold
    (scikit-learn's) even though the two differ in the ninth digit.

    The drawn grid stays uniform: plotly.js draws a heatmap whose axes are
    uniform as one image the browser scales, and any other brick by brick
    (measured in Chromium on the conditioning page's four panels: 50 ms
    against 110-140 ms per redraw). So each line takes the place of the
    ``ceil(widen * n)`` grid points around it (three at the defaults: a line
    has no width, and a one-cell line would be a pixel or two wide), which
    are evaluated at the line's value; the line is drawn within a cell and a
    half of where it is (the figure's caption says lines are drawn wider
    than they are). Lines closer than a few cells crowd: each takes the free
    points nearest it within ``width`` cells on either side (so a crowded
    line is drawn narrower, and at most a few cells off), and a line with no
    free point there is not drawn, rather than pushed along the axis.

    Returns
    -------
    drawn : ndarray
        The uniform grid, where each column (or row) of the heatmap is drawn.
    evaluated : ndarray
        Where each is evaluated: ``drawn`` with the lines in place of their points.
    """
    drawn = grid_axis(values, n, include_observed=False, pad=pad)
    evaluated = drawn.copy()
    lines = _threshold_values(values, thresholds)
    if lines.size == 0 or drawn.size < 2:
        return drawn, evaluated
    step = float(drawn[1] - drawn[0])
    owner = np.full(drawn.size, -1)
    width = max(1, int(np.ceil(widen * n)))
    for k, value in enumerate(lines):
        centre = (value - drawn[0]) / step
        near = np.arange(max(0, int(centre) - width), min(drawn.size, int(centre) + width + 2))
        free = near[owner[near] < 0]
        chosen = free[np.argsort(np.abs(free - centre), kind="stable")[:width]]
        owner[chosen] = k
        evaluated[chosen] = value
    return drawn, evaluated


def cell_axis(values, thresholds, n=120, pad=0.05, widen=0.025):
    """One axis of an exact map: cell edges at the model's thresholds, one value per cell.

    A tree's (or a forest's) prediction is constant between two consecutive thresholds of
    a feature, under ``x <= t`` and ``x < t`` alike: one cell per such interval, evaluated
    at its centre, draws it exactly. The tests differ only on a threshold itself, so each
    observed value on a threshold (a "line", as in :func:`lattice_axis`) gets a cell of
    its own evaluated at that value, ``widen`` of the view wide (a line has no width:
    drawn this wide it is seen), narrowed to 0.4 of the gap to its neighbours where they
    crowd; the intervals beside it are drawn that much narrower, and still evaluated
    strictly between their thresholds. A threshold within 1e-6 (relative) of a line is
    that line (scikit-learn's thresholds are float32).

    When the thresholds make more than ``n`` cells (a forest of many trees on a continuous
    feature), the map is sampled instead: :func:`lattice_axis`'s uniform grid of ``n``
    points, with the lines in place of their nearest points (the hover then names the
    grid's size). Either way an axis has at most ``n`` cells, so the map never weighs more
    than the sampled grid it replaces; exact, a tree's map on the lattice data is 169 cells
    (23 KB) instead of 120 x 120 points (306 KB). plotly.js draws uneven cells brick by brick
    (:func:`lattice_axis`): a few hundred bricks, where the sampled grid's 14,400 were one
    image.

    Returns
    -------
    drawn : ndarray
        The cells' edges (one more than ``evaluated``: plotly's heatmap reads them as
        edges), or the uniform grid when sampled (as many as ``evaluated``).
    evaluated : ndarray
        Where each cell is evaluated.
    """
    low, high = view_range(values, pad)
    lines = _threshold_values(values, thresholds)
    cuts = np.unique(np.asarray(thresholds, dtype=float))
    cuts = cuts[(cuts > low) & (cuts < high)]
    near_line = np.zeros(cuts.size, dtype=bool)
    for value in lines:
        near_line |= np.abs(cuts - value) <= 1e-6 * max(1.0, abs(value))
    marks = sorted(
        [(float(c), False) for c in cuts[~near_line]] + [(float(v), True) for v in lines]
    )
    if len(marks) + len(lines) + 1 > n:
        return lattice_axis(values, thresholds, n, pad)
    places = [low] + [value for value, _ in marks] + [high]
    edges, evaluated = [low], []
    for k, (value, is_line) in enumerate(marks, start=1):
        half = (min(widen * (high - low) / 2, 0.4 * (value - places[k - 1]),
                    0.4 * (places[k + 1] - value)) if is_line else 0.0)  # fmt: skip
        evaluated.append((edges[-1] + value - half) / 2)
        edges.append(value - half)
        if is_line:
            evaluated.append(value)
            edges.append(value + half)
    evaluated.append((edges[-1] + high) / 2)
    edges.append(high)
    return np.asarray(edges), np.asarray(evaluated)


def _threshold_values(values, thresholds):
    """The distinct observed ``values`` within 1e-6 (relative) of one of ``thresholds``."""
    observed = np.unique(np.asarray(values, dtype=float))
    thresholds = np.sort(np.asarray(thresholds, dtype=float))
    if observed.size == 0 or thresholds.size == 0:
        return observed[:0]
    i = np.clip(np.searchsorted(thresholds, observed), 1, thresholds.size) - 1
    nearest = np.minimum(
        np.abs(observed - thresholds[i]),
        np.abs(observed - thresholds[np.minimum(i + 1, thresholds.size - 1)]),
    )
    return observed[nearest <= 1e-6 * np.maximum(1.0, np.abs(observed))]


def held_values(X, thresholds, axes):
    """Values for the features not on the axes: observed, near the median, never on a threshold.

    A median can be a midpoint, and so a threshold itself (0.5 for a 0/1
    feature): the tests would then differ on the whole map, for a row no
    data holds. Each other feature is held at the observed value nearest its
    median that lies on none of the model's thresholds (the median when
    every value does).

    Returns
    -------
    dict {feature: value}
    """
    X = np.asarray(X, dtype=float)
    held = {}
    for j in range(X.shape[1]):
        if j in axes:
            continue
        column = X[:, j][np.isfinite(X[:, j])]
        median = float(np.median(column)) if column.size else 0.0
        values = np.unique(column)
        values = values[np.argsort(np.abs(values - median), kind="stable")]
        cuts = np.asarray(thresholds.get(j, ()), dtype=float)
        free = [v for v in values if not np.any(np.abs(cuts - v) <= 1e-6 * max(1.0, abs(v)))]
        held[j] = float(free[0]) if free else median
    return held


def _short(name):
    name = str(name)
    return name if len(name) <= _MAX_LABEL else name[: _MAX_LABEL - 1] + "…"


def _class_label(name):
    """A class as a colour bar names it: "class 1" for a numeric label, else the label (cut)."""
    name = str(name)
    try:
        float(name)
    except ValueError:
        return _short(name)
    return f"class {name}"


def probability_scale(class_names, class_index):
    """Heatmap colour options for P(class ``class_index``) of two classes, centred on 0.5.

    Diverging from the other class's colour (P = 0) through white (P = 0.5,
    undecided) to the shown class's (P = 1), the ends named by their class.
    More than two classes have no undecided value: :func:`class_map_scale`.
    """
    shown = _class_label(class_names[class_index])
    other = _class_label(class_names[1 - class_index])
    low, high = class_color(1 - class_index), class_color(class_index)
    return {
        "colorscale": [[0.0, low], [0.5, "#ffffff"], [1.0, high]],
        "zmin": 0.0,
        "zmax": 1.0,
        "zmid": 0.5,
        "colorbar": {
            "title": {"text": f"P({shown})"},
            "tickvals": [0.0, 0.5, 1.0],
            "ticktext": [f"0 · {other}", "0.5 · undecided", f"1 · {shown}"],
            "thickness": 14,
        },
    }


# How pale a multi-class map's least sure cell is (P = 1/K): a tint of its class, near white.
_PALE = 0.12


def class_map_values(probabilities):
    """A multi-class map's cells: the predicted class, and how surely, as one number per cell.

    Parameters
    ----------
    probabilities : ndarray of shape (..., K)

    Returns
    -------
    z : ndarray of shape (...)
        ``(k + s) / K`` for predicted class ``k`` and strength ``s``: its
        probability rescaled from [1/K, 1] to [0, 1) (the ramp of class ``k``
        on :func:`class_map_scale`).
    winner : ndarray of int
        The predicted class (the first of tied ones, as ``argmax``).
    top : ndarray
        Its probability.
    """
    probabilities = np.asarray(probabilities, dtype=float)
    n_classes = probabilities.shape[-1]
    winner = np.argmax(probabilities, axis=-1)
    top = np.take_along_axis(probabilities, winner[..., None], axis=-1)[..., 0]
    strength = np.clip((top - 1.0 / n_classes) / (1.0 - 1.0 / n_classes), 0.0, 1.0)
    return (winner + 0.999 * strength) / n_classes, winner, top


def class_map_scale(class_names):
    """Heatmap colour options for a map of more than two classes (:func:`class_map_values`).

    K ramps stacked on one colour bar: class k's from a pale tint of its
    colour (P = 1/K, unsure) to its full colour (P = 1, sure), each named
    by its class.
    """
    n_classes = len(class_names)
    colorscale = []
    for k in range(n_classes):
        colour = class_color(k)
        colorscale += [[k / n_classes, blend_with_white(colour, _PALE)],
                       [(k + 1) / n_classes, colour]]  # fmt: skip
    return {
        "colorscale": colorscale,
        "zmin": 0.0,
        "zmax": 1.0,
        "colorbar": {
            "title": {"text": "predicted class<br>pale: unsure<br>full: sure"},
            "tickvals": [(k + 0.5) / n_classes for k in range(n_classes)],
            "ticktext": [_class_label(name) for name in class_names],
            "thickness": 14,
        },
    }


def _value_scale(surfaces, class_names, class_index, value_name):
    if _is_class_map(surfaces):
        return class_map_scale(class_names)
    if class_index is not None:
        return probability_scale(class_names, class_index)
    low = min(float(np.nanmin(s)) for s in surfaces.values())
    high = max(float(np.nanmax(s)) for s in surfaces.values())
    return {
        "colorscale": "Viridis",
        "zmin": low,
        "zmax": high if high > low else low + 1.0,
        "colorbar": {"title": {"text": _short(value_name)}},
    }


def _is_class_map(surfaces):
    """Whether the surfaces hold every class's probability (more than two classes)."""
    return any(np.ndim(s) == 3 for s in surfaces.values())


def _plotted(prediction, class_index):
    """The plotted quantity: every class's probability (more than two classes), P(class
    ``class_index``) of two (class 1 by default), or the regression value."""
    prediction = np.asarray(prediction)
    if prediction.ndim == 1:
        return prediction
    if prediction.shape[1] > 2:
        return prediction
    return prediction[:, 1 if class_index is None else class_index]


def _class_names_of(y, class_names):
    if class_names is not None:
        return [str(c) for c in class_names]
    return [str(c) for c in np.unique(np.asarray(y))]


def _grid(X, fx, fy, fixed, n, thresholds):
    """Grid axes as drawn (points, or cells' edges), the rows evaluated and their grid's
    shape ``(ny, nx)``: the model's cells (``thresholds``, :func:`cell_axis`) or a uniform
    grid with every observed value."""
    if thresholds is None:
        xs, ys, rows = surface_grid(X, fx, fy, fixed, n)
        return xs, ys, rows, (len(ys), len(xs))
    xs, x_values = cell_axis(X[:, fx], thresholds.get(fx, ()), n)
    ys, y_values = cell_axis(X[:, fy], thresholds.get(fy, ()), n)
    rows = rows_on_axes(X, fx, fy, x_values, y_values, fixed)
    return xs, ys, rows, (len(y_values), len(x_values))


def _surfaces(predictions, X, fx, fy, fixed, n, thresholds, class_index):
    """Grid axes and each prediction's plotted quantity on the grid, ``{name: (ny, nx)}``
    (``(ny, nx, K)``: every class's probability, more than two classes)."""
    xs, ys, rows, shape = _grid(X, fx, fy, fixed, n, thresholds)
    surfaces = {}
    for name, predict in predictions.items():
        values = _plotted(predict(rows), class_index)
        surfaces[name] = values.reshape(*shape, *values.shape[1:])
    return xs, ys, surfaces


def _layout_panels(titles, columns):
    """The panels' grid, each panel's axis references, and the numbers of rows and columns.

    Every panel maps the same two features, so every panel's axes follow the first panel's:
    zooming one zooms all, and a difference panel with nothing to draw (the tests agree
    everywhere) keeps the others' ranges.
    """
    columns = max(1, min(columns, len(titles)))
    rows = -(-len(titles) // columns)
    grid, cells = panel_grid(rows, columns, titles, horizontal_spacing=0.05,
                             vertical_spacing=0.12 if rows > 1 else 0.0, share_x=True, share_y=True)  # fmt: skip
    for x_ref, y_ref in cells[1:]:
        grid[axis_key(x_ref)]["matches"] = "x"
        grid[axis_key(y_ref)]["matches"] = "y"
    return grid, cells, rows, columns


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
    *,
    class_names=None,
    thresholds=None,
    differences=None,
    columns=None,
    titles=None,
    shown_rows=None,
    height_per_row=300,
):
    """Surfaces of a model under several tests, and where pairs of them differ.

    Parameters
    ----------
    predictions : dict {name: callable(rows) -> prediction}
        One panel per entry, in order (e.g. "<=", "<", "average").
    X, y : training data, drawn on every panel (and setting the axes' ranges)
    fx, fy : int
        Features on the axes; the others are held at ``fixed`` or their medians.
    changed_points : ndarray of shape (m, n_features), optional
        Rows whose prediction changes between the tests (e.g. held-out rows): a black cross.
    class_index : int, optional
        Two classes: the class whose P is shown (default 1). More: a class map (:func:`class_map_scale`).
    value_name : str
        Regression: the colour bar's title.
    difference_of : pair of names, or None
        The two panels compared in an extra last panel (none when None).
    class_names : list of str, optional
        The classes (default: the distinct values of ``y``).
    thresholds : dict {feature: thresholds}, optional
        The model's thresholds (:func:`thresholds_by_feature`): the map is drawn in
        its exact cells (:func:`cell_axis`). Without it, a uniform grid with every
        observed value added.
    differences : list of pairs, optional
        Several difference panels (overrides ``difference_of``).
    columns, height_per_row : int, optional
        Panels per row (default: all in one row), and pixels per row of panels.
    titles : dict {name: title}, optional
        Panel titles (default: :data:`PANEL_TITLES`, else the name).
    shown_rows : ndarray of int, optional
        The rows of ``X`` drawn as dots (default: all); the grid is built from every row.

    Returns
    -------
    figure : plotly Figure
    n_differ : int
        Cells (or grid points) where the first pair of panels differs.
    """
    X = np.asarray(X, dtype=float)
    pairs = list(differences) if differences is not None else [p for p in [difference_of] if p]
    xs, ys, surfaces = _surfaces(predictions, X, fx, fy, fixed, n, thresholds, class_index)
    classified = class_index is not None or class_names is not None
    names = _class_names_of(y, class_names) if classified else None
    labels = {**PANEL_TITLES, **(titles or {})}
    panel_titles = [labels.get(k, k) for k in surfaces] + [_difference_title(p) for p in pairs]
    grid, grid_cells, n_rows, n_columns = _layout_panels(panel_titles, columns or len(panel_titles))
    cells = grid_cells[: len(panel_titles)]
    height = int(height_per_row * n_rows + 90) + (_BARS_BELOW_PX if n_rows > 1 and pairs else 0)
    value_bar, difference_bar = _colorbar_places(n_rows, bool(pairs), height)
    scale = _value_scale(surfaces, names, class_index, value_name)
    differences, n_differ = _difference_panels(xs, ys, surfaces, pairs, cells, difference_bar)
    traces = _surface_panels(xs, ys, surfaces, cells, scale, value_bar) + differences
    dots = slice(None) if shown_rows is None else np.asarray(shown_rows, dtype=int)
    traces += _point_traces(X[dots], np.asarray(y)[dots], fx, fy, cells, len(surfaces), names,
                            changed_points)  # fmt: skip
    layout = _finish_layout(grid, grid_cells, n_columns, feature_names[fx], feature_names[fy],
                            n_rows, height)  # fmt: skip
    return go.Figure(data=traces, layout=layout), n_differ


def _difference_panels(xs, ys, surfaces, pairs, cells, bar):
    """The difference panels of ``pairs`` (after the surfaces' panels), and the grid points
    where the first pair differs (0 without pairs)."""
    panels = [
        _difference_panel(xs, ys, surfaces[a], surfaces[b], cell, bar is not None and k == 0, bar)
        for k, ((a, b), cell) in enumerate(zip(pairs, cells[len(surfaces) :], strict=False))
    ]
    return [trace for trace, _ in panels], (panels[0][1] if panels else 0)


def _point_traces(X, y, fx, fy, cells, n_surfaces, class_names, changed_points):
    """Rows as dots on the surfaces' panels (the difference panels show only the rows that
    change), and the rows that change as crosses on every panel."""
    traces = []
    for index, cell in enumerate(cells):
        if index < n_surfaces:
            traces += _training_points(X, y, fx, fy, cell, index == 0, class_names)
        traces += _changed_points(changed_points, fx, fy, cell, index == 0)
    return traces


def _finish_layout(grid, cells, n_columns, x_title, y_title, n_rows, height):
    """The figure's layout: the grid, its size, the legend under the panels, axis titles on the outer panels."""
    for k, (x_ref, y_ref) in enumerate(cells):
        if k // n_columns == n_rows - 1:
            grid[axis_key(x_ref)]["title"] = {"text": x_title}
        if k % n_columns == 0:
            grid[axis_key(y_ref)]["title"] = {"text": y_title}
    return {
        **grid,
        **LAYOUT,
        "height": height,
        "font": {"size": 13},  # tick labels and colour bars readable on a 1024 px screen
        "legend": LEGEND_AT_BOTTOM,
    }


def _difference_title(pair):
    symbol = {"<=": "≤", "<": "<"}
    return f"where {symbol.get(pair[0], pair[0])} and {symbol.get(pair[1], pair[1])} differ"


def _hover_place(xs, ys, shape):
    """A cell's place as its hover says it: the point, and on a sampled axis (as many drawn
    points as values, not one edge more: :func:`cell_axis`) the grid's size, since the map
    is then a sample of the model rather than its cells."""
    sampled = len(xs) == shape[1] or len(ys) == shape[0]
    note = f"<br>(sampled on a {shape[1]} × {shape[0]} grid)" if sampled else ""
    return "%{x:.4g}, %{y:.4g}" + note


def _surface_panels(xs, ys, surfaces, cells, scale, bar):
    """One heatmap per surface, on one colour scale (its bar drawn once, at ``bar``); a map of
    more than two classes as one heatmap per predicted class (:func:`_class_map_traces`)."""
    hover = scale["colorbar"]["title"]["text"]
    class_names = scale["colorbar"]["ticktext"] if _is_class_map(surfaces) else None
    traces = []
    for index, surface in enumerate(surfaces.values()):
        where = _hover_place(xs, ys, surface.shape)
        colorbar = _placed(scale["colorbar"], bar)
        if class_names is not None:
            traces += _class_map_traces(xs, ys, surface, cells[index], where, class_names,
                                        {**scale, "colorbar": colorbar} if index == 0 else None)  # fmt: skip
            continue
        x, y, z = heatmap_cells(xs, ys, surface)
        traces.append(go.Heatmap(
            x=x, y=y, z=z, showscale=index == 0,
            **{**scale, "colorbar": colorbar},
            hovertemplate=where + "<br>" + hover + " %{z:.3f}<extra></extra>",
            xaxis=cells[index][0], yaxis=cells[index][1],
        ))  # fmt: skip
    return traces


def _class_map_traces(xs, ys, probabilities, cell, where, class_names, bar_scale):
    """A map of more than two classes: one heatmap per predicted class, its cells only.

    Each class's trace holds the probability of the class where it is predicted (NaN in
    the rest of its block), on its own ramp from a pale tint at ``P = 1/K`` to its full
    colour at ``P = 1`` (the colours :func:`class_map_values` gives on the stacked scale), and
    its hover names the class in its template. The class's name once per trace replaces a
    name per cell (``text``) and a probability beside the code (``customdata``): a 48 x 41
    wine map sent 20 bytes a cell, now at most 4 per class's block, cropped as a difference
    panel is (:func:`_occupied`, ``viz.partition.heatmap_cells``).

    ``bar_scale``: the stacked scale of :func:`class_map_scale` with its placed bar, on the
    first panel; its bar is drawn by a trace of one transparent cell, the panel's first
    (plotly draws a colour bar per trace, each class's trace has its own ramp, and a trace
    of blank cells draws no bar).
    """
    probabilities = np.asarray(probabilities, dtype=float)
    n_classes = probabilities.shape[-1]
    _, winner, top = class_map_values(probabilities)
    traces = []
    if bar_scale is not None:
        traces.append(go.Heatmap(
            x=np.asarray(xs)[:2], y=np.asarray(ys)[:2], z=np.zeros((1, 1), np.float32),
            opacity=0.0, showscale=True, hoverinfo="skip", xaxis=cell[0], yaxis=cell[1],
            **bar_scale,
        ))  # fmt: skip
    for k, name in enumerate(class_names):
        won = winner == k
        if not won.any():
            continue
        rows, columns = _occupied(won.any(axis=1)), _occupied(won.any(axis=0))
        colour = class_color(k)
        x, y, z = heatmap_cells(xs, ys, np.where(won, top, np.nan), rows, columns)
        traces.append(go.Heatmap(
            x=x, y=y, z=z,
            zmin=1.0 / n_classes, zmax=1.0, showscale=False,
            colorscale=[[0.0, blend_with_white(colour, _PALE)], [1.0, colour]],
            hovertemplate=where + f"<br>predicted {name}, P = %{{z:.3f}}<extra></extra>",
            xaxis=cell[0], yaxis=cell[1],
        ))  # fmt: skip
    return traces


# The legend's rows on the figure's bottom edge (two at 1024 px with the sidebar open) under the
# colour bars' tick labels, and the bars' row, in pixels; the figure grows by the bars' row.
_LEGEND_ROWS_PX = 68
_BARS_BELOW_PX = 78


def _colorbar_places(n_rows, with_difference, height):
    """Where the value and difference colour bars sit; None: no bar.

    Several rows of panels: both bars lie under the panels, side by side above the legend
    (value at the left, difference at the right), so the panels take the width vertical bars
    took: at 1024 px with the sidebar open, two columns of panels ~210 px wide instead of
    ~155. They stand ``_LEGEND_ROWS_PX`` above the figure's bottom edge (``yref="container"``,
    a fraction of ``height``), clear of a legend of two rows at any height.

    One row of panels (a presenter's key picture, whose page is wide): the value bar at the
    right takes the height, and the difference panel, whose title says what it shows, has none.
    """
    if not with_difference or n_rows == 1:
        return {"x": 1.01, "y": 0.5, "len": 0.9}, None
    below = {
        "orientation": "h",
        "yref": "container",
        "y": _LEGEND_ROWS_PX / height,
        "yanchor": "bottom",
        "len": 0.44,
        "thickness": 12,
        "ypad": 4,
        "title": {"side": "top"},
    }
    return {**below, "x": 0.0, "xanchor": "left"}, {**below, "x": 1.0, "xanchor": "right"}


def _placed(colorbar, place):
    """A colour bar's settings with a place's (:func:`_colorbar_places`); their titles merged,
    so a place's title side keeps the bar's title text."""
    title = {**(colorbar.get("title") or {}), **(place.get("title") or {})}
    return {**colorbar, **place, "title": title}


def _difference_panel(xs, ys, first, second, cell, show_scale, bar):
    """The size of the difference between two surfaces (grid points where they agree blank), and their count.

    Only the smallest block of cells that holds every difference is sent (``heatmap_cells``):
    the blank cells around it were sent as NaN, 4 bytes each, and a map whose tests differ
    nowhere (an extra-trees forest, whose thresholds are drawn at random) sent two blank
    90 x 90 panels, a quarter of its 354 KB. The panel's axes follow the others'
    (:func:`_layout_panels`), so it keeps their ranges.
    """
    difference = np.abs(first - second)
    if difference.ndim == 3:  # every class's probability: the largest change among them
        difference = difference.max(axis=2)
    differs = difference > 1e-12
    shown = np.where(differs, difference, np.nan)
    top = float(np.nanmax(shown)) if differs.any() else 1.0
    where = _hover_place(xs, ys, difference.shape)  # the whole grid's, sampled or not
    rows, columns = _occupied(differs.any(axis=1)), _occupied(differs.any(axis=0))
    x, y, z = heatmap_cells(xs, ys, shown, rows, columns)
    trace = go.Heatmap(
        x=x, y=y, z=z, zmin=0.0, zmax=top,
        colorscale=DIFFERENCE_SCALE, showscale=show_scale,
        colorbar=_placed({"title": {"text": "difference"}, "thickness": 14}, bar or {}),
        hovertemplate=where + "<br>differs by %{z:.3g}<extra></extra>",
        xaxis=cell[0], yaxis=cell[1],
    )  # fmt: skip
    return trace, int(differs.sum())


def _occupied(flags):
    """The slice from the first to the last True of ``flags`` (the first cell when none is)."""
    found = np.flatnonzero(flags)
    return slice(int(found[0]), int(found[-1]) + 1) if found.size else slice(0, 1)


def _training_points(X, y, fx, fy, cell, show_legend, class_names):
    """Training rows in their class colours (grey for regression).

    Their places travel as float32: every surface panel repeats the rows (a map of 2,000
    rows and four panels sent 84 KB of float64 places, half of a forest's figure on
    winequality-red), and a dot has no hover whose digits float32 would change; drawn, the
    two precisions are the same pixel.
    """
    y = np.asarray(y)
    X = np.asarray(X, dtype=np.float32)
    size, ring = (6, 0.8) if len(y) <= 500 else (4, 0.4)  # many rows: smaller dots, map still seen
    if class_names is None:
        return [
            go.Scatter(
                x=X[:, fx], y=X[:, fy], mode="markers", name="training rows",
                legendgroup="rows", showlegend=show_legend, hoverinfo="skip",
                marker={"size": size - 1, "color": "#555555", "line": {"width": 0.5, "color": "white"}},
                xaxis=cell[0], yaxis=cell[1],
            )
        ]  # fmt: skip
    return [
        go.Scatter(
            x=X[y == value, fx], y=X[y == value, fy], mode="markers",
            name=f"training rows, {_class_label(value)}", legendgroup=f"class {k}",
            showlegend=show_legend, hoverinfo="skip",
            # A dark ring: a dot on the colour of its own class stays a dot.
            marker={"size": size, "color": class_color(k), "line": {"width": ring, "color": "#333333"}},
            xaxis=cell[0], yaxis=cell[1],
        )
        for k, value in enumerate(np.unique(y))
    ]  # fmt: skip


def _changed_points(points, fx, fy, cell, show_legend):
    """A black cross on each row whose prediction changes between the tests (none: an empty list)."""
    if points is None or not len(points):
        return []
    return [
        go.Scatter(
            x=points[:, fx], y=points[:, fy], mode="markers",
            name="new rows whose prediction changes", legendgroup="changed",
            showlegend=show_legend, xaxis=cell[0], yaxis=cell[1],
            # Hundreds of crosses (large data) would hide the lines they sit on: thinner ones.
            marker=_CHANGED_MARKER if len(points) <= 100 else _MANY_CHANGED_MARKER,
        )
    ]  # fmt: skip


CONDITIONING_COLORS = {"<=": "#1f77b4", "<": "#d62728", "average": "#2ca02c", "half": "#9467bd"}
CONDITIONING_LABELS = {"<=": "x ≤ t", "<": "x < t", "average": "average", "half": "half"}


def score_distribution_figure(scores, metric):
    """Box plots of the per-fold scores of each threshold test (same folds), with their means."""
    fig = go.Figure()
    order = [v for v in CONDITIONING_LABELS if v in scores] + [
        v for v in scores if v not in CONDITIONING_LABELS
    ]
    for conditioning in order:
        values = scores[conditioning]
        fig.add_trace(
            go.Box(
                y=values,
                name=CONDITIONING_LABELS.get(conditioning, conditioning),
                boxmean=True,
                marker_color=CONDITIONING_COLORS.get(conditioning),
                boxpoints="outliers",
            )
        )
    fig.update_layout(
        **LAYOUT,
        title=f"{metric} on each fold",
        yaxis_title=f"{metric} of the fold",
        xaxis_title="threshold test",
        showlegend=False,
        height=380,
    )
    return fig
