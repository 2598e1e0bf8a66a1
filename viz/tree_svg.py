"""Tree drawings as SVG: one drawing for every page, readable at any size.

A drawing is made in two steps, as dtreeviz separates its adapter from its
renderer:

1. an adapter turns a model into a :class:`Drawing`, a list of
   :class:`DrawNode` (text lines, fill, bars, children with edge labels,
   highlights): :func:`tree_drawing` for a :class:`trees.Tree`,
   :func:`modules_drawing` for a cultivated forest's modules;
2. :func:`drawing_to_svg` lays the nodes out top-down and writes the SVG.

Layout: every subtree gets the width of its widest level of boxes
("subtree width allocation"), and a node is centred over its children, so
boxes never overlap. Coordinates are in CSS pixels at a 13 px font; the
viewer (``ui.tree_view``) scales the whole picture, never below 12 px.

Edges carry the side of the test the threshold operator implies: ``≤`` / ``>``
for ``x <= t``, ``<`` / ``≥`` for ``x < t``; a membership node
(``colour ∈ {red, blue}``) has no operator and its edges read yes / no.
For the features that have missing values (``missing``), the edge that
takes them adds "or missing"; a node whose threshold is infinite (every
present value one way, only the missing ones the other) reads "x has a
value", its edges "present" and "missing".
Class shares are a stacked bar in the class colours used by every figure;
a robust split module's weights phi are a column chart (real SVG bars, not
font glyphs).
"""

from dataclasses import dataclass, field
from functools import lru_cache
from html import escape

import numpy as np

from .colors import blend_with_white, class_color, value_color

__all__ = [
    "EDGE_LABELS",
    "FONT_SIZE",
    "HIGHLIGHTS",
    "Drawing",
    "DrawNode",
    "drawing_to_svg",
    "drawing_width",
    "membership_text",
    "stepped_value_color",
    "split_text",
    "modules_drawing",
    "tree_drawing",
]

EDGE_LABELS = {"<=": ("≤", ">"), "<": ("<", "≥")}
HIGHLIGHTS = {"selected": "#d62728", "last": "#ff7f0e", "marked": "#9467bd", "path": "#1f77b4"}
FONT_SIZE = 13
_CHAR_WIDTH = 0.56 * FONT_SIZE  # average advance of a sans-serif character
_LINE_HEIGHT = 1.3 * FONT_SIZE
_PAD_X, _PAD_Y = 9, 7
_BAR_HEIGHT = 10
_GAP_X, _GAP_Y = 14, 44
_MAX_CHARS = 34  # longer lines are cut with an ellipsis (the full text is in the tooltip)


@dataclass
class DrawNode:
    """One box of a drawing.

    Attributes
    ----------
    node : int
        The model's node id (sent back when the box is clicked).
    lines : list of str
        Text, first line in bold (the test of an internal node, the prediction of a leaf).
    fill : str
        Background colour.
    children : list of (int, str)
        Child node ids with the label of the edge to each.
    bars : list of (float, str)
        ``(size, colour)`` segments drawn under the text.
    bar_kind : {"stack", "columns"}
        Shares side by side in one bar, or a column chart (phi of a robust split).
    outline : {"selected", "last", "path"} or None
    marked : bool
        Drawn with a double purple border (e.g. a threshold on an observed value).
    badge : (str, str) or None
        Short text and colour shown in a pill on the box's corner.
    tooltip : str
        Shown on hover.
    hidden : int
        Number of nodes below this one that are not drawn (collapsed or past the depth limit).
    stubs : list of (str, str)
        ``(side, edge label)`` of children left out of a focused drawing: a short dashed
        edge shows that the tree goes on that way.
    glyph : object, optional
        A small picture drawn under the text instead of the bars (``viz.node_glyphs``: the
        node's rows): it has ``min_width``, ``height`` and ``svg(x, y, width)``.
    """

    node: int
    lines: list
    fill: str
    children: list = field(default_factory=list)
    bars: list = field(default_factory=list)
    bar_kind: str = "stack"
    outline: str = None
    marked: bool = False
    badge: tuple = None
    tooltip: str = ""
    hidden: int = 0
    stubs: list = field(default_factory=list)
    glyph: object = None


@dataclass
class Drawing:
    """Boxes by node id, and the root's id."""

    nodes: dict
    root: int = 0


