"""What a new machine waits for: the lab's first start on an empty kernel cache (issue 56).

The kernels compile on a machine's first use and load from numba's on-disk cache after that.
Every measurement here runs in new processes on a kernel cache of its own, an empty
``NUMBA_CACHE_DIR`` ("cold": a machine that never compiled them), then the same folder,
filled ("warm"). It prints:

* **the first single-tree fit**: ``DecisionTreeClassifier().fit`` on 200 rows in a new
  process, its CPU time (user + system, in seconds) and the process's peak memory;
* **the compiling**: every part of the kernels (``trees.kernels.PARTS``) compiled as the app
  compiles them, in worker processes (``lab.kernels``): their CPU and the largest worker's
  peak memory; and, for comparison with the figures before issue 56, all of it in one
  process;
* **each page's first answer**: ``streamlit run app.py`` started on the cache, the page
  opened at once in headless Chromium: the seconds from the server's start to the end of
  the page's first run (the frame's run-finished marker, ``ui/shell.py``: the app's own
  state, no fixed wait), the CPU of the server and its workers by then, the largest peak
  memory among them, and the last progress message the page showed, if any; then the seconds
  until the page is **complete**: a part the page draws once its kernels are ready (the
  Evaluate and Cultivated pages' random forest, ``PageSpec.later_kernels``) drawn, no progress
  message left on the page for a second (the same as the first answer where the page waits
  for nothing more).

As every benchmark of the project it prints a ratio to a reference measured in the same
run: a scikit-learn tree fitted in a new process, its import included (the first start of
a library that compiles nothing), and the first-answer times divided by it.

Wall times depend on the machine's load; CPU times and peak memory much less.

Run: ``python -m bench.bench_cold_start`` (needs Chromium; ``--pages home,grow`` to pick
pages, ``--skip-compile`` to leave out the compiling table, which takes minutes,
``--skip-one-process`` to compile in the workers only, ``--skip-pages`` for the compiling
alone, ``--what-compiles`` to list the functions the first fit compiles: how often, for how
many signatures, and their own CPU, from numba's compile events). The file runs in a checkout from before issue 56 too: copied there, it measures the
same things of that code, for a before-and-after in the same period.
"""

import argparse
import contextlib
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from types import SimpleNamespace

from bench.common import print_rows

ROOT = Path(__file__).resolve().parent.parent


def app_pages():
    """The app's pages, home first: a page is a package of ``app_pages/`` whose script bears
    its name (``app_pages/grow/grow.py``, at ``/grow``); the home page is at ``/``. Read from
    the folders, as a visitor reaches them by address: the benchmarks import no ``ui``."""
    names = sorted(p.parent.name for p in (ROOT / "app_pages").glob("*/*.py")
                   if p.stem == p.parent.name)  # fmt: skip
    return [SimpleNamespace(url_path=name, default=name == "home")
            for name in sorted(names, key=lambda name: name != "home")]  # fmt: skip


