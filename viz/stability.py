"""Figures of split confidence, refits compared with each other, cutpoints and the scoreboard.

Every builder reads the results of ``trees.instability`` (``split_confidence``,
``prediction_agreement`` / ``tree_distances`` / ``refit_map``,
``node_cutpoints`` / ``cutpoint_summary``, ``stability_scoreboard``) and
returns a plotly figure sized to be read at 1024 pixels wide: horizontal bars
where labels are long, few ticks, titles clear of each other, and a sentence
inside the figure when there is nothing to draw. Near-tie trees have their
own module, :mod:`viz.near_ties`.
"""

import re

import numpy as np
import pandas as pd
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from .colors import class_color
from .layout import LAYOUT, TITLED_SUBPLOTS

__all__ = [
    "CONFIDENCE_LEVELS",
    "badged_dot",
    "confidence_badges",
    "confidence_figure",
    "confidence_level",
    "cutpoint_figure",
    "cutpoint_grid_figure",
    "cutpoint_overview_figure",
    "empty_figure",
    "matrix_heatmap",
    "refit_map_figure",
    "scoreboard_figure",
    "svg_badges",
]

# Fragility levels of a node, with their colour and what they mean (for a legend).
CONFIDENCE_LEVELS = {
    "fragile": (
        "#d62728",
        "another feature ties it, removing 1 or 2 rows changes the feature, or it wins under "
        "half the bootstraps",
    ),
    "shaky": ("#ff7f0e", "at most 5 rows change it, or it wins under 80% of the bootstraps"),
    "firm": ("#2ca02c", "more rows needed, and it wins at least 80% of the bootstraps"),
}
# Beyond 2, rows_to_flip is an upper bound (the true count lies between 3 and it): the levels read
# it as found, so a node may be shakier than "firm" says, never firmer than "shaky" says.
_LABEL_WIDTH = 38


def empty_figure(message, title="", height=260):
    """A figure that says in words that there is nothing to draw."""
    fig = go.Figure()
    fig.add_annotation(
        text=message, x=0.5, y=0.5, xref="paper", yref="paper", showarrow=False, font={"size": 14}
    )
    fig.update_layout(title=title, height=height, **LAYOUT)
    fig.update_xaxes(visible=False)
    fig.update_yaxes(visible=False)
    return fig


def _short(text, width=_LABEL_WIDTH):
    text = str(text)
    return text if len(text) <= width else text[: width - 1] + "…"


# ------------------------------------------------------------ split confidence
def confidence_level(row):
    """``"fragile"``, ``"shaky"`` or ``"firm"`` for one row of ``split_confidence`` (see CONFIDENCE_LEVELS)."""
    flip = row.get("rows_to_flip")
    flip = None if flip is None or pd.isna(flip) else int(flip)
    win = row.get("boot_win_rate")
    win = None if win is None or pd.isna(win) else float(win)
    if row.get("tied", False):  # another feature scores as well: the tie-break chose
        return "fragile"
    if (flip is not None and flip <= 2) or (win is not None and win < 0.5):
        return "fragile"
    if (flip is not None and flip <= 5) or (win is not None and win < 0.8):
        return "shaky"
    return "firm"


def _flip_words(row):
    if row.get("tied", False) and row.get("runner_up_name"):
        return f"tied with {row['runner_up_name']}"
    flip = row.get("rows_to_flip")
    if flip is None or pd.isna(flip):
        return "no flip found"
    flip = int(flip)
    if flip == 0:
        ratio = row.get("score_ratio")
        beaten = ratio is not None and not pd.isna(ratio) and ratio > 1 + 1e-9
        return "another feature scores higher" if beaten else "tied with another feature"
    if row.get("flip_exact", False):
        return f"flips with {flip} row{'s' if flip > 1 else ''}"
    return f"flips with ≤ {flip} rows"


def _flip_short(row):
    """``_flip_words`` in a few characters, for a badge on a small box: ``"1 row"``, ``"≤5 rows"``."""
    if row.get("tied", False):
        return "tie"
    flip = row.get("rows_to_flip")
    if flip is None or pd.isna(flip):
        return "no flip"
    flip = int(flip)
    if flip == 0:
        ratio = row.get("score_ratio")
        return "beaten" if ratio is not None and not pd.isna(ratio) and ratio > 1 + 1e-9 else "tie"
    rows = f"{flip} row{'s' if flip > 1 else ''}"
    return rows if row.get("flip_exact", False) else f"≤{rows}"


