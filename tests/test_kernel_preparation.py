"""The kernels' worker and its queue (``lab.kernel_worker``, ``lab.kernels``), and what the
page says meanwhile (``ui.engine``): issue 56.

The worker runs real parts here; their kernels are in the cache by now (the suite compiled
them), so a request takes the worker's start and a load from numba's cache, seconds.
"""

import io
import json
import sys

import pytest

from lab import kernel_worker, kernels
from trees.kernels import PARTS, PLAN_KINDS, plan_steps
from trees.tree import _kernels_entries
from ui import engine
from ui.navigation import PAGES

_PLAN = ["grow", [0, False, False, False, False, False]]


def _served(requests, memory_mb=1e9):
    output = io.StringIO()
    kernel_worker.serve([json.dumps(r) + "\n" for r in requests], output, memory_mb)
    return [json.loads(line) for line in output.getvalue().splitlines()]


def test_the_worker_says_each_step_then_done():
    messages = _served([{"id": 1, "part": "tree"}, {"id": 2, "plan": _PLAN}])
    assert [m["step"] for m in messages if m["id"] == 1 and "step" in m] == [[1, 2], [2, 2]]
    done = [m for m in messages if m.get("done")]
    assert [m["id"] for m in done] == [1, 2]
    assert all(m["cpu_s"] > 0 and m["peak_mb"] > 0 and not m["full"] for m in done)


def test_the_worker_reports_a_failure_and_goes_on():
    messages = _served([{"id": 1, "part": "no such part"}, {"id": 2, "plan": _PLAN}])
    assert "KeyError" in messages[0]["error"]
    assert messages[-1]["id"] == 2 and messages[-1]["done"]


def test_the_worker_ends_when_it_has_no_room_for_the_next_request():
    """Its first step a worker always takes; then it ends, full, without a step of the next
    request: either that first answer already says it grew past its budget (``"full"``, as in a
    fresh process, where the first load grows it), or the next request is handed back untouched
    (``"rest": 0``, when the first grew it by less than the budget but the next step would not
    fit). Either way the queue gives the next request to a new worker (``lab.kernels``)."""
    messages = _served([{"id": 1, "plan": _PLAN}, {"id": 2, "plan": _PLAN}], memory_mb=1)
    assert [m["id"] for m in messages if m.get("done")] == [1]
    assert messages[-1]["full"]
    assert messages[-1]["id"] == 1 or messages[-1] == {**messages[-1], "id": 2, "rest": 0}
    assert not [m for m in messages if m["id"] == 2 and "step" in m]


def test_a_worker_without_room_hands_the_rest_of_a_part_back():
    """Past its growth budget, a worker stops before the part's next step and says where."""
    messages = _served([{"id": 1, "part": "tree"}, {"id": 2, "plan": _PLAN}], memory_mb=1)
    assert [m["step"] for m in messages if "step" in m] == [[1, 2]]
    assert messages[-1]["id"] == 1 and messages[-1]["rest"] == 1 and messages[-1]["full"]
    assert all(m["id"] == 1 for m in messages)  # it ended: the plan is a fresh worker's


def test_a_worker_takes_a_part_up_from_the_step_it_is_given():
    messages = _served([{"id": 1, "part": "tree", "from": 1}])
    assert [m["step"] for m in messages if "step" in m] == [[2, 2]]
    assert messages[-1]["done"]


def test_a_step_starts_only_in_a_worker_with_room_for_it():
    """A worker's budget is the most MB it may reach: its memory now plus what the step
    typically adds, and the estimators' import for a step that may fit one in a worker that
    has not imported them (a plan's step never imports them, nor a step of
    ``WITHOUT_ESTIMATORS``: the rows' paths of the first picture)."""
    plan, paths = PARTS["tree"]  # a growth's plan, then the rows' paths of a tree
    fitting = PARTS["regression"][1]  # a small step that fits a regression tree
    budget, worker = 400.0, kernel_worker
    plan_mb = worker.PLAN_MB[plan[0]]
    assert worker.has_room(plan, budget - plan_mb, budget, imported=False)
    assert not worker.has_room(plan, budget - plan_mb + 1, budget)
    assert worker.has_room(fitting, budget - worker.STEP_MB, budget, imported=True)
    assert not worker.has_room(fitting, budget - worker.STEP_MB, budget, imported=False)
    assert worker.has_room(fitting, budget - worker.STEP_MB - worker.IMPORTS_MB, budget, False)
    assert worker.has_room(paths, budget - worker.STEP_MB, budget, imported=False)
    assert not worker.has_room(paths, budget - worker.STEP_MB + 1, budget, imported=False)


@pytest.fixture
def nothing_compiled(monkeypatch):
    """The queue behaves as on a machine whose record is empty."""
    monkeypatch.setattr(kernels, "_already_compiled", lambda what: False)


