"""Computations in the server's background worker (``lab.computations``): progress, result,
sharing, Stop, one worker for every session, failures said, unclaimed results dropped."""

import threading

import pytest

from lab import computations as computations_module
from lab.computations import Computations, Stopped

WAIT_S = 60  # generous: the worker thread may start late on a loaded machine


def _steps(n_steps, gate=None):
    """A computation of ``n_steps`` steps returning their sum; with ``gate``, each step waits
    for it (so a test can hold the computation running)."""

    def compute(progress, should_stop):
        total = 0
        for step in range(1, n_steps + 1):
            if gate is not None:
                assert gate.wait(WAIT_S)
            if should_stop():
                raise Stopped
            total += step
            progress(step, n_steps)
        return total

    return compute


def test_a_computation_reports_its_progress_and_its_result_until_taken():
    registry = Computations()
    entry = registry.start("sum", "Adding", _steps(4))
    assert entry.wait(WAIT_S)
    assert (entry.status, entry.result, entry.done, entry.total) == ("done", 10, 4, 4)
    assert entry.fraction == 1.0 and not entry.going
    assert registry.take("sum") is entry and registry.get("sum") is None


def test_the_same_work_asked_twice_is_one_computation():
    registry, calls, gate = Computations(), [], threading.Event()

    def compute(progress, should_stop):
        calls.append(1)
        return _steps(2, gate)(progress, should_stop)

    first = registry.start("forest", "Growing", compute)
    second = registry.start("forest", "Growing", compute)
    gate.set()
    assert first is second and first.wait(WAIT_S)
    assert calls == [1] and first.result == 3


def test_a_stop_ends_the_computation_between_steps_and_a_new_start_runs_it_again():
    registry, gate = Computations(), threading.Event()
    entry = registry.start("sum", "Adding", _steps(5, gate))
    entry.stop()
    gate.set()
    assert entry.wait(WAIT_S) and entry.status == "stopped" and entry.result is None
    again = registry.start("sum", "Adding", _steps(5))
    assert again is not entry and again.wait(WAIT_S) and again.result == 15


def test_one_worker_serves_every_session_a_second_computation_waits():
    registry, gate = Computations(), threading.Event()
    first = registry.start("a", "First", _steps(2, gate))
    second = registry.start("b", "Second", _steps(2))
    assert not second.wait(0.2) and second.status == "queued" and second.going
    gate.set()
    assert first.wait(WAIT_S) and second.wait(WAIT_S)
    assert (first.result, second.result) == (3, 3)


def test_a_failure_is_kept_with_its_reason():
    registry = Computations()

    def broken(progress, should_stop):
        raise ValueError("no rows left")

    entry = registry.start("x", "Broken", broken)
    assert entry.wait(WAIT_S)
    assert entry.status == "failed" and entry.error == "ValueError: no rows left"
    assert registry.start("x", "Fixed", _steps(1)) is not entry  # a failure can be retried


def test_a_result_no_page_takes_is_dropped_after_a_while(monkeypatch):
    registry = Computations()
    entry = registry.start("left", "Left behind", _steps(1))
    assert entry.wait(WAIT_S)
    monkeypatch.setattr(computations_module, "KEEP_SECONDS", 0.0)
    registry.start("next", "Next", _steps(1)).wait(WAIT_S)
    assert registry.get("left") is None


@pytest.mark.parametrize("steps", [0, 3])
def test_progress_is_a_fraction_of_the_steps(steps):
    registry = Computations()
    entry = registry.start("p", "Progress", _steps(steps))
    assert entry.wait(WAIT_S)
    assert entry.fraction == (1.0 if steps else 0.0)
