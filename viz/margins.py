"""Margins foreseen: room for a figure's tick labels, axis titles, colour bars and legend.

plotly.js lays a figure out with the margins it is given, then measures the
labels, colour bars and legend that stick out of the plotting area and, when
they need more room, lays the whole figure out a second time ("automatic
margins"). Measured in Chromium on this app's figures, that second pass is
half of the drawing time: 0.21 s against 0.09 s for the four surfaces of the
conditioning page, 0.06 s against 0.03 s for a bias heatmap. With margins that
already hold everything, plotly.js finds nothing to push and draws once.

:func:`reserve_margins` estimates those margins from the figure itself, with
text widths from the font size (the app's font, Source Sans, is about half
an em wide per character) and the offsets plotly.js adds (tick padding, the
title's standoff, colour bar padding), calibrated on the app's figures. An
estimate errs on the large side: too small, and plotly.js still makes the room
(the second pass: slower, never cut off); too large, and a few pixels of white
stay around the figure. Margins are only ever raised, never lowered.
"""

import base64
import math
from decimal import ROUND_CEILING, ROUND_FLOOR, Context, Decimal, localcontext

import numpy as np

__all__ = ["reserve_margins", "text_width"]

# Character widths in ems, measured in Chromium for Source Sans (the app's font) and rounded up:
# digits 0.50, lower-case letters 0.47 on average, narrow marks and spaces about 0.25.
_NARROW = set(" .,:;!|'il()[]{}·")
_WIDE = set("mwMW")
_LINE = 1.3  # height of a line of text, in ems
_STANDOFF = 24  # px between the tick labels and an axis title (the app's theme)
_TICK_PAD = 8  # px between the plotting area and a tick label
_LEGEND_ROW = 20  # px per row of a horizontal legend
_LEGEND_PAD = 19  # px of padding around a legend
_LEGEND_SYMBOL = 44  # px of an entry's symbol and gaps
_LEGEND_GAP = 8  # px between the x axes' titles and a legend or colour bar set at the bottom edge
_SLACK = 6  # px added to every estimate
# Tick labels (plotly.js's automatic ticks, default "B" exponent format), counted in decimals:
# 40 digits hold every tick of a range even as narrow as two neighbouring float64s (17 digits).
_EXACT = Context(prec=40)
_STEPS = (1, 2, Decimal("2.5"), 5, 10)  # tick steps, times a power of ten
_SIGNIFICANT = 6  # digits of the one label of values that are all equal
_PREFIXES = {-15: "f", -12: "p", -9: "n", -6: "μ", -3: "m", 3: "k", 6: "M", 9: "B", 12: "T"}
_SUPERSCRIPTS = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def text_width(text, size):
    """Width in px of ``text`` (its longest ``<br>``-separated line) at font ``size``."""
    lines = str(text).split("<br>")
    return size * max(sum(_em(char) for char in line) for line in lines)


def _em(char):
    if char in _NARROW:
        return 0.28
    if char in _WIDE:
        return 0.8
    return 0.62 if char.isupper() else 0.52


def _tick_labels(values):
    """The tick labels plotly.js would print for data ``values`` (categories, or about six numbers).

    Numbers get plotly.js's automatic ticks: a step of 1, 2, 2.5 or 5 times a
    power of ten, about eight steps to the padded range, and labels in its
    default "B" exponent format (:func:`_tick_text`). Values that are all
    equal get one label. The ticks are counted in :class:`decimal.Decimal`,
    exactly and without overflow, so any finite values, from subnormal
    numbers to ±1.8e308, get labels.
    """
    values = np.asarray(values).ravel()
    if values.size == 0:
        return []
    if values.dtype.kind in "OUS":
        return [str(v) for v in np.unique(values.astype(str))]
    finite = values[np.isfinite(values.astype(float))].astype(float)
    if finite.size == 0:
        return []
    with localcontext(_EXACT):
        low, high = Decimal(float(finite.min())), Decimal(float(finite.max()))
        if high == low:
            digit = Decimal(1).scaleb(
                low.adjusted() - _SIGNIFICANT + 1
            )  # its 6th significant digit
            return [_tick_text(low, _range_exponent(low, high), digit)]
        pad = Decimal("0.06") * (high - low)  # plotly.js pads an automatic range around markers
        low, high = low - pad, high + pad
        raw = (
            high - low
        ) / 8  # plotly.js puts a tick every 30 to 80 px: on a tall axis, about eight
        power = Decimal(1).scaleb(raw.adjusted())  # 10 ** floor(log10(raw)), so raw < 10 * power
        step = next(m * power for m in _STEPS if m * power >= raw)
        first = int((low / step).to_integral_value(ROUND_CEILING))
        last = int((high / step).to_integral_value(ROUND_FLOOR))
        exponent = _range_exponent(low, high)
        return [_tick_text(k * step, exponent, step) for k in range(first, last + 1)]


