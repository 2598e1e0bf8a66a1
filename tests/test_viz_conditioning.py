"""The conditioning surfaces' grid (``viz.conditioning.lattice_axis``, ``surfaces_figure``).

The tests ``<=`` and ``<`` differ only where a feature equals a threshold;
the surfaces are evaluated exactly there but drawn on a uniform grid, which
plotly.js draws as one scaled image (any other grid brick by brick).
"""

import base64
import json

import numpy as np
import pytest

from viz.conditioning import lattice_axis, surfaces_figure
from viz.margins import reserve_margins


def _uniform(axis):
    """plotly.js's test for drawing a heatmap as one image: every step within 1% of the mean."""
    axis = np.asarray(axis, dtype=float)
    step = (axis[-1] - axis[0]) / (axis.size - 1)
    return bool(np.all(np.abs(np.diff(axis) - step) <= abs(step) / 100))


def _values(array):
    if isinstance(array, dict):  # plotly's typed-array encoding
        return np.frombuffer(base64.b64decode(array["bdata"]), dtype=array["dtype"])
    return np.asarray(array, dtype=float)


def test_lines_are_evaluated_exactly_in_place_of_the_grid_points_around_them():
    values = np.arange(0.0, 10.5, 0.5)  # observed values on a lattice
    thresholds = [3.0, 7.5, 4.25]  # 3 and 7.5 observed; 4.25 a midpoint, on no observed value
    drawn, evaluated = lattice_axis(values, thresholds, n=120, widen=0.02)
    assert drawn.size == evaluated.size == 120 and _uniform(drawn)
    step = drawn[1] - drawn[0]
    for line in (3.0, 7.5):
        at = np.flatnonzero(evaluated == line)
        assert at.size == 3  # ceil(0.02 * 120) points: a few pixels wide
        assert np.all(np.abs(drawn[at] - line) <= 1.5 * step)
    assert not np.any(evaluated == 4.25)
    moved = evaluated != drawn
    assert set(evaluated[moved]) <= {3.0, 7.5}


def test_lines_closer_than_a_cell_each_keep_a_point():
    values = np.array([0.0, 5.0, 5.001, 5.002, 10.0])
    drawn, evaluated = lattice_axis(values, [5.0, 5.001, 5.002], n=50, widen=0.0)
    for line in (5.0, 5.001, 5.002):
        assert np.count_nonzero(evaluated == line) == 1
    assert _uniform(drawn)


def test_an_axis_without_lines_is_the_uniform_grid():
    drawn, evaluated = lattice_axis(np.arange(10.0), [2.5, 6.5], n=30)
    np.testing.assert_array_equal(drawn, evaluated)


def _rule(op):
    """P(class 1) of the one-split rule "x0 <= 3" (or "x0 < 3")."""

    def predict(rows):
        left = rows[:, 0] <= 3 if op == "<=" else rows[:, 0] < 3
        return np.column_stack([~left, left]).astype(float)

    return predict


def test_the_surfaces_are_drawn_in_cells_and_differ_exactly_on_the_line():
    rng = np.random.default_rng(0)
    X = rng.integers(0, 8, (200, 2)).astype(float)  # 3 is an observed value of x0
    y = (X[:, 0] <= 3).astype(int)
    figure, n_differ = surfaces_figure(
        {op: _rule(op) for op in ("<=", "<")}, X, y, 0, 1, ["a", "b"], class_index=1,
        thresholds={0: np.array([3.0])}, n=120,
    )  # fmt: skip
    heatmaps = [t for t in figure.to_plotly_json()["data"] if t["type"] == "heatmap"]
    assert len(heatmaps) == 3  # <=, < and where they differ
    # x0: the interval left of 3, the line on 3, the interval right of it; x1: no threshold.
    x, y_edges = _values(heatmaps[0]["x"]), _values(heatmaps[0]["y"])
    assert x.size == 4 and y_edges.size == 2
    assert x[1] < 3.0 < x[2] and x[2] - x[1] == pytest.approx(0.025 * (x[-1] - x[0]))
    np.testing.assert_array_equal(_values(heatmaps[0]["z"]), [1.0, 1.0, 0.0])  # P(left)
    np.testing.assert_array_equal(_values(heatmaps[1]["z"]), [1.0, 0.0, 0.0])
    assert n_differ == 1
    # The difference panel sends the block of cells that differ, the line's cell, alone.
    np.testing.assert_array_equal(_values(heatmaps[2]["z"]), [1.0])
    np.testing.assert_array_equal(_values(heatmaps[2]["x"]), x[1:3])
    np.testing.assert_array_equal(_values(heatmaps[2]["y"]), y_edges)


