"""The Evaluate page's Table 4.1 tab: source 004's four trees grown to purity, beside the report's.

``grow_table_41`` grows the trees one step at a time (a run with progress); the tab's
functions draw them from the page's context.
"""

import numpy as np
import streamlit as st

from datasets import REPORT_PREPROCESSING, REPORT_RULES, REPORT_VARIANTS, TABLE_4_1
from datasets.source004 import DEPTH_OFFSET, REPORT_ROWS, TABLE_4_1_TEST_SHARE
from ui import errors, figures, share, state
from ui.cached import as_key, sample
from ui.experiments import run_with_progress
from ui.markdown import plain
from viz.evaluation import table_41_frame

from .cache import exhaustive_row, report_script_split, test_split
from .context import digest

__all__ = [
    "GROWTH_ORDER",
    "REPORT_GROUP",
    "ROW_CHOICES",
    "grow_table_41",
    "show_table_tab",
    "uses_report_preprocessing",
]

# The report's order on screen; misclassification, the slowest, is grown last, then the
# trees grown as the report's code grows them (``REPORT_VARIANTS``).
GROWTH_ORDER = ("entropy", "gini", "chi2", "misclassification", *REPORT_VARIANTS)
REPORT_GROUP = "Tree-predictor report (source 004)"
# The rows Table 4.1 is grown on, by the words of the choice.
REPORT_SCRIPT_ROWS = f"the report's script: first {REPORT_ROWS:,} rows, its split"
ROW_CHOICES = (REPORT_SCRIPT_ROWS, "all rows", "a random 10,000 rows")


def grow_table_41(progress, data_key, split41, base41):
    """Table 4.1's rows, one tree per decision metric, reporting each to ``progress``."""
    rows = []
    for i, name in enumerate(GROWTH_ORDER):
        # A variant is grown under the report's rules (its code's growth) and its leaves read
        # as the code reads them; the others as set.
        variant = name in REPORT_VARIANTS
        base = as_key({**dict(base41), **REPORT_RULES}) if variant else base41
        rows.append(
            exhaustive_row(
                data_key,
                split41.name,
                name,
                base,
                "report" if variant else "estimator",
                split41.X_train,
                split41.y_train,
                split41.X_test,
                split41.y_test,
            )
        )
        progress(i + 1, len(GROWTH_ORDER), list(rows))
    return rows


def show_table_tab(ctx):
    st.markdown(
        "Source 004 grows one tree per decision metric with no stopping rule but purity, on an 80/20 split of "
        "the preprocessed mushroom data, as reference models whose depth and size bound the ranges worth "
        "searching (§4.2, Table 4.1)."
        + ("" if ctx.data.group == REPORT_GROUP else f" Here, the same on {plain(ctx.data.name)}.")
    )
    if not ctx.is_classifier:
        st.info(
            "Table 4.1 compares classification trees; pick a classification dataset in the sidebar."
        )
        return
    y_all = ctx.y_all
    is_report_data = ctx.data.group == REPORT_GROUP
    options = [
        choice
        for choice in ROW_CHOICES
        if (choice != REPORT_SCRIPT_ROWS or (is_report_data and len(y_all) >= REPORT_ROWS))
        and (choice != "a random 10,000 rows" or len(y_all) > 10_000)
    ]
    # A choice of one (a small table, not the report's) is no choice: no radio, and the rows'
    # words take the whole width.
    if len(options) == 1:
        rows_choice, about_rows = options[0], st
    else:
        choice_column, about_rows = st.columns(2)
        rows_choice = share.radio(
            choice_column,
            "Rows",
            options,
            0,
            key="eval_t41_rows",
            horizontal=False,
            help="The report's script for Table 4.1 reads the first 60,000 rows of the file and "
            "splits them with scikit-learn's train_test_split, seed 1234 (its text says all "
            "61,069 rows); it tunes on a random 10,000 (§4.3).",
        )
    if rows_choice == REPORT_SCRIPT_ROWS:
        split41 = report_script_split(ctx.X_all, y_all)
        about_rows.caption(
            f"{REPORT_ROWS:,} rows, the report's 80/20 split (seed 1234, not stratified, in "
            "place of the seed and share above, which the other tabs use); conditions on "
            f"nominal features: {ctx.settings.nominal}."
        )
    else:
        X41, y41, _ = sample(
            ctx.data_key, 10_000 if rows_choice != "all rows" else len(y_all), 1, ctx.X_all, y_all
        )
        about_rows.caption(
            f"{len(y41):,} rows, 80/20 split with the seed above; conditions on nominal "
            f"features: {ctx.settings.nominal}."
        )
        split41 = test_split(
            ctx.data_key, ctx.task, TABLE_4_1_TEST_SHARE, ctx.seed, X41, y41, label="table 4.1"
        )
    if is_report_data and not uses_report_preprocessing(state.preprocessing_settings()):
        st.caption(
            "The report's numbers come from its own preprocessing (columns with 20% or more gaps "
            "dropped): set it on the Data page to compare like with like."
        )
    base41 = as_key(ctx.base)
    table_key = state.EVAL_TABLE41_PREFIX + digest(ctx.data_key, split41.name, base41)
    if st.button("Grow the trees", type="primary", key="eval_t41_run"):
        with errors.attempt("Growing the trees to purity", stop=False):
            run_with_progress(
                table_key,
                "Growing trees to purity",
                lambda progress: grow_table_41(progress, ctx.data_key, split41, base41),
            )
    grown = st.session_state.get(table_key)
    if not grown:
        st.info(
            "Press the button to grow one tree per decision metric, and two more as the "
            "report's code grows them."
        )
    else:
        n_rows = len(split41.y_train) + len(split41.y_test)
        show_table_41(grown, is_report_data, rows_choice == REPORT_SCRIPT_ROWS, n_rows)


