"""A tree redrawn as training rows are removed one at a time, as plotly frames (``viz.animation``).

Each frame draws one refitted tree down to a few levels: its edges as lines, its boxes as
filled rectangles in the class colour of their prediction (one trace per class), the boxes
that differ from the first tree's outlined in red, and their text. Boxes are traces, not
annotations: the browser's animation replaces a frame's traces but keeps the first frame's
annotations. The layout puts every shown leaf in its own column, left to right, and a node
over the middle of its children, so the boxes of one level never overlap.
"""

from dataclasses import dataclass

import numpy as np
import plotly.graph_objects as go

from .animation import with_frames
from .colors import blend_with_white, class_color
from .tree_svg import split_text

__all__ = ["TreeFrame", "tree_positions", "tree_removal_figure"]

CHANGED = "#d62728"


@dataclass(frozen=True)
class TreeFrame:
    """One refit: the rows removed so far, its tree and the nodes that differ from the first.

    ``tree`` is a ``trees.Tree`` (read by its arrays: ``left``, ``right``, ``feature``,
    ``threshold``, ``n_samples``, ``value``); ``changed`` holds its node ids that differ
    from the first frame's tree.
    """

    removed: tuple
    tree: object
    changed: frozenset


def tree_positions(left, right, max_depth):
    """``{node: (x, depth)}`` of the nodes down to ``max_depth``, the root first (pre-order):
    leaves (or nodes cut at the depth) in columns 0, 1, 2... from the left, each parent over
    the middle of its children."""
    positions, column = {}, [0]

    def place(node, depth):
        positions[node] = None  # its place in the order: parents before children (pre-order)
        if left[node] < 0 or depth == max_depth:
            positions[node] = (float(column[0]), depth)
            column[0] += 1
            return positions[node][0]
        middle = (place(int(left[node]), depth + 1) + place(int(right[node]), depth + 1)) / 2
        positions[node] = (middle, depth)
        return middle

    place(0, 0)
    return positions


def _box_text(tree, node, names, max_depth, depth):
    """A box's two lines: its split (or "leaf") and its rows, "▾" when more lies below."""
    below = " ▾" if tree.left[node] >= 0 and depth == max_depth else ""
    split = split_text(tree, node, names) if tree.left[node] >= 0 else "leaf"
    return f"{split}<br>{int(tree.n_samples[node]):,} rows{below}"


_HALF_WIDTH, _HALF_HEIGHT = 0.44, 0.3  # a box, in columns and levels


def _outline(points):
    """The closed outlines of boxes centred on ``points`` (x, y), as one trace's coordinates."""
    xs, ys = [], []
    for x, y in points:
        xs += [
            x - _HALF_WIDTH,
            x + _HALF_WIDTH,
            x + _HALF_WIDTH,
            x - _HALF_WIDTH,
            x - _HALF_WIDTH,
            None,
        ]
        ys += [
            y - _HALF_HEIGHT,
            y - _HALF_HEIGHT,
            y + _HALF_HEIGHT,
            y + _HALF_HEIGHT,
            y - _HALF_HEIGHT,
            None,
        ]
    return xs or [None], ys or [None]


def _frame(frame, names, max_depth, n_kinds):
    """One frame's traces: edges, the boxes of each class, the red outlines, the texts."""
    tree = frame.tree
    positions = tree_positions(tree.left, tree.right, max_depth)
    xs, ys = [], []
    for node, (x, depth) in positions.items():
        if tree.left[node] >= 0 and depth < max_depth:
            for child in (int(tree.left[node]), int(tree.right[node])):
                cx, cd = positions[child]
                xs += [x, cx, None]
                ys += [-depth, -cd, None]
    traces = [{"type": "scatter", "x": xs, "y": ys}]
    kinds = {
        node: int(np.argmax(tree.value[node])) if tree.is_classifier else 0 for node in positions
    }
    for kind in range(n_kinds):
        bx, by = _outline([(x, -d) for n, (x, d) in positions.items() if kinds[n] == kind])
        traces.append({"type": "scatter", "x": bx, "y": by})
    cx, cy = _outline([(x, -d) for n, (x, d) in positions.items() if n in frame.changed])
    traces.append({"type": "scatter", "x": cx, "y": cy})
    texts = [_box_text(tree, n, names, max_depth, d) for n, (_, d) in positions.items()]
    traces.append({"type": "scatter", "x": [x for x, _ in positions.values()],
                   "y": [-d for _, d in positions.values()], "text": texts})  # fmt: skip
    return traces


def _styles(n_kinds, is_classifier):
    """The first frame's traces' styles, which the later frames keep."""
    boxes = [
        {"mode": "lines", "fill": "toself", "line": {"color": "#616161", "width": 1},
         "fillcolor": blend_with_white(class_color(k), 0.35) if is_classifier else "#eef2ee"}
        for k in range(n_kinds)
    ]  # fmt: skip
    return [
        {"mode": "lines", "line": {"color": "#9e9e9e", "width": 1.5}},
        *boxes,
        {"mode": "lines", "line": {"color": CHANGED, "width": 3}},
        {"mode": "text", "textfont": {"size": 13}, "textposition": "middle center"},
    ]


def tree_removal_figure(frames, feature_names, max_depth=2, height=540):
    """The trees of ``frames`` (:class:`TreeFrame`), one per step, the first as fitted.

    The title of each frame says which rows are gone and what the root now asks, with its
    rows on each side (the refitted tree's own counts). A box's colour is its predicted
    class's; "▾" marks a box with more levels below the ``max_depth`` drawn.
    """
    first = frames[0].tree
    n_kinds = first.value.shape[1] if first.is_classifier else 1
    steps = []
    for k, frame in enumerate(frames):
        tree = frame.tree
        if tree.left[0] >= 0:
            root = (f"the root asks {split_text(tree, 0, feature_names)}: "
                    f"{int(tree.n_samples[tree.left[0]]):,} rows left, "
                    f"{int(tree.n_samples[tree.right[0]]):,} right")  # fmt: skip
        else:
            root = "the tree is a single leaf"
        gone = (
            "As fitted"
            if k == 0
            else f"{k} row{'s' if k > 1 else ''} removed ({_rows(frame.removed)})"
        )
        changed = (
            f";<br>{len(frame.changed)} of its nodes differ from the first tree's (red where drawn)"
            if frame.changed
            else ""
        )
        steps.append((str(k), _frame(frame, feature_names, max_depth, n_kinds),
                      f"{gone}: {root}{changed}"))  # fmt: skip
    data = [go.Scatter(**trace, **style, hoverinfo="skip")
            for trace, style in zip(steps[0][1], _styles(n_kinds, first.is_classifier), strict=True)]  # fmt: skip
    # No transition: boxes that appear, vanish or change their text are redrawn, not morphed.
    figure = with_frames(go.Figure(data=data), steps, height, duration=1500, transition=0)
    width = max(max(x for x, _ in tree_positions(f.tree.left, f.tree.right, max_depth).values())
                for f in frames)  # fmt: skip
    figure.update_xaxes(visible=False, range=[-0.6, width + 0.6], fixedrange=True)
    figure.update_yaxes(visible=False, range=[-max_depth - 0.5, 0.5], fixedrange=True)
    return figure


def _rows(removed):
    shown = ", ".join(f"#{r}" for r in removed[:6])
    return shown + (", …" if len(removed) > 6 else "")
