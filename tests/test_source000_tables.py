"""Source 000's tables as data: the transcription, the recovered leaf fractions, the settings."""

import math

import numpy as np
import pytest

from datasets.bundled import PAPER_CLASSIFICATION, PAPER_REGRESSION, PAPER_SETTINGS
from datasets.source000 import (
    LEAF_FRACTION_GRID,
    fraction_candidates,
    paper_settings,
    settings_table,
    table1,
    table2,
    table3,
)
from trees.conditioning import MARKS

NAMES = list(PAPER_CLASSIFICATION) + list(PAPER_REGRESSION)


def test_the_grid_is_the_papers():
    assert tuple(np.round(np.logspace(np.log10(0.005), np.log10(0.2), 15), 3)) == LEAF_FRACTION_GRID
    assert LEAF_FRACTION_GRID[0] == 0.005 and LEAF_FRACTION_GRID[-1] == 0.2


def test_tables_cover_the_datasets_in_the_papers_order():
    assert sorted(set(table1()["dataset"])) == sorted(
        n for n in NAMES if n not in ("lymphography", "stock-portfolio")
    )
    for table in (table2(), table3()):
        assert list(dict.fromkeys(table["dataset"])) == NAMES
        assert len(table) == 80 and set(table["model"]) == {"tree", "forest"}


def test_marks_use_the_projects_single_notation():
    allowed = set(MARKS.values())
    assert set(table2()["p_neq"]) <= allowed
    three = table3()
    assert set(three["p_neq"]) | set(three["p_le"]) | set(three["p_lt"]) <= allowed


def test_table3_p_neq_equals_table2s_in_every_cell():
    two, three = table2(), table3()
    assert list(two["p_neq"]) == list(three["p_neq"])


def test_table3_improvement_is_printed_exactly_where_a_mark_is():
    three = table3()
    marked = (three["p_le"] != "=") | (three["p_lt"] != "=")
    assert list(marked) == list(three["improvement"] != "")


@pytest.mark.parametrize(
    "name, model, printed, expected",
    [
        ("o-ring", "tree", "0", "-4e-03"),
        ("bupa", "tree", ".12", "1e-04"),
        ("page-blocks-1-3-vs-4", "tree", ".25", "1e-04"),
        ("laser", "forest", ".38", "-2e-04"),
        ("cpu-performance", "tree", ".23", "2e-03"),
    ],
)
def test_table2_spot_checks(name, model, printed, expected):
    two = table2()
    row = two[(two["dataset"] == name) & (two["model"] == model)].iloc[0]
    assert (row["rho"], row["d"]) == (printed, expected)


def test_fraction_candidates_print_the_alpha_back():
    for n in (23, 106, 307, 1650):
        for alpha in range(1, 20):
            for f in fraction_candidates(alpha, n):
                assert math.floor(round(f * n * 0.8, 9)) == alpha


def test_every_table1_alpha_is_recovered_and_ambiguous_rows_say_so():
    one = table1()
    settings = settings_table().set_index(["dataset", "model"])
    ambiguous = 0
    for _, row in one[one["parameter"] == "alpha"].iterrows():
        candidates = fraction_candidates(int(row["printed"]), row["N"])
        saved = settings.loc[(row["dataset"], row["model"])]
        assert candidates, row["dataset"]
        assert float(saved["min_samples_leaf"]) in candidates
        assert saved["candidates"] == "|".join(f"{f:g}" for f in candidates)
        if len(candidates) > 1:
            ambiguous += 1
            assert "same" in saved["note"] and saved["note"]
            # The paper's selection could not tell them apart: same leaf size in every fold.
            sizes = {row["N"] - math.ceil(row["N"] / 5), row["N"] - row["N"] // 5}
            leaves = {tuple(math.ceil(f * n) for n in sorted(sizes)) for f in candidates}
            assert len(leaves) == 1
    assert ambiguous == 10


def test_known_fractions_and_the_rows_rho_decides():
    assert paper_settings("page-blocks-1-3-vs-4", "tree") == {"min_samples_leaf": 0.041}
    assert paper_settings("haberman", "tree") == {"min_samples_leaf": 0.091}
    assert paper_settings("wankara", "tree") == {"min_samples_leaf": 0.011}
    assert paper_settings("wsn-ale", "forest") == {"min_samples_leaf": 0.024, "n_estimators": 100}
    assert paper_settings("laser", "forest") == {"max_depth": None, "n_estimators": 100}


def test_depth_rows_and_the_searched_rows():
    table = settings_table()
    depth = table[table["max_depth"] != ""]
    assert set(depth["origin"]) <= {"Table 1", "searched here"}
    searched = table[table["origin"] == "searched here"]
    assert set(searched["dataset"]) <= {"lymphography", "stock-portfolio"}
    assert all("paper-settings --search" in c for c in searched["command"])


def test_paper_settings_feed_the_apps_table():
    assert PAPER_SETTINGS["o-ring"] == {
        "tree": {"min_samples_leaf": 0.07},
        "forest": {"max_depth": 2},
    }
    with pytest.raises(Exception, match="No settings"):
        paper_settings("iris", "tree")
