"""The grow page's tree as a short text: a link rebuilds the same tree, node ids included."""

import numpy as np
import pytest

from app_pages.grow.history import MAX_SPLITS, encode, replay, replay_splits, splits_of
from datasets import generate, load, preprocess
from trees import TreeGrower


@pytest.fixture
def data():
    return generate("Lattice features").arrays()


def test_steps_are_written_as_row_counts_and_rebuild_the_tree(data):
    X, y = data
    grower = TreeGrower(X, y)
    for _ in range(4):
        grower.step()
    text = encode(grower)
    assert text.count("_") == 3 and "t" not in text  # four splits, all at a midpoint
    assert text.startswith("0.1.")  # the root on feature 1 (b) when all 200 rows train
    again = TreeGrower(X, y)
    assert replay(again, text) == (4, None)
    assert again.tree == grower.tree and again.split_order == grower.split_order


def test_typed_thresholds_and_category_sets_are_written_exactly():
    categorical, _ = preprocess(load("Categorical with missing values"), keep_categories=True)
    X, y = categorical.arrays()
    columns, names = categorical.categorical_features()
    grower = TreeGrower(X, y, categorical_features=columns, category_names=names)
    grower.step()
    numeric = next(j for j in range(X.shape[1]) if j not in columns)
    grower.expand(1, numeric, 0.123456789)
    text = encode(grower)
    assert "t0.123456789" in text
    assert any("c" in token for token in text.split("_")) or grower.tree.categories[0] is None
    again = TreeGrower(X, y, categorical_features=columns, category_names=names)
    assert replay(again, text) == (2, None)
    assert again.tree == grower.tree


def test_a_broken_link_keeps_the_splits_before_the_first_bad_token(data):
    X, y = data
    grower = TreeGrower(X, y)
    grower.step()
    good = encode(grower)
    for bad, reason in (
        ("7.0.3", "does not have yet"),
        ("0.5.3", "names feature 5"),
        ("1.0.999", "does not cut node 1"),
        ("1.0t99", "sends all"),
        ("1.0tnan", "not a split"),
        ("hello", "not a split"),
    ):
        again = TreeGrower(X, y)
        done, problem = replay(again, f"{good}_{bad}")
        assert done == 1 and reason in problem and "split 2 of 2" in problem
    too_many = "_".join(["0.0.1"] * (MAX_SPLITS + 1))
    assert replay(TreeGrower(X, y), too_many)[0] == 0


def test_splits_replay_on_other_training_rows_until_one_is_impossible(data):
    X, y = data
    grower = TreeGrower(X, y)
    grower.grow_all()
    splits = splits_of(grower)
    assert [s.node for s in splits] == grower.split_order
    same = TreeGrower(X, y, criterion="entropy")
    assert replay_splits(same, splits) == (len(splits), None)
    assert np.array_equal(same.tree.threshold, grower.tree.threshold, equal_nan=True)
    fewer = TreeGrower(X[:40], y[:40])
    done, problem = replay_splits(fewer, splits)
    assert done < len(splits) and problem.startswith(f"split {done + 1} (node")
