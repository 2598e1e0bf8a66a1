"""Colour conventions shared by every figure: one colour per class, a scale for values."""

import numpy as np
import plotly.express as px

__all__ = ["CLASS_COLORS", "blend_with_white", "class_color", "value_color"]

CLASS_COLORS = px.colors.qualitative.D3


def class_color(index):
    """Colour of class ``index`` (hex)."""
    return CLASS_COLORS[int(index) % len(CLASS_COLORS)]


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
