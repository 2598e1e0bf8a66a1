"""Compile what is used when it is used (issue 56): growth plans, their record, their preparer.

A growth's kernels are compiled for its plan (``trees/tree/_kernels_plan.py``): a Gini
tree compiles no other criterion, no random or absolute-error search, no categorical
split. The machine keeps a record of the plans and parts it compiled, and an app may have a
new plan compiled elsewhere before it first runs (``set_kernel_preparer``).
"""

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from numba import njit

from tests.helpers import COMPILE_LISTENER
from trees.ensemble._warmup import warm_up_plan as warm_up_step
from trees.kernels import PARTS, plan_from_fields, warm_up_plan
from trees.tree import _kernels_cache, _kernels_entries
from trees.tree._kernels_numbers import safe_divide
from trees.tree._kernels_plan import KernelPlan, kernel_plan, only_when
from trees.tree._warmup import plan_of

ROOT = Path(__file__).resolve().parent.parent


@njit
def _plus_one(x):
    return x + 1


_plus_one_when = only_when(_plus_one)


def _gated(flag):
    @njit
    def call(x):
        return _plus_one_when(flag, (x,), -1)

    return call


def test_only_when_compiles_the_side_a_literal_flag_takes():
    called = njit(lambda x: _plus_one_when(True, (x,), -1))
    assert _gated(False)(3) == -1
    assert not _plus_one.signatures  # a plan that never calls it never compiles it
    assert called(3) == 4
    assert _plus_one.signatures


def test_only_when_chooses_at_run_time_for_a_flag_that_is_not_literal():
    @njit
    def either(flag, x):
        return _plus_one_when(flag, (x,), np.int64(-1))

    assert either(True, 3) == 4
    assert either(False, 3) == -1


def test_a_plan_is_python_values_that_numba_reads_as_literals():
    plan = kernel_plan(np.int64(8), by_score=np.bool_(False), random=0, draw=1, raw_sums=False)
    assert plan == KernelPlan(8, False, False, True, False, True)  # the absolute error's id
    assert all(type(v) in (int, bool) for v in plan)
    assert plan_from_fields(json.loads(json.dumps(list(plan)))) == plan


_GINI_FIT = (
    COMPILE_LISTENER
    + """
from trees import DecisionTreeClassifier
rng = np.random.default_rng(0)
X = rng.normal(size=(200, 5))
DecisionTreeClassifier().fit(X, (X[:, 0] > 0).astype(int))
print(json.dumps(sorted(compiled)))
"""
)


@pytest.mark.slow
def test_a_gini_fit_compiles_the_gini_path_only(tmp_path):
    """On an empty kernel cache a default classifier compiles its own search alone: no other
    criterion, no random or absolute-error search, no membership split, no feature draws, no
    loop of its own for the tree's impurities."""
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path))
    output = subprocess.run([sys.executable, "-c", _GINI_FIT], cwd=ROOT, env=env, check=True,
                            capture_output=True, text=True, timeout=1800).stdout  # fmt: skip
    compiled = set(json.loads(output.strip().splitlines()[-1]))
    assert {"choose_split", "_gini_proxy"} <= compiled
    # the plan's entry, under its plan's name (``_kernels_entries._compiled_for``)
    assert any(name.startswith("growth_kernel.<locals>.grow_plan_") for name in compiled)
    never = {
        "choose_random_split",
        "choose_absolute_error_split",
        "impure",
        "categorical_best",
        "split_by_membership",
        "split_by_drawn_threshold",
        "sorted_for_search",
        "_drawn_order",
        "_entropy_proxy",
        "_chi2_proxy",
        "_report_chi2_proxy",
        "_poisson_proxy",
        "node_loop.<locals>.each",  # the nodes' impurities: computed in the plan's kernel
    }
    assert not compiled & never


def test_kernels_are_compiled_without_a_c_wrapper():
    """numba makes a wrapper callable from C beside a compiled function unless told not to;
    the kernels never use it (``_kernels_arrays.KERNEL``)."""

    @njit
    def plain(num, den):
        return num / den

    plain(1.0, 2.0)
    safe_divide(1.0, 2.0)
    assert "cfunc." in plain.inspect_llvm(plain.signatures[0])  # numba's default
    assert "cfunc." not in safe_divide.inspect_llvm(safe_divide.signatures[0])


