"""A process that compiles the lab's kernels into numba's on-disk cache, on request.

``python -m lab.kernel_worker --parent PID --memory-mb N`` (started by :mod:`lab.kernels`)
reads one request a line on its input, as JSON:

* ``{"id": 3, "part": "tree"}``: a warm-up part (``trees.kernels.PARTS``), from its step
  ``"from"`` when given (``{"id": 3, "part": "tree", "from": 1}``);
* ``{"id": 4, "plan": ["grow", [0, false, false, false, false, false]]}``: the kernels of
  one kind for one plan (``trees.kernels.warm_up_plan``).

and writes one line per event on its output: ``{"id": 3, "step": [1, 2]}`` after each step,
then ``{"id": 3, "done": true, "full": false, ...}``, or ``{"id": 3, "error": "...", ...}``,
with the worker's CPU seconds and peak memory so far (``cpu_s``, ``peak_mb``). What it
compiled is written in the machine's record of compiled kernels (``trees.kernels``), which
the app reads before a page runs. The worker ends at the end of its input and when ``PID``
ends. It runs at the app's priority: a page may be waiting for it (a lower one left it
starved on a loaded machine).

Its memory. numba keeps most of the memory a compilation took until its process ends (a
growth plan's compilation: about 215 MB, a forest's about 285), so the memory a worker
reaches is its start plus what its steps took, added up. A worker starts light: it imports
the kernels and the description of the parts (``trees.kernels``), numpy and numba, and no
scikit-learn, SciPy or pandas (about 100 MB instead of 255; a plan's step drives the growth
below the estimators, ``trees.tree._warmup``). A step that fits an estimator imports them
when it runs (about 165 MB more). A worker takes a step only while its resident memory plus
what such a step takes (:data:`PLAN_MB`, by the plan's kind, for a plan; :data:`STEP_MB` for a
kernel run on tiny data, or its own :data:`FUNCTION_STEP_MB`, plus :data:`IMPORTS_MB` when that
would import the estimators) stays within ``N`` MB (:func:`has_room`); its first step it always
takes. So a plan compiles in a worker that holds no other plan, and a step after light ones goes
to a fresh worker where its figure would pass ``N``. What bounds a first step is the step itself: a fresh worker (:data:`START_MB`) plus one plan's
compilation, not the rule. So no heavy plan compiles alone: numba's cache keeps each compiled
function, and a plan whose callees are in it loads them and compiles its own body only. A
plan's steps (``trees.kernels.plan_steps``) first compile, for the same plan, most of what it
calls: a forest's trees' growth, a categorical growth's node search (``CALLEE_STEPS``); each
part holds them before its plans, whichever part a page asks first, and a page's new plan is a
request of its steps. Measured on an empty cache (numba 0.68, Linux, the worker's own peak):
the Gini forest with drawn features 458 MB alone, 360 then 317 MB in two workers; the Gini
growth on categorical features with drawn orders 449 alone, 362 then 319; in the background's
order every plan's worker stays under 335 MB (the categorical Gini forest: 559 alone, 275). The
kernels reading other libraries' models (``trees.interop``) are warmed on plain arrays, without
scikit-learn and pandas: 268 MB in a fresh worker (429 when they were imported first).

When it has no room left, it hands the rest of its request back (``{"id": 3, "rest": 1,
"full": true, ...}``: the part's steps before 1 are done) and ends, and a fresh worker takes the rest. So a plan
compiles in a fresh light worker, and a worker's peak is about its start plus one plan's
compilation (853 MB measured when a worker took whole parts; 541 MB when every worker
imported the estimators first).

``N`` bounds the compiling's whole memory: the app runs one worker at a time
(``lab.kernels``), so the largest worker's peak is the peak of all the workers together.
"""

import argparse
import json
import resource
import sys

from trees.kernels import PARTS, plan_from_fields, plan_steps, warm_up_part, warm_up_plan

from .processes import watch_parent

__all__ = ["main", "serve"]


def _say(message, output):
    output.write(json.dumps(message) + "\n")
    output.flush()


