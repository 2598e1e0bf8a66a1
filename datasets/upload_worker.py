"""Reading an upload in a worker process that is stopped after a time limit.

A runaway parse (a workbook that passes :mod:`datasets.packed_tables`' checks
but is still slow, a file that trips a slow path of a parser) must not hold
the app: run on the Streamlit script thread it also holds the GIL that every
other session's script needs, and nothing can stop it. A thread would not
help: Python cannot kill a thread, so a runaway parse would run to its end
and keep its core. A process can be killed, so :func:`read_table_in_worker`
parses in one and kills it at the time limit.

How the worker starts matters in a Streamlit server:

- forking the server itself is unsafe: it runs many threads (Streamlit's,
  Arrow's, OpenMP's) whose locks a child would inherit held;
- multiprocessing's ``spawn`` and ``forkserver`` children import the parent's
  ``__main__`` first, and while a page runs Streamlit makes the page's script
  ``__main__``: each child would run the whole app.

So the server starts one helper, ``python -m datasets.upload_worker``, a
plain single-threaded process that imports this package once, and sends it
each upload over a pipe (:func:`serve`); the helper forks a child per upload
(safe: it has no other threads) and kills the child at the time limit. An
upload then costs a fork, not a new interpreter; one is read at a time, so
slow uploads cannot take every core of the server.
"""

import multiprocessing
import os
import pickle
import select
import subprocess
import sys
import threading
from pathlib import Path

from ._memory import give_back_freed_memory
from ._record import DataError
from .upload import MAX_UPLOAD_BYTES, read_table

__all__ = [
    "TIMEOUT_ENV",
    "UPLOAD_TIMEOUT",
    "read_table_in_worker",
    "run_in_worker",
    "serve",
    "upload_timeout",
]

UPLOAD_TIMEOUT = 60.0  # seconds; a workbook within MAX_CELLS reads in about 20 s
TIMEOUT_ENV = "TREE_BIAS_LAB_UPLOAD_TIMEOUT"
_GRACE = 30.0  # seconds the helper may take beyond the limit (its own start, the result's trip)
_HELPER = {"process": None}
_HELPER_LOCK = threading.Lock()


def upload_timeout():
    """Seconds an upload may take to read: ``$TREE_BIAS_LAB_UPLOAD_TIMEOUT``, or :data:`UPLOAD_TIMEOUT`.

    A value that is not a positive number is ignored.
    """
    try:
        value = float(os.environ.get(TIMEOUT_ENV, ""))
    except ValueError:
        return UPLOAD_TIMEOUT
    return value if 0 < value < float("inf") else UPLOAD_TIMEOUT


# ------------------------------------------------------------ in the helper
def _child(connection, function, args):
    """Run ``function(*args)`` in the worker and send ``(status, value)`` back."""
    try:
        outcome = ("ok", function(*args))
    except DataError as err:
        outcome = ("refused", str(err))
    except Exception as err:  # a bug, reported to the caller as one
        outcome = ("failed", f"{type(err).__name__}: {err}")
    try:
        connection.send(outcome)
    except Exception as err:  # a result that cannot be pickled
        connection.send(("failed", f"{type(err).__name__}: {err}"))
    finally:
        connection.close()


def run_in_worker(function, args, timeout, context=None):
    """``function(*args)`` in a new process, killed after ``timeout`` seconds.

    Parameters
    ----------
    function : callable
        Importable by name (a module-level function); it, ``args`` and its
        result must pickle.
    args : tuple
    timeout : float
        Seconds.
    context : multiprocessing context, optional
        ``fork`` where there is one (the helper has no other threads, so a
        fork is safe there), else ``spawn``.

    Returns
    -------
    object
        What ``function`` returned.

    Raises
    ------
    TimeoutError
        When it ran longer than ``timeout`` (the process is then killed).
    DataError
        As ``function`` raised it.
    ChildProcessError
        When the process died (killed for its memory, say) before it answered.
    RuntimeError
        When ``function`` raised another exception.
    """
    if context is None:
        forks = "fork" in multiprocessing.get_all_start_methods()
        context = multiprocessing.get_context("fork" if forks else "spawn")
    receiver, sender = context.Pipe(duplex=False)
    process = context.Process(target=_child, args=(sender, function, args), daemon=True)
    process.start()
    try:
        sender.close()  # the child holds its own copy: EOF reaches us if it dies
        if not receiver.poll(timeout):
            raise TimeoutError(f"still running after {timeout:g} s")
        try:
            status, value = receiver.recv()
        except EOFError as err:
            process.join()
            raise ChildProcessError(f"the worker stopped (exit code {process.exitcode})") from err
    finally:
        if process.is_alive():
            process.kill()
        process.join()
        receiver.close()
    if status == "refused":
        raise DataError(value)
    if status == "failed":
        raise RuntimeError(value)
    return value


