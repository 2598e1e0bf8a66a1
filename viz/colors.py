"""Colour conventions shared by every figure: one colour per class, a scale for values."""

import numpy as np
import plotly.express as px

__all__ = [
    "CLASS_COLORS",
    "blend_with_white",
    "class_color",
    "class_color_map",
    "class_probability_scale",
    "value_color",
]

CLASS_COLORS = px.colors.qualitative.D3


def class_color(index):
    """Colour of class ``index`` (hex)."""
    return CLASS_COLORS[int(index) % len(CLASS_COLORS)]


def class_color_map(labels):
    """``{str(label): colour}`` for the classes in ``labels``: class k of the sorted classes gets colour k.

    Classes are sorted as numpy sorts them (``np.unique``), the order the
    estimators use for ``classes_``, so a class has the same colour in every
    figure and in the tree view; keys are the labels as text, as figures show them.
    """
    return {str(label): class_color(k) for k, label in enumerate(np.unique(np.asarray(labels)))}


def class_probability_scale(low_index=0, high_index=1):
    """A diverging colour scale for P(class ``high_index``): class ``low_index``'s colour at 0, white at 0.5.

    Used with ``zmin=0, zmax=1`` it is centred on the decision value P = 0.5
    and its ends are the two classes' own colours.
    """
    return [
        [0.0, class_color(low_index)],
        [0.5, "#ffffff"],
        [1.0, class_color(high_index)],
    ]


def _hex_to_rgb(color):
    color = color.lstrip("#")
    return np.array([int(color[i : i + 2], 16) for i in (0, 2, 4)], dtype=float)


def blend_with_white(color, strength):
    """``color`` mixed with white; ``strength`` 1 is the full colour, 0 is white."""
    strength = float(np.clip(strength, 0.0, 1.0))
    rgb = 255.0 - strength * (255.0 - _hex_to_rgb(color))
    return "#" + "".join(f"{int(round(c)):02x}" for c in rgb)


def value_color(value, low, high):
    """A Viridis colour for ``value`` on the range [low, high] (hex)."""
    share = 0.5 if high <= low else float(np.clip((value - low) / (high - low), 0.0, 1.0))
    color = px.colors.sample_colorscale("Viridis", [share])[0]
    if color.startswith("rgb"):
        parts = [int(float(p)) for p in color[color.index("(") + 1 : -1].split(",")[:3]]
        return "#" + "".join(f"{p:02x}" for p in parts)
    return color
