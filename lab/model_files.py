"""Reading a model file in a worker process, with a time limit and a memory limit.

The readers of ``trees.interop`` check a file's structure and declared sizes
before they build anything (``trees.interop.LIMITS``), but a file is also
handed to code the lab does not own (skops, scikit-learn's C code builds the
trees of a ``.skops`` file) and a reader may meet a case no check foresaw.
So the page and ``python -m lab audit`` read a model in a worker
(:func:`read_model_in_worker`), as data uploads are read
(``datasets.upload_worker``): one helper process, ``python -m
lab.model_files``, started on first use, forks a child per file, kills it
at the time limit and caps its memory. No file can then hold the server for
longer than :data:`MODEL_TIMEOUT` or take more than :data:`MODEL_MEMORY_MB`
of its memory beyond the helper's own, and what went wrong is said in words
with what to do (:class:`trees.interop.ModelFileError`). The cap is on the
child's writable memory (``RLIMIT_DATA``: its size when forked plus the
limit), so free memory the helper's heap already holds comes on top; the
helper maps large arrays on their own (``map_large_blocks``), which it unmaps
when they are freed, so that is the small objects' heap only. A 39 MB XGBoost
JSON file of 16,000 trees and 389,000 nodes reads within 300 MB.

The helper imports the readers' libraries once (skops, scikit-learn's tree
modules) with one thread each, so a child is a fork of a warm process and its
memory limit is spent on the file, not on imports. The model comes back
without the library's own document (the audit does not use it; a parsed JSON
file takes several times its size), unless asked for it (``document=True``:
the parity report rebuilds the library's own model from it).
"""

import dataclasses

from datasets._memory import map_large_blocks
from datasets.upload_worker import WorkerHelper, helper_main, positive_setting, run_in_worker
from trees.interop import LIMITS, ModelFileError, load_model_file

__all__ = [
    "MEMORY_ENV",
    "MODEL_MEMORY_MB",
    "MODEL_TIMEOUT",
    "TIMEOUT_ENV",
    "model_limits",
    "read_model_file",
    "read_model_in_worker",
    "start_worker",
]

# Seconds a model file may take to read: the largest models the limits accept (4 million
# nodes, 20,000 trees) read in 5-15 s on one core.
MODEL_TIMEOUT = 60.0
TIMEOUT_ENV = "TREE_BIAS_LAB_MODEL_TIMEOUT"
# Memory a model file's reading may take beyond the helper's own: the largest JSON file
# accepted (64 MB) parses to about 8 times its size, and its trees take a few hundred MB.
MODEL_MEMORY_MB = 1024
MEMORY_ENV = "TREE_BIAS_LAB_MODEL_MEMORY_MB"
# One thread for the numerical libraries the helper imports: a thread pool's stacks and
# buffers would count against every child's memory limit.
_ONE_THREAD = {name: "1" for name in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS",
                                      "MKL_NUM_THREADS", "NUMBA_NUM_THREADS")}  # fmt: skip
_HELPER = WorkerHelper("lab.model_files", env=_ONE_THREAD)


def model_limits():
    """``(seconds, megabytes)`` a model file's reading may take: ``$TREE_BIAS_LAB_MODEL_TIMEOUT``
    and ``$TREE_BIAS_LAB_MODEL_MEMORY_MB``, or :data:`MODEL_TIMEOUT` and :data:`MODEL_MEMORY_MB`
    (a value that is not a positive number is ignored)."""
    return (positive_setting(TIMEOUT_ENV, MODEL_TIMEOUT),
            positive_setting(MEMORY_ENV, MODEL_MEMORY_MB))  # fmt: skip


def start_worker():
    """Start the model worker's helper ahead of a file (its imports take a few seconds once)."""
    _HELPER.start()


def read_model_file(name, data, document=False):
    """:func:`trees.interop.load_model_file`, without the library's document unless
    ``document`` (module docstring)."""
    model = load_model_file(name, data)
    return model if document else dataclasses.replace(model, document=None)


def _failure(status, value, name, seconds, megabytes):
    """What to tell the user when the worker gave no model (a sentence and what to do)."""
    if status == "refused":
        return value
    if status == "timeout":
        return (
            f"Reading {name} took longer than {seconds:g} seconds, so it was stopped (it is "
            "larger than the models the lab reads, or damaged): export a model with fewer "
            f"trees, or, on a server you run, raise ${TIMEOUT_ENV}."
        )
    if status == "memory":
        return (
            f"Reading {name} needed more than {megabytes:g} MB of memory, so it was stopped (it "
            "declares more than its bytes hold, or is larger than the models the lab reads): "
            f"export a model with fewer trees, or, on a server you run, raise ${MEMORY_ENV}."
        )
    if status == "died":
        return (
            f"Reading {name} stopped before it was done (the reader crashed on it), so the file "
            "is damaged: save the model again in its library's own format and open that file."
        )
    raise RuntimeError(f"The model file could not be read: {value}")


def _forked(args, seconds, memory):
    """``(status, value)`` of :func:`read_model_file` in a child forked from this process."""
    try:
        return "ok", run_in_worker(read_model_file, args, seconds,
                                   refusals=(ModelFileError,), memory=memory)  # fmt: skip
    except TimeoutError:
        return "timeout", seconds
    except MemoryError:
        return "memory", memory
    except ValueError as error:  # a refusal of the reader
        return "refused", str(error)
    except ChildProcessError as error:
        return "died", str(error)


def read_model_in_worker(name, data, seconds=None, megabytes=None, fork=False, document=False):
    """:func:`read_model_file` in the worker, stopped at the time and memory limits.

    Parameters
    ----------
    name : str
        The file's name.
    data : bytes
    seconds, megabytes : float, optional
        The limits; :func:`model_limits` when None.
    fork : bool, default=False
        Fork this process for the file instead of asking the helper: for a caller with
        no threads of its own (the command line), which then pays no helper's start
        (its imports, a few seconds); a server's threads make a fork of it unsafe.
    document : bool, default=False
        Keep the library's own document on the model (``ImportedModel.document``).

    Returns
    -------
    trees.interop.ImportedModel

    Raises
    ------
    ModelFileError
        A file refused by the readers, or one that took longer than the time
        limit, needed more than the memory limit or crashed the reader, each in
        words with what to do.
    RuntimeError
        When the worker failed for another reason (a bug).
    """
    default_seconds, default_megabytes = model_limits()
    seconds = default_seconds if seconds is None else float(seconds)
    megabytes = default_megabytes if megabytes is None else float(megabytes)
    name = str(name or "the file")
    if len(data) > LIMITS["bytes"]:  # refused here: no need to send it to the helper
        return read_model_file(name, data)
    memory, args = int(megabytes * 2**20), (name, bytes(data), bool(document))
    if fork:
        status, value = _forked(args, seconds, memory)
    else:
        status, value = _HELPER.ask(args, seconds, memory)
    if status == "ok":
        return value
    raise ModelFileError(_failure(status, value, name, seconds, megabytes))


def _warm_imports():
    """Import what the readers import lazily, once, in the helper (module docstring); without
    the models extra the reader says so per file."""
    try:
        import sklearn.ensemble  # noqa: F401  (the classes a skops file builds)
        import sklearn.tree  # noqa: F401
        import skops.io  # noqa: F401
    except ImportError:
        return False
    return True


if __name__ == "__main__":
    # Large arrays mapped on their own and unmapped when freed (as in the app): a model the
    # helper passed on leaves no free heap a child could then use beyond its memory limit.
    map_large_blocks()
    _warm_imports()
    helper_main(read_model_file, (ModelFileError,))
