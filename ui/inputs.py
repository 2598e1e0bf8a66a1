"""Inputs whose range comes from the data: never a range of one value, which Streamlit refuses."""

import streamlit as st

from . import share
from .markdown import plain

__all__ = ["count_input", "two_features"]


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


def two_features(names, first, second, key_x, key_y, labels=("Horizontal axis", "Vertical axis")):
    """Two shared feature selectors side by side; the indices of the features chosen.

    Both offer every feature (a fixed list, so a choice never disappears when the other one
    changes). The same feature on both axes is replaced on the vertical one by the next
    feature, with a note; a selector the user emptied falls back to its default.
    """
    a, b = st.columns(2)
    fx = share.selectbox(a, labels[0], names, first, key=key_x)
    fy = share.selectbox(b, labels[1], names, second, key=key_y)
    jx = names.index(fx) if fx in names else first
    jy = names.index(fy) if fy in names else second
    if jx == jy:
        jy = (jx + 1) % len(names)
        st.caption(
            f"The same feature on both axes: the vertical axis shows {plain(names[jy])} instead."
        )
    return jx, jy
