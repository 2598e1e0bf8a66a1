"""Timing helpers shared by the benchmarks: best-of-n wall clock and ratio tables."""

import time


def best_time(func, repeat=3):
    """Best wall-clock time of ``repeat`` calls of ``func`` (seconds) and its last result."""
    best, result = float("inf"), None
    for _ in range(repeat):
        start = time.perf_counter()
        result = func()
        best = min(best, time.perf_counter() - start)
    return best, result


def print_rows(header, rows):
    """Print a fixed-width table: ``header`` names, ``rows`` lists of cells."""
    widths = [max(len(str(h)), *(len(str(r[i])) for r in rows)) for i, h in enumerate(header)]
    line = "  ".join(str(h).rjust(w) for h, w in zip(header, widths, strict=True))
    print(line)
    print("-" * len(line))
    for row in rows:
        print("  ".join(str(c).rjust(w) for c, w in zip(row, widths, strict=True)))
