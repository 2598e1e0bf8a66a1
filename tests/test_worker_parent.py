"""The reading helpers and their children end with their parent (issue 61, item 5).

A server killed with ``kill -9`` while a file is read left the helper and its
child running under PID 1 for up to the time limit. Here a parent process
starts a slow read (a workbook of 150,000 rows, a CatBoost model of 20,000
trees), is killed with SIGKILL once the helper's child works, and the helper
and the child must be gone within 2 s.
"""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from lab.processes import process_alive
from tests import hostile_models as hm
from tests.test_upload_packed import _workbook

ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")

PARENT = """
import sys, threading, time
from {module} import {reader} as read, {helper} as helper
data = open(sys.argv[1], "rb").read()
threading.Thread(target=lambda: read({args}), daemon=True).start()
while helper.process is None:
    time.sleep(0.01)
print(helper.process.pid, flush=True)
time.sleep(600)
"""
READERS = {
    "upload": dict(module="datasets.upload_worker", reader="read_table_in_worker",
                   helper="_TABLES", args="data, '.xlsx', timeout=120"),
    "model": dict(module="lab.model_files", reader="read_model_in_worker", helper="_HELPER",
                  args="'many.json', data, 120"),
}  # fmt: skip


def _children(pid):
    """The ids of the processes whose parent is ``pid``."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(entry.name))
    return found


def _wait_for(condition, seconds):
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


@pytest.mark.slow
@pytest.mark.parametrize("kind", sorted(READERS))
def test_the_helper_and_its_child_end_with_their_parent(kind, tmp_path):
    data = _workbook(150_000, 10) if kind == "upload" else hm.catboost_many_trees(20_000)
    path = tmp_path / "slow.bin"
    path.write_bytes(data)
    parent = subprocess.Popen(
        [sys.executable, "-c", PARENT.format(**READERS[kind]), str(path)],
        cwd=ROOT, stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        helper = int(parent.stdout.readline())
        assert _wait_for(lambda: _children(helper), 60), "the helper never started a child"
        child = _children(helper)[0]
        time.sleep(0.5)  # the child is reading
        assert process_alive(child)
        os.kill(parent.pid, signal.SIGKILL)
        parent.wait()
        gone = _wait_for(lambda: not process_alive(helper) and not process_alive(child), 2.0)
        assert gone, "the helper or its child outlived its parent by 2 s"
    finally:
        if parent.poll() is None:
            parent.kill()
            parent.wait()