@pytest.fixture
def record_folder(tmp_path, monkeypatch):
    monkeypatch.setattr(_kernels_cache, "_record_folder", lambda: tmp_path)
    return tmp_path


def test_the_record_keeps_what_this_machine_compiled(record_folder):
    entry = ["grow", list(plan_of("entropy"))]
    assert not _kernels_cache.compiled(entry)
    _kernels_cache.record_compiled(entry)
    _kernels_cache.record_compiled(["part", "tree"])
    assert _kernels_cache.compiled(entry) and _kernels_cache.compiled(["part", "tree"])
    assert not _kernels_cache.compiled(["part", "grower"])


def test_a_record_for_other_sources_or_another_numba_is_empty(record_folder):
    _kernels_cache.record_compiled(["part", "tree"])
    record = json.loads((record_folder / "compiled.json").read_text())
    record["key"] = "another digest|numba 0.1"
    (record_folder / "compiled.json").write_text(json.dumps(record))
    assert not _kernels_cache.compiled(["part", "tree"])
    (record_folder / "compiled.json").write_text("not json")
    assert not _kernels_cache.compiled(["part", "tree"])


@pytest.fixture
def prepared(monkeypatch):
    """The plans the kernels' preparer is called for, as if this machine had compiled none."""
    calls, previous = [], list(_kernels_entries._PREPARER)
    monkeypatch.setattr(_kernels_entries, "compiled", lambda entry: False)
    _forget_made_kernels()
    _kernels_entries.set_kernel_preparer(lambda kind, plan: calls.append((kind, plan)))
    yield calls
    _kernels_entries.set_kernel_preparer(previous[0] if previous else None)


def _forget_made_kernels():
    """Empty the entry kernels' factories: each plan's next use calls the preparer again."""
    for factory in (_kernels_entries.growth_kernel, _kernels_entries.grower_kernels,
                    _kernels_entries.forest_kernel,
                    _kernels_entries.sparse_growth_kernel):  # fmt: skip
        factory.cache_clear()


def test_the_preparer_is_called_once_before_a_new_plan_first_runs(prepared):
    plan = plan_of("gini")
    warm_up_plan("grow", plan)
    warm_up_plan("grow", plan)
    assert prepared == [("grow", plan)]


def test_every_plan_of_the_warm_up_parts_is_the_plan_its_fit_uses(prepared):
    """The tiny fit made for a plan's step (``ensemble._warmup.warm_up_plan``: the step alone,
    not its callee steps) runs that very plan: a worker asked for a plan compiles the right
    kernels."""
    plans = {step for steps in PARTS.values() for step in steps if not callable(step)}
    for kind, plan in sorted(plans, key=str):
        prepared.clear()
        _forget_made_kernels()
        warm_up_step(kind, plan)
        # A node search (a heavy plan's callee step) is the grower's search of that plan.
        assert ({"search": "grower"}.get(kind, kind), plan) in prepared, (kind, plan, prepared)


def test_the_single_extra_trees_and_the_random_control_are_warmed(prepared):
    """scikit-learn's single extra trees (``ExtraTreeClassifier`` draws its features) and the
    conditioning page's control (a random-split tree of each task) fit with plans a warm-up
    part compiles, and predict as the same trees grown again."""
    from trees import ExtraTreeClassifier, ExtraTreeRegressor
    from trees.tree._warmup import tiny_data

    warmed = {step for steps in PARTS.values() for step in steps if not callable(step)}
    X, y, value = tiny_data()
    fits = [
        (ExtraTreeClassifier(random_state=0), y),
        (ExtraTreeRegressor(random_state=0), value),
        (ExtraTreeClassifier(max_features=None, random_state=0), y),
    ]
    for estimator, target in fits:
        prepared.clear()
        first = estimator.fit(X, target).predict(X)
        assert prepared and set(prepared) <= warmed, (estimator, prepared)
        np.testing.assert_array_equal(estimator.fit(X, target).predict(X), first)