@pytest.fixture(scope="module")
def lattice_tree():
    from datasets import load
    from trees import DecisionTreeClassifier

    X, y = load("Lattice features").arrays()
    return X, y, DecisionTreeClassifier(random_state=0).fit(X, y)


def test_a_trees_map_is_exact_its_value_everywhere_in_a_cell_is_the_models(lattice_tree):
    from viz.conditioning import cell_axis, held_values, thresholds_by_feature

    X, y, tree = lattice_tree
    thresholds = thresholds_by_feature([tree.tree_])
    held = held_values(X, thresholds, (0, 1))
    predictions = {op: (lambda rows, op=op: tree.predict_proba(rows, op)) for op in ("<=", "<")}
    figure, _ = surfaces_figure(predictions, X, y, 0, 1, ["a", "b"], class_index=1,
                                thresholds=thresholds, fixed=held)  # fmt: skip
    heatmaps = [t for t in figure.to_plotly_json()["data"] if t["type"] == "heatmap"]
    x_edges, y_edges = _values(heatmaps[0]["x"]), _values(heatmaps[0]["y"])
    _, x_at = cell_axis(X[:, 0], thresholds[0])
    _, y_at = cell_axis(X[:, 1], thresholds[1])
    assert x_edges.size == x_at.size + 1 and y_edges.size == y_at.size + 1 < 60
    lines = {v for axis in (0, 1) for v in np.unique(X[:, axis]) if v in thresholds[axis]}
    rng = np.random.default_rng(1)
    for panel, op in enumerate(("<=", "<")):
        z = _values(heatmaps[panel]["z"]).reshape(y_at.size, x_at.size)
        for i, j in np.ndindex(z.shape):
            # a line's cell is its value; any point inside another cell predicts as its centre
            row = np.array([x_at[j], y_at[i]])
            inside = [
                at if at in lines else rng.uniform(edges[k], edges[k + 1], 5)
                for at, edges, k in ((x_at[j], x_edges, j), (y_at[i], y_edges, i))
            ]
            points = np.column_stack(np.broadcast_arrays(*inside))
            rows = np.tile([held.get(f, 0.0) for f in range(X.shape[1])], (len(points), 1))
            rows[:, :2] = points
            expected = tree.predict_proba(rows, op)[:, 1]
            assert np.all(expected.astype(np.float32) == z[i, j]), (op, row)


def test_an_axis_with_more_cells_than_asked_is_sampled_on_the_uniform_grid():
    from viz.conditioning import cell_axis

    values = np.linspace(0.0, 1.0, 500)
    thresholds = (values[1:] + values[:-1]) / 2  # 499 midpoints: 500 cells
    drawn, evaluated = cell_axis(values, thresholds, n=120)
    assert drawn.size == evaluated.size == 120 and _uniform(drawn)
    drawn, evaluated = cell_axis(values, thresholds[::10], n=120)  # 50 thresholds: exact
    assert drawn.size == evaluated.size + 1 == 52


def test_crowded_lines_stay_near_their_values_and_are_never_pushed_along_the_axis():
    values = np.r_[np.linspace(0.0, 100.0, 201), 50.0 + 0.05 * np.arange(10)]
    lines = 50.0 + 0.05 * np.arange(10)  # ten lines within half a cell (n = 120)
    drawn, evaluated = lattice_axis(values, lines, n=120, widen=0.02)
    step = drawn[1] - drawn[0]
    moved = np.flatnonzero(evaluated != drawn)
    assert moved.size <= 2 * 3 + 2  # the cells within three of the lines, no more
    assert np.all(np.abs(drawn[moved] - evaluated[moved]) <= 4 * step)


