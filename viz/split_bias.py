"""Figures of the split-selection-bias page."""

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots
from scipy import stats

from .layout import TITLED_SUBPLOTS, axis_key, panel_grid

__all__ = ["bias_heatmaps", "noise_root_figure", "null_distribution_figure", "saved_bias_grid"]


BIAS_SCALE_TITLE = "bias<br>(log10 odds<br>of X₁)"


def saved_bias_grid(summary):
    """A saved split-bias run's summary as ``bias_heatmaps`` reads it (cells not done are NaN)."""
    bias = {name: np.array(grid, dtype=float) for name, grid in summary["bias"].items()}
    return {"N": np.asarray(summary["N"]), "p1": np.asarray(summary["p1"]), "bias": bias}


def bias_heatmaps(result, criteria=None, columns=2, height_per_row=300):
    """One heatmap of the bias per criterion, against N and p₁ (source 001, Figures 2 to 7).

    The diverging scale is centred on 0, a fair criterion: red, the feature with
    more values (X₁) is preferred; blue, the one with fewer (X₂).
    """
    names = list(criteria or result["bias"])
    columns = min(columns, len(names))
    rows = int(np.ceil(len(names) / columns))
    # Rows share their x axes: the N labels and title once, under the bottom row (fewer texts
    # for plotly.js to lay out on every redraw, and the rows closer together).
    grid, cells = panel_grid(rows, columns, names, horizontal_spacing=0.04,
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
            hovertemplate="N %{x}, p₁ %{y}<br>bias %{z:.2f}<extra>" + name + "</extra>",
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
    """Monte Carlo null distribution of the Gini gain against its Gamma approximation: density and CDF."""
    alpha, theta = mean**2 / variance, variance / mean
    grid = np.linspace(0, np.quantile(gains, 0.999), 300)
    fig = make_subplots(rows=1, cols=2, subplot_titles=["density", "cumulative distribution"])
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
            name="Gamma approximation",
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
            name="Monte Carlo CDF",
            line={"color": "#1f77b4"},
        ),
        1,
        2,
    )
    fig.add_trace(
        go.Scatter(
            x=grid,
            y=stats.gamma.cdf(grid, a=alpha, scale=theta),
            name="Gamma CDF",
            line={"color": "#d62728", "dash": "dash"},
        ),
        1,
        2,
    )
    fig.update_xaxes(title_text="Gini gain")
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
            cliponaxis=False,
            hovertemplate="%{x}: %{y:.0%}<extra></extra>",
        )
    )
    fig.update_layout(
        title="Roots that split on a noise column",
        yaxis_tickformat=".0%",
        yaxis_range=[0, 1.1],
        yaxis_title="share of resamples",
        **TITLED_SUBPLOTS,
    )
    return fig
