"""Figures of the near-tie trees (``trees.near_tie_trees``): paths, scores and features."""

import numpy as np
import plotly.graph_objects as go

from .layout import LAYOUT
from .stability import empty_figure

__all__ = ["feature_use_figure", "near_tie_icicle", "near_tie_scores_figure"]

# Hierarchy charts by name: the plotly trace and its options.
_CHARTS = {"sunburst": (go.Sunburst, {}), "icicle": (go.Icicle, {"tiling": {"orientation": "v"}})}


def _wrapped(label):
    """``"root-L: age ≤ 42"`` on three lines (position, feature, test), to fit narrow boxes."""
    for sign in (" ≤ ", " ∈ ", " = "):
        label = label.replace(sign, "<br>" + sign.strip() + " ", 1)
    return label.replace(": ", "<br>", 1)


def near_tie_icicle(near_set, max_depth=3, kind="sunburst", title=None):
    """The alternative paths of the near-tie trees as a sunburst (or an icicle).

    A box is a run of splits shared by its trees, labelled by the split where
    they part from the others; its width counts its trees. Hovering shows the
    shared splits that follow.

    Parameters
    ----------
    near_set : trees.NearTieSet
    max_depth : int, default=3
        Levels of branching shown at once (click a box to zoom in); labels
        too small to read are hidden, their hover stays.
    kind : {"sunburst", "icicle"}
        The sunburst reads better at 1024 pixels; the icicle keeps the order of levels.
    """
    paths = near_set.paths
    if near_set.n_trees < 2 or len(paths) == 0:
        return empty_figure(
            "One tree only: no split is within epsilon of another at any node.",
            title or "Alternative paths of the near-tie trees",
        )
    title = title or f"Alternative paths of the {near_set.n_trees} near-tie trees"
    if kind not in _CHARTS:
        raise ValueError(f"kind must be one of {tuple(_CHARTS)}, got {kind!r}.")
    trace, options = _CHARTS[kind]
    fig = go.Figure(
        trace(
            ids=paths["id"],
            parents=paths["parent"],
            labels=[_wrapped(label) for label in paths["label"]],
            values=paths["n_trees"],
            branchvalues="total",
            maxdepth=max_depth,
            customdata=paths["detail"],
            text=[f"{n} tree{'s' if n != 1 else ''}" for n in paths["n_trees"]],
            texttemplate="%{label}<br>%{text}",
            hovertemplate="%{label}<br>%{text}<br>%{customdata}<extra></extra>",
            **options,
        )
    )
    fig.update_layout(title=title, height=560, uniformtext={"minsize": 9, "mode": "hide"}, **LAYOUT)
    return fig


def near_tie_scores_figure(near_set, title=None):
    """Held-out score of every near-tie tree, the greedy tree marked."""
    title = (
        title or f"{near_set.metric.capitalize()} of the near-tie trees on {near_set.evaluated_on}"
    )
    scores = near_set.scores
    if scores.size == 0:
        return empty_figure("No tree was finished.", title)
    jitter = np.random.default_rng(0).uniform(-0.25, 0.25, scores.size)
    fig = go.Figure()
    fig.add_trace(
        go.Box(
            x=scores,
            y=np.zeros(scores.size),
            orientation="h",
            name="spread",
            boxpoints=False,
            marker_color="#9e9e9e",
            showlegend=False,
            hoverinfo="skip",
        )
    )
    fig.add_trace(
        go.Scatter(
            x=scores,
            y=jitter,
            mode="markers",
            name="near-tie trees",
            marker={"size": 8, "color": "#1f77b4", "opacity": 0.7},
            text=[
                f"tree {i}: {a} alternative(s), root {r}"
                for i, a, r in zip(
                    near_set.table["tree"],
                    near_set.table["alternatives"],
                    near_set.table["root"],
                    strict=True,
                )
            ],
            hovertemplate="%{text}<br>%{x:.3f}<extra></extra>",
        )
    )
    fig.add_trace(
        go.Scatter(
            x=scores[:1],
            y=[0],
            mode="markers",
            name="greedy tree",
            marker={"size": 16, "symbol": "star", "color": "#d62728"},
            hovertemplate="greedy tree: %{x:.3f}<extra></extra>",
        )
    )
    fig.update_layout(
        title=title,
        height=300,
        xaxis={"title": near_set.metric, "nticks": 6},
        yaxis={"visible": False, "range": [-0.6, 0.6]},
        legend={"orientation": "h", "y": -0.35},
        **LAYOUT,
    )
    if scores.size == 1:
        fig.add_annotation(
            text="one tree only: nothing to spread",
            xref="paper",
            yref="paper",
            x=0.5,
            y=0.95,
            showarrow=False,
        )
    return fig


def feature_use_figure(near_set, top=15, title="Features the near-tie trees use"):
    """Share of the trees using each feature, the mean importance in the hover."""
    use = near_set.feature_use
    use = use[use["share_of_trees"] > 0].head(top) if len(use) else use
    if len(use) == 0:
        return empty_figure("No tree splits: no feature is used.", title)
    fig = go.Figure(
        go.Bar(
            x=use["share_of_trees"],
            y=use["name"],
            orientation="h",
            marker_color="#2E7D32",
            customdata=np.column_stack(
                [use["mean_importance"], use["min_importance"], use["max_importance"]]
            ),
            hovertemplate="%{y}: in %{x:.0%} of the trees<br>importance %{customdata[0]:.2f} "
            "(from %{customdata[1]:.2f} to %{customdata[2]:.2f})<extra></extra>",
        )
    )
    fig.update_layout(
        title=title,
        height=max(260, 28 * len(use) + 120),
        xaxis={
            "title": "share of the trees using it",
            "range": [0, 1],
            "tickformat": ".0%",
            "nticks": 6,
        },
        yaxis={"autorange": "reversed", "automargin": True},
        **LAYOUT,
    )
    return fig
