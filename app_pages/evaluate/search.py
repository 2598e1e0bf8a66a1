"""The Evaluate page's grid search: the grid, the method, the run and the search shown.

``parse_values`` and ``read_grid`` read the grid's texts without Streamlit; the other functions
draw the search tab from the page's context and its :class:`SearchState`.
"""

from dataclasses import dataclass
from functools import partial
from typing import Any

import numpy as np
import streamlit as st

from app_pages.evaluate import keys
from trees.tuning import configuration_grid
from ui import figures, glossary, runs, share
from ui.experiments import run_with_progress
from ui.markdown import plain
from viz.evaluation import CRITERION_WORDS, outer_folds_table, search_table, settings_table

from .cache import METHODS, SearchRecord, run_search, saved_search, search_job
from .context import digest

__all__ = [
    "LOWEST",
    "SearchState",
    "current_search",
    "parse_values",
    "read_grid",
    "show_search_tab",
]

LOWEST = {
    "max_depth": 1,
    "max_leaf_nodes": 2,
    "max_nodes": 1,
    "min_samples_split": 2,
    "min_impurity_decrease": 0,
}


@dataclass(frozen=True)
class SearchState:
    """The search of the page's split: where its runs are saved, and the one shown (or None).

    ``rows`` keys the runs by dataset and split; ``key`` is the session entry of a search
    run in the page when there is no results store.
    """

    store: Any
    rows: str
    key: str
    opened_id: Any
    saved: Any
    record: SearchRecord | None

    @property
    def searched(self):
        """Whether the search shown scored a configuration (its best settings can be shown)."""
        return self.record is not None and bool(np.isfinite(self.record.result.errors).any())


def current_search(data_key, split_name):
    """The search of this dataset and split: the run opened or saved last, else the page's own."""
    # The search runs on this split's training rows: its runs are saved and listed per dataset and split.
    rows = digest(data_key, split_name)
    key = keys.SEARCH_PREFIX + rows
    store = runs.results_store()
    opened_id = runs.opened_run_id(keys.RUNS)
    saved = saved_search(store, rows, opened_id) if store is not None else None
    record = saved[1] if saved else st.session_state.get(key)
    return SearchState(store, rows, key, opened_id, saved, record)


def parse_values(text, cast):
    """'none, 3, 5' -> [None, 3, 5]; raises ValueError with a readable message."""
    values = []
    for part in text.split(","):
        part = part.strip().lower()
        if not part:
            continue
        if part in ("none", "no limit"):
            values.append(None)
            continue
        try:
            values.append(cast(part))
        except ValueError as err:
            raise ValueError(f"{part!r} is not a number") from err
    return values


def read_grid(chosen, depth, leaves, nodes, split, impurity):
    """The configurations of the grid's texts, and what is wrong with them (or None)."""
    grid, problem = [], None
    try:
        grid = configuration_grid(
            criterion=chosen,
            max_depth=parse_values(depth, int),
            max_leaf_nodes=parse_values(leaves, int),
            max_nodes=parse_values(nodes, int),
            min_samples_split=[v for v in parse_values(split, int) if v is not None],
            min_impurity_decrease=[v for v in parse_values(impurity, float) if v is not None],
        )
        if any(c.get(n) is not None and c[n] < low for c in grid for n, low in LOWEST.items()):
            raise ValueError(
                "depths and node counts start at 1, leaves at 2, rows to split at 2, impurity at 0"
            )
        if not chosen:
            raise ValueError("choose at least one decision metric")
    except ValueError as err:
        problem = f"The grid cannot be read: {plain(err)}. Write comma-separated numbers, and 'none' for no limit."
    return grid, problem


def search_grid(criteria, criterion):
    """The grid's widgets; returns the configurations and what is wrong with them (or None)."""
    kept = st.session_state.get(keys.CRITERIA)
    if kept is not None and not set(kept) <= set(criteria):  # another task: its own metrics
        st.session_state.pop(keys.CRITERIA)
    # A row of its own: in a third of 1024 px its chips read "Gini imp…".
    chosen = st.multiselect(
        "Decision metrics",
        criteria,
        default=None if keys.CRITERIA in st.session_state else [criterion],
        key=keys.CRITERIA,
        format_func=lambda c: CRITERION_WORDS.get(c, c),
    )
    g1, g2, g3 = st.columns(3)
    depth_text = g1.text_input("Maximum depth", "2, 4, 6, none", key="eval_depth")
    leaves_text = g2.text_input("Maximum number of leaves", "none", key="eval_leaves")
    nodes_text = g3.text_input("Maximum number of nodes", "none", key="eval_nodes")
    g4, g5, _ = st.columns(3)
    split_text = g4.text_input("Minimum rows to split a node", "2, 20", key="eval_split")
    impurity_text = g5.text_input("Minimum impurity decrease", "0", key="eval_impurity")
    return read_grid(chosen, depth_text, leaves_text, nodes_text, split_text, impurity_text)


def smallest_class(is_classifier, y_train):
    """The rows of the smallest class (all the rows for regression): folds cannot outnumber them."""
    return int(np.unique(y_train, return_counts=True)[1].min()) if is_classifier else len(y_train)


