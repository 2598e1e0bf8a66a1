"""Animations drawn in the browser: plotly frames, a Play/Pause pair and a step slider.

The browser plays the frames itself (``Plotly.animate``): no frame costs a run of
the page. Each figure is built from the steps of a model, computed by the page
that shows it (the rows per side in every frame are the model's own, and the
tests check them there):

* :func:`split_fall_figure` -- a node's rows as the split is chosen (a threshold
  sweeping the candidates, their counts per side and scores) and then falling
  to the side the tree sends each of them (:class:`SplitFall`);
* :func:`threshold_jump_figure` -- the rows of one split under ``x <= t``, then
  under ``x < t``: the rows exactly on ``t`` jump sides (:class:`ThresholdJump`);
* ``viz.tree_animation.tree_removal_figure`` -- a tree refitted as training rows
  are removed one at a time.

Every figure names its type sizes, so presenter mode's scaling
(``ui.presenter.scale_figure``) reaches the buttons and the slider too.

A frame carries only what moves (its marks' positions), which keeps a figure of 25 frames quick
to build and small to send; the pages keep each figure as a cache resource, and
``tests/test_animations.py`` checks every frame's rows per side against the model.
"""

from dataclasses import dataclass

import numpy as np
import plotly.graph_objects as go

from .colors import class_color
from .layout import LAYOUT

__all__ = [
    "SplitFall",
    "ThresholdJump",
    "animation_controls",
    "split_fall_figure",
    "threshold_jump_figure",
    "with_frames",
]

CONTROL_FONT = 14
# Room under the plot for the Play/Pause buttons and the slider (pixels).
CONTROLS_HEIGHT = 180
_JITTER = 0.28  # half the height of a band of dots


def animation_controls(names, duration=700, transition=400, from_start=False):
    """Play/Pause buttons and a slider over the frames ``names`` (a figure's layout entries).

    Returns
    -------
    dict
        ``updatemenus`` and ``sliders`` to merge into the figure's layout; the slider's
        labels are the frame names, its current value shows ``Step:`` and the name.
    """
    timing = {"frame": {"duration": duration, "redraw": True},
              "transition": {"duration": transition, "easing": "cubic-in-out"}}  # fmt: skip
    play = {"label": "▶ Play", "method": "animate",
            "args": [None, {**timing, "fromcurrent": not from_start, "mode": "immediate"}]}  # fmt: skip
    pause = {"label": "❚❚ Pause", "method": "animate",
             "args": [[None], {"frame": {"duration": 0, "redraw": False}, "mode": "immediate",
                               "transition": {"duration": 0}}]}  # fmt: skip
    steps = [
        {"label": name, "method": "animate",
         "args": [[name], {"frame": {"duration": 0, "redraw": True}, "mode": "immediate",
                           "transition": {"duration": transition}}]}
        for name in names
    ]  # fmt: skip
    font = {"size": CONTROL_FONT}
    # Under the plot, placed in pixels below its bottom edge (``pad``), clear of the x axis's
    # ticks and title whatever the figure's height: the buttons, then the slider on a row of
    # its own (beside the buttons its current value ran into them at 560 px wide).
    return {
        "updatemenus": [
            {"type": "buttons", "direction": "left", "showactive": False, "buttons": [play, pause],
             "x": 0.0, "xanchor": "left", "y": 0, "yanchor": "top", "pad": {"t": 52, "l": 0},
             "font": font}
        ],
        "sliders": [
            {"active": 0, "steps": steps, "x": 0.0, "len": 1.0, "xanchor": "left",
             "y": 0, "yanchor": "top", "pad": {"t": 100, "b": 0},
             "currentvalue": {"prefix": "Step: ", "font": font, "xanchor": "right"}, "font": font}
        ],
    }  # fmt: skip


def with_frames(figure, frames, height, duration=700, transition=400):
    """``figure`` with ``frames`` (name, traces, title) and the controls, sized ``height``.

    Each frame's title replaces the figure's (it says what the frame shows); the first
    frame's traces must be the figure's own. ``duration`` is each frame's time on Play and
    ``transition`` the time the browser moves the marks from one frame to the next (0: a
    redraw, for shapes that do not move but change).
    """
    layout = figure.layout.to_plotly_json()
    layout.update(
        height=height,
        margin={**LAYOUT["margin"], "t": 70, "b": CONTROLS_HEIGHT},
        title={"text": frames[0][2], "font": {"size": 15}, "x": 0, "xanchor": "left"},
        showlegend=False,
        **animation_controls([name for name, _, _ in frames], duration, transition),
    )
    # One constructor call: updating a built figure's layout with the slider's steps walked
    # plotly's change callbacks for every step, most of the figure's build time.
    return go.Figure(
        data=figure.data,
        layout=layout,
        frames=[
            {"name": name, "data": data, "layout": {"title": {"text": title}}}
            for name, data, title in frames
        ],
    )


