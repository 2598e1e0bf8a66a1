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
    changes). Choosing on one axis the feature the other shows swaps the axes: the other takes
    the one this axis showed, so both boxes always name what is drawn (the vertical box kept
    its feature while the map drew another, a note under them saying so: issue 57). A link
    naming one feature twice draws the next feature on the vertical axis, with a note; a
    selector the user emptied falls back to its default.
    """
    drawn = f"{key_x}_drawn"  # the pair of names the last run drew, which a swap reads
    a, b = st.columns(2)
    fx = share.selectbox(a, labels[0], names, first, key=key_x,
                         on_change=_swap_axes, args=(key_x, key_y, drawn, 0))  # fmt: skip
    fy = share.selectbox(b, labels[1], names, second, key=key_y,
                         on_change=_swap_axes, args=(key_y, key_x, drawn, 1))  # fmt: skip
    jx = names.index(fx) if fx in names else first
    jy = names.index(fy) if fy in names else second
    if jx == jy:
        jy = (jx + 1) % len(names)
        st.caption(
            f"The same feature on both axes: the vertical axis shows {plain(names[jy])} instead."
        )
    st.session_state[drawn] = (names[jx], names[jy])
    return jx, jy


def _swap_axes(key, other_key, drawn, axis):
    """A feature selector's callback: when it now names the feature the other selector shows,
    the other takes the feature this one showed (``drawn[axis]``, the last run's)."""
    chosen, shown = st.session_state.get(key), st.session_state.get(drawn)
    if chosen is not None and chosen == st.session_state.get(other_key) and shown:
        st.session_state[other_key] = shown[axis]