def confidence_badges(table):
    """Colour, badge and hover text of every internal node, for a tree drawing.

    Parameters
    ----------
    table : pandas.DataFrame
        From ``trees.split_confidence``.

    Returns
    -------
    dict {node: dict}
        ``level`` (see :data:`CONFIDENCE_LEVELS`), ``color`` (hex), ``badge``
        (one short line, e.g. ``"flips with 1 row · wins 12%"``), ``short``
        (the same in a few characters, ``"1 row · 12%"``, for small boxes) and
        ``tooltip`` (the runner-up and the numbers). Leaves are absent.
    """
    out = {}
    for row in table.to_dict("records"):
        level = confidence_level(row)
        win = row.get("boot_win_rate")
        wins = "" if win is None or pd.isna(win) else f" · wins {win:.0%}"
        ratio = row.get("score_ratio")
        runner = (
            f"runner-up {row['runner_up_split']} ({ratio:.0%} of the score)"
            if row.get("runner_up_split") and ratio is not None and not pd.isna(ratio)
            else "no runner-up"
        )
        out[int(row["node"])] = {
            "level": level,
            "color": CONFIDENCE_LEVELS[level][0],
            "badge": _flip_words(row) + wins,
            "short": _flip_short(row) + ("" if not wins else f" · {win:.0%}"),
            "tooltip": f"{row['split']}: {_flip_words(row)}{wins}; {runner}",
        }
    return out


def svg_badges(badges, short=False):
    """The badges of :func:`confidence_badges` as ``viz.tree_svg.tree_drawing`` takes them.

    ``short=True`` writes the few-character form (``"1 row · 12%"``), whose pill
    fits over a box of a wide tree without covering its neighbours.

    Returns
    -------
    dict {node: (text, colour)}
    """
    field = "short" if short else "badge"
    return {node: (badge[field], badge["color"]) for node, badge in badges.items()}


_NODE_LINE = re.compile(r'^(\s*)(\d+) \[label="((?:[^"\\]|\\.)*)"(.*)\];$')


def badged_dot(dot, badges):
    """A DOT drawing (``viz.tree_dot.tree_to_dot``) with every node's badge and border colour.

    For the SVG tree view (``viz.tree_svg.tree_drawing``) pass
    ``badges=svg_badges(badges)`` instead.

    The badge is added as the last line of the node's label; the border takes
    the level's colour (thick for fragile nodes). Nodes without a badge are
    left as they are.
    """
    lines = []
    for line in dot.split("\n"):
        match = _NODE_LINE.match(line)
        node = int(match.group(2)) if match else None
        if node is None or node not in badges:
            lines.append(line)
            continue
        badge = badges[node]
        label = match.group(3) + "\\n" + badge["badge"].replace('"', '\\"')
        width = 3 if badge["level"] == "fragile" else 2
        tooltip = badge["tooltip"].replace("\\", "\\\\").replace('"', '\\"')
        lines.append(
            f'{match.group(1)}{node} [label="{label}"{match.group(4)}, '
            f'color="{badge["color"]}", penwidth={width}, tooltip="{tooltip}"];'
        )
    return "\n".join(lines)


