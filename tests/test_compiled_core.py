"""The compiled core: row blocks in threads, the forests' pack, the cache guard, warm-up.

The kernels' results are checked against the numpy definitions elsewhere
(test_splitter, test_tree, test_sklearn_equivalence, test_grower); these tests
cover what only the compiled core has.
"""

import os
import subprocess
import sys

import numpy as np
import pytest
from numba.core.registry import CPUDispatcher

from trees import (
    DecisionTreeClassifier,
    DecisionTreeRegressor,
    ExtraTreesClassifier,
    RandomForestClassifier,
    RandomForestRegressor,
    TreeGrower,
    warm_up,
)
from trees.tree import _kernels_cache
from trees.tree._kernels_traversal import SCHEDULES, walk_leaves, walk_schedule, walk_sums
from trees.tree._operators import OPERATOR_CODES
from trees.tree._parallel import MIN_ROWS_PER_THREAD


@pytest.fixture(scope="module")
def lattice_rows():
    """Rows on a half-integer lattice: many values equal a threshold."""
    rng = np.random.default_rng(0)
    X = rng.integers(0, 8, size=(400, 3)).astype(float)
    y = (X[:, 0] + X[:, 1] + rng.normal(0, 1, 400) > 7).astype(int)
    X_many = rng.integers(0, 16, size=(3 * MIN_ROWS_PER_THREAD, 3)) / 2.0
    return X, y, X_many


@pytest.mark.parametrize("schedule", SCHEDULES.values(), ids=list(SCHEDULES))
@pytest.mark.parametrize("op", ["<=", "<", "average"])
def test_threaded_row_blocks_equal_one_block(lattice_rows, op, schedule):
    """Rows in threads equal one block, under either schedule (the walk takes one of them,
    ``walk_schedule``; the other must give the same leaves)."""
    X, y, X_many = lattice_rows
    tree = DecisionTreeClassifier().fit(X, y).tree_
    threaded = tree.predict(X_many, op)
    one_block = np.zeros_like(threaded)
    pack = tree.node_pack()
    walk = pack.walk([OPERATOR_CODES[op]])
    walk_sums(walk, pack.leaves(), X_many, schedule, (0, X_many.shape[0]), one_block)
    np.testing.assert_array_equal(threaded, one_block)
    assert np.any(tree.predict(X_many, "<=") != tree.predict(X_many, "<"))  # the lattice bites


@pytest.mark.parametrize("schedule", SCHEDULES.values(), ids=list(SCHEDULES))
def test_average_walks_both_tests_in_one_pass(lattice_rows, schedule):
    X, y, X_many = lattice_rows
    tree = DecisionTreeRegressor().fit(X, X[:, 0] * y + X[:, 1]).tree_
    leaves = np.empty((2, X_many.shape[0], 1), dtype=np.int64)
    pack = tree.node_pack()
    walk = pack.walk([OPERATOR_CODES["average"]])
    assert walk_schedule(walk) == walk_schedule(pack.walk([OPERATOR_CODES["<="]]))  # one rule
    walk_leaves(walk, X_many, schedule, (0, X_many.shape[0]), leaves)
    np.testing.assert_array_equal(pack.original[leaves[0, :, 0]], tree.apply(X_many, "<="))
    np.testing.assert_array_equal(pack.original[leaves[1, :, 0]], tree.apply(X_many, "<"))


def test_decision_path_ends_at_the_leaf(lattice_rows):
    X, y, X_many = lattice_rows
    tree = DecisionTreeClassifier(max_depth=5).fit(X, y).tree_
    for op in ("<=", "<"):
        path = tree.decision_path(X_many[:500], op)
        leaves = tree.apply(X_many[:500], op)
        last = np.array([path.indices[path.indptr[i + 1] - 1] for i in range(500)])
        np.testing.assert_array_equal(last, leaves)
        assert np.all(path.toarray()[:, 0] == 1)


def _leaf_by_rule(tree, row, op):
    """The leaf ``row`` reaches by ``x <= t`` or ``x < t``, node by node in Python."""
    node = 0
    while tree.left[node] != -1:
        value, threshold = row[tree.feature[node]], tree.threshold[node]
        goes_left = value <= threshold if op == "<=" else value < threshold
        node = tree.left[node] if goes_left else tree.right[node]
    return node


