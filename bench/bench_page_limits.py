"""The slowest setting of every page: each tab with its number widgets at their limits.

Usage: ``python -m bench.bench_page_limits [--pages conditioning,instability]
[--dataset NAME] [--timeout 120]``

For each page and each of its tabs (the lazy tab rows of ``ui.share.tabs``), on
a bundled dataset (the app's default unless ``--dataset``), the page's own
number inputs and sliders are set one after the other to their largest value,
each followed by a script run (Streamlit's ``AppTest``, no browser), so the
last run of a tab has every number at its limit at once. The slowest run of
each tab is printed with the setting that caused it; a run that does not end
within ``--timeout`` seconds is printed as such (issue 30: every page's
slowest setting should answer within 30 s, or run in the background). Buttons
are not pressed: the runs they start (Tables 2 and 3, the lab's experiments)
go to the server's background worker with progress and a Stop. A setting whose
work goes to that worker is timed to the end of the page's run; the worker
may still use the cores while later tabs are timed, which only makes their
times longer.

As every benchmark of the project, each time is also printed as a ratio to
the time of fitting and scoring one scikit-learn tree on 5,000 x 10 rows,
measured in the same run (how busy the machine is).
"""

import argparse
import sys
import time
from pathlib import Path

from streamlit.testing.v1 import AppTest

from bench.common import print_rows, sklearn_yardstick

ROOT = Path(__file__).resolve().parent.parent

NUMBER_KINDS = ("number_input", "slider")


def page_scripts():
    """``{name: script}`` of the app's pages: each is a package of ``app_pages/`` whose script
    bears its name (``app_pages/grow/grow.py``), the layout ``tests/test_architecture.py``
    holds, so the benchmark finds them as the app's navigation does, without importing it."""
    scripts = (ROOT / "app_pages").glob("*/*.py")
    return {p.stem: p for p in sorted(scripts) if p.stem == p.parent.name}


def _open(script, dataset, timeout):
    """An AppTest on the page ``script``, with ``dataset`` loaded from the sidebar when given."""
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=timeout)
    at.run()
    if dataset:
        [switch] = [w for w in at.sidebar.selectbox if w.key == "sidebar_dataset_switch"]
        switch.select(dataset).run()
    at.switch_page(str(script.relative_to(ROOT))).run()
    return at


def _tab_key(at):
    """The key of the page's lazy tab row, or None: the session key, named as every page names
    its tab row (its prefix, then ``tab``: ``grow_tab``), that holds the open (first) tab."""
    if not at.tabs:
        return None
    opened = at.tabs[0].label
    keys = [
        key for key, value in at.session_state.items() if key.endswith("_tab") and value == opened
    ]
    return keys[0] if keys else None


def _number_widgets(at):
    """``(kind, key, largest value)`` of the page's enabled number widgets, not the sidebar's."""
    found = []
    for kind in NUMBER_KINDS:
        for widget in getattr(at.main, kind):
            high = getattr(widget, "max", None)
            usable = widget.key and not widget.disabled and high is not None
            if usable and not isinstance(high, tuple) and widget.value != high:
                found.append((kind, widget.key, high))
    return found


def _timed_run(at):
    """Seconds of one script run, or None when it did not end within the AppTest's timeout."""
    start = time.perf_counter()
    try:
        at.run()
    except RuntimeError:  # AppTest's "script run timed out"
        return None
    return time.perf_counter() - start


def _tab_limits(at, tab_label):
    """The slowest run of a tab whose number widgets are set to their limits one by one.

    Returns
    -------
    seconds : float or None
        None when a run did not end within the timeout.
    setting : str
        The setting whose run was the slowest.
    n_settings : int
    """
    slowest, setting = 0.0, "(as opened)"
    settings = _number_widgets(at)
    for kind, key, high in settings:
        widgets = [w for w in getattr(at.main, kind) if w.key == key]
        if not widgets or widgets[0].disabled:
            continue  # an earlier setting removed or disabled it
        widgets[0].set_value(high)
        seconds = _timed_run(at)
        if seconds is None:
            return None, f"{key} = {high}", len(settings)
        if seconds > slowest:
            slowest, setting = seconds, f"{key} = {high}"
    return slowest, setting, len(settings)


def run(pages, dataset, timeout):
    yardstick = sklearn_yardstick()
    rows = []
    for name, script in pages.items():
        at = _open(script, dataset, timeout)
        tab_key = _tab_key(at)
        labels = [t.label for t in at.tabs] if tab_key else [None]
        for label in labels:
            if label is not None:
                at = _open(script, dataset, timeout)  # each tab from its page's defaults
                at.session_state[tab_key] = label
                at.run()
            seconds, setting, n_settings = _tab_limits(at, label)
            shown = f">{timeout:.0f}" if seconds is None else f"{seconds:.2f}"
            ratio = "" if seconds is None else f"{seconds / yardstick:.0f}"
            rows.append([name, label or "-", n_settings, setting, shown, ratio])
            print(f"{name} / {label}: {shown} s ({setting})", file=sys.stderr, flush=True)
    print(f"Slowest run of each tab with its numbers at their limits (dataset: "
          f"{dataset or 'the default'}); ratio = time / one scikit-learn tree fit "
          f"({yardstick * 1e3:.0f} ms)")  # fmt: skip
    print_rows(["page", "tab", "numbers", "slowest setting", "seconds", "ratio"], rows)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", default="", help="comma-separated page names (default: all)")
    parser.add_argument("--dataset", default="", help="a bundled dataset's name")
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds a run may take")
    args = parser.parse_args(argv)
    wanted = {p for p in args.pages.split(",") if p}
    pages = {n: s for n, s in page_scripts().items() if not wanted or n in wanted}
    if not pages:
        sys.exit(f"No page is named {args.pages}: the pages are {', '.join(page_scripts())}.")
    run(pages, args.dataset or None, args.timeout)


if __name__ == "__main__":
    main()