_FIRST_FIT = """
import json, time
t0 = time.process_time()
import numpy as np
from trees import DecisionTreeClassifier
t1, w1 = time.process_time(), time.perf_counter()
rng = np.random.default_rng(0)
X = rng.normal(size=(200, 5)); y = (X[:, 0] > 0).astype(int)
DecisionTreeClassifier().fit(X, y)
print(json.dumps({"fit_cpu": time.process_time() - t1, "fit_wall": time.perf_counter() - w1}))
"""
# Code run with numba's compile events (``numba.core.event``, "numba:compile": one event per
# function compiled, nested as the calls that compile them): each function's compiles, its
# signatures, and its own CPU (this thread's, less the functions its typing compiled).
_COMPILES_OF = """
import json, time
from collections import defaultdict
from numba.core import event
found, open_ = defaultdict(lambda: [0, set(), 0.0]), []
class Compiles(event.Listener):
    def on_start(self, e):
        function = getattr(e.data["dispatcher"], "py_func", None)
        name = getattr(function, "__qualname__", str(e.data["dispatcher"]))
        open_.append([name, str(e.data["args"]), time.thread_time(), 0.0])
    def on_end(self, e):
        name, signature, start, inner = open_.pop()
        spent = time.thread_time() - start
        found[name][0] += 1; found[name][1].add(signature); found[name][2] += spent - inner
        if open_:
            open_[-1][3] += spent
with event.install_listener("numba:compile", Compiles()):
    exec(WORKLOAD)
print(json.dumps([[n, c, len(s), t] for n, (c, s, t) in found.items()]))
"""
_FIT_WORKLOAD = """
import numpy as np
from trees import DecisionTreeClassifier
rng = np.random.default_rng(0)
X = rng.normal(size=(200, 5)); y = (X[:, 0] > 0).astype(int)
DecisionTreeClassifier().fit(X, y)
"""
_SKLEARN_FIT = """
import numpy as np
from sklearn.tree import DecisionTreeClassifier
rng = np.random.default_rng(0)
X = rng.normal(size=(200, 5)); y = (X[:, 0] > 0).astype(int)
DecisionTreeClassifier().fit(X, y)
"""
_ALL_IN_ONE = """
try:
    from trees.kernels import PARTS, warm_up_part
except ImportError:  # a tree from before the kernels' parts: its one warm-up, as its app ran it
    from trees import warm_up
    from trees.interop import warm_up as warm_up_interop
    warm_up()
    warm_up_interop()
else:
    for name in PARTS:
        warm_up_part(name)
"""
_IN_WORKERS = """
import json, time
from lab.kernels import KernelPreparation
from ui.engine import background_order
preparation = KernelPreparation()
start = time.perf_counter()
requests = preparation.request_parts(background_order())
preparation.wait(requests)
wall = time.perf_counter() - start
preparation.close()
print(json.dumps({"wall": wall, "failed": [r.what for r in requests if r.state != "done"],
                  "costs": [c for r in requests
                            for c in getattr(r, "worker_costs", [r.worker_cost])]}))
"""
_MESSAGE_JS = """() => {
    const marks = document.querySelectorAll('.run-finished');
    const alert = Array.from(document.querySelectorAll('[data-testid="stAlert"]'))
        .map(a => a.innerText).find(t => t.includes('Preparing the tree engine'));
    return [marks.length, alert || ''];
}"""


def _python(code, cache, timeout=3600):
    """Run ``code`` in a new Python on the kernel cache ``cache``: ``(stdout, CPU seconds, peak
    MB, wall seconds)`` of that process (its own figures, read when it ends)."""
    env = dict(os.environ, NUMBA_CACHE_DIR=str(cache))
    start = time.perf_counter()
    process = subprocess.Popen([sys.executable, "-c", code], cwd=ROOT, env=env,
                               stdout=subprocess.PIPE, text=True)  # fmt: skip
    output = process.stdout.read()
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode:
        sys.exit(f"A measurement failed (exit {process.returncode}).")
    wall = time.perf_counter() - start
    return output, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, wall


def _first_fit(cache):
    output, cpu, peak, wall = _python(_FIRST_FIT, cache)
    return json.loads(output.strip().splitlines()[-1]), cpu, peak, wall


def compiles_of(workload, cache):
    """What running the code ``workload`` compiles, in a new Python on the kernel cache ``cache``:
    ``([name, compiles, signatures, own CPU s], ...)`` by function, the costliest first, and
    the process's CPU seconds."""
    code = f"WORKLOAD = {workload!r}\n{_COMPILES_OF}"
    output, cpu, _, _ = _python(code, cache)
    return sorted(json.loads(output.strip().splitlines()[-1]), key=lambda row: -row[3]), cpu


def _what_compiles(cache, shown=25):
    """Print what the first fit compiles (:func:`compiles_of`), the costliest first."""
    found, cpu = compiles_of(_FIT_WORKLOAD, cache)
    print(f"\nWhat the first fit compiles: {len(found)} functions, "
          f"{sum(row[1] for row in found)} compiles, {cpu:.1f} s of the process's CPU")  # fmt: skip
    rows = [[f"{spent:.2f}", compiles, signatures, name[:70]]
            for name, compiles, signatures, spent in found[:shown]]  # fmt: skip
    print_rows(["own CPU s", "compiles", "signatures", "function"], rows)


def _compile_in_workers(cache):
    """Every part, as the app's workers compile it: ``(CPU s, largest peak MB, workers, wall)``."""
    output, _, _, _ = _python(_IN_WORKERS, cache)
    result = json.loads(output.strip().splitlines()[-1])
    if result["failed"]:
        sys.exit(f"The workers failed on {result['failed']}.")
    # A worker's figures are its totals so far: each worker's last request gives its own.
    costs, last = [], None
    for cost in result["costs"]:
        if last is not None and cost["cpu_s"] < last["cpu_s"]:
            costs.append(last)  # a new worker began
        last = cost
    costs.append(last)
    cpu = sum(c["cpu_s"] for c in costs)
    return cpu, max(c["peak_mb"] for c in costs), len(costs), result["wall"]