# ------------------------------------------------------------------ adapters
def membership_text(tree, node, feature_names, limit=6):
    """``colour ∈ {red, blue}`` or ``colour = red`` for a membership node."""
    feature = int(tree.feature[node])
    names = (tree.category_names or {}).get(feature)
    codes = list(tree.categories[node])
    labels = [names[c] if names and c < len(names) else str(c) for c in codes]
    shown = ", ".join(labels[:limit]) + (", …" if len(labels) > limit else "")
    sign = "−" if tree.category_sign[node] < 0 else ""
    if len(labels) == 1:
        return f"{sign}{feature_names[feature]} = {shown}"
    return f"{sign}{feature_names[feature]} ∈ {{{shown}}}"


def _node_fill(tree, node, value_range):
    """Classification: the predicted class's colour, paler when less certain; regression: the mean."""
    value = tree.value[node]
    if tree.is_classifier:
        k = len(value)
        top = int(np.argmax(value))
        certainty = (value[top] - 1.0 / k) / (1.0 - 1.0 / k) if k > 1 else 1.0
        return blend_with_white(class_color(top), 0.12 + 0.5 * certainty)
    return blend_with_white(stepped_value_color(value[0], *value_range), 0.45)


@lru_cache(maxsize=512)
def _viridis_step(step):
    return value_color(step, 0, 256)


def stepped_value_color(value, low, high):
    """:func:`viz.colors.value_color` in 256 steps (the same to the eye), each computed once:
    sampling plotly's scale costs about 2 ms a call, 0.7 s for a regression tree of 300 boxes."""
    share = 0.5 if high <= low else float(np.clip((value - low) / (high - low), 0.0, 1.0))
    return _viridis_step(int(round(share * 256)))


def _tree_lines(tree, node, feature_names, class_names, op, precision):
    value = tree.value[node]
    if tree.is_classifier:
        top = int(np.argmax(value))
        outcome = f"{class_names[top]} ({value[top]:.0%})"
    else:
        outcome = f"mean {value[0]:.{precision}g}"
    count = int(tree.n_samples[node])
    rows = f"#{node} · {count:,} row{'' if count == 1 else 's'}"
    if tree.feature[node] < 0:
        return [outcome, rows]
    return [split_text(tree, node, feature_names, op, precision), rows, outcome]


def split_text(tree, node, feature_names, op="<=", precision=4):
    """The test of an internal node in words: ``b ≤ 2.5``, a membership, or ``b has a value``
    (an infinite threshold: present values one way, only the missing ones the other)."""
    if tree.categories[node] is not None:
        return membership_text(tree, node, feature_names)
    name = feature_names[tree.feature[node]]
    if np.isinf(tree.threshold[node]):
        return f"{name} has a value"
    return f"{name} {EDGE_LABELS[op][0]} {tree.threshold[node]:.{precision}g}"


def _edge_labels(tree, node, op, missing):
    """The left and right edges' labels; for a feature of ``missing`` (features with missing
    values), the side a missing value takes."""
    if tree.categories[node] is not None:
        return "yes", "no"
    to_left = bool(tree.missing_go_to_left[node])
    if np.isinf(tree.threshold[node]):  # present values one way, missing ones the other
        return ("missing", "present") if to_left else ("present", "missing")
    left, right = EDGE_LABELS[op]
    if int(tree.feature[node]) in missing:
        left, right = (f"{left} or missing", right) if to_left else (left, f"{right} or missing")
    return left, right


def _visible(tree, max_depth, collapsed, expanded):
    """Nodes drawn (breadth-first) and, for each cut node, how many nodes it hides."""
    shown, hidden, level = [], {}, [0]
    while level:
        shown += level
        nxt = []
        for n in level:
            if tree.feature[n] < 0:
                continue
            past_limit = max_depth is not None and tree.depth[n] >= max_depth and n not in expanded
            if n in collapsed or past_limit:
                hidden[n] = _subtree_size(tree, n) - 1
            else:
                nxt += [int(tree.left[n]), int(tree.right[n])]
        level = nxt
    return shown, hidden


def _shown(tree, max_depth, collapsed, expanded, focus):
    """The nodes drawn (:func:`_visible`, then only ``focus`` and the root when given) and the
    nodes each cut node hides."""
    shown, hidden = _visible(
        tree, max_depth, {int(c) for c in collapsed}, {int(e) for e in expanded}
    )
    if focus is not None:
        keep = {0} | {int(f) for f in focus}
        shown = [n for n in shown if n in keep]
    return shown, hidden