def test_a_line_at_the_end_of_the_axis_keeps_its_width():
    drawn, evaluated = lattice_axis(np.arange(11.0), [10.0], n=30, pad=0.0, widen=0.1)
    assert np.count_nonzero(evaluated == 10.0) == 3  # looks left where the axis ends
    assert _uniform(drawn)


# ------------------------------------------- issue 34, item 7: a scale per number of classes
def _three_classes(op):
    """P of three classes from x0: class 0 (sure) left of 3, class 1 (unsure) to 6, class 2 beyond."""

    def predict(rows):
        left = rows[:, 0] <= 3 if op == "<=" else rows[:, 0] < 3
        probabilities = np.tile([0.1, 0.5, 0.4], (len(rows), 1))  # class 1, barely
        probabilities[left] = [1.0, 0.0, 0.0]
        probabilities[rows[:, 0] > 6] = [0.0, 0.2, 0.8]
        return probabilities

    return predict


def _hex(colour):
    return colour.lower()


def _colour_at(scale, value):
    """The colour a piecewise scale gives ``value``, at a stop or the stop a ramp ends on."""
    positions = [float(p) for p, _ in scale]
    k = max(i for i, p in enumerate(positions) if p <= value)
    return scale[k][1]


def test_a_three_class_map_shows_the_predicted_class_as_hue_and_its_probability_as_strength():
    from viz.colors import blend_with_white, class_color

    rng = np.random.default_rng(0)
    X = rng.integers(0, 10, (300, 2)).astype(float)
    y = np.digitize(X[:, 0], [3.5, 6.5])
    figure, n_differ = surfaces_figure(
        {op: _three_classes(op) for op in ("<=", "<")}, X, y, 0, 1, ["a", "b"],
        class_names=["setosa", "versicolor", "virginica"], thresholds={0: np.array([3.0, 6.0])},
        n=60,
    )  # fmt: skip
    heatmaps = [t for t in figure.to_plotly_json()["data"] if t["type"] == "heatmap"]
    value, difference = heatmaps[0], heatmaps[-1]  # the first panel's colour bar; the difference
    scale = value["colorscale"]
    # One ramp per class on one bar: a pale tint of the class's colour up to the colour itself.
    for k in range(3):
        assert [float(p) for p, _ in scale[2 * k : 2 * k + 2]] == [k / 3, (k + 1) / 3]
        assert _hex(scale[2 * k][1]) == _hex(blend_with_white(class_color(k), 0.12))
        assert _hex(scale[2 * k + 1][1]) == _hex(class_color(k))
    assert all(_hex(c) != "#ffffff" for _, c in scale)  # white means nothing here
    assert list(value["colorbar"]["ticktext"]) == ["setosa", "versicolor", "virginica"]
    assert "predicted class" in value["colorbar"]["title"]["text"]
    assert "unsure" in value["colorbar"]["title"]["text"]
    assert _values(value["z"]).size == 1 and value["opacity"] == 0.0  # the bar alone
    assert value["hoverinfo"] == "skip"
    # The first panel: one trace per predicted class, its class named once, in its hover.
    panel = [t for t in heatmaps if t.get("xaxis", "x") == "x"][1:]
    names = ["setosa", "versicolor", "virginica"]
    assert [t["hovertemplate"].split("predicted ")[1].split(",")[0] for t in panel] == names
    assert not any("text" in t or "customdata" in t for t in heatmaps)  # no name, no code a cell
    for k, trace in enumerate(panel):
        # Its own ramp, P = 1/3 pale to P = 1 full: the stacked bar's colours for the class.
        assert [_hex(c) for _, c in trace["colorscale"]] == [
            _hex(c) for _, c in scale[2 * k : 2 * k + 2]
        ]
        assert (trace["zmin"], trace["zmax"]) == (pytest.approx(1 / 3), 1.0)
        assert _values(trace["z"]).dtype == np.float32
    probability = {}  # each cell's class and P, read back from the classes' cropped blocks
    for k, trace in enumerate(panel):
        edges, z = _values(trace["x"]), _values(trace["z"])  # one cell high
        for centre, p in zip((edges[1:] + edges[:-1]) / 2, z, strict=True):
            if np.isfinite(p):
                probability[float(centre)] = (k, float(p))
    x = np.array(sorted(probability))
    sure_0, unsure_1, fairly_2 = (probability[float(x[x < 2][0])], probability[float(x[(x > 4) & (x < 6)][0])],
                                  probability[float(x[x > 7][0])])  # fmt: skip
    assert sure_0[0] == 0 and sure_0[1] > 0.9
    assert unsure_1[0] == 1 and unsure_1[1] == pytest.approx(0.5, abs=0.01)
    assert fairly_2[0] == 2 and fairly_2[1] == pytest.approx(0.8, abs=0.01)
    # Where the tests differ is still marked: the largest change of a class probability.
    # On x0 = 3: [1, 0, 0] under <= against [0.1, 0.5, 0.4] under <, P(setosa) moves by 0.9.
    assert n_differ > 0 and np.nanmax(_values(difference["z"])) == pytest.approx(0.9)
    assert difference["colorscale"][0][1] == "#efe5f7"


