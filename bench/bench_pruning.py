"""Minimal cost-complexity pruning against scikit-learn's, in the same run (issue 29).

Usage: ``python -m bench.bench_pruning [--quick]``

On the sizes of ``bench_tree`` (1,000 x 10 and 10,000 x 10 unbounded,
100,000 x 20 with ``max_depth=8``): ``cost_complexity_pruning_path`` (a fit
and the path) and a fit with ``ccp_alpha`` set to the path's middle alpha
(a fit and the pruning), each against scikit-learn's same call. Times are
medians of calls interleaved with scikit-learn's; the ratio is project /
scikit-learn (target: 1.0 or less).
"""

from sklearn import tree as sktree

from bench.bench_tree import CASES, _data
from bench.common import (
    interleaved,
    nodes_cell,
    print_rows,
    run_sizes_from_command_line,
    size_cells,
    timing_cells,
    warmed_up,
)
from trees import DecisionTreeClassifier, DecisionTreeRegressor


def _pair(task, max_depth):
    if task == "classification":
        return DecisionTreeClassifier(max_depth=max_depth), sktree.DecisionTreeClassifier(
            max_depth=max_depth
        )
    return DecisionTreeRegressor(max_depth=max_depth), sktree.DecisionTreeRegressor(
        max_depth=max_depth
    )


def _case(task, n_samples, n_features, max_depth, repeat):
    X, y = _data(task, n_samples, n_features)
    ours, theirs = _pair(task, max_depth)
    path_ours, path_theirs = interleaved(
        lambda: ours.cost_complexity_pruning_path(X, y),
        lambda: theirs.cost_complexity_pruning_path(X, y),
        repeat,
    )
    alphas = theirs.cost_complexity_pruning_path(X, y).ccp_alphas
    alpha = float(alphas[len(alphas) // 2])
    ours.set_params(ccp_alpha=alpha)
    theirs.set_params(ccp_alpha=alpha)
    fit_ours, fit_theirs = interleaved(lambda: ours.fit(X, y), lambda: theirs.fit(X, y), repeat)
    return [
        task,
        *size_cells((n_samples, n_features), max_depth),
        len(alphas),
        *timing_cells(path_ours, path_theirs),
        nodes_cell(ours, theirs),
        *timing_cells(fit_ours, fit_theirs),
    ]


def run(cases=CASES):
    print(f"warm_up: {warmed_up():.2f} s")
    rows = [_case(task, *case) for case in cases for task in ("classification", "regression")]
    header = ["task", "data", "depth", "alphas", "path ms", "sk path ms", "path ratio",
              "pruned nodes (sk)", "fit ms", "sk fit ms", "fit ratio"]  # fmt: skip
    print_rows(header, rows)
    return rows


if __name__ == "__main__":
    run_sizes_from_command_line(run, __doc__.splitlines()[0], CASES)