def confidence_figure(table, title="How firmly each node holds its split"):
    """Bootstrap win rate of every node, coloured by fragility, with rows to flip as text."""
    if table is None or len(table) == 0:
        return empty_figure("The tree has no split: nothing to judge.", title)
    rows = table.sort_values(["depth", "node"])
    levels = [confidence_level(r) for r in rows.to_dict("records")]
    labels = [_short(f"{p}: {s}", 44) for p, s in zip(rows["path"], rows["split"], strict=True)]
    win = rows["boot_win_rate"].to_numpy(dtype=float)
    fig = go.Figure(
        go.Bar(
            x=np.nan_to_num(win),
            y=labels,
            orientation="h",
            marker_color=[CONFIDENCE_LEVELS[level][0] for level in levels],
            text=[_flip_words(r) for r in rows.to_dict("records")],
            textposition="auto",
            customdata=np.column_stack([rows["runner_up_split"], rows["score_ratio"]]),
            hovertemplate="%{y}<br>wins %{x:.0%} of the bootstraps<br>%{text}"
            "<br>runner-up %{customdata[0]} (%{customdata[1]:.1%} of the score)<extra></extra>",
            showlegend=False,
        )
    )
    for level, (color, meaning) in CONFIDENCE_LEVELS.items():  # legend entries only
        fig.add_trace(
            go.Bar(
                x=[None],
                y=[None],
                orientation="h",
                marker_color=color,
                name=level,
                hovertext=meaning,
            )
        )
    fig.update_layout(
        title=title,
        height=max(280, 34 * len(rows) + 140),
        legend={"orientation": "h", "y": -0.2, "x": 0},
        barmode="overlay",
        xaxis={
            "title": "bootstrap win rate of the node's feature",
            "range": [0, 1],
            "tickformat": ".0%",
            "nticks": 6,
        },
        yaxis={"autorange": "reversed", "automargin": True},
        **LAYOUT,
    )
    return fig


# --------------------------------------------------------- refits compared
def matrix_heatmap(
    matrix, title, labels=None, value_name="agreement", colorscale="Blues", zmin=None, zmax=None
):
    """A square matrix over refits (agreement or distance) as a heatmap.

    The colour scale spans the values off the diagonal unless ``zmin`` and
    ``zmax`` are given, so that small differences between refits show.
    """
    matrix = np.asarray(matrix, dtype=float)
    if matrix.size == 0:
        return empty_figure("No refits to compare.", title)
    labels = labels if labels is not None else [f"refit {i}" for i in range(matrix.shape[0])]
    off = matrix[~np.eye(matrix.shape[0], dtype=bool)]
    if off.size:
        zmin = float(off.min()) if zmin is None else zmin
        zmax = float(off.max()) if zmax is None else zmax
    fig = go.Figure(
        go.Heatmap(
            # float32 halves what travels to the browser (n_refits squared values, 90 KB at
            # float64 for the default refits); the hover shows three decimals, far coarser.
            z=matrix.astype(np.float32),
            x=labels,
            y=labels,
            colorscale=colorscale,
            zmin=zmin,
            zmax=zmax,
            colorbar={"title": value_name},
            hovertemplate="%{y} and %{x}: %{z:.3f}<extra></extra>",
        )
    )
    fig.update_layout(title=title, height=520, **LAYOUT)
    fig.update_xaxes(nticks=10, showticklabels=len(labels) <= 30, tickangle=-45)
    fig.update_yaxes(nticks=10, showticklabels=len(labels) <= 30, autorange="reversed")
    return fig


def refit_map_figure(
    refit_map, labels=None, groups=None, title="Map of the refits", distance_name="distance"
):
    """The refits placed by multidimensional scaling, the representative (medoid) marked.

    Parameters
    ----------
    refit_map : trees.RefitMap
    labels : list of str, optional
        Hover text of each refit.
    groups : list of str, optional
        A category per refit (e.g. its root feature), one colour each.
    """
    xy = np.asarray(refit_map.coordinates)
    if xy.shape[0] == 0:
        return empty_figure("No refits to place on a map.", title)
    labels = labels if labels is not None else [f"refit {i}" for i in range(len(xy))]
    groups = groups if groups is not None else ["refits"] * len(xy)
    fig = go.Figure()
    for i, group in enumerate(dict.fromkeys(groups)):
        members = [k for k, g in enumerate(groups) if g == group]
        fig.add_trace(
            go.Scatter(
                x=xy[members, 0],
                y=xy[members, 1],
                mode="markers",
                name=_short(group, 30),
                marker={"size": 9, "color": class_color(i), "opacity": 0.8},
                text=[labels[k] for k in members],
                hovertemplate="%{text}<extra></extra>",
            )
        )
    m = refit_map.medoid
    fig.add_trace(
        go.Scatter(
            x=[xy[m, 0]],
            y=[xy[m, 1]],
            mode="markers+text",
            name="representative (medoid)",
            marker={
                "size": 18,
                "symbol": "star",
                "color": "#111111",
                "line": {"width": 1, "color": "white"},
            },
            text=["representative"],
            textposition="top center",
            hovertext=[labels[m]],
            hovertemplate="%{hovertext}<extra>representative</extra>",
        )
    )
    fig.update_layout(
        title=f"{title} (the map keeps {refit_map.explained:.0%} of the spread)",
        height=480,
        xaxis={"title": f"first axis ({distance_name})", "zeroline": False, "nticks": 6},
        yaxis={"title": "second axis", "zeroline": False, "nticks": 6},
        legend={"orientation": "h", "y": -0.18},
        **LAYOUT,
    )
    return fig