def test_the_sparse_multi_output_plans_are_warmed_last(prepared):
    """A tree of several outputs fitted on a sparse matrix, under each criterion with a
    multi-output form, runs a plan of the warm-up's last part (no page fits one), and its
    warm-up step grows a sparse multi-output tree (the step runs the plan it names)."""
    from scipy import sparse

    from trees import DecisionTreeClassifier, DecisionTreeRegressor
    from trees.tree._warmup import tiny_data

    assert list(PARTS)[-1] == "sparse multi-output"
    warmed = set(PARTS["sparse multi-output"])
    X, y, value = tiny_data()
    fits = [(DecisionTreeClassifier, np.column_stack([y, X[:, 0]]), name)
            for name in ("gini", "entropy")]  # fmt: skip
    fits += [(DecisionTreeRegressor, np.column_stack([value, value**2]), name)
             for name in ("squared_error", "friedman_mse", "poisson")]  # fmt: skip
    used = set()
    for estimator, target, criterion in fits:
        prepared.clear()
        _forget_made_kernels()
        fitted = estimator(criterion=criterion, random_state=0).fit(sparse.csc_matrix(X), target)
        assert fitted.tree_.node_count > 1
        assert prepared and set(prepared) <= warmed, (criterion, prepared)
        used |= set(prepared)
    assert used == warmed


# Each fit of the sequence that once failed to load from numba's cache (numba 0.68: "NRT_adapt_
# ndarray_to_python: 'descr' is NULL"): plans whose criteria share the compiled helpers of
# ``_kernels_numbers``, each compiled alone in a process of its own, then loaded together.
_SHARED_HELPER_FITS = (
    COMPILE_LISTENER
    + """
import sys
from trees import DecisionTreeRegressor, ExtraTreeClassifier, ExtraTreeRegressor
rng = np.random.default_rng(0)
X = rng.normal(size=(300, 4))
counts = rng.poisson(np.exp(X[:, :2] / 2))
noisy = X[:, :2] + rng.normal(size=(300, 2))
classes = np.column_stack([X[:, 0] > 0, (X[:, 1] > 0.5).astype(int) + (X[:, 2] > 0)])
FITS = {
    "poisson": lambda: DecisionTreeRegressor(criterion="poisson", max_depth=6).fit(X, counts),
    "friedman": lambda: ExtraTreeRegressor(criterion="friedman_mse", random_state=0).fit(X, noisy),
    "random_classifier": lambda: ExtraTreeClassifier(random_state=0).fit(X, classes),
}
predictions = {name: FITS[name]().predict(X).tolist() for name in sys.argv[1:]}
print(json.dumps({"compiled": sorted(compiled), "predictions": predictions}))
"""
)


def _fits_in_a_process(names, cache_dir):
    """Run :data:`_SHARED_HELPER_FITS` for ``names`` in a new process on the kernel cache
    ``cache_dir``; its compiled functions' names and its predictions."""
    env = dict(os.environ, NUMBA_CACHE_DIR=str(cache_dir))
    done = subprocess.run([sys.executable, "-c", _SHARED_HELPER_FITS, *names], cwd=ROOT,
                          env=env, capture_output=True, text=True, timeout=1800)  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.slow
def test_plans_compiled_in_separate_processes_load_together_from_the_cache(tmp_path):
    """Three plans whose criteria compile in the same helpers (``_kernels_numbers``), each
    compiled in a process of its own on a fresh cache, then loaded from it into one process
    and fitted there in the order that failed before the entry kernels were named per plan
    (``_kernels_entries._compiled_for``): the same trees, and no plan compiled again."""
    names = ["poisson", "friedman", "random_classifier"]
    alone = [_fits_in_a_process([name], tmp_path) for name in names]
    assert "safe_divide" in alone[0]["compiled"]  # the helper every criterion here calls
    together = _fits_in_a_process(names, tmp_path)
    assert together["predictions"] == {k: v for run in alone for k, v in run["predictions"].items()}
    assert not [name for name in together["compiled"] if "_plan_" in name]