def _marker_colors(classes):
    return [class_color(k) for k in classes]


def _bands(rng, n):
    """Vertical offsets of ``n`` dots within a band (seeded: the same picture every run)."""
    return rng.uniform(-_JITTER, _JITTER, n)


# ------------------------------------------------------------------ a split as it is chosen
@dataclass(frozen=True)
class SplitFall:
    """A node's rows as its split is chosen and as they fall to its two sides.

    Attributes
    ----------
    node, feature_name, n_rows : int, str, int
        The node, its split's feature and how many training rows it holds.
    values, classes : ndarray
        The drawn rows (all, or a sample of a large node): the feature's value (finite)
        and the class index colouring each dot.
    goes_left : ndarray of bool
        The side the tree sends each drawn row (the model's own routing).
    fall_rank : ndarray of int
        When each drawn row falls: its position in the node's order of falling.
    sweep : tuple of (threshold, n_left, n_right, score)
        The candidates shown before the choice, left to right, with the model's counts.
    chosen : (threshold, score)
    falls : tuple of (cut, n_left, n_right)
        After each falling frame: rows ranked below ``cut`` have fallen, ``n_left`` and
        ``n_right`` of all the node's rows to each side.
    """

    node: int
    feature_name: str
    n_rows: int
    values: np.ndarray
    classes: np.ndarray
    goes_left: np.ndarray
    fall_rank: np.ndarray
    sweep: tuple
    chosen: tuple
    falls: tuple


# The split's picture in whole units, so that a frame's dot heights travel as one byte each
# (``_band_heights``): the node's band at 210, the children's at 30 (with a jitter of
# 0.28 x 90 units either way, every height lies within 0-255), and ``_FALL_UNIT`` units for
# what ``threshold_jump_figure`` draws in 1 (a dot's jitter, the labels' gap). At the
# figure's ~250 px of plot a unit is under a pixel: the eye cannot tell them from floats.
_FALL_TOP, _FALL_BOTTOM, _FALL_UNIT = 210, 30, 90


def _band_heights(bands, jitter):
    """Dots' heights, ``bands + jitter`` as unsigned bytes (0-255 holds both bands, whose
    heights are whole units: ``_FALL_TOP``, ``_FALL_BOTTOM``).

    A frame re-sends every dot's height (the slider can jump to any frame from any other,
    so a frame cannot leave out the dots that did not move since the one before); as bytes
    that is 400 bytes for 400 dots where float64 took 3,200.
    """
    heights = np.rint(bands + jitter)
    assert heights.min() >= 0 and heights.max() <= 255, "a band's dots must fit in a byte"
    return heights.astype(np.uint8)


def _fall_frame(threshold, ys, title, name):
    """One frame: the dots' heights and the threshold line's position.

    A frame carries only what moves: the dots' x (the feature's values), their colours and
    the line's height stay the figure's own (plotly merges a frame's entries into its traces).
    """
    dots = {"type": "scatter", "y": ys}
    line = {"type": "scatter", "x": [threshold, threshold]}
    return name, [dots, line], title


def split_fall_figure(fall, height=480):
    """The node's rows at the top while a threshold sweeps the candidates, then falling to
    the left (bottom, ``x <= t``) or right (bottom, ``x > t``) as the tree sends them.

    Heights are in whole units (:func:`_band_heights`); the y axis is hidden.
    """
    rng = np.random.default_rng(0)
    top, bottom = _FALL_TOP, _FALL_BOTTOM
    unit = _FALL_UNIT
    jitter = np.rint(_bands(rng, len(fall.values)) * unit)
    at_top = _band_heights(top, jitter)
    frames = []
    best = -np.inf
    for k, (threshold, n_left, n_right, score) in enumerate(fall.sweep):
        best = max(best, score)
        title = (f"Trying {fall.feature_name} ≤ {threshold:.4g}: {n_left:,} rows left, "
                 f"{n_right:,} right<br>score {score:.4f} (best so far {best:.4f})")  # fmt: skip
        frames.append(_fall_frame(threshold, at_top, title, str(k + 1)))
    threshold, score = fall.chosen
    for cut, n_left, n_right in fall.falls:
        ys = _band_heights(np.where(fall.fall_rank < cut, bottom, top), jitter)
        title = (f"Chosen: {fall.feature_name} ≤ {threshold:.4g} (score {score:.4f}). Fallen: "
                 f"{n_left:,} rows left, {n_right:,} right, of {fall.n_rows:,}")  # fmt: skip
        frames.append(_fall_frame(threshold, ys, title, str(len(frames) + 1)))
    first = frames[0][1]
    figure = go.Figure(
        data=[
            go.Scatter(x=fall.values, y=first[0]["y"], mode="markers",
                       hovertemplate=f"{fall.feature_name} = %{{x:.4g}}<extra></extra>",
                       marker={"color": _marker_colors(fall.classes), "size": 7,
                               "line": {"width": 0.5, "color": "white"}}),
            go.Scatter(x=first[1]["x"], y=[bottom - 0.6 * unit, top + 0.6 * unit], mode="lines",
                       hoverinfo="skip", line={"color": "#d62728", "width": 2.5, "dash": "dash"}),
        ]
    )  # fmt: skip
    figure.add_annotation(x=0, xref="paper", y=top + 0.45 * unit, yanchor="bottom",
                          showarrow=False, xanchor="left",
                          text=f"node {fall.node}: {fall.n_rows:,} rows", font={"size": 14})  # fmt: skip
    figure.add_annotation(x=0, xref="paper", y=bottom - 0.45 * unit, yanchor="top",
                          showarrow=False, xanchor="left", text="← left: ≤ t", font={"size": 14})  # fmt: skip
    figure.add_annotation(x=1, xref="paper", y=bottom - 0.45 * unit, yanchor="top",
                          showarrow=False, xanchor="right", text="right: > t →", font={"size": 14})  # fmt: skip
    figure.update_xaxes(title={"text": fall.feature_name, "font": {"size": 14}},
                        tickfont={"size": 13})  # fmt: skip
    figure.update_yaxes(
        visible=False, range=[bottom - 0.9 * unit, top + 0.9 * unit], fixedrange=True
    )
    return with_frames(figure, frames, height)


