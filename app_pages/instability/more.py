"""The instability page's other panels: cutpoints, the tie-break, one row removed, the scoreboard.

The scoreboard is the page's conclusion and its one long run: it runs on
request with a progress bar and Stop (``ui.experiments.run_with_progress``);
after a Stop, the refits that every learner finished are shown.
"""

import numpy as np
import pandas as pd
import streamlit as st

from trees import cutpoint_summary, stability_scoreboard
from ui import figures, glossary, report, share, state
from ui.experiments import run_with_progress, stopped_before_any_step
from ui.inputs import count_input
from ui.snippets import dataset_code
from viz.curves import plural
from viz.stability import (
    cutpoint_figure,
    cutpoint_grid_figure,
    cutpoint_overview_figure,
    scoreboard_figure,
)

from .cache import removal
from .panels import diff_views

__all__ = [
    "BOARD_PERMUTATIONS",
    "cutpoint_depth",
    "cutpoints_panel",
    "removal_panel",
    "scoreboard_panel",
    "snippet",
    "tie_break_panel",
]

# Permutations behind each p-value of the scoreboard's p-value learner: its fits are 85% of the
# scoreboard's time, and 19 permutations resolve p-values down to 0.05 (the paper's level).
BOARD_PERMUTATIONS = 19
BOARD_TREES = 50


def cutpoint_depth(tree_depth):
    """How many levels the cutpoint views show (shared): up to 3, and no deeper than the trees."""
    deepest = int(max(0, min(3, tree_depth)))
    if deepest == 0:
        return 0
    return int(share.slider(st, "Levels shown", 0, deepest, min(2, deepest), key="inst_cut_depth"))


def cutpoints_panel(cutpoints, n_refits, depth):
    """Which feature each node position splits on over the refits, and where it cuts."""
    if cutpoints is None or len(cutpoints) == 0:
        st.info("No refit to summarise.")
        return
    figures.chart(
        cutpoint_overview_figure(cutpoints),
        key="inst_cut_overview",
        title="Feature chosen at each node",
    )
    st.caption(
        "Rows: node positions (root, root-L = its left child, ...); each cell: the share of the "
        "refits reaching that position that split it on that feature. One bright cell per row is "
        "a stable tree; spread rows are variable uncertainty (source 002, §2)."
    )
    # The grid stops at the root's children: four or more panels in a row are too small to read
    # at 1024 px; any deeper position is drawn alone below.
    figures.chart(
        cutpoint_grid_figure(cutpoints, max_depth=min(depth, 1)),
        key="inst_cut_grid",
        title="Where each node cuts",
    )
    st.caption(
        "For each position, the thresholds of its most frequent feature over the refits: a "
        "wide spread is split-point uncertainty (a flat score curve, source 002, §2)."
    )
    positions = list(dict.fromkeys(cutpoint_summary(cutpoints, n_refits)["path"]))
    if len(positions) > 3:
        shown = share.selectbox(
            st,
            "One node position, its three most frequent features",
            positions,
            3,
            key=f"inst_cut_path_{len(positions)}",
        )
        shown = shown if shown in positions else positions[3]
        figures.chart(
            cutpoint_figure(cutpoints, shown), key="inst_cut_one", title=f"Thresholds at {shown}"
        )
    summary = cutpoint_summary(cutpoints, n_refits)
    thresholds = [
        "—" if np.isnan(mid) else f"{low:.4g} · {mid:.4g} · {high:.4g}"
        for low, mid, high in zip(
            summary["threshold_q10"],
            summary["threshold_median"],
            summary["threshold_q90"],
            strict=True,
        )
    ]
    figures.table(
        pd.DataFrame(
            {
                "node": summary["path"],
                "refits with it": 100 * summary["present"],
                "most frequent feature": summary["top_feature"],
                "its share": 100 * summary["top_share"],
                "cutpoints 10 · 50 · 90%": thresholds,
            }
        ),
        title="Cutpoints at each node position",
        hide_index=True,
        width="stretch",
        column_config={
            "refits with it": st.column_config.NumberColumn(format="%.0f%%"),
            "its share": st.column_config.NumberColumn(format="%.0f%%"),
            "cutpoints 10 · 50 · 90%": st.column_config.TextColumn(
                help="The 10th percentile, the median and the 90th percentile of the thresholds "
                "of the most frequent feature at this position."
            ),
        },
    )


