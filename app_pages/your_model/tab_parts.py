"""The "Your own model" page's tabs as a part their widgets rerun alone (``ui.fragments``):
opening a tab, choosing a row, a probe or a runtime redraws the open tab, not the audit's
headline above and the sidebar. The model and its rows rerun the page, which gives the part
its new inputs.
"""

from functools import partial

import streamlit as st

from ui import fragments, share

from . import keys
from .deploy import show_deploy_tab
from .views import show_flips_tab, show_probes_tab, show_remedy_tab, show_rows_tab

__all__ = ["TABS", "tabs_part"]

TABS = ["Rows that change", "Where in the trees", "The remedy", "Probe rows for a converter",
        "Deploy"]  # fmt: skip


@fragments.fragment
def tabs_part(audit, choice, rows, rows_key):
    """The tab bar and the open tab: ``audit`` of the model ``choice`` on ``rows`` (whose
    cache key is ``rows_key``); only the open tab runs."""
    rows_tab, flips_tab, remedy_tab, probes_tab, deploy_tab = share.tabs(st, TABS, key=keys.TAB)
    share.show_open_tab(
        (rows_tab, partial(show_rows_tab, audit, rows.frame)),
        (flips_tab, partial(show_flips_tab, audit)),
        (remedy_tab, partial(show_remedy_tab, audit)),
        (probes_tab, partial(show_probes_tab, choice.key, rows_key, choice.model, rows.frame)),
        (deploy_tab, partial(show_deploy_tab, choice, rows_key, rows.frame)),
    )
