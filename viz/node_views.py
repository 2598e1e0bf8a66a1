"""What happens at one node of a tree: the shown feature's distribution, importances, a legend.

The views peers offer beside a tree drawing (dtreeviz, Orange): the
distribution of the node's rows along the feature it splits on (stacked by
class in the class colours, or the target against the feature for
regression) with the threshold marked; the features' importances; and a
legend of what the drawing's colours, borders and badges mean.
"""

from html import escape

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from .colors import blend_with_white, class_color, value_color
from .layout import LABEL_BACKGROUND, LAYOUT, TITLED_SUBPLOTS
from .stability import CONFIDENCE_LEVELS, empty_figure
from .tree_svg import HIGHLIGHTS

__all__ = ["LEGEND_CLASS", "importance_figure", "node_distribution_figure", "node_legend_html"]

# The class of a tree drawing's legend (HTML under the tree view).
LEGEND_CLASS = "tbl-legend"

_MAX_POINTS = 3_000
# The confidence levels in a few words (viz.stability.CONFIDENCE_LEVELS says them in full).
_BADGE_WORDS = {
    "fragile": "a tie, 1–2 rows flip it, or it wins < 50% of bootstraps",
    "shaky": "≤ 5 rows, or < 80%",
    "firm": "more rows, and ≥ 80%",
}


def _threshold_line(fig, threshold, label, color="#d62728"):
    if threshold is None or not np.isfinite(threshold):
        return
    fig.add_vline(
        x=threshold,
        line={"color": color, "width": 2, "dash": "solid" if label == "split" else "dash"},
        annotation_text=f"{label} ≤ {threshold:.4g}",
        annotation_position="top right",
        annotation_bgcolor=LABEL_BACKGROUND,
    )


def _class_histogram(fig, values, y, classes, class_names):
    for k, label in enumerate(classes):
        mask = y == label
        fig.add_trace(
            go.Histogram(
                x=values[mask],
                name=str(class_names[k]),
                marker_color=class_color(k),
                nbinsx=30,
                hovertemplate="%{x}: %{y} rows<extra>" + escape(str(class_names[k])) + "</extra>",
            )
        )
    fig.update_layout(barmode="stack", yaxis_title="rows")


def _target_scatter(fig, values, y, threshold, seed=0):
    index = np.arange(len(values))
    if index.size > _MAX_POINTS:
        index = np.sort(np.random.default_rng(seed).choice(index, _MAX_POINTS, replace=False))
    fig.add_trace(
        go.Scatter(
            x=values[index],
            y=y[index],
            mode="markers",
            name="rows",
            marker={"size": 6, "color": "#1f77b4", "opacity": 0.6},
            hovertemplate="%{x:.4g} → %{y:.4g}<extra></extra>",
        )
    )
    if threshold is not None and np.isfinite(threshold):
        for side, mask in (("left", values <= threshold), ("right", values > threshold)):
            if mask.any():
                low, high = (
                    (values.min(), threshold) if side == "left" else (threshold, values.max())
                )
                fig.add_trace(
                    go.Scatter(
                        x=[low, high],
                        y=[y[mask].mean()] * 2,
                        mode="lines",
                        name=f"{side} mean {y[mask].mean():.4g}",
                        line={"color": "#ff7f0e" if side == "left" else "#9467bd", "width": 3},
                    )
                )
    fig.update_layout(yaxis_title="target")


def _category_bars(fig, codes, y, is_classifier, classes, class_names, labels):
    present = np.unique(codes).astype(int)
    names = [labels[c] if labels and c < len(labels) else str(c) for c in present]
    if is_classifier:
        for k, label in enumerate(classes):
            counts = [int(np.sum((codes == c) & (y == label))) for c in present]
            fig.add_trace(
                go.Bar(x=names, y=counts, name=str(class_names[k]), marker_color=class_color(k))
            )
        fig.update_layout(barmode="stack", yaxis_title="rows")
    else:
        for c, name in zip(present, names, strict=True):
            fig.add_trace(
                go.Box(y=y[codes == c], name=name, marker_color="#1f77b4", showlegend=False)
            )
        fig.update_layout(yaxis_title="target")


def node_distribution_figure(
    values,
    y,
    feature_name,
    *,
    is_classifier,
    classes=None,
    class_names=None,
    threshold=None,
    threshold_label="split",
    category_labels=None,
    left_codes=None,
    title=None,
    clickable=False,
):
    """The node's rows along one feature, with the split marked.

    Parameters
    ----------
    values, y : ndarray
        The feature's values and the target of the node's rows.
    is_classifier : bool
        Classification: a histogram stacked by class, one colour per class
        (``viz.colors.class_color`` of the class's position in ``classes``);
        regression: the target against the feature, with the mean of each side.
    classes, class_names : sequence
        The classes (as in ``y``) and their display names, in the app's order.
    threshold : float, optional
        Drawn as a vertical line labelled ``threshold_label`` (``"split"`` for
        the node's split, ``"best candidate"`` for a leaf's best threshold).
    category_labels : list of str, optional
        A categorical feature: bars per category; ``left_codes`` are the codes sent left.
    """
    values, y = np.asarray(values), np.asarray(y)
    title = title or f"{len(values):,} rows along {feature_name}"
    if values.size == 0:
        return empty_figure("No rows reach this node.", title)
    fig = go.Figure()
    if category_labels is not None:
        _category_bars(fig, values, y, is_classifier, classes, class_names, category_labels)
        if left_codes is not None:
            shown = ", ".join(
                category_labels[c] if c < len(category_labels) else str(c) for c in left_codes
            )
            title += f"; left: {{{shown}}}"
    elif is_classifier:
        _class_histogram(fig, values, y, classes, class_names)
        _threshold_line(fig, threshold, threshold_label)
    else:
        _target_scatter(fig, values, y.astype(float), threshold)
        _threshold_line(fig, threshold, threshold_label)
    fig.update_layout(
        title=title,
        xaxis_title=feature_name,
        legend={"orientation": "h", "y": -0.3, "traceorder": "normal"},
        height=360,
        hovermode="closest",
        clickmode="event+select" if clickable else "event",
        **LAYOUT,
    )
    return fig