def _range_exponent(low, high):
    """The power of ten plotly.js takes out of every label of the range [low, high] (0: none).

    Beyond four digits (10,000 or 0.0001) a multiple of three within the SI
    prefixes (k, M, B, ...), the range's own power of ten past them.
    """
    largest = max(abs(low), abs(high))
    digits = largest.adjusted() if largest else 0  # floor(log10(largest))
    if abs(digits) <= 3:
        return 0
    if -15 <= digits <= 14:
        return 3 * round((digits - 1) / 3)
    return digits


def _tick_text(value, exponent, step):
    """One label: ``value`` over 10 ** ``exponent``, to the digit of ``step``, with the exponent's mark.

    The mark is an SI prefix (``20k``, ``3.5μ``; ``B`` for 10^9, as plotly.js's
    default), else a power of ten (``2×10²⁰``); zero has none. Trailing zeros
    are dropped, as plotly.js drops them (``0.5``, not ``0.50``).
    """
    if not value:
        return "0"
    mantissa = value.quantize(step).scaleb(-exponent).normalize()
    if not mantissa:  # a value under half the step rounds to zero
        return "0"
    text = f"{mantissa:f}"
    if exponent in _PREFIXES:
        return text + _PREFIXES[exponent]
    return f"{text}×10{str(exponent).translate(_SUPERSCRIPTS)}" if exponent else text


def _axes(layout, letter):
    """{axis name in a trace ("x", "x2"): the axis's layout} for every axis of ``letter``."""
    found = {}
    for key, axis in layout.items():
        if key.startswith(f"{letter}axis") and isinstance(axis, dict):
            found[letter + key[len(letter) + 4 :]] = axis
    return found or {letter: layout.get(f"{letter}axis", {})}


def _array(value):
    """A trace's data as a numpy array, plotly's typed-array form (``{"dtype", "bdata"}``)
    decoded: a figure that went through a pickle (a ``st.cache_data`` copy) holds its numpy
    arrays so, and read as text they made margins over 1,000 px wide."""
    if isinstance(value, dict) and "bdata" in value:
        array = np.frombuffer(base64.b64decode(value["bdata"]), dtype=value["dtype"])
        shape = value.get("shape")
        return array.reshape([int(n) for n in str(shape).split(",")]) if shape else array
    return np.asarray(value)


def _axis_values(traces, letter, name):
    """The data of every trace drawn on axis ``name`` (e.g. "x2")."""
    chunks = []
    for trace in traces:
        if (trace.get(f"{letter}axis") or letter) != name:
            continue
        if trace.get(letter) is not None:
            chunks.append(_array(trace[letter]).ravel())
        elif trace.get("type") == "histogram":  # counts, at most the number of values
            other = trace.get("y" if letter == "x" else "x")
            chunks.append(np.array([0.0, float(len(other) if other is not None else 0)]))
    if not chunks:
        return np.array([])
    if any(chunk.dtype.kind in "OUS" for chunk in chunks):  # a category axis: its labels as text
        return np.concatenate([chunk.astype(str) for chunk in chunks])
    return np.concatenate([chunk.astype(float) for chunk in chunks])


def _title(axis):
    title = axis.get("title") or {}
    return title.get("text") if isinstance(title, dict) else title


def _shows_labels(axis):
    return axis.get("showticklabels", True) is not False and axis.get("visible", True) is not False


def _left(layout, traces, size):
    """Room for the y axes' tick labels and titles (the widest of the axes that show labels)."""
    needed = 0.0
    for name, axis in _axes(layout, "y").items():
        if not _shows_labels(axis) or axis.get("side") == "right":
            continue
        labels = _tick_labels(_axis_values(traces, "y", name))
        width = max((text_width(label, size) for label in labels), default=0.0)
        title = _title(axis)
        extra = _STANDOFF + _LINE * (size + 2) if title else 0.0
        needed = max(needed, _TICK_PAD + width + extra)
    return needed


