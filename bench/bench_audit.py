"""The conditioning audit of a 500-tree XGBoost model against XGBoost's own predict (issue 31).

Usage: ``python -m bench.bench_audit [--quick]``

A binary XGBoost model (500 trees of depth 6) is trained on 20,000 rows of
lattice data (integer columns, whose values XGBoost's thresholds sit on,
and continuous ones); the audit (``trees.interop.audit_conditioning``: rho,
rows on thresholds, predictions under both operators and both precisions,
the average) then runs on 100,000 rows, against the time of XGBoost's own
``predict_proba`` on the same rows, in the same run. Also timed: the import
(``from_model``, best of three) and one native prediction of the
representation. Prediction and audit times are medians of calls
interleaved with XGBoost's (``bench.common.interleaved``), each ratio
against XGBoost's median of the same loop (``--quick``: 20,000 rows, 100 trees).
"""

import argparse
import time

import numpy as np

from bench.common import best_time, interleaved, print_rows, ratio
from trees.interop import audit_conditioning, from_model


def _data(n_rows, seed=0):
    rng = np.random.default_rng(seed)
    lattice = rng.integers(0, 20, size=(n_rows, 6)).astype(float)
    continuous = rng.normal(size=(n_rows, 4))
    X = np.column_stack([lattice, continuous])
    score = lattice[:, 0] - lattice[:, 1] + 3 * continuous[:, 0] + rng.normal(size=n_rows) * 3
    return X, (score > 0).astype(int)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args(argv)
    import xgboost

    n_trees, n_rows = (100, 20_000) if args.quick else (500, 100_000)
    X_train, y_train = _data(20_000)
    X, _ = _data(n_rows, seed=1)
    start = time.perf_counter()
    model = xgboost.XGBClassifier(n_estimators=n_trees, max_depth=6, nthread=2, random_state=0)
    model.fit(X_train, y_train)
    print(f"fit: {time.perf_counter() - start:.1f} s ({n_trees} trees on 20,000 rows)")
    imported = from_model(model)
    imported.predict_proba(X[:10])  # compiles the walk, or loads it from numba's cache
    t_import, imported = best_time(lambda: from_model(model), repeat=3)
    # interleaved with XGBoost's predict, so that both see the same load of a shared machine
    t_ours, t_xgb = interleaved(lambda: imported.predict_proba(X), lambda: model.predict_proba(X))
    t_audit, t_xgb_audit = interleaved(
        lambda: audit_conditioning(imported, X), lambda: model.predict_proba(X), repeat=3
    )
    audit = audit_conditioning(imported, X)
    rows = [
        ["from_model (import)", f"{t_import:.3f}", ratio(t_import, t_xgb)],
        ["predict_proba, native", f"{t_ours:.3f}", ratio(t_ours, t_xgb)],
        ["audit_conditioning", f"{t_audit:.3f}", ratio(t_audit, t_xgb_audit)],
        ["xgboost predict_proba", f"{t_xgb:.3f}", "1.00"],
    ]
    print(f"\n{n_trees} trees, {n_rows:,} rows; ratio = time / XGBoost's predict_proba")
    print_rows(["step", "seconds", "ratio"], rows)
    print("\n" + audit.headline())


if __name__ == "__main__":
    main()
