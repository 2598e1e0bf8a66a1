"""Source 004's growth as its code runs it (issue 32, item 1): our trees grown with
``datasets.REPORT_RULES`` and the report's criteria against a plain transcription of the code's
rules, node for node.

The transcription below is written from the report's code (``TreePredictor._grow_tree`` and
``_find_best_condition``, ``measure_gain`` with ``minimum``, ``chi_square``), one row at a
time and in its order of operations: every feature at every node, thresholds at the midpoints
of the node's distinct values, one category at a time in sorted order, a candidate kept only
when it scores strictly more than the best so far (which starts at 0), a node left alone when
one class is left.
"""

from collections import Counter

import numpy as np
import pytest

from datasets import REPORT_RULES
from trees import DecisionTreeClassifier


def _misclassification_gain(passed, failed, labels):
    """``measure_gain(minimum, ...)``: the smallest class count, the failing side first."""
    measure = 0.0
    for side in (failed, passed):
        if side:
            measure += (len(side) / len(labels)) * min(Counter(side).values())
    return min(Counter(labels).values()) - measure


def _chi_square(passed, failed, labels):
    """``chi_square``: over each side's classes present, sqrt((c - e)^2 / e), e = size * share."""
    share = {k: c / len(labels) for k, c in Counter(labels).items()}
    sides = []
    for side in (failed, passed):
        if side:
            counts = sorted(Counter(side).items())
            terms = [
                np.sqrt((c - len(side) * share[k]) ** 2 / (len(side) * share[k])) for k, c in counts
            ]
            sides.append(np.sum(terms))
    return np.sum(sides)


METRICS = {"report_misclassification": _misclassification_gain, "report_chi2": _chi_square}


def _best_condition(X, y, rows, categorical, metric):
    best_score, best = 0, None
    for f in range(X.shape[1]):
        values = sorted({X[r, f] for r in rows})
        if f in categorical:
            candidates = [(v, lambda x, v=v: x == v) for v in values]
        else:
            mids = [(a + b) / 2 for a, b in zip(values, values[1:], strict=False)]
            candidates = [(t, lambda x, t=t: x <= t) for t in mids]
        for parameter, test in candidates:
            passed = [y[r] for r in rows if test(X[r, f])]
            failed = [y[r] for r in rows if not test(X[r, f])]
            score = metric(passed, failed, [y[r] for r in rows])
            if score > best_score:
                best_score, best = score, (f, parameter, test)
    return best


def _report_tree(X, y, rows, categorical, metric):
    """Nested ``(feature, parameter, passed subtree, failed subtree)``; None for a leaf."""
    if len({y[r] for r in rows}) == 1:
        return None
    best = _best_condition(X, y, rows, categorical, metric)
    if best is None:
        return None
    f, parameter, test = best
    passed = [r for r in rows if test(X[r, f])]
    failed = [r for r in rows if not test(X[r, f])]
    return (
        f,
        parameter,
        _report_tree(X, y, passed, categorical, metric),
        _report_tree(X, y, failed, categorical, metric),
    )


def _ours(tree, node=0):
    """Our tree in the same nested form (the left child passes the test)."""
    if tree.feature[node] < 0:
        return None
    f = int(tree.feature[node])
    if tree.is_membership[node]:
        (code,) = tree.categories[node]
        parameter = float(code)
    else:
        parameter = float(tree.threshold[node])
    return (f, parameter, _ours(tree, tree.left[node]), _ours(tree, tree.right[node]))


def _same(ours, reports):
    if ours is None or reports is None:
        return ours is None and reports is None
    return (
        ours[0] == reports[0]
        and ours[1] == pytest.approx(reports[1], abs=1e-12)
        and _same(ours[2], reports[2])
        and _same(ours[3], reports[3])
    )


def _count(tree):
    return 1 if tree is None else 1 + _count(tree[2]) + _count(tree[3])


def _mixed_data(seed, n=240):
    """Two numeric features with repeated values and two nominal ones, two classes."""
    rng = np.random.default_rng(seed)
    X = np.column_stack(
        [
            rng.integers(0, 12, n) / 4.0,
            rng.integers(0, 4, n).astype(float),
            rng.normal(size=n).round(1),
            rng.integers(0, 5, n).astype(float),
        ]
    )
    y = ((X[:, 0] > 1.5) ^ (X[:, 1] == 2) ^ (rng.random(n) < 0.2)).astype(int)
    return X, y


@pytest.mark.parametrize("criterion", list(METRICS))
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_our_tree_under_the_reports_rules_is_its_codes_tree(criterion, seed):
    X, y = _mixed_data(seed)
    categorical = [1, 3]
    expected = _report_tree(X, y, list(range(len(y))), set(categorical), METRICS[criterion])
    model = DecisionTreeClassifier(
        criterion=criterion, categorical_features=categorical, **REPORT_RULES
    ).fit(X, y)
    assert _count(expected) == model.tree_.node_count
    assert _same(_ours(model.tree_), expected)