def tie_break_panel(study, names, class_names):
    """How much the tie-break alone moves the tree: same rows, only the seed of the feature order."""
    n = len(study.trees)
    c1, c2, c3 = st.columns(3)
    c1.metric(
        "Distinct trees",
        f"{study.n_distinct}",
        help=f"Among the tree with the lowest-index tie-break and {n} random orders.",
    )
    c2.metric("Seeds that change it", f"{study.n_differ} of {n}")
    c3.metric(
        "Predictions moved (max)",
        f"{study.changed_share.max():.1%}" if n else "0%",
        help="The largest share of held-out rows whose prediction differs from the lowest-index tree.",
    )
    ties = (
        "exact ties between features at node"
        + ("s " if len(study.tied_nodes) > 1 else " ")
        + ", ".join(f"#{t}" for t in study.tied_nodes)
        if study.tied_nodes
        else "no exact tie between features at any of its nodes"
    )
    st.markdown(
        f"The tree fitted on the training rows with the lowest-index tie-break (this package's "
        f"default) has {ties}. scikit-learn breaks ties with a random order of the features drawn "
        f"from `random_state`: {plural(n, 'seed')} of that order on the very same rows give "
        f"{plural(study.n_distinct, 'distinct tree')}."
    )
    worst = study.most_different()
    if worst is None:
        st.info(
            "No seed changes the tree: the tie-break never matters on this data at this depth "
            "(ties do matter on counts, rounded values and one-hot columns)."
        )
        return
    st.caption(
        f"The lowest-index tree beside seed {study.seeds[worst]}, whose tree moves most "
        f"({study.changed_share[worst]:.1%} of held-out predictions, "
        f"{plural(int(study.changed_nodes[worst]), 'node')} differ):"
    )
    diff_views(
        study.reference,
        study.trees[worst],
        names,
        class_names,
        "inst_tie",
        ("lowest feature index", f"random order, seed {study.seeds[worst]}"),
    )
    report.add_note(
        f"The tie-break alone: {study.n_differ} of {n} seeds change the tree, "
        f"{study.n_distinct} distinct trees."
    )


def removal_panel(data_key, task, params, default_row, X_train, y_train, names, class_names):
    """Refit without one training row: the trees before and after, the changed nodes marked."""
    row = count_input(
        st,
        "Training row to remove",
        0,
        len(y_train) - 1,
        default_row,
        "inst_row",
        help="Opens on a row whose removal changes the tree, when one of the first 100 does.",
    )
    row = int(min(max(row, 0), len(y_train) - 1))
    before, after, changed_before, changed_after = removal(
        data_key, task, params, row, X_train, y_train
    )
    values = ", ".join(f"{n} {v:.4g}" for n, v in zip(names[:8], X_train[row], strict=False))
    st.caption(
        f"Row {row}: ({values}{', …' if len(names) > 8 else ''}), target {y_train[row]}. "
        + (
            f"Without it, {plural(len(changed_after), 'node')} of the new tree differ."
            if changed_after
            else "Without it the tree is the same."
        )
    )
    diff_views(
        before, after, names, class_names, "inst_removal", ("Before", "After removing the row")
    )


def _stored_board():
    """The scoreboard of the last run; after a Stop, built from the refits every learner finished."""
    stored = st.session_state.get(state.INST_BOARD)
    if callable(stored):  # a stopped run left the function that builds its partial board
        stored = stored()
        st.session_state[state.INST_BOARD] = stored
    return stored


def _run_board(X, y, task, settings, n_refits):
    def run(progress):
        latest = {}
        return stability_scoreboard(
            X,
            y,
            task,
            max_depth=settings.max_depth,
            n_refits=n_refits,
            perturbation=settings.kind,
            amount=settings.amount,
            test_share=0.3,
            random_state=0,
            n_estimators=BOARD_TREES,
            n_permutations=BOARD_PERMUTATIONS,
            progress=lambda done, total: progress(done, total, latest.get("build")),
            on_refit=lambda build: latest.__setitem__("build", build),
        )

    st.session_state[state.INST_BOARD_SETTINGS] = (settings, n_refits)
    run_with_progress(state.INST_BOARD, "Refitting five learners", run)


def _learner_sentence(table, settings):
    """What the cultivated forest's numbers mean beside CART's (compared like with like)."""
    rows = table.set_index("model")
    if "cultivated forest" not in rows.index or "CART" not in rows.index:
        return ""
    crf, cart = rows.loc["cultivated forest"], rows.loc["CART"]
    depth = f"depth {settings.max_depth}" if settings.max_depth is not None else "no depth limit"
    if not crf["applies"]:
        return f"The cultivated forest is left out: {crf['note']}."
    if pd.isna(crf["agreement"]) or pd.isna(cart["agreement"]):
        return ""
    steadier = crf["agreement"] > cart["agreement"]
    return (
        f"Like with like: the cultivated forest and CART have the same {depth} and are fitted on "
        f"the same samples. Two cultivated refits disagree on {1 - crf['agreement']:.1%} of the "
        f"held-out rows, two CART refits on {1 - cart['agreement']:.1%}: "
        + (
            "the forest's soft splits steady its predictions here."
            if steadier
            else "here the forest's predictions move more. Its soft splits average neighbouring "
            "thresholds, which steadies its probabilities but not which side of 0.5 a row near "
            "the boundary falls on; a gain in stability is not guaranteed on every dataset."
        )
    )


