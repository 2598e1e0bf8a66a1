"""The one compiled tree walk under its two schedules and two tests, against scikit-learn.

Usage: ``python -m bench.bench_walks [--quick] [--only TEXT]``

``trees``, its forests and ``trees.interop`` walk their trees with one walk
(``trees/tree/_kernels_traversal.py``): one node format (``trees/tree/_node_records.py``)
and one step, under two schedules: ``"tree by tree"`` (all the rows through a tree before
the next, eight lanes refilled as rows reach their leaves) and ``"lock-step"`` (256 rows
through every tree, 32 in lock-step). ``walk_schedule`` takes lock-step for shallow trees and
tree by tree for deep ones, under one test or both (``"average"``: under either schedule a
row's two paths step together, sharing each node until they part).

The same fitted scikit-learn models are read by ``trees.interop.from_model``, and the walk
sums the leaf values of 50,000 other rows in one call on one thread, under ``x <= t`` and
under ``"average"``, by each schedule (CPU time, medians of calls interleaved,
``bench.common.interleaved_calls``); beside it scikit-learn's own ``predict_proba``
(``decision_function`` for the boosted trees) on the same rows with ``n_jobs=1``: a single
tree grown to purity on 10,000 rows, one of depth 8 on 100,000 rows, a random forest of 100
trees of depth 16 and of unbounded depth, and 300 boosted trees of depth 6. Ratios are the
walk's time over scikit-learn's (one prediction; ``"average"`` makes two); "chosen" is
``walk_schedule``'s. The ``<=`` walks are checked to give scikit-learn's numbers, the
``"average"`` ones to agree between the schedules.

Measured on a loaded 2-core machine (December 2026, load average 9-12), these cases at the
``--quick`` size, walk / scikit-learn, medians of three rounds run alternately with the two
walks this one replaced (the trees' own and ``trees.interop``'s, same models, same rows):

========================  =====================  ======================  =====================
case                      ``<=``: one walk       ``<=``: trees' /        ``"average"``: one
                          (chosen schedule)      interop's before        walk / trees' before
========================  =====================  ======================  =====================
tree, pure leaves         0.44 (tree by tree)    0.52 / 0.46             0.55 / 0.57
tree, depth 8             0.32 (lock-step)       0.70 / 0.30             0.61 / 0.70
forest, depth 16          0.59 (tree by tree)    0.73 / 0.57             0.74 / 0.75
forest, no limit          0.59 (tree by tree)    0.72 / 0.84             0.75 / 0.75
boosting, depth 6         0.49 (lock-step)       0.86 / 0.47             0.89 / 0.95
========================  =====================  ======================  =====================

The other schedule, for comparison: under ``<=`` tree by tree 0.45 on the depth-8 tree and
0.61 on the boosted trees, lock-step 0.60 and 1.05 on the forests. Under ``"average"`` the
lock-step walked the two paths one after the other until they stepped together (December
2026, load average 3-12, three or four rounds, walk / scikit-learn before, after): boosting
1.08-1.29, 0.75-0.87; the depth-8 tree 0.64-0.68, 0.46-0.67; the forests 1.09-2.04, 0.93-1.45.
"""

import argparse
import time

import numpy as np
from sklearn.datasets import make_classification
from sklearn.ensemble import GradientBoostingClassifier, RandomForestClassifier
from sklearn.tree import DecisionTreeClassifier

from bench.common import interleaved_calls, print_rows, ratio
from trees.interop import from_model
from trees.interop._predict import cast_rows
from trees.tree._kernels_traversal import SCHEDULES, walk_schedule, walk_sums
from trees.tree._operators import OPERATOR_CODES

_PREDICTED_ROWS = 50_000


def _models(quick):
    """(name, fitted scikit-learn model, training rows) of every case."""
    scale = 4 if quick else 1
    return [
        ("tree, pure leaves", DecisionTreeClassifier(random_state=0), 10_000),
        ("tree, depth 8", DecisionTreeClassifier(max_depth=8, random_state=0), 100_000 // scale),
        ("forest of 100, depth 16",
         RandomForestClassifier(n_estimators=100 // scale, max_depth=16, random_state=0,
                                n_jobs=1), 20_000),
        ("forest of 100, no limit",
         RandomForestClassifier(n_estimators=100 // scale, random_state=0, n_jobs=1), 20_000),
        ("boosting, 300 of depth 6",
         GradientBoostingClassifier(n_estimators=300 // scale, max_depth=6, random_state=0),
         20_000),
    ]  # fmt: skip


def _library_call(model, X):
    """scikit-learn's own prediction of the rows, as the walk's sums give it."""
    if isinstance(model, GradientBoostingClassifier):
        return lambda: model.decision_function(X)
    return lambda: model.predict_proba(X)


def _walk_calls(packed, X, op):
    """The walk's sums of the rows' leaf values under ``op`` by each schedule (one thread),
    and the schedule ``walk_schedule`` takes."""
    walk, leaves = packed.walk([OPERATOR_CODES[op]] * len(packed.roots)), packed.leaves()

    def call(code):
        def sums():
            out = np.zeros((X.shape[0], packed.n_outputs))
            walk_sums(walk, leaves, X, code, (0, X.shape[0]), out)
            return out

        return sums

    chosen = next(name for name, code in SCHEDULES.items() if code == walk_schedule(walk))
    return [call(code) for code in SCHEDULES.values()], chosen


def _check(model, imported, sums, X):
    """The walk's sums, finished as the model finishes them, are scikit-learn's numbers."""
    expected = _library_call(model, X)()
    raw = sums() + imported.base_score
    got = raw[:, 0] if isinstance(model, GradientBoostingClassifier) else raw
    np.testing.assert_allclose(got, expected, rtol=1e-12, atol=1e-12)


def _case(model, n_train, repeat):
    """Table rows (``<=``, ``"average"``): the walk's median CPU ms by each schedule,
    scikit-learn's, and the ratios."""
    X, y = make_classification(n_samples=n_train + _PREDICTED_ROWS, n_features=10,
                               n_informative=6, random_state=0)  # fmt: skip
    model.fit(X[:n_train], y[:n_train])
    predicted = cast_rows(X[n_train:], "float32")  # scikit-learn compares float32 values
    imported = from_model(model)
    rows = []
    for op in ("<=", "average"):
        walks, chosen = _walk_calls(imported.packed(), predicted, op)
        if op == "<=":
            for sums in walks:
                _check(model, imported, sums, predicted)
        np.testing.assert_array_equal(walks[0](), walks[1]())
        times = interleaved_calls([*walks, _library_call(model, predicted)], repeat,
                                  time.process_time)  # fmt: skip
        cells = [f"{seconds * 1e3:.1f}" for seconds in times]
        rows.append([op, chosen, *cells, *(ratio(seconds, times[-1]) for seconds in times[:-1])])
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller models, 3 repeats")
    parser.add_argument("--only", default="", help="the cases whose name holds this text")
    args = parser.parse_args()
    repeat = 3 if args.quick else 7
    cases = [case for case in _models(args.quick) if args.only in case[0]]
    rows = [[name, *row] for name, model, n_train in cases for row in _case(model, n_train, repeat)]
    header = ["model", "test", "chosen", *(f"{name} ms" for name in SCHEDULES), "scikit-learn ms",
              *(f"{name} / scikit-learn" for name in SCHEDULES)]  # fmt: skip
    print_rows(header, rows)


if __name__ == "__main__":
    main()
