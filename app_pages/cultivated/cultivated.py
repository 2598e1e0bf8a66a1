"""Cultivated random forests: robust-split and option modules, soft surfaces, reliability (source 002)."""

import numpy as np
import streamlit as st

from app_pages.cultivated.cache import (
    FOREST_TREES,
    fit_crf,
    oof_reliability,
    references,
    surfaces,
    table_1_scores,
)
from datasets import generate
from datasets.source002 import CATALOG_NAMES, TABLE_1
from trees import VARIANTS, abstention_curve
from ui import errors, figures, glossary, presenter, report, share, snippets, state
from ui.cached import sample
from ui.experiments import run_with_progress
from viz.cultivated import (
    abstention_figure,
    auc_table,
    leaf_fraction_figure,
    soft_surfaces_figure,
)

st.title("Cultivated random forests")
headline, picture = st.container(), st.container()
VARIANT_WORDS = {
    "full": "CRF-full (both modules)",
    "split": "CRF-split (robust splits only)",
    "option": "CRF-option (option modules only)",
    "shallow": "CRF-shallow (both, depth 6)",
}
MAX_ROWS = 2_000  # source 002's datasets are small; larger data is sampled (said on the page)
QUICK_ROWS = 1_000  # above this, the out-of-fold run waits for a button


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


def count(n, one, many=None):
    """'1 leaf', '3 leaves', '0 option modules'."""
    return f"{n:,} {one if n == 1 else many or one + 's'}"


data = state.current()
binary = data.task == "classification" and data.y.nunique() == 2
settings_box = st.expander(
    "Settings: the data and the cultivated tree", expanded=not presenter.active()
)
with settings_box:
    s1, s2 = st.columns(2)
    s3, s4, s5 = st.columns(3)
    use_example = share.toggle(
        s1,
        "Simulated data of Supplement B",
        value=True,
        key="crf_example",
        disabled=not binary,
        help="Two Gaussian classes centred at (-1, -1) and (1, 1), SD 0.75, 300 rows: the paper's Figure 3.",
    )
    variant = share.selectbox(
        s2, "Variant", list(VARIANTS), key="crf_variant", format_func=VARIANT_WORDS.get
    )
    depth = share.number_input(
        s3, "Maximum depth", 1, 30, VARIANTS[variant]["max_depth"], key=f"crf_depth_{variant}"
    )
    eta0 = share.number_input(
        s4, "η₀", 0.0, 2.0, 0.3, 0.05, key="crf_eta", help=glossary.explain("η₀ (eta0)")
    )
    k_scale = share.number_input(
        s5,
        "k × √weight",
        0.1,
        5.0,
        1.0,
        0.1,
        key="crf_k",
        help="The robust split module's neighbourhood takes k rows of weight on each side of the "
        "best threshold; 1 is the paper's k = √(sum of weights in the node).",
    )
    if not binary:
        st.caption(
            f"{data.name} is not a two-class dataset, and cultivated forests are defined for two classes "
            "(source 002): the page uses the simulated data."
        )

if use_example or not binary:
    example = generate("CRF simulation", n_samples=300)
    X, y = example.arrays()
    names, source, rows_key = (
        list(example.X.columns),
        "the simulated data",
        "CRF simulation, 300 rows",
    )
    paper_row = None
else:
    X, y, subsampled = sample(state.dataset_key(), MAX_ROWS, 0, *data.arrays())
    names, source, rows_key = (
        [str(c) for c in data.X.columns],
        data.name,
        (state.dataset_key(), MAX_ROWS),
    )
    paper_row = TABLE_1.get(CATALOG_NAMES.get(data.name, ""))
    if subsampled:
        with settings_box:
            st.caption(f"A random {MAX_ROWS:,} of the {data.n_rows:,} rows are used.")
classes, y01 = np.unique(y, return_inverse=True)
class_names = [str(c) for c in classes]

with errors.attempt("Growing the cultivated forest"):
    model = fit_crf(rows_key, variant, int(depth), float(eta0), float(k_scale), X, y)
structure = model.structure()
kinds = {kind: sum(m["kind"] == kind for m in structure) for kind in ("robust", "option", "split")}
with errors.attempt("Fitting CART and the random forest"):
    cart, forest = references(rows_key, int(depth), model.min_node_weight, X, y)