@pytest.mark.parametrize("schedule", SCHEDULES.values(), ids=list(SCHEDULES))
def test_infinite_values_end_at_their_leaf_under_every_test(lattice_rows, schedule):
    """A leaf compares nothing (its threshold is NaN in the records): a row with infinite
    values stops at the leaf it reaches, under ``<``'s reading of ``<=``'s records too (the
    second path of ``"average"``), where ``inf == inf`` would have moved it on."""
    X, y, _ = lattice_rows
    tree = DecisionTreeClassifier(max_depth=4).fit(X, y).tree_
    rows = np.array([[np.inf, 1.0, 2.0], [-np.inf, 3.0, np.inf], [4.0, np.inf, -np.inf],
                     [np.inf, np.inf, np.inf], [3.5, 2.0, 7.0]])  # fmt: skip
    pack = tree.node_pack()
    leaves = np.empty((2, rows.shape[0], 1), dtype=np.int64)
    walk_leaves(pack.walk([OPERATOR_CODES["average"]]), rows, schedule, (0, len(rows)), leaves)
    for k, op in enumerate(("<=", "<")):
        expected = [_leaf_by_rule(tree, row, op) for row in rows]
        np.testing.assert_array_equal(pack.original[leaves[k, :, 0]], expected)
        np.testing.assert_array_equal(tree.apply(rows, op), expected)


def test_forest_prediction_does_not_depend_on_threads(lattice_rows):
    X, y, X_many = lattice_rows
    for conditioning in ("<=", "half", "average"):
        one = RandomForestClassifier(n_estimators=6, conditioning=conditioning, random_state=0)
        two = RandomForestClassifier(
            n_estimators=6, conditioning=conditioning, random_state=0, n_jobs=2
        )
        np.testing.assert_array_equal(
            one.fit(X, y).predict_proba(X_many), two.fit(X, y).predict_proba(X_many)
        )


def test_forest_with_categorical_features_splits_by_membership():
    rng = np.random.default_rng(1)
    codes = rng.integers(0, 6, 600)
    X = np.column_stack([codes, rng.normal(size=600)]).astype(float)
    y = np.isin(codes, [1, 4]).astype(int)
    forest = RandomForestClassifier(
        n_estimators=8, categorical_features=[0], max_features=None, random_state=0
    ).fit(X, y)
    assert all(est.tree_.is_membership[0] for est in forest.estimators_)
    by_hand = np.mean([est.tree_.predict(X) for est in forest.estimators_], axis=0)
    np.testing.assert_allclose(forest.predict_proba(X), by_hand)
    assert forest.score(X, y) == 1.0
    regressor = RandomForestRegressor(n_estimators=4, categorical_features=[0], random_state=0)
    assert regressor.fit(X, y.astype(float)).estimators_[0].tree_.is_membership.any()


def test_a_constant_target_is_a_leaf_whatever_the_rounding():
    """Ten rows per value of y, noise features: each group is a leaf, never split further."""
    rng = np.random.default_rng(2)
    y = np.repeat([0.1, 0.7, 1e5 + 0.3], 10)
    X = np.column_stack([np.repeat([0.0, 1.0, 2.0], 10), rng.normal(size=(30, 3))])
    tree = DecisionTreeRegressor().fit(X, y, sample_weight=rng.integers(1, 4, 30)).tree_
    assert tree.n_leaves == 3


def _compiled_signatures():
    """Every compiled specialisation of the package's kernels, by (module, name)."""
    return {
        (module.__name__, name): set(map(str, value.signatures))
        for module in list(sys.modules.values())
        if getattr(module, "__name__", "").startswith("trees.")
        for name, value in vars(module).items()
        if isinstance(value, CPUDispatcher)
    }


def _read_only(array):
    array = np.array(array)
    array.flags.writeable = False
    return array


def test_after_warm_up_the_usual_work_compiles_nothing_new():
    """Fits, predictions and grower steps on read-only inputs (what pandas' copy-on-write
    hands out) reuse the warmed kernels: a new specialisation would cost seconds on first use."""
    warm_up()
    before = _compiled_signatures()
    rng = np.random.default_rng(1)
    X = _read_only(rng.normal(size=(60, 3)))
    y_class = _read_only((X[:, 0] > 0).astype(int))
    y_value = _read_only(X[:, 1] * 2.0)
    DecisionTreeClassifier(max_depth=3).fit(X, y_class).predict_proba(X)
    DecisionTreeRegressor(max_leaf_nodes=5).fit(X, y_value).predict(X)
    for target, criterion in ((y_class, "gini"), (y_value, "squared_error")):
        grower = TreeGrower(X, target, criterion=criterion, max_leaf_nodes=4)
        grower.step()
        grower.grow_all()
    RandomForestClassifier(n_estimators=3, random_state=0).fit(X, y_class).predict_proba(X)
    # The forests the batches grow besides: weighted (drawn, or taken without bootstrap,
    # each tree's classes balanced in its sample), Poisson, categorical.
    weights = _read_only(np.linspace(0.5, 2.0, 60))
    RandomForestClassifier(n_estimators=3, class_weight="balanced", oob_score=True,
                           random_state=0).fit(X, y_class, sample_weight=weights)  # fmt: skip
    RandomForestClassifier(n_estimators=3, class_weight="balanced_subsample",
                           random_state=0).fit(X, y_class)  # fmt: skip
    ExtraTreesClassifier(n_estimators=3, random_state=0).fit(X, y_class, sample_weight=weights)
    RandomForestRegressor(n_estimators=3, criterion="poisson", random_state=0).fit(
        X, _read_only(np.abs(y_value))
    )
    codes = _read_only(np.column_stack([np.arange(60) % 4, X[:, 1:]]).astype(float))
    RandomForestClassifier(n_estimators=3, categorical_features=[0], random_state=0).fit(
        codes, y_class
    )
    after = _compiled_signatures()
    new = {key: after[key] - before.get(key, set()) for key in after}
    assert not {key: value for key, value in new.items() if value}


