"""A page that answers before a part of its first view (``PageSpec.later_kernels``, ``ui.engine``):
the Evaluate and Cultivated pages draw their tree at once on a new machine, and the random
forest once the tree engine has compiled its kernels, the engine's progress in its place
meanwhile (issue 56).

The worker is held busy here (a request it is running that never ends), so what waits stays
queued: these tests look at the queue's order and at the page, not at a compilation.
"""

import json

import pytest
from streamlit.testing.v1 import AppTest

from lab import kernels
from trees.kernels import PARTS
from ui import engine
from ui.navigation import PAGES


@pytest.fixture
def busy_worker(monkeypatch):
    """A preparation whose worker is busy with a request that never ends, on a machine that
    compiled none of the parts: what is asked for stays queued, in order."""
    monkeypatch.delenv("TREE_BIAS_LAB_KERNEL_WORKER", raising=False)
    monkeypatch.setattr(kernels, "_already_compiled", lambda what: False)
    compiled = set()
    monkeypatch.setattr(engine, "part_compiled", lambda name: name in compiled)
    preparation = kernels.KernelPreparation(command=["no such command"])
    preparation._running = kernels.Request(("part", "interop"), 0, state="running")
    monkeypatch.setattr(engine, "preparation", lambda: preparation)
    return preparation, compiled


def _queued(preparation):
    return [request.what[1] for request in preparation._queue]


def test_the_worker_takes_the_parts_a_page_shows_later_right_after_its_own(busy_worker):
    """Before the background's parts, after the page's: the page answers first, then its forest."""
    preparation, _ = busy_worker
    preparation.request_parts(["regression", "pruning"])  # the background, queued before
    engine.start_preparing(["tree", "walks"], ["draws", "forest"])
    assert _queued(preparation) == ["tree", "walks", "draws", "forest", "regression", "pruning"]


class _RecordingWorker:
    """A worker that is idle until asked: it records what it was sent, and never answers."""

    def __init__(self):
        self.sent = []
        self.stdin = self

    def write(self, line):
        self.sent.append(json.loads(line)["part"])

    def flush(self):
        return None


def test_an_idle_worker_starts_on_the_page_s_own_parts_first(busy_worker):
    """An idle worker takes the first request at once: it must be the page's tree, not its
    forest, whose compiling on a cache without the tree's kernels passed the memory budget."""
    preparation, _ = busy_worker
    preparation._running, preparation._worker = None, _RecordingWorker()
    engine.start_preparing(["tree", "walks"], ["draws", "forest"])
    assert preparation._worker.sent == ["tree"]
    assert _queued(preparation) == ["walks", "draws", "forest"]


def test_the_forest_pages_wait_for_their_tree_only():
    """The pages whose first view shows a classification forest beside a tree answer without
    the forest's parts; every part a page names is a part, once."""
    for spec in PAGES:
        assert set(spec.later_kernels) <= set(PARTS)
        assert not set(spec.later_kernels) & set(spec.kernels)
    for url_path in ("evaluate", "cultivated"):
        spec = next(spec for spec in PAGES if spec.url_path == url_path)
        assert {"draws", "forest"} <= set(spec.later_kernels)


def _page_with_a_forest():
    """A page as the frame runs it, whose forest is a part drawn once its kernels are ready."""
    import streamlit as st

    from ui import engine

    with engine.reporting(st.empty(), ("draws", "forest")):
        st.write("the tree")
        if engine.later_parts_ready():
            st.write("the forest")
        else:
            engine.show_waiting("The random forest's curve comes once the tree engine is ready.")


def test_the_page_answers_with_the_engine_s_progress_in_the_forest_s_place(busy_worker):
    preparation, compiled = busy_worker
    app = AppTest.from_function(_page_with_a_forest).run(timeout=60)
    assert not app.exception
    assert [m.value for m in app.markdown] == ["the tree"]
    (waiting,) = [a.value for a in app.info]
    assert waiting.startswith("The random forest's curve comes once the tree engine is ready. ")
    # The busy worker's request first (it finishes that one first), then the forest's parts:
    # the draws, the forest's trees' growth, the forest.
    assert "Preparing the tree engine for this machine, once: 0 of 4 (" in waiting
    assert _queued(preparation) == ["draws", "forest"]

    compiled.update({"draws", "forest"})  # the worker compiled them: the next run draws the forest
    app.run(timeout=60)
    assert not app.exception and not app.info
    assert [m.value for m in app.markdown] == ["the tree", "the forest"]


def test_a_failed_preparation_lets_the_page_compile_the_forest_itself(busy_worker):
    """A worker that failed does not leave the part waiting: the page fits the forest, which
    compiles its plan where it runs (as after ``engine.prepare``)."""
    preparation, _ = busy_worker
    for request in preparation.request_parts(["draws", "forest"]):
        request.state = "failed"
    app = AppTest.from_function(_page_with_a_forest).run(timeout=60)
    assert [m.value for m in app.markdown] == ["the tree", "the forest"]


def test_without_a_worker_the_page_compiles_the_forest_s_parts_saying_so(monkeypatch):
    monkeypatch.setenv("TREE_BIAS_LAB_KERNEL_WORKER", "0")
    compiled = []
    monkeypatch.setattr(engine, "part_compiled", lambda name: name in compiled)
    monkeypatch.setattr(engine, "warm_up_part", lambda name, progress: compiled.append(name))
    app = AppTest.from_function(_page_with_a_forest).run(timeout=60)
    assert not app.exception
    assert compiled == ["draws", "forest"]
    assert [m.value for m in app.markdown] == ["the tree", "the forest"]
