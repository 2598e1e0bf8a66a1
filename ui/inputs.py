"""Inputs whose range comes from the data: never a range of one value, which Streamlit refuses."""

from . import share

__all__ = ["count_input"]


def count_input(container, label, low, high, default, key, help=None):
    """A shared integer input on ``[low, high]``; a caption when the data allows one value only.

    Returns
    -------
    int
        The value (``low`` when the range holds nothing else).
    """
    if high <= low:
        container.caption(f"{label}: {low} (the data allows no other value)")
        return low
    default = min(max(int(default), low), high)
    value = share.number_input(container, label, low, high, default, key=key, help=help)
    return default if value is None else int(value)
