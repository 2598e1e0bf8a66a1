"""Compiling a growth for its plan: only the code its criterion, splitter and data use.

numba compiles a function for the *types* of its arguments, and every branch
of it, whatever values will run. When the criterion, the splitter and the
kind of data were codes read at run time, a single Gini tree on 200 rows
compiled every search, every split and every criterion the package has (68 s
of CPU on a 2-core machine, 0.7 GB of memory), most of which it never ran.

A growth's *plan* (:class:`KernelPlan`) is what chooses its code:

* ``crit``: the criterion's kernel id (``_kernels_criteria.KERNEL_IDS``);
* ``by_score``: whether the data have categorical features (membership splits,
  compared with threshold splits by their scores);
* ``random``: whether the splitter draws its thresholds (``_kernels_random``);
* ``draw``: whether each node draws its features' order or subset
  (``_kernels_search.visiting_order``);
* ``raw_sums``: regression on scikit-learn's raw sums, whose pure-node rule
  needs its order of the rows (``_kernels_sklearn_order``);
* ``absolute_error``: whether the criterion judges a node by its rows' median
  (``_kernels_absolute_error``).

numba types a constant by its value (``Literal[int](0)``, ``Literal[bool](True)``),
keeps that type in the tuples built from it, and compiles a function called
with it for that value. The kernels Python calls to grow are made per plan
(``_kernels_entries``): compiled functions whose closures hold the plan's
values, which numba reads as such constants (and caches on disk by them: a
closure's values are part of numba's cache key). They put the plan into the
search settings (``_kernels_search.SETTING_*``), so every kernel below is
compiled once per plan with the plan's values known, and where a value
chooses between kernels, :func:`only_when` (or a chooser written like it:
``_kernels_growth.search_node``) compiles only the one the plan takes.

Both are numba's public extension API (``numba.extending.overload`` with
``prefer_literal``, which types a call with its literal arguments first). A
named tuple would read better than positions, but numba builds a named tuple
with the plain types of its fields (``int64``, not the literal), so the plan
travels in plain tuples.
"""

from typing import NamedTuple

from numba import types
from numba.extending import overload

from ._kernels_arrays import NO_C_WRAPPER
from ._kernels_criteria import ABSOLUTE_ERROR

__all__ = [
    "PLAN_ABSOLUTE_ERROR",
    "PLAN_BY_SCORE",
    "PLAN_CRIT",
    "PLAN_DRAW",
    "PLAN_RANDOM",
    "PLAN_RAW_SUMS",
    "KernelPlan",
    "kernel_plan",
    "only_when",
]


class KernelPlan(NamedTuple):
    """What chooses a growth's compiled code (module docstring); plain Python values, the
    closure values of the growth's entry kernels (:func:`kernel_plan` makes one)."""

    crit: int
    by_score: bool
    random: bool
    draw: bool
    raw_sums: bool
    absolute_error: bool


# Positions in the plan's tuple in compiled code (:class:`KernelPlan`'s order).
PLAN_CRIT, PLAN_BY_SCORE, PLAN_RANDOM, PLAN_DRAW, PLAN_RAW_SUMS, PLAN_ABSOLUTE_ERROR = range(6)


def kernel_plan(crit, *, by_score, random, draw, raw_sums):
    """The :class:`KernelPlan` of a growth, of Python ``int`` and ``bool`` values (numba types
    a numpy boolean in a closure as a plain ``bool``, not as a literal, and would compile
    the plan's every branch again); ``absolute_error`` is read from ``crit``."""
    crit = int(crit)
    flags = (bool(by_score), bool(random), bool(draw), bool(raw_sums))
    return KernelPlan(crit, *flags, crit == ABSOLUTE_ERROR)


def only_when(function):
    """``function`` compiled only for the plans that call it.

    Returns ``call(flag, arguments, otherwise)``: ``function(*arguments)`` when ``flag`` is
    true, else ``otherwise``. Called in compiled code with a literal ``flag`` (a plan's
    value: module docstring) only the side taken is compiled, and ``function`` is not even
    typed for a plan that never calls it. With a flag known only at run time both sides are
    compiled, and ``otherwise`` must then have the type ``function`` returns (``None`` for a
    function returning nothing).

    ``function`` is held by the compiled ``call`` itself, not passed to it: a compiled function
    passed as an argument is a value numba writes into the caller as the address of its
    Python object, and numba will not cache a kernel holding an address. The compiled
    ``call`` is not inlined into its caller (``overload``'s ``inline="always"``): numba's
    inlining of overloads then removes, as dead code, the writes into arrays the caller
    unpacked from a tuple argument (``a, b = store``; numba 0.68), which the kernels do
    throughout.
    """

    def call(flag, arguments, otherwise):
        return function(*arguments) if flag else otherwise

    @overload(call, prefer_literal=True, jit_options=NO_C_WRAPPER)
    def _compiled(flag, arguments, otherwise):
        if isinstance(flag, types.BooleanLiteral):
            if flag.literal_value:
                return lambda flag, arguments, otherwise: function(*arguments)
            return lambda flag, arguments, otherwise: otherwise

        def at_run_time(flag, arguments, otherwise):
            if flag:
                return function(*arguments)
            return otherwise

        return at_run_time

    call.__name__ = call.__qualname__ = f"{function.__name__}_when"
    call.__doc__ = f"``{function.__name__}(*arguments)`` when ``flag`` (:func:`only_when`)."
    return call
