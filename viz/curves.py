"""Line figures: a split's score against its threshold, and scores over growth steps."""

import numpy as np
import plotly.graph_objects as go

from .layout import LABEL_BACKGROUND, LAYOUT

__all__ = [
    "NEAR_TIE",
    "category_curve_figure",
    "nearest_candidate",
    "plural",
    "score_curve_figure",
    "step_scores_figure",
]

NEAR_TIE = 0.01  # candidates within 1% of the best score are drawn as near-ties
# Trace names of the score curve; a click on either picks a threshold.
CANDIDATES, NEAR_TIES = "candidate thresholds", "near-ties"


def plural(count, word, words=None):
    """``"1 leaf"``, ``"2 leaves"``: the count and the word in the right number."""
    many = words or f"{word}s"
    return f"{count:,} {word if count == 1 else many}"


def _empty(fig, text, title):
    fig.add_annotation(text=text, showarrow=False, x=0.5, y=0.5, xref="paper", yref="paper")
    fig.update_xaxes(visible=False)
    fig.update_yaxes(visible=False)
    fig.update_layout(title=title, height=320, **LAYOUT)
    return fig


def score_curve_figure(
    curve, feature_name, chosen=None, score_name="score", near_tie=NEAR_TIE, clickable=False
):
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
    clickable : bool
        Clicks select points (the page splits the node at the point clicked).
    """
    thresholds, scores = np.asarray(curve["threshold"]), np.asarray(curve["score"])
    title = f"{score_name.capitalize()} by threshold of {feature_name}"
    fig = go.Figure()
    if thresholds.size == 0:
        return _empty(fig, f"No candidate threshold for {feature_name} here", title)
    best = scores.max()
    near = scores >= best - near_tie * abs(best)
    custom = np.column_stack([curve["n_left"], curve["n_right"]])
    fig.add_trace(
        go.Scatter(
            x=thresholds,
            y=scores,
            mode="lines+markers",
            name=CANDIDATES,
            line={"color": "#2E7D32"},
            marker={"size": 7},
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
            name=f"within {near_tie:.0%} of the best",
            marker={"color": "#ff7f0e", "size": 11, "symbol": "diamond"},
            customdata=custom[near],
            hovertemplate="threshold %{x:.4g}<br>near-tie<extra></extra>",
        )
    )
    _mark_best_and_chosen(fig, thresholds[int(np.argmax(scores))], chosen, scores)
    fig.update_layout(
        title=title,
        xaxis_title=f"threshold on {feature_name}",
        yaxis_title=score_name,
        legend={"orientation": "h", "y": -0.3},
        height=360,
        hovermode="closest",
        clickmode="event+select" if clickable else "event",
        **LAYOUT,
    )
    return fig


def _mark_best_and_chosen(fig, best_threshold, chosen, scores):
    """Lines at the best candidate and at the node's own split (one line when they agree), and
    room above the best score for their labels, which covered its diamond."""
    same = chosen is not None and np.isclose(chosen, best_threshold)
    fig.add_vline(
        x=best_threshold,
        line={"color": "#ff7f0e", "dash": "dot"},
        annotation_text="best = chosen" if same else "best",
        annotation_position="top left",
        annotation_bgcolor=LABEL_BACKGROUND,
    )
    if chosen is not None and not same:
        fig.add_vline(
            x=chosen,
            line={"color": "#d62728", "width": 2},
            annotation_text="chosen",
            annotation_position="top right",
            annotation_bgcolor=LABEL_BACKGROUND,
        )
    # Room above the best score for the lines' labels, which covered its diamond.
    best, low = float(scores.max()), min(float(scores.min()), 0.0)
    fig.update_yaxes(range=[low, best + 0.22 * (best - low or 1.0)])


def nearest_candidate(curve, x):
    """The candidate threshold of ``curve`` closest to ``x`` (a clicked value), or None."""
    thresholds = np.asarray(curve["threshold"], dtype=float)
    if thresholds.size == 0 or x is None or not np.isfinite(x):
        return None
    return float(thresholds[int(np.argmin(np.abs(thresholds - float(x))))])


def step_scores_figure(train, test, metric_name):
    """Train and held-out score of the tree after each split.

    The horizontal axis counts splits from 0 (the root alone) and never shows
    negative counts; accuracy is drawn from 0 to 1 so that steps compare at a glance.
    """
    train = np.asarray(train, dtype=float)
    steps = np.arange(len(train))
    fig = go.Figure()
    fig.add_trace(
        go.Scatter(
            x=steps, y=train, mode="lines+markers", name="training rows", line={"color": "#1f77b4"}
        )
    )
    values = [train]
    if test is not None:
        test = np.asarray(test, dtype=float)
        values.append(test)
        fig.add_trace(
            go.Scatter(
                x=steps,
                y=test,
                mode="lines+markers",
                name="held-out rows",
                line={"color": "#d62728"},
            )
        )
    last = max(1, len(steps) - 1)
    fig.update_xaxes(range=[-0.3, last + 0.3], dtick=max(1, int(np.ceil(last / 10))))
    if metric_name == "accuracy":
        fig.update_yaxes(range=[0, 1.02], tickformat=".0%")
    else:  # R²: from its lowest value (or 0) to 1
        low = float(np.nanmin(np.concatenate(values))) if len(steps) else 0.0
        fig.update_yaxes(range=[min(0.0, low) - 0.05, 1.02])
    if len(steps) == 1:
        fig.add_annotation(
            text="The root alone: split to see the scores move",
            x=0.5,
            y=0.5,
            xref="paper",
            yref="paper",
            showarrow=False,
        )
    fig.update_layout(
        title=f"{metric_name[:1].upper()}{metric_name[1:]} after each split",
        xaxis_title="splits made",
        yaxis_title=metric_name,
        legend={"orientation": "h", "y": -0.3},
        height=360,
        **LAYOUT,
    )
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
        title=f"{score_name.capitalize()} of {feature_name}'s category sets",
        xaxis_title="left set: the categories (in the order scanned) up to",
        yaxis_title=score_name,
        height=360,
        **LAYOUT,
    )
    fig.update_xaxes(tickangle=-30, automargin=True)
    return fig
