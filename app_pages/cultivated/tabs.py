"""The cultivated-forest page's tabs: the tree, one row, abstaining (Figure 4) and AUC (Table 1).

Each ``show_*_tab`` draws one tab from the page's
:class:`~app_pages.cultivated.context.CultivatedContext`; ``row_caption`` is a plain function.
"""

import numpy as np
import streamlit as st

from app_pages.cultivated import keys
from trees.reliability import abstention_curve
from ui import figures, glossary, report, share
from ui.experiments import run_with_progress
from ui.markdown import plain
from viz.cultivated import abstention_figure, auc_table, leaf_fraction_figure

from .cache import FOREST_TREES, oof_reliability, table_1_scores
from .settings import VARIANT_WORDS

__all__ = [
    "QUICK_ROWS",
    "row_caption",
    "show_abstention",
    "show_abstention_tab",
    "show_auc_tab",
    "show_row_tab",
    "show_tree_tab",
]

QUICK_ROWS = 1_000  # above this, the out-of-fold run waits for a button


def show_tree_tab(ctx):
    figures.modules(
        ctx.structure,
        ctx.rows.names,
        key="crf_tree",
        title=f"The cultivated tree ({VARIANT_WORDS[ctx.settings.variant]})",
        class_names=ctx.class_names,
    )
    st.caption(
        "Bars: φ (how much weight each nearby threshold gets: the rows sitting at it; source 002, eq. 2); "
        "the range under them is the neighbourhood. An option module lists one decision per feature. "
        "ψ (the share of a row sent left) labels the left edge, 1 − ψ the right, so a row may reach a box "
        "in part, and a box's count of rows need not be whole. Boxes take the colour of the class they "
        "lean to; deeper levels open with “+ N more below”."
    )


def row_caption(names, x, fractions):
    """The row's features, and how many leaves it reaches (its spread is their weighted variance)."""
    reached = int(np.sum(fractions > 1e-3))
    return (
        "x = ("
        + ", ".join(f"{n} {v:.3g}" for n, v in zip(names, x, strict=True))
        + "). "
        + (
            f"The row reaches {reached} leaves with a fraction above 0.001; its spread is the variance of their "
            "values, weighted by the fractions."
            if reached > 1
            else "The row reaches a single leaf: every module it meets sends all of it one way, so its "
            "spread is 0 (a fully reliable prediction)."
        )
    )


def show_row_tab(ctx):
    rows, model = ctx.rows, ctx.model
    row = share.number_input(
        st.columns([1, 2])[0],
        "Row",
        0,
        len(rows.y) - 1,
        ctx.least_reliable,
        key=keys.ROW,
        help="Starts at the training row with the largest spread: the least reliable prediction.",
    )
    row = int(row)
    fractions = model.leaf_fractions(rows.X[row][None, :])[0]
    leaf_values = [ctx.structure[leaf]["positive_share"] for leaf in model.leaf_ids_]
    r1, r2, r3 = st.columns(3)
    r1.metric(f"P({plain(ctx.class_names[1])}), its probability", f"{ctx.all_proba[row, 1]:.3f}")
    r2.metric("Spread", f"{ctx.all_spread[row]:.4f}", help=glossary.explain("spread"))
    r3.metric("True class", ctx.class_names[int(ctx.y01[row])])
    figures.chart(
        leaf_fraction_figure(fractions, model.leaf_ids_, leaf_values, ctx.class_names),
        key="crf_fractions",
    )
    st.caption(row_caption(rows.names, rows.X[row], fractions))