def test_a_binary_map_keeps_the_diverging_scale_white_at_undecided():
    from viz.colors import class_color

    rng = np.random.default_rng(0)
    X = rng.integers(0, 8, (200, 2)).astype(float)
    y = (X[:, 0] <= 3).astype(int)
    figure, _ = surfaces_figure(
        {op: _rule(op) for op in ("<=", "<")}, X, y, 0, 1, ["a", "b"], class_index=1,
        class_names=["no", "yes"], thresholds={0: np.array([3.0])}, n=40,
    )  # fmt: skip
    value = next(t for t in figure.to_plotly_json()["data"] if t["type"] == "heatmap")
    assert [[float(p), _hex(c)] for p, c in value["colorscale"]] == [
        [0.0, _hex(class_color(0))], [0.5, "#ffffff"], [1.0, _hex(class_color(1))],
    ]  # fmt: skip
    assert (value["zmin"], value["zmid"], value["zmax"]) == (0.0, 0.5, 1.0)
    assert list(value["colorbar"]["ticktext"]) == ["0 · no", "0.5 · undecided", "1 · yes"]
    assert set(np.unique(_values(value["z"]))) == {0.0, 1.0}  # P(yes) itself, not a class code


def test_a_sample_of_the_rows_is_drawn_and_every_row_builds_the_grid():
    rng = np.random.default_rng(0)
    X = rng.integers(0, 8, (5000, 2)).astype(float)
    y = (X[:, 0] <= 3).astype(int)
    shown = np.arange(0, 5000, 50)
    kwargs = {"class_index": 1, "thresholds": {0: np.array([3.0])}, "n": 40}
    predictions = {op: _rule(op) for op in ("<=", "<")}
    sampled, n_sampled = surfaces_figure(
        predictions, X, y, 0, 1, ["a", "b"], shown_rows=shown, **kwargs
    )
    full, n_full = surfaces_figure(predictions, X, y, 0, 1, ["a", "b"], **kwargs)
    dots = [
        t for t in sampled.to_plotly_json()["data"] if str(t.get("name")).startswith("training")
    ]
    assert sum(len(_values(t["x"])) for t in dots) == 2 * shown.size  # two surface panels
    assert n_sampled == n_full
    heat = [t for t in sampled.to_plotly_json()["data"] if t["type"] == "heatmap"]
    heat_full = [t for t in full.to_plotly_json()["data"] if t["type"] == "heatmap"]
    np.testing.assert_array_equal(_values(heat[0]["z"]), _values(heat_full[0]["z"]))


