"""Figures and tables of the Evaluate page."""

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from .layout import LAYOUT

__all__ = ["confusion_figure", "roc_figure", "search_table"]


def confusion_figure(matrix, class_names):
    """A confusion matrix normalised by true class (rows sum to 1)."""
    names = [str(c) for c in class_names]
    fig = go.Figure(
        go.Heatmap(
            z=matrix,
            x=names,
            y=names,
            colorscale="Greens",
            zmin=0,
            zmax=1,
            text=np.round(matrix, 2),
            texttemplate="%{text}",
            hovertemplate="true %{y}, predicted %{x}: %{z:.1%}<extra></extra>",
        )
    )
    fig.update_layout(
        title="Confusion matrix (normalised by true class)",
        xaxis_title="predicted",
        yaxis_title="true",
        yaxis_autorange="reversed",
        **LAYOUT,
    )
    fig.update_xaxes(type="category")
    fig.update_yaxes(type="category")
    return fig


def roc_figure(curves):
    """ROC curves: ``{label: (fpr, tpr, auc)}``."""
    fig = go.Figure()
    for label, (fpr, tpr, auc) in curves.items():
        fig.add_trace(go.Scatter(x=fpr, y=tpr, mode="lines", name=f"{label} (AUC {auc:.3f})"))
    fig.add_trace(
        go.Scatter(
            x=[0, 1], y=[0, 1], mode="lines", name="chance", line={"dash": "dot", "color": "#999"}
        )
    )
    fig.update_layout(
        title="ROC curve on the test split",
        xaxis_title="false positive rate",
        yaxis_title="true positive rate",
        legend={"orientation": "h", "y": -0.25},
        **LAYOUT,
    )
    return fig


def search_table(result):
    """One row per configuration tried, best first."""
    rows = []
    for params, error in zip(result.configurations, result.errors, strict=True):
        rows.append(
            {**{k: ("none" if v is None else str(v)) for k, v in params.items()}, "error": error}
        )
    table = pd.DataFrame(rows)
    return table.sort_values("error", na_position="last").reset_index(drop=True)
