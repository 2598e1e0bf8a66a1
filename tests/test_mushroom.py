"""The bundled Secondary Mushroom dataset of source 004 (sections 2.1 and 2.2)."""

from pathlib import Path

import pandas as pd
import pytest

from datasets import GROUPS, catalog, load
from datasets.mushroom import (
    MUSHROOM_FILE,
    MUSHROOM_NOMINAL,
    MUSHROOM_NUMERIC,
    MUSHROOM_SHA256,
    file_sha256,
)

DATA_DIR = Path(__file__).resolve().parents[1] / "datasets" / "data"

# Source 004, Table 2.1: the share of missing values of each feature that has some.
TABLE_2_1_MISSING = {
    "cap-surface": 0.23,
    "gill-attachment": 0.16,
    "gill-spacing": 0.41,
    "stem-root": 0.84,
    "stem-surface": 0.62,
    "veil-type": 0.95,
    "veil-color": 0.88,
    "ring-type": 0.04,
    "spore-print-color": 0.90,
}


@pytest.fixture(scope="module")
def mushroom():
    return load("secondary-mushroom")


def test_the_bundled_file_is_the_published_one():
    # The sha256 of the uncompressed CSV given with the shared copy of the data.
    assert file_sha256() == MUSHROOM_SHA256


def test_the_attribution_and_licence_travel_with_the_file():
    assert (DATA_DIR / MUSHROOM_FILE).is_file()
    readme = (DATA_DIR / "README.md").read_text()
    for needed in ("Wagner", "Heider", "Hattab", "10.24432/C5FP5Q", "CC BY 4.0", MUSHROOM_SHA256):
        assert needed in readme
    manifest = (DATA_DIR.parent.parent / "MANIFEST.in").read_text()
    assert "datasets/data/*.csv.gz" in manifest


def test_it_is_in_the_catalogue_under_source_004(mushroom):
    group = next(g for g, names in GROUPS.items() if "secondary-mushroom" in names)
    assert "source 004" in group
    assert mushroom.group == group
    row = catalog().set_index("name").loc["secondary-mushroom"]
    assert (row["rows"], row["features"], row["task"]) == (61_069, 20, "classification")


def test_shape_kinds_and_target(mushroom):
    assert mushroom.X.shape == (61_069, 20)
    assert mushroom.task == "classification"
    assert set(mushroom.y.unique()) == {"p", "e"}
    assert mushroom.y.value_counts().to_dict() == {"p": 33_888, "e": 27_181}
    for name in MUSHROOM_NUMERIC:
        assert mushroom.X[name].dtype == "float64"
        assert mushroom.X[name].notna().all()
    assert len(MUSHROOM_NOMINAL) == 17
    for name in MUSHROOM_NOMINAL:
        assert isinstance(mushroom.X[name].dtype, pd.CategoricalDtype)
    assert mushroom.feature_kinds == {
        name: "numeric" if name in MUSHROOM_NUMERIC else "categorical" for name in mushroom.X
    }


def test_missing_values_are_missing_as_in_table_2_1(mushroom):
    shares = mushroom.X.isna().mean()
    for name, share in shares.items():
        assert round(share, 2) == TABLE_2_1_MISSING.get(name, 0.0), name
    # Only empty fields are missing: no category code is taken for a missing-value marker.
    assert "" not in mushroom.X["cap-surface"].cat.categories
    assert list(mushroom.X["veil-type"].cat.categories) == ["u"]


def test_load_returns_independent_copies(mushroom):
    mushroom.X.loc[0, "cap-diameter"] = -1.0
    assert load("secondary-mushroom").X.loc[0, "cap-diameter"] == 15.26