all_proba, all_spread = model.predict_with_reliability(X)
least_reliable = int(np.argmax(all_spread))
if st.session_state.get(state.CRF_ROW, 0) > len(y) - 1:
    share.forget(state.CRF_ROW)  # fewer rows than before: start again at the least reliable one

with headline:
    st.markdown(
        f"**One tree of {len(structure)} modules whose nodes hesitate: near a threshold a row goes partly "
        f"left and partly right, so the cultivated forest's probability changes gradually, like a random "
        f"forest's, where CART of the same depth jumps.** On {source}: "
        f"{count(kinds['robust'], 'robust split module')}, {count(kinds['option'], 'option module')}, "
        f"{count(model.n_leaves_, 'leaf', 'leaves')}."
    )
    presenter.guide("cultivated")

with picture:
    if len(names) < 2:
        st.info(
            f"{source} has a single feature: there is no surface to draw; the tree below shows the modules."
        )
        fx = fy = 0
    else:
        with settings_box:
            a1, a2, _ = st.columns([2, 2, 3])
            fx = share.selectbox(
                a1,
                "Horizontal axis",
                list(range(len(names))),
                0,
                key="crf_fx",
                format_func=names.__getitem__,
            )
            fy = share.selectbox(
                a2,
                "Vertical axis",
                list(range(len(names))),
                1,
                key="crf_fy",
                format_func=names.__getitem__,
            )
        row_for_star = st.session_state.get(state.CRF_ROW, least_reliable)
        settings_key = (variant, int(depth), float(eta0), float(k_scale))
        xs, ys, grids = surfaces(
            rows_key,
            settings_key,
            int(fx),
            int(fy),
            {
                "cultivated forest": model,
                "CART, same depth": cart,
                "random forest": forest,
            },
            X,
        )
        figures.chart(
            soft_surfaces_figure(
                xs,
                ys,
                grids,
                X,
                y01,
                int(fx),
                int(fy),
                names,
                class_names,
                row=min(row_for_star, len(y) - 1),
            ),
            key="crf_surfaces",
            title=f"P({class_names[1]}) of the cultivated forest, CART and a random forest",
        )
        others = f"; {len(names) - 2} other features at their medians" if len(names) > 2 else ""
        st.caption(
            f"White is P = 0.5, the decision boundary; colours are the classes' own{others}. CART has the cultivated "
            f"tree's depth and minimum node size, so the only difference is the modules; the random forest is the "
            f"paper's benchmark ({FOREST_TREES} trees grown to purity, a third of the features tried at each node). "
            "The star is the row of the tab “One row”."
        )

report.add_settings(
    {
        "data": source,
        "variant": VARIANT_WORDS[variant],
        "maximum depth": int(depth),
        "η₀": float(eta0),
        "k as a multiple of √(node weight)": float(k_scale),
        "modules": len(structure),
        "leaves": model.n_leaves_,
    }
)
report.add_snippet(
    snippets.cultivated_snippet(
        None if use_example or not binary else st.session_state.get(state.DATA_ORIGIN),
        state.preprocessing_settings(),
        MAX_ROWS,
        variant,
        int(depth),
        float(eta0),
        float(k_scale),
    )
)

TABS = ["The cultivated tree", "One row", "Abstaining (Figure 4)", "AUC (Table 1)"]
tree_tab, row_tab, abstain_tab, auc_tab = share.tabs(st, TABS, key=state.CRF_TAB)
smallest = int(np.bincount(y01).min())


# -------------------------------------------------------------------- tabs
def show_tree_tab():
    figures.modules(
        structure,
        names,
        key="crf_tree",
        title=f"The cultivated tree ({VARIANT_WORDS[variant]})",
        class_names=class_names,
    )
    st.caption(
        "Bars: φ, the weight of each threshold in a robust split module's neighbourhood (source 002, eq. 2); "
        "the range under them is the neighbourhood. An option module lists one decision per feature. ψ is the "
        "share of a row sent left. Boxes take the colour of the class they lean to; deeper levels open with "
        "“+ N more below”."
    )


