"""Showing figures, tables and trees: one call that draws, scales for presenter mode and feeds the report.

Pages call :func:`chart`, :func:`table` and :func:`tree` instead of
``st.plotly_chart``, ``st.dataframe`` and the tree view directly, so every
figure is sized for the projector when presenter mode is on and appears in
the page's HTML summary (``ui.report``).
"""

import streamlit as st

from viz.margins import reserve_margins
from viz.tree_svg import drawing_to_svg, modules_drawing, tree_drawing

from . import presenter, report
from .tree_view import show_modules, show_tree

__all__ = ["chart", "table", "tree", "modules"]

_CONFIG = {"displaylogo": False, "modeBarButtonsToRemove": ["lasso2d", "select2d"]}


def chart(figure, *, key, title=None, container=None, **options):
    """Draw a plotly figure (scaled in presenter mode) and add it to the page's summary.

    Its margins are raised to hold its labels (``viz.margins``), so the browser
    lays it out once. That changes a cached figure in place; the margins depend
    on the figure alone, so every session sets the same ones.
    """
    figure = reserve_margins(presenter.scale_figure(figure))
    report.add_figure(title or _title_of(figure), figure)
    target = container if container is not None else st
    return target.plotly_chart(figure, key=key, config=_CONFIG, **options)


def table(frame, *, title, container=None, **options):
    """Draw a DataFrame with ``st.dataframe`` and add it to the page's summary."""
    report.add_table(title, frame)
    target = container if container is not None else st
    return target.dataframe(frame, **options)


def tree(model_tree, *, key, title, report_depth=6, **options):
    """Draw a :class:`trees.Tree` in the tree view (see ``ui.tree_view.show_tree``), and report it.

    The summary holds the tree down to ``report_depth`` levels.
    """
    names = {
        k: options[k]
        for k in ("feature_names", "class_names", "op", "marked", "path", "missing")
        if k in options
    }
    report.add_tree(
        title, drawing_to_svg(tree_drawing(model_tree, max_depth=report_depth, **names))[0]
    )
    return show_tree(model_tree, key=key, **options)


def modules(structure, feature_names, *, key, title, report_depth=4, **options):
    """Draw a cultivated tree's modules in the tree view, and report them."""
    drawing = modules_drawing(
        structure, feature_names, max_depth=report_depth, class_names=options.get("class_names")
    )
    report.add_tree(title, drawing_to_svg(drawing)[0])
    return show_modules(structure, feature_names, key=key, **options)


def _title_of(figure):
    text = figure.layout.title.text if figure.layout.title else None
    return text or ""