# ------------------------------------------------------------------ rows on a threshold
@dataclass(frozen=True)
class ThresholdJump:
    """The rows of one split under each test.

    Attributes
    ----------
    node, feature_name, threshold : int, str, float
    values, classes : ndarray
        The rows reaching the node under both tests: the feature's value, the class index.
    on_threshold : ndarray of bool
        The rows whose value equals the threshold.
    goes_left : dict {"<=": ndarray of bool, "<": ndarray of bool}
        The side each row takes under each test (the model's own routing).
    """

    node: int
    feature_name: str
    threshold: float
    values: np.ndarray
    classes: np.ndarray
    on_threshold: np.ndarray
    goes_left: dict


_OP_WORDS = {"<=": "x ≤ t", "<": "x < t"}


def _rows_on(count):
    """``"1 row on t goes"`` or ``"3 rows on t go"``."""
    return f"{count:,} row on t goes" if count == 1 else f"{count:,} rows on t go"


def threshold_jump_figure(jump, height=460, max_dots=600):
    """The split's rows in two lanes, left (top) and right (bottom), under ``x <= t`` and then
    ``x < t``: the rows exactly on ``t`` (ringed) jump from the left lane to the right.

    Every row on ``t`` is drawn, and at most ``max_dots`` of the others (a seeded sample);
    the counts in the titles are of all the rows.
    """
    rng = np.random.default_rng(0)
    on = jump.on_threshold
    others = np.flatnonzero(~on)
    if len(others) > max_dots:
        others = np.sort(rng.choice(others, max_dots, replace=False))
    on_rows = np.flatnonzero(on)
    jitter = _bands(rng, len(jump.values))
    frames = []
    for op in ("<=", "<"):
        left = jump.goes_left[op]
        ys = np.where(left, 1.0, 0.0) + jitter
        title = (f"Under {_OP_WORDS[op]} at {jump.feature_name} = {jump.threshold:g}: "
                 f"{int(left.sum()):,} rows go left, {int((~left).sum()):,} right; the "
                 f"{_rows_on(int(on.sum()))} {'left' if left[on].all() else 'right'}")  # fmt: skip
        frames.append((_OP_WORDS[op], [{"type": "scatter", "x": jump.values[rows], "y": ys[rows]}
                                       for rows in (others, on_rows)], title))  # fmt: skip
    first = frames[0][1]
    figure = go.Figure(
        data=[
            go.Scatter(x=first[0]["x"], y=first[0]["y"], mode="markers",
                       marker={"color": _marker_colors(jump.classes[others]), "size": 7,
                               "opacity": 0.55}),
            go.Scatter(x=first[1]["x"], y=first[1]["y"], mode="markers",
                       marker={"color": _marker_colors(jump.classes[on_rows]), "size": 13,
                               "line": {"width": 2.5, "color": "#6a1b9a"}}),
        ]
    )  # fmt: skip
    figure.add_vline(x=jump.threshold, line={"color": "#6a1b9a", "width": 2, "dash": "dot"})
    figure.update_yaxes(tickvals=[1, 0], ticktext=["left", "right"], range=[-0.6, 1.6],
                        fixedrange=True, tickfont={"size": 14})  # fmt: skip
    figure.update_xaxes(title={"text": jump.feature_name, "font": {"size": 14}},
                        tickfont={"size": 13})  # fmt: skip
    return with_frames(figure, frames, height)
