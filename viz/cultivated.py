"""Figures of the cultivated-forest page (source 002), in the app's class colours.

Probabilities of class 1 are drawn on one diverging scale from class 0's
colour through white at P = 0.5 (the decision value) to class 1's colour,
with a titled colour bar, so a colour means the same class everywhere.
The cultivated tree itself is drawn by the tree view
(``viz.tree_svg.modules_drawing``).
"""

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from .colors import class_color, class_probability_scale
from .layout import AT_BOTTOM_EDGE, LAYOUT, LEGEND_AT_BOTTOM, TITLED_SUBPLOTS, axis_key, panel_grid

__all__ = [
    "abstention_figure",
    "auc_table",
    "leaf_fraction_figure",
    "probability_colorbar",
    "soft_surfaces_figure",
]


def probability_colorbar(class_names, **options):
    """A colour bar for P(class 1): its title names the class, its ends name both classes."""
    return {
        "title": {"text": f"P({class_names[1]})", "side": "right"},
        "tickvals": [0, 0.5, 1],
        "ticktext": [f"0: class {class_names[0]}", "0.5", f"1: class {class_names[1]}"],
        **options,
    }


def _probability_bar_below(class_names):
    """:func:`probability_colorbar` laid horizontally on the figure's bottom edge, at the right of
    the legend (``viz.layout.AT_BOTTOM_EDGE``): its ends say the classes, its middle the
    probability shown.

    Under the panels rather than beside them, the bar leaves its width to the panels: at 1024
    px with the sidebar open, three panels of ~150 px instead of ~130. It has no title:
    plotly.js draws a horizontal bar's title over the bar when the bar is placed from the
    figure's edge.
    """
    return {
        "tickvals": [0, 0.5, 1],
        "ticktext": [
            f"class {class_names[0]}",
            f"P({class_names[1]}) = 0.5",
            f"class {class_names[1]}",
        ],
        "orientation": "h",
        "x": 1.0,
        "xanchor": "right",
        "len": 0.38,
        "thickness": 12,
        "ypad": 4,
        **AT_BOTTOM_EDGE,
    }


def soft_surfaces_figure(xs, ys, surfaces, X, y01, fx, fy, feature_names, class_names, row=None):
    """Panels of P(class 1) over two features, one per model, with the training rows (Figure 3).

    Parameters
    ----------
    xs, ys : ndarray
        The grid's axes.
    surfaces : dict {title: ndarray of shape (len(ys), len(xs))}
    X, y01 : training rows and their classes coded 0/1
    fx, fy : int
        The features on the axes.
    class_names : pair of str
    row : int, optional
        A training row drawn as a black star on every panel.
    """
    titles = list(surfaces)
    grid, cells = panel_grid(1, len(titles), titles, horizontal_spacing=0.03, share_y=True)
    traces = []
    for index, (title, (x_ref, y_ref)) in enumerate(zip(titles, cells, strict=True)):
        on_panel = {"xaxis": x_ref, "yaxis": y_ref, "showlegend": index == 0}
        traces.append(
            go.Heatmap(
                x=xs, y=ys, z=surfaces[title], zmin=0, zmax=1,
                colorscale=class_probability_scale(), showscale=index == 0,
                colorbar=_probability_bar_below(class_names),
                hovertemplate="%{x:.3g}, %{y:.3g}<br>P = %{z:.2f}<extra>" + title + "</extra>",
                xaxis=x_ref, yaxis=y_ref,
            )
        )  # fmt: skip
        for k in (0, 1):
            mine = y01 == k
            traces.append(
                go.Scatter(
                    x=X[mine, fx], y=X[mine, fy], mode="markers", name=f"class {class_names[k]}",
                    legendgroup=str(k), hoverinfo="skip",
                    marker={  # the class's colour, outlined so it shows on its own colour too
                        "size": 6, "color": class_color(k),
                        "symbol": "circle" if k == 0 else "diamond",
                        "line": {"width": 0.8, "color": "#222222"},
                    },
                    **on_panel,
                )
            )  # fmt: skip
        if row is not None:
            traces.append(
                go.Scatter(
                    x=[X[row, fx]], y=[X[row, fy]], mode="markers", name=f"row {row}",
                    marker={"symbol": "star", "size": 15, "color": "black",
                            "line": {"width": 1, "color": "white"}},
                    **on_panel,
                )
            )  # fmt: skip
    for k, (x_ref, y_ref) in enumerate(cells):
        grid[axis_key(x_ref)].update(title={"text": feature_names[fx]}, range=[xs[0], xs[-1]])
        grid[axis_key(y_ref)]["range"] = [ys[0], ys[-1]]
        if k == 0:
            grid["yaxis"]["title"] = {"text": feature_names[fy]}
    layout = {**grid, **TITLED_SUBPLOTS, "height": 400,
              "legend": LEGEND_AT_BOTTOM}  # fmt: skip
    return go.Figure(data=traces, layout=layout)


def leaf_fraction_figure(fractions, leaf_ids, leaf_values, class_names, minimum=1e-3):
    """The fractions with which one row reaches each leaf, each bar coloured by the leaf's P(class 1)."""
    keep = fractions > minimum
    order = np.argsort(-fractions[keep])
    ids = np.asarray(leaf_ids)[keep][order]
    values = np.asarray(leaf_values)[keep][order]
    fig = go.Figure(
        go.Bar(
            x=[f"leaf {i}" for i in ids],
            y=fractions[keep][order],
            marker={
                "color": values,
                "colorscale": class_probability_scale(),
                "cmin": 0,
                "cmax": 1,
                "colorbar": probability_colorbar(class_names, thickness=14),
                "line": {"width": 1, "color": "#777"},
            },
            customdata=values,
            hovertemplate="%{x}<br>fraction %{y:.3f}<br>P = %{customdata:.2f}<extra></extra>",
        )
    )
    fig.update_layout(
        title="Where the row ends up",
        xaxis_title="leaf reached",
        yaxis_title="fraction of the row",
        height=320,
        **LAYOUT,
    )
    fig.update_xaxes(type="category")
    return fig


def abstention_figure(thresholds, accuracy, kept):
    """Accuracy on the kept predictions and the share kept, against the spread threshold (Figure 4)."""
    fig = go.Figure()
    fig.add_trace(
        go.Scatter(
            x=thresholds,
            y=accuracy,
            mode="lines",
            name="accuracy of the predictions kept",
            line={"color": "#2E7D32", "width": 2.5},
        )
    )
    fig.add_trace(
        go.Scatter(
            x=thresholds,
            y=kept,
            mode="lines",
            name="share of predictions kept",
            line={"color": "#555555", "dash": "dash"},
        )
    )
    fig.update_layout(
        title="Abstaining when the spread is high",
        xaxis_title="largest spread still predicted",
        yaxis_title="share",
        yaxis_range=[0, 1.02],
        height=340,
        legend={"orientation": "h", "y": -0.3},
        **LAYOUT,
    )
    return fig


def auc_table(scores, paper=None):
    """Mean AUC and SD per model over the folds, beside the paper's Table 1 value when given.

    Parameters
    ----------
    scores : dict {model: ndarray of fold AUCs}
    paper : dict {model: mean AUC}, optional
    """
    rows = []
    for name, values in scores.items():
        values = np.asarray(values, dtype=float)
        row = {
            "model": name,
            "mean AUC": float(np.nanmean(values)) if values.size else np.nan,
            "SD": float(np.nanstd(values)) if values.size else np.nan,
            "folds": int(values.size),
        }
        if paper is not None:
            row["paper's AUC"] = paper.get(name, np.nan)
        rows.append(row)
    return pd.DataFrame(rows)
