"""Figures of the split-selection-bias page."""

import html

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots
from scipy import stats

from .layout import TITLED_SUBPLOTS, axis_key, panel_grid
from .margins import text_width

__all__ = [
    "CRITERION_TITLES",
    "bias_heatmaps",
    "noise_root_figure",
    "null_distribution_figure",
    "root_choice_figure",
    "saved_bias_grid",
]


BIAS_SCALE_TITLE = "bias<br>(log₁₀ odds of<br>picking X₁)"
# Each criterion's name with its symbol (Γ, χ², G²) and, beside it, what it is in plain words
# (two lines: a panel is about 260 px wide at 1024 px).
CRITERION_TITLES = {
    "gini gain": "Gini gain<br>(drop in impurity)",
    "information gain": "information gain<br>(drop in entropy)",
    "gain ratio": "gain ratio<br>(gain ÷ split entropy)",
    "chi-square p-value": "χ² p-value<br>(chi-square test)",
    "G-square p-value": "G² p-value<br>(likelihood-ratio test)",
    "Gamma-corrected Gini": "Γ-corrected Gini<br>(Gini's p-value)",
}


def saved_bias_grid(summary):
    """A saved split-bias run's summary as ``bias_heatmaps`` reads it (cells not done are NaN)."""
    bias = {name: np.array(grid, dtype=float) for name, grid in summary["bias"].items()}
    return {"N": np.asarray(summary["N"]), "p1": np.asarray(summary["p1"]), "bias": bias}


def bias_heatmaps(result, criteria=None, columns=2, height_per_row=300):
    """One heatmap of the bias per criterion, against N and p₁ (source 001, Figures 2 to 7).

    The diverging scale is centred on 0, a fair criterion: red, the feature with
    more values (X₁) is preferred; blue, the one with fewer (X₂). Each panel's
    title gives the criterion's symbol and what it is in words
    (``CRITERION_TITLES``); the hover names the criterion by its key.
    """
    names = list(criteria or result["bias"])
    columns = min(columns, len(names))
    rows = int(np.ceil(len(names) / columns))
    # Rows share their x axes: the N labels and title once, under the bottom row (fewer texts
    # for plotly.js to lay out on every redraw, and the rows closer together).
    titles = [CRITERION_TITLES.get(name, name) for name in names]
    grid, cells = panel_grid(rows, columns, titles, horizontal_spacing=0.04,
                             vertical_spacing=0.12 if rows > 1 else 0.1, share_x=True,
                             share_y=True)  # fmt: skip
    limit = max(0.1, float(np.nanmax([np.nanmax(np.abs(result["bias"][n])) for n in names])))
    n_labels = [str(n) for n in result["N"]]
    p1_labels = [f"{p:.2g}" for p in result["p1"]]
    traces = [
        go.Heatmap(
            x=n_labels, y=p1_labels, z=result["bias"][name], zmin=-limit, zmax=limit, zmid=0.0,
            colorscale="RdBu_r", showscale=i == 0, xaxis=x, yaxis=y,
            colorbar={"title": {"text": BIAS_SCALE_TITLE}, "len": 0.9},
            hovertemplate="rows N %{x}, prior p₁ %{y}<br>bias %{z:.2f} (log₁₀ odds of picking X₁)"
            "<extra>" + name + "</extra>",
        )
        for i, (name, (x, y)) in enumerate(zip(names, cells, strict=False))
    ]  # fmt: skip
    for k, (x, y) in enumerate(cells):
        grid[axis_key(x)].update(type="category", tickangle=0)
        if k // columns == rows - 1:
            grid[axis_key(x)]["title"] = {"text": "rows N"}
        grid[axis_key(y)]["type"] = "category"
        if k % columns == 0:
            grid[axis_key(y)]["title"] = {"text": "prior of class 1, p₁"}
    return go.Figure(
        data=traces, layout={**grid, **TITLED_SUBPLOTS, "height": height_per_row * rows + 40}
    )


