"""How fast the pages answer in a real browser: first render and three typical interactions per page.

Serves the app on a free local port, opens every page in headless Chromium
and times, from the user's action to the end of the app's run (the frame's
"run finished" marker, see ``ui/run_marks.py``):

* the first render of the page (a fresh browser tab, the server already warm),
  by the wall clock from the navigation;
* the page's own controls: the first number input stepped up, the first
  slider moved one step, the first select box set to another option, the
  first radio set to another option, the buttons the page is used through
  (Grow's Step, the first lesson's Next); then a click on each of the page's
  tabs, one after the other, and back on the first. These are timed inside the page, on the browser's clock:
  from the input event (the ``pointerdown`` or ``keydown`` that the user's
  click or key press makes) to the first frame that shows the run's marker.
  The wall clock around Playwright's ``click`` would add its own work before
  the event (scrolling, waiting for the control to be stable, hit-testing:
  0.07-0.15 s on this machine), which a user's click does not wait for; it
  is printed beside, as "wall". Beside it, "server": the script's own time on the
  server, which the run's end marker carries (``ui.run_marks``; a widget's callback,
  run before the script, is not in it), and "server CPU", the server process's CPU time
  in that run (all its threads: a page's thread pool counts); the rest of "seconds" is the network's and the browser's. On a
  machine other work loads, the wall times stretch and the CPU time much less: it is
  the steadier figure of what the app costs.

As every benchmark of the project, it prints a ratio to scikit-learn
measured in the same run: each time divided by the time of fitting and
scoring one scikit-learn tree on 5,000 x 10 rows, a yardstick of how busy
the machine is. The target is 0.5 s per interaction on the bundled data; a
second table gives each page's slowest interaction (its first render apart), with its
wall and server times.

Run: ``python -m bench.bench_pages`` (needs Chromium; ``--pages grow,data`` to
pick pages by their URL paths, "/" for the start page, as the app's menu links them;
``--repeat 3`` to repeat each interaction, tab clicks included; ``--profile`` to split each
interaction into the widget's delay, the server's start, the run with its messages, and the
browser's drawing, with the elements each run sent, ``bench/page_trace.py``).
"""

import argparse
import contextlib
import os
import shutil
import socket
import statistics
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from bench.common import print_rows, sklearn_yardstick
from bench.page_trace import SPLIT_COLUMNS, Probe, split_row

ROOT = Path(__file__).resolve().parent.parent

_FINISHED_JS = """() => {
    const marks = document.querySelectorAll('.run-finished');
    return marks.length ? Math.max(...Array.from(marks, m => Number(m.dataset.run))) : 0;
}"""
# The last finished run's time on the server, wall and the server process's CPU
# (``ui.run_marks``' marker): [seconds, cpu seconds], null where the marker has none.
_SERVER_SECONDS_JS = """() => {
    const marks = Array.from(document.querySelectorAll('.run-finished'));
    const last = marks.sort((a, b) => Number(b.dataset.run) - Number(a.dataset.run))[0];
    const read = name => last && last.dataset[name] !== undefined ? Number(last.dataset[name]) : null;
    return [read('seconds'), read('cpu')];
}"""
# The page's own controls, in the main area, in the order a user meets them.
_CONTROLS = {
    "number input": '[data-testid="stMain"] [data-testid="stNumberInput"]',
    "slider": '[data-testid="stMain"] [data-testid="stSlider"]',
    "select box": '[data-testid="stMain"] [data-testid="stSelectbox"]',
    "radio": '[data-testid="stMain"] [data-testid="stRadio"]',
}
# The buttons a page is used through, pressed once each (a page's other buttons start long
# runs, which show progress and a Stop instead of answering within the target).
_BUTTONS = {"grow": ("Step",), "first_lesson": ("Next →",)}
# The links of the app's menu (the frame draws it in the sidebar with st.page_link).
_MENU_LINKS_JS = """() => Array.from(
    document.querySelectorAll('[data-testid="stSidebar"] a[data-testid="stPageLink-NavLink"]'),
    a => new URL(a.href).pathname.replace(/^\\/+/, ''))"""


def _name(path):
    """A page's name in the tables and in ``--pages``: its URL path, "/" for the start page."""
    return path or "/"


def menu_pages(browser, url):
    """The URL paths of the app's pages, in its menu's order, read from the menu as a user sees
    it ("" is the start page, at the app's root)."""
    page = browser.new_page()
    page.goto(url)
    _wait_for_run(page, 0)
    paths = page.evaluate(_MENU_LINKS_JS)
    page.close()
    if not paths:
        sys.exit("The app's menu showed no page link: is the sidebar drawn?")
    return list(dict.fromkeys(paths))


