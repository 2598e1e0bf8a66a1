"""The server's memory when the same large file is uploaded under several names, and after.

Usage: ``python -m bench.bench_upload_memory [--mb 20] [--names 4]`` (needs Chromium).

Serves the app, warms it up with a small upload (the compiled kernels, the
upload worker and the pages' modules load once per server), then, in one
headless browser session per name, uploads the same CSV under another file
name on the Data page, uses it, and opens the grow page from the sidebar's
menu, as a user moves through the app (issue 33, item 1: four names took
the server from 530 MB to 6,978 MB). The server's resident memory (its
process and its children, as ``ps`` reports it) is printed twice per name,
against the table's size once parsed (pandas' in-memory size): once the
upload is in use and the run that shows it has ended (the kept upload: its
file, compressed, its parsed table and the dataset built on it; for the first
name also a minute later, once the app's sweep gave back what the page's run
freed), then with the grow page open (its working state: the training rows,
and each session's grower with its rows sorted per feature). It is printed again once every session has closed and the
server has released them: the server runs with
``server.disconnectedSessionTTL`` of 5 s, Streamlit drops expired sessions
when it stores the next closed one (so a visitor comes and goes), and the
app's sweep collects them within a minute.

The reference measured in the same run is the parsed table itself: the
target is that a kept upload costs at most 3x its parsed size, that a
second name costs little more than a session's own working state, and that
closing the sessions gives the memory back.
"""

import argparse
import io
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from urllib.parse import urlparse

import numpy as np
import pandas as pd

from bench.common import print_rows

ROOT = Path(__file__).resolve().parent.parent
RUN_TIMEOUT_MS = 600_000
# The app's sweep releases an ended session's data within a minute (its ``ui.cache_budget``): the
# benchmark, an outsider that drives the app through a browser, waits that long.
SESSION_SWEEP_SECONDS = 60.0
_SESSION_TTL = 5  # seconds a closed browser's session lives on (the server's setting)
_FINISHED_JS = """() => Number((document.querySelector('.run-finished') || {dataset: {run: 0}})
    .dataset.run) || 0"""


def _csv(megabytes, seed=0):
    """A CSV of about ``megabytes`` MB: 20 numeric columns and a two-class target."""
    rng = np.random.default_rng(seed)
    n_rows = max(1000, int(megabytes * 1024 * 1024 / 190))
    table = pd.DataFrame(
        rng.normal(size=(n_rows, 20)).round(5), columns=[f"x{i}" for i in range(20)]
    )
    table["label"] = np.where(table["x0"] + rng.normal(size=n_rows) > 0, "yes", "no")
    text = table.to_csv(index=False).encode()
    parsed = pd.read_csv(io.BytesIO(text))
    return text, int(parsed.memory_usage(deep=True).sum())


def _free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def rss_megabytes(pid):
    """Resident memory of ``pid`` and its descendants, in MB (``ps``: Linux and macOS)."""
    table = subprocess.run(
        ["ps", "-A", "-o", "pid=,ppid=,rss="], capture_output=True, text=True
    ).stdout
    rows = [tuple(int(v) for v in line.split()) for line in table.splitlines() if line.strip()]
    family, grew = {pid}, True
    while grew:
        more = {p for p, parent, _ in rows if parent in family} - family
        family |= more
        grew = bool(more)
    return sum(rss for p, _, rss in rows if p in family) / 1024


def _serve(data_dir):
    port = _free_port()
    command = [sys.executable, "-m", "streamlit", "run", "app.py", "--server.port", str(port),
               "--server.headless", "true", "--server.disconnectedSessionTTL", str(_SESSION_TTL)]  # fmt: skip
    env = {**os.environ, "TREE_BIAS_LAB_DATA": str(data_dir)}
    process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    for _ in range(600):
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=1):
                return process, url
        except OSError:
            time.sleep(0.3)
    process.kill()
    raise RuntimeError("the app did not start")


def _wait_for_run(page, after=0):
    page.wait_for_function(f"() => ({_FINISHED_JS})() > {after}", timeout=RUN_TIMEOUT_MS)
    return page.evaluate(_FINISHED_JS)


