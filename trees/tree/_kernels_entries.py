"""The compiled kernels Python calls to grow trees, made for each plan.

A growth's plan (``_kernels_plan.KernelPlan``: its criterion, categorical
features, random splits, drawn feature orders, raw sums and absolute error)
chooses its compiled code. Each function here makes, once per plan and
process, the entry kernels of one kind for that plan: compiled functions whose
closure holds the plan's values, which they pass on as literal constants
(``_kernels_plan``), so that numba compiles the growth below them for that
plan only:

* :func:`growth_kernel` (kind ``"grow"``): a tree's growth (``_kernels_growth.grow_compiled``);
* :func:`grower_kernels` (kind ``"grower"``): the step-by-step grower's search, split and
  node rules (``evaluate_nodes``, ``split_node``, ``splittable_nodes``);
* :func:`forest_kernel` (kind ``"forest"``): a batch of a forest's trees
  (``_kernels_forest.grow_trees``);
* :func:`sparse_growth_kernel` (kind ``"sparse"``): a tree's growth on a CSC matrix
  (``_kernels_sparse_growth.grow_sparse``), which a dense fit never compiles.

numba caches a closure on disk under the values it holds (they are part of its
cache key), so each plan is compiled once per machine, like every other kernel.
Once its kernels have run, a plan is written in the machine's record
(``_kernels_cache.record_compiled``). Before a plan this machine has not compiled
runs for the first time, the preparer given to :func:`set_kernel_preparer` is
called, if any: an app compiles the plan in another process and says so on its
page, so that its own process never compiles (``lab.kernels``).
"""

import re
from functools import cache
from typing import NamedTuple

from numba import njit

from ._kernels_arrays import KERNEL
from ._kernels_cache import compiled, record_compiled
from ._kernels_forest import grow_trees
from ._kernels_growth import evaluate_nodes, grow_compiled, split_node, splittable_nodes
from ._kernels_plan import KernelPlan
from ._kernels_sparse_growth import grow_sparse

__all__ = [
    "GrowerKernels",
    "forest_kernel",
    "grower_kernels",
    "growth_kernel",
    "plan_entry",
    "set_kernel_preparer",
    "sparse_growth_kernel",
]

_JIT = KERNEL
# ``preparer(kind, plan)``, called before a plan this machine has not compiled first runs.
_PREPARER = []


def set_kernel_preparer(preparer):
    """Have ``preparer(kind, plan)`` called before the entry kernels of a plan (``kind``:
    ``"grow"``, ``"grower"``, ``"forest"`` or ``"sparse"``) first run in this process, when this machine's
    record says they are not compiled; it returns once they are in numba's on-disk cache (or
    gives up: they are then compiled here). ``None`` removes it."""
    _PREPARER[:] = [] if preparer is None else [preparer]


def plan_entry(kind, plan):
    """The record's entry of the ``kind`` kernels of ``plan`` (``_kernels_cache``)."""
    return [kind, list(plan)]


class _Recorded:
    """A compiled entry kernel that writes its plan in the machine's record after it first
    ran (its kernels are then in numba's cache); ``together`` records only when every
    kernel of the same ``_Recorded`` group has run."""

    def __init__(self, kernel, entry, together):
        self._kernel, self._entry, self._together = kernel, entry, together
        self.ran = False

    def __reduce__(self):
        # Pickled (a process backend runs a forest's batches in other processes) by its kind,
        # plan and place in its group: the other process makes the plan's kernels as this one
        # did. Pickled by value, numba would copy the compiled functions below it, and the
        # plan's ``only_when`` helpers come out as plain functions it cannot type.
        kind, plan = self._entry
        return (_entry_kernel, (kind, tuple(plan), self._together.index(self)))

    def __call__(self, *args):
        result = self._kernel(*args)
        if not self.ran:
            self.ran = True
            if all(other.ran for other in self._together):
                record_compiled(self._entry)
        return result


def _entry_kernel(kind, plan, index):
    """The ``index``'th entry kernel of the ``kind`` kernels of ``plan`` (a tuple of its values),
    made in this process (``_Recorded.__reduce__``)."""
    made = _KINDS[kind](KernelPlan(*plan))
    return made[index] if isinstance(made, GrowerKernels) else made


def _prepared(kind, plan):
    """Call the preparer before a plan this machine has not compiled (module docstring)."""
    if _PREPARER and not compiled(plan_entry(kind, plan)):
        _PREPARER[0](kind, plan)