def _status_mb(field):
    """A memory figure of this process's /proc status (``VmRSS``: resident now; ``VmHWM``: its
    peak), in MB; its peak from ``getrusage`` where /proc is not there. On Linux ``getrusage``'s
    peak is no worker's own: it keeps the app's when that was larger at the worker's start
    (fork and exec keep it), so a worker measured light read as the server (283-490 MB)."""
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith(f"{field}:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _resident_mb():
    """This process's resident memory now, in MB (:func:`_status_mb`)."""
    return _status_mb("VmRSS")


# What compiling one plan adds to a worker's memory, in MB, by the kind of its entry kernel
# (``trees.kernels.PLAN_KINDS``), its callee steps (``trees.kernels.plan_steps``) run in the
# worker before: the most measured of the kind, on an empty kernel cache, in a fresh worker
# (100 MB), its peak less its start (numba 0.68, Linux; alone, without its callee steps, where
# the plan needs them):
#   grow    Gini 231, squared error 232, the other criteria and random splits 190-214, Gini on
#           categorical features with drawn orders after its search 193-219 (alone 349)
#   grower  Gini 245, on categorical features after their search 201
#   search  a categorical plan's node search: Gini with drawn orders 211-262, squared error 235
#   sparse  Gini 222
#   forest  after its trees' growth: Gini with drawn features 198-217 (alone 358), extra trees
#           161 (384), Gini on categorical features 175 (459), squared error with random splits
#           158, Poisson 153
PLAN_MB = {"grow": 235.0, "grower": 245.0, "search": 265.0, "sparse": 222.0, "forest": 230.0}
# A fresh worker's memory before its first step: numpy, numba and the kernels' modules.
START_MB = 100.0
# What another step typically adds (kernels run once on tiny data), and the estimators' import
# (scikit-learn and SciPy) before the first step that fits one.
STEP_MB = 48.0
IMPORTS_MB = 165.0
# The function steps that add more than STEP_MB, by name (``trees.kernels.PARTS``), besides
# the estimators' import, measured on an empty cache: the other libraries' walks
# (``trees.interop``: 268 MB in a fresh worker), one tree's walks (355 MB in a fresh worker),
# the cultivated forest's kernels (about 120 MB: taken as a light step after one tree's walks,
# they took that worker to 463-468 MB in the Cultivated page's cold start).
FUNCTION_STEP_MB = {"_warm_up_interop": 175.0, "_walks": 95.0, "_cultivated": 125.0}
# The function steps that import no estimators (they run kernels on plain arrays): the first
# picture's paths then follow the Gini plan in its worker, instead of a fresh worker importing
# scikit-learn first.
WITHOUT_ESTIMATORS = ("_paths", "_warm_up_interop")


def estimators_imported():
    """Whether this process imported the estimators' libraries (scikit-learn) already."""
    return "sklearn" in sys.modules


def step_mb(step, imported):
    """What ``step`` (a part's step: a plan ``(kind, plan)`` or a function) typically adds to a
    worker's memory; ``imported``: whether the worker imported the estimators already (a
    function step may fit one; a plan's step never does)."""
    if not callable(step):
        kind, _ = step
        return PLAN_MB[kind]
    light = imported or step.__name__ in WITHOUT_ESTIMATORS
    return FUNCTION_STEP_MB.get(step.__name__, STEP_MB) + (0.0 if light else IMPORTS_MB)


def has_room(step, resident_mb, memory_mb, imported=True):
    """Whether a worker of ``resident_mb`` MB may take ``step`` within its budget ``memory_mb``
    (the most MB it may reach), what the step typically adds counted ahead (:func:`step_mb`)."""
    return resident_mb + step_mb(step, imported) <= memory_mb


class _Memory:
    """This worker's memory, and whether it may take another step."""

    def __init__(self, memory_mb):
        self.memory_mb = memory_mb
        self.fresh = True  # no step taken yet: the first is always taken

    def full(self):
        """Whether even the smallest step would pass the budget: the worker ends."""
        return _resident_mb() + STEP_MB > self.memory_mb

    def may_start(self, step):
        room = has_room(step, _resident_mb(), self.memory_mb, estimators_imported())
        if not (self.fresh or room):
            return False
        self.fresh = False
        return True


def _run(request, output, memory):
    """Run one request (module docstring), saying how it goes; the step it stopped before when
    this worker has no room for it (the rest is another worker's), else None."""
    ident = request["id"]

    def step(done, total):
        _say({"id": ident, "step": [done, total]}, output)

    if "part" in request:
        name, start = request["part"], request.get("from", 0)
        done = warm_up_part(name, progress=step, start=start, may_start=memory.may_start)
        return done if done < len(PARTS[name]) else None
    kind, fields = request["plan"]
    plan = plan_from_fields(fields)
    start = request.get("from", 0)
    done = warm_up_plan(kind, plan, progress=step, start=start, may_start=memory.may_start)
    return done if done < len(plan_steps(kind, plan)) else None


def serve(requests, output, memory_mb):
    """Answer ``requests`` (lines of JSON) on ``output`` until they end, or until this worker
    has no room for the next step (module docstring)."""
    memory = _Memory(memory_mb)
    for line in requests:
        if not line.strip():
            continue
        request = json.loads(line)
        rest = None
        try:
            rest = _run(request, output, memory)
        except Exception as error:  # reported to the app, which compiles it itself instead
            outcome = {"error": f"{type(error).__name__}: {error}"}
        else:
            outcome = {"done": True} if rest is None else {"rest": rest}
        full = rest is not None or memory.full()
        usage = resource.getrusage(resource.RUSAGE_SELF)
        # Its own CPU (user + system) and peak memory so far, for the cold-start benchmark.
        cost = {"cpu_s": usage.ru_utime + usage.ru_stime, "peak_mb": _status_mb("VmHWM")}
        _say({"id": request["id"], **outcome, "full": full, **cost}, output)
        if full:
            return


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--parent", type=int, required=True, help="the app's process id")
    parser.add_argument(
        "--memory-mb", type=float, default=400.0,
        help="the most MB the worker may reach: a step that would pass it goes to a fresh one",
    )  # fmt: skip
    args = parser.parse_args(argv)
    watch_parent(args.parent)
    serve(sys.stdin, sys.stdout, args.memory_mb)


if __name__ == "__main__":
    main()
