"""A self-contained HTML summary of what a page shows, for a teacher to hand out.

While a page runs, what it shows through ``ui.figures`` (charts, tables, tree
drawings) and what it adds here (settings, a sentence, a Python snippet) is
collected; after the page, the frame offers the summary as one HTML file:
the figures stay interactive (plotly.js is included once, so the file opens
without a network), tree drawings are inline SVG, and the snippet reproduces
the numbers with the ``trees`` package.
"""

import datetime
from contextlib import contextmanager
from dataclasses import dataclass, field
from html import escape

import streamlit as st

from . import state
from .markdown import to_text

__all__ = [
    "Report",
    "add_figure",
    "add_note",
    "add_settings",
    "add_snippet",
    "add_table",
    "add_tree",
    "current",
    "part",
]


@dataclass
class Report:
    """What the page showed in this run, in order."""

    page: str = ""
    dataset: str = ""
    items: list = field(default_factory=list)
    settings: dict = field(default_factory=dict)
    snippet: str = ""
    parts: dict = field(default_factory=dict)  # a part's name -> the span of items it added
    within: dict = field(default_factory=dict)  # a part's name -> the part it was drawn inside
    open_parts: list = field(default_factory=list)  # the parts running now, outermost first

    def is_empty(self):
        return not self.items and not self.settings and not self.snippet

    def frozen(self):
        """A copy of what the report holds now, which the page's later runs do not change."""
        return Report(self.page, self.dataset, list(self.items), dict(self.settings), self.snippet)

    @contextmanager
    def part(self, name, again=False):
        """Collect what a part of the page (``ui.fragments``) adds, as its span of the items.

        ``again``: the part runs alone (its widget changed); what it adds replaces what it
        added before, in its place among the page's items, and later parts' spans move with
        them, while the spans of the parts it was drawn inside (a tab's part inside the part
        holding the tabs) stretch or shrink with it. Its settings and snippet replace their
        earlier values as any page's do.
        """
        start, end = (
            self.parts.get(name, (len(self.items),) * 2) if again else (len(self.items),) * 2
        )
        after = self.items[end:]
        del self.items[start:]
        if self.open_parts:
            self.within[name] = self.open_parts[-1]
        self.open_parts.append(name)
        try:
            yield
        finally:
            self.open_parts.pop()
            shift = len(self.items) - end
            around = self._enclosing(name)
            self.parts = {
                other: self._moved(other, span, name, around, end, shift)
                for other, span in self.parts.items()
                if other != name
            }
            self.parts[name] = (start, len(self.items))
            self.items.extend(after)

    def _moved(self, other, span, name, around, end, shift):
        """Where ``other``'s span is once ``name``'s items, which ended at ``end``, changed in
        number by ``shift``: a part around it stretches; one after it moves; one inside it was
        just drawn where it stands."""
        a, b = span
        if other in around:
            return a, b + shift
        if a >= end and name not in self._enclosing(other):
            return a + shift, b + shift
        return a, b

    def _enclosing(self, name):
        """The parts ``name`` was drawn inside, innermost first."""
        around = []
        while name in self.within and self.within[name] not in around:
            name = self.within[name]
            around.append(name)
        return around


def start(page, dataset):
    """A new, empty report for this run of ``page`` (called by the frame)."""
    st.session_state[state.REPORT] = Report(page=page, dataset=dataset)


def current():
    """The report of this run."""
    return st.session_state.setdefault(state.REPORT, Report())


def part(name, again=False):
    """:meth:`Report.part` of this run's report (a context manager)."""
    return current().part(name, again)


def add_figure(title, figure):
    """A plotly figure (kept interactive in the file)."""
    current().items.append(("figure", title, figure))


def add_table(title, frame):
    """A table (a pandas DataFrame)."""
    current().items.append(("table", title, frame))


def add_tree(title, svg):
    """A tree drawing (SVG text)."""
    current().items.append(("tree", title, svg))


def add_note(text):
    """A sentence of what to notice (Markdown as the page shows it: read as plain text)."""
    current().items.append(("note", "", to_text(text)))


def add_settings(settings):
    """Settings in force (a dict of plain-language names to values)."""
    current().settings.update(settings)


def add_snippet(code):
    """Python code with the ``trees`` package that reproduces the page's numbers."""
    current().snippet = code


_STYLE = """
body { font-family: Helvetica, Arial, sans-serif; max-width: 1100px; margin: 2rem auto; color: #1b1f1b;
  line-height: 1.45; padding: 0 1rem; }
h1 { margin-bottom: .2rem; } .meta { color: #5f665f; margin-top: 0; }
section { margin: 1.6rem 0; } table { border-collapse: collapse; font-size: .9rem; }
td, th { border: 1px solid #d8ddd8; padding: .25rem .5rem; text-align: right; }
th { background: #f1f5f1; } pre { background: #f6f8f6; padding: 1rem; overflow-x: auto; }
.tree { overflow-x: auto; border: 1px solid #e2e6e2; border-radius: .5rem; padding: .5rem; }
"""


def _item_html(kind, title, content, plotly_ready):
    heading = f"<h2>{escape(title)}</h2>" if title else ""
    if kind == "figure":
        body = content.to_html(full_html=False, include_plotlyjs=not plotly_ready)
    elif kind == "table":
        body = content.to_html(index=False, float_format=lambda v: f"{v:.4g}", border=0)
    elif kind == "tree":
        body = f'<div class="tree">{content}</div>'
    else:
        body = f"<p>{escape(content)}</p>"
    return f"<section>{heading}{body}</section>"


def to_html(report):
    """The report as one HTML document (str)."""
    parts, plotly_ready = [], False
    for kind, title, content in report.items:
        parts.append(_item_html(kind, title, content, plotly_ready))
        plotly_ready = plotly_ready or kind == "figure"
    settings = "".join(
        f"<tr><th>{escape(str(k))}</th><td>{escape(str(v))}</td></tr>"
        for k, v in report.settings.items()
    )
    if settings:
        parts.insert(0, f"<section><h2>Settings</h2><table>{settings}</table></section>")
    if report.snippet:
        parts.append(
            "<section><h2>Reproduce it in Python</h2><p>With the <code>trees</code> package of Tree Bias Lab "
            f"(<code>pip install .</code> in the project folder):</p><pre>{escape(report.snippet)}</pre></section>"
        )
    when = datetime.datetime.now().strftime("%Y-%m-%d %H:%M")
    return (
        f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>{escape(report.page)} · Tree Bias '
        f"Lab</title><style>{_STYLE}</style></head><body><h1>{escape(report.page)}</h1>"
        f'<p class="meta">Tree Bias Lab · dataset: {escape(report.dataset)} · {when}</p>'
        + "".join(parts)
        + "</body></html>"
    )


def download_button(container):
    """Offer this run's report as an HTML file (built only when the button is pressed).

    The file is built from the report as this run left it (:meth:`Report.frozen`), on a thread
    of Streamlit's own, and the press reruns nothing (``on_click="ignore"``): a rerun would run
    beside the building, and a part's own run (``ui.fragments``) empties its span of the one
    report it refills, so the file could miss the part's figures.
    """
    report = current().frozen()
    if report.is_empty():
        return
    name = "".join(c if c.isalnum() else "-" for c in report.page.lower()).strip("-") or "page"
    container.download_button(
        "Download a summary of this page (HTML)",
        data=lambda: to_html(report),
        file_name=f"tree-bias-lab-{name}.html",
        mime="text/html",
        key=state.REPORT_BUTTON,
        on_click="ignore",
        help="The figures, numbers and settings on screen, and Python code that reproduces them, in one file.",
    )
