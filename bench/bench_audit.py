"""The conditioning audit against each library's own predict_proba, on one thread (issue 54).

Usage: ``python -m bench.bench_audit [--quick] [--library NAME ...]``

For each library a classifier is trained on 20,000 rows of lattice data
(six integer columns of 20 values, whose values XGBoost's thresholds sit on,
and four continuous ones): XGBoost 300 trees of depth 6, LightGBM 300 trees
of 31 leaves, a scikit-learn random forest of 100 trees of depth 16, CatBoost
1,000 trees of depth 6 (its default). On 50,000 other rows of the same kind
the benchmark times, interleaved with the library's own ``predict_proba`` on
the same rows (``bench.common.interleaved``: medians, the same load for
both), everything on one thread:

* ``predict_proba``: the imported model's own prediction;
* ``audit``: ``audit_conditioning(model, X, n_jobs=1).headline()``, the audit
  and its sentence: rows on a threshold, predictions under both tests and
  both precisions, the average (and "half" for the forest), the rows changed;
* ``lattice flags``: reading ``audit.features`` afterwards, the data's lattice
  flags and distinct values (source 000, section 4.1; a property of the
  data, computed when first read).

Every ratio is of wall-clock medians; ``audit (CPU)`` is the audit's ratio in
CPU time of the process (every thread counted, so a library that used more
than one would pay for it), steadier than wall-clock on a shared machine.

The targets (issue 54): the audit at most 3 times the library's
``predict_proba`` for XGBoost, LightGBM and the forest, 5 times for CatBoost.
``--quick``: 10,000 rows, a third of the trees.
"""

import argparse
import time

import numpy as np

from bench.common import interleaved, print_rows, ratio
from trees.interop import audit_conditioning, from_model

TARGETS = {"xgboost": 3.0, "lightgbm": 3.0, "random forest": 3.0, "catboost": 5.0}


def _data(n_rows, seed=0):
    rng = np.random.default_rng(seed)
    lattice = rng.integers(0, 20, size=(n_rows, 6)).astype(float)
    continuous = rng.normal(size=(n_rows, 4))
    X = np.column_stack([lattice, continuous])
    score = lattice[:, 0] - lattice[:, 1] + 3 * continuous[:, 0] + rng.normal(size=n_rows) * 3
    return X, (score > 0).astype(int)


def _models(scale):
    """Each library's classifier and its own single-threaded predict_proba."""
    import catboost
    import lightgbm
    import xgboost
    from sklearn.ensemble import RandomForestClassifier

    n = max(1, round(300 * scale))
    return {
        "xgboost": (xgboost.XGBClassifier(n_estimators=n, max_depth=6, nthread=1, random_state=0),
                    lambda m, X: m.predict_proba(X)),
        "lightgbm": (lightgbm.LGBMClassifier(n_estimators=n, n_jobs=1, verbose=-1, random_state=0),
                     lambda m, X: m.predict_proba(X, num_threads=1)),
        "random forest": (RandomForestClassifier(n_estimators=max(1, round(100 * scale)),
                                                 max_depth=16, n_jobs=1, random_state=0),
                          lambda m, X: m.predict_proba(X)),
        "catboost": (catboost.CatBoostClassifier(iterations=max(1, round(1000 * scale)), depth=6,
                                                 thread_count=1, verbose=0, random_seed=0,
                                                 allow_writing_files=False),
                     lambda m, X: m.predict_proba(X, thread_count=1)),
    }  # fmt: skip


def _measure(name, model, library_predict, X):
    imported = from_model(model)
    audit_conditioning(imported, X[:200], n_jobs=1).headline()  # compiles, or loads the cache
    theirs = lambda: library_predict(model, X)  # noqa: E731
    t_ours, t_lib = interleaved(lambda: imported.predict_proba(X, n_jobs=1), theirs, repeat=5)
    audit_once = lambda: audit_conditioning(imported, X, n_jobs=1).headline()  # noqa: E731
    t_audit, t_lib_audit = interleaved(audit_once, theirs, repeat=5)
    cpu_audit, cpu_lib = interleaved(audit_once, theirs, repeat=5, clock=time.process_time)
    audit = audit_conditioning(imported, X, n_jobs=1)
    figures = audit.headline_figures()
    start = time.perf_counter()
    audit.features  # noqa: B018 (the lattice flags, computed when first read)
    t_lattice = time.perf_counter() - start
    return [
        name, f"{imported.n_trees}", f"{figures['rows_on_threshold'] / len(X):.0%}",
        f"{t_lib_audit * 1e3:.0f}", ratio(t_ours, t_lib), ratio(t_audit, t_lib_audit),
        ratio(cpu_audit, cpu_lib), f"{TARGETS[name]:.0f}", ratio(t_lattice, t_lib_audit),
    ]  # fmt: skip


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--library", nargs="*", choices=sorted(TARGETS), help="(default: all)")
    args = parser.parse_args(argv)
    scale, n_rows = (1 / 3, 10_000) if args.quick else (1.0, 50_000)
    X_train, y_train = _data(20_000)
    X, _ = _data(n_rows, seed=1)
    rows = []
    for name, (model, predict) in _models(scale).items():
        if args.library and name not in args.library:
            continue
        start = time.perf_counter()
        model.fit(X_train, y_train)
        print(f"{name}: fitted in {time.perf_counter() - start:.1f} s", flush=True)
        rows.append(_measure(name, model, predict, X))
    print(f"\n{n_rows:,} rows, one thread; ratio = time / the library's own predict_proba")
    print_rows(["library", "trees", "rows on a threshold", "library ms", "predict_proba",
                "audit", "audit (CPU)", "target", "lattice flags"], rows)  # fmt: skip


if __name__ == "__main__":
    main()
