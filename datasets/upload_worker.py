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

The same machinery reads other files (:class:`WorkerHelper` is given the
helper's module; ``lab.model_files`` reads model files with it), with a
memory limit besides: the child's writable memory is capped at its size when
forked plus the limit (``RLIMIT_DATA``, :func:`_limit_memory`), so an
allocation past it raises ``MemoryError`` in the child, not in the server.

The helper and its child end with their parent: a server killed with
``kill -9`` closes the helper's pipe, which the helper watches while a
child works (and kills the child), and the child asks the kernel for a
``SIGKILL`` when the helper dies (Linux's ``PR_SET_PDEATHSIG``; the helper
forks it from its only thread, so the signal means the helper's end).
"""

import ctypes
import multiprocessing
import multiprocessing.connection
import os
import pickle
import select
import signal
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
    "ParentGone",
    "WorkerHelper",
    "positive_setting",
    "read_table_in_worker",
    "run_in_worker",
    "serve",
    "upload_timeout",
]

UPLOAD_TIMEOUT = 60.0  # seconds; a workbook within MAX_CELLS reads in about 20 s
TIMEOUT_ENV = "TREE_BIAS_LAB_UPLOAD_TIMEOUT"
_GRACE = 30.0  # seconds the helper may take beyond the limit (its own start, the result's trip)
_PR_SET_PDEATHSIG = 1  # prctl's option number, from linux/prctl.h


class ParentGone(Exception):
    """The helper's parent ended (its request pipe closed) while a child worked."""


def positive_setting(name, default):
    """The positive number in the environment variable ``name``, or ``default``.

    A value that is not a positive, finite number is ignored.
    """
    try:
        value = float(os.environ.get(name, ""))
    except ValueError:
        return default
    return value if 0 < value < float("inf") else default


def upload_timeout():
    """Seconds an upload may take to read: ``$TREE_BIAS_LAB_UPLOAD_TIMEOUT``, or :data:`UPLOAD_TIMEOUT`.

    A value that is not a positive number is ignored.
    """
    return positive_setting(TIMEOUT_ENV, UPLOAD_TIMEOUT)


# ------------------------------------------------------------ in the helper
def _die_with_parent():
    """Ask Linux to kill this process when its parent ends (module docstring); elsewhere,
    the parent's watch of its own pipe is all there is."""
    if not sys.platform.startswith("linux"):
        return
    parent = os.getppid()
    try:
        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    except (OSError, AttributeError):
        return
    if os.getppid() != parent:  # the parent ended before the request took effect
        os._exit(1)


def _limit_memory(memory):
    """Cap this process's writable private memory at its present size plus ``memory`` bytes.

    ``RLIMIT_DATA`` (Linux >= 4.7: the heap, anonymous mappings, and reserved
    regions as they are made writable) against the process's ``VmData``, not
    ``RLIMIT_AS``: glibc and the libraries reserve address space they fill
    later (64 MB a malloc arena), which an address-space cap would not count.
    Elsewhere (no ``/proc``) nothing is capped.
    """
    import resource

    try:
        with open("/proc/self/status") as status:
            line = next(line for line in status if line.startswith("VmData:"))
        size = int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError, StopIteration):
        return
    _, hard = resource.getrlimit(resource.RLIMIT_DATA)
    cap = size + int(memory)
    resource.setrlimit(resource.RLIMIT_DATA, (cap if hard < 0 else min(cap, hard), hard))


def _child(connection, function, args, refusals=(DataError,), memory=None):
    """Run ``function(*args)`` in the worker and send ``(status, value)`` back."""
    _die_with_parent()
    if memory is not None:
        _limit_memory(memory)
    try:
        outcome = ("ok", function(*args))
    except refusals as err:
        outcome = ("refused", str(err))
    except MemoryError:
        outcome = ("memory", "the reader needed more memory than its limit")
    except SystemError as err:
        # Under a memory limit, C code whose allocation failed may return an error without
        # setting one (measured: numpy, reading a model with a 5 MB limit): the limit's doing.
        outcome = ("memory" if memory is not None else "failed", f"SystemError: {err}")
    except Exception as err:  # a bug, reported to the caller as one
        outcome = ("failed", f"{type(err).__name__}: {err}")
    try:
        connection.send(outcome)
    except MemoryError:  # a result too large to send within the limit
        connection.send(("memory", "the result needed more memory than the limit"))
    except Exception as err:  # a result that cannot be pickled
        connection.send(("failed", f"{type(err).__name__}: {err}"))
    finally:
        connection.close()


def _wait(receiver, timeout, watch):
    """Wait for the child's answer; raise :class:`ParentGone` if ``watch`` (the helper's
    request pipe) becomes readable first: its parent closed it (it ended), or broke the
    protocol; either way the child's work has no one to go to."""
    waited = [receiver] + ([watch] if watch is not None else [])
    ready = multiprocessing.connection.wait(waited, timeout)
    if receiver in ready:
        return True
    if ready:
        raise ParentGone("the helper's parent closed its pipe")
    return False


def run_in_worker(function, args, timeout, context=None, refusals=(DataError,), memory=None,
                  watch=None):  # fmt: skip
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
    refusals : tuple of exception types
        What ``function`` raises for a bad file (its message is for the user).
    memory : int, optional
        Bytes the process may allocate beyond its size when it starts (Linux).
    watch : file object, optional
        The helper's request pipe: the child is killed, and :class:`ParentGone`
        raised, when it becomes readable while the child works (module docstring).

    Returns
    -------
    object
        What ``function`` returned.

    Raises
    ------
    TimeoutError
        When it ran longer than ``timeout`` (the process is then killed).
    DataError or another of ``refusals``
        As ``function`` raised it (a ``refusals`` type other than ``DataError``
        is raised as a ``ValueError`` with its message).
    MemoryError
        When it needed more than ``memory``.
    ChildProcessError
        When the process died (killed for its memory, say) before it answered.
    ParentGone
        When ``watch`` says the helper's parent is gone.
    RuntimeError
        When ``function`` raised another exception.
    """
    if context is None:
        forks = "fork" in multiprocessing.get_all_start_methods()
        context = multiprocessing.get_context("fork" if forks else "spawn")
    receiver, sender = context.Pipe(duplex=False)
    process = context.Process(target=_child, args=(sender, function, args, refusals, memory),
                              daemon=True)  # fmt: skip
    process.start()
    try:
        sender.close()  # the child holds its own copy: EOF reaches us if it dies
        if not _wait(receiver, timeout, watch):
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
        raise DataError(value) if DataError in refusals else ValueError(value)
    if status == "memory":
        raise MemoryError(value)
    if status == "failed":
        raise RuntimeError(value)
    return value


def _pipe_of(stream):
    """``stream`` when it is an operating-system pipe or file (one can wait on it), else None."""
    try:
        stream.fileno()
    except (AttributeError, OSError, ValueError):  # io.BytesIO, in the tests
        return None
    return stream


def serve(requests, answers, function=read_table, refusals=(DataError,)):
    """The helper's loop: read ``(args, timeout, memory)``, answer ``(status, value)``.

    Each request is a pickle on ``requests``; each answer, a pickle on
    ``answers``: ``("ok", what function(*args) returned)``, ``("refused",
    message)``, ``("timeout", seconds)``, ``("memory", memory)`` (it needed
    more than ``memory`` bytes; None: no limit), ``("died", description)``
    (the worker process died) or ``("failed", description)`` (a bug).
    Returns when ``requests`` ends, or when its parent ends during a read.
    """
    watch = _pipe_of(requests)
    while True:
        try:
            args, timeout, memory = pickle.load(requests)
        except EOFError:
            return
        try:
            result = run_in_worker(function, args, timeout, refusals=refusals, memory=memory,
                                   watch=watch)  # fmt: skip
            outcome = ("ok", result)
        except ParentGone:
            return
        except TimeoutError:
            outcome = ("timeout", timeout)
        except MemoryError:
            outcome = ("memory", memory)
        except (DataError, ValueError) as err:
            outcome = ("refused", str(err))
        except ChildProcessError as err:
            outcome = ("died", str(err))
        except Exception as err:  # a bug: the caller reports it as one
            outcome = ("failed", f"{type(err).__name__}: {err}")
        pickle.dump(outcome, answers, protocol=pickle.HIGHEST_PROTOCOL)
        answers.flush()
        # The helper lives as long as the server: the file and the table it just passed on
        # would otherwise stay in its heap until the next upload (tens of MB for a large one).
        args = result = outcome = None
        give_back_freed_memory()


def helper_main(function=read_table, refusals=(DataError,)):
    """A helper's entry point: :func:`serve` on its standard input and output."""
    # The answers go to a copy of stdout, and stdout itself now writes to stderr: a library
    # that prints while parsing cannot corrupt the answers.
    answers = os.fdopen(os.dup(sys.stdout.fileno()), "wb")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    serve(sys.stdin.buffer, answers, function, refusals)


# ------------------------------------------------------------ in the app
class WorkerHelper:
    """The helper process of one reader, run as ``python -m <module>`` (module docstring).

    Started on first use, and again if it died; one request at a time.

    Parameters
    ----------
    module : str
        The helper's module: its ``__main__`` calls :func:`helper_main` with its reader.
    env : dict, optional
        Environment variables set for the helper (on top of the server's).
    """

    def __init__(self, module, env=None):
        self.module, self.env = module, dict(env or {})
        self.process, self.lock = None, threading.Lock()

    def _running(self):
        process = self.process
        if process is None or process.poll() is not None:
            root = str(Path(__file__).resolve().parent.parent)
            env = {**os.environ, **self.env}
            env["PYTHONPATH"] = os.pathsep.join(p for p in (root, env.get("PYTHONPATH")) if p)
            process = subprocess.Popen(
                [sys.executable, "-m", self.module],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                env=env,
                cwd=root,
            )
            self.process = process
        return process

    def start(self):
        """Start the helper now (it imports its reader's libraries while a user picks a file);
        returns at once when another caller holds it (it is then running already)."""
        if self.lock.acquire(blocking=False):
            try:
                self._running()
            finally:
                self.lock.release()

    def ask(self, args, timeout, memory=None):
        """The helper's answer ``(status, value)`` to reading ``args`` (:func:`serve`); the
        helper is killed (and restarted next time) when it does not answer within the time
        limit and a grace, or its pipe breaks (then the status is "died")."""
        wait = timeout + _GRACE
        with self.lock:
            process = self._running()
            try:
                pickle.dump((args, timeout, memory), process.stdin,
                            protocol=pickle.HIGHEST_PROTOCOL)  # fmt: skip
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


_TABLES = WorkerHelper("datasets.upload_worker")


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
    status, value = _TABLES.ask((bytes(data), filename, max_bytes), timeout)
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
    if status in ("died", "memory"):
        raise DataError(
            "Reading this file stopped before it was done (it may need more memory than the "
            "server has). Upload fewer rows or columns, or save the table as CSV and upload that."
        )
    raise RuntimeError(f"The upload could not be read: {value}")


if __name__ == "__main__":
    helper_main()