def _subtree_size(tree, node):
    size, stack = 0, [node]
    while stack:
        n = stack.pop()
        size += 1
        if tree.feature[n] >= 0:
            stack += [int(tree.left[n]), int(tree.right[n])]
    return size


def tree_drawing(
    tree,
    feature_names=None,
    class_names=None,
    op="<=",
    selected=None,
    last_split=None,
    marked=(),
    path=(),
    badges=None,
    max_depth=None,
    collapsed=(),
    expanded=(),
    focus=None,
    precision=4,
    missing=(),
    distributions=None,
    compact=False,
):
    """A :class:`Drawing` of a :class:`trees.Tree`.

    Parameters
    ----------
    op : {"<=", "<"}
        The threshold test written on nodes and edges.
    selected, last_split : int, optional
        Boxes drawn with a thick red / orange border.
    marked : iterable of int
        Boxes with a purple double border (e.g. thresholds on observed values).
    path : iterable of int
        Boxes (and the edges between them) drawn in blue: one row's decision path.
    badges : dict {node: (text, colour)}, optional
        A pill on a box's corner (e.g. how fragile the split is).
    max_depth : int, optional
        Deepest level drawn; deeper subtrees are summarised as "+N more".
    collapsed : iterable of int
        Internal nodes whose subtrees are not drawn.
    expanded : iterable of int
        Nodes at the depth limit whose children are drawn all the same ("show more").
    focus : iterable of int, optional
        Draw only these nodes and the root (a path stays narrow): other edges become stubs.
    missing : iterable of int
        Features with missing values: their nodes say which edge a missing value takes.
    distributions : viz.node_glyphs.NodeDistributions, optional
        The rows inside the nodes: each drawn box shows its glyph instead of the class shares.
    compact : bool, default=False
        One line a box (its split or outcome; the rest in its tooltip) and no class bars.
    """
    if op not in EDGE_LABELS:
        raise ValueError(f"op must be '<=' or '<' for drawing, got {op!r}.")
    feature_names = feature_names or tree.feature_names or [f"x{j}" for j in range(tree.n_features)]
    class_names = class_names or tree.class_names or [str(k) for k in range(tree.value.shape[1])]
    shown, hidden = _shown(tree, max_depth, collapsed, expanded, focus)
    visible = set(shown)
    value_range = (float(tree.value[shown, 0].min()), float(tree.value[shown, 0].max()))
    marked, path, badges = {int(m) for m in marked}, {int(p) for p in path}, badges or {}
    missing = {int(f) for f in missing}
    nodes = {}
    for n in shown:
        lines = _tree_lines(tree, n, feature_names, class_names, op, precision)
        children, stubs = (
            ([], []) if n in hidden else _tree_children(tree, n, (op, missing), visible)
        )
        outline = {last_split: "last", selected: "selected"}.get(n, "path" if n in path else None)
        bars, glyph = _contents(tree, n, distributions)
        nodes[n] = DrawNode(
            node=n,
            lines=lines[:1] if compact else lines,
            fill=_node_fill(tree, n, value_range),
            children=children,
            bars=[] if compact else bars,
            outline=outline,
            marked=n in marked,
            badge=badges.get(n),
            tooltip=" · ".join(lines + ([glyph.tooltip] if glyph is not None else [])),
            hidden=hidden.get(n, 0),
            stubs=stubs,
            glyph=glyph,
        )
    return Drawing(nodes)


def _contents(tree, node, distributions):
    """A box's class-share bars, or instead the glyph of its rows (made for drawn nodes only)."""
    if distributions is not None:
        return [], distributions.glyph(node)
    if tree.is_classifier:
        return [(float(v), class_color(k)) for k, v in enumerate(tree.value[node])], None
    return [], None


def _tree_children(tree, node, labels, visible):
    """Edges to the drawn children, and stubs for the children left out; ``labels`` is
    ``(op, missing)`` (:func:`_edge_labels`)."""
    if tree.feature[node] < 0:
        return [], []
    children, stubs = [], []
    left_label, right_label = _edge_labels(tree, node, *labels)
    for side, child, label in (
        ("left", tree.left[node], left_label),
        ("right", tree.right[node], right_label),
    ):
        if int(child) in visible:
            children.append((int(child), label))
        else:
            stubs.append((side, label))
    return children, stubs


