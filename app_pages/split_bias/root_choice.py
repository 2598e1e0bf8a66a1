"""The "On your data" tab's root-choice study: do the user's many-valued columns win the root by
bias? Each column's distinct values against how often it takes the root over refits, under the
Gini gain and under the p-value (source 001), with the settings, the run (progress and Stop), the
figure, the verdict in words and the numbers per column."""

import pandas as pd
import streamlit as st

from app_pages.split_bias import keys
from trees.selection_bias import ROOT_RULES, many_valued_shares
from ui import figures, report, share
from ui.cached import sample
from ui.experiments import latest_study, said_stopped
from ui.markdown import plain
from viz.split_bias import root_choice_figure

from .cache import root_choices, shared_study

__all__ = ["MAX_COLUMNS", "RULE_LABELS", "show_root_choice", "study_rows"]

# The work is bounded so that the slowest setting ends within about half a minute on a 2-core
# machine: a refit costs about (rows x columns) x 0.63 (its resample) x (permutations + 1) steps
# of the shuffles' best gains, more with many classes. At the limits (ROOT_CELLS rows x columns,
# 50 refits, 199 permutations), measured on the 2-core development machine while it was busy
# with other work: 0.3-0.5 s a refit (5,000 x 20, 50 x 2,000, or 1,666 x 30 with ten classes),
# 15-25 s in all. The defaults (30 refits, 99 permutations) take about a third of that.
ROOT_CELLS = 100_000
MAX_ROWS = 5_000
MIN_ROWS = 50
MAX_COLUMNS = ROOT_CELLS // MIN_ROWS  # 2,000; a wider table is not studied (it says why)
SIGNIFICANCE = 0.05  # the sign test's level below which the verdict says Yes or No
RULE_LABELS = ROOT_RULES  # the rules in words: "largest Gini gain", "smallest p-value"


def study_rows(n_features, n_classes):
    """The rows the study samples: at most ``ROOT_CELLS`` rows x columns (half with ten classes
    or more, a third with twenty), at most ``MAX_ROWS``, at least ``MIN_ROWS``."""
    budget = ROOT_CELLS // (max(1, n_features) * (1 + n_classes // 10))
    return int(max(MIN_ROWS, min(MAX_ROWS, budget)))


def show_root_choice(data, data_key):
    """The root-choice study of ``data`` (classification, complete rows: the tab checks)."""
    st.markdown("#### Do your many-valued columns win the root by bias?")
    names = [str(c) for c in data.X.columns]
    if len(names) > MAX_COLUMNS:
        st.info(
            f"{plain(data.name)} has {len(names):,} columns; this study takes at most "
            f"{MAX_COLUMNS:,}, so that it ends within half a minute. Choose fewer columns on the "
            "Data page to run it."
        )
        return
    X, y = data.arrays()
    rows = study_rows(len(names), int(data.y.nunique()))
    X, y, subsampled = sample(data_key, rows, 0, X, y)
    categorical, _ = data.categorical_features()
    st.markdown(
        f"How often does each column of **{plain(data.name)}** take the root when the tree is refitted "
        "on resamples of its rows? Once the root is the column with the **largest Gini gain** (CART's "
        "rule), once the column with the **smallest p-value**: how likely a column that says nothing "
        "about the class would split as well, judged against the same column's best splits with the "
        "labels shuffled, so that many values earn a column nothing (source 001, section 4.1). If the "
        "red dots climb towards the right and the green ones do not, columns win the root for their "
        "number of values, not for what they say about the class."
        + (f" (A random {rows:,} rows are used, so that the study ends within half a minute.)"
           if subsampled else "")
    )  # fmt: skip
    r1, r2 = st.columns(2)
    refits = share.number_input(r1, "Refits (resamples of the rows)", 10, 50, 30, key="root_refits")
    permutations = share.number_input(
        r2, "Label shuffles per p-value", 19, 199, 99, key="root_perm",
        help="Shuffles of the labels per column and refit. Their best Gini gains give the p-value: the "
        "tail of a Gamma distribution with their mean and variance (source 001's Γ correction). "
        "More are steadier, and slower.",
    )  # fmt: skip
    settings = (tuple(categorical), int(refits), int(permutations))
    outcome = _root_outcome(data_key, X, y, settings)
    if said_stopped(outcome, "refits", settings[1], "refit"):
        return
    figures.chart(
        root_choice_figure(outcome, names, RULE_LABELS),
        key="root_choice_figure",
        title="Which column takes the root, by its number of values",
    )
    verdict = root_verdict(outcome, names)
    st.markdown(verdict)
    report.add_note(verdict)
    notes = _root_notes(outcome)
    if notes:
        st.caption(notes)
    with st.expander("Each column's numbers"):
        figures.table(
            _root_table(outcome, names), title="Roots per column", hide_index=True,
            column_config={label: st.column_config.NumberColumn(format="percent")
                           for label in _ROOT_COLUMNS},
        )  # fmt: skip