def search_method(is_classifier, y_train):
    """The method's widgets; returns the method, its folds, the inner setting and the smallest class."""
    m1, m2, m3 = st.columns(3)
    method = share.radio(m1, "Method", list(METHODS), key="eval_method")
    smallest = smallest_class(is_classifier, y_train)
    most_folds = max(2, min(10, smallest))
    folds = share.number_input(
        m2,
        "Outer folds" if method == "nested cross-validation" else "Folds",
        2,
        most_folds if most_folds > 2 else 3,
        min(5, most_folds),
        key="eval_folds",
        disabled=method == "holdout validation",
        help=glossary.explain("k-fold cross-validation"),
    )
    if method == "nested cross-validation":
        inner = share.number_input(
            m3,
            "Inner folds",
            2,
            10,
            3,
            key="eval_inner",
            help=glossary.explain("nested cross-validation"),
        )
    elif method == "holdout validation":
        inner = share.slider(
            m3,
            "Validation share of the training rows (%)",
            5,
            50,
            20,
            5,
            key="eval_validation",
            help=glossary.explain("holdout validation"),
        )
    else:
        inner = 0
        m3.caption("Every configuration is cross-validated on the same folds of the training rows.")
    return method, folds, inner, smallest


def search_in_page(progress, ctx, description, grid):
    """The search run in the page (no results store), reporting each configuration to ``progress``."""

    def step(done, total, partial_result):
        progress(
            done,
            total,
            None if partial_result is None else SearchRecord(**description, result=partial_result),
        )

    result = run_search(
        step,
        ctx.task,
        grid,
        description["method"],
        description["folds"],
        description["inner"],
        int(ctx.seed),
        ctx.base,
        ctx.split.X_train,
        ctx.split.y_train,
    )
    return SearchRecord(**description, result=result)


def start_search(ctx, search, grid, problem, method, folds, inner, smallest):
    """Say what is wrong, or offer the Search button (a background run when there is a store)."""
    split, settings = ctx.split, ctx.settings
    if problem:
        st.error(problem)
    elif ctx.is_classifier and smallest < int(folds) and method != "holdout validation":
        st.warning(
            f"A class has only {smallest} training rows, fewer than {int(folds)} folds: lower the number of folds."
        )
    else:
        st.caption(f"{len(grid)} configurations on {len(split.y_train):,} training rows.")
        if search.store is not None:
            job = search_job(
                method, f"{ctx.data.name}, test share {settings.test_share}, seed {int(settings.seed)}",
                ctx.task, search.rows, split.X_train, split.y_train, grid, folds, inner, settings.seed,
                ctx.base,
            )  # fmt: skip
            if st.button("Search", type="primary", key=keys.RUN, help="Runs in the background: it goes "
                         "on if you close the tab, and is saved with its results."):  # fmt: skip
                runs.start(job, panel_key=keys.RUNS)  # the page shows the new run
                st.session_state[keys.SHOW_BEST] = True
            runs.show_background("grid-search", search.rows, rerun_when_done=True)
        elif st.button("Search", type="primary", key=keys.RUN):
            description = dict(
                method=method, folds=int(folds), inner=int(inner), grid_text=str(grid)
            )
            run = partial(search_in_page, ctx=ctx, description=description, grid=grid)
            run_with_progress(search.key, "Fitting configurations", run)
            st.session_state[keys.SHOW_BEST] = True
            st.rerun()  # the tree shown follows the new best settings


def show_search_result(record, saved, error_name):
    """The search shown: its configurations, best settings and estimate."""
    if record is None:
        st.info(
            "Press Search to score the grid; the best settings then become the tree shown above."
        )
        return
    result = record.result
    st.markdown(
        f"**The search shown:** {record.describe()}"
        + (" (saved; more in the list above)." if saved else ".")
    )
    figures.table(
        search_table(result),
        title="Configurations, best first",
        hide_index=True,
        height=min(38 + 35 * len(result.configurations), 320),
        column_config={
            "rank": st.column_config.NumberColumn("rank", width="small"),
            "error": st.column_config.NumberColumn(
                "error", format="%.4f", width="small", help=error_name
            ),
        },
    )
    left, right = st.columns([3, 2])
    figures.table(
        settings_table(result.best),
        title="Best settings",
        hide_index=True,
        container=left,
        column_config={"setting": st.column_config.TextColumn("best setting", width="medium")},
    )
    label = {
        "k-fold cross-validation": "Best cross-validation error",
        "holdout validation": "Best validation error",
        "nested cross-validation": "Nested estimate of the error",
    }[record.method]
    right.metric(label, f"{result.estimate:.4f}", help=glossary.explain(record.method))
    if result.outer_best:
        st.markdown("**Chosen in each outer fold** (the estimate above scores these choices):")
        figures.table(
            outer_folds_table(result.outer_best, result.outer_errors),
            title="Chosen in each outer fold",
            hide_index=True,
        )


def show_search_tab(ctx, search):
    st.markdown(
        "Which stopping rules make the best tree? Each combination of the values below is scored on the "
        "training rows only, so the test split stays untouched (source 004, §4.3). Write values separated "
        "by commas, and `none` for no limit."
    )
    grid, problem = search_grid(ctx.settings.criteria, ctx.settings.criterion)
    start_search(ctx, search, grid, problem, *search_method(ctx.is_classifier, ctx.split.y_train))
    if search.store is not None:
        with st.expander("Saved searches on this dataset and split", expanded=False):
            runs.saved_runs_panel("grid-search", search.rows, key=keys.RUNS)
        if runs.opened_run_id(keys.RUNS) != search.opened_id:
            st.session_state[keys.SHOW_BEST] = True
            st.rerun()  # a saved search was reopened: the tree shown above follows it
    show_search_result(search.record, search.saved, ctx.error_name)