def _row_weight(weight):
    """A module's weight of rows: "300 rows" when whole, "134.5 rows" when rows reach it only
    in part (a hesitating node sends a row partly left, partly right: the page's caption says
    so)."""
    if float(weight).is_integer():
        return f"{int(weight):,} row{'' if weight == 1 else 's'}"
    return f"{weight:,.1f} rows"


def _module_lines(module, names, precision, class_names=None):
    title = {"leaf": "leaf", "split": "split", "robust": "robust split", "option": "option module"}
    positive = f"P({class_names[1]})" if class_names else "P(y=1)"
    lines = [
        f"{positive} {module['positive_share']:.2f}",
        f"{_row_weight(module['weight'])} · {title[module['kind']]}",
    ]
    for decision in module["decisions"]:
        thresholds = decision["thresholds"]
        sign = "≤" if decision["direction"] == "<=" else ">"
        name = names[decision["feature"]]
        if len(thresholds) == 1:
            lines.append(f"{name} {sign} {thresholds[0]:.{precision}g}")
        else:
            lines.append(
                f"{name} {sign} {thresholds[0]:.{precision}g} … {thresholds[-1]:.{precision}g}"
            )
    return lines


def modules_drawing(
    structure,
    feature_names,
    selected=None,
    max_depth=None,
    collapsed=(),
    expanded=(),
    precision=3,
    class_names=None,
):
    """A :class:`Drawing` of a cultivated tree (``CultivatedForestClassifier.structure()``).

    A robust split module draws its neighbourhood's weights phi as columns
    and writes the range of its thresholds; an option module lists one
    decision per feature. The left edge carries the soft decision ψ, the
    right its complement 1 − ψ. Each box shows P(class 1) (named after
    ``class_names[1]`` when given) and the weight of training rows in it.
    """
    collapsed, expanded = {int(c) for c in collapsed}, {int(e) for e in expanded}
    nodes, level = {}, [(0, 0)]
    while level:
        nxt = []
        for i, depth in level:
            module = structure[i]
            past_limit = max_depth is not None and depth >= max_depth and i not in expanded
            cut = module["kind"] != "leaf" and (i in collapsed or past_limit)
            children = []
            if module["kind"] != "leaf" and not cut:
                children = [(module["left"], "ψ"), (module["right"], "1 − ψ")]
                nxt += [(module["left"], depth + 1), (module["right"], depth + 1)]
            phi = [p for d in module["decisions"] if len(d["thresholds"]) > 1 for p in d["phi"]]
            lines = _module_lines(module, feature_names, precision, class_names)
            nodes[i] = DrawNode(
                node=i,
                lines=lines,
                fill=_module_fill(module["positive_share"]),
                children=children,
                bars=[(float(p), "#6a51a3") for p in phi],
                bar_kind="columns",
                outline="selected" if i == selected else None,
                tooltip=" · ".join(lines),
                hidden=_module_subtree_size(structure, i) - 1 if cut else 0,
            )
        level = nxt
    return Drawing(nodes)


def _module_fill(positive_share):
    """The colour of the class a module leans to (class 1 when P(y=1) >= 0.5), paler when less sure.

    The same rule as a tree's boxes (:func:`_node_fill`), so a class has one colour everywhere.
    """
    leaning = 1 if positive_share >= 0.5 else 0
    certainty = abs(positive_share - 0.5) * 2
    return blend_with_white(class_color(leaning), 0.12 + 0.5 * certainty)


def _module_subtree_size(structure, i):
    size, stack = 0, [i]
    while stack:
        m = stack.pop()
        size += 1
        if structure[m]["kind"] != "leaf":
            stack += [structure[m]["left"], structure[m]["right"]]
    return size


# -------------------------------------------------------------------- layout
def _shown_text(line):
    return line if len(line) <= _MAX_CHARS else line[: _MAX_CHARS - 1] + "…"


def _box_size(box):
    chars = max(len(_shown_text(line)) for line in box.lines)
    width = max(72.0, chars * _CHAR_WIDTH + 2 * _PAD_X)
    height = len(box.lines) * _LINE_HEIGHT + 2 * _PAD_Y + (_BAR_HEIGHT + 4 if box.bars else 0)
    if box.glyph is not None:
        width = max(width, box.glyph.min_width + 2 * _PAD_X)
        height += box.glyph.height + 6
    if box.hidden:
        height += _LINE_HEIGHT
    return width, height