_ROOT_COLUMNS = [f"root by the {label}" for label in RULE_LABELS.values()]


def _root_table(outcome, names):
    """One row per column: its distinct values and its share of roots under each rule."""
    frame = pd.DataFrame({"column": names, "distinct values": outcome["distinct"]})
    for rule, column in zip(RULE_LABELS, _ROOT_COLUMNS, strict=True):
        frame[column] = outcome["shares"][rule]
    return frame.sort_values(["distinct values", "column"], ascending=[False, True])


def _listed(names, limit=3):
    """Names as text, the first ``limit`` of them and how many more."""
    shown = ", ".join(f"**{plain(n)}**" for n in names[:limit])
    return shown + (f" and {len(names) - limit} more" if len(names) > limit else "")


def root_verdict(outcome, names):
    """The study's answer in words: do many-valued columns win more often under the Gini gain?"""
    summary = many_valued_shares(outcome)
    if summary is None:
        fewest, most = int(outcome["distinct"].min()), int(outcome["distinct"].max())
        if len(names) == 1:
            return ("With a single column there is no other column for it to win the root from: "
                    "this study compares columns with different numbers of values.")  # fmt: skip
        spread = (f"Every column has {most:,} distinct values" if fewest == most else
                  f"The columns have from {fewest:,} to {most:,} distinct values")  # fmt: skip
        return (
            f"{spread}: too alike for this study to show whether columns with many values win "
            "the root (it needs some column with at least twice as many values as another)."
        )
    gini, p_value, refits = summary["gini"], summary["p_value"], outcome["refits"]
    # A verdict only where the sign test says the difference is more than chance: 100% against
    # 97% over 30 refits once read "Yes", for a column that simply carried the class.
    shown = gini != p_value and summary["chance"] < SIGNIFICANCE
    under = f"under the Gini gain ({gini:.0%} of refits)"
    if shown and gini > p_value:
        head = f"**Yes: your many-valued columns take the root more often {under} than under the p-value ({p_value:.0%}).**"
    elif shown:
        head = f"**No: your many-valued columns take the root less often {under} than under the p-value ({p_value:.0%}).**"
    else:
        head = (f"**No sign of the bias here: your many-valued columns take the root about as often {under} "
                f"as under the p-value ({p_value:.0%}).**")  # fmt: skip
    many = [n for n, m in zip(names, summary["many"], strict=True) if m]
    text = (f"{head} Many-valued here means {summary['threshold']:,} distinct values or more: "
            f"{_listed(many)}.")  # fmt: skip
    if not shown and p_value >= 0.5:
        text += (" They win under the p-value too, which does not favour many values: on these "
                 "rows they carry the class's signal, whatever their number of values.")  # fmt: skip
    if gini != p_value:
        odds = f"{summary['chance']:.2g}"
        if shown:
            text += (f" Over {refits} refits that difference is larger than chance would make it "
                     f"(a sign test: a difference this large comes by chance with probability {odds}).")  # fmt: skip
            if gini > p_value:
                text += (" Some of their wins under the Gini gain come from their number of values, "
                         "not from what they say about the class.")  # fmt: skip
        else:
            text += (f" Over {refits} refits the difference could be chance (a sign test: "
                     f"probability {odds}); more refits would tell.")  # fmt: skip
    return text


def _root_notes(outcome):
    """What the verdict rests on: ties at the smallest p-value, refits without a root."""
    notes = []
    ties, refits = outcome["ties"]["p_value"], outcome["refits"]
    if ties:
        notes.append(
            f"In {ties} of {refits} refits several columns shared the smallest p-value (they split "
            "the rows alike), and the larger Gini gain chose among them."
        )
    empty = outcome["no_root"]["gini"]
    if empty:
        notes.append(
            f"{empty} of {refits} refits had no root: their rows held a single class, or no column varied."
        )
    return " ".join(notes)


def _root_outcome(data_key, X, y, settings):
    """The root-choice study of these rows and settings: finished once for the server
    (``cache.shared_study``), else kept in the session once run, else run now with progress and
    a Stop. Only the last settings' result is kept. None after a Stop before the first refit
    ended."""
    identity = (len(y), settings)
    return shared_study(
        "root choice",
        data_key,
        identity,
        lambda: latest_study(
            keys.ROOT_STUDY_PREFIX,
            (data_key, *identity),
            "Choosing the root on resamples, by the Gini gain and by the p-value",
            lambda progress: root_choices(X, y, *settings, progress),
        ),
    )
