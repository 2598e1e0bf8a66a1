"""Cultivated random forests: robust-split and option modules, soft surfaces, reliability (source 002)."""

from functools import partial

import streamlit as st

from app_pages.cultivated import keys
from app_pages.cultivated.cache import benchmark_forest, cart_tree, fit_crf
from app_pages.cultivated.context import cultivated_context
from app_pages.cultivated.settings import MAX_ROWS, crf_settings, page_rows
from app_pages.cultivated.summary import add_to_report, show_headline, show_surfaces
from app_pages.cultivated.tabs import (
    show_abstention_tab,
    show_auc_tab,
    show_row_tab,
    show_tree_tab,
)
from ui import engine, errors, presenter, share, state

st.title("Cultivated random forests")
headline, picture = st.container(), st.container()

data = state.current()
binary = data.task == "classification" and data.y.nunique() == 2
settings_box = st.expander(
    "Settings: the data and the cultivated tree", expanded=not presenter.active()
)
with settings_box:
    settings = crf_settings(data.name, binary)

rows = page_rows(data, state.dataset_key(), settings.use_example or not binary)
if rows.subsampled:
    with settings_box:
        st.caption(f"A random {MAX_ROWS:,} of the {data.n_rows:,} rows are used.")

with errors.attempt("Growing the cultivated forest"):
    model = fit_crf(
        rows.key, settings.variant, settings.depth, settings.eta0, settings.k_scale, rows.X, rows.y
    )
with errors.attempt("Fitting CART"):
    cart = cart_tree(rows.key, settings.depth, model.min_node_weight, rows.X, rows.y)
forest = None  # drawn once the tree engine has the forest's kernels (``ui.engine``)
if engine.later_parts_ready():
    with errors.attempt("Fitting the random forest"):
        forest = benchmark_forest(rows.key, rows.X, rows.y)
ctx = cultivated_context(rows, settings, model)
if st.session_state.get(keys.ROW, 0) > len(rows.y) - 1:
    share.forget(keys.ROW)  # fewer rows than before: start again at the least reliable one

with headline:
    show_headline(ctx)
with picture:
    row_for_star = st.session_state.get(keys.ROW, ctx.least_reliable)
    show_surfaces(ctx, settings_box, cart, forest, row_for_star)
add_to_report(ctx)

TABS = ["The cultivated tree", "One row", "Abstaining (Figure 4)", "AUC (Table 1)"]
tree_tab, row_tab, abstain_tab, auc_tab = share.tabs(st, TABS, key=keys.TAB)
share.show_open_tab(
    (tree_tab, partial(show_tree_tab, ctx)),
    (row_tab, partial(show_row_tab, ctx)),
    (abstain_tab, partial(show_abstention_tab, ctx)),
    (auc_tab, partial(show_auc_tab, ctx)),
)
