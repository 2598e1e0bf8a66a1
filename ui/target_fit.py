"""What a page can do with the target it is given: too many classes for a study is said up front.

A target of hundreds of classes (a free-text column, an identifier picked by
mistake) makes the studies' work grow with the classes: judging one split's
firmness compares every class's counts at every candidate (6 s at 25
classes on 2,000 rows, over 150 s at 100), and a page would run for minutes
without a word. So each study page declares the most classes it studies
(``ui.navigation.PageSpec.max_classes``), the frame asks :func:`fits` before
running it, and a page given more classes shows :func:`explain_and_offer`
instead: what is wrong, and a button that groups the rare classes
(``preprocess(max_classes=...)``: the most frequent classes kept, the others
one class "other classes"), or the Data page to choose.
"""

import streamlit as st

from . import data_controls, state
from .markdown import plain

__all__ = ["class_count", "explain_and_offer", "fits"]


def class_count(data):
    """The number of classes of ``data``'s target (0 for regression)."""
    return int(data.y.nunique()) if data.task == "classification" else 0


def fits(data, max_classes):
    """Whether a page that studies at most ``max_classes`` classes (None: any) can take ``data``."""
    return max_classes is None or class_count(data) <= max_classes


def _group(max_classes):
    message = data_controls.apply_settings(
        **{k: v for k, v in state.preprocessing_settings().items() if k != "max_classes"},
        max_classes=max_classes,
    )
    if message:
        st.session_state[state.SIDEBAR_ERROR] = message


def explain_and_offer(data, max_classes, key):
    """Say why the page does not run on ``data``, and offer to group its rare classes."""
    n_classes = class_count(data)
    target = plain(data.y.name or "the target")
    st.warning(
        f"**This page studies at most {max_classes} classes; {target} has {n_classes:,}.** "
        "Its studies compare every class at every split, so with this many they would run for "
        "minutes, and a class of a few rows teaches a tree nothing. Keep the "
        f"{max_classes - 1} most frequent classes and group the other "
        f"{n_classes - max_classes + 1:,} as one class, 'other classes' (the Data page can "
        "keep another number, or you can pick another target there)."
    )
    st.button(
        f"Group the rare classes (keep {max_classes - 1} and 'other classes')",
        type="primary",
        key=key,
        on_click=_group,
        args=(max_classes,),
    )