def test_the_cache_guard_clears_stale_kernels(tmp_path, monkeypatch):
    stale = tmp_path / "_kernels_search.scan_thresholds-1.py311.nbi"
    other = tmp_path / "other_module.f-1.py311.nbi"
    stale.write_text("x")
    other.write_text("x")
    (tmp_path / "kernels.digest").write_text("an older digest")
    monkeypatch.setattr(_kernels_cache, "_cache_folders", lambda: [(tmp_path, True)])
    _kernels_cache.refresh_cache()
    assert not stale.exists() and other.exists()
    stamp = (tmp_path / "kernels.digest").read_text()
    stale.write_text("x")
    _kernels_cache.refresh_cache()  # same digest: nothing to clear
    assert stale.exists() and stamp == (tmp_path / "kernels.digest").read_text()


def test_the_cache_guard_clears_interop_walks_when_the_shared_rule_changes(tmp_path, monkeypatch):
    """``trees.interop``'s walks compile in ``general_child`` from ``trees.tree``: an edit of the
    tree kernels clears their cached files too, and an edit of their own module as well."""
    module = tmp_path / "_walk.py"
    module.write_text("x = 1\n")
    cached = tmp_path / "_walk.walk_lanes-340.py311.nbi"
    other = tmp_path / "_scan.scan-20.py311.nbi"
    other.write_text("x")
    monkeypatch.setattr(_kernels_cache, "_cache_folders", lambda source: [(tmp_path, True)])

    def refreshed_after(change):
        cached.write_text("x")
        change()
        _kernels_cache.refresh_dependent_cache([module])
        return not cached.exists()

    assert refreshed_after(lambda: None)  # never stamped
    assert not refreshed_after(lambda: None)  # nothing changed
    monkeypatch.setattr(_kernels_cache, "_digest", lambda: "the tree kernels, edited")
    assert refreshed_after(lambda: None)
    assert refreshed_after(lambda: module.write_text("x = 2\n"))
    assert other.exists()  # another module's kernels stay


def _literals(numba_type):
    """The literal types inside ``numba_type`` (a tuple's members, at any depth)."""
    from numba.core import types

    if isinstance(numba_type, types.Literal):
        return [numba_type]
    if isinstance(numba_type, types.BaseTuple):
        return [literal for member in numba_type.types for literal in _literals(member)]
    return []


def test_the_growth_and_the_walks_are_not_compiled_again_for_literal_integers():
    """numba compiles a called kernel once per literal integer argument (``_evaluate(..., 0)``
    and ``_evaluate(..., node)`` are two compilations, seconds each): the kernels pass int64
    values instead (issue 30, item 4). The only literals are a growth's plan, in its settings
    (issue 56: one compilation per plan, ``trees/tree/_kernels_plan.py``). Checked where the
    kernels were compiled in this process (a fresh machine, as CI); kernels loaded from
    numba's cache have no signatures."""
    from numba.core import types

    from trees.tree import _kernels_growth, _kernels_store, _kernels_traversal

    warm_up()
    kernels = {
        "_evaluate": _kernels_growth._evaluate,
        "_split": _kernels_growth._split,
        "scratch_arrays": _kernels_store.scratch_arrays,
        "walk_sums": _kernels_traversal.walk_sums,
        "walk_leaves": _kernels_traversal.walk_leaves,
        "general_child": _kernels_traversal.general_child,
        **{k.__name__: k for pair in _kernels_traversal.PLAIN_WALKS.values() for k in pair},
    }
    for name, kernel in kernels.items():
        signatures = kernel.signatures
        assert not any(isinstance(t, types.Literal) for s in signatures for t in s), name
        plans = {tuple(map(str, _literals(types.Tuple(s)))) for s in signatures}
        assert len(plans) == len(signatures), f"{name} compiled twice for one plan"
        if name not in ("_evaluate", "_split"):
            assert len(signatures) <= 1, name


