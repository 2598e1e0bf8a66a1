"""How fast the pages answer in a real browser: first render and three typical interactions per page.

Serves the app on a free local port, opens every page in headless Chromium
and times, from the user's action to the end of the app's run (the frame's
"run finished" marker, see ``ui/shell.py``):

* the first render of the page (a fresh browser tab, the server already warm);
* three interactions with the page's own controls: the first number input
  stepped up, the first slider moved one step, the first select box set to
  its second option (or the next control of another kind when a page has
  none of these).

As every benchmark of the project, it prints a ratio to scikit-learn
measured in the same run: each time divided by the time of fitting and
scoring one scikit-learn tree on 5,000 x 10 rows, a yardstick of how busy
the machine is. The target is 0.5 s per interaction on the bundled data.

Run: ``python -m bench.bench_pages`` (needs Chromium; ``--pages grow,data`` to
pick pages, ``--repeat 3`` to repeat each interaction).
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

import numpy as np
from sklearn.tree import DecisionTreeClassifier

from bench.common import print_rows

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
}


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


def _wait_for_run(page, after):
    page.wait_for_function(f"() => ({_FINISHED_JS})() > {after}", timeout=600_000)
    return page.evaluate(_FINISHED_JS)


def _interact(page, kind, index):
    """Perform one interaction with the ``index``-th visible control of a kind; False when there is none."""
    controls = page.locator(f"{_CONTROLS[kind]} >> visible=true")
    if controls.count() <= index:
        return False
    control = controls.nth(index)
    control.scroll_into_view_if_needed()
    if kind == "number input":
        control.locator('button[data-testid="stNumberInputStepUp"]').click()
    elif kind == "slider":
        control.locator(
            'input[type="range"]'
        ).focus()  # visually hidden: the thumb's keyboard target
        page.keyboard.press("ArrowRight")
    else:
        control.click()
        # An option other than the one selected: choosing the selected one again does not rerun.
        options = page.locator('[role="option"]:not([aria-selected="true"]) >> visible=true')
        if options.count() < 1:
            page.keyboard.press("Escape")
            return False
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


def _yardstick(repeat=5):
    """Median time of one scikit-learn tree fitted and scored on 5,000 x 10 rows."""
    rng = np.random.default_rng(0)
    X = rng.normal(size=(5_000, 10))
    y = (X[:, 0] + rng.normal(size=5_000) > 0).astype(int)
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        DecisionTreeClassifier(random_state=0).fit(X, y).score(X, y)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def _time_page(browser, url, spec, repeat):
    page = browser.new_page(viewport={"width": 1440, "height": 900})
    start = time.perf_counter()
    page.goto(f"{url}/{'' if spec.default else spec.url_path}")
    run = _wait_for_run(page, 0)
    first = time.perf_counter() - start
    _open_expanders(page)
    results = []
    for kind in _CONTROLS:
        times = []
        for _ in range(repeat):
            started = time.perf_counter()
            if not _interact(page, kind, 0):
                break
            run = _wait_for_run(page, run)
            times.append(time.perf_counter() - started)
        results.append((kind, statistics.median(times) if times else None))
    page.close()
    return first, results


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

    rows = []
    with _serve() as url, sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=chromium,
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
        )
        _time_page(browser, url, chosen[0], 1)  # warm the server: imports, caches, compilation
        for spec in chosen:
            yardstick = _yardstick()
            first, interactions = _time_page(browser, url, spec, args.repeat)
            for kind, seconds in [("first render", first), *interactions]:
                if seconds is not None:
                    rows.append(
                        [spec.url_path, kind, f"{seconds:.2f}", f"{seconds / yardstick:.0f}"]
                    )
        browser.close()
    print(
        f"Pages in headless Chromium ({os.cpu_count()} cores); ratio = time / one scikit-learn tree fit"
    )
    print_rows(["page", "action", "seconds", "ratio"], rows)


if __name__ == "__main__":
    main()
