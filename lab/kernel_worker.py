"""A process that compiles the lab's kernels into numba's on-disk cache, on request.

``python -m lab.kernel_worker --parent PID --memory-mb N`` (started by :mod:`lab.kernels`)
reads one request a line on its input, as JSON:

* ``{"id": 3, "part": "tree"}``: a warm-up part (``trees.kernels.PARTS``);
* ``{"id": 4, "plan": ["grow", [0, false, false, false, false, false]]}``: the kernels of
  one kind for one plan (``trees.kernels.warm_up_plan``).

and writes one line per event on its output: ``{"id": 3, "step": [1, 2]}`` after each step,
then ``{"id": 3, "done": true, "full": false, ...}``, or ``{"id": 3, "error": "...", ...}``,
with the worker's CPU seconds and peak memory so far (``cpu_s``, ``peak_mb``). What it compiled is written in the machine's record of compiled kernels
(``trees.kernels``), which the app reads before a page runs. The worker ends at the end of
its input, when ``PID`` ends, and after a request whose end finds it above ``N`` MB
(``"full": true``): numba keeps most of the memory a compilation took until its process
ends, so a fresh worker takes the next request. It runs at the app's priority: a page
may be waiting for it (a lower one left it starved on a loaded machine).
"""

import argparse
import json
import resource
import sys

from trees.kernels import plan_from_fields, warm_up_part, warm_up_plan

from .processes import watch_parent

__all__ = ["main", "serve"]


def _say(message, output):
    output.write(json.dumps(message) + "\n")
    output.flush()


def _resident_mb():
    """This process's resident memory now, in MB (its peak where /proc is not there)."""
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _run(request, output):
    """Run one request (module docstring), saying how it goes."""
    ident = request["id"]

    def step(done, total):
        _say({"id": ident, "step": [done, total]}, output)

    if "part" in request:
        warm_up_part(request["part"], progress=step)
    else:
        kind, fields = request["plan"]
        warm_up_plan(kind, plan_from_fields(fields))
        step(1, 1)


def serve(requests, output, memory_mb):
    """Answer ``requests`` (lines of JSON) on ``output`` until they end or memory runs over."""
    for line in requests:
        if not line.strip():
            continue
        request = json.loads(line)
        try:
            _run(request, output)
        except Exception as error:  # reported to the app, which compiles it itself instead
            outcome = {"error": f"{type(error).__name__}: {error}"}
        else:
            outcome = {"done": True}
        full = _resident_mb() > memory_mb
        usage = resource.getrusage(resource.RUSAGE_SELF)
        # Its own CPU (user + system) and peak memory so far, for the cold-start benchmark.
        cost = {"cpu_s": usage.ru_utime + usage.ru_stime, "peak_mb": usage.ru_maxrss / 1024}
        _say({"id": request["id"], **outcome, "full": full, **cost}, output)
        if full:
            return


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--parent", type=int, required=True, help="the app's process id")
    parser.add_argument("--memory-mb", type=float, default=350.0, help="restart above this")
    args = parser.parse_args(argv)
    watch_parent(args.parent)
    serve(sys.stdin, sys.stdout, args.memory_mb)


if __name__ == "__main__":
    main()