def null_distribution_figure(gains, mean, variance):
    """Monte Carlo null distribution of the Gini gain against its Gamma approximation: density and CDF
    (its cumulative distribution function)."""
    alpha, theta = mean**2 / variance, variance / mean
    grid = np.linspace(0, np.quantile(gains, 0.999), 300)
    fig = make_subplots(rows=1, cols=2, subplot_titles=["density", "cumulative distribution"])
    gamma = "Γ approximation (Gamma distribution)"
    # Binned here rather than by plotly in the browser: the figure then carries 80 bars and
    # 300 CDF points instead of every one of the tens of thousands of simulated gains.
    density, edges = np.histogram(gains, bins=80, density=True)
    fig.add_trace(
        go.Bar(
            x=(edges[:-1] + edges[1:]) / 2,
            y=density,
            width=np.diff(edges),
            name="Monte Carlo",
            marker_color="#9ecae1",
        ),
        1,
        1,
    )
    fig.add_trace(
        go.Scatter(
            x=grid,
            y=stats.gamma.pdf(grid, a=alpha, scale=theta),
            name=gamma,
            line={"color": "#d62728", "width": 2},
        ),
        1,
        1,
    )
    ordered = np.sort(gains)
    fig.add_trace(
        go.Scatter(
            x=grid,
            y=np.searchsorted(ordered, grid, side="right") / ordered.size,
            name="Monte Carlo, cumulative",
            line={"color": "#1f77b4"},
        ),
        1,
        2,
    )
    fig.add_trace(
        go.Scatter(
            x=grid,
            y=stats.gamma.cdf(grid, a=alpha, scale=theta),
            name=gamma + ", cumulative",
            line={"color": "#d62728", "dash": "dash"},
        ),
        1,
        2,
    )
    fig.update_xaxes(title_text="Gini gain Δg (drop in impurity)")
    fig.update_layout(height=380, legend={"orientation": "h", "y": -0.25}, **TITLED_SUBPLOTS)
    return fig


def noise_root_figure(result, labels):
    """Share of resamples whose root split is on a noise feature, per selection rule.

    Each bar is labelled with its count ("0 of 20 resamples"), so a rule that never
    picked noise reads as such instead of as an empty chart.
    """
    keys = [k for k in labels if k in result]
    total = result["resamples"]
    counts = [int(round(result[k] * total)) for k in keys]
    fig = go.Figure(
        go.Bar(
            x=[labels[k] for k in keys],
            y=[result[k] for k in keys],
            marker_color=["#d62728", "#2ca02c"][: len(keys)],
            text=[f"{c} of {total} resamples" for c in counts],
            textposition="outside",
            constraintext="none",  # never shrunk to the bar's width: 12 px in a narrow column too
            textfont={"size": 13},
            cliponaxis=False,
            hovertemplate="%{x}: %{y:.0%}<extra></extra>",
        )
    )
    fig.update_layout(
        title="Roots that split on a noise column",
        height=360,
        yaxis_tickformat=".0%",
        yaxis_range=[0, 1.1],
        yaxis_title="share of resamples",
        **TITLED_SUBPLOTS,
    )
    return fig


# The root-choice figure: the rules' colours as in the noise-root chart (gain red, p-value green).
_RULE_STYLE = {
    "gini": {"color": "#d62728", "symbol": "circle"},
    "p_value": {"color": "#2ca02c", "symbol": "diamond"},
}
_NAME_CHARS = 22  # longer column names are cut with an ellipsis (the hover shows them whole)
_LABEL_SIZE = 13
_MARKER = 11
# The plotting area's width and height in px at 1024 px wide (the figure's height less its
# margins), for keeping labels apart; at 1440 px the area is wider, so they are further apart.
_PLOT_PX = (520, 300)
# Text positions tried for a column's name, with the box each gives (in px from the marker,
# y upwards; w and h the label's size), in the order they are tried.
_PLACES = {
    "top center": lambda w, h: (-w / 2, 9, w / 2, 9 + h),
    "middle right": lambda w, h: (10, -h / 2, 10 + w, h / 2),
    "middle left": lambda w, h: (-10 - w, -h / 2, -10, h / 2),
    "top right": lambda w, h: (4, 8, 4 + w, 8 + h),
    "top left": lambda w, h: (-4 - w, 8, -4, 8 + h),
    "bottom center": lambda w, h: (-w / 2, -9 - h, w / 2, -9),
}


