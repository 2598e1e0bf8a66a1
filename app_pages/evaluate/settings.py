"""The Evaluate page's settings box: the test split, the decision metric, nominal conditions, the tree shown.

Widgets only; each function draws into the container the caller opened (``with settings_box:``).
"""

import streamlit as st

from app_pages.evaluate import keys
from trees.tree import CRITERIA_CLF
from ui import glossary, share
from viz.evaluation import CRITERION_WORDS

from .cache import MAX_ROWS
from .context import SplitSettings

__all__ = ["BEST", "GROWN", "split_settings", "tree_shown"]

GROWN = "grown to purity"
BEST = "best settings of the search"


def split_settings(is_classifier, categorical, subsampled, n_rows):
    """The split's and the tree's widgets; ``n_rows`` is the dataset's (said when it is sampled)."""
    c1, c2 = st.columns(2)
    c3, c4 = st.columns(2)
    test_share = share.slider(
        c1, "Share of rows held out for testing", 0.1, 0.5, 0.2, 0.05, key="eval_test"
    )
    seed = share.number_input(c2, "Seed of the split", 0, 10_000, 0, key="eval_seed")
    criteria = list(CRITERIA_CLF) if is_classifier else ["squared_error"]
    criterion = share.selectbox(
        c3,
        "Decision metric",
        criteria,
        key="eval_criterion",
        format_func=lambda c: CRITERION_WORDS.get(c, c),
        help=glossary.explain("decision metric"),
    )
    if categorical:
        nominal = share.selectbox(
            c4,
            "Conditions on nominal features",
            ["membership", "equality"],
            key="eval_nominal",
            format_func={"membership": "membership (x ∈ S)", "equality": "equality (x = v)"}.get,
            help=glossary.explain("membership condition")
            + " "
            + glossary.explain("equality condition"),
        )
    else:
        nominal = "membership"
        c4.caption(
            "Conditions on nominal features: none is kept as categories (the Data page's "
            "preprocessing can keep them, for membership conditions)."
        )
    if subsampled:
        st.caption(f"A random {MAX_ROWS:,} of the {n_rows:,} rows are used on this page.")
    return SplitSettings(test_share, seed, criteria, criterion, nominal)


def tree_shown(searched):
    """The tree shown: grown to purity, or (once a search has results) its best settings."""
    choices = [GROWN] + ([BEST] if searched else [])
    if st.session_state.pop(keys.SHOW_BEST, False):
        share.forget(keys.SHOWN)  # a search just ended: open on its best tree
    if st.session_state.get(keys.SHOWN) not in (None, *choices):
        st.session_state.pop(keys.SHOWN)  # another dataset: no search to show yet
    if len(choices) > 1:
        return share.radio(
            st,
            "Tree shown",
            choices,
            len(choices) - 1,
            key=keys.SHOWN,
            horizontal=True,
            help="A tree grown to purity is source 004's reference (Table 4.1); the search tab finds "
            "stopping rules that may generalise better.",
        )
    st.caption(
        "The tree shown is grown to purity, source 004's reference; a search (tab below) offers "
        "its best settings instead."
    )
    return choices[0]
