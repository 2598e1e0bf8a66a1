"""Source 000's printed tables as data: Table 1's settings, Tables 2 and 3's results.

The CSV files in ``source000_tables/`` are transcriptions of Timár & Kovács
(source 000), checked cell by cell:

``table1.csv``
    Table 1: N, N_a, N_l, N_m, and per model ("tree", "forest") the selected
    hyperparameter as printed, alpha (rows per leaf) or beta (maximum depth,
    ``inf`` for unbounded), with its cross-validated AUC or R^2.
``table2.csv``
    Table 2: rho, rho_k and d exactly as printed ("0" is an exact zero, ".00"
    a share below 0.005), and the p_≠ mark.
``table3.csv``
    Table 3: the p_≠, p_≤ and p_< marks and the improvement over the worse
    test (empty where the paper leaves the cell empty). The paper's text does
    not show which of p_≤ and p_< an isolated mark sits in; the positions
    follow the authors' own table source, and every row's marks, read left
    to right, equal the paper's. Table 3's p_≠ equals Table 2's in all 80 cells.
``settings.csv``
    The estimator settings the paper used, per dataset and model (see
    :func:`paper_settings`).

Marks use one notation everywhere in the project (``trees.conditioning.MARKS``):
``*`` the two tests score differently (p_≠), ``+`` / ``-`` the bias-free
variant scores higher / lower than that test (p_≤, p_<), ``=`` no
significant difference. The paper prints an empty cell where this file has
``=``.

Table 1's alpha and the fraction behind it
------------------------------------------
The paper searched ``min_samples_leaf`` as a fraction on
:data:`LEAF_FRACTION_GRID` (``np.round(np.logspace(log10(0.005), log10(0.2),
15), 3)``) and printed ``alpha = floor(fraction * N * 0.8)``. scikit-learn
turns a fraction into ``ceil(fraction * n_samples)`` rows per leaf for each
fit, so the paper's trees had alpha + 1 rows per leaf in the folds (and more
when fitted on all N rows). :func:`fraction_candidates` recovers the grid
values that print a given alpha. It is unique for 38 of the 48 alpha cells
(dataset and model). Where two or three values print the same alpha (shuttle-6-vs-2-3
tree and forest, monk-2 tree and forest, abalone9-18 forest, o-ring tree,
wsn-ale forest, daily-demand tree, yacht-hydrodynamics tree, wankara tree),
they give the same leaf size
in every 5-fold training set (so the same cross-validation scores, and the
paper's selection could not tell them apart), and some of them differ on the
all-data fit behind rho. ``settings.csv`` keeps every candidate and says
which one it uses and why (Table 2's rho with scikit-learn 1.3.2, the
paper's version, when it tells them apart; otherwise the smallest).
"""

import math
from functools import lru_cache
from pathlib import Path

import numpy as np
import pandas as pd

from ._record import DataError

__all__ = [
    "LEAF_FRACTION_GRID",
    "MAX_DEPTH_GRID",
    "fraction_candidates",
    "paper_settings",
    "settings_table",
    "table1",
    "table2",
    "table3",
]

_FOLDER = Path(__file__).resolve().parent / "source000_tables"

# Section 4.3: min_samples_leaf from 0.5% to 20% of the rows, 15 values on a log scale ...
LEAF_FRACTION_GRID = tuple(
    float(v) for v in np.round(np.logspace(np.log10(0.005), np.log10(0.2), 15), 3)
)
# ... and the maximum depth from 2 to 15; Table 1 also prints beta = infinity (no limit).
MAX_DEPTH_GRID = (*range(2, 16), None)
_TRAINING_SHARE = 0.8  # 5-fold cross-validation trains on 80% of the rows


@lru_cache(maxsize=8)
def _read(name):
    return pd.read_csv(_FOLDER / name, dtype=str, keep_default_na=False)


def table1():
    """Table 1, one row per dataset and model (strings as printed; N columns as ints)."""
    table = _read("table1.csv").copy()
    for column in ("N", "N_a", "N_l"):
        table[column] = table[column].astype(int)
    return table


def table2():
    """Table 2, one row per dataset and model, every cell as printed."""
    return _read("table2.csv").copy()


def table3():
    """Table 3, one row per dataset and model, every cell as printed ("" where empty)."""
    return _read("table3.csv").copy()


def settings_table():
    """``settings.csv``: the settings used per dataset and model, with their provenance.

    Columns: ``dataset, task, model, min_samples_leaf`` (a fraction, or
    empty), ``max_depth`` (an int, ``None``, or empty), ``origin`` ("Table 1"
    or "searched here"), ``candidates`` (the grid fractions that print Table
    1's alpha, separated by ``|``), ``note`` and ``command`` (how to
    reproduce a searched row).
    """
    return _read("settings.csv").copy()


def fraction_candidates(alpha, n_rows):
    """The grid fractions whose printed alpha is ``alpha`` for ``n_rows`` rows.

    ``alpha = floor(fraction * n_rows * 0.8)`` (Table 1). The product is
    rounded to 9 decimals first so that binary rounding cannot move a value
    that is an exact integer across the floor.

    Returns
    -------
    list of float
    """
    return [
        f
        for f in LEAF_FRACTION_GRID
        if math.floor(round(f * n_rows * _TRAINING_SHARE, 9)) == int(alpha)
    ]


def _parse_depth(text):
    return None if text == "None" else int(text)


@lru_cache(maxsize=1)
def _settings_by_dataset():
    """``{(dataset, model): settings}`` of ``settings.csv``, read once (a protocol asks for a
    dataset's settings at each of its thousands of tasks)."""
    by_dataset = {}
    for row in settings_table().itertuples(index=False):
        if row.min_samples_leaf:
            settings = {"min_samples_leaf": float(row.min_samples_leaf)}
        else:
            settings = {"max_depth": _parse_depth(row.max_depth)}
        if row.model == "forest":
            settings["n_estimators"] = 100
        by_dataset[(row.dataset, row.model)] = settings
    return by_dataset


def paper_settings(name, model):
    """The estimator settings source 000 used for a dataset and model.

    Parameters
    ----------
    name : str
        One of the 40 datasets.
    model : {"tree", "forest"}

    Returns
    -------
    dict
        ``{"min_samples_leaf": fraction}`` or ``{"max_depth": int or None}``;
        forests also get the paper's ``n_estimators=100`` (scikit-learn's
        default). Rows for lymphography and stock-portfolio (absent from
        Table 1) were found by rerunning the paper's selection here. A new
        dict at each call (the caller may change it).
    """
    settings = _settings_by_dataset().get((name, model))
    if settings is None:
        raise DataError(
            f"No settings of source 000 for {name!r} and model {model!r}: "
            "use one of the 40 datasets and 'tree' or 'forest'."
        )
    return dict(settings)