def _bottom(layout, traces, size, height):
    """Room for the x axes' labels and titles, and for a horizontal legend and horizontal colour
    bars placed below the plot."""
    needed = 0.0
    for name, axis in _axes(layout, "x").items():
        if not _shows_labels(axis) or axis.get("side") == "top":
            continue
        labels = _tick_labels(_axis_values(traces, "x", name))
        angle = abs(float(axis.get("tickangle") or 0))
        widest = max((text_width(label, size) for label in labels), default=0.0)
        tall = _LINE * size if angle < 30 else widest * math.sin(math.radians(min(angle, 90)))
        extra = _STANDOFF + _LINE * (size + 2) if _title(axis) else 0.0
        needed = max(needed, _TICK_PAD + tall + extra)
    top = (layout.get("margin") or {}).get("t", 0)
    axes_needed = needed
    legend = layout.get("legend") or {}
    if legend.get("orientation") == "h" and _shows_legend(layout, traces):
        legend_height = _LEGEND_PAD + _LEGEND_ROW * _legend_rows(traces, size)
        needed = max(needed, _room_below(legend, legend_height, (height, top), axes_needed))
    for trace in traces:
        bar_height = _colorbar_height(trace, size)
        if bar_height:
            bar = _shown_colorbar(trace)
            needed = max(needed, _room_below(bar, bar_height, (height, top), axes_needed))
    return needed


def _room_below(item, item_height, figure_size, axes_needed):
    """The bottom margin that holds ``item`` (a legend or a colour bar, ``item_height`` px high)
    placed under the plot; 0 when it is not there.

    Two placements are understood:

    * ``yref="container"`` with ``yanchor="bottom"``: the item stands ``y`` (a fraction of
      the figure's height) above the figure's bottom edge, so the margin holds it and,
      above it, the x axes' labels (``axes_needed``), whatever the figure's height;
    * ``y < 0`` in the plot's fractions, its top at ``y`` (:func:`_below`).
    """
    height, top = figure_size
    y = item.get("y")
    if y is None:
        return 0.0
    if item.get("yref") == "container":
        if item.get("yanchor") != "bottom" or y >= 0.5:
            return 0.0
        return axes_needed + y * height + item_height + _LEGEND_GAP
    return _below(item_height, y, height, top) if y < 0 else 0.0


def _below(item_height, y, height, top):
    """The bottom margin that holds an item ``item_height`` px high whose top sits at ``y``
    (a fraction of the plot's height, negative: below it).

    The margin ``b`` must hold ``(-y) * plot height + item_height``, where the plot's height
    is ``height - top - b``; solved for ``b``.
    """
    return (item_height - y * (height - top)) / (1 - y)


def _legend_entries(traces):
    return [
        t.get("name") or "" for t in traces if t.get("showlegend") is not False and t.get("name")
    ]


def _shows_legend(layout, traces):
    return layout.get("showlegend", True) is not False and bool(_legend_entries(traces))


def _legend_rows(traces, size, width=400):
    """Rows of a horizontal legend ``width`` px wide.

    The width the figure gets is the browser's to choose; 400 px is a half-width
    column at 1024 px, so a wider figure has a row of white under its legend at
    most, and a narrower one (a third of the page) is laid out twice.
    """
    rows, used = 1, 0.0
    for name in _legend_entries(traces):
        entry = _LEGEND_SYMBOL + text_width(name, size)
        if used and used + entry > width:
            rows, used = rows + 1, 0.0
        used += entry
    return rows


def _shown_colorbar(trace):
    """A trace's colour bar settings (``{}`` for the defaults), or None when it shows none."""
    colorbar = trace.get("colorbar") or (trace.get("marker") or {}).get("colorbar")
    shows = trace.get("showscale", trace.get("type") in ("heatmap", "contour", "histogram2d"))
    if not colorbar and not shows or shows is False:
        return None
    return colorbar or {}


def _colorbar_height(trace, size):
    """Height of a horizontal colour bar (``orientation="h"``), with its tick labels and title;
    0 for any other colour bar (:func:`_room_below` says whether it is under the plot)."""
    colorbar = _shown_colorbar(trace)
    if not colorbar or colorbar.get("orientation") != "h":
        return 0.0
    title = colorbar.get("title") or {}
    text = title.get("text") if isinstance(title, dict) else title
    title_height = _LINE * (size + 2) if text and title.get("side", "top") != "right" else 0.0
    ticks = _LINE * size + 4  # the labels under the bar, and their gap
    return colorbar.get("thickness", 30) + ticks + title_height + 2 * colorbar.get("ypad", 10)