def _compiled_for(plan):
    """``njit`` for an entry kernel of ``plan``, under a name of its own.

    numba names a compiled function by its qualified name and a counter of the process that
    compiles it, and its environment (the constants its boxed results need) by that name. The
    entry closures of every plan share one qualified name (``growth_kernel.<locals>.grow``), so
    two plans compiled in two processes can carry the same name; loaded from the cache into one
    process, the second then finds the first's environment and fails to box its arrays
    ("NRT_adapt_ndarray_to_python: 'descr' is NULL"). A name per plan keeps them apart.
    """
    tag = re.sub(r"\W", "_", "_".join(str(value) for value in plan))

    def compiled_entry(function):
        function.__qualname__ = f"{function.__qualname__}_plan_{tag}"
        return njit(**_JIT)(function)

    return compiled_entry


def _recorded(kind, plan, *kernels):
    group = []
    group += [_Recorded(kernel, plan_entry(kind, plan), group) for kernel in kernels]
    return group


@cache
def growth_kernel(plan):
    """``grow(*data, root_stats, settings, rules, rng)``: ``grow_compiled`` (its arguments after
    the plan) for the trees of ``plan`` (a ``KernelPlan``), made once per process."""
    _prepared("grow", plan)
    crit, by_score, random, draw, raw_sums, absolute_error = plan

    @_compiled_for(plan)
    def grow(rows, stats, X, categorical, targets, orders, columns, root_stats, settings, rules,
             rng):  # fmt: skip
        planned = (crit, by_score, random, draw, raw_sums, absolute_error)
        return grow_compiled(planned, rows, stats, X, categorical, targets, orders, columns,
                             root_stats, settings, rules, rng)  # fmt: skip

    return _recorded("grow", plan, grow)[0]


class GrowerKernels(NamedTuple):
    """The step-by-step grower's entry kernels of one plan: ``evaluate(data, store, nodes,
    search)``, ``split(data, store, node, size)`` and ``splittable(data, store, nodes,
    search)`` (``evaluate_nodes``', ``split_node``', ``splittable_nodes``')."""

    evaluate: object
    split: object
    splittable: object


@cache
def grower_kernels(plan):
    """The :class:`GrowerKernels` of ``plan`` (a ``KernelPlan``), made once per process."""
    _prepared("grower", plan)
    crit, by_score, random, draw, raw_sums, absolute_error = plan

    @_compiled_for(plan)
    def evaluate(data, store, nodes, search):
        planned = (crit, by_score, random, draw, raw_sums, absolute_error)
        return evaluate_nodes(planned, data, store, nodes, search)

    @_compiled_for(plan)
    def split(data, store, node, size):
        planned = (crit, by_score, random, draw, raw_sums, absolute_error)
        return split_node(planned, data, store, node, size)

    @_compiled_for(plan)
    def splittable(data, store, nodes, search):
        planned = (crit, by_score, random, draw, raw_sums, absolute_error)
        return splittable_nodes(planned, data, store, nodes, search)

    return GrowerKernels(*_recorded("grower", plan, evaluate, split, splittable))


@cache
def forest_kernel(plan):
    """``grow(data, draws, centring, generators, settings, rules)``: ``grow_trees`` for the
    forests of ``plan`` (a ``KernelPlan``), made once per process."""
    _prepared("forest", plan)
    crit, by_score, random, draw, raw_sums, absolute_error = plan

    @_compiled_for(plan)
    def grow(data, draws, centring, generators, settings, rules):
        planned = (crit, by_score, random, draw, raw_sums, absolute_error)
        return grow_trees(planned, data, draws, centring, generators, settings, rules)

    return _recorded("forest", plan, grow)[0]


@cache
def sparse_growth_kernel(plan):
    """``grow(rows, where, stats, matrix, targets, root_stats, settings, rules, rng)``:
    ``grow_sparse`` (its arguments after the plan) for the trees of ``plan`` grown on a CSC
    matrix, made once per process."""
    _prepared("sparse", plan)
    crit, by_score, random, draw, raw_sums, absolute_error = plan

    @_compiled_for(plan)
    def grow(rows, where, stats, matrix, targets, root_stats, settings, rules, rng):
        planned = (crit, by_score, random, draw, raw_sums, absolute_error)
        return grow_sparse(planned, rows, where, stats, matrix, targets, root_stats, settings,
                           rules, rng)  # fmt: skip

    return _recorded("sparse", plan, grow)[0]


# Each kind's maker (``_entry_kernel``).
_KINDS = {
    "grow": growth_kernel,
    "grower": grower_kernels,
    "forest": forest_kernel,
    "sparse": sparse_growth_kernel,
}