def importance_figure(frame, metric="accuracy", top=15, held_out=True):
    """Impurity-based and permutation importance side by side (``trees.feature_importances``).

    The two are in different units (a share of the impurity decrease; a drop
    of the held-out score), so each has its own axis.
    """
    title = "Which features the tree relies on"
    if frame is None or len(frame) == 0 or not np.any(frame["impurity"] > 0):
        return empty_figure("The tree has no split yet: no feature is used.", title)
    shown = frame.head(top)
    where = "held-out" if held_out else "training"
    has_permutation = "permutation" in shown
    fig = make_subplots(
        rows=1,
        cols=2 if has_permutation else 1,
        shared_yaxes=True,
        horizontal_spacing=0.06,
        subplot_titles=["impurity decrease (share)"]
        + ([f"permutation: drop of {where} {metric}"] if has_permutation else []),
    )
    fig.add_trace(
        go.Bar(
            x=shown["impurity"],
            y=shown["name"],
            orientation="h",
            marker_color="#2E7D32",
            hovertemplate="%{y}: %{x:.1%} of the impurity decrease<extra></extra>",
            showlegend=False,
        ),
        row=1,
        col=1,
    )
    if has_permutation:
        fig.add_trace(
            go.Bar(
                x=shown["permutation"],
                y=shown["name"],
                orientation="h",
                marker_color="#1f77b4",
                error_x={"type": "data", "array": shown["permutation_sd"], "visible": True},
                hovertemplate="%{y}: shuffling it costs %{x:.3f}<extra></extra>",
                showlegend=False,
            ),
            row=1,
            col=2,
        )
    fig.update_xaxes(tickformat=".0%", nticks=5, row=1, col=1)
    fig.update_yaxes(autorange="reversed", automargin=True)
    fig.update_annotations(font_size=12)
    fig.update_layout(title=title, height=max(280, 30 * len(shown) + 140), **TITLED_SUBPLOTS)
    return fig


def _chip(color, text, border=None, double=False):
    edge = f"2px {'double' if double else 'solid'} {border}" if border else "1px solid #8a8a8a"
    return (
        f'<span style="display:inline-flex;align-items:center;gap:.3rem;margin:0 .8rem .2rem 0">'
        f'<span style="display:inline-block;width:1.05rem;height:.85rem;background:{color};'
        f'border:{edge};border-radius:3px"></span>{escape(text)}</span>'
    )


def node_legend_html(
    class_names=None, value_range=None, badges=True, path=False, borders=("selected", "last")
):
    """A legend of the tree drawing: box colours, borders, and (optionally) the confidence badges.

    Parameters
    ----------
    class_names : list of str, optional
        Classification: one chip per class in its colour (boxes are paler when less certain).
    value_range : (float, float), optional
        Regression: the box colour runs from the lowest to the highest leaf mean.
    badges : bool
        Add the meaning of the split-confidence badges (``viz.stability.CONFIDENCE_LEVELS``).
    path : bool
        Add the blue border of a row's decision path.
    borders : sequence of {"selected", "last"}
        The highlighted borders the drawing uses (none on a page without a selection).
    """
    parts = []
    if class_names is not None:
        parts.append("<b>Box colour</b>: the predicted class (paler: less certain) ")
        parts += [
            _chip(blend_with_white(class_color(k), 0.62), str(name))
            for k, name in enumerate(class_names)
        ]
    elif value_range is not None:
        low, high = value_range
        parts.append("<b>Box colour</b>: the node's mean target, from ")
        parts.append(_chip(blend_with_white(value_color(low, low, high), 0.45), f"{low:.4g}"))
        parts.append(
            "to " + _chip(blend_with_white(value_color(high, low, high), 0.45), f"{high:.4g}")
        )
    words = {"selected": "selected node", "last": "last split", "path": "the row's path"}
    shown = list(borders) + (["path"] if path else [])
    if shown:
        parts.append("<br><b>Border</b>: ")
        parts += [_chip("#ffffff", words[kind], HIGHLIGHTS[kind]) for kind in shown]
    if badges:
        parts.append("<br><b>Badge</b>, how firmly a split holds: ")
        parts += [
            _chip(CONFIDENCE_LEVELS[level][0], f"{level} ({meaning})")
            for level, meaning in _BADGE_WORDS.items()
        ]
    # The class is the app's own: presenter mode enlarges it (``ui.presenter``).
    return (
        f'<div class="{LEGEND_CLASS}" style="font-size:.9rem;line-height:1.7">'
        + "".join(parts)
        + "</div>"
    )
