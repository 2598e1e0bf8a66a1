"""The model readers' fuzzer, at length (issue 60): every mutated file audited or refused.

Usage: ``python -m bench.bench_model_fuzz [--cases N] [--seed S] [--quick]``

Trains a small model of every library (XGBoost, LightGBM, CatBoost, a
scikit-learn forest saved with skops), saves each in its own format, and
mutates each file ``--cases`` times (``bench.model_fuzz.MUTATIONS``: byte
flips, truncation, size fields, child indices, nesting; 1,000 by default,
5,000 files in all), every case read and audited in the fuzzer's worker with
the app's limits (60 s, 1,024 MB). It prints, per format, how the cases
ended and the mean seconds a case took, as a ratio to reading and auditing
the valid file in the same worker in the same run; then every finding (a case
stopped at a limit, a crash, another exception), which must be none.
``tests/test_model_fuzz.py`` runs 30 cases a format with seed 0.
"""

import argparse
import collections
import tempfile
import time
from pathlib import Path

import numpy as np

from bench.common import print_rows
from bench.model_fuzz import _HELPER, fuzz
from lab.model_files import model_limits


def _valid_files(seed=0):
    """{name: bytes}: a small model of every library, trained here, in its own format."""
    import catboost
    import lightgbm
    import skops.io
    import xgboost
    from sklearn.ensemble import RandomForestClassifier

    rng = np.random.default_rng(seed)
    X = np.column_stack([rng.integers(0, 6, (300, 3)), rng.normal(size=300)]).astype(float)
    y = (X[:, 0] + X[:, 1] - X[:, 2] + rng.normal(size=300) > 2).astype(int)
    files = {}
    with tempfile.TemporaryDirectory() as folder:
        folder = Path(folder)
        booster = xgboost.XGBClassifier(n_estimators=4, max_depth=3, nthread=1).fit(X, y)
        for name in ("model.json", "model.ubj"):
            booster.save_model(folder / name)
            files[name] = (folder / name).read_bytes()
        lgb = lightgbm.LGBMClassifier(n_estimators=4, num_leaves=7, verbose=-1).fit(X, y)
        files["model.txt"] = lgb.booster_.model_to_string().encode()
        cat = catboost.CatBoostClassifier(iterations=4, depth=3, verbose=0,
                                          allow_writing_files=False).fit(X, y)  # fmt: skip
        cat.save_model(str(folder / "cb.json"), format="json")
        files["cb.json"] = (folder / "cb.json").read_bytes()
    forest = RandomForestClassifier(n_estimators=3, max_depth=4, random_state=0).fit(X, y)
    files["forest.skops"] = skops.io.dumps(forest)
    return files


def _reference(files, seconds, megabytes):
    """Mean seconds to read and audit each valid file in the worker (five times each)."""
    times = {}
    for name, data in files.items():
        start = time.perf_counter()
        for _ in range(5):
            status, _ = _HELPER.ask((name, data), seconds, int(megabytes * 2**20))
            assert status == "ok", (name, status)
        times[name] = (time.perf_counter() - start) / 5
    return times


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=1_000, help="cases per format")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--quick", action="store_true", help="100 cases per format")
    args = parser.parse_args(argv)
    cases = 100 if args.quick else args.cases
    seconds, megabytes = model_limits()
    files = _valid_files()
    reference = _reference(files, seconds, megabytes)
    outcomes, spent, findings = collections.Counter(), collections.Counter(), []
    for name in files:
        start = time.perf_counter()
        for _, mutation, status, detail in fuzz({name: files[name]}, args.seed, cases,
                                                seconds, megabytes):  # fmt: skip
            outcomes[name, status] += 1
            if status not in ("audited", "refused"):
                findings.append((name, mutation, status, str(detail)[:200]))
        spent[name] = (time.perf_counter() - start) / cases
    rows = [[name, str(outcomes[name, "audited"]), str(outcomes[name, "refused"]),
             str(cases - outcomes[name, "audited"] - outcomes[name, "refused"]),
             f"{spent[name]:.3f}", f"{spent[name] / reference[name]:.2f}"]
            for name in files]  # fmt: skip
    print(f"{cases:,} mutated files a format, seed {args.seed}, limits {seconds:g} s and "
          f"{megabytes:g} MB; ratio = a case's mean seconds / the valid file's")  # fmt: skip
    print_rows(["format", "audited", "refused", "findings", "s / case", "ratio"], rows)
    for finding in findings:
        print("finding:", *finding)
    print(f"{len(findings)} findings")
    return 1 if findings else 0


if __name__ == "__main__":
    raise SystemExit(main())
