"""Is the server still responsive while five sessions run the heaviest pages at once?

Serves the app, measures a sixth session's first render of the home page on
the idle server, then starts five sessions that keep the heaviest pages
busy: each opens its page and steps its controls in a loop (every step is a
full script run of that page). While they run, the sixth session (a headless
browser) opens the home page again, several times; the script prints its
times under load and their ratio to the idle time, and as every benchmark of
the project the ratio to one scikit-learn fit measured in the same run
(``bench.common.sklearn_yardstick``). The issue's bar: a sixth session's page
opens within a few seconds.

Two kinds of busy sessions (``--clients``):

* ``protocol`` (default): each speaks the app's websocket protocol directly
  (``bench.protocol_session``), asking for the next run as soon as the last
  one ends, as a user clicking without pause; the five draw nothing, so the
  machine's cores are shared by the server and the sixth browser only, as
  when the five users sit at their own computers.
* ``browser``: each is a headless browser in a process of its own, which
  opens its page and interacts with its controls. On the 2-core development
  machine the five renderers took about two thirds of the CPU and the server
  a third, so the times measure the machine as much as the server.

Run: ``python -m bench.bench_concurrency [--clients protocol|browser] [--seconds 60]
[--samples 5]`` (needs Chromium).
"""

import argparse
import multiprocessing
import shutil
import sys
import time

from bench.bench_pages import (
    _CONTROLS,
    _FINISHED_JS,
    _interact,
    _serve,
    _wait_for_run,
)
from bench.common import print_rows, sklearn_yardstick
from bench.protocol_session import keep_busy as keep_busy_by_protocol

# The heaviest pages: background experiments, refits, forests, searches.
BUSY_PAGES = ("conditioning", "instability", "cultivated", "evaluate", "split_bias")
_FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking"]


def _chromium():
    return (
        shutil.which("chromium")
        or shutil.which("chromium-browser")
        or shutil.which("google-chrome")
    )


def _keep_busy(url, path, until, runs, ready):
    """One session: open ``path`` and interact with its controls until ``until`` (a time.time()).

    ``ready`` counts the sessions whose page has opened (the load's steady state begins when
    all have).
    """
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=_chromium(), args=_FLAGS)
        page = browser.new_page(viewport={"width": 1440, "height": 900})
        page.goto(f"{url}/{path}")
        run = _wait_for_run(page, 0)
        with ready.get_lock():
            ready.value += 1
        kinds = list(_CONTROLS)
        turn = 0
        while time.time() < until:
            # A control at the end of its range changes nothing and starts no run: bounded wait.
            if _interact(page, kinds[turn % len(kinds)], 0) and _ran(page, run, until):
                run = page.evaluate(_FINISHED_JS)
                with runs.get_lock():
                    runs.value += 1
            turn += 1
        browser.close()


def _ran(page, after, until):
    """Whether a run numbered above ``after`` finishes before ``until`` (a time.time())."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    try:
        page.wait_for_function(
            f"() => ({_FINISHED_JS})() > {after}", timeout=max(1.0, until - time.time()) * 1000
        )
    except PlaywrightTimeout:
        return False
    return True


def _first_render(browser, url):
    """A new tab's first render of ``url``: (total, browser before, server, browser after) seconds.

    The parts follow the page's websocket: until the page sends its first
    message (loading and starting the app's JavaScript in the browser), until
    the server's last message of the run (the server runs the script and
    streams the page), and until the run's end mark shows (the browser draws).
    """
    page = browser.new_page(viewport={"width": 1440, "height": 900})
    sent, received = [], []

    def follow(socket):
        socket.on("framesent", lambda _frame: sent.append(time.perf_counter()))
        socket.on("framereceived", lambda _frame: received.append(time.perf_counter()))

    page.on("websocket", follow)
    start = time.perf_counter()
    page.goto(url)
    _wait_for_run(page, 0)
    end = time.perf_counter()
    page.close()
    asked = sent[0] if sent else start
    answered = max(received) if received else end
    return end - start, asked - start, answered - asked, end - answered


def _load(clients, url, until, counters):
    """The busy sessions, started: one process per browser, or one for the protocol sessions.

    ``counters`` are ``(runs, ready, errors)`` (``multiprocessing.Value``); the
    browser sessions count no errors.
    """
    runs, ready, _ = counters
    if clients == "browser":
        targets = [(_keep_busy, (url, path, until, runs, ready)) for path in BUSY_PAGES]
    else:
        targets = [(keep_busy_by_protocol, (url, BUSY_PAGES, until, counters))]
    processes = [multiprocessing.Process(target=t, args=a) for t, a in targets]
    for process in processes:
        process.start()
    return processes


def _stop(processes, until):
    """Wait for the busy sessions (a minute past ``until`` at most); the number that failed."""
    failed = 0
    for process in processes:
        process.join(timeout=max(0.0, until - time.time()) + 60)
        if process.is_alive():
            process.terminate()
            process.join()
        failed += process.exitcode != 0
    return failed


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", choices=("protocol", "browser"), default="protocol",
                        help="how the five busy sessions are driven (module docstring)")  # fmt: skip
    parser.add_argument("--seconds", type=float, default=60, help="how long the load lasts")
    parser.add_argument("--samples", type=int, default=5, help="sixth-session opens under load")
    args = parser.parse_args(argv)
    if _chromium() is None:
        sys.exit("No Chromium on this machine: apt-get install chromium.")
    from playwright.sync_api import sync_playwright

    with _serve() as url, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=_chromium(), args=_FLAGS)
        _first_render(browser, url)  # warm the server: imports, caches, compilation
        yardstick = sklearn_yardstick()
        idle = sorted((_first_render(browser, url) for _ in range(3)), key=lambda parts: parts[0])[
            1
        ]
        until = time.time() + args.seconds
        counters = tuple(multiprocessing.Value("i", 0) for _ in range(3))
        runs, ready, errors = counters
        sessions = _load(args.clients, url, until, counters)
        # Measure in the steady state: every session has opened its page and is interacting.
        while ready.value < len(BUSY_PAGES) and time.time() < until:
            time.sleep(0.2)
        loaded = []
        while len(loaded) < args.samples and time.time() < until:
            loaded.append(_first_render(browser, url))
        failed = _stop(sessions, until)
        browser.close()
    rows = [_row("idle server", 1, idle, idle[0], yardstick)]
    rows += [_row("under load", i + 1, parts, idle[0], yardstick) for i, parts in enumerate(loaded)]
    print(
        f"Five {args.clients} sessions kept {', '.join(BUSY_PAGES)} busy for {args.seconds:.0f} s "
        f"({runs.value} script runs); a sixth session opened the home page "
        "(seconds in all, then in the browser before the server, in the server, in the browser after):"
    )
    if failed or errors.value:
        print(f"Warning: {failed} load process(es) failed, {errors.value} run(s) showed an error.")
    header = [
        "server",
        "open",
        "seconds",
        "browser",
        "server",
        "browser",
        "x idle",
        "x sklearn fit",
    ]
    print_rows(header, rows)


def _row(label, number, parts, idle, yardstick):
    total, before, server, after = parts
    return [label, str(number), *(f"{v:.2f}" for v in (total, before, server, after)),
            f"{total / idle:.1f}", f"{total / yardstick:.0f}"]  # fmt: skip


if __name__ == "__main__":
    main()
