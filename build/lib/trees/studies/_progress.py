"""The progress-and-stop protocol of every long run in the package."""

__all__ = ["report"]


def report(progress, should_stop, done, total, *extra):
    """Tell ``progress(done, total, *extra)`` how far a run is; True when it should stop early.

    ``should_stop`` is polled only while work remains, so a finished run is
    never reported as cancelled.
    """
    if progress is not None:
        progress(done, total, *extra)
    return should_stop is not None and done < total and bool(should_stop())