def _free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextlib.contextmanager
def _serve():
    port = _free_port()
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "streamlit",
            "run",
            "app.py",
            "--server.port",
            str(port),
            "--server.headless",
            "true",
            # The code measured is the code the server started with: an edit made meanwhile
            # neither reloads a module in the middle of the timings nor costs the watcher's polls.
            "--server.fileWatcherType",
            "none",
        ],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}"
    for _ in range(600):
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=1):
                break
        except OSError:
            time.sleep(0.3)
    try:
        yield url
    finally:
        process.terminate()
        process.wait(timeout=20)


TARGET_SECONDS = 0.5  # an interaction on the bundled data answers within this, in the page
# An input that neither starts a run nor ends one within this time changed nothing (e.g. an
# option that the page puts back): the benchmark goes on to the next control rather than wait
# for ever. A run that has started is waited for to its end, however long: Grow's criterion
# select box, on a machine that never grew a tree of that criterion, waits minutes on a loaded
# machine for the compile of its plan, which the page says ("Preparing the tree engine"); the
# benchmark once took that wait for an input that started no run and skipped the control.
_NO_RUN_AFTER_MS = 30_000
_RUN_TIMEOUT_MS = 900_000
# Whether a run is going on: Streamlit's running indicator or Stop in the header, or the
# engine's message while a compile blocks the run (``ui.engine.MESSAGE``).
_RUNNING_JS = """() => {
    const header = document.querySelector('[data-testid="stHeader"]');
    const stop = header && Array.from(header.querySelectorAll('button'))
        .some(b => b.innerText.trim() === 'Stop');
    const main = document.querySelector('[data-testid="stMain"]');
    return Boolean(stop || document.querySelector('[data-testid="stStatusWidget"]')
                   || (main && main.innerText.includes('Preparing the tree engine')));
}"""

# Records the time of the next input event (capture phase: before any of the page's handlers).
_ARM_INPUT_CLOCK_JS = """() => {
    window.__inputAt = null;
    const mark = e => { if (window.__inputAt === null) window.__inputAt = e.timeStamp; };
    for (const type of ['pointerdown', 'keydown']) {
        document.addEventListener(type, mark, {capture: true, once: true});
    }
}"""


def _wait_for_run(page, after):
    page.wait_for_function(f"() => ({_FINISHED_JS})() > {after}", timeout=600_000)
    return page.evaluate(_FINISHED_JS)


def _wait_for_run_in_page(page, after, no_run_ms=_RUN_TIMEOUT_MS, probe=None):
    """Wait for a run after ``after``; return (run, seconds from the armed input event to its
    mark, the script's seconds on the server).

    The predicate is polled on every animation frame, so the time it returns
    is that of the first frame that shows the marker. With a ``probe``
    (``bench.page_trace``, ``--profile``), the interaction's split is kept in
    ``probe.splits``. Raises Playwright's ``TimeoutError`` when within ``no_run_ms`` no run
    ended and none is going on; a run going on is waited for up to ``_RUN_TIMEOUT_MS``.
    """
    finished = f"({_FINISHED_JS})() > {after}"
    page.wait_for_function(f"() => {finished} || ({_RUNNING_JS})()", timeout=no_run_ms)
    handle = page.wait_for_function(
        f"() => {finished} && performance.now()", timeout=_RUN_TIMEOUT_MS
    )
    seen_at = handle.json_value()
    input_at = page.evaluate("() => window.__inputAt")
    in_page = (seen_at - input_at) / 1000 if input_at else None
    run, server = page.evaluate(_FINISHED_JS), page.evaluate(_SERVER_SECONDS_JS)
    if probe is not None and input_at:
        probe.splits.append((probe.action, probe.read(input_at, seen_at)))
    return run, in_page, server


def _interact(page, kind, index, before_action=None):
    """Perform one interaction with the ``index``-th visible control of a kind; False when there is none.

    ``before_action(page)``, if given, runs just before the input that changes
    the value (the step-up click, the key press, the option's click).
    """
    controls = page.locator(f"{_CONTROLS[kind]} >> visible=true")
    if controls.count() <= index:
        return False
    control = controls.nth(index)
    control.scroll_into_view_if_needed()
    arm = before_action or (lambda _page: None)
    if kind == "number input":
        arm(page)
        control.locator('button[data-testid="stNumberInputStepUp"]').click()
    elif kind == "radio":  # an option not chosen yet (the first lesson's prediction, say)
        options = control.locator('[role="radiogroup"] label')
        option = options.filter(has_not=page.locator("input:checked")).first
        arm(page)
        option.click()
    elif kind == "slider":
        control.locator(
            'input[type="range"]'
        ).focus()  # visually hidden: the thumb's keyboard target
        arm(page)
        page.keyboard.press("ArrowRight")
    else:
        control.click()
        # An option other than the one selected: choosing the selected one again does not rerun.
        options = page.locator('[role="option"]:not([aria-selected="true"]) >> visible=true')
        if options.count() < 1:
            page.keyboard.press("Escape")
            return False
        arm(page)
        options.nth(0).click()
    return True


