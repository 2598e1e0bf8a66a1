"""The layout every figure shares: white template, tight margins, room for a title."""

__all__ = ["LAYOUT", "TITLED_SUBPLOTS"]

# Margins leave room for a one-line title; figures with subplot titles need more at the top.
LAYOUT = {"margin": {"l": 10, "r": 10, "t": 40, "b": 10}, "template": "plotly_white"}
TITLED_SUBPLOTS = {**LAYOUT, "margin": {**LAYOUT["margin"], "t": 60}}
