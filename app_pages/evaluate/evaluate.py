"""Evaluate and tune a tree: the test split, the grid search, Table 4.1, importances and a forest (source 004)."""

from functools import partial

import streamlit as st

from app_pages.evaluate import keys
from app_pages.evaluate.cache import MAX_ROWS, fit_model, test_split
from app_pages.evaluate.context import EvaluateContext
from app_pages.evaluate.search import current_search, show_search_tab
from app_pages.evaluate.settings import split_settings, tree_shown
from app_pages.evaluate.summary import (
    add_to_report,
    base_params,
    show_headline,
    show_tree,
    too_small,
    tree_description,
    tree_params,
)
from app_pages.evaluate.table_41 import show_table_tab
from app_pages.evaluate.tabs import show_forest_tab, show_importance_tab, show_split_tab
from trees.tuning import split_error
from ui import errors, presenter, share, state
from ui.cached import as_key, sample
from ui.markdown import plain

st.title("Evaluate and tune a tree")
headline, picture = st.container(), st.container()

data = state.current()
data_key = state.dataset_key()
is_classifier = data.task == "classification"
X_all, y_all = data.arrays()
categorical, category_names = data.categorical_features()
X, y, subsampled = sample(data_key, MAX_ROWS, 0, X_all, y_all)

settings_box = st.expander("The test split and the tree", expanded=not presenter.active())
with settings_box:
    settings = split_settings(is_classifier, categorical, subsampled, len(y_all))

if too_small(is_classifier, y):
    st.warning(
        f"{plain(data.name)} is too small to hold out test rows: every class needs at least 2 rows and the "
        "data at least 10. Pick a larger dataset in the sidebar."
    )
    errors.end_page()
split = test_split(data_key, data.task, settings.test_share, settings.seed, X, y)
base = base_params(categorical, settings.nominal)
search = current_search(data_key, split.name)

with settings_box:
    shown = tree_shown(search.searched)
params = tree_params(shown, search.record, settings.criterion)
with errors.attempt("Fitting the tree"):
    model = fit_model(
        data_key,
        split.name,
        "tree",
        data.task,
        as_key({**params, **base}),
        None,
        split.X_train,
        split.y_train,
    )
ctx = EvaluateContext(
    data=data,
    data_key=data_key,
    X_all=X_all,
    y_all=y_all,
    categorical=categorical,
    settings=settings,
    split=split,
    base=base,
    params=params,
    model=model,
    train_error=split_error(data.task, split.y_train, model.predict(split.X_train)),
    test_error=split_error(data.task, split.y_test, model.predict(split.X_test)),
)
what = tree_description(shown, search.record, settings.criterion)
with headline:
    show_headline(ctx, what)
with picture:
    show_tree(ctx, category_names, what)
add_to_report(ctx, len(y))

TABS = ["Test split", "Importances", "Forest", "Search", "Table 4.1"]
split_tab, importance_tab, forest_tab, search_tab, table_tab = share.tabs(st, TABS, key=keys.TAB)
share.show_open_tab(
    (split_tab, partial(show_split_tab, ctx)),
    (importance_tab, partial(show_importance_tab, ctx)),
    (forest_tab, partial(show_forest_tab, ctx)),
    (search_tab, partial(show_search_tab, ctx, search)),
    (table_tab, partial(show_table_tab, ctx)),
)