def _column_label(name):
    """A column's name as plotly text: its pseudo-HTML escaped, cut to ``_NAME_CHARS``."""
    text = str(name)
    text = text if len(text) <= _NAME_CHARS else text[: _NAME_CHARS - 1] + "…"
    return html.escape(text, quote=False)


def _dodged(distinct):
    """x positions: each column's distinct values; columns that share a count are spread over
    at most 0.12 decades around it (the hover gives the exact count)."""
    x = np.asarray(distinct, dtype=float).copy()
    for value in np.unique(x):
        same = np.flatnonzero(x == value)
        if same.size > 1:
            step = min(0.02, 0.12 / (same.size - 1))
            x[same] = value * 10.0 ** (step * (np.arange(same.size) - (same.size - 1) / 2))
    return x


def _log_ticks(low, high):
    """Tick values 1, 2, 5, 10, 20, 50, ... within [low, high], and their labels (12 px, not
    plotly's smaller minor digits)."""
    values = [m * 10**e for e in range(0, 8) for m in (1, 2, 5) if low <= m * 10**e <= high]
    return values, [f"{v:,}" for v in values]


def _overlap(a, b):
    """The area two boxes (left, bottom, right, top) share."""
    return max(0.0, min(a[2], b[2]) - max(a[0], b[0])) * max(0.0, min(a[3], b[3]) - max(a[1], b[1]))


def _place_labels(anchors, markers, widths):
    """A text position per labelled column, chosen so that names cover no marker and no name.

    Parameters
    ----------
    anchors : dict {column: (x, y)}
        Where each name goes, in px (y upwards), in the order names are placed.
    markers : ndarray of shape (m, 2)
        Every marker, in px.
    widths : dict {column: float}
        Each name's width in px.

    Returns
    -------
    dict {column: str}
        The first of ``_PLACES`` whose box meets nothing placed before (names
        placed earlier, every marker); the one that covers least otherwise.
    """
    half = _MARKER / 2 + 1
    taken = [(x - half, y - half, x + half, y + half) for x, y in markers]
    height, positions = 1.3 * _LABEL_SIZE, {}
    for i, (cx, cy) in anchors.items():
        boxes = {}
        for place, box in _PLACES.items():
            left, bottom, right, top = box(widths[i], height)
            boxes[place] = (cx + left, cy + bottom, cx + right, cy + top)
        covered = {place: sum(_overlap(box, t) for t in taken) for place, box in boxes.items()}
        positions[i] = min(_PLACES, key=lambda place: covered[place])  # the first of the least
        taken.append(boxes[positions[i]])
    return positions


def _names_trace(x, shares, texts, chosen, x_range, y_range):
    """The names of the columns ``chosen``, each above, beside or below its higher marker,
    where it covers no marker and no other name (:func:`_place_labels`)."""
    top = np.maximum(shares["gini"], shares["p_value"])
    scale_x = _PLOT_PX[0] / (x_range[1] - x_range[0])
    scale_y = _PLOT_PX[1] / (y_range[1] - y_range[0])
    px_x = np.log10(x) * scale_x
    markers = np.column_stack(
        [
            np.concatenate([px_x, px_x]),
            np.concatenate([shares["gini"], shares["p_value"]]) * scale_y,
        ]
    )
    positions = _place_labels(
        {i: (px_x[i], top[i] * scale_y) for i in chosen},
        markers,
        {i: text_width(texts[i], _LABEL_SIZE) for i in chosen},
    )
    # Names on invisible markers of the visible ones' size, so plotly offsets them as it would.
    return go.Scatter(
        x=x[chosen], y=top[chosen], mode="markers+text", text=[texts[i] for i in chosen],
        textposition=[positions[i] for i in chosen],
        textfont={"size": _LABEL_SIZE, "color": "#262730"}, marker={"size": _MARKER, "opacity": 0},
        hoverinfo="skip", showlegend=False, cliponaxis=False,
    )  # fmt: skip


