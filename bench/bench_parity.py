"""The ONNX export and the parity report against the library's own predict (issue 55).

Usage: ``python -m bench.bench_parity [--quick] [--table]``

Timing (the default). For each library, a model is trained on 20,000 rows of lattice
data (integer columns, whose values the thresholds sit on, and continuous ones):
LightGBM and XGBoost 200 rounds (31 leaves; depth 6), a scikit-learn random forest of 100
trees (depth 10), HistGradientBoosting 200 iterations, CatBoost 200 iterations (depth 6).
Timed, each against the library's own ``predict_proba`` on the same rows in the same run
(medians of calls interleaved with it, ``bench.common.interleaved``):

* ``export_onnx`` (native, and "average": two ensembles in one graph), against the
  library's predict on the report's rows (about 10,000);
* the exported file in onnxruntime on 100,000 rows, against the library on those rows;
* ``parity_report`` on 5,000 of the user's rows (with its probe rows): the lab's export
  alone, then every installed runtime (conversions, treelite, m2cgen's Python
  included), against the library's predict on the same rows.

``--quick``: 50 rounds or trees, fewer rows. ``--table``: instead, the issue's table as
the lab measures it: every runtime's disagreements with each library's model on the
bundled ``bupa`` data (the models of ``trees.interop.train_demo_model``, and a
HistGradientBoosting of 50 iterations), probe rows one float32 and one float64 ulp
either side of every threshold, and the data's own rows.
"""

import argparse
import time

import numpy as np

from bench.bench_audit import _data  # the audit benchmark's lattice rows: the same data
from bench.common import interleaved, print_rows, ratio
from trees.interop import LIBRARY_NAMES, RUNTIMES, export_onnx, from_model, parity_report

LIBRARIES = ("lightgbm", "xgboost", "sklearn-forest", "sklearn-hist", "catboost")


def _model(name, n_trees):
    """An unfitted binary classifier of ``name`` (one thread: the machine is shared)."""
    if name == "lightgbm":
        import lightgbm

        return lightgbm.LGBMClassifier(n_estimators=n_trees, num_leaves=31, n_jobs=1, verbose=-1)
    if name == "xgboost":
        import xgboost

        return xgboost.XGBClassifier(n_estimators=n_trees, max_depth=6, nthread=1)
    if name == "sklearn-forest":
        from sklearn.ensemble import RandomForestClassifier

        return RandomForestClassifier(n_estimators=n_trees // 2, max_depth=10, n_jobs=1,
                                      random_state=0)  # fmt: skip
    if name == "sklearn-hist":
        from sklearn.ensemble import HistGradientBoostingClassifier

        return HistGradientBoostingClassifier(max_iter=n_trees, early_stopping=False,
                                              random_state=0)  # fmt: skip
    import catboost

    return catboost.CatBoostClassifier(iterations=n_trees, depth=6, thread_count=1, verbose=0,
                                       random_seed=0, allow_writing_files=False)  # fmt: skip


def _session(onnx_model):
    import onnxruntime as ort

    options = ort.SessionOptions()
    options.intra_op_num_threads = 1  # as the libraries above: one core each
    return ort.InferenceSession(onnx_model.SerializeToString(), options,
                                providers=["CPUExecutionProvider"])  # fmt: skip


def _timings(name, n_trees, n_rows, X_train, y_train):
    """The table's rows for one library: (step, seconds, library's seconds, ratio)."""
    model = _model(name, n_trees).fit(X_train, y_train)
    imported = from_model(model)
    X_user, _ = _data(n_rows, seed=1)
    X_big, _ = _data(10 * n_rows, seed=2)
    report = parity_report(model, X_user, runtimes=["onnx-lab"])  # compiles, warms the caches
    X_rows = report.array  # the rows as the library and every runtime read them
    rows = []

    def add(step, ours, reference, repeat=3):
        t_ours, t_lib = interleaved(ours, lambda: model.predict_proba(reference), repeat=repeat)
        rows.append([name, step, f"{len(reference):,}", f"{t_ours:.3f}", f"{t_lib:.3f}",
                     ratio(t_ours, t_lib)])  # fmt: skip

    add("export_onnx, native", lambda: export_onnx(imported), X_rows)
    add("export_onnx, average", lambda: export_onnx(imported, "average"), X_rows)
    session = _session(export_onnx(imported))
    add("the export in onnxruntime", lambda: session.run(None, {"X": X_big}), X_big)
    add("parity_report, the lab's export", lambda: parity_report(
        model, X_user, runtimes=["onnx-lab"]), X_rows, repeat=1)  # fmt: skip
    add("parity_report, every runtime", lambda: parity_report(model, X_user), X_rows, repeat=1)
    return rows


def _timing_table(quick):
    n_trees, n_rows = (50, 1_000) if quick else (200, 5_000)
    X_train, y_train = _data(4_000 if quick else 20_000)
    rows = []
    for name in LIBRARIES:
        start = time.perf_counter()
        rows += _timings(name, n_trees, n_rows, X_train, y_train)
        print(f"{name}: {time.perf_counter() - start:.0f} s", flush=True)
    print(f"\n{n_trees} rounds (forest: {n_trees // 2} trees) on {len(y_train):,} rows; ratio = "
          "time / the library's predict_proba on the rows of the third column, same run")  # fmt: skip
    print_rows(["library", "step", "rows", "seconds", "library s", "ratio"], rows)


def _issue_table():
    """Each runtime's disagreements with each library's model on bupa (module docstring)."""
    from sklearn.ensemble import HistGradientBoostingClassifier

    from datasets import load, preprocess
    from trees.interop import train_demo_model

    data, _ = preprocess(load("bupa"))
    X, y = data.arrays()
    codes = np.unique(y, return_inverse=True)[1]
    models = {library: train_demo_model(library, X, codes, "binary")
              for library in ("lightgbm", "xgboost", "sklearn", "catboost")}  # fmt: skip
    models["hist"] = HistGradientBoostingClassifier(max_iter=50, random_state=0).fit(X, codes)
    names = {"sklearn": "scikit-learn forest", "hist": "HistGradientBoosting",
             **{k: LIBRARY_NAMES[k] for k in ("lightgbm", "xgboost", "catboost")}}  # fmt: skip
    reports = {key: parity_report(model, data.X) for key, model in models.items()}
    table = []
    for runtime in RUNTIMES:
        cells = [runtime]
        for key in models:
            line = reports[key].summary.set_index("runtime").loc[runtime]
            cells.append(f"{int(line['disagree']):,} of {int(line['rows']):,}"
                         if line["status"] == "ran" else line["status"])  # fmt: skip
        table.append(cells)
    print("Rows that disagree with the library's own predict (bupa, 345 rows, and probe rows)")
    print_rows(["runtime", *(names[k] for k in models)], table)
    for key, report in reports.items():
        for line in report.summary.to_dict("records"):
            if line["status"] == "ran" and line["disagree"]:
                print(f"\n{names[key]}, {line['label']}: {line['cause']}\n  fix: {line['fix']}")
            elif line["status"] != "ran":
                print(f"\n{names[key]}, {line['label']}: {line['status']} ({line['detail']})")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--table", action="store_true", help="the issue's table, on bupa")
    args = parser.parse_args(argv)
    if args.table:
        _issue_table()
    else:
        _timing_table(args.quick)


if __name__ == "__main__":
    main()