def _open_expanders(page):
    """Open the page's collapsed expanders (settings often live there); opening one does not rerun."""
    for summary in page.locator('[data-testid="stMain"] [data-testid="stExpander"] summary').all():
        if not summary.is_visible():  # inside a tab not shown: a user cannot open it either
            continue
        if summary.get_attribute("aria-expanded") == "false" or not summary.evaluate(
            "s => s.parentElement.open"
        ):
            summary.click()


# The tabs of the page's first tab bar only: a tab row nested in one of its tabs (the Data
# page's Bundled / Generate / Upload) runs nothing when clicked, and each click waited for a run
# until the benchmark gave up on it (two minutes each).
_TABS = '[data-testid="stMain"] [role="tablist"] >> nth=0 >> [role="tab"]'


def _time_tabs(page, run, repeat, probe=None):
    """Click each tab of the page's first tab bar after the first, then the first again; return
    the run reached and ``(label, in-page seconds, wall seconds, server seconds)`` per tab
    (medians)."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    tabs = page.locator(_TABS)
    labels = [t.inner_text().strip() for t in tabs.all() if t.is_visible()]
    results = []
    for label in [*labels[1:], *labels[:1]] if len(labels) > 1 else []:
        in_page, wall, server = [], [], []
        for _ in range(repeat):
            tab = page.locator(_TABS).filter(has_text=label).first
            tab.scroll_into_view_if_needed()
            _arm(probe, f"tab {label[:28]}")(page)
            started = time.perf_counter()
            tab.click()
            try:
                run, seconds, on_server = _wait_for_run_in_page(page, run, _NO_RUN_AFTER_MS, probe)
            except PlaywrightTimeout:  # a tab already open: nothing to run
                print(f"tab {label[:28]}: the click started no run; skipped", file=sys.stderr)
                break
            wall.append(time.perf_counter() - started)
            in_page.append(seconds if seconds is not None else wall[-1])
            server.append(on_server)
            if label != labels[0]:  # back to the first tab, so the next click opens it again
                page.locator(_TABS).filter(has_text=labels[0]).first.click()
                run = _wait_for_run(page, run)
        if in_page:
            results.append((f"tab {label[:28]}", *_medians(in_page, wall, server)))
    return run, results


def _median_known(values):
    """The median of the values that are not None, or None."""
    known = [v for v in values if v is not None]
    return statistics.median(known) if known else None


def _medians(in_page, wall, server):
    """The medians of an interaction's in-page and wall seconds and of its server's
    ``(seconds, cpu seconds)`` (each None when the app's marker carries no such time)."""
    on_server = tuple(_median_known(column) for column in zip(*server, strict=True))
    return statistics.median(in_page), statistics.median(wall), on_server or (None, None)


def _arm(probe, action):
    """What runs just before an input: the in-page clock armed, and the probe if profiling."""

    def arm(page):
        # The previous run's indicator gone first, so that it is not read as this input's run.
        page.wait_for_function(f"() => !({_RUNNING_JS})()", timeout=_RUN_TIMEOUT_MS)
        page.evaluate(_ARM_INPUT_CLOCK_JS)
        if probe is not None:
            probe.action = action
            probe.arm()

    return arm


def _time_page(browser, url, path, repeat, profile=False):
    """Time a page's first render and interactions; with ``profile``, also return the split of
    each interaction (``bench.page_trace``)."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    page = browser.new_page(viewport={"width": 1440, "height": 900})
    if profile:
        Probe.install(page)
    start = time.perf_counter()
    page.goto(f"{url}/{path}")
    run = _wait_for_run(page, 0)
    first = time.perf_counter() - start
    first_server = page.evaluate(_SERVER_SECONDS_JS)
    probe = Probe(page) if profile else None
    _open_expanders(page)
    results = []
    for kind in _CONTROLS:
        in_page, wall, server = [], [], []
        for _ in range(repeat):
            started = time.perf_counter()
            if not _interact(page, kind, 0, _arm(probe, kind)):
                break
            try:
                run, seconds, on_server = _wait_for_run_in_page(page, run, _NO_RUN_AFTER_MS, probe)
            except PlaywrightTimeout:  # the input changed nothing the app reruns for
                print(f"{_name(path)}: a {kind} input started no run; skipped", file=sys.stderr)
                break
            wall.append(time.perf_counter() - started)
            in_page.append(seconds if seconds is not None else wall[-1])
            server.append(on_server)
        if in_page:
            results.append((kind, *_medians(in_page, wall, server)))
    for label in _BUTTONS.get(path, ()):
        _arm(probe, f"button {label}")(page)
        started = time.perf_counter()
        page.get_by_role("button", name=label, exact=True).first.click()
        run, seconds, on_server = _wait_for_run_in_page(page, run, _NO_RUN_AFTER_MS, probe)
        wall = time.perf_counter() - started
        results.append((f"button {label}", seconds if seconds is not None else wall, wall,
                        tuple(on_server)))  # fmt: skip
    run, tab_results = _time_tabs(page, run, repeat, probe)
    page.close()
    return (first, tuple(first_server)), results + tab_results, probe.splits if probe else []


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", help="comma-separated url paths (default: every page)")
    parser.add_argument("--repeat", type=int, default=3, help="times each interaction is repeated")
    parser.add_argument(
        "--profile",
        action="store_true",
        help="also split each interaction into the server's run, the messages and the browser's "
        "drawing (bench/page_trace.py; its waits stretch the wall column)",
    )
    args = parser.parse_args(argv)
    chromium = (
        shutil.which("chromium")
        or shutil.which("chromium-browser")
        or shutil.which("google-chrome")
    )
    if chromium is None:
        sys.exit("No Chromium on this machine: apt-get install chromium.")
    from playwright.sync_api import sync_playwright

    rows, slowest, splits = [], [], []
    with _serve() as url, sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=chromium,
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
        )
        every = menu_pages(browser, url)
        wanted = args.pages.split(",") if args.pages else None
        chosen = [p for p in every if wanted is None or _name(p) in wanted]
        if not chosen:
            sys.exit(f"No page of the menu is named {args.pages}: the pages are "
                     f"{', '.join(_name(p) for p in every)}.")  # fmt: skip
        _time_page(browser, url, chosen[0], 1)  # warm the server: imports, caches, compilation
        for path in chosen:
            yardstick = sklearn_yardstick()
            first, interactions, page_splits = _time_page(
                browser, url, path, args.repeat, args.profile
            )
            splits += [split_row(_name(path), action, split) for action, split in page_splits]
            print(f"{_name(path)}: done", file=sys.stderr, flush=True)
            if interactions:
                slowest.append(_slowest_row(_name(path), interactions, yardstick))
            for kind, seconds, wall, server in [("first render", first[0], *first), *interactions]:
                rows.append([_name(path), kind, f"{seconds:.2f}", f"{seconds / yardstick:.0f}",
                             f"{wall:.2f}", *map(_seconds, server)])  # fmt: skip
        browser.close()
    print(f"Pages in headless Chromium ({os.cpu_count()} cores, load average "
          f"{_load()}); ratio = time / one scikit-learn tree fit")  # fmt: skip
    print_rows(["page", "action", "seconds", "ratio", "wall", "server", "server CPU"], rows)
    print()
    print(
        f"Each page's slowest interaction (target: {TARGET_SECONDS} s in the page). Other work on "
        "the machine stretches the seconds, the wall and the server's time; the server's CPU is "
        "the steadier figure."
    )
    print_rows(["page", "slowest interaction", "seconds", "wall", "server", "server CPU", "ratio",
                "within"], slowest)  # fmt: skip
    if splits:
        print()
        print(
            "Where each interaction's time went (seconds; bench/page_trace.py): to request = the "
            "input to the request leaving the page; server start = to the first message back; "
            "run+transfer = to the message with the run's end marker; drawing = to the first "
            "frame showing it; settled = the input to the end of the drawing's last long task; "
            "busy = the browser's main thread meanwhile, of which JS and layout (with style); "
            "the run's messages: KB, elements sent whole and as references to unchanged ones, and the"
            " elements and blocks sent (either way) into the page's main area and its sidebar."
        )
        print_rows(SPLIT_COLUMNS, splits)


def _seconds(value):
    return "-" if value is None else f"{value:.2f}"


def _load():
    """The machine's load average over the last minute, as text ("-" where unknown)."""
    try:
        return f"{os.getloadavg()[0]:.1f}"
    except OSError:
        return "-"


def _slowest_row(name, interactions, yardstick):
    """A page's slowest interaction (by its in-page seconds) as a row of the second table."""
    kind, seconds, wall, (server, cpu) = max(interactions, key=lambda item: item[1])
    within = "yes" if seconds <= TARGET_SECONDS else "no"
    return [name, kind, f"{seconds:.2f}", f"{wall:.2f}", _seconds(server), _seconds(cpu),
            f"{seconds / yardstick:.0f}", within]  # fmt: skip


if __name__ == "__main__":
    main()
