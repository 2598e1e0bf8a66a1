"""The layout every figure shares (white template, tight margins, room for a title), and panel grids.

A legend or a horizontal colour bar under the panels stands on the figure's bottom edge
(:data:`LEGEND_AT_BOTTOM`, :data:`AT_BOTTOM_EDGE`: placed in pixels from the edge, not in
fractions of the plot), so a figure made shorter for a projector does not draw it over the axis
titles; ``viz.margins`` reserves the room above it. The conditioning and cultivated surfaces put
their colour bars there, side by side above the legend, so the panels take the width vertical
bars took (about 210 px a panel at 1024 px with the sidebar open, not 155).
:func:`panel_grid` lays a grid of panels out as plain layout dicts, for figures a page redraws
on every widget change.
"""

__all__ = [
    "AT_BOTTOM_EDGE",
    "LABEL_BACKGROUND",
    "LAYOUT",
    "LEGEND_AT_BOTTOM",
    "TITLED_SUBPLOTS",
    "axis_key",
    "panel_grid",
]

import plotly.io as pio

# Every figure of the app is drawn on the white template. It is set as plotly's default
# rather than written into each layout: a figure takes its default template without checking
# it, while a template named in a layout is copied and validated, 6-17 ms per figure (measured
# on the bias heatmaps: 24 ms with it in the layout, 6 ms as the default). A side effect
# worth knowing: importing ``viz`` makes it the default for other figures of the process too.
pio.templates.default = "plotly_white"

# Margins leave room for a one-line title; figures with subplot titles need more at the top.
LAYOUT = {"margin": {"l": 10, "r": 10, "t": 40, "b": 10}}
TITLED_SUBPLOTS = {**LAYOUT, "margin": {**LAYOUT["margin"], "t": 60}}
# A legend or colour bar standing on the figure's bottom edge, placed in pixels from it
# (``yref="container"``) rather than in fractions of the plot's height: a figure made shorter
# (a presenter's key picture) keeps it clear of the axis titles. ``viz.margins`` reserves the
# room under the axes for it.
AT_BOTTOM_EDGE = {"y": 0.0, "yref": "container", "yanchor": "bottom"}
LEGEND_AT_BOTTOM = {"orientation": "h", "x": 0.0, "xanchor": "left", **AT_BOTTOM_EDGE}
# A line's label drawn over bars or curves (a split's threshold on a histogram) stays readable
# on a white ground: ``fig.add_vline(..., annotation_bgcolor=LABEL_BACKGROUND)``.
LABEL_BACKGROUND = "rgba(255, 255, 255, 0.85)"


def panel_grid(rows, columns, titles=(), horizontal_spacing=0.05, vertical_spacing=0.1,
               share_x=False, share_y=False):  # fmt: skip
    """The axes and titles of a grid of panels, as a layout dict (``make_subplots``'s, built directly).

    plotly's ``make_subplots`` builds the same grid through a validated
    figure, 12-15 ms for six panels, and every later ``row=, col=`` update
    walks it again; a page that redraws a grid on every widget change spends
    more on that than on drawing. Here the grid is plain dicts: panel ``k``
    (row-major from the top left, from 1) has axes ``xaxis{k}`` and
    ``yaxis{k}`` ("xaxis" for the first), its title an annotation centred
    above it, as ``make_subplots`` places them.

    Parameters
    ----------
    rows, columns : int
    titles : sequence of str
        One per panel, in row-major order (fewer: the last panels untitled).
    horizontal_spacing, vertical_spacing : float
        Gaps between panels, as fractions of the figure's plotting area.
    share_x, share_y : bool
        Shared axes: zooming one panel zooms its column (x) or row (y); tick
        labels only on the bottom row (x) and first column (y).

    Returns
    -------
    layout : dict
        ``xaxis``/``yaxis`` entries and ``annotations``, to merge into a figure's layout.
    cells : list of (str, str)
        Each panel's axis references for a trace (``"x2"``, ``"y2"``), row-major.
    """
    width = (1.0 - horizontal_spacing * (columns - 1)) / columns
    height = (1.0 - vertical_spacing * (rows - 1)) / rows
    layout, cells, annotations = {}, [], []
    for row in range(rows):
        for column in range(columns):
            k = row * columns + column + 1
            suffix = "" if k == 1 else str(k)
            left = column * (width + horizontal_spacing)
            top = 1.0 - row * (height + vertical_spacing)
            # Clipped to [0, 1]: the sums of spacings round a hair outside, which plotly refuses.
            x_axis = {"domain": [max(0.0, left), min(1.0, left + width)], "anchor": f"y{suffix}"}
            y_axis = {"domain": [max(0.0, top - height), min(1.0, top)], "anchor": f"x{suffix}"}
            if share_x and row < rows - 1:  # follow the bottom panel of the column
                x_axis.update(matches=f"x{(rows - 1) * columns + column + 1}", showticklabels=False)
            if share_y and column > 0:  # follow the first panel of the row
                first = row * columns + 1
                y_axis.update(matches="y" if first == 1 else f"y{first}", showticklabels=False)
            layout[f"xaxis{suffix}"], layout[f"yaxis{suffix}"] = x_axis, y_axis
            cells.append((f"x{suffix}", f"y{suffix}"))
            if k <= len(titles):
                annotations.append(
                    {"text": titles[k - 1], "x": left + width / 2, "y": top, "xref": "paper",
                     "yref": "paper", "xanchor": "center", "yanchor": "bottom", "showarrow": False,
                     "font": {"size": 16}}
                )  # fmt: skip
    layout["annotations"] = annotations
    return layout, cells


def axis_key(reference):
    """The layout key of a trace's axis reference (``panel_grid``'s cells): "x2" -> "xaxis2"."""
    return f"{reference[0]}axis{reference[1:]}"