def test_a_worker_prepares_the_requests_urgent_first(nothing_compiled):
    preparation = kernels.KernelPreparation()
    try:
        first, second = preparation.request_parts(["grower", "tree"])
        urgent = preparation.request(("plan", _PLAN[0], tuple(_PLAN[1])), urgent=True)
        assert preparation.wait([first, second, urgent])
        assert first.ended < urgent.ended < second.ended  # the first was running already
        assert all(r.state == "done" and r.steps[0] == r.steps[1] for r in (first, second, urgent))
    finally:
        preparation.close()


def test_a_new_worker_takes_over_past_the_memory_budget(nothing_compiled):
    preparation = kernels.KernelPreparation(memory_mb=1)
    try:
        requests = preparation.request_parts(["tree", "grower"])
        assert preparation.wait(requests)
        assert requests[0].worker_cost["cpu_s"] > 0
    finally:
        preparation.close()


def test_a_part_handed_back_is_finished_by_a_fresh_worker(nothing_compiled):
    preparation = kernels.KernelPreparation(memory_mb=1)
    try:
        (request,) = preparation.request_parts(["tree"])
        assert preparation.wait([request])
        assert request.state == "done" and request.steps == (2, 2)
        assert len(request.worker_costs) == 2  # the first worker's step, then the second's
    finally:
        preparation.close()


def test_no_worker_fails_the_requests_and_gives_up(nothing_compiled):
    preparation = kernels.KernelPreparation(command=[sys.executable, "-c", "raise SystemExit(3)"])
    requests = preparation.request_parts(["tree"])
    assert not preparation.wait(requests, timeout=120)
    assert requests[0].state == "failed"
    for name in ["grower", "regression", "forest"][: kernels.MAX_FAILED_WORKERS]:
        preparation.wait([preparation.request(("part", name))], timeout=120)
    assert preparation.gave_up
    assert preparation.request(("part", "criteria")).state == "failed"


def test_the_memory_table_names_every_kind_of_plan():
    """Each plan's step is admitted by its own kind's figure (``PLAN_MB``): every kind of entry
    kernel a part's plan or a page's new plan compiles has one."""
    assert set(kernel_worker.PLAN_MB) == set(PLAN_KINDS)
    kinds = {step[0] for steps in PARTS.values() for step in steps if not callable(step)}
    assert kinds <= set(kernel_worker.PLAN_MB)


def test_a_worker_that_compiled_a_plan_hands_the_next_plan_to_a_fresh_one():
    """After one plan's compilation a worker has no room for another plan of any part: each
    plan compiles in a worker that holds no other (after light steps it may, by its figure)."""
    after_a_plan = kernel_worker.START_MB + min(kernel_worker.PLAN_MB.values())
    plans = [step for steps in PARTS.values() for step in steps if not callable(step)]
    assert not any(kernel_worker.has_room(plan, after_a_plan, 400.0) for plan in plans)
    light = kernel_worker.START_MB + kernel_worker.STEP_MB
    assert kernel_worker.has_room(PARTS["regression forest"][-1], light, 400.0)


def test_a_recorded_part_is_done_without_a_worker(monkeypatch):
    monkeypatch.setattr(kernels, "_already_compiled", lambda what: True)
    preparation = kernels.KernelPreparation(command=["no such command"])
    assert preparation.request(("part", "tree")).state == "done"


def test_the_background_follows_the_pages_then_every_other_part():
    order = engine.background_order()
    first = list(
        dict.fromkeys(name for spec in PAGES for name in (*spec.kernels, *spec.later_kernels))
    )
    assert order[: len(first)] == first
    assert sorted(order) == sorted(kernels.PARTS) and len(order) == len(set(order))


class _Slot:
    def __init__(self):
        self.shown = []

    def info(self, text, icon=None):
        self.shown.append(text)

    def empty(self):
        self.shown.append(None)


def test_in_this_process_the_page_says_each_step(monkeypatch):
    monkeypatch.setenv("TREE_BIAS_LAB_KERNEL_WORKER", "0")
    monkeypatch.setattr(engine, "part_compiled", lambda name: False)
    slot = _Slot()
    with engine.reporting(slot):
        engine.prepare(["tree", "grower"])
    texts = [t for t in slot.shown if t]
    assert texts[0].startswith("Preparing the tree engine for this machine, once: 0 of 4")
    assert any(" 4 of 4 " in t for t in texts)
    assert slot.shown[-1] is None  # emptied once the page is done