def _layout(drawing):
    """Top-left corner and size of every box: ``{node: (x, y, width, height)}`` and the picture size."""
    sizes = {n: _box_size(b) for n, b in drawing.nodes.items()}
    depth, order, stack = {drawing.root: 0}, [], [drawing.root]
    while stack:  # pre-order, children pushed right first so the left one is visited first
        n = stack.pop()
        order.append(n)
        for child, _ in reversed(drawing.nodes[n].children):
            depth[child] = depth[n] + 1
            stack.append(child)
    rows = max(depth.values()) + 1
    row_height = [0.0] * rows
    for n, (_, h) in sizes.items():
        row_height[depth[n]] = max(row_height[depth[n]], h)
    row_top = np.concatenate([[0.0], np.cumsum(np.add(row_height, _GAP_Y))])
    span = {}
    for n in reversed(order):  # post-order widths: a subtree is as wide as its widest part
        kids = [c for c, _ in drawing.nodes[n].children]
        children_width = sum(span[c] for c in kids) + _GAP_X * max(0, len(kids) - 1)
        span[n] = max(sizes[n][0], children_width)
    boxes, left = {}, {drawing.root: 0.0}
    for n in order:
        width, height = sizes[n]
        kids = [c for c, _ in drawing.nodes[n].children]
        children_width = sum(span[c] for c in kids) + _GAP_X * max(0, len(kids) - 1)
        start = left[n] + (span[n] - children_width) / 2
        for c in kids:
            left[c] = start
            start += span[c] + _GAP_X
        boxes[n] = (left[n] + (span[n] - width) / 2, row_top[depth[n]], width, height)
    return boxes, span[drawing.root], float(row_top[rows] - _GAP_Y)


# ----------------------------------------------------------------------- SVG
def _bars_svg(box, x, y, width):
    total = sum(size for size, _ in box.bars)
    if not box.bars or total <= 0:
        return ""
    inner = width - 2 * _PAD_X
    parts = []
    if box.bar_kind == "stack":
        offset = 0.0
        for size, colour in box.bars:
            w = inner * size / total
            if w > 0:
                parts.append(
                    f'<rect x="{x + _PAD_X + offset:.1f}" y="{y:.1f}" width="{w:.1f}" '
                    f'height="{_BAR_HEIGHT}" fill="{colour}"/>'
                )
            offset += w
    else:
        top = max(size for size, _ in box.bars)
        w = inner / len(box.bars)
        for i, (size, colour) in enumerate(box.bars):
            h = _BAR_HEIGHT * size / top
            parts.append(
                f'<rect x="{x + _PAD_X + i * w:.1f}" y="{y + _BAR_HEIGHT - h:.1f}" '
                f'width="{max(w - 1, 0.6):.1f}" height="{h:.1f}" fill="{colour}"/>'
            )
    return "".join(parts)


def _box_svg(box, x, y, width, height):
    stroke, stroke_width = "#6b6b6b", 1.0
    if box.outline:
        stroke, stroke_width = HIGHLIGHTS[box.outline], 3.0 if box.outline == "selected" else 2.5
    parts = [
        f'<g class="tv-node" data-node="{box.node}" tabindex="0" role="button">',
        f"<title>{escape(box.tooltip)}</title>",
        f'<rect x="{x:.1f}" y="{y:.1f}" width="{width:.1f}" height="{height:.1f}" rx="6" '
        f'fill="{box.fill}" stroke="{stroke}" stroke-width="{stroke_width}"/>',
    ]
    if box.marked:
        parts.append(
            f'<rect x="{x + 3:.1f}" y="{y + 3:.1f}" width="{width - 6:.1f}" height="{height - 6:.1f}" '
            f'rx="4" fill="none" stroke="{HIGHLIGHTS["marked"]}" stroke-width="1.6"/>'
        )
    for i, line in enumerate(box.lines):
        weight = ' font-weight="600"' if i == 0 else ""
        parts.append(
            f'<text x="{x + width / 2:.1f}" y="{y + _PAD_Y + (i + 0.8) * _LINE_HEIGHT:.1f}" '
            f'text-anchor="middle"{weight}>{escape(_shown_text(line))}</text>'
        )
    bar_y = y + _PAD_Y + len(box.lines) * _LINE_HEIGHT + 3
    parts.append(_bars_svg(box, x, bar_y, width))
    if box.glyph is not None:
        parts.append(box.glyph.svg(x + _PAD_X, bar_y + 3, width - 2 * _PAD_X))
    if box.hidden:
        parts.append(
            f'<text class="tv-more" data-expand="{box.node}" x="{x + width / 2:.1f}" '
            f'y="{y + height - _PAD_Y:.1f}" text-anchor="middle" fill="#1f5fa8">'
            f"+ {box.hidden} more below</text>"
        )
    if box.badge:
        text, colour = box.badge
        pill = max(24.0, len(text) * _CHAR_WIDTH * 0.85 + 10)
        parts.append(
            f'<rect x="{x + width - pill + 6:.1f}" y="{y - 9:.1f}" width="{pill:.1f}" height="18" '
            f'rx="9" fill="{colour}"/><text x="{x + width - pill / 2 + 6:.1f}" y="{y + 4:.1f}" '
            f'text-anchor="middle" fill="white" font-size="{FONT_SIZE - 2}" font-weight="600">'
            f"{escape(text)}</text>"
        )
    parts.append("</g>")
    return "".join(parts)