def test_the_cache_digest_covers_every_kernel_module(tmp_path):
    found = {path.name for path in _kernels_cache.kernel_sources()}
    assert {"_kernels_random.py", "_kernels_absolute_error.py", "_kernels_search.py"} <= found
    for name in ("_kernels_search.py", "_kernels_random.py"):
        (tmp_path / name).write_text("x = 1\n")
    before = _kernels_cache._digest(tmp_path)
    (tmp_path / "_kernels_random.py").write_text("x = 2\n")
    assert _kernels_cache._digest(tmp_path) != before


def test_the_cache_guard_stamps_the_folder_numba_fills_under_numba_cache_dir(tmp_path):
    """With ``NUMBA_CACHE_DIR`` set, the guard looks after the folder numba writes the kernels
    to (numba 0.68 names it after a hash of the package's folder, which a pattern missed)."""
    script = (
        "import numpy as np\n"
        "from trees.tree._kernels_arrays import no_infinity\n"
        "no_infinity(np.zeros((2, 2)))\n"
    )
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    subprocess.run([sys.executable, "-c", script], env=env, check=True, timeout=600)
    filled = {path.parent for path in tmp_path.rglob("_kernels_arrays.no_infinity*.nbi")}
    assert len(filled) == 1
    assert (filled.pop() / "kernels.digest").read_text() == _kernels_cache._digest()


def test_a_plain_walk_compiles_its_schedule_alone(tmp_path, lattice_rows):
    """A lab tree's decision path (the app's first picture: a shallow tree, lock-step) compiles
    on an empty kernel cache the plain lock-step entry alone (``PLAIN_WALKS``): not the lanes
    of tree by tree, nor the general walk of special trees and ``"average"``."""
    X, y, _ = lattice_rows
    tree = DecisionTreeClassifier(max_depth=3).fit(X, y).tree_
    assert walk_schedule(tree.node_pack().walk([OPERATOR_CODES["<="]])) == SCHEDULES["lock-step"]
    (tmp_path / "tree.json").write_text(tree.to_json())
    script = (
        "import pathlib, numpy as np\n"
        "from trees.tree import Tree, _kernels_traversal as k\n"
        f"tree = Tree.from_json(pathlib.Path({str(tmp_path / 'tree.json')!r}).read_text())\n"
        "tree.decision_path(np.zeros((3, 3)))\n"
        "kernels = (k._plain_leaves_lock_step, k._plain_lock_step, k._plain_tree_by_tree,\n"
        "           k._plain_leaves_tree_by_tree, k.walk_leaves, k._tree_leaves)\n"
        "print([len(kernel.signatures) for kernel in kernels])\n"
    )
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache")}
    done = subprocess.run([sys.executable, "-c", script], env=env, check=True, timeout=600,
                          capture_output=True, text=True)  # fmt: skip
    assert done.stdout.split("\n")[-2] == "[1, 1, 0, 0, 0, 0]"


def test_a_ready_array_enters_the_kernels_without_np_require(monkeypatch):
    """``kernel_array`` returns a C-ordered, writeable array of the asked dtype itself, without
    ``np.require`` (microseconds of Python a call, which a small tree's prediction paid); any
    other array is still made one."""
    from trees.tree import _kernels_arrays

    calls, require = [], np.require
    monkeypatch.setattr(np, "require", lambda *a, **k: calls.append(1) or require(*a, **k))
    X = np.zeros((4, 3))
    assert _kernels_arrays.kernel_array(X) is X
    assert _kernels_arrays.kernel_array(X, np.float64) is X
    assert not calls
    read_only = X.copy()
    read_only.flags.writeable = False
    for other in (read_only, np.asfortranarray(X), X.astype(np.float32), [[0.0, 1.0]]):
        made = _kernels_arrays.kernel_array(other, np.float64)
        assert made is not other and made.dtype == np.float64
        assert made.flags.c_contiguous and made.flags.writeable
    assert len(calls) == 4


def test_compiled_draws_are_the_generators_own_numbers():
    """``_kernels_uniform`` draws from ``rng.bit_generator``: the numbers ``rng.random()`` gives,
    and the Generator's state moves on as if it had drawn them itself."""
    from numba import njit

    from trees.tree._kernels_uniform import uniform, uniforms

    @njit
    def draw(rng, n):
        bit_generator = rng.bit_generator
        first = uniform(bit_generator)
        return first, uniforms(bit_generator, n)

    ours, reference = np.random.default_rng(7), np.random.default_rng(7)
    first, rest = draw(ours, 5)
    assert first == reference.random()
    np.testing.assert_array_equal(rest, reference.random(5))
    assert ours.random() == reference.random()