def _surfaces_in_rows(rows_of_panels):
    """The surfaces figure of the one-split rule: <=, <, their average and where they differ,
    in ``rows_of_panels`` rows (1: the presenter's one row of <=, < and the difference)."""
    rng = np.random.default_rng(0)
    X = rng.integers(0, 8, (200, 2)).astype(float)
    y = (X[:, 0] <= 3).astype(int)
    predictions = {op: _rule(op) for op in ("<=", "<")}
    if rows_of_panels > 1:
        predictions["average"] = lambda rows: (_rule("<=")(rows) + _rule("<")(rows)) / 2
    figure, _ = surfaces_figure(
        predictions, X, y, 0, 1, ["a", "b"], class_index=1, thresholds={0: np.array([3.0])},
        n=40, difference_of=("<=", "<"), columns=2 if rows_of_panels > 1 else None,
    )  # fmt: skip
    return reserve_margins(figure).to_plotly_json()


def test_several_rows_of_panels_put_both_colour_bars_under_them_above_the_legend():
    """Under the panels, the bars leave the figure's width to them (issue 34, item 6)."""
    figure = _surfaces_in_rows(2)
    bars = [t["colorbar"] for t in figure["data"] if t["type"] == "heatmap" and t.get("showscale")]
    assert len(bars) == 2
    value, difference = bars
    for bar in bars:
        assert bar["orientation"] == "h" and bar["yref"] == "container"
        # Above the legend on the bottom edge, whatever the figure's height.
        assert bar["y"] * figure["layout"]["height"] >= 60
    assert value["title"]["text"] == "P(class 1)" and difference["title"]["text"] == "difference"
    assert (value["x"], value["xanchor"]) == (0.0, "left")
    assert (difference["x"], difference["xanchor"]) == (1.0, "right")
    assert value["len"] + difference["len"] < 1.0  # side by side, apart
    margin = figure["layout"]["margin"]  # raised to what the figure needs (viz.margins)
    assert margin.get("r", 80) <= 80  # plotly's default: no bar at the right to hold
    assert margin["b"] >= 60 + 12  # the legend's rows and a bar


def test_one_row_of_panels_keeps_one_value_bar_at_the_right():
    bars = [
        t["colorbar"]
        for t in _surfaces_in_rows(1)["data"]
        if t["type"] == "heatmap" and t.get("showscale") is not False
    ]
    assert len(bars) == 1 and bars[0].get("orientation", "v") == "v" and bars[0]["x"] > 1


def test_the_rows_dots_travel_as_float32_on_every_panel():
    """Each surface panel repeats the training rows as dots: their places are sent as float32
    (half of float64's bytes), the same values to a pixel."""
    rng = np.random.default_rng(0)
    X = rng.normal(size=(2000, 2)) * 1000
    y = (X[:, 0] <= 3).astype(int)
    predictions = {op: _rule(op) for op in ("<=", "<")}
    figure, _ = surfaces_figure(
        predictions, X, y, 0, 1, ["a", "b"], class_index=1, thresholds={0: np.array([3.0])}, n=40
    )
    dots = [t for t in figure.data if str(t.name).startswith("training")]
    assert len(dots) == 4  # two classes on each of the two surface panels
    for trace in dots:
        assert np.asarray(trace.x).dtype == np.float32 and np.asarray(trace.y).dtype == np.float32
        assert trace.hoverinfo == "skip"  # no hover shows the float32 digits
    drawn = np.concatenate([np.asarray(t.x, dtype=float) for t in dots[:2]])
    np.testing.assert_allclose(np.sort(drawn), np.sort(X[:, 0]), rtol=1e-7)
    sent = [t for t in json.loads(figure.to_json())["data"] if t.get("name", "").startswith("tr")]
    assert {(t["x"]["dtype"], t["y"]["dtype"]) for t in sent} == {("f4", "f4")}  # 4 bytes a place


