"""Compiled once per machine: what the package compiles, by part and by plan, and when.

The kernels are numba functions, compiled the first time they run and loaded from numba's
on-disk cache after that. A growth's kernels are compiled for its plan alone (its
criterion, splitter and kind of data); the rest once. An app compiles them ahead of use,
part by part in the order its pages need them, and can have each new plan compiled
elsewhere (another process) before it first runs, so that it says so on its page.

Why plans. Before them a single fit compiled nearly every kernel (68 s of CPU on a 2-core
machine; all of them 77 s and 0.94 GB): LLVM 42 s, numba's typing and lowering in Python 33 s,
and a kernel links and optimises again every kernel it calls, so the whole could not be halved
with numba. Plans cut what a page waits for instead (a default Gini fit: about 16 s of CPU
instead of 51; about a tenth less again without numba's C wrappers,
``_kernels_arrays.KERNEL``), and the worker keeps the compiler's memory out of the server. The
price: every plan compiles its own chain, so all parts together cost about 300 s of CPU (2.3 GB in one
process), four times the single code's. A growth plan's compilation adds about 215 MB to its
process, a forest's about 285. So this module, and what it imports, import no scikit-learn,
SciPy or pandas: a plan's step drives the growth below the estimators (``tree._warmup``,
``ensemble._warmup``) and a function step imports the estimators when it runs. The app's
workers (``lab.kernel_worker``) then start at about 100 MB instead of 255 and compile a plan in
a fresh one, a heavy plan after the steps that compile its callees (:func:`plan_steps`), each
worker peaking under 400 MB (540 MB when every worker imported the estimators first; up to 559
when a forest's plan compiled alone).

Public API
----------
PARTS
    The warm-up's parts in the order the lab's pages first need them: name -> steps (a
    plan, ``(kind, plan)``, or a function running kernels on tiny data).
warm_up_part, warm_up_plan, plan_steps
    Compile (or load) one part, or the kernels of one kind for one plan (its steps: a heavy
    plan's callees first); a part done is written in this machine's record.
part_compiled, plan_compiled
    Whether this machine's record says a part's, or a plan's, kernels are compiled.
KernelPlan, plan_from_fields
    A growth's plan, and one read back from its fields (a list of JSON values).
set_kernel_preparer
    Have a function called before a plan this machine has not compiled first runs.
"""

from .ensemble._warmup import LAST_PARTS, PLAN_KINDS, plan_steps
from .ensemble._warmup import PARTS as TREE_AND_FOREST_PARTS
from .tree._kernels_cache import compiled, record_compiled
from .tree._kernels_entries import plan_entry, set_kernel_preparer
from .tree._kernels_plan import KernelPlan
from .tree._warmup import run_steps

__all__ = [
    "PARTS",
    "KernelPlan",
    "part_compiled",
    "plan_compiled",
    "plan_from_fields",
    "plan_steps",
    "set_kernel_preparer",
    "warm_up_part",
    "warm_up_plan",
]


def _warm_up_interop():
    """The kernels that read other libraries' models (``trees.interop.warm_up``), run on plain
    arrays: its module imports no scikit-learn, SciPy or pandas (``trees.interop``'s public
    names load on first use), so the compile worker (``lab.kernel_worker``) takes the step from
    its light start. Imported when the step runs, as the description of the parts needs none."""
    from .interop._warmup import warm_up

    warm_up()


# The trees' and forests' parts, then the kernels that read other libraries' models, then
# the parts no page needs (``ensemble._warmup``: the sparse multi-output plans).
PARTS = {
    **{name: steps for name, steps in TREE_AND_FOREST_PARTS.items() if name not in LAST_PARTS},
    "interop": (_warm_up_interop,),
    **{name: TREE_AND_FOREST_PARTS[name] for name in LAST_PARTS},
}


def _run_from(steps, progress, start, may_start):
    """Run ``steps`` from ``start`` while ``may_start(step)`` allows; the number done."""
    for index in range(start, len(steps)):
        if may_start is not None and not may_start(steps[index]):
            return index
        run_steps([steps[index]], PLAN_KINDS)
        if progress is not None:
            progress(index + 1, len(steps))
    return len(steps)


def warm_up_part(name, progress=None, start=0, may_start=None):
    """Compile (or load) the kernels of the part ``name`` (``PARTS``), then write it in this
    machine's record; ``progress(done, total)`` after each of its steps.

    ``start``: the first step to run (the steps before it were run elsewhere); ``may_start(step)``,
    asked before each step: False stops the part there (a worker whose memory has grown hands
    the rest to a fresh one, ``lab.kernel_worker``). Returns the number of steps done, counting
    those before ``start``: the part is complete, and recorded, when it is
    ``len(PARTS[name])``.
    """
    done = _run_from(PARTS[name], progress, start, may_start)
    if done == len(PARTS[name]):
        record_compiled(["part", name])
    return done


def warm_up_plan(kind, plan, progress=None, start=0, may_start=None):
    """Compile (or load) the ``kind`` kernels of ``plan``: its steps (``plan_steps``: a heavy
    plan's callees first, then the plan), as :func:`warm_up_part` runs a part's. Returns the
    number of steps done; the plan's kernels are compiled when it is ``len(plan_steps(kind,
    plan))``."""
    return _run_from(plan_steps(kind, plan), progress, start, may_start)


def part_compiled(name):
    """Whether this machine's record says the part ``name`` is compiled (:func:`warm_up_part`)."""
    return compiled(["part", name])


def plan_compiled(kind, plan):
    """Whether this machine's record says the ``kind`` kernels of ``plan`` are compiled."""
    return compiled(plan_entry(kind, plan))


def plan_from_fields(fields):
    """The :class:`KernelPlan` whose fields are ``fields`` (its JSON form: ``list(plan)``)."""
    crit, *flags = fields
    return KernelPlan(int(crit), *(bool(flag) for flag in flags))