def scoreboard_panel(X, y, task, settings):
    """The page's conclusion: five learners on the same refits, and which remedy buys how much."""
    st.markdown(
        "CART, p-value selection (source 001), averaged threshold tests (source 000), a cultivated "
        "forest (source 002) and a random forest, refitted on the same changed samples and "
        f"judged on the same held-out rows; every tree-based learner gets the same depth "
        f"({settings.max_depth if settings.max_depth is not None else 'no limit'})."
    )
    a, b = st.columns([2, 1])
    n_refits = share.slider(a, "Refits of each learner", 5, 50, 10, 5, key="inst_board_refits")
    b.write("")
    if b.button("Run the scoreboard", type="primary", key="inst_board_run", width="stretch"):
        _run_board(X, y, task, settings, int(n_refits))
    board = _stored_board()
    if stopped_before_any_step(state.INST_BOARD):
        st.warning("Stopped before the first refit finished: nothing to show yet.")
    if board is None:
        st.caption(
            f"About a second per refit on the bundled data; p-value selection uses "
            f"{BOARD_PERMUTATIONS} permutations per p-value, the random forest {BOARD_TREES} trees."
        )
        return
    ran_with = st.session_state.get(state.INST_BOARD_SETTINGS)
    if ran_with != (settings, int(n_refits)):
        st.warning("The scoreboard below was run with other settings: run it again to update it.")
    if board.cancelled:
        st.warning(f"Stopped after {plural(board.n_refits, 'refit')} that every learner finished.")
    figures.chart(scoreboard_figure(board), key="inst_board", title="Stability scoreboard")
    for line in board.reading:
        st.markdown(f"- {line}")
    sentence = _learner_sentence(board.table, ran_with[0] if ran_with else settings)
    if sentence:
        st.info(sentence)
    st.caption(
        "Predictions that change between two refits = 1 − agreement: the share of held-out rows "
        "on which two refits of a learner predict differently (regression: further apart than 5% "
        f"of y's SD), averaged over all pairs; lower is steadier. {board.metric} is the held-out "
        "score, root-feature entropy 0 bits means the root never changes feature."
    )
    figures.table(
        board.table[
            [
                "model",
                "settings",
                "agreement",
                "score_mean",
                "root_entropy",
                "mean_distance",
                "note",
            ]
        ].rename(
            columns={
                "score_mean": f"held-out {board.metric}",
                "root_entropy": "root entropy (bits)",
                "mean_distance": "mean tree distance",
            }
        ),
        title="Stability scoreboard",
        hide_index=True,
        width="stretch",
        column_config={
            "agreement": st.column_config.NumberColumn(
                format="percent", help=glossary.explain("agreement")
            )
        },
    )


def snippet(settings, epsilon, max_trees, n_seeds, held_out=True, subsampled=False):
    """Python that reproduces the page's main numbers with the ``trees`` package."""
    rows = (
        "train, test = train_test_rows(data.task, y, 0.3, seed=0)\n"
        if held_out
        else "train = test = np.arange(len(y))  # fewer than 20 rows: nothing held out\n"
    )
    sample = "X, y = subsample(X, y, 20_000, 0)[:2]  # the page's sample\n" if subsampled else ""
    return (
        "import numpy as np\n"
        "from datasets import generate, load, preprocess, read_table, table_to_dataset\n"
        "from trees import (\n"
        "    mean_pairwise, near_tie_trees, perturbation_study, prediction_agreement,\n"
        "    split_confidence, tie_break_study,\n"
        ")\n"
        "from trees.studies import make_tree, subsample, train_test_rows\n\n"
        f"{dataset_code()}\n"
        "X, y = data.arrays()\n"
        + sample
        + rows
        + f"params = {{'max_depth': {settings.max_depth!r}}}\n"
        "tree = make_tree(data.task, params).fit(X[train], y[train])\n"
        "confidence = split_confidence(\n"
        f"    tree, X[train], y[train], n_bootstrap={settings.n_bootstrap}, random_state=0\n"
        ")\n"
        'print(confidence[["path", "split", "rows_to_flip", "boot_win_rate"]])\n'
        "study = perturbation_study(\n"
        f"    X[train], y[train], data.task, params=params, n_fits={settings.n_fits},\n"
        f"    perturbation={settings.kind!r}, amount={settings.amount!r}, X_test=X[test],\n"
        "    random_state=0,\n"
        ")\n"
        "agreement = mean_pairwise(prediction_agreement(study.trees, X[test]))\n"
        'print(f"two refits agree on {agreement:.1%} of the held-out rows")\n'
        "near = near_tie_trees(\n"
        f"    X[train], y[train], epsilon={epsilon!r}, max_trees={max_trees}, task=data.task,\n"
        "    X_test=X[test], y_test=y[test], max_depth=params['max_depth'],\n"
        "    criterion='gini' if data.task == 'classification' else 'squared_error',\n"
        ")\n"
        "print(near.summary())\n"
        f"ties = tie_break_study(X[train], y[train], data.task, params, n_seeds={n_seeds}, X_test=X[test])\n"
        'print("seeds that change the tree:", ties.n_differ, "distinct trees:", ties.n_distinct)\n'
    )