def upload_and_use(context, url, path):
    """In a new page of ``context``: upload ``path`` on the Data page and use it (one session,
    as a user moves through the app); the page and the number of its finished runs."""
    page = context.new_page()
    page.goto(f"{url}/data", wait_until="commit", timeout=RUN_TIMEOUT_MS)
    run = _wait_for_run(page)
    page.get_by_role("tab", name="Upload your own").click()
    page.locator('[data-testid="stFileUploader"] input[type="file"]').set_input_files(str(path))
    use = page.get_by_role("button", name="Use this table")
    use.wait_for(timeout=RUN_TIMEOUT_MS)
    run = _wait_for_run(page, run)
    use.click()
    page.wait_for_function(
        f"""() => document.querySelector('[data-testid="stSidebar"]').innerText.includes({path.stem!r})""",
        timeout=RUN_TIMEOUT_MS,
    )
    # The click's run makes the table current and reruns the page to show it: the second run
    # after the click has ended (the name shows in the sidebar while it still runs).
    return page, _wait_for_run(page, run + 1)


def open_grow_page(page, run):
    """Open the grow page from the sidebar's menu of ``page`` (``run``: its finished runs)."""
    page.locator('[data-testid="stSidebar"] a[href$="/grow"]').first.click()
    page.wait_for_url(lambda address: urlparse(address).path.endswith("/grow"),
                      wait_until="commit", timeout=RUN_TIMEOUT_MS)  # fmt: skip
    _wait_for_run(page, run)


def measure(megabytes, n_names, chromium="/usr/bin/chromium"):
    """Rows of (step, server MB, growth over the idle server, growth / parsed size)."""
    from playwright.sync_api import sync_playwright

    text, parsed = _csv(megabytes)
    with tempfile.TemporaryDirectory() as folder:
        process, url = _serve(Path(folder) / "data")
        rows = []
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(
                    executable_path=chromium, args=["--no-sandbox"]
                )
                warm = browser.new_context()
                # A small table first: the kernels, the upload worker and the pages' modules load.
                small = Path(folder) / "warm-up.csv"
                small.write_bytes(_csv(0.05, seed=1)[0])
                open_grow_page(*upload_and_use(warm, url, small))
                idle = rss_megabytes(process.pid)
                rows.append(("warm server, one small upload", idle, 0.0, 0.0))

                def measured(step):
                    now = rss_megabytes(process.pid)
                    rows.append((step, now, now - idle, (now - idle) * 2**20 / parsed))

                contexts = []
                for i in range(n_names):
                    path = Path(folder) / f"table-{i + 1}.csv"
                    path.write_bytes(text)
                    contexts.append(browser.new_context())
                    page, run = upload_and_use(contexts[-1], url, path)
                    measured(f"{path.name} in use")
                    if i == 0:  # the passing copies of the page's run given back: what is kept
                        time.sleep(SESSION_SWEEP_SECONDS + 5)
                        measured(f"{path.name} in use, a sweep later")
                    open_grow_page(page, run)
                    measured(f"{path.name}, grow page open")
                for context in contexts:
                    context.close()
                # Streamlit drops closed sessions whose TTL has passed when it stores the next
                # closed one (its store expires entries as it writes): a visitor comes and goes,
                # then the app's sweep collects the dropped sessions and releases their data.
                time.sleep(_SESSION_TTL + 1)
                visitor = browser.new_context()
                _wait_for_run(_open(visitor, url))
                visitor.close()
                time.sleep(SESSION_SWEEP_SECONDS + 10)
                measured("sessions closed")
                browser.close()
        finally:
            process.terminate()
            process.wait(timeout=30)
    return rows, len(text), parsed


def _open(context, url):
    page = context.new_page()
    page.goto(url, wait_until="commit", timeout=RUN_TIMEOUT_MS)
    return page


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=float, default=20.0, help="size of the CSV, in MB")
    parser.add_argument("--names", type=int, default=4, help="how many names to upload it under")
    args = parser.parse_args()
    rows, file_bytes, parsed = measure(args.mb, args.names)
    print(
        f"CSV: {file_bytes / 2**20:.1f} MB on disk, {parsed / 2**20:.1f} MB parsed (the reference)"
    )
    print_rows(
        ["step", "server MB", "growth MB", "growth / parsed"],
        [
            (step, f"{mb:,.0f}", f"{growth:+,.0f}", f"{ratio:.2f}")
            for step, mb, growth, ratio in rows
        ],
    )


if __name__ == "__main__":
    main()
