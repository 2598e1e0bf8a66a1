"""The stability scoreboard: the same refits for every learner, measures where they apply."""

import numpy as np
import pytest

from datasets import generate, load, preprocess
from trees.instability import stability_scoreboard


def _board(X, y, task, **kwargs):
    kwargs.setdefault("n_refits", 3)
    return stability_scoreboard(X, y, task, max_depth=3, n_permutations=9, **kwargs)


def test_two_classes_run_every_learner_on_the_same_refits():
    X, y = generate("Two Gaussian classes", n_samples=160, seed=1).arrays()
    board = _board(X, y, "classification")
    table = board.table.set_index("model")
    assert list(table.index) == [
        "CART",
        "pruned CART",
        "p-value selection",
        "averaged thresholds",
        "cultivated forest",
        "random forest",
        "extra trees",
    ]
    assert table["applies"].all() and (table["n_refits"] == 3).all()
    assert table["agreement"].between(0, 1).all() and board.metric == "AUC"
    # Averaged thresholds grow CART's trees on the same samples: the same structure.
    for column in ("root_entropy", "mean_distance", "mean_partition"):
        assert table.loc["averaged thresholds", column] == table.loc["CART", column]
    # Forests have no single root: n/a, with the reason in the note.
    assert np.isnan(table.loc["random forest", "root_entropy"])
    assert "forest has no single root" in table.loc["cultivated forest", "note"]
    assert "max_depth=3" in table.loc["random forest", "settings"]
    assert board.reading[0].startswith("Over 3 refits (bootstrap samples)")
    assert any(line.startswith("Most stable predictions") for line in board.reading)
    assert set(board.agreement) == set(table.index)


def test_data_a_learner_does_not_fit_is_said_so():
    iris, _ = preprocess(load("iris"))
    board = _board(*iris.arrays(), "classification", n_refits=2)
    row = board.table.set_index("model").loc["cultivated forest"]
    assert not row["applies"] and "two classes" in row["note"]
    assert any("cultivated forest: not shown" in line for line in board.reading)
    X, y = generate("Smooth 1-D regression", n_samples=120).arrays()
    board = _board(X, y, "regression", n_refits=2)
    table = board.table.set_index("model")
    assert not table.loc["p-value selection", "applies"] and board.metric == "R²"
    assert table.loc["CART", "n_refits"] == 2 and table.loc["CART", "root_entropy"] == 0.0


def test_stop_keeps_the_refits_every_learner_finished():
    X, y = generate("Two Gaussian classes", n_samples=120, seed=3).arrays()
    calls = []

    def stop():
        calls.append(1)
        return len(calls) >= 9  # during the second refit (7 learners each)

    board = _board(X, y, "classification", should_stop=stop)
    assert board.cancelled and board.n_refits == 1
    assert (board.table["n_refits"] == 1).all()


def test_other_perturbations():
    X, y = generate("Two Gaussian classes", n_samples=120, seed=4).arrays()
    for kind, amount in (("remove", 5), ("jitter", 0.05)):
        board = _board(X, y, "classification", perturbation=kind, amount=amount, n_refits=2)
        assert board.perturbation == kind and board.n_refits == 2
    with pytest.raises(ValueError, match="perturbation"):
        _board(X, y, "classification", perturbation="shuffle")


def test_on_refit_hands_over_the_board_of_the_refits_finished_so_far():
    """What the page keeps while the scoreboard runs, so a Stop still shows the finished refits."""
    X, y = generate("Two Gaussian classes", n_samples=120, seed=3).arrays()
    builds = []
    full = _board(X, y, "classification", on_refit=builds.append)
    assert len(builds) == 3 and not full.cancelled
    partial = builds[1]()  # the board after two refits, built only when asked for
    assert partial.cancelled and partial.n_refits == 2
    assert (partial.table["n_refits"] == 2).all()
    # The first two refits are the same samples as the full run's: its first two agree.
    first_two = full.agreement["CART"][:2, :2]
    assert np.array_equal(partial.agreement["CART"], first_two)


def test_pruned_cart_keeps_one_strength_chosen_on_the_training_rows():
    """The classic remedy: CART cut back by cost-complexity pruning, one alpha for every refit."""
    from trees.instability import pruning_strength

    X, y = generate("Two Gaussian classes", n_samples=200, seed=5).arrays()
    alpha = pruning_strength(X, y, "classification", max_depth=None)
    assert alpha > 0  # noisy classes: the full tree is worth pruning
    board = _board(X, y, "classification", n_refits=3)
    row = board.table.set_index("model").loc["pruned CART"]
    assert "pruned: ccp_alpha=" in row["settings"]
    assert any("pruned CART's" in line for line in board.reading)  # its root feature too
    assert row["applies"] and row["n_refits"] == 3 and not np.isnan(row["root_entropy"])
    assert any(line.startswith("pruned CART") for line in board.reading)
    tiny = pruning_strength(X[:3], np.array([0, 1, 0]), "classification")
    assert tiny == 0.0  # a class of one row: no cross-validation, no pruning
