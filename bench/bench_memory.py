"""Peak memory of tree and forest fits against scikit-learn's (issue 30's target: 1.5x or below).

Usage: ``python -m bench.bench_memory [--quick]``

Each fit runs in a fresh process of its own (Linux: the resident size is read
from ``/proc/self/statm``): the process makes the data (``make_classification``,
15 features), fits once on a few rows so that every kernel is compiled, notes
its resident size, then fits on all the rows while a thread samples the
resident size every 2 ms. The figure is the largest sample minus the size
before the fit: the memory the fit itself needed above the data. Before the
size is noted, the C heap gives its free pages back to the system
(``malloc_trim``): otherwise a fit could reuse, unseen, the pages the
data's making freed (scikit-learn's 1e5-row fit measured 4 MB, less than
its own float32 copy of the data, 6 MB). Both
libraries are measured the same way in the same run; the ratio is ours /
scikit-learn's. A single tree is grown without limits; a forest has 10 trees
of depth 12 (a fully grown forest on 1e6 rows holds more nodes than either
library's working memory, which is not what this measures).
"""

import argparse
import json
import os
import subprocess
import sys
import threading
import time

from bench.common import print_rows

_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096
MODELS = {
    "tree": ("DecisionTreeClassifier", {}),
    "forest": ("RandomForestClassifier", {"n_estimators": 10, "max_depth": 12, "n_jobs": 1}),
}


def _resident_bytes():
    with open("/proc/self/statm") as handle:
        return int(handle.read().split()[1]) * _PAGE


def _peak_during(function):
    """(seconds, the largest resident size sampled while ``function()`` ran, in bytes)."""
    peak, done = [_resident_bytes()], threading.Event()

    def sample():
        while not done.is_set():
            peak[0] = max(peak[0], _resident_bytes())
            time.sleep(0.002)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    start = time.perf_counter()
    function()
    seconds = time.perf_counter() - start
    done.set()
    sampler.join()
    return seconds, max(peak[0], _resident_bytes())


def measure(library, model, n_rows):
    """Run in the child process: the fit's peak above the data, in MB, and its seconds."""
    import numpy as np
    from sklearn import ensemble as sk_ensemble
    from sklearn import tree as sk_tree
    from sklearn.datasets import make_classification

    import trees
    from datasets._memory import give_back_freed_memory

    module = trees if library == "trees" else (sk_ensemble if model == "forest" else sk_tree)
    name, params = MODELS[model]
    X, y = make_classification(n_samples=n_rows, n_features=15, n_informative=8, random_state=0)
    X = np.ascontiguousarray(X)
    estimator = getattr(module, name)(random_state=0, **params)
    estimator.fit(X[:500], y[:500])  # compile (or load) every kernel before measuring
    del estimator
    estimator = getattr(module, name)(random_state=0, **params)
    give_back_freed_memory()
    before = _resident_bytes()
    seconds, peak = _peak_during(lambda: estimator.fit(X, y))
    return {"peak_mb": (peak - before) / 2**20, "seconds": seconds}


def _child(library, model, n_rows):
    command = [sys.executable, "-m", "bench.bench_memory", "--child", library, model, str(n_rows)]
    output = subprocess.run(command, check=True, capture_output=True, text=True).stdout
    return json.loads(output.strip().splitlines()[-1])


def run(sizes):
    rows = []
    for n_rows in sizes:
        for model in MODELS:
            ours = _child("trees", model, n_rows)
            theirs = _child("sklearn", model, n_rows)
            rows.append([
                model, f"{n_rows:,}x15", f"{ours['peak_mb']:.0f}", f"{theirs['peak_mb']:.0f}",
                f"{ours['peak_mb'] / max(theirs['peak_mb'], 1.0):.2f}",
                f"{ours['seconds']:.1f}", f"{theirs['seconds']:.1f}",
            ])  # fmt: skip
    print_rows(["model", "rows", "ours MB", "sklearn MB", "ratio", "ours s", "sklearn s"], rows)
    return rows


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="1e5 rows only")
    parser.add_argument(
        "--child", nargs=3, metavar=("LIBRARY", "MODEL", "ROWS"), help=argparse.SUPPRESS
    )
    args = parser.parse_args()
    if args.child:
        library, model, n_rows = args.child
        print(json.dumps(measure(library, model, int(n_rows))))
    else:
        run([100_000] if args.quick else [100_000, 1_000_000])
