"""Timing helpers shared by the benchmarks: interleaved medians, ratio tables, warm-up.

Timings on a shared machine are noisy: :func:`interleaved` alternates the
project's call and scikit-learn's, so both see the same load, and reports
the median of each. Ratios are project / scikit-learn (below 1: faster).
"""

import argparse
import statistics
import time

import numpy as np
from sklearn.tree import DecisionTreeClassifier

from trees import warm_up

__all__ = [
    "FIT_HEADER",
    "best_time",
    "fit_cells",
    "interleaved",
    "interleaved_calls",
    "nodes_cell",
    "print_rows",
    "ratio",
    "run_sizes_from_command_line",
    "size_cells",
    "sklearn_yardstick",
    "timing_cells",
    "warmed_up",
]


def best_time(func, repeat=3):
    """Best wall-clock time of ``repeat`` calls of ``func`` (seconds) and its last result."""
    best, result = float("inf"), None
    for _ in range(repeat):
        start = time.perf_counter()
        result = func()
        best = min(best, time.perf_counter() - start)
    return best, result


def interleaved(ours, theirs, repeat=5, clock=time.perf_counter):
    """Median seconds of ``ours()`` and ``theirs()``, called alternately.

    Each is called once first, untimed (first-call costs such as imports). ``clock``:
    wall-clock by default; ``time.process_time`` counts the CPU time of every thread of the
    process, steadier than wall-clock for single-threaded work on a shared machine.
    """
    return tuple(interleaved_calls([ours, theirs], repeat, clock))


def interleaved_calls(calls, repeat=5, clock=time.perf_counter):
    """Median seconds of each of ``calls``, called in turn ``repeat`` times (as
    :func:`interleaved`, for more than two)."""
    for call in calls:
        call()
    times = [[] for _ in calls]
    for _ in range(repeat):
        for call, spent in zip(calls, times, strict=True):
            start = clock()
            call()
            spent.append(clock() - start)
    return [statistics.median(spent) for spent in times]


def ratio(ours, theirs):
    """``ours / theirs`` formatted with two decimals."""
    return f"{ours / theirs:.2f}"


def size_cells(shape, max_depth):
    """A table's cells of a case's data and depth limit: its dimensions (``"1,000x10"``) and the
    limit, or ``"none"``."""
    return ["x".join(f"{n:,}" for n in shape), "none" if max_depth is None else max_depth]


def nodes_cell(ours, theirs):
    """``"ours / theirs"``: the nodes of two fitted trees, or of every tree of two forests."""

    def count(model):
        return sum(member.tree_.node_count for member in getattr(model, "estimators_", [model]))

    return f"{count(ours)} / {count(theirs)}"


# The header of :func:`fit_cells`' cells.
FIT_HEADER = ["nodes (sk)", "fit ms", "sk fit ms", "ratio"]


def fit_cells(ours, theirs, X, y, repeat):
    """Fit ``ours`` and ``theirs`` on ``(X, y)`` interleaved (:func:`interleaved`); a table's
    cells of their nodes and times (:data:`FIT_HEADER`)."""
    times = interleaved(lambda: ours.fit(X, y), lambda: theirs.fit(X, y), repeat)
    return [nodes_cell(ours, theirs), *timing_cells(*times)]


def timing_cells(ours, theirs):
    """A table's three cells of one timing: ours and the reference's in ms, and their ratio."""
    return [f"{ours * 1e3:.1f}", f"{theirs * 1e3:.1f}", ratio(ours, theirs)]


def warmed_up():
    """Compile or load the kernels before timing anything; return the seconds it took."""
    start = time.perf_counter()
    warm_up()
    return time.perf_counter() - start


def print_rows(header, rows):
    """Print a fixed-width table: ``header`` names, ``rows`` lists of cells."""
    widths = [max(len(str(h)), *(len(str(r[i])) for r in rows)) for i, h in enumerate(header)]
    line = "  ".join(str(h).rjust(w) for h, w in zip(header, widths, strict=True))
    print(line)
    print("-" * len(line))
    for row in rows:
        print("  ".join(str(c).rjust(w) for c, w in zip(row, widths, strict=True)))


def run_sizes_from_command_line(run, description, cases):
    """``run(cases)``, or with ``--quick`` the two smaller sizes at 5 repeats
    (``cases`` are ``(rows, features, max_depth, repeats)``)."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--quick", action="store_true", help="the two smaller sizes, 5 repeats")
    args = parser.parse_args()
    run([(n, f, d, 5) for n, f, d, _ in cases[:2]] if args.quick else cases)


def sklearn_yardstick(repeat=5):
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