def _compile_table(workdir, one_process=True):
    """Print the compiling's figures: in the app's workers, and all of it in one process (the
    only row for a tree from before the workers, which has no ``lab.kernels``)."""
    rows = []
    if (ROOT / "lab" / "kernels.py").exists():
        cpu, peak, workers, wall = _compile_in_workers(workdir / "workers")
        rows.append(["the app's workers", f"{cpu:.1f}", f"{wall:.1f}", f"{peak:.0f}", workers])
    if one_process or not rows:
        _, one_cpu, one_peak, one_wall = _python(_ALL_IN_ONE, workdir / "one-process")
        rows.append(["one process", f"{one_cpu:.1f}", f"{one_wall:.1f}", f"{one_peak:.0f}", 1])
    print("\nCompiling every part of the kernels on an empty cache")
    print_rows(["how", "CPU s", "wall s", "peak MB", "processes"], rows)


def _free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _proc_figures(pid):
    """``(CPU seconds of the process, peak MB)`` from /proc (Linux)."""
    ticks = os.sysconf("SC_CLK_TCK")
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        with open(f"/proc/{pid}/status") as status:
            peak = next(int(line.split()[1]) for line in status if line.startswith("VmHWM"))
    except (OSError, StopIteration):
        return 0.0, 0.0
    # utime and stime: fields 14 and 15 of stat, 12 and 13 after the command's name (not its
    # children's: each worker is read on its own while it lives).
    return sum(int(v) for v in fields[11:13]) / ticks, peak / 1024


def _descendants(pid):
    found, frontier = [], [pid]
    while frontier:
        parent = frontier.pop()
        try:  # a worker may end between being found and being read
            tasks = list(Path(f"/proc/{parent}/task").iterdir())
        except OSError:
            continue
        for task in tasks:
            with contextlib.suppress(OSError):
                children = [int(c) for c in (task / "children").read_text().split()]
                found += children
                frontier += children
    return found


@contextlib.contextmanager
def _server(cache):
    """``streamlit run app.py`` on the kernel cache ``cache``: ``(process, url, started)``."""
    port = _free_port()
    env = dict(os.environ, NUMBA_CACHE_DIR=str(cache), STREAMLIT_BROWSER_GATHER_USAGE_STATS="false")
    env.pop("TREE_BIAS_LAB_KERNEL_WORKER", None)  # the app as users run it: with its worker
    started = time.perf_counter()
    command = [sys.executable, "-m", "streamlit", "run", "app.py", "--server.port", str(port),
               "--server.headless", "true", "--server.address", "127.0.0.1",
               "--server.fileWatcherType", "none"]  # fmt: skip
    process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    try:
        while True:
            health = f"{url}/_stcore/health"
            with contextlib.suppress(OSError), urllib.request.urlopen(health, timeout=2):
                break
            time.sleep(0.1)
        yield process, url, started
    finally:
        process.terminate()
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:  # a loaded machine: it must not end the benchmark
            process.kill()
            process.wait()


def _first_answer(browser, cache, spec):
    """Serve the app on ``cache`` and open ``spec``'s page: ``(seconds from the server's start
    to the page's first answer, CPU s of the server and workers until the page is complete, the
    server's peak MB, the largest worker's peak MB, the page's last progress message before its
    first answer, seconds until it is complete)``."""
    with _server(cache) as (process, url, started):
        page = browser.new_page(viewport={"width": 1440, "height": 900})
        page.goto(f"{url}/{'' if spec.default else spec.url_path}")
        message, peaks, cpu_of = "", {}, {}
        seconds = quiet_since = None
        while True:
            marks, shown = page.evaluate(_MESSAGE_JS)
            said = [line for line in shown.splitlines() if "Preparing" in line]
            if seconds is None:  # what the page said before its first answer
                message = said[0] if said else message
            for pid in [process.pid, *_descendants(process.pid)]:
                # A worker that ended meanwhile reads as 0: keep its last figures.
                cpu, peak = _proc_figures(pid)
                cpu_of[pid] = max(cpu_of.get(pid, 0.0), cpu)
                peaks[pid] = max(peaks.get(pid, 0.0), peak)
            if marks and seconds is None:
                seconds = time.perf_counter() - started
            quiet_since = None if shown or not marks else quiet_since or time.perf_counter()
            if quiet_since is not None and time.perf_counter() - quiet_since >= 1.0:
                complete = quiet_since - started
                break
            if time.perf_counter() - started > 900:
                sys.exit(f"{spec.url_path}: no answer within 900 s.")
            time.sleep(0.1)
        page.close()
    server_peak = peaks.pop(process.pid)
    cpu = sum(cpu_of.values())
    return seconds, cpu, server_peak, max(peaks.values(), default=0.0), message, complete


def _pages_table(browser, chosen, workdir, reference):
    rows = []
    for spec in chosen:
        cache = workdir / f"page-{spec.url_path}"
        cold = _first_answer(browser, cache, spec)
        warm = _first_answer(browser, cache, spec)
        print(f"{spec.url_path}: cold {cold[0]:.1f} s, warm {warm[0]:.1f} s", file=sys.stderr)
        rows.append([spec.url_path, f"{cold[0]:.1f}", f"{cold[0] / reference:.0f}",
                     f"{cold[5]:.1f}", f"{cold[1]:.1f}", f"{cold[2]:.0f}", f"{cold[3]:.0f}",
                     f"{warm[0]:.1f}", f"{warm[0] / reference:.0f}", f"{warm[1]:.1f}",
                     f"{warm[2]:.0f}", cold[4] or "-"])  # fmt: skip
    return rows


def _chromium():
    path = (
        shutil.which("chromium")
        or shutil.which("chromium-browser")
        or shutil.which("google-chrome")
    )
    if path is None:
        sys.exit("No Chromium on this machine: apt-get install chromium.")
    return path


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", help="comma-separated url paths (default: every page)")
    parser.add_argument("--skip-compile", action="store_true", help="leave out the compiling")
    parser.add_argument("--skip-one-process", action="store_true",
                        help="compile in the app's workers only, not also all in one process")  # fmt: skip
    parser.add_argument("--skip-pages", action="store_true", help="leave out the pages")
    parser.add_argument("--what-compiles", action="store_true",
                        help="list what the first fit compiles, function by function")  # fmt: skip
    args = parser.parse_args(argv)
    chosen = [p for p in app_pages() if not args.pages or p.url_path in args.pages.split(",")]
    with tempfile.TemporaryDirectory(prefix="cold-start-") as folder:
        workdir = Path(folder)
        _, reference, _, reference_wall = _python(_SKLEARN_FIT, workdir / "unused")
        print(f"Reference: a scikit-learn tree fitted in a new process, import included: "
              f"{reference_wall:.2f} s wall, {reference:.2f} s CPU ({os.cpu_count()} cores)\n")  # fmt: skip
        fit_rows = []
        for label in ("cold", "warm"):
            fit, cpu, peak, wall = _first_fit(workdir / "first-fit")
            fit_rows.append([label, f"{fit['fit_cpu']:.1f}", f"{fit['fit_wall']:.1f}",
                             f"{cpu:.1f}", f"{peak:.0f}", f"{cpu / reference:.1f}"])  # fmt: skip
        print("The first single-tree fit (200 rows) in a new process")
        print_rows(["cache", "fit CPU s", "fit wall s", "process CPU s", "peak MB",
                    "CPU ratio"], fit_rows)  # fmt: skip
        if args.what_compiles:
            _what_compiles(workdir / "what-compiles")
        if not args.skip_compile:
            _compile_table(workdir, one_process=not args.skip_one_process)
        if args.skip_pages:
            return
        from playwright.sync_api import sync_playwright

        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path=_chromium(), args=["--no-sandbox", "--disable-gpu"]
            )
            rows = _pages_table(browser, chosen, workdir, reference_wall)
            browser.close()
    print("\nEach page's first answer, opened first on a new server (seconds from its start)")
    print_rows(["page", "cold s", "ratio", "complete s", "CPU s", "server MB", "worker MB",
                "warm s", "ratio", "CPU s", "server MB", "the page said (cold)"], rows)  # fmt: skip
    print(f"\nratio: seconds / the reference's {reference_wall:.2f} s; complete: the parts drawn "
          "once their kernels are ready drawn too; CPU: the server and its workers until then; "
          "MB: peak resident memory (the largest worker's); wall times depend on this machine's "
          "load.")  # fmt: skip


if __name__ == "__main__":
    main()
