"""Drawing a cultivated tree, and the figures of the cultivated-forest page."""

import numpy as np
import plotly.graph_objects as go

from .colors import blend_with_white, value_color
from .layout import LAYOUT

__all__ = ["abstention_figure", "cultivated_to_dot", "leaf_fraction_figure", "sparkline"]

_BARS = "▁▂▃▄▅▆▇█"


def sparkline(phi, width=10):
    """The weights ``phi`` of a neighbourhood as a bar chart of block characters."""
    phi = np.asarray(phi, dtype=float)
    bins = np.array_split(phi, min(width, phi.size))
    heights = np.array([b.sum() for b in bins])
    levels = np.round(heights / heights.max() * (len(_BARS) - 1)).astype(int)
    return "".join(_BARS[level] for level in levels)


def _decision_line(decision, names, precision=3):
    thresholds = decision["thresholds"]
    center = thresholds[int(np.argmax(decision["phi"]))] if len(thresholds) > 1 else thresholds[0]
    name = names[decision["feature"]]
    sign = "≤" if decision["direction"] == "<=" else ">"
    if len(thresholds) == 1:
        return f"{name} {sign} {center:.{precision}g}"
    return (
        f"{name} {sign} ~{center:.{precision}g}  {sparkline(decision['phi'])}  "
        f"[{thresholds[0]:.{precision}g} … {thresholds[-1]:.{precision}g}]"
    )


def cultivated_to_dot(structure, feature_names, selected=None, max_modules=200):
    """DOT of a cultivated tree (``CultivatedForestClassifier.structure()``).

    Leaves show their P(y = 1) and weight; a robust split module shows its
    neighbourhood as a sparkline of phi and its range; an option module lists
    one decision per feature. The left edge carries the soft decision, the
    right its complement.
    """
    lines = [
        "digraph Cultivated {",
        '  graph [ranksep="0.3", nodesep="0.2"];',
        '  node [shape=box, style="rounded,filled", fontname="Helvetica", fontsize=10, color="#555555"];',
        '  edge [fontname="Helvetica", fontsize=9, color="#777777"];',
    ]
    # The first modules from the root, level by level (ids are depth-first).
    shown, level = [], [0]
    while level and len(shown) < max_modules:
        shown += level[: max_modules - len(shown)]
        level = [
            c
            for i in level
            if structure[i]["kind"] != "leaf"
            for c in (structure[i]["left"], structure[i]["right"])
        ]
    shown = set(shown)
    for i in sorted(shown):
        module = structure[i]
        title = {
            "leaf": "leaf",
            "split": "split",
            "robust": "robust split",
            "option": "option module",
        }[module["kind"]]
        label = [
            f"#{i} {title}",
            f"weight {module['weight']:.1f} · P(y=1) {module['positive_share']:.2f}",
        ]
        label += [_decision_line(d, feature_names) for d in module["decisions"]]
        fill = blend_with_white(value_color(module["positive_share"], 0.0, 1.0), 0.55)
        text = "\\n".join(line.replace('"', '\\"') for line in label)
        extra = ', color="#d62728", penwidth=3' if i == selected else ""
        shape = ', shape=box, style="filled"' if module["kind"] == "leaf" else ""
        lines.append(f'  {i} [label="{text}", fillcolor="{fill}"{shape}{extra}];')
    for i in sorted(shown):
        module = structure[i]
        if module["kind"] != "leaf":
            for child, label in ((module["left"], "ψ"), (module["right"], "1 − ψ")):
                if child in shown:
                    lines.append(f'  {i} -> {child} [label="{label}"];')
    lines.append("}")
    return "\n".join(lines)


def leaf_fraction_figure(fractions, leaf_ids, leaf_values, minimum=1e-3):
    """Fractions with which one row reaches each leaf, coloured by the leaf's P(y = 1)."""
    keep = fractions > minimum
    order = np.argsort(-fractions[keep])
    ids = np.asarray(leaf_ids)[keep][order]
    values = np.asarray(leaf_values)[keep][order]
    fig = go.Figure(
        go.Bar(
            x=[f"#{i}" for i in ids],
            y=fractions[keep][order],
            marker={
                "color": values,
                "colorscale": "RdBu_r",
                "cmin": 0,
                "cmax": 1,
                "colorbar": {"title": "P(y=1)"},
            },
            customdata=values,
            hovertemplate="leaf %{x}<br>fraction %{y:.3f}<br>P(y=1) %{customdata:.2f}<extra></extra>",
        )
    )
    fig.update_layout(
        title="Where the row ends up", xaxis_title="leaf", yaxis_title="fraction", **LAYOUT
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
            line={"color": "#2E7D32", "width": 2},
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
        xaxis_title="spread threshold",
        yaxis_range=[0, 1.02],
        legend={"orientation": "h", "y": -0.25},
        **LAYOUT,
    )
    return fig