# ------------------------------------------------------------------ cutpoints
def _path_order(paths):
    return sorted(set(paths), key=lambda p: (p.count("-"), p.replace("L", "0").replace("R", "1")))


def cutpoint_overview_figure(
    cutpoints, top_features=12, title="Feature chosen at each node over the refits"
):
    """Share of refits splitting each node position on each feature (rows: positions)."""
    if cutpoints is None or len(cutpoints) == 0:
        return empty_figure("No refits to summarise.", title)
    paths = _path_order(cutpoints["path"])
    splits = cutpoints[cutpoints["feature"] >= 0]
    features = list(splits["feature_name"].value_counts().index[:top_features])
    columns = (
        features
        + (["other"] if splits["feature_name"].nunique() > len(features) else [])
        + ["leaf"]
    )
    z = np.zeros((len(paths), len(columns)))
    for i, path in enumerate(paths):
        here = cutpoints[cutpoints["path"] == path]
        names = here["feature_name"].where(here["feature_name"].isin(features + ["leaf"]), "other")
        counts = names.value_counts()
        for j, column in enumerate(columns):
            z[i, j] = counts.get(column, 0) / max(len(here), 1)
    text = np.where(z >= 0.005, np.vectorize(lambda v: f"{v:.0%}")(z), "")
    fig = go.Figure(
        go.Heatmap(
            z=z,
            x=[_short(c, 22) for c in columns],
            y=paths,
            colorscale="Greens",
            zmin=0,
            zmax=1,
            text=text,
            texttemplate="%{text}",
            colorbar={"title": "share", "tickformat": ".0%"},
            hovertemplate="%{y}: %{x} in %{z:.0%} of the refits that reach it<extra></extra>",
        )
    )
    fig.update_layout(title=title, height=max(280, 40 * len(paths) + 160), **LAYOUT)
    fig.update_xaxes(tickangle=-35, automargin=True)
    fig.update_yaxes(autorange="reversed", automargin=True)
    return fig


def cutpoint_figure(cutpoints, path, top=3, title=None):
    """Thresholds the refits choose at one node position, one colour per feature (the top ``top``)."""
    title = title or f"Thresholds at {path}"
    here = (
        cutpoints[(cutpoints["path"] == path) & cutpoints["threshold"].notna()]
        if len(cutpoints)
        else cutpoints
    )
    if here is None or len(here) == 0:
        return empty_figure(f"No refit splits {path} on a numeric feature.", title)
    fig = go.Figure()
    for i, name in enumerate(here["feature_name"].value_counts().index[:top]):
        values = here.loc[here["feature_name"] == name, "threshold"]
        fig.add_trace(
            go.Histogram(
                x=values,
                name=f"{_short(name, 28)} ({len(values)})",
                nbinsx=30,
                opacity=0.75,
                marker_color=class_color(i),
            )
        )
    fig.update_layout(
        title=title,
        barmode="overlay",
        height=340,
        xaxis={"title": "threshold", "nticks": 6},
        yaxis={"title": "refits"},
        legend={"orientation": "h", "y": -0.25},
        **LAYOUT,
    )
    return fig


def _grid_positions(max_depth):
    """(path, row, column, colspan) of every position down to ``max_depth``, in a binary layout."""
    width = 2**max_depth
    out, level = [], ["root"]
    for depth in range(max_depth + 1):
        span = width // 2**depth
        out += [(p, depth + 1, i * span + 1, span) for i, p in enumerate(level)]
        level = [f"{p}-{s}" for p in level for s in "LR"]
    return out


