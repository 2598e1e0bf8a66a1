"""Helpers for AppTest tests: open a page of the app, and read charts."""

import html
import json
from pathlib import Path

from streamlit.testing.v1 import AppTest

APP = Path(__file__).resolve().parent.parent / "app.py"


def open_page(path="app_pages/home/home.py", timeout=60):
    """Run app.py, switch to ``path`` and run again; return the AppTest."""
    at = AppTest.from_file(str(APP), default_timeout=timeout)
    at.run()
    if path != "app_pages/home/home.py":
        at.switch_page(path)
        at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def open_tab(at, key, label):
    """Open the tab ``label`` of a page's lazy tabs (``ui.share.tabs`` with ``key``) and run."""
    at.session_state[key] = label
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def shown(text):
    """Markdown text as the reader sees it: ``ui.markdown.plain``'s references and joiners read."""
    return html.unescape(text).replace("\u2060", "")


def plotly_figures(at):
    """The plotly figures on the page, as dicts."""
    return [json.loads(chart.proto.spec) for chart in at.get("plotly_chart")]


def sidebar_text(at):
    """All markdown and caption text of the sidebar."""
    return (
        " ".join(m.value for m in at.sidebar.markdown)
        + " "
        + " ".join(c.value for c in at.sidebar.caption)
    )


def by_key(widgets, key):
    """The widget with ``key`` among ``widgets``."""
    matches = [w for w in widgets if w.key == key]
    assert matches, f"no widget with key {key!r}"
    return matches[0]


def plotly_array(value):
    """A trace array from figure JSON (plotly may store it base64-encoded as ``bdata``)."""
    import base64

    import numpy as np

    if isinstance(value, dict) and "bdata" in value:
        array = np.frombuffer(base64.b64decode(value["bdata"]), dtype=value["dtype"])
        shape = value.get("shape")
        if shape:
            array = array.reshape([int(s) for s in str(shape).split(",")])
        return array
    return np.asarray(value)


def tree_views(at):
    """The tree views on the page (``ui.tree_view``), as dicts with the SVG and its size."""
    views = []
    for element in at.get("bidi_component"):
        if element.proto.component_name.endswith("tree_view"):
            views.append(json.loads(element.proto.json))
    return views


def open_with_kept_missing(path):
    """The page ``path`` on "Categorical with missing values", its numeric gaps kept (Data page)."""
    from app_pages.data import keys as data_keys

    at = open_page("app_pages/data/data.py")
    by_key(at.sidebar.selectbox, "sidebar_dataset_switch").select(
        "Categorical with missing values"
    ).run()
    open_tab(at, data_keys.TAB, "Preprocessing")
    fill = next(s for s in at.selectbox if s.label.startswith("Fill the gaps of numeric"))
    fill.select("keep missing").run()
    assert "kept missing" in " ".join(str(frame.value) for frame in at.dataframe)
    at.switch_page(path)
    at.run()
    return at


def run_markers(at):
    """The run-end markers on the page (``ui.run_marks``), as HTML."""
    return [h.proto.body for h in at.get("html") if "run-finished" in h.proto.body]


def part_alone(script, *args, session=None, timeout=120):
    """An AppTest of ``script`` (a function drawing one part of a page), run as the part's
    own run is (``ui.fragments``): the sidebar's slot for the view's end made, the frame's
    full-run flag off; ``session``: session values set before the first run (a tab opened).

    AppTest reruns a whole script, never a fragment alone, so a page's test drives the part
    as the browser's own run of it does: what this run draws is all a widget of the part
    redraws.
    """
    at = AppTest.from_function(_part_script, args=(script, *args), default_timeout=timeout)
    for key, value in (session or {}).items():
        at.session_state[key] = value
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def _part_script(script, *args):
    import streamlit as st

    from ui import fragments, report, state

    report.start("A page", "A dataset")
    fragments.make_view_end()
    st.session_state[state.FULL_RUN] = False  # as in the part's own run (its widget changed)
    script(*args)