def serve(requests, answers):
    """The helper's loop: read ``(data, filename, max_bytes, timeout)``, answer ``(status, value)``.

    Each request is a pickle on ``requests``; each answer, a pickle on
    ``answers``: ``("ok", table)``, ``("refused", message)``, ``("timeout",
    seconds)``, ``("died", description)`` (the worker process died) or
    ``("failed", description)`` (a bug). Returns when ``requests`` ends.
    """
    while True:
        try:
            data, filename, max_bytes, timeout = pickle.load(requests)
        except EOFError:
            return
        try:
            outcome = ("ok", run_in_worker(read_table, (data, filename, max_bytes), timeout))
        except TimeoutError:
            outcome = ("timeout", timeout)
        except DataError as err:
            outcome = ("refused", str(err))
        except ChildProcessError as err:
            outcome = ("died", str(err))
        except Exception as err:  # a bug: the caller reports it as one
            outcome = ("failed", f"{type(err).__name__}: {err}")
        pickle.dump(outcome, answers, protocol=pickle.HIGHEST_PROTOCOL)
        answers.flush()
        # The helper lives as long as the server: the file and the table it just passed on
        # would otherwise stay in its heap until the next upload (tens of MB for a large one).
        data = outcome = None
        give_back_freed_memory()


def _main():
    # The answers go to a copy of stdout, and stdout itself now writes to stderr: a library
    # that prints while parsing cannot corrupt the answers.
    answers = os.fdopen(os.dup(sys.stdout.fileno()), "wb")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    serve(sys.stdin.buffer, answers)


# ------------------------------------------------------------ in the app
def _helper():
    """The running helper process (started on first use, and again if it died)."""
    process = _HELPER["process"]
    if process is None or process.poll() is not None:
        root = str(Path(__file__).resolve().parent.parent)
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(p for p in (root, env.get("PYTHONPATH")) if p)
        process = subprocess.Popen(
            [sys.executable, "-m", "datasets.upload_worker"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            env=env,
            cwd=root,
        )
        _HELPER["process"] = process
    return process


def _ask(request, wait):
    """The helper's answer to ``request``; the helper is killed (and restarted next time)
    when it does not answer within ``wait`` seconds or its pipe breaks."""
    with _HELPER_LOCK:
        process = _helper()
        try:
            pickle.dump(request, process.stdin, protocol=pickle.HIGHEST_PROTOCOL)
            process.stdin.flush()
            if os.name == "posix":  # select() waits on pipes on POSIX systems only
                ready, _, _ = select.select([process.stdout], [], [], wait)
                if not ready:
                    raise TimeoutError(f"the helper did not answer in {wait:g} s")
            return pickle.load(process.stdout)
        except (OSError, EOFError, TimeoutError, pickle.UnpicklingError) as err:
            process.kill()
            process.wait()
            return ("died", f"{type(err).__name__}: {err}")


def read_table_in_worker(data, filename=None, max_bytes=MAX_UPLOAD_BYTES, timeout=None):
    """:func:`datasets.read_table` in a worker process, stopped after ``timeout`` seconds.

    Parameters
    ----------
    data : bytes
    filename : str, optional
        Its suffix marks Excel and Parquet files.
    max_bytes : int
    timeout : float, optional
        Seconds; :func:`upload_timeout` when None.

    Returns
    -------
    pandas.DataFrame

    Raises
    ------
    DataError
        For a bad file, for one that takes longer than ``timeout`` to read, and
        when the worker died reading it.
    RuntimeError
        When the worker failed for another reason (a bug).
    """
    timeout = upload_timeout() if timeout is None else float(timeout)
    status, value = _ask((bytes(data), filename, max_bytes, timeout), timeout + _GRACE)
    if status == "ok":
        return value
    if status == "refused":
        raise DataError(value)
    if status == "timeout":
        raise DataError(
            f"Reading this file took longer than {timeout:g} seconds, so it was stopped. Upload "
            "fewer rows or columns, or save the table as CSV (the fastest format to read) and "
            "upload that."
        )
    if status == "died":
        raise DataError(
            "Reading this file stopped before it was done (it may need more memory than the "
            "server has). Upload fewer rows or columns, or save the table as CSV and upload that."
        )
    raise RuntimeError(f"The upload could not be read: {value}")


if __name__ == "__main__":
    _main()
