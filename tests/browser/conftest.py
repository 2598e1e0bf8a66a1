"""The browser-test harness: the app served on a free localhost port, driven by headless Chromium.

Every later page is picked up from ``ui.navigation.PAGES`` without editing the
tests. Screenshots go to ``test-artifacts/screenshots/``.
"""

import contextlib
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts" / "screenshots"
CHROMIUM_FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def _free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


# Where a Chromium-family browser lives: Debian's package, or the macOS applications.
_BROWSER_COMMANDS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
_BROWSER_APPS = (
    "/Applications/Chromium.app/Contents/MacOS/Chromium",
    "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome",
)


def _chromium_path():
    """The browser to drive; without one the browser tests skip, except in CI where they fail."""
    for name in _BROWSER_COMMANDS:
        path = shutil.which(name)
        if path:
            return path
    for path in _BROWSER_APPS:
        if os.path.exists(path):
            return path
    message = (
        "No Chromium or Chrome on this machine (Debian: apt-get install chromium; .ci/run does it)."
    )
    if os.environ.get("TREE_BIAS_LAB_REQUIRE_BROWSER"):
        pytest.fail(message)
    pytest.skip(message)


@contextlib.contextmanager
def serve_app(environment=None):
    """Serve app.py on a free localhost port; yield its URL; stop it afterwards.

    ``environment``: variables to set for the server besides the suite's (a kernel cache of
    its own, the kernels' worker on).
    """
    port = _free_port()
    env = dict(os.environ, STREAMLIT_BROWSER_GATHER_USAGE_STATS="false", **(environment or {}))
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
            "--server.address",
            "127.0.0.1",
            # The code under test is the code the server started with: an edit made while
            # the suite runs neither reloads the pages nor costs the watcher's polling.
            "--server.fileWatcherType",
            "none",
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as response:
                if response.status == 200:
                    break
        except OSError:
            time.sleep(0.3)
    else:
        process.kill()
        output = process.stdout.read().decode(errors="replace") if process.stdout else ""
        pytest.fail(f"The app did not start within 180 s:\n{output[-3000:]}")
    try:
        yield url
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()


@pytest.fixture(scope="session")
def app_url():
    """One server for the whole session."""
    with serve_app() as url:
        yield url


@pytest.fixture
def fresh_app_url():
    """A server of its own, for tests about the first request a server sees."""
    with serve_app() as url:
        yield url


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=_chromium_path(), args=CHROMIUM_FLAGS)
        yield chromium
        chromium.close()


# Generous bounds: they only matter when the app is broken; a loaded machine must not fail a test.
RUN_TIMEOUT_S = 600
_FINISHED_JS = """() => {
    const marks = document.querySelectorAll('.run-finished');
    return marks.length ? Math.max(...Array.from(marks, m => Number(m.dataset.run))) : 0;
}"""
_RUNNING_JS = """() => {
    const header = document.querySelector('[data-testid="stHeader"]');
    const stop = header && Array.from(header.querySelectorAll('button')).some(b => b.innerText.trim() === 'Stop');
    return Boolean(stop || document.querySelector('[data-testid="stStatusWidget"]'));
}"""


def finished_runs(page):
    """The number of the last script run the app finished in this browser page (0: none yet)."""
    return page.evaluate(_FINISHED_JS)


def wait_for_run(page, after=0, timeout_s=RUN_TIMEOUT_S):
    """Wait until the app has finished a script run numbered above ``after``, and return its number.

    The frame (``ui/shell.py``) ends every run with a marker numbered by the session's runs,
    so this waits on the app's own state, however slow the machine. Plotly charts and the
    elements Streamlit loads on demand then get the time they need to draw (waited for, not
    slept).
    """
    page.wait_for_function(
        f"() => ({_FINISHED_JS})() > {int(after)} && !({_RUNNING_JS})()", timeout=timeout_s * 1000
    )
    page.wait_for_function(
        """() => Array.from(document.querySelectorAll('[data-testid="stPlotlyChart"]'))
                 .every(c => c.querySelector('.main-svg'))""",
        timeout=timeout_s * 1000,
    )
    # An element whose code Streamlit loads on demand (a chart's, a table's) stands as a
    # skeleton until it is there: on a loaded machine the key picture could still be one.
    page.wait_for_function(
        """() => !document.querySelector('[data-testid="stMain"] [data-testid="stSkeleton"]')""",
        timeout=timeout_s * 1000,
    )
    return finished_runs(page)


def upload_and_use(page, path):
    """On the Data page open in ``page``: upload the table at ``path`` and press "Use this table".

    Waits until the table is in use and shown: the click's run makes it current and asks for
    a rerun (``app_pages/data/feedback.py``), whose end is the number returned.
    """
    page.get_by_role("tab", name="Upload your own").click()  # a tab opens without a run
    run = wait_for_run(page)
    page.locator('[data-testid="stFileUploader"] input[type="file"]').set_input_files(str(path))
    use = page.get_by_role("button", name="Use this table")
    use.wait_for(timeout=RUN_TIMEOUT_S * 1000)
    run = wait_for_run(page, run)
    use.click()
    page.wait_for_function(
        f"""() => document.querySelector('[data-testid="stSidebar"]').innerText
                  .includes({path.stem!r})""",
        timeout=RUN_TIMEOUT_S * 1000,
    )
    return wait_for_run(page, run + 1)


def app_error_boxes(page):
    """The texts of the app's own error boxes on the page (``ui.errors.UNEXPECTED``): the app
    catches a part's exception and says so in an ``st.error``, which is no ``stException``."""
    from ui.errors import UNEXPECTED

    alerts = page.locator('[data-testid="stAlert"]')
    return [text for text in alerts.all_inner_texts() if UNEXPECTED in text]


@pytest.fixture(scope="session")
def screenshot_dir():
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS
