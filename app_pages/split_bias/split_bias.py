"""Split-variable selection bias and its correction (Dobra & Gehrke, source 001)."""

from functools import partial

import streamlit as st

from app_pages.split_bias import keys
from app_pages.split_bias.cache import (
    N_GRID,
    P1_GRID,
    VALUES,
    grid_when_ready,
    prefetch_neighbours,
)
from app_pages.split_bias.tabs import (
    show_criteria_tab,
    show_data_tab,
    show_null_tab,
    show_paper_tab,
)
from ui import figures, glossary, presenter, report, share, state
from viz.split_bias import (
    bias_heatmaps,
)

st.title("Split-variable selection bias")

headline, picture = st.container(), st.container()
with st.expander("Settings of the experiment"):
    c1, c2, c3 = st.columns(3)
    n1 = share.number_input(c1, "Values of X₁, the first feature", *VALUES, 10, key="bias_n1")
    n2 = share.number_input(c2, "Values of X₂, the second", *VALUES, 2, key="bias_n2")
    trials = share.number_input(
        c3,
        "Datasets per cell",
        100,
        20_000,
        1_000,
        100,
        key="bias_trials",
        help="More is smoother and slower.",
    )

with picture:  # with many datasets per cell: the simulation's progress and Stop, in its place
    result = grid_when_ready(int(n1), int(n2), int(trials), N_GRID, P1_GRID)
prefetch_neighbours(int(n1), int(n2), int(trials), N_GRID, P1_GRID)  # the next click's grids
if result is not None:
    cell = (len(P1_GRID) - 1, N_GRID.index(100))  # p1 = 0.5, N = 100
    gini, corrected = (
        result["bias"]["gini gain"][cell],
        result["bias"]["Gamma-corrected Gini"][cell],
    )
    with headline:
        presenter.headline(
            "split_bias",
            f"**Neither feature says anything about the class, yet the Gini gain picks the one with {int(n1)} values "
            f"{10**gini:.1f} times as often as the one with {int(n2)}; Gini's p-value (the Γ correction: how likely "
            f"a feature unrelated to the class gains as much) picks them {10**corrected:.2f} : 1.** "
            "(N = 100 rows, balanced classes.)",
        )
    with picture:
        figures.chart(
            bias_heatmaps(
                result, ["gini gain", "Gamma-corrected Gini"], columns=2, height_per_row=330
            ),
            key="bias_key_heatmaps",
            key_picture=True,
            title="Bias of the Gini gain and of its Γ-corrected p-value (Gini's p-value)",
        )
        st.caption(
            "Each cell: datasets of N rows where the class (p₁: the share of class 1) is independent of both "
            "features. Red: the criterion prefers X₁ (more values); blue: X₂; white: fair. A p-value is the "
            "chance that a feature unrelated to the class scores as well: the Γ-corrected Gini picks the "
            "feature whose Gini gain is least likely by chance. "
            + glossary.explain("bias (log-odds)")
        )
    report.add_settings(
        {"values of X₁": int(n1), "values of X₂": int(n2), "datasets per cell": int(trials)}
    )
    report.add_note(
        f"At N = 100 and p₁ = 0.5 the Gini gain's bias is {gini:.2f} (X₁ chosen {10**gini:.1f} times as often); "
        f"the Γ-corrected Gini's (Gini's p-value) is {corrected:.2f}."
    )
    report.add_snippet(
        "import numpy as np\n"
        "from trees import bias_experiment\n\n"
        f"result = bias_experiment(n1={int(n1)}, n2={int(n2)}, N=[100], p1=[0.5], trials={int(trials)}, seed=0)\n"
        'for name, bias in result["bias"].items():\n'
        '    print(f"{name}: bias {bias[0, 0]:+.2f}, odds {10 ** bias[0, 0]:.2f} : 1")\n'
    )

with headline:  # after the headline's sentence, when there is one
    presenter.guide("split_bias")

TABS = [
    "All six criteria",
    "The Gini gain's null distribution",
    "On your data",
    "The paper's full experiment",
]
criteria_tab, null_tab, data_tab, paper_tab = share.tabs(st, TABS, key=keys.TAB)


share.show_open_tab(  # only the open tab runs
    (criteria_tab, partial(show_criteria_tab, result)),
    (null_tab, show_null_tab),
    (data_tab, partial(show_data_tab, state.current(), state.dataset_key())),
    (paper_tab, partial(show_paper_tab, int(n1), int(n2))),
)
