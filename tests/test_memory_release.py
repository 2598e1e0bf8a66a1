"""Long-lived processes give freed memory back to the system (issue 33, item 1)."""

import io
import pickle
import subprocess
import sys
from pathlib import Path

import pytest

from datasets import _memory, upload_worker

GLIBC = sys.platform.startswith("linux") and _memory._MALLOC_TRIM is not None


_FREED_ARRAY = """
from pathlib import Path
import numpy as np
from datasets import _memory

def resident():
    return int(Path("/proc/self/statm").read_text().split()[1]) * 4096

assert _memory.map_large_blocks()
for _ in range(3):  # freeing large blocks is what raises glibc's own threshold
    before = resident()
    block = np.ones(24 * 1024 * 1024 // 8)  # 24 MB (under glibc's 32 MB ceiling), touched
    assert resident() - before > 16 * 2**20
    del block
    assert resident() - before < 8 * 2**20, (resident() - before) / 2**20
"""


@pytest.mark.skipif(not GLIBC, reason="mallopt and malloc_trim are glibc's")
def test_a_freed_large_array_leaves_the_process_at_once():
    """In a process of its own: the setting lasts for the process's life. Without it, glibc
    keeps the second and third arrays in its heap (23.9 MB stayed)."""
    root = Path(__file__).resolve().parent.parent
    done = subprocess.run([sys.executable, "-c", _FREED_ARRAY], cwd=root, capture_output=True,
                          text=True, timeout=300)  # fmt: skip
    assert done.returncode == 0, done.stderr


def test_giving_back_says_whether_the_c_library_could():
    assert _memory.give_back_freed_memory() is GLIBC


def test_the_upload_helper_gives_memory_back_after_each_file(monkeypatch):
    """The helper outlives every upload: after each answer it returns the file's memory."""
    given_back = []
    monkeypatch.setattr(upload_worker, "give_back_freed_memory", lambda: given_back.append(1))
    monkeypatch.setattr(upload_worker, "run_in_worker", lambda function, args, timeout: args[1])
    requests = io.BytesIO()
    for name in ("a.csv", "b.csv"):
        pickle.dump((b"x,y\n1,0\n", name, 1000, 5.0), requests)
    requests.seek(0)
    answers = io.BytesIO()
    upload_worker.serve(requests, answers)
    answers.seek(0)
    assert [pickle.load(answers) for _ in range(2)] == [("ok", "a.csv"), ("ok", "b.csv")]
    assert len(given_back) == 2