def test_a_difference_panel_sends_only_the_block_of_cells_that_differ():
    """Blank cells around the differences are not sent; each kept cell is where it was on
    the whole grid, exact cells (edges) or a sampled grid (centres made edges); a panel
    whose tests agree everywhere is a single blank cell."""
    from viz.conditioning import _difference_panel
    from viz.partition import _cell_edges

    centres, edges = np.linspace(0.0, 9.0, 10), np.array([0.0, 1.0, 2.5, 4.0, 7.0])
    first = np.zeros((4, 10))
    second = first.copy()
    second[1:3, 6] = 0.5
    second[2, 8] = 0.25
    cell = ("x", "y")
    trace, n_differ = _difference_panel(centres, edges, first, second, cell, False, None)
    assert n_differ == 3
    np.testing.assert_array_equal(trace.x, [5.5, 6.5, 7.5, 8.5])  # centres 6-8, as edges
    np.testing.assert_array_equal(trace.y, [1.0, 2.5, 4.0])  # rows 1-2 of the exact axis
    z = np.asarray(trace.z, dtype=float)
    np.testing.assert_array_equal(np.isfinite(z), [[1, 0, 0], [1, 0, 1]])
    assert (z[0, 0], z[1, 2]) == (0.5, 0.25)
    assert "sampled on a 10 × 4 grid" in trace.hovertemplate  # the whole grid's note
    blank, none = _difference_panel(centres, edges, first, first, cell, False, None)
    assert none == 0 and np.asarray(blank.z).shape == (1, 1) and np.isnan(blank.z).all()
    np.testing.assert_array_equal(_cell_edges(centres, 10)[:2], [-0.5, 0.5])


def test_a_sampled_map_sends_each_run_of_equal_columns_and_rows_as_one_cell():
    """A forest's map on a sampled grid (more thresholds than cells) repeats each column
    between two of its thresholds: a run of equal columns (rows) goes as one cell spanning
    them, in float32, and every grid point reads its own value back from the cell that holds
    it (the same colour and hover value as before, at a ninth of the bytes on bupa)."""
    rng = np.random.default_rng(0)
    X = rng.uniform(0.0, 10.0, size=(300, 2))
    y = (X[:, 0] + X[:, 1] > 10).astype(int)
    cuts = np.sort(rng.uniform(0.0, 10.0, 400))  # a forest's many thresholds: sampled axes

    def forest_like(op):
        def predict(rows):
            left = (rows[:, :1] <= cuts) if op == "<=" else (rows[:, :1] < cuts)
            p = np.clip(left.mean(axis=1) * 0.7 + (rows[:, 1] > 5) * 0.3, 0, 1)
            return np.column_stack([1 - p, p])

        return predict

    predictions = {op: forest_like(op) for op in ("<=", "<")}
    figure, _ = surfaces_figure(
        predictions, X, y, 0, 1, ["a", "b"], class_index=1,
        thresholds={0: cuts, 1: cuts}, n=90,
    )  # fmt: skip
    from viz.conditioning import _surfaces

    sent = json.loads(figure.to_json())["data"]
    heatmaps = [t for t in sent if t["type"] == "heatmap"]
    # The whole grid as it was drawn before: its points and their values.
    xs, ys, surfaces = _surfaces(predictions, X, 0, 1, None, 90, {0: cuts, 1: cuts}, 1)
    assert surfaces["<="].shape == (len(ys), len(xs)) == (90, 90)
    for trace, op in zip(heatmaps[:2], ("<=", "<"), strict=True):
        assert trace["z"]["dtype"] == "f4"
        z = _values(trace["z"]).reshape(len(_values(trace["y"])) - 1, -1)
        x_edges, y_edges = _values(trace["x"]), _values(trace["y"])
        assert z.size < 90 * 90 / 4  # runs merged: the rows' feature takes two values
        expected = surfaces[op].astype(np.float32)
        column = np.searchsorted(x_edges, xs, side="right") - 1
        row = np.searchsorted(y_edges, ys, side="right") - 1
        np.testing.assert_array_equal(z[np.ix_(row, column)], expected)
        assert "sampled on a 90 × 90 grid" in trace["hovertemplate"]