def show_abstention(rows_key, settings, folds, X, y):
    """Figure 4 from out-of-fold predictions, and one sentence of what it buys."""
    y01_oof, oof_proba, oof_spread = oof_reliability(rows_key, *settings, folds, X, y)
    thresholds, accuracy, kept = abstention_curve(y01_oof, oof_proba, oof_spread)
    figures.chart(abstention_figure(thresholds, accuracy, kept), key="crf_abstention")
    near = int(np.argmin(np.abs(kept - 0.6)))
    st.caption(
        f"Out of fold: keeping the {kept[near]:.0%} most reliable predictions gives an accuracy of "
        f"{accuracy[near]:.3f}, against {accuracy[-1]:.3f} on all of them."
    )
    report.add_note(
        f"Abstention: the {kept[near]:.0%} most reliable out-of-fold predictions are {accuracy[near]:.1%} "
        f"accurate, all of them {accuracy[-1]:.1%}."
    )


def _single_row_class(source):
    st.info(
        f"A class of {source} has a single row: cross-validation needs at least 2 rows of each class."
    )


def show_abstention_tab(ctx):
    st.markdown(
        "Each row is predicted by a cultivated forest fitted without it (cross-validation). Abstaining from the "
        "rows whose spread is above a threshold leaves fewer predictions, but more accurate ones (source 002, "
        "Figure 4: about 40% abstained for 8 points of accuracy on Diabetes and Parkinsons)."
    )
    rows, smallest = ctx.rows, ctx.smallest
    if smallest < 2:
        _single_row_class(rows.source)
        return
    folds = share.number_input(
        st.columns([1, 2])[0],
        "Cross-validation folds",
        2,
        max(3, min(10, smallest)),
        min(5, smallest),
        key="crf_folds",
    )
    folds = min(int(folds), smallest)
    oof_signature = repr((rows.key, *ctx.settings.key, folds))
    asked = st.session_state.setdefault(keys.OOF_ASKED, set())
    if len(rows.y) > QUICK_ROWS and oof_signature not in asked:
        st.info(
            f"{folds} cultivated forests on {len(rows.y):,} rows take a few seconds: run them when you want "
            "the curve."
        )
        if st.button("Cross-validate the cultivated forest", type="primary", key="crf_oof_run"):
            asked.add(oof_signature)
            st.rerun()
    else:
        show_abstention(rows.key, ctx.settings.key, folds, rows.X, rows.y)


def show_auc_tab(ctx):
    st.markdown(
        "Source 002's Table 1: the mean AUC over the same cross-validation folds of a random forest, the four "
        "variants with the paper's settings, and CART as the paper ran them (R's rpart: at least 20 rows to split, "
        f"depth at most 30; its pruning is not reproduced), the forest with {FOREST_TREES} trees instead of 500."
    )
    rows, smallest = ctx.rows, ctx.smallest
    if smallest < 2:
        _single_row_class(rows.source)
        return
    t1, t2 = st.columns([1, 3])
    table_folds = share.number_input(
        t1,
        "Folds",
        2,
        max(3, min(10, smallest)),
        min(10, smallest),
        key="crf_auc_folds",
        help="The paper uses 10.",
    )
    table_folds = min(int(table_folds), smallest)
    table_key = keys.AUC_PREFIX + repr((rows.key, table_folds))
    if t2.button("Cross-validate the six models", type="primary", key="crf_compare"):
        run_with_progress(
            table_key,
            "Cross-validating",
            lambda progress: table_1_scores(progress, rows.key, table_folds, rows.X, rows.y),
        )
    scores = st.session_state.get(table_key)
    if not scores:
        st.info(
            "Press the button to score the six models on the same folds (a run of a few seconds to minutes)."
        )
        return
    figures.table(
        auc_table(scores, rows.paper_row),
        title="Cross-validated AUC (Table 1)",
        hide_index=True,
        column_config={
            "mean AUC": st.column_config.NumberColumn(format="%.3f"),
            "SD": st.column_config.NumberColumn(format="%.3f"),
            "paper's AUC": st.column_config.NumberColumn(format="%.3f"),
        },
    )
    if len(scores) < 6:
        st.caption(f"{len(scores)} of the 6 models were scored before the run stopped.")
    if rows.paper_row is not None:
        st.caption(
            f"The paper's column is Table 1's row {rows.paper_name!r} (10 folds, its own seeds): "
            "expect differences of a few hundredths from the folds alone."
        )