def show_row_tab():
    row = share.number_input(
        st.columns([1, 2])[0],
        "Row",
        0,
        len(y) - 1,
        least_reliable,
        key=state.CRF_ROW,
        help="Starts at the training row with the largest spread: the least reliable prediction.",
    )
    x_row = X[int(row)][None, :]
    fractions = model.leaf_fractions(x_row)[0]
    leaf_values = [structure[leaf]["positive_share"] for leaf in model.leaf_ids_]
    r1, r2, r3 = st.columns(3)
    r1.metric(f"P({class_names[1]})", f"{all_proba[int(row), 1]:.3f}")
    r2.metric("Spread", f"{all_spread[int(row)]:.4f}", help=glossary.explain("spread"))
    r3.metric("True class", class_names[int(y01[int(row)])])
    figures.chart(
        leaf_fraction_figure(fractions, model.leaf_ids_, leaf_values, class_names),
        key="crf_fractions",
    )
    reached = int(np.sum(fractions > 1e-3))
    st.caption(
        "x = ("
        + ", ".join(f"{n} {v:.3g}" for n, v in zip(names, X[int(row)], strict=True))
        + "). "
        + (
            f"The row reaches {reached} leaves with a fraction above 0.001; its spread is the variance of their "
            "values, weighted by the fractions."
            if reached > 1
            else "The row reaches a single leaf: every module it meets sends all of it one way, so its "
            "spread is 0 (a fully reliable prediction)."
        )
    )


def show_abstention_tab():
    st.markdown(
        "Each row is predicted by a cultivated forest fitted without it (cross-validation). Abstaining from the "
        "rows whose spread is above a threshold leaves fewer predictions, but more accurate ones (source 002, "
        "Figure 4: about 40% abstained for 8 points of accuracy on Diabetes and Parkinsons)."
    )
    if smallest < 2:
        st.info(
            f"A class of {source} has a single row: cross-validation needs at least 2 rows of each class."
        )
    else:
        folds = share.number_input(
            st.columns([1, 2])[0],
            "Cross-validation folds",
            2,
            max(3, min(10, smallest)),
            min(5, smallest),
            key="crf_folds",
        )
        folds = min(int(folds), smallest)
        oof_signature = repr((rows_key, variant, int(depth), float(eta0), float(k_scale), folds))
        asked = st.session_state.setdefault(state.CRF_OOF_ASKED, set())
        if len(y) > QUICK_ROWS and oof_signature not in asked:
            st.info(
                f"{folds} cultivated forests on {len(y):,} rows take a few seconds: run them when you want "
                "the curve."
            )
            if st.button("Cross-validate the cultivated forest", type="primary", key="crf_oof_run"):
                asked.add(oof_signature)
                st.rerun()
        else:
            show_abstention(
                rows_key, (variant, int(depth), float(eta0), float(k_scale)), folds, X, y
            )


def show_auc_tab():
    st.markdown(
        "Source 002's Table 1: the mean AUC over the same cross-validation folds of a random forest, the four "
        "variants with the paper's settings, and CART as the paper ran them (R's rpart: at least 20 rows to split, "
        f"depth at most 30; its pruning is not reproduced), the forest with {FOREST_TREES} trees instead of 500."
    )
    if smallest < 2:
        st.info(
            f"A class of {source} has a single row: cross-validation needs at least 2 rows of each class."
        )
    else:
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
        table_key = state.CRF_AUC_PREFIX + repr((rows_key, table_folds))
        if t2.button("Cross-validate the six models", type="primary", key="crf_compare"):
            run_with_progress(
                table_key,
                "Cross-validating",
                lambda progress: table_1_scores(progress, rows_key, table_folds, X, y),
            )
        scores = st.session_state.get(table_key)
        if not scores:
            st.info(
                "Press the button to score the six models on the same folds (a run of a few seconds to minutes)."
            )
        else:
            figures.table(
                auc_table(scores, paper_row),
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
            if paper_row is not None:
                st.caption(
                    f"The paper's column is Table 1's row {CATALOG_NAMES[data.name]!r} (10 folds, its own seeds): "
                    "expect differences of a few hundredths from the folds alone."
                )


share.show_open_tab(
    (tree_tab, show_tree_tab),
    (row_tab, show_row_tab),
    (abstain_tab, show_abstention_tab),
    (auc_tab, show_auc_tab),
)
