"""Is rho of the project's trees within scikit-learn's range over seeds? (source 000, Table 2)

For every dataset of source 000 with its settings, and each model: rho of the
model fitted on all the data by scikit-learn with ``random_state`` 0..29 (its
range), and rho of the project's model with ``tie_break="random"``,
``threshold_dtype="float32"``, ``variance_sums="raw"`` (regression) and the
paper's seed 5. Prints one line per
dataset and model, and the count of values inside the range; the paper's
value (Table 2) is shown beside them.

One draw from the same distribution as 30 others falls outside their range
with probability 2/31 (6.5%), so a forest outside the range may be chance.
``--project-seeds 30`` also fits the project's model with seeds 0..29 and
prints its range and the Mann-Whitney p-value of the two sets: a small p
says the two engines differ; a large one, that seed 5 fell in a tail.

Run: ``python -m bench.bench_rho_range [--models tree,forest] [--seeds 30] [--datasets a,b]
[--project-seeds 30]``
"""

import argparse
import time
import warnings

import numpy as np
from scipy.stats import mannwhitneyu

from datasets import load, paper_settings
from datasets.source000 import settings_table, table2
from trees.conditioning import ALL_DATA, conditioning_plan, run_conditioning_task

PROJECT_OPTIONS = {"tie_break": "random", "threshold_dtype": "float32", "variance_sums": "raw"}


def rho(name, model, engine, seed, extra=None):
    """rho of ``model`` fitted on all of dataset ``name`` (source 000's count)."""
    data = load(name)
    params = {**paper_settings(name, model), **(extra or {})}
    plan = conditioning_plan(data.X.to_numpy(float), data.y.to_numpy(), data.task, model, params,
                             n_repeats=1, engine=engine, estimator_seed=seed)  # fmt: skip
    on, total = run_conditioning_task(plan, ALL_DATA)["rho"]
    return on / total if total else 0.0


def _project_spread(name, model, sklearn_values, n_seeds):
    """The project's range over seeds and the Mann-Whitney p-value against scikit-learn's."""
    ours = [rho(name, model, "trees", s, PROJECT_OPTIONS) for s in range(n_seeds)]
    both = np.r_[sklearn_values, ours]
    p = mannwhitneyu(sklearn_values, ours).pvalue if np.ptp(both) > 0 else 1.0
    return f"   {min(ours):11.4f} {max(ours):6.4f} {p:6.3f}"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", default="tree,forest")
    parser.add_argument("--seeds", type=int, default=30)
    parser.add_argument("--datasets", default=None)
    parser.add_argument("--project-seeds", type=int, default=1,
                        help="above 1: also the project's range over seeds 0..N-1")  # fmt: skip
    args = parser.parse_args(argv)
    # Small classes (lymphography's 4 rows) make the folds warn once per fit: the fit is as the
    # paper's, and the warnings would bury the table.
    warnings.filterwarnings("ignore", message="The least populated class")
    names = (
        args.datasets.split(",")
        if args.datasets
        else list(dict.fromkeys(settings_table()["dataset"]))
    )
    paper = table2().set_index(["dataset", "model"])["rho"]
    inside = total = 0
    start = time.perf_counter()
    header = f"{'dataset':24} {'model':6} {'paper':>5} {'sklearn min':>11} {'max':>6} {'project':>8}  inside"
    print(header + ("   project min    max  MWU p" if args.project_seeds > 1 else ""))
    for name in names:
        for model in args.models.split(","):
            values = [rho(name, model, "sklearn", s) for s in range(args.seeds)]
            ours = rho(name, model, "trees", 5, PROJECT_OPTIONS)
            ok = min(values) - 1e-12 <= ours <= max(values) + 1e-12
            inside, total = inside + ok, total + 1
            line = (f"{name:24} {model:6} {paper[(name, model)]:>5} {min(values):11.4f} "
                    f"{max(values):6.4f} {ours:8.4f}  {'yes' if ok else 'NO ':6}")  # fmt: skip
            if args.project_seeds > 1:
                line += _project_spread(name, model, values, args.project_seeds)
            print(line, flush=True)
    print(f"{inside} of {total} inside scikit-learn's range over {args.seeds} seeds "
          f"({time.perf_counter() - start:.0f} s)")  # fmt: skip


if __name__ == "__main__":
    main()