def root_choice_figure(result, names, labels, max_labels=12):
    """Each column's distinct values (log x-axis) against its share of roots under each rule.

    One marker per column and rule (``labels``: ``{"gini": ..., "p_value": ...}``,
    the legend's words), a grey line joining a column's two shares, and the
    names of the columns that took the root at least once (the ``max_labels``
    most often; the others on hover), placed where they cover no marker and
    no other name when there is such a place. Columns with as many distinct
    values are spread a little apart; columns that never took the root lie on 0.

    Parameters
    ----------
    result : dict
        ``trees.selection_bias.root_choice_study``'s.
    names : sequence of str
        The columns' names, in the order of ``result["distinct"]``.
    labels : dict
    max_labels : int
    """
    distinct = np.asarray(result["distinct"])
    shares = {rule: np.asarray(result["shares"][rule], dtype=float) for rule in _RULE_STYLE}
    x = _dodged(distinct)
    texts = [_column_label(n) for n in names]
    hover = [
        [html.escape(str(n), quote=False), f"{int(d):,}"]
        for n, d in zip(names, distinct, strict=True)
    ]
    top = np.maximum(shares["gini"], shares["p_value"])
    x_range = [float(np.log10(x.min())) - 0.15, float(np.log10(x.max())) + 0.15]
    if x_range[1] - x_range[0] < 1.0:  # at least a decade: one column, or counts close together
        middle = sum(x_range) / 2
        x_range = [middle - 0.5, middle + 0.5]
    highest = max(0.2, float(top.max()))
    y_range = [-0.06 * highest, 1.16 * highest]  # room above the highest marker for its name
    joined = np.flatnonzero(shares["gini"] != shares["p_value"])
    segments = go.Scatter(
        x=np.column_stack([x[joined], x[joined], np.full(joined.size, np.nan)]).ravel(),
        y=np.column_stack(
            [shares["gini"][joined], shares["p_value"][joined], np.full(joined.size, np.nan)]
        ).ravel(),
        mode="lines", line={"color": "#b0b0b0", "width": 2}, hoverinfo="skip", showlegend=False,
    )  # fmt: skip
    markers = [
        go.Scatter(
            x=x, y=shares[rule], mode="markers", name=labels[rule], customdata=hover,
            marker={"size": _MARKER, "line": {"width": 1, "color": "white"}, **_RULE_STYLE[rule]},
            hovertemplate="%{customdata[0]}<br>%{customdata[1]} distinct values<br>"
            "root in %{y:.0%} of refits<extra>" + labels[rule] + "</extra>",
        )
        for rule in _RULE_STYLE
    ]  # fmt: skip
    chosen = [int(i) for i in np.argsort(-top, kind="stable")[:max_labels] if top[i] > 0]
    names_trace = _names_trace(x, shares, texts, chosen, x_range, y_range)
    ticks, tick_text = _log_ticks(10 ** x_range[0], 10 ** x_range[1])
    fig = go.Figure([segments, *markers, names_trace])
    fig.update_layout(
        title={"text": "Which column takes the root, by its number of values"},
        xaxis={"type": "log", "range": x_range, "tickvals": ticks, "ticktext": tick_text,
               "title": {"text": "distinct values in the column (log scale)"}},
        yaxis={"range": y_range, "tickformat": ".0%",
               "title": {"text": "share of refits with this root"}},
        legend={"orientation": "h", "y": -0.24, "x": 0, "font": {"size": 13}},
        height=480, **TITLED_SUBPLOTS,
    )  # fmt: skip
    return fig
