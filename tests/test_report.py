"""The HTML summary a page hands out: every kind of item, escaped, plotly.js once."""

import pandas as pd
import plotly.graph_objects as go

from ui.report import Report, to_html


def _report():
    report = Report(page="Staircase <and> depth", dataset="bupa")
    report.items += [
        ("figure", "First figure", go.Figure(go.Scatter(x=[0, 1], y=[1, 0]))),
        ("table", "Scores", pd.DataFrame({"depth": [1, 2], "error": [0.25, 0.125]})),
        ("tree", "The tree", '<svg width="10" height="10"><text>x ≤ 1</text></svg>'),
        ("note", "", "Deeper is not better: <b> stays text."),
        ("figure", "Second figure", go.Figure(go.Bar(x=["a"], y=[1]))),
    ]
    report.settings = {"maximum depth": 3, "rows": "400 <all>"}
    report.snippet = "print(1 < 2)"
    return report


def test_every_item_kind_is_in_the_document_in_order():
    html = to_html(_report())
    order = ["<h2>Settings</h2>", "First figure", "<h2>Scores</h2>", "The tree", "Deeper is",
             "Second figure", "Reproduce it in Python"]  # fmt: skip
    positions = [html.index(text) for text in order]
    assert positions == sorted(positions)
    assert "<td>0.125</td>" in html and "<th>depth</th>" in html
    assert "<text>x ≤ 1</text>" in html  # the SVG drawn as it is


def test_text_is_escaped_and_plotly_js_is_included_once():
    html = to_html(_report())
    assert "<title>Staircase &lt;and&gt; depth · Tree Bias Lab</title>" in html
    assert "&lt;b&gt; stays text" in html
    assert "<td>400 &lt;all&gt;</td>" in html
    assert "<pre>print(1 &lt; 2)</pre>" in html
    assert html.count("plotly.js v") == 1  # the library's banner: inlined with the first figure


def test_an_empty_report_says_what_and_where():
    report = Report(page="Data", dataset="wine")
    assert report.is_empty()
    html = to_html(report)
    assert html.startswith("<!DOCTYPE html>") and "dataset: wine" in html
    assert "<section>" not in html


def test_a_part_run_alone_replaces_its_own_items_in_place():
    report = Report(page="Staircase")
    report.items.append(("note", "", "before"))
    with report.part("top"):
        report.items += [("note", "", "top 1"), ("note", "", "top 2")]
    report.items.append(("note", "", "between"))
    with report.part("tabs"):
        report.items.append(("note", "", "tab 1"))
    report.items.append(("note", "", "after"))
    with report.part("top", again=True):  # its widget changed: it runs alone, adds one item
        report.items.append(("note", "", "top again"))
    with report.part("tabs", again=True):  # its span moved with the shorter part above it
        report.items += [("note", "", "tab again"), ("note", "", "tab more")]
    texts = [text for _, _, text in report.items]
    assert texts == ["before", "top again", "between", "tab again", "tab more", "after"]
    assert report.parts == {"top": (1, 2), "tabs": (3, 5)}


def test_the_summary_handed_out_is_the_report_as_the_run_left_it():
    # The file is built on another thread while a part may run alone again and empty its
    # span of the same report before refilling it: what the button hands out is a copy.
    report = Report(page="Staircase")
    with report.part("top"):
        report.items.append(("note", "", "the staircase"))
    report.settings["maximum depth"] = 4
    handed_out = report.frozen()
    with report.part("top", again=True):
        assert report.items == []  # mid-run: the part's span is empty
        report.settings["maximum depth"] = 5
        assert "the staircase" in to_html(handed_out)
    assert "<td>4</td>" in to_html(handed_out)


def test_a_part_inside_a_part_run_alone_keeps_the_outer_span_whole():
    """A tab's part inside the part holding the tabs (Grow's regions): its own run stretches
    the outer span, so the outer part's next run replaces the inner's new items too."""
    report = Report(page="Grow")
    with report.part("grown"):
        report.items.append(("note", "", "tree"))
        with report.part("regions"):
            report.items.append(("note", "", "map"))
    report.items.append(("note", "", "after"))
    with report.part("regions", again=True):
        report.items += [("note", "", "map again"), ("note", "", "note")]
    assert report.parts == {"grown": (0, 3), "regions": (1, 3)}
    with report.part("grown", again=True):
        report.items.append(("note", "", "new tree"))
        with report.part("regions"):
            report.items.append(("note", "", "map anew"))
    texts = [text for _, _, text in report.items]
    assert texts == ["new tree", "map anew", "after"]
    assert report.parts == {"grown": (0, 2), "regions": (1, 2)}
