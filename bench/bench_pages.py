"""How fast the pages answer in a real browser: first render and three typical interactions per page.

Serves the app on a free local port, opens every page in headless Chromium
and times, from the user's action to the end of the app's run (the frame's
"run finished" marker, see ``ui/shell.py``):

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
  is printed beside, as "wall".

As every benchmark of the project, it prints a ratio to scikit-learn
measured in the same run: each time divided by the time of fitting and
scoring one scikit-learn tree on 5,000 x 10 rows, a yardstick of how busy
the machine is. The target is 0.5 s per interaction on the bundled data; a
second table gives each page's slowest interaction (its first render apart).

Run: ``python -m bench.bench_pages`` (needs Chromium; ``--pages grow,data`` to
pick pages, ``--repeat 3`` to repeat each interaction, tab clicks included).
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

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from ui.navigation import PAGES  # noqa: E402 (the app's own list of pages)

_FINISHED_JS = """() => {
    const marks = document.querySelectorAll('.run-finished');
    return marks.length ? Math.max(...Array.from(marks, m => Number(m.dataset.run))) : 0;
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
# An input that starts no run within this time changed nothing (e.g. an option that the page
# puts back): the benchmark goes on to the next control rather than wait for ever. A page's
# slowest run on an idle server takes a few seconds.
_NO_RUN_AFTER_MS = 120_000

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


def _wait_for_run_in_page(page, after, timeout_ms=600_000):
    """Wait for a run after ``after``; return (run, seconds from the armed input event to its mark).

    The predicate is polled on every animation frame, so the time it returns
    is that of the first frame that shows the marker.
    """
    handle = page.wait_for_function(
        f"() => ({_FINISHED_JS})() > {after} && performance.now()", timeout=timeout_ms
    )
    seen_at = handle.json_value()
    input_at = page.evaluate("() => window.__inputAt")
    return page.evaluate(_FINISHED_JS), (seen_at - input_at) / 1000 if input_at else None


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


_TABS = '[data-testid="stMain"] [role="tablist"] [role="tab"]'


def _time_tabs(page, run, repeat):
    """Click each tab of the page's first tab bar after the first, then the first again; return
    the run reached and ``(label, in-page seconds, wall seconds)`` per tab (medians)."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    tabs = page.locator(_TABS)
    labels = [t.inner_text().strip() for t in tabs.all() if t.is_visible()]
    results = []
    for label in [*labels[1:], *labels[:1]] if len(labels) > 1 else []:
        in_page, wall = [], []
        for _ in range(repeat):
            tab = page.locator(_TABS).filter(has_text=label).first
            tab.scroll_into_view_if_needed()
            page.evaluate(_ARM_INPUT_CLOCK_JS)
            started = time.perf_counter()
            tab.click()
            try:
                run, seconds = _wait_for_run_in_page(page, run, _NO_RUN_AFTER_MS)
            except PlaywrightTimeout:  # a tab already open: nothing to run
                break
            wall.append(time.perf_counter() - started)
            in_page.append(seconds if seconds is not None else wall[-1])
            if label != labels[0]:  # back to the first tab, so the next click opens it again
                page.locator(_TABS).filter(has_text=labels[0]).first.click()
                run = _wait_for_run(page, run)
        if in_page:
            results.append(
                (f"tab {label[:28]}", statistics.median(in_page), statistics.median(wall))
            )
    return run, results


def _time_page(browser, url, spec, repeat):
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    page = browser.new_page(viewport={"width": 1440, "height": 900})
    start = time.perf_counter()
    page.goto(f"{url}/{'' if spec.default else spec.url_path}")
    run = _wait_for_run(page, 0)
    first = time.perf_counter() - start
    _open_expanders(page)
    results = []
    for kind in _CONTROLS:
        in_page, wall = [], []
        for _ in range(repeat):
            started = time.perf_counter()
            if not _interact(page, kind, 0, lambda p: p.evaluate(_ARM_INPUT_CLOCK_JS)):
                break
            try:
                run, seconds = _wait_for_run_in_page(page, run, _NO_RUN_AFTER_MS)
            except PlaywrightTimeout:  # the input changed nothing the app reruns for
                print(f"{spec.url_path}: a {kind} input started no run; skipped", file=sys.stderr)
                break
            wall.append(time.perf_counter() - started)
            in_page.append(seconds if seconds is not None else wall[-1])
        if in_page:
            results.append((kind, statistics.median(in_page), statistics.median(wall)))
    for label in _BUTTONS.get(spec.url_path, ()):
        page.evaluate(_ARM_INPUT_CLOCK_JS)
        started = time.perf_counter()
        page.get_by_role("button", name=label, exact=True).first.click()
        run, seconds = _wait_for_run_in_page(page, run, _NO_RUN_AFTER_MS)
        wall = time.perf_counter() - started
        results.append((f"button {label}", seconds if seconds is not None else wall, wall))
    run, tab_results = _time_tabs(page, run, repeat)
    page.close()
    return first, results + tab_results


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", help="comma-separated url paths (default: every page)")
    parser.add_argument("--repeat", type=int, default=3, help="times each interaction is repeated")
    args = parser.parse_args(argv)
    chosen = [p for p in PAGES if not args.pages or p.url_path in args.pages.split(",")]
    chromium = (
        shutil.which("chromium")
        or shutil.which("chromium-browser")
        or shutil.which("google-chrome")
    )
    if chromium is None:
        sys.exit("No Chromium on this machine: apt-get install chromium.")
    from playwright.sync_api import sync_playwright

    rows, slowest = [], []
    with _serve() as url, sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=chromium,
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
        )
        _time_page(browser, url, chosen[0], 1)  # warm the server: imports, caches, compilation
        for spec in chosen:
            yardstick = sklearn_yardstick()
            first, interactions = _time_page(browser, url, spec, args.repeat)
            print(f"{spec.url_path}: done", file=sys.stderr, flush=True)
            if interactions:
                kind, seconds, _ = max(interactions, key=lambda item: item[1])
                slowest.append([spec.url_path, kind, f"{seconds:.2f}", f"{seconds / yardstick:.0f}",
                                "yes" if seconds <= TARGET_SECONDS else "no"])  # fmt: skip
            for kind, seconds, wall in [("first render", first, first), *interactions]:
                rows.append(
                    [
                        spec.url_path,
                        kind,
                        f"{seconds:.2f}",
                        f"{seconds / yardstick:.0f}",
                        f"{wall:.2f}",
                    ]
                )
        browser.close()
    print(
        f"Pages in headless Chromium ({os.cpu_count()} cores); ratio = time / one scikit-learn tree fit"
    )
    print_rows(["page", "action", "seconds", "ratio", "wall"], rows)
    print()
    print(f"Each page's slowest interaction (target: {TARGET_SECONDS} s)")
    print_rows(["page", "slowest interaction", "seconds", "ratio", "within"], slowest)


if __name__ == "__main__":
    main()
