"""How much the tie-break alone moves a tree: the same rows, only the order of tied features."""

import numpy as np

from datasets import load, preprocess
from trees.instability import tie_break_study


def test_two_copies_of_a_feature_tie_and_the_seed_picks_one():
    rng = np.random.default_rng(0)
    x = rng.integers(0, 10, 120).astype(float)
    X = np.column_stack([x, x, rng.uniform(0, 1, 120)])  # features 0 and 1 are the same column
    y = (x > 4).astype(int)
    study = tie_break_study(X, y, "classification", {"max_depth": 1}, n_seeds=12)
    assert study.reference.feature[0] == 0  # the lowest index wins the tie
    assert study.tied_nodes == [0]
    roots = {int(t.feature[0]) for t in study.trees}
    assert roots == {0, 1}  # some seeds visit feature 1 first
    assert study.n_distinct == 2
    assert study.n_differ == sum(int(t.feature[0]) == 1 for t in study.trees)
    # The copies make the same partition: predictions never change, only the tree's question.
    assert (study.changed_share == 0).all()
    worst = study.most_different()
    assert worst is not None and study.trees[worst].feature[0] == 1
    assert study.changed_nodes[worst] >= 1


def test_without_ties_no_seed_changes_the_tree():
    data, _ = preprocess(load("Lattice features"))
    study = tie_break_study(*data.arrays(), "classification", {"max_depth": 3}, n_seeds=5)
    assert study.tied_nodes == [] and study.n_differ == 0 and study.n_distinct == 1
    assert study.most_different() is None


def test_regression_and_stop():
    rng = np.random.default_rng(2)
    x = rng.integers(0, 5, 80).astype(float)
    X = np.column_stack([x, x])
    y = x * 2.0 + rng.normal(0, 0.1, 80)
    calls = []
    study = tie_break_study(
        X,
        y,
        "regression",
        {"max_depth": 2},
        n_seeds=10,
        should_stop=lambda: len(calls) > 2,
        progress=lambda done, total: calls.append(done),
    )
    assert study.cancelled and len(study.trees) == 3
    assert study.tied_nodes  # both copies tie at every split
