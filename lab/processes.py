"""Which process owns a run, whether it still lives, and workers that end with their parent.

A run saved as "running" by a process that was killed (``kill -9``, a power
cut, a closed terminal) would say "running" for ever: the store keeps the
owner's machine and process id (:func:`this_process`) and, on the next start,
marks a run whose owner is gone (:func:`process_alive`) as interrupted.

The worker processes of a joblib pool outlive a parent killed with
``kill -9`` (they wait for work until loky's idle timeout, minutes later,
holding hundreds of megabytes each): :func:`watch_parent` starts, in each
worker, a thread that ends the worker once the parent is gone.
"""

import os
import socket
import threading
import time

__all__ = ["machine", "process_alive", "this_process", "watch_parent"]

_WATCH_SECONDS = 0.5
_WATCHED, _WATCH_LOCK = [], threading.Lock()


def machine():
    """This machine as the store records it: the host name and, on Linux, the pid namespace.

    Process ids are only comparable within one pid namespace: two containers
    may share a host name (host networking) but not their processes, so the
    namespace is part of the name (``hostname`` alone elsewhere).
    """
    try:
        namespace = os.readlink("/proc/self/ns/pid")
    except OSError:
        return socket.gethostname()
    return f"{socket.gethostname()} {namespace}"


def this_process():
    """``(machine, pid)`` of this process (see :func:`machine`)."""
    return machine(), os.getpid()


def process_alive(pid):
    """Whether the process ``pid`` of this machine still runs (a zombie counts as ended).

    Parameters
    ----------
    pid : int

    Returns
    -------
    bool
        True also when it cannot be told (then nothing is marked interrupted).
    """
    if os.name != "posix":
        # os.kill(pid, 0) is no probe on Windows: it ends the process. Assume it lives.
        return True
    try:
        os.kill(pid, 0)  # signal 0: only checks that the process exists
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # another user's process
    try:
        with open(f"/proc/{pid}/stat") as stat:
            # The state follows the command name in parentheses, which may hold spaces.
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return True


def watch_parent(parent):
    """In a worker process of ``parent``: end this process soon after ``parent`` ends.

    Called by every task (:func:`lab.executors._timed`); the first call in a
    worker starts a daemon thread that checks every half second that the
    worker's parent is the same and ``parent`` still lives, and exits the
    worker (``os._exit``: no cleanup to wait for, the run's results are
    saved by the parent, which is gone) when either changes. Nothing happens
    in ``parent`` itself (threads, one job) nor on Windows, where
    :func:`process_alive` cannot tell.

    Linux's ``prctl(PR_SET_PDEATHSIG)`` is not used: it fires when the
    *thread* that started the worker ends, and loky starts workers from
    helper threads that end while the run goes on.
    """
    if os.getpid() == parent or os.name != "posix":
        return
    with _WATCH_LOCK:
        if _WATCHED:
            return
        _WATCHED.append(parent)
    threading.Thread(
        target=_exit_without, args=(parent, os.getppid()), name="tree-bias-lab parent watch",
        daemon=True,
    ).start()  # fmt: skip


def _exit_without(parent, first_parent):
    """The watch of :func:`watch_parent`: exit once the parent changed or ``parent`` ended."""
    while os.getppid() == first_parent and process_alive(parent):
        time.sleep(_WATCH_SECONDS)
    os._exit(1)
