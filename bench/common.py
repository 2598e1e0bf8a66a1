"""Timing helpers shared by the benchmarks: interleaved medians, ratio tables, warm-up.

Timings on a shared machine are noisy: :func:`interleaved` alternates the
project's call and scikit-learn's, so both see the same load, and reports
the median of each. Ratios are project / scikit-learn (below 1: faster).
"""

import statistics
import time

from trees import warm_up

__all__ = ["best_time", "interleaved", "print_rows", "ratio", "warmed_up"]


def best_time(func, repeat=3):
    """Best wall-clock time of ``repeat`` calls of ``func`` (seconds) and its last result."""
    best, result = float("inf"), None
    for _ in range(repeat):
        start = time.perf_counter()
        result = func()
        best = min(best, time.perf_counter() - start)
    return best, result


def interleaved(ours, theirs, repeat=5):
    """Median wall-clock seconds of ``ours()`` and ``theirs()``, called alternately.

    Each is called once first, untimed (first-call costs such as imports).
    """
    ours()
    theirs()
    times_ours, times_theirs = [], []
    for _ in range(repeat):
        start = time.perf_counter()
        ours()
        times_ours.append(time.perf_counter() - start)
        start = time.perf_counter()
        theirs()
        times_theirs.append(time.perf_counter() - start)
    return statistics.median(times_ours), statistics.median(times_theirs)


def ratio(ours, theirs):
    """``ours / theirs`` formatted with two decimals."""
    return f"{ours / theirs:.2f}"


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
