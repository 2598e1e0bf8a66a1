"""The first lesson's pictures: the table with rows coloured by side, the plane with the splits,
the Gini curve and the gains of the candidate splits.

Each builder takes plain numbers (the lesson's table, thresholds, gains) and
returns a plotly figure; the text is at least 14 px, for a room.
"""

import numpy as np
import plotly.graph_objects as go

from .colors import blend_with_white, class_color
from .layout import LAYOUT

__all__ = ["SIDE_COLORS", "gains_figure", "gini_figure", "plane_figure", "table_figure"]

# The two sides of a question: "yes" rows go left, "no" rows go right (not a class colour).
SIDE_COLORS = {"left": "#d9efd6", "right": "#eadcf2"}
_FONT = {"size": 14}
_HEADER_HEIGHT, _ROW_HEIGHT = 52, 28  # the table's header (two lines) and each row, in px


def table_figure(table, class_names, sides=None, title="The ten applicants"):
    """The table as a picture: each row tinted by the side a question sends it to.

    Parameters
    ----------
    table : pandas.DataFrame
        One row per applicant: its name, its features, and last its outcome (a class name).
    class_names : sequence of str
        The classes in order: the outcome cell takes its class's colour.
    sides : sequence of {"left", "right"}, optional
        The side of each row: green for "left" (the answer yes), purple for "right".
    """
    columns = [str(c) for c in table.columns]
    values = [[f"{v:g}" if isinstance(v, float) else str(v) for v in table[c]] for c in table]
    n = len(table)
    row_fill = [SIDE_COLORS[s] for s in sides] if sides is not None else ["white"] * n
    fills = [row_fill for _ in columns]
    fills[-1] = [
        blend_with_white(class_color(list(class_names).index(v)), 0.3) for v in table.iloc[:, -1]
    ]
    figure = go.Figure(
        go.Table(
            columnwidth=[
                max(len(max(c.split(" ("), key=len)) if i else 0, *map(len, v)) + 2
                for i, (c, v) in enumerate(zip(columns, values, strict=True))
            ],
            header={
                "values": [
                    f"<b>{c.replace(' (', '<br>(')}</b>" if i else "" for i, c in enumerate(columns)
                ],
                "fill_color": "#eef1ee",
                "font": _FONT,
                "height": _HEADER_HEIGHT,
                "align": "left",
            },
            cells={
                "values": values,
                "fill_color": fills,
                "font": _FONT,
                "height": _ROW_HEIGHT,
                "align": "left",
            },
        )
    )
    # Room for every row: a table taller than its figure scrolls inside it, which hid the last
    # applicant below the others (the header's two lines are taller than their nominal height).
    margins = LAYOUT["margin"]["t"] + LAYOUT["margin"]["b"]
    figure.update_layout(title=title, height=margins + _HEADER_HEIGHT + _ROW_HEIGHT * n + 24,
                         **LAYOUT)  # fmt: skip
    return figure


def _region_color(kind):
    return SIDE_COLORS[kind] if kind in SIDE_COLORS else blend_with_white(class_color(kind), 0.22)


def plane_figure(
    X,
    y,
    labels,
    feature_names,
    class_names,
    bounds,
    title,
    *,
    cuts=(),
    candidates=(),
    regions=(),
    new_row=None,
):
    """The applicants as points of the plane of the two features, with what splits it.

    Parameters
    ----------
    X : ndarray of shape (n, 2)
    y : ndarray of shape (n,)
        Class indices (into ``class_names``).
    labels : sequence of str
        The name written beside each point (the applicant's letter).
    bounds : ((float, float), (float, float))
        The drawn range of each feature.
    cuts : sequence of (int, float, (float, float))
        Splits drawn as solid lines: the feature, the threshold and the range of
        the other feature the line spans.
    candidates : sequence of (int, float)
        Candidate thresholds drawn as thin dashed lines across the plane.
    regions : sequence of ((float, float), (float, float), kind)
        Boxes shaded by ``kind``: "left" or "right" (the sides of a question), or
        a class index (the class a leaf predicts).
    new_row : (float, float), optional
        A new applicant, drawn as a star.
    """
    figure = go.Figure()
    for (x0, x1), (y0, y1), kind in regions:
        figure.add_shape(type="rect", x0=x0, x1=x1, y0=y0, y1=y1, line_width=0,
                         fillcolor=_region_color(kind), layer="below")  # fmt: skip
    for feature, threshold in candidates:
        figure.add_shape(**_line(feature, threshold, bounds[1 - feature]),
                         line={"color": "#8a8f8a", "width": 1, "dash": "dot"})  # fmt: skip
    for feature, threshold, span in cuts:
        figure.add_shape(**_line(feature, threshold, span),
                         line={"color": "#1b1f1b", "width": 3})  # fmt: skip
    for trace in _applicant_traces(X, y, labels, feature_names, class_names):
        figure.add_trace(trace)
    if new_row is not None:
        figure.add_trace(_new_row_trace(new_row))
    figure.update_layout(
        title=title,
        height=400,
        font=_FONT,
        xaxis={
            "tickfont": _FONT,
            "title": feature_names[0],
            "range": list(bounds[0]),
            "showgrid": False,
        },
        yaxis={
            "tickfont": _FONT,
            "title": feature_names[1],
            "range": list(bounds[1]),
            "dtick": 1,
            "showgrid": False,
        },
        legend={"orientation": "h", "yanchor": "top", "y": -0.2, "x": 0},
        **LAYOUT,
    )
    return figure