def cutpoint_grid_figure(cutpoints, max_depth=2, title="Where each node cuts, over the refits"):
    """One panel per node position down to ``max_depth``: the thresholds of its most frequent feature.

    Each panel's title names the position, that feature and the share of the
    refits reaching the position that split on it.
    """
    if cutpoints is None or len(cutpoints) == 0:
        return empty_figure("No refits to summarise.", title)
    max_depth = int(min(max_depth, cutpoints["depth"].max(), 3))
    cells = _grid_positions(max_depth)
    width = 2**max_depth
    specs = [[None] * width for _ in range(max_depth + 1)]
    for _, row, col, span in cells:
        specs[row - 1][col - 1] = {"colspan": span}
    titles, traces = [], []
    for path, _, _, _ in cells:
        here = cutpoints[cutpoints["path"] == path]
        numeric = here[here["threshold"].notna()]
        top = numeric["feature_name"].value_counts()
        if len(top):
            name = top.index[0]
            titles.append(
                _short(f"{path}: {name} {top.iloc[0] / len(here):.0%}", 28 if width >= 4 else 60)
            )
            traces.append(numeric.loc[numeric["feature_name"] == name, "threshold"].to_numpy())
        else:
            titles.append(f"{path}: {'leaf' if len(here) else 'absent'}")
            traces.append(None)
    fig = make_subplots(
        rows=max_depth + 1, cols=width, specs=specs, subplot_titles=titles, vertical_spacing=0.16
    )
    for (path, row, col, _), values in zip(cells, traces, strict=True):
        if values is None:
            continue
        fig.add_trace(
            go.Histogram(x=values, nbinsx=20, marker_color="#2E7D32", name=path, showlegend=False),
            row=row,
            col=col,
        )
        fig.update_xaxes(nticks=4, row=row, col=col)
        fig.update_yaxes(nticks=3, row=row, col=col)
    fig.update_annotations(font_size=10 if width >= 4 else 12)
    fig.update_layout(
        title=title, height=250 * (max_depth + 1) + 60, bargap=0.05, **TITLED_SUBPLOTS
    )
    return fig


# ----------------------------------------------------------------- scoreboard
def scoreboard_figure(board, title="Stability scoreboard"):
    """Agreement, held-out score, root-feature entropy and tree distance of every learner.

    Measures that do not apply (forests have no single root; learners that
    do not fit the data) are written ``n/a`` in their panel.
    """
    table = board.table
    if table is None or len(table) == 0 or board.n_refits == 0:
        return empty_figure("No refit finished: nothing to compare.", title)
    table = table.assign(changed=1.0 - table["agreement"].astype(float))
    panels = [  # column, panel title, number format, least axis range
        ("changed", "Predictions that change between two refits", ".1%", 0.05),
        ("score_mean", f"Held-out {board.metric}", ".2f", 1.0),
        ("root_entropy", "Root-feature entropy (bits)", ".2f", 1.0),
        ("mean_distance", "Mean tree distance", ".2f", 1.0),
    ]
    fig = make_subplots(
        rows=2,
        cols=2,
        shared_yaxes=True,
        subplot_titles=[p[1] for p in panels],
        horizontal_spacing=0.08,
        vertical_spacing=0.2,
    )
    models = list(table["model"])
    colors = [class_color(i) for i in range(len(models))]
    for k, (column, _, fmt, least) in enumerate(panels):
        values = table[column].to_numpy(dtype=float)
        text = [
            f"{v:{fmt}}" if np.isfinite(v) else ("n/a" if applies else "not run")
            for v, applies in zip(values, table["applies"], strict=True)
        ]
        fig.add_trace(
            go.Bar(
                x=np.nan_to_num(values),
                y=models,
                orientation="h",
                marker_color=colors,
                text=text,
                textposition="outside",
                cliponaxis=False,
                showlegend=False,
                hovertemplate="%{y}: %{text}<extra></extra>",
            ),
            row=k // 2 + 1,
            col=k % 2 + 1,
        )
        top = np.nanmax(values) if np.isfinite(values).any() else 0.0
        fig.update_xaxes(
            range=[0, max(top * 1.3, least)],
            nticks=5,
            tickformat=".0%" if fmt.endswith("%") else fmt,
            row=k // 2 + 1,
            col=k % 2 + 1,
        )
    fig.update_yaxes(autorange="reversed", automargin=True)
    fig.update_annotations(font_size=12)
    fig.update_layout(
        title=f"{title}: {board.n_refits} refits, the same for every learner",
        height=560,
        **TITLED_SUBPLOTS,
    )
    return fig
