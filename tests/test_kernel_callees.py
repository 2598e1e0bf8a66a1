"""A heavy plan compiles after the steps that compile its callees, in every order the app takes
(issue 56: the compiling's peak memory <= 400 MB).

numba keeps each compiled function in its on-disk cache, and a worker keeps what it compiled
until it ends (``lab.kernel_worker``): a forest's plan compiled alone on an empty cache took its
worker to 458-559 MB, and the categorical growth's to 449. After the step that compiles most of
its callees for the same plan (``trees.ensemble._warmup.CALLEE_STEPS``), in the worker before,
it loads them and compiles its own body only. The kernels' suite compiled them already, so the
steps here load from the cache in seconds.
"""

import io
import json

from lab import kernel_worker, kernels
from trees.ensemble import _warmup
from trees.kernels import PARTS, PLAN_KINDS, plan_steps
from trees.tree._warmup import plan_of
from ui import engine
from ui.navigation import PAGES

_FOREST = plan_of("gini", draw=True)
_CATEGORICAL = plan_of("gini", categorical=True, draw=True)


def _late_plans(steps):
    """The plans among ``steps`` (parts' steps, in the order they run) whose callee steps
    (:func:`plan_steps` less the plan) do not all run before them."""
    return [
        step
        for index, step in enumerate(steps)
        if not callable(step) and not set(plan_steps(*step)[:-1]) <= set(steps[:index])
    ]


def _orders():
    """Every order of the parts the app takes: each page's cold start (its parts, the parts it
    shows later, then the background's, ``ui.engine``), and the background alone."""
    background = engine.background_order()
    pages = [
        list(dict.fromkeys([*spec.kernels, *spec.later_kernels, *background])) for spec in PAGES
    ]
    return [background, *pages]


def test_a_heavy_plan_s_steps_are_its_callees_then_itself():
    assert plan_steps("forest", _FOREST) == (("grow", _FOREST), ("forest", _FOREST))
    assert plan_steps("forest", _CATEGORICAL) == (
        ("search", _CATEGORICAL),
        ("grow", _CATEGORICAL),
        ("forest", _CATEGORICAL),
    )
    assert plan_steps("grower", plan_of("squared_error", categorical=True))[0][0] == "search"
    assert plan_steps("grow", plan_of("gini")) == (("grow", plan_of("gini")),)
    assert set(_warmup.CALLEE_STEPS) <= set(PLAN_KINDS)


def test_every_plan_of_a_part_comes_after_its_callee_steps():
    assert {name: _late_plans(steps) for name, steps in PARTS.items()} == {n: [] for n in PARTS}


def test_in_every_order_the_app_takes_a_heavy_plan_follows_its_callees():
    for order in _orders():
        assert sorted(order) == sorted(PARTS)
        assert _late_plans([step for name in order for step in PARTS[name]]) == []


def test_the_parts_as_written_would_compile_heavy_plans_first():
    """The check fails on the parts before their callee steps (``_PARTS``, the old order): the
    Evaluate page's forest, the categorical growth, the background's categorical forests."""
    assert _late_plans(_warmup._PARTS["forest"]) == [("forest", _FOREST)]
    assert ("grow", _CATEGORICAL) in _late_plans(_warmup._PARTS["categorical"])
    written = [step for name in engine.background_order() for step in _warmup._PARTS.get(name, ())]
    assert ("forest", plan_of("squared_error", categorical=True)) in _late_plans(written)


def test_a_fresh_worker_has_room_for_any_plan_after_its_callees():
    """What bounds a worker's first step, which it always takes: its start plus the plan's
    figure after its callee steps (``PLAN_MB``), within the app's budget."""
    for kind, added in kernel_worker.PLAN_MB.items():
        assert kernel_worker.START_MB + added <= kernels.WORKER_MEMORY_MB, kind


def test_a_plan_asked_alone_compiles_its_callees_in_the_worker_before():
    """A page's new plan (``ui.engine``'s preparer) is a request of its steps: a worker without
    room after the callee step hands the plan back, and a fresh one compiles it."""
    fields = list(_FOREST)
    output = io.StringIO()
    kernel_worker.serve([json.dumps({"id": 1, "plan": ["forest", fields]}) + "\n"], output, 1)
    messages = [json.loads(line) for line in output.getvalue().splitlines()]
    assert [m["step"] for m in messages if "step" in m] == [[1, 2]]
    assert messages[-1]["rest"] == 1 and messages[-1]["full"]
    request = kernels.Request(("plan", "forest", _FOREST), 1, steps=(1, 2))
    assert json.loads(request.message())["from"] == 1
    assert kernels.steps_of(("plan", "forest", _FOREST)) == 2
    output = io.StringIO()
    message = json.dumps({"id": 2, "plan": ["forest", fields], "from": 1})
    kernel_worker.serve([message + "\n"], output, 1)
    messages = [json.loads(line) for line in output.getvalue().splitlines()]
    assert [m["step"] for m in messages if "step" in m] == [[2, 2]]
    assert messages[-1]["done"]


def test_a_heavy_function_step_goes_to_a_worker_with_room_for_it():
    """The other libraries' walks add more than a light step: after a step that imported the
    estimators (a regression tree's values, 283 MB measured) a worker hands them to a fresh one
    instead of reaching 468 MB (the Cultivated page's cold start, before their own figure)."""
    (interop,) = PARTS["interop"]
    regression_values = PARTS["regression"][-1]
    assert kernel_worker.has_room(regression_values, 100.0, 400.0, imported=False)
    assert not kernel_worker.has_room(interop, 283.0, 400.0, imported=True)
    # They import no estimators (plain arrays): a fresh worker, which has not, takes them.
    assert kernel_worker.has_room(interop, kernel_worker.START_MB, 400.0, imported=False)
    assert kernel_worker.step_mb(interop, True) > kernel_worker.STEP_MB
    # The Cultivated page's order: its own kernels after one tree's walks (355 MB measured).
    assert not kernel_worker.has_room(PARTS["cultivated"][0], 340.0, 400.0, imported=True)
    named = {step.__name__ for steps in PARTS.values() for step in steps if callable(step)}
    assert set(kernel_worker.FUNCTION_STEP_MB) <= named
