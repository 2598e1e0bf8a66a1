"""Showing figures, tables and trees: one call that draws, scales for presenter mode and feeds the report.

Pages call :func:`chart`, :func:`table` and :func:`tree` instead of
``st.plotly_chart``, ``st.dataframe`` and the tree view directly, so every
figure is sized for the projector when presenter mode is on and appears in
the page's HTML summary (``ui.report``).
"""

import streamlit as st
from pandas.io.formats.style import Styler

from viz.margins import reserve_margins
from viz.node_glyphs import distributions_caption, node_distributions
from viz.tree_svg import drawing_to_svg, modules_drawing, tree_drawing

from . import presenter, report
from .tree_view import rows_toggle, show_modules, show_tree

__all__ = ["chart", "modules", "presented_frame", "table", "tree"]

_CONFIG = {"displaylogo": False, "modeBarButtonsToRemove": ["lasso2d", "select2d"]}
# An HTML table row in presenter type (20.8-px text) against ``st.dataframe``'s 35-px row.
PRESENTER_ROW_GROWTH = 1.3


def chart(figure, *, key, title=None, container=None, key_picture=False, **options):
    """Draw a plotly figure (scaled in presenter mode) and add it to the page's summary.

    ``key_picture`` marks the page's key picture: in presenter mode it is sized to show whole
    on the first screen (``ui.presenter.scale_figure``).

    Its margins are raised to hold its labels (``viz.margins``), so the browser
    lays it out once. That changes a cached figure in place; the margins depend
    on the figure alone, so every session sets the same ones.
    """
    figure = reserve_margins(presenter.scale_figure(figure, key_picture))
    report.add_figure(title or _title_of(figure), figure)
    target = container if container is not None else st
    return target.plotly_chart(figure, key=key, config=_CONFIG, **options)


def table(frame, *, title, container=None, in_report=True, **options):
    """Draw a DataFrame (or a pandas Styler) with ``st.dataframe`` and add it to the page's summary.

    In presenter mode the table is HTML (``st.table``) in presenter type, as
    the column configuration formats it (:func:`presented_frame`; a Styler as
    it styles itself), within the same height, scrolling: ``st.dataframe``
    draws its cells on a canvas at 14 px, which no style of the page reaches.
    ``in_report=False`` leaves a long preview out of the summary.
    """
    data = frame.data if isinstance(frame, Styler) else frame
    if in_report:
        report.add_table(title, data)
    target = container if container is not None else st
    if not presenter.active():
        return target.dataframe(frame, **options)
    height = options.get("height")
    # A height sized for the canvas's 35-px rows, grown for the HTML rows of presenter type.
    box = (
        target.container(height=int(height * PRESENTER_ROW_GROWTH) + 20)
        if isinstance(height, int)
        else target
    )
    if not isinstance(frame, Styler):
        frame = presented_frame(frame, options.get("column_config"))
    return box.table(frame, hide_index=options.get("hide_index"))


def presented_frame(frame, column_config=None):
    """``frame`` as the text ``st.dataframe`` shows under ``column_config``, for an HTML table.

    Each configured column takes its label and its format: a number column's printf format
    (``"%.4f"``) or ``"percent"`` (one decimal), a progress column's share as a whole percent,
    a check box column as ✓; other columns, and the formats Streamlit names otherwise
    (``"compact"``...), keep pandas' text of their values. Missing values are left blank.
    """
    shown = frame.copy()
    labels = {}
    for column, config in (column_config or {}).items():
        if column not in shown.columns or not isinstance(config, dict):
            continue
        if config.get("label"):
            labels[column] = config["label"]
        kind = config.get("type_config", {})
        write = _CELL_FORMATS.get((kind.get("type"), _format_family(kind.get("format"))))
        if write is not None:
            shown[column] = [
                "" if _missing(value) else write(value, kind.get("format"))
                for value in shown[column]
            ]
    return shown.rename(columns=labels)


def _format_family(format_name):
    """``"printf"`` for a printf format such as ``"%.4f"``, else the format's own name."""
    return "printf" if isinstance(format_name, str) and "%" in format_name else format_name


def _missing(value):
    try:
        return value is None or bool(
            value != value
        )  # NaN and pandas' NA are not equal to themselves
    except (TypeError, ValueError):  # pandas' NA refuses a truth value
        return True


# (column type, format family) -> the cell's text, from the value and the format string.
_CELL_FORMATS = {
    ("number", "printf"): lambda value, fmt: fmt % value,
    ("number", "percent"): lambda value, fmt: f"{value:.1%}",
    ("progress", "percent"): lambda value, fmt: f"{value:.0%}",
    ("progress", "printf"): lambda value, fmt: fmt % value,
    ("checkbox", None): lambda value, fmt: "✓" if value else "",
}


def tree(model_tree, *, key, title, report_depth=6, rows=None, **options):
    """Draw a :class:`trees.Tree` in the tree view (see ``ui.tree_view.show_tree``), and report it.

    The summary holds the tree down to ``report_depth`` levels. ``rows=(X, y)``, the rows the
    tree was grown on, adds a toggle above the view (``ui.tree_view.rows_toggle``) that draws
    them inside the nodes (``viz.node_glyphs``), routed by the view's test ``op``; the summary
    then shows them too.
    """
    shown = rows is not None and rows_toggle(key, model_tree.is_classifier)
    if shown:
        options["distributions"] = node_distributions(model_tree, *rows, op=options.get("op", "<="))
    names = {
        k: options[k]
        for k in (
            "feature_names",
            "class_names",
            "op",
            "marked",
            "path",
            "missing",
            "distributions",
        )
        if k in options
    }
    report.add_tree(
        title, drawing_to_svg(tree_drawing(model_tree, max_depth=report_depth, **names))[0]
    )
    clicked = show_tree(model_tree, key=key, **options)
    if shown:
        membership = any(c is not None for c in model_tree.categories)
        st.caption(distributions_caption(model_tree.is_classifier, membership))
    return clicked


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
