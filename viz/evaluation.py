"""Figures and tables of the Evaluate page, in plain words and the app's class colours."""

import numpy as np
import pandas as pd
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from .colors import blend_with_white, class_color
from .layout import LAYOUT, TITLED_SUBPLOTS

__all__ = [
    "CRITERION_WORDS",
    "SETTING_WORDS",
    "confusion_figure",
    "importance_figure",
    "outer_folds_table",
    "roc_figure",
    "search_table",
    "setting_value",
    "settings_table",
    "table_41_frame",
]

# Settings of a tree, in words (the small tables) and as short column headers (the search table).
SETTING_WORDS = {
    "criterion": ("decision metric", "metric"),
    "max_depth": ("maximum depth", "max depth"),
    "max_leaf_nodes": ("maximum number of leaves", "max leaves"),
    "max_nodes": ("maximum number of nodes", "max nodes"),
    "min_samples_split": ("minimum rows to split a node", "min rows to split"),
    "min_samples_leaf": ("minimum rows per leaf", "min rows per leaf"),
    "min_impurity_decrease": ("minimum impurity decrease", "min impurity decrease"),
    "categorical_split": ("conditions on nominal features", "nominal conditions"),
}
CRITERION_WORDS = {
    "gini": "Gini impurity",
    "entropy": "entropy (information gain)",
    "misclassification": "misclassification",
    "chi2": "chi-square (Pearson's)",
    "squared_error": "squared error",
}
# Table 4.1 groups three trees per metric (ours, the report's code's, the printed): a chi-square
# group names no statistic, the tree column says whose it is.
TABLE_41_METRIC_WORDS = {**CRITERION_WORDS, "chi2": "chi-square"}
_SPLIT_WORDS = {"membership": "membership (x ∈ S)", "equality": "equality (x = v)"}


def setting_value(name, value):
    """A setting's value as a user reads it: "no limit" for None, a metric's name, "none" for 0 decrease."""
    if value is None:
        return "no limit"
    if name == "criterion":
        return CRITERION_WORDS.get(value, str(value))
    if name == "categorical_split":
        return _SPLIT_WORDS.get(value, str(value))
    if name == "min_impurity_decrease" and float(value) == 0:
        return "0 (any decrease)"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def settings_table(params):
    """A small two-column table of settings in words (``setting``, ``value``)."""
    rows = [
        {"setting": SETTING_WORDS.get(k, (k,))[0], "value": setting_value(k, v)}
        for k, v in params.items()
        if k in SETTING_WORDS
    ]
    return pd.DataFrame(rows, columns=["setting", "value"])


def search_table(result):
    """One row per configuration tried, best first: rank, error, and the settings that vary.

    Settings that are the same in every configuration are left out (the page
    says them once); configurations a Stop left untried show no error and
    come last.
    """
    configurations = list(result.configurations)
    names = [n for n in SETTING_WORDS if any(n in c for c in configurations)]
    varying = [n for n in names if len({repr(c.get(n)) for c in configurations}) > 1]
    rows = []
    for params, error in zip(configurations, result.errors, strict=True):
        row = {"error": float(error)}
        row.update({SETTING_WORDS[n][1]: setting_value(n, params.get(n)) for n in varying})
        rows.append(row)
    table = pd.DataFrame(rows).sort_values("error", na_position="last", kind="stable")
    table.insert(0, "rank", np.arange(1, len(table) + 1))
    return table.reset_index(drop=True)


def outer_folds_table(outer_best, outer_errors):
    """Nested cross-validation: the settings chosen in each outer fold (in words) and its test error."""
    rows = []
    for i, (best, error) in enumerate(zip(outer_best, outer_errors, strict=False)):
        row = {"outer fold": i + 1, "test error": float(error)}
        row.update(
            {
                SETTING_WORDS[k][1]: setting_value(k, v)
                for k, v in best.items()
                if k in SETTING_WORDS
            }
        )
        rows.append(row)
    return pd.DataFrame(rows)


def table_41_frame(ours, report=None, depth_offset=1, order=None, variants=None):
    """Source 004's Table 4.1 layout: one row per decision metric and tree, ours beside the report's.

    Parameters
    ----------
    ours : list of dict
        Rows of ``trees.exhaustive_trees`` (``criterion, depth, nodes, leaves,
        train error, test error``); ``depth`` counts the root as 0.
    report : sequence of dict, optional
        The report's rows (``datasets.TABLE_4_1``), whose depth counts the root as 1.
    depth_offset : int
        Added to our depths so both count levels as the report does.
    order : list of str, optional
        The decision metrics in the order of the rows (default: the report's, else ours).
    variants : dict, optional
        Criteria that compute a metric as the report's code does, by the metric
        (``datasets.REPORT_VARIANTS``): their rows sit with that metric's, as
        "report's code" (our tree, grown as the report's code grows it).
    """
    rows = []
    variants = variants or {}
    order = list(order or [r["criterion"] for r in report or ours])
    order += [
        r["criterion"]
        for r in ours
        if r["criterion"] not in order and r["criterion"] not in variants
    ]
    by_metric = {r["criterion"]: r for r in ours}
    code_rows = {variants[r["criterion"]]: r for r in ours if r["criterion"] in variants}
    printed = {r["criterion"]: r for r in report or ()}
    for criterion in order:
        for source, row, offset in (
            ("ours", by_metric.get(criterion), depth_offset),
            ("report's code", code_rows.get(criterion), depth_offset),
            ("report", printed.get(criterion), 0),
        ):
            if row is None:
                continue
            rows.append(
                {
                    "decision metric": TABLE_41_METRIC_WORDS.get(criterion, criterion),
                    "tree": source,
                    "depth": int(row["depth"]) + offset,
                    "nodes": int(row["nodes"]),
                    "leaves": int(row["leaves"]),
                    "train error": float(row["train error"]),
                    "test error": float(row["test error"]),
                }
            )
    columns = ["decision metric", "tree", "depth", "nodes", "leaves", "train error", "test error"]
    return pd.DataFrame(rows, columns=columns)


def _row_scale(n_classes):
    """One colour scale for a matrix whose row k holds ``k + share``: white to class k's colour per row."""
    scale = []
    for k in range(n_classes):
        low, high = k / n_classes, (k + 1) / n_classes
        scale += [
            [low, "#ffffff"],
            [high - 1e-9 if k < n_classes - 1 else high, blend_with_white(class_color(k), 0.85)],
        ]
    return scale


def confusion_figure(counts, class_names):
    """A confusion matrix: one row per true class, shaded in that class's colour by the row's share.

    Cells show the share of the true class's test rows and their count, so
    each row reads as "of the rows of class k, this share was predicted as
    ...". One heatmap draws all rows: row k holds ``k + 0.999 * share`` on a
    scale that runs from white to class k's colour within ``[k, k + 1)``.
    """
    counts = np.asarray(counts, dtype=float)
    names = [str(c) for c in class_names]
    totals = counts.sum(axis=1, keepdims=True)
    shares = np.divide(counts, totals, out=np.zeros_like(counts), where=totals > 0)
    coded = np.arange(len(names))[:, None] + 0.999 * shares
    text = [
        [f"{s:.0%}<br>({int(c):,})" for s, c in zip(row_s, row_c, strict=True)]
        for row_s, row_c in zip(shares, counts, strict=True)
    ]
    fig = go.Figure(
        go.Heatmap(
            # Plain lists, not numpy arrays: plotly sends those as typed 2-D arrays, which the
            # browser's plotly.js drew with its rows shifted under their labels.
            z=coded.tolist(),
            x=names,
            y=names,
            zmin=0,
            zmax=len(names),
            colorscale=_row_scale(len(names)),
            showscale=False,
            text=text,
            customdata=shares.tolist(),
            texttemplate="%{text}",
            textfont={"size": 15},
            hovertemplate="true %{y}, predicted %{x}: %{customdata:.1%}<extra></extra>",
            xgap=2,
            ygap=2,
        )
    )
    fig.update_layout(
        title="Confusion matrix on the test split",
        xaxis_title="predicted class",
        yaxis_title="true class",
        height=max(280, 110 + 60 * len(names)),
        **LAYOUT,
    )
    fig.update_xaxes(type="category")
    fig.update_yaxes(type="category", autorange="reversed")
    return fig


def roc_figure(curves):
    """ROC curves: ``{label: (fpr, tpr, auc)}``, the app's green for the tree, grey for others."""
    fig = go.Figure()
    colors = ["#2E7D32", "#555555", "#8c564b"]
    for i, (label, (fpr, tpr, auc)) in enumerate(curves.items()):
        fig.add_trace(
            go.Scatter(
                x=fpr,
                y=tpr,
                mode="lines",
                name=f"{label} (AUC {auc:.3f})",
                line={"color": colors[i % len(colors)], "width": 2.5 if i == 0 else 2},
            )
        )
    fig.add_trace(
        go.Scatter(
            x=[0, 1], y=[0, 1], mode="lines", name="chance", line={"dash": "dot", "color": "#999"}
        )
    )
    fig.update_layout(
        title="ROC curve on the test split",
        xaxis_title="false positive rate",
        yaxis_title="true positive rate",
        legend={"orientation": "h", "y": -0.3},
        height=max(320, 0),
        **LAYOUT,
    )
    fig.update_yaxes(scaleanchor="x", scaleratio=1, range=[0, 1.01])
    fig.update_xaxes(range=[0, 1.01], constrain="domain")
    return fig


def importance_figure(names, impurity, permutation_mean, permutation_std, top=12):
    """Impurity-based and permutation importances side by side, the features ordered by permutation.

    Only the ``top`` features by either measure are drawn.
    """
    names = np.asarray([str(n) for n in names])
    impurity, mean, std = (
        np.asarray(a, dtype=float) for a in (impurity, permutation_mean, permutation_std)
    )
    keep = np.union1d(np.argsort(-mean)[:top], np.argsort(-impurity)[:top])
    keep = keep[np.lexsort((impurity[keep], mean[keep]))][-top:]  # largest drawn at the top
    fig = make_subplots(
        rows=1,
        cols=2,
        shared_yaxes=True,
        horizontal_spacing=0.04,
        subplot_titles=["Impurity-based (training rows)", "Permutation (test rows)"],
    )
    fig.add_trace(
        go.Bar(
            x=impurity[keep],
            y=names[keep],
            orientation="h",
            marker_color="#2E7D32",
            hovertemplate="%{y}: %{x:.3f} of the impurity decrease<extra></extra>",
            showlegend=False,
        ),
        row=1,
        col=1,
    )
    fig.add_trace(
        go.Bar(
            x=mean[keep],
            y=names[keep],
            orientation="h",
            marker_color="#555555",
            error_x={"type": "data", "array": std[keep], "color": "#999"},
            hovertemplate="%{y}: test error rises by %{x:.4f}<extra></extra>",
            showlegend=False,
        ),
        row=1,
        col=2,
    )
    fig.update_xaxes(title_text="share of the impurity decrease", row=1, col=1, rangemode="tozero")
    fig.update_xaxes(title_text="rise of the test error", row=1, col=2)
    fig.update_layout(
        title="Which features the tree relies on",
        height=max(300, 110 + 26 * len(keep)),
        **TITLED_SUBPLOTS,
    )
    fig.update_layout(margin={**TITLED_SUBPLOTS["margin"], "t": 80})
    return fig
