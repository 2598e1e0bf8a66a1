"""Long-lived processes give freed memory back to the system (issue 33, item 1)."""

import io
import pickle
import sys

from datasets import _memory, upload_worker

GLIBC = sys.platform.startswith("linux") and _memory._MALLOC_TRIM is not None


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