def uses_report_preprocessing(settings):
    """Whether the Data page's preprocessing ``settings`` are source 004's."""
    return all(settings.get(k) == v for k, v in REPORT_PREPROCESSING.items())


def show_table_41(grown, is_report_data, on_report_rows, n_rows):
    """Table 4.1's trees grown so far (on ``n_rows`` rows), beside the report's on its own data
    (``on_report_rows``: grown on the report's script's rows and split)."""
    frame = table_41_frame(
        grown,
        TABLE_4_1 if is_report_data else None,
        DEPTH_OFFSET,
        order=[r["criterion"] for r in TABLE_4_1],
        variants=REPORT_VARIANTS,
    )
    figures.table(
        frame,
        title="Table 4.1: trees grown to purity",
        hide_index=True,
        column_config={
            "tree": st.column_config.TextColumn(
                help="ours: this package's criterion (Pearson's statistic for chi-square); "
                "report's code: our tree grown with the metric and rules of the report's code; "
                "report: the printed row."
            ),
            "train error": st.column_config.NumberColumn(format="%.3f"),
            "test error": st.column_config.NumberColumn(format="%.3f"),
        },
    )
    if is_report_data and not on_report_rows:
        st.caption(
            f"Ours on {n_rows:,} rows and another split; the report's script grows its trees on "
            f"the first {REPORT_ROWS:,} rows and its own split: choose those rows above to "
            "compare like with like."
        )
    if len(grown) < len(GROWTH_ORDER):
        st.caption(
            f"{len(grown)} of the {len(GROWTH_ORDER)} trees were grown before the run stopped."
        )
    st.caption(
        "Depth counts levels with the root as level 1, as the report does: one more than the "
        "depth the lab's other tables and headlines give, which counts splits. A training error above 0 "
        "means rows with equal features and different classes, which no split can separate."
    )
    if is_report_data:
        explain_table_41_differences(grown)


# The train error Table 4.1 prints for the misclassification tree (840 of 48,000 rows, cut).
PRINTED_MISCLASSIFICATION_TRAIN_ERROR = 0.017


def misclassification_sentence(grown):
    """What the "report's code" misclassification row's train error is, beside the printed one.

    The sentence reads the row on screen (its rows and split are the ones chosen above), so it
    never states a number the table does not show.
    """
    row = next((r for r in grown if r["criterion"] == "report_misclassification"), None)
    if row is None:
        return ""
    error = float(row["train error"])
    if np.floor(error * 1000) / 1000 == PRINTED_MISCLASSIFICATION_TRAIN_ERROR:
        return (
            f" Its train error here is {error:.4f}: the report prints "
            f"{PRINTED_MISCLASSIFICATION_TRAIN_ERROR}, the same cut to three decimals."
        )
    return (
        f" Its train error here is {error:.4f}; the report prints "
        f"{PRINTED_MISCLASSIFICATION_TRAIN_ERROR} (840 of its 48,000 rows), on the report's "
        "script's rows and split."
    )


def explain_table_41_differences(grown):
    """How our rows compare with the printed ones, and why each difference is there."""
    with st.expander("How the rows compare", expanded=True):
        st.markdown(
            "- **Rows, split and preprocessing.** The report's text describes all 61,069 rows "
            "and drops columns with 40% or more gaps; the script that printed Table 4.1 reads the "
            "first 60,000 rows, drops columns with 20% or more gaps and splits with "
            "scikit-learn's train_test_split, seed 1234. Chosen above (and source 004's "
            'preprocessing on the Data page), every "report\'s code" row and, with equality '
            "conditions, the entropy and Gini rows are the printed trees: the same depth, nodes "
            "and leaves.\n"
            '- **Misclassification.** "ours" scores the textbook index, the minority share, and '
            "refuses a split that changes no majority, so it stops early. The report's code "
            "scores the smallest class *count* in a set (a pure child scores its size, so the "
            "gain favours peeling off small mixed groups) and stops a node when one class is "
            "left; \"report's code\" grows with that index, in the code's order of operations "
            "(equal gains tie, or not, as there)." + misclassification_sentence(grown) + "\n"
            '- **Chi-square.** "ours" is Pearson\'s statistic, which for two classes picks the '
            "same splits as the Gini impurity. The report's code sums "
            "√((c − e)² / e) over the classes present in each child (c a class's count, e the "
            "count the parent's shares give the child); its text prints a formula of shares "
            "over every class, whose tree is 300 levels deep. \"report's code\" is the code's.\n"
            "- **Leaves on a tie.** A leaf with as many rows of each class predicts the class of "
            "its first training row in the report's code (rows \"report's code\"), the first "
            "class here.\n"
            "- **Conditions on nominal features.** The report's code tries one category at a time "
            "(x = v); membership here searches the best set of categories (x ∈ S), equality "
            "matches the report."
        )
