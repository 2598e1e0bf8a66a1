"""How fit time grows with the number of rows, against scikit-learn (issue 13).

Usage: ``python -m bench.bench_scaling [--quick]``

Unbounded classification trees on ``make_classification`` data with 10
features, from 1,000 to 1,000,000 rows (10,000 with ``--quick``: to 100,000).
Prints each size's median fit time (interleaved with scikit-learn's) and the
exponent ``b`` of ``time = a n^b`` fitted by least squares on log-log axes,
for both: an exponent near 1 is linear growth; sorting makes CART's ideal
about ``n log n``.
"""

import argparse

import numpy as np
from sklearn import tree as sktree
from sklearn.datasets import make_classification

from bench.common import interleaved, print_rows, ratio, warmed_up
from trees import DecisionTreeClassifier

SIZES = [1_000, 10_000, 100_000, 1_000_000]


def exponent(sizes, seconds):
    """Slope of log(seconds) against log(sizes), least squares."""
    return float(np.polyfit(np.log(sizes), np.log(seconds), 1)[0])


def run(sizes=SIZES):
    print(f"warm_up: {warmed_up():.2f} s")
    rows, ours_times, their_times = [], [], []
    for n in sizes:
        X, y = make_classification(n_samples=n, n_features=10, n_informative=5, random_state=0)
        repeat = 7 if n <= 10_000 else (3 if n <= 100_000 else 1)
        ours, theirs = interleaved(
            lambda X=X, y=y: DecisionTreeClassifier().fit(X, y),
            lambda X=X, y=y: sktree.DecisionTreeClassifier().fit(X, y),
            repeat,
        )
        ours_times.append(ours)
        their_times.append(theirs)
        rows.append([f"{n:,}", f"{ours:.3f}", f"{theirs:.3f}", ratio(ours, theirs)])
    print_rows(["rows", "project s", "sklearn s", "ratio"], rows)
    print(
        f"fitted exponent: project {exponent(sizes, ours_times):.2f}, "
        f"scikit-learn {exponent(sizes, their_times):.2f}"
    )
    return rows


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="1,000 to 100,000 rows")
    run(SIZES[:3] if parser.parse_args().quick else SIZES)
