"""Line figures: a split's score against its threshold, and scores over growth steps."""

import numpy as np
import plotly.graph_objects as go

from .layout import LAYOUT

__all__ = ["NEAR_TIE", "category_curve_figure", "score_curve_figure", "step_scores_figure"]

NEAR_TIE = 0.01  # candidates within 1% of the best score are drawn as near-ties


def score_curve_figure(curve, feature_name, chosen=None, score_name="score", near_tie=NEAR_TIE):
    """Score of every candidate threshold of one feature at one node.

    Parameters
    ----------
    curve : dict
        ``threshold``, ``score``, ``n_left``, ``n_right`` (``TreeGrower.score_curve``).
    feature_name : str
    chosen : float, optional
        Threshold of the node's actual split on this feature, marked in red.
    near_tie : float
        Candidates within this share of the best score are drawn in orange.
    """
    thresholds, scores = np.asarray(curve["threshold"]), np.asarray(curve["score"])
    fig = go.Figure()
    if thresholds.size == 0:
        fig.add_annotation(
            text=f"No candidate threshold for {feature_name} here",
            showarrow=False,
            x=0.5,
            y=0.5,
            xref="paper",
            yref="paper",
        )
        fig.update_layout(title=f"{score_name} against the threshold of {feature_name}", **LAYOUT)
        return fig
    best = scores.max()
    near = scores >= best - near_tie * abs(best)
    custom = np.column_stack([curve["n_left"], curve["n_right"]])
    fig.add_trace(
        go.Scatter(
            x=thresholds,
            y=scores,
            mode="lines+markers",
            name="candidates",
            line={"color": "#2E7D32"},
            marker={"size": 5},
            customdata=custom,
            hovertemplate="threshold %{x:.4g}<br>"
            + score_name
            + " %{y:.4g}<br>left %{customdata[0]} · right %{customdata[1]}<extra></extra>",
        )
    )
    fig.add_trace(
        go.Scatter(
            x=thresholds[near],
            y=scores[near],
            mode="markers",
            name=f"within {near_tie:.0%} of best",
            marker={"color": "#ff7f0e", "size": 9, "symbol": "diamond"},
            hoverinfo="skip",
        )
    )
    best_threshold = thresholds[int(np.argmax(scores))]
    same = chosen is not None and np.isclose(chosen, best_threshold)
    fig.add_vline(
        x=best_threshold,
        line={"color": "#ff7f0e", "dash": "dot"},
        annotation_text="best = chosen" if same else "best",
        annotation_position="top left",
    )
    if chosen is not None and not same:
        fig.add_vline(
            x=chosen,
            line={"color": "#d62728", "width": 2},
            annotation_text="chosen",
            annotation_position="top right",
        )
    fig.update_layout(
        title=f"{score_name} against the threshold of {feature_name}",
        xaxis_title=f"threshold on {feature_name}",
        yaxis_title=score_name,
        legend={"orientation": "h", "y": -0.25},
        **LAYOUT,
    )
    return fig


def step_scores_figure(train, test, metric_name):
    """Train and test score of the tree after each step."""
    steps = np.arange(len(train))
    fig = go.Figure()
    fig.add_trace(
        go.Scatter(x=steps, y=train, mode="lines+markers", name="train", line={"color": "#1f77b4"})
    )
    if test is not None:
        fig.add_trace(
            go.Scatter(
                x=steps, y=test, mode="lines+markers", name="test", line={"color": "#d62728"}
            )
        )
    fig.update_layout(
        title=f"{metric_name} after each step",
        xaxis_title="splits made",
        yaxis_title=metric_name,
        legend={"orientation": "h", "y": -0.3},
        **LAYOUT,
    )
    fig.update_xaxes(dtick=max(1, len(steps) // 10))
    return fig


def category_curve_figure(curve, feature_name, category_names=None, score_name="score"):
    """Score of cutting a categorical feature's ordered categories after each one (membership splits)."""
    order = [int(c) for c in curve["order"]]
    labels = [
        category_names[c] if category_names and c < len(category_names) else str(c) for c in order
    ]
    scores = np.asarray(curve["scores"], dtype=float)
    cuts = [f"after {label}" for label in labels[: len(scores)]]
    best = int(np.argmax(scores))
    colors = ["#ff7f0e" if i == best else "#2E7D32" for i in range(len(scores))]
    fig = go.Figure(
        go.Bar(
            x=cuts,
            y=np.where(np.isfinite(scores), scores, 0.0),
            marker_color=colors,
            hovertemplate="%{x}: " + score_name + " %{y:.4g}<extra></extra>",
        )
    )
    fig.update_layout(
        title=f"{score_name} of {feature_name}'s category sets (categories in the order scanned)",
        xaxis_title="left set: the categories up to",
        yaxis_title=score_name,
        **LAYOUT,
    )
    return fig
