"""The split-bias page's experiment and its tabs' part (``ui.fragments``).

* :func:`experiment`: the experiment's settings, its picture and the headline it writes into
  the page's container above the guide. Drawn by the page's run: the criteria tab and the
  paper's tab read the same settings, so a change of them reruns the page, which gives the
  tabs' part its new inputs.
* :func:`tabs_part`: the tab bar and the open tab, a part its own widgets rerun alone: opening
  a tab, the null distribution's settings and the studies of "On your data" redraw the open
  tab, not the key picture, the settings and the sidebar.
"""

from functools import partial

import streamlit as st

from ui import figures, fragments, glossary, presenter, report, share, state
from viz.split_bias import bias_heatmaps

from . import keys
from .cache import N_GRID, P1_GRID, VALUES, grid_when_ready, prefetch_neighbours
from .tabs import show_criteria_tab, show_data_tab, show_null_tab, show_paper_tab

__all__ = ["TABS", "experiment", "tabs_part"]

TABS = [
    "All six criteria",
    "The Gini gain's null distribution",
    "On your data",
    "The paper's full experiment",
]
# The grid's cell the headline reads: p1 = 0.5 (the last prior), N = 100 rows.
HEADLINE_CELL = (len(P1_GRID) - 1, N_GRID.index(100))


def experiment(headline):
    """The settings, the picture and the headline (in ``headline``); returns the settings
    (n1, n2) and the grid's result (None while it is simulated in the background)."""
    picture = st.container()
    with st.expander("Settings of the experiment"):
        c1, c2, c3 = st.columns(3)
        n1 = int(
            share.number_input(c1, "Values of X₁, the first feature", *VALUES, 10, key="bias_n1")
        )
        n2 = int(share.number_input(c2, "Values of X₂, the second", *VALUES, 2, key="bias_n2"))
        trials = int(
            share.number_input(
                c3,
                "Datasets per cell",
                100,
                20_000,
                1_000,
                100,
                key="bias_trials",
                help="More is smoother and slower.",
            )
        )
    with picture:  # with many datasets per cell: the simulation's progress and Stop, in its place
        result = grid_when_ready(n1, n2, trials, N_GRID, P1_GRID)
    prefetch_neighbours(n1, n2, trials, N_GRID, P1_GRID)  # the next click's grids
    sentence = headline.empty()
    if result is not None:
        _show_result(result, (n1, n2, trials), sentence, picture)
    return n1, n2, result


@fragments.fragment
def tabs_part(n1, n2, result):
    """The tab bar and the open tab (only it runs); ``n1``, ``n2`` and ``result`` are the
    experiment's (:func:`experiment`)."""
    criteria_tab, null_tab, data_tab, paper_tab = share.tabs(st, TABS, key=keys.TAB)
    share.show_open_tab(
        (criteria_tab, partial(show_criteria_tab, result)),
        (null_tab, show_null_tab),
        (data_tab, partial(show_data_tab, state.current(), state.dataset_key())),
        (paper_tab, partial(show_paper_tab, n1, n2)),
    )


def _show_result(result, settings, sentence, picture):
    """The headline's sentence, the two key heatmaps and the summary's lines of ``result``."""
    n1, n2, trials = settings
    gini = result["bias"]["gini gain"][HEADLINE_CELL]
    corrected = result["bias"]["Gamma-corrected Gini"][HEADLINE_CELL]
    presenter.headline(
        "split_bias",
        f"**Neither feature says anything about the class, yet the Gini gain picks the one with {n1} values "
        f"{10**gini:.1f} times as often as the one with {n2}; Gini's p-value (the Γ correction: how likely "
        f"a feature unrelated to the class gains as much) picks them {10**corrected:.2f} : 1.** "
        "(N = 100 rows, balanced classes.)",
        container=sentence,
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
    report.add_settings({"values of X₁": n1, "values of X₂": n2, "datasets per cell": trials})
    report.add_note(
        f"At N = 100 and p₁ = 0.5 the Gini gain's bias is {gini:.2f} (X₁ chosen {10**gini:.1f} times as often); "
        f"the Γ-corrected Gini's (Gini's p-value) is {corrected:.2f}."
    )
    report.add_snippet(
        "import numpy as np\n"
        "from trees import bias_experiment\n\n"
        f"result = bias_experiment(n1={n1}, n2={n2}, N=[100], p1=[0.5], trials={trials}, seed=0)\n"
        'for name, bias in result["bias"].items():\n'
        '    print(f"{name}: bias {bias[0, 0]:+.2f}, odds {10 ** bias[0, 0]:.2f} : 1")\n'
    )
