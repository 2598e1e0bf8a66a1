"""The stability scoreboard, the page's conclusion and its one long run: it runs on request with
a progress bar and Stop (``ui.experiments.run_with_progress``); after a Stop, the refits that
every learner finished are shown.
"""

import pandas as pd
import streamlit as st

from app_pages.instability import keys
from trees.instability import stability_scoreboard
from ui import figures, glossary, report, share
from ui.experiments import run_with_progress, stopped_before_any_step
from ui.markdown import plain
from viz.curves import plural
from viz.stability import (
    scoreboard_figure,
)

__all__ = ["BOARD_PERMUTATIONS", "BOARD_TREES", "scoreboard_panel"]

# Permutations behind each p-value of the scoreboard's p-value learner: its fits are 85% of the
# scoreboard's time, and 19 permutations resolve p-values down to 0.05 (the paper's level).
BOARD_PERMUTATIONS = 19
BOARD_TREES = 50


def _stored_board():
    """The scoreboard of the last run; after a Stop, built from the refits every learner finished."""
    stored = st.session_state.get(keys.BOARD)
    if callable(stored):  # a stopped run left the function that builds its partial board
        stored = stored()
        st.session_state[keys.BOARD] = stored
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

    st.session_state[keys.BOARD_SETTINGS] = (settings, n_refits)
    run_with_progress(keys.BOARD, "Refitting seven learners", run)


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
    """The page's conclusion: seven learners on the same refits, and which remedy buys how much."""
    st.markdown(
        "CART, CART cut back by cost-complexity pruning (its strength chosen once by "
        "cross-validation on the training rows), p-value selection (source 001), averaged "
        "threshold tests (source 000), a cultivated forest (source 002), a random forest and "
        "extra trees (random thresholds, never on an observed value), "
        "refitted on the same changed samples and "
        f"judged on the same held-out rows; every tree-based learner gets the same depth "
        f"({settings.max_depth if settings.max_depth is not None else 'no limit'})."
    )
    a, b = st.columns([2, 1])
    n_refits = share.slider(a, "Refits of each learner", 5, 50, 10, 5, key="inst_board_refits")
    b.write("")
    if b.button("Run the scoreboard", type="primary", key="inst_board_run", width="stretch"):
        _run_board(X, y, task, settings, int(n_refits))
    board = _stored_board()
    if stopped_before_any_step(keys.BOARD):
        st.warning("Stopped before the first refit finished: nothing to show yet.")
    if board is None:
        st.caption(
            f"About a second per refit on the bundled data; p-value selection uses "
            f"{BOARD_PERMUTATIONS} permutations per p-value, the random forest and the extra "
            f"trees {BOARD_TREES} trees each."
        )
        return
    ran_with = st.session_state.get(keys.BOARD_SETTINGS)
    if ran_with != (settings, int(n_refits)):
        st.warning("The scoreboard below was run with other settings: run it again to update it.")
    if board.cancelled:
        st.warning(f"Stopped after {plural(board.n_refits, 'refit')} that every learner finished.")
    figures.chart(scoreboard_figure(board), key="inst_board_chart", title="Stability scoreboard")
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
    # The settings in words that wrap: a table's column cut them at 1024 px.
    settings_shown = board.table[["model", "settings"]]
    report.add_table("Each learner's settings", settings_shown)
    st.markdown(
        "**Each learner's settings**\n\n"
        + "\n".join(
            f"- *{plain(model)}*: {plain(words)}"
            for model, words in settings_shown.itertuples(index=False)
        )
    )