def _edge_svg(parent, child, label, on_path):
    px, py, pw, ph = parent
    cx, cy, cw, _ = child
    x1, y1, x2, y2 = px + pw / 2, py + ph, cx + cw / 2, cy
    middle = (y1 + y2) / 2
    colour, width = (HIGHLIGHTS["path"], 3.0) if on_path else ("#8a8a8a", 1.4)
    return (
        f'<path d="M{x1:.1f},{y1:.1f} C{x1:.1f},{middle:.1f} {x2:.1f},{middle:.1f} {x2:.1f},{y2:.1f}" '
        f'fill="none" stroke="{colour}" stroke-width="{width}"/>'
        f'<text x="{(x1 + x2) / 2:.1f}" y="{middle + 4:.1f}" text-anchor="middle" class="tv-edge" '
        f'stroke="white" stroke-width="4" paint-order="stroke" font-weight="600">'
        f"{escape(label)}</text>"
    )


def _stub_svg(box, x, y, width, height):
    """Short dashed edges for children left out of a focused drawing."""
    parts = []
    for side, label in box.stubs:
        x1, y1 = x + width / 2, y + height
        x2 = x1 + (-1 if side == "left" else 1) * min(width / 2 + 6, 60)
        parts.append(
            f'<path d="M{x1:.1f},{y1:.1f} L{x2:.1f},{y1 + 24:.1f}" stroke="#9a9a9a" stroke-width="1.4" '
            f'stroke-dasharray="4 3" fill="none"/><text x="{x2:.1f}" y="{y1 + 38:.1f}" text-anchor="middle" '
            f'fill="#6b6b6b">{escape(label)} …</text>'
        )
    return "".join(parts)


def drawing_width(drawing, margin=12):
    """The natural width of a drawing in pixels (its layout only, no SVG written)."""
    return _layout(drawing)[1] + 2 * margin


def drawing_to_svg(drawing, margin=12):
    """The SVG of a :class:`Drawing`, and its natural width and height in pixels.

    Returns
    -------
    svg : str
    width, height : float
    """
    boxes, width, height = _layout(drawing)
    shifted = {n: (x + margin, y + margin + 9, w, h) for n, (x, y, w, h) in boxes.items()}
    total_w, total_h = width + 2 * margin, height + 2 * margin + 9
    edges, nodes = [], []
    for n, box in drawing.nodes.items():
        for child, label in box.children:
            on_path = box.outline in ("path", "selected") and drawing.nodes[child].outline in (
                "path",
                "selected",
            )
            edges.append(_edge_svg(shifted[n], shifted[child], label, on_path))
        nodes.append(_box_svg(box, *shifted[n]))
        edges.append(_stub_svg(box, *shifted[n]))
    svg = (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {total_w:.0f} {total_h:.0f}" '
        f'width="{total_w:.0f}" height="{total_h:.0f}" font-family="Source Sans Pro, Helvetica, Arial, '
        f'sans-serif" font-size="{FONT_SIZE}" fill="#1b1f1b">'
        + "".join(edges)
        + "".join(nodes)
        + "</svg>"
    )
    return svg, total_w, total_h