def _colorbar_width(trace, size):
    """Width, at the right of the plot, of a trace's vertical colour bar, its tick labels and
    its title (0 when it shows none, or a horizontal one)."""
    colorbar = _shown_colorbar(trace)
    if colorbar is None or colorbar.get("orientation") == "h":
        return 0.0
    labels = colorbar.get("ticktext") or _tick_labels(_colour_values(trace))
    bar = (
        colorbar.get("thickness", 30) + 4 + max((text_width(t, size) for t in labels), default=0.0)
    )
    title = colorbar.get("title") or {}
    text = title.get("text") if isinstance(title, dict) else title
    if text and title.get("side") == "right":
        bar += _LINE * (size + 2)
    elif text:
        bar = max(bar, text_width(text, size + 2) + 6)  # a title above the bar, with its padding
    offset = max(0.0, float(colorbar.get("x", 1.02)) - 1.0) * 800  # a fraction of the plot's width
    return offset + 2 * colorbar.get("xpad", 10) + bar + 4  # the bar's outline and rounding


def _colour_values(trace):
    """The values a trace's colour bar spans: its set bounds, else its data."""
    marker = trace.get("marker") or {}
    for low, high, source in (("zmin", "zmax", trace), ("cmin", "cmax", marker)):
        if source.get(low) is not None and source.get(high) is not None:
            return np.array([source[low], source[high]], dtype=float)
    values = trace.get("z") if trace.get("z") is not None else marker.get("color")
    try:
        return np.asarray(values if values is not None else [0.0, 1.0], dtype=float)
    except (TypeError, ValueError):  # colours given by name
        return np.array([0.0, 1.0])


def _right(layout, traces, size):
    """Room for colour bars, and for a legend at the right (plotly's default place)."""
    needed = max((_colorbar_width(trace, size) for trace in traces), default=0.0)
    for trace in traces:  # a horizontal bar's last tick label overhangs its end by half its width
        if _colorbar_height(trace, size):
            labels = _shown_colorbar(trace).get("ticktext") or ["0.00"]
            needed = max(needed, 0.5 * text_width(labels[-1], size))
    coloraxis = layout.get("coloraxis") or {}
    if coloraxis and any((t.get("marker") or {}).get("coloraxis") for t in traces):
        # plotly express puts the colour bar of continuous colours on the layout's colour axis
        values = np.concatenate([_colour_values(t) for t in traces])
        shared = {"colorbar": coloraxis.get("colorbar") or {}, "showscale": True, "z": values}
        needed = max(needed, _colorbar_width(shared, size))
    for name, axis in _axes(layout, "x").items():  # the last tick label overhangs by half its width
        if _shows_labels(axis):
            labels = _tick_labels(_axis_values(traces, "x", name))
            needed = max(needed, 0.5 * max((text_width(t, size) for t in labels), default=0.0))
    legend = layout.get("legend") or {}
    if (
        legend.get("orientation", "v") == "v"
        and legend.get("x") is None
        and _shows_legend(layout, traces)
    ):
        title = (legend.get("title") or {}).get("text") or ""
        entries = max(_LEGEND_SYMBOL + text_width(name, size) for name in _legend_entries(traces))
        needed = max(needed, max(entries, text_width(title, size + 2) + 6) + _LEGEND_PAD)
    return needed


def reserve_margins(figure, default_height=450):
    """Raise ``figure``'s margins to what plotly.js's automatic margins would make them.

    Parameters
    ----------
    figure : plotly Figure
        Changed in place (its margins only).
    default_height : int
        The height plotly.js gives a figure without one.

    Returns
    -------
    figure
    """
    layout = figure.layout.to_plotly_json()
    traces = [trace.to_plotly_json() for trace in figure.data]
    size = (layout.get("font") or {}).get("size") or 12
    height = layout.get("height") or default_height
    margin = dict(layout.get("margin") or {})
    estimates = {
        "l": _left(layout, traces, size),
        "b": _bottom(layout, traces, size, height),
        "r": _right(layout, traces, size),
    }
    raised = {
        side: math.ceil(value + _SLACK)
        for side, value in estimates.items()
        if value and value + _SLACK > margin.get(side, 80)
    }
    if raised:
        figure.update_layout(margin={**margin, **raised})
    return figure