def _applicant_traces(X, y, labels, feature_names, class_names):
    """One scatter per class: its applicants as labelled points."""
    y = np.asarray(y, dtype=int)
    traces = []
    for k, name in enumerate(class_names):
        rows = y == k
        traces.append(
            go.Scatter(
                x=X[rows, 0],
                y=X[rows, 1],
                mode="markers+text",
                name=name,
                text=[labels[i] for i in np.flatnonzero(rows)],
                textposition="top center",
                textfont=_FONT,
                marker={
                    "size": 14,
                    "color": class_color(k),
                    "line": {"width": 1, "color": "white"},
                },
                hovertemplate=f"%{{text}}: {feature_names[0]} %{{x:g}}, {feature_names[1]} "
                f"%{{y:g}}<extra>{name}</extra>",
            )
        )
    return traces


def _new_row_trace(new_row):
    """The new applicant: a star."""
    return go.Scatter(
        x=[new_row[0]],
        y=[new_row[1]],
        mode="markers",
        name="new applicant",
        marker={
            "size": 20,
            "symbol": "star",
            "color": "#f2c94c",
            "line": {"width": 1.5, "color": "#1b1f1b"},
        },
        hovertemplate="new applicant: %{x:g}, %{y:g}<extra></extra>",
    )


def _line(feature, threshold, span):
    """A line at ``threshold`` of ``feature`` (vertical for feature 0), over ``span`` of the other."""
    if feature == 0:
        return {"type": "line", "x0": threshold, "x1": threshold, "y0": span[0], "y1": span[1]}
    return {"type": "line", "x0": span[0], "x1": span[1], "y0": threshold, "y1": threshold}


def gini_figure(points, class_name):
    """The Gini impurity of a two-class group against the share of ``class_name`` in it, 2p(1 - p).

    ``points``: (label, share, gini) triples marked on the curve (the groups of the table).
    """
    share = np.linspace(0, 1, 101)
    figure = go.Figure(
        go.Scatter(
            x=share,
            y=2 * share * (1 - share),
            mode="lines",
            name="Gini",
            line={"color": "#5f665f", "width": 2},
            hoverinfo="skip",
        )
    )
    figure.add_trace(
        go.Scatter(
            x=[p[1] for p in points],
            y=[p[2] for p in points],
            mode="markers+text",
            text=[p[0] for p in points],
            textfont=_FONT,
            textposition=["top left" if p[1] > 0.8 else "top center" for p in points],
            marker={"size": 13, "color": "#2E7D32"},
            name="groups of the table",
            hovertemplate="%{text}: share %{x:.2f}, Gini %{y:.3f}<extra></extra>",
        )
    )
    figure.update_layout(
        title="Gini impurity: 0 when pure, largest (0.5) at half and half",
        height=360,
        font=_FONT,
        showlegend=False,
        xaxis={
            "tickfont": _FONT,
            "title": f"share of the group in class “{class_name}”",
            "range": [-0.05, 1.05],
        },
        yaxis={"tickfont": _FONT, "title": "Gini impurity", "range": [-0.03, 0.62]},
        **LAYOUT,
    )
    return figure


def gains_figure(questions, gains, best, title):
    """One bar per candidate question, its gain; the best one in green, the others grey."""
    colors = ["#2E7D32" if i == best else "#b9c0b9" for i in range(len(questions))]
    figure = go.Figure(
        go.Bar(
            x=list(gains),
            y=list(questions),
            orientation="h",
            marker_color=colors,
            text=[f"{g:.3f}" for g in gains],
            textposition="outside",
            textfont=_FONT,
            hovertemplate="%{y}: gain %{x:.4f}<extra></extra>",
        )
    )
    figure.update_layout(
        title=title,
        height=120 + 26 * len(questions),
        font=_FONT,
        xaxis={"tickfont": _FONT, "title": "gain", "range": [0, max(gains) * 1.3]},
        yaxis={"tickfont": _FONT, "autorange": "reversed", "type": "category"},
        **LAYOUT,
    )
    return figure
