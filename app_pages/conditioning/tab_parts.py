"""The conditioning page's tabs as a part their widgets rerun alone (``ui.fragments``): opening
a tab, choosing a node, a held-out row or an experiment's settings redraws the open tab, not
the key picture and the sidebar. The page's settings rerun the page, which gives the part its
new :class:`~app_pages.conditioning.tabs.PageContext`.
"""

from functools import partial

import streamlit as st

from ui import fragments, share

from . import keys
from .experiment_tabs import show_experiment_tab, show_tables_tab
from .tabs import show_example_tab, show_forest_tab, show_tree_tab

__all__ = ["TABS", "tabs_part"]

TABS = [
    "Tree and mirror",
    "Worked example",
    "Forest, four ways",
    "Does it matter?",
    "Tables 2 and 3",
]


@fragments.fragment
def tabs_part(page):
    """The tab bar and the open tab of ``page`` (a ``PageContext``); only the open tab runs."""
    tree_tab, example_tab, forest_tab, experiment_tab, tables_tab = share.tabs(
        st, TABS, key=keys.TAB
    )
    share.show_open_tab(
        (tree_tab, partial(show_tree_tab, page)),
        (example_tab, partial(show_example_tab, page)),
        (forest_tab, partial(show_forest_tab, page)),
        (experiment_tab, partial(show_experiment_tab, page)),
        (tables_tab, partial(show_tables_tab, page)),
    )