def test_a_page_waits_for_the_worker_and_says_how_far_it_is(monkeypatch, nothing_compiled):
    monkeypatch.delenv("TREE_BIAS_LAB_KERNEL_WORKER", raising=False)
    monkeypatch.setattr(engine, "part_compiled", lambda name: False)
    preparation = kernels.KernelPreparation()
    monkeypatch.setattr(engine, "preparation", lambda: preparation)
    slot = _Slot()
    try:
        with engine.reporting(slot):
            engine.prepare(["tree"])
    finally:
        preparation.close()
    texts = [t for t in slot.shown if t]
    assert texts[0].startswith("Preparing the tree engine for this machine, once: 0 of 2")
    assert texts[-1].startswith("Preparing the tree engine for this machine, once: 2 of 2")


def test_nothing_is_said_on_a_machine_that_compiled_the_parts(monkeypatch):
    monkeypatch.setattr(engine, "part_compiled", lambda name: True)
    slot = _Slot()
    with engine.reporting(slot):
        engine.prepare(["tree", "forest"])
    assert slot.shown == [None]


def test_the_command_line_compiles_the_parts_asked_for(capsys):
    from lab.cli import main

    out = io.StringIO()
    assert main(["kernels", "--parts", "tree,walks"], out=out) == 0
    lines = out.getvalue().splitlines()
    assert lines[0].startswith("1/2 tree: ") and lines[1].startswith("2/2 walks: ")
    with pytest.raises(SystemExit) as exit_:
        main(["kernels", "--parts", "tree,leaves"])
    assert exit_.value.code == 2 and "unknown parts ['leaves']" in capsys.readouterr().err


def _cached_fit_page():
    """A page whose fit runs under a cache of the app (``st.cache_data`` through
    ``ui.cache_budget``) and meets a plan this machine never compiled (the preparer is
    called inside the cached function)."""
    import streamlit as st

    from ui import cache_budget, engine
    from ui.engine import _prepare_plan

    @cache_budget.data()
    def fit(seed):
        _prepare_plan("grow", None)  # as the kernels' preparer is, inside the page's fit
        return seed + 1

    with engine.reporting(st.empty()):
        st.write(f"fitted {fit(1)}")


def test_a_new_plan_met_inside_a_cached_fit_does_not_break_the_page(monkeypatch):
    """Streamlit refuses an element a cached function writes into a block made outside it;
    the message is left out there, and the page runs (twice: the second from the cache)."""
    from streamlit.testing.v1 import AppTest

    monkeypatch.setenv("TREE_BIAS_LAB_KERNEL_WORKER", "0")
    app = AppTest.from_function(_cached_fit_page).run(timeout=60)
    assert not app.exception and app.markdown[0].value == "fitted 2"
    app.run(timeout=60)
    assert not app.exception and app.markdown[0].value == "fitted 2"


@pytest.fixture
def plans_asked_for(monkeypatch):
    """The plans a run asks the kernels' preparer for, as if this machine had compiled none
    (each once per process: the factories' caches are emptied first); the frame neither
    prepares the pages' parts nor installs its own preparer."""
    calls, previous = [], list(_kernels_entries._PREPARER)
    monkeypatch.setattr(_kernels_entries, "compiled", lambda entry: False)
    for factory in (_kernels_entries.growth_kernel, _kernels_entries.grower_kernels,
                    _kernels_entries.forest_kernel):  # fmt: skip
        factory.cache_clear()
    monkeypatch.setitem(engine._ONCE, "installed", True)
    monkeypatch.setattr(engine, "part_compiled", lambda name: True)
    _kernels_entries.set_kernel_preparer(lambda kind, plan: calls.append((kind, plan)))
    yield calls
    _kernels_entries.set_kernel_preparer(previous[0] if previous else None)


@pytest.mark.slow
@pytest.mark.parametrize("url_path", ["staircase", "evaluate", "cultivated", "conditioning"])
def test_a_page_waits_for_the_plans_its_first_view_runs_and_no_other(url_path, plans_asked_for):
    """A page's parts (``PageSpec.kernels`` and ``later_kernels``) hold every plan its first view runs, and, besides
    the home page's tree, none that it does not run: on a new machine it would wait for the
    compiler on kernels it does not show (a forest of the other task, the grower)."""
    from tests.apptest_helpers import open_page

    spec = next(spec for spec in PAGES if spec.url_path == url_path)
    at = open_page()
    plans_asked_for.clear()  # the home page's own
    at.switch_page(spec.path)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    parts = (*spec.kernels, *spec.later_kernels)  # the later ones drawn once compiled
    declared = {step for name in parts for step in PARTS[name] if not callable(step)}
    # A heavy plan's callee steps (the forest's trees' growth) are compiled for it, not run.
    callees = {callee for step in declared for callee in plan_steps(*step)[:-1]}
    ran = set(plans_asked_for)
    assert ran <= declared
    assert declared - callees - set(PARTS["tree"]) <= ran
