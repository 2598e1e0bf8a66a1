"""Output paths of the command line, checked before a run starts.

A run of source 000's protocol takes minutes to hours and is saved as done
when it ends: an output path that cannot be written must be refused before
it starts, not after (``--html /nonexistent/x.html`` failed after 90 s of
work, with a traceback). Each function tries what the write will do (open
the file for appending, create the folder), so a path the operating system
refuses for any reason (a missing folder, no permission, ``/proc``) is
found at once, and says so in one sentence.
"""

import os

__all__ = ["check_output_file", "output_folder"]


def _reason(error):
    return (error.strerror or str(error)).lower()


def check_output_file(path, option):
    """Check that the file ``path`` (given as ``option``, e.g. ``--html``) can be written.

    The file is opened for appending (created when missing, then removed
    again), so nothing it holds changes.

    Raises
    ------
    ValueError
        One sentence: which option, which path, why, and what to do.
    """
    if path is None:
        return
    folder = os.path.dirname(os.path.abspath(path))
    if os.path.isdir(path):
        raise ValueError(f"{option} {path} is a folder: give the name of a file to write.")
    if not os.path.isdir(folder):
        raise ValueError(
            f"{option} {path}: the folder {folder} does not exist; create it first, or give "
            "a file in a folder that exists."
        )
    existed = os.path.exists(path)
    try:
        with open(path, "a"):
            pass
    except OSError as error:
        raise ValueError(
            f"{option} {path} cannot be written ({_reason(error)}): give a file in a folder "
            "you can write to."
        ) from None
    if not existed:
        os.remove(path)


def output_folder(path, option):
    """Make the folder ``path`` (given as ``option``) when missing; check it can be written.

    Returns
    -------
    bool
        Whether it was made here (a caller whose run then fails removes it if still empty).

    Raises
    ------
    ValueError
        One sentence: which option, which path, why, and what to do.
    """
    if os.path.exists(path) and not os.path.isdir(path):
        raise ValueError(f"{option} {path} is a file, not a folder: give a folder to write into.")
    made = not os.path.exists(path)
    try:
        os.makedirs(path, exist_ok=True)
        probe = os.path.join(path, ".tree-bias-lab-write-test")
        with open(probe, "w"):
            pass
        os.remove(probe)
    except OSError as error:
        raise ValueError(
            f"{option} {path} cannot be written ({_reason(error)}): give a folder you can write to."
        ) from None
    return made
