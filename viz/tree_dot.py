"""Graphviz DOT of a :class:`trees.Tree`, for ``st.graphviz_chart`` and downloads.

Each node shows its id, its test, its sample count, its impurity and its class
shares (or mean); it is coloured by its prediction, paler when less certain.
Edges carry the side of the test that the threshold operator implies:
``<=`` / ``>`` for ``x <= t``, ``<`` / ``>=`` for ``x < t``; a membership
node (``colour ∈ {red, blue}``) has no operator and its edges read yes / no.
"""

import numpy as np

from .colors import blend_with_white, class_color, value_color
from .tree_svg import membership_text

__all__ = ["EDGE_LABELS", "tree_to_dot"]

EDGE_LABELS = {"<=": ("≤", ">"), "<": ("<", "≥")}
HIGHLIGHT = {"selected": "#d62728", "last": "#ff7f0e", "mark": "#9467bd"}


def _escape(text):
    return str(text).replace("\\", "\\\\").replace('"', '\\"')


def _format(value, precision):
    return f"{value:.{precision}g}"


def _node_label(tree, node, feature_names, class_names, op, precision):
    lines = [f"#{node}"]
    if tree.feature[node] >= 0 and tree.categories[node] is not None:
        lines.append(membership_text(tree, node, feature_names))
    elif tree.feature[node] >= 0:
        name = feature_names[tree.feature[node]]
        lines.append(f"{name} {EDGE_LABELS[op][0]} {_format(tree.threshold[node], precision)}")
    lines.append(f"samples = {tree.n_samples[node]}")
    lines.append(f"impurity = {_format(tree.impurity[node], 3)}")
    value = tree.value[node]
    if tree.is_classifier:
        lines.append("shares = [" + ", ".join(f"{v:.2f}" for v in value) + "]")
        lines.append(f"class = {class_names[int(np.argmax(value))]}")
    else:
        lines.append(f"mean = {_format(value[0], precision)}")
    return "\\n".join(_escape(line) for line in lines)


def _fill(tree, node, value_range):
    value = tree.value[node]
    if tree.is_classifier:
        k = len(value)
        top = int(np.argmax(value))
        certainty = (value[top] - 1.0 / k) / (1.0 - 1.0 / k) if k > 1 else 1.0
        return blend_with_white(class_color(top), 0.15 + 0.75 * certainty)
    return blend_with_white(value_color(value[0], *value_range), 0.55)


def tree_to_dot(
    tree,
    feature_names=None,
    class_names=None,
    op="<=",
    selected=None,
    last_split=None,
    marked=(),
    precision=4,
):
    """DOT source of ``tree``.

    Parameters
    ----------
    tree : trees.Tree
    feature_names, class_names : list of str, optional
        Defaults: the tree's own names, else ``x0, x1, ...`` and class indices.
    op : {"<=", "<"}
        The threshold test written on nodes and edges.
    selected : int, optional
        Node drawn with a thick red border.
    last_split : int, optional
        Node drawn with an orange border.
    marked : iterable of int
        Nodes drawn with a purple double border (e.g. thresholds on observed values).
    precision : int
        Significant digits of thresholds and means.

    Returns
    -------
    str
    """
    if op not in EDGE_LABELS:
        raise ValueError(f"op must be '<=' or '<' for drawing, got {op!r}.")
    feature_names = feature_names or tree.feature_names or [f"x{j}" for j in range(tree.n_features)]
    class_names = class_names or tree.class_names or [str(k) for k in range(tree.value.shape[1])]
    reachable = _reachable(tree)
    values = tree.value[reachable, 0]
    value_range = (float(values.min()), float(values.max()))
    marked = set(int(m) for m in marked)
    lines = [
        "digraph Tree {",
        '  graph [ranksep="0.3", nodesep="0.2"];',
        '  node [shape=box, style="rounded,filled", fontname="Helvetica", fontsize=10, color="#555555"];',
        '  edge [fontname="Helvetica", fontsize=10, color="#777777"];',
    ]
    for node in reachable:
        attributes = [
            f'label="{_node_label(tree, node, feature_names, class_names, op, precision)}"',
            f'fillcolor="{_fill(tree, node, value_range)}"',
        ]
        if node == selected:
            attributes += [f'color="{HIGHLIGHT["selected"]}"', "penwidth=3"]
        elif node == last_split:
            attributes += [f'color="{HIGHLIGHT["last"]}"', "penwidth=2.5"]
        if node in marked:
            attributes += [
                "peripheries=2",
                f'color="{HIGHLIGHT["mark"]}"' if node != selected else "",
            ]
        lines.append(f"  {node} [{', '.join(a for a in attributes if a)}];")
    left_label, right_label = EDGE_LABELS[op]
    for node in reachable:
        if tree.feature[node] >= 0:
            left_text, right_text = (
                ("yes", "no") if tree.categories[node] is not None else (left_label, right_label)
            )
            lines.append(f'  {node} -> {tree.left[node]} [label="{left_text}"];')
            lines.append(f'  {node} -> {tree.right[node]} [label="{right_text}"];')
    lines.append("}")
    return "\n".join(lines)


def _reachable(tree):
    """Node ids reachable from the root, in breadth-first order."""
    out, level = [], [0]
    while level:
        out += level
        level = [c for n in level if tree.feature[n] >= 0 for c in (tree.left[n], tree.right[n])]
    return out
