"""The figures' shared layout: the light panel grid and the foreseen margins."""

import numpy as np
import plotly.graph_objects as go
import pytest
from plotly.subplots import make_subplots

from viz.layout import LAYOUT, panel_grid
from viz.margins import reserve_margins, text_width


@pytest.mark.parametrize("rows, columns", [(1, 3), (2, 2), (3, 2)])
def test_panel_grid_places_panels_as_make_subplots_does(rows, columns):
    titles = [f"panel {k}" for k in range(rows * columns)]
    grid, cells = panel_grid(rows, columns, titles, 0.05, 0.12, share_x=True, share_y=True)
    reference = make_subplots(
        rows=rows, cols=columns, subplot_titles=titles, horizontal_spacing=0.05,
        vertical_spacing=0.12, shared_xaxes=True, shared_yaxes=True,
    )  # fmt: skip
    for k, (x_ref, y_ref) in enumerate(cells, start=1):
        suffix = "" if k == 1 else str(k)
        assert (x_ref, y_ref) == (f"x{suffix}", f"y{suffix}")
        for letter in "xy":
            ours = grid[f"{letter}axis{suffix}"]
            theirs = reference.layout[f"{letter}axis{suffix}"]
            np.testing.assert_allclose(ours["domain"], theirs.domain, atol=1e-9)
            assert ours.get("matches") == theirs.matches
            assert ours.get("showticklabels", True) is not False or theirs.showticklabels is False
    ours = [(a["text"], round(a["x"], 9), round(a["y"], 9)) for a in grid["annotations"]]
    theirs = [(a.text, round(a.x, 9), round(a.y, 9)) for a in reference.layout.annotations]
    assert ours == theirs


def test_panel_grid_domains_stay_within_the_figure():
    grid, _ = panel_grid(3, 3, [], 0.07, 0.13)
    domains = [axis["domain"] for key, axis in grid.items() if key != "annotations"]
    assert all(0.0 <= low < high <= 1.0 for low, high in domains)
    go.Figure(layout=grid)  # plotly accepts it


def _heatmap_figure(colorbar_title="P(class 1)", y_labels=("0.001", "0.0028", "0.5")):
    figure = go.Figure(
        go.Heatmap(
            x=["10", "100"], y=list(y_labels), z=np.zeros((len(y_labels), 2)),
            colorbar={"title": {"text": colorbar_title}},
        ),
        layout={**LAYOUT, "xaxis_title": "rows N", "yaxis_title": "prior p₁", "height": 400},
    )  # fmt: skip
    return figure


def test_margins_hold_the_tick_labels_titles_and_colour_bar():
    figure = reserve_margins(_heatmap_figure())
    margin = figure.layout.margin
    # y labels ("0.0028") + the title beside them; a colour bar and its title on the right
    assert margin.l >= text_width("0.0028", 12) + 24 and margin.r > 30 + text_width("P(class", 14)
    assert margin.b >= 24 + 12 and margin.t == LAYOUT["margin"]["t"]


def test_margins_grow_with_longer_labels_and_are_never_lowered():
    short = reserve_margins(_heatmap_figure(y_labels=("a", "b"))).layout.margin.l
    long = reserve_margins(
        _heatmap_figure(y_labels=("a much longer category", "b"))
    ).layout.margin.l
    assert long > short + 80
    wide = _heatmap_figure()
    wide.update_layout(margin={"l": 300, "r": 300, "b": 300})
    assert reserve_margins(wide).layout.margin.l == 300


def test_a_legend_below_the_plot_gets_the_room_plotly_gives_it():
    figure = go.Figure(
        [go.Scatter(x=[0, 1], y=[0, 1], name=f"training rows, class {k}") for k in range(6)],
        layout={**LAYOUT, "height": 500, "legend": {"orientation": "h", "y": -0.2, "x": 0}},
    )
    one_row = go.Figure(figure.data[:1], layout=figure.layout)
    # The legend's top sits 20% of the plot's height under it, and six entries wrap onto rows.
    assert (
        reserve_margins(figure).layout.margin.b
        > reserve_margins(one_row).layout.margin.b
        > 0.2 * 400
    )


def _bottom_edge_figure(height):
    """A heatmap whose horizontal colour bar and legend stand at the figure's bottom edge."""
    edge = {"y": 0.0, "yref": "container", "yanchor": "bottom"}
    bar = {"orientation": "h", "x": 1.0, "xanchor": "right", "len": 0.4, "thickness": 12, **edge}
    return go.Figure(
        [
            go.Heatmap(z=[[0, 1], [1, 0]], colorbar=bar),
            go.Scatter(x=[0, 1], y=[0, 1], name="class 0"),
        ],
        layout={
            **LAYOUT,
            "height": height,
            "xaxis": {"title": {"text": "x1"}},
            "legend": {"orientation": "h", "x": 0.0, **edge},
        },
    )


def test_a_colour_bar_and_legend_at_the_bottom_edge_get_room_under_the_axis_title():
    """Placed from the figure's edge in pixels, they need the same room at every height (a
    presenter's shorter figure included), and more than the axis title alone; a horizontal
    colour bar takes no room at the right."""
    tall, short = (reserve_margins(_bottom_edge_figure(h)).layout.margin for h in (600, 300))
    without = _bottom_edge_figure(600)
    without.update_layout(showlegend=False)
    without.update_traces(showscale=False, selector={"type": "heatmap"})
    axis_only = reserve_margins(without).layout.margin.b
    assert tall.b == short.b > axis_only + 12 + 12  # the bar and its labels, under the title
    assert tall.r < 60  # the last tick label's overhang, not a vertical bar's width


def test_a_figure_with_nothing_outside_its_plot_keeps_its_margins():
    figure = go.Figure(go.Scatter(x=[0, 1], y=[0, 1]), layout=LAYOUT)
    figure.update_xaxes(showticklabels=False)
    figure.update_yaxes(showticklabels=False)
    before = figure.layout.margin.to_plotly_json()
    assert reserve_margins(figure).layout.margin.to_plotly_json() == before


def test_presenter_sized_type_needs_wider_margins():
    normal = reserve_margins(_heatmap_figure()).layout.margin.l
    large = _heatmap_figure()
    large.update_layout(font={"size": 18})
    assert reserve_margins(large).layout.margin.l > normal


def test_a_figure_that_went_through_a_pickle_gets_the_same_margins():
    """A ``st.cache_data`` copy holds its numpy arrays as plotly's typed arrays (``bdata``);
    read as text they made margins over 1,000 px wide (issue 57, the conditioning animation)."""
    import pickle

    def figure():
        return go.Figure(go.Scatter(x=np.linspace(0, 20, 50), y=np.linspace(-1, 1, 50)))

    copy = pickle.loads(pickle.dumps(figure()))
    assert isinstance(copy.data[0].to_plotly_json()["x"], dict)  # the typed-array form
    assert reserve_margins(copy).layout.margin == reserve_margins(figure()).layout.margin
