"""Split confidence: runner-up, rows to flip (checked by hand and by brute force), bootstrap wins."""

import itertools

import numpy as np
import pandas as pd
import pytest
from sklearn import tree as sk_tree

from trees import DecisionTreeClassifier, DecisionTreeRegressor, Tree, TreeGrower, from_sklearn
from trees.instability import split_confidence
from trees.studies._confidence import _flips, _node_data, _node_rows, rows_to_flip
from trees.studies._removal import NodeData, node_splits, removal_bounds, removal_scores
from trees.tree import CRITERIA_CLF, CRITERIA_REG

# Nine rows, six of class 0 (rows 0-5) and three of class 1 (rows 6-8).
# Feature a misplaces row 5 (a 0) among the 1s; feature b misplaces row 6 (a 1) among the 0s.
#   Parent Gini: 1 - (6/9)^2 - (3/9)^2 = 4/9.
#   a <= 6:   left 5 zeros (pure), right {5, 6, 7, 8} = 1 zero + 3 ones, Gini 6/16:
#             gain 4/9 - 4/9 * 6/16 = 5/18 = 0.2778.
#   b <= 7:   left {0..6} = 6 zeros + 1 one, Gini 12/49; right {7, 8} pure:
#             gain 4/9 - 7/9 * 12/49 = 16/63 = 0.2540.
# a wins. Without row 6 (8 rows, 6 zeros and 2 ones, parent Gini 3/8), b is pure on both
# sides (gain 3/8) while a keeps row 5 among the 1s (gain 3/8 - 3/8 * 4/9 = 5/24): b wins.
# Without any other row a still wins (row 5 makes a pure; a 1 or another 0 keeps both
# features one row off, and a's misplaced row sits in the smaller side).
A = [1, 2, 3, 4, 5, 8.5, 7, 8, 9]
B = [1, 2, 3, 4, 5, 6, 3.5, 8, 9]
Y = np.array([0, 0, 0, 0, 0, 0, 1, 1, 1])
X_HAND = np.column_stack([A, B]).astype(float)


def _root(table):
    return table.set_index("node").loc[0]


def test_removing_one_known_row_flips_the_root():
    model = DecisionTreeClassifier(max_depth=1).fit(X_HAND, Y)
    root = _root(split_confidence(model, X_HAND, Y, n_bootstrap=20))
    assert root["feature"] == 0 and root["runner_up_feature"] == 1
    assert root["score"] == pytest.approx(5 / 18)
    assert root["runner_up_score"] == pytest.approx(16 / 63)
    assert root["score_ratio"] == pytest.approx((16 / 63) / (5 / 18))
    assert root["rows_to_flip"] == 1 and root["flip_exact"]
    assert root["flip_rows"] == (6,)
    # The refit without that row indeed splits on b.
    keep = np.arange(9) != 6
    assert DecisionTreeClassifier(max_depth=1).fit(X_HAND[keep], Y[keep]).tree_.feature[0] == 1


def test_regression_on_the_same_rows():
    # With a 0/1 target the variance is half the Gini impurity: the same ranking and row.
    y = Y.astype(float)
    model = DecisionTreeRegressor(max_depth=1).fit(X_HAND, y)
    root = _root(split_confidence(model, X_HAND, y, n_bootstrap=10))
    assert root["score"] == pytest.approx(5 / 36)
    assert root["runner_up_score"] == pytest.approx(8 / 63)
    assert root["rows_to_flip"] == 1 and root["flip_rows"] == (6,)


def test_categorical_feature_on_the_same_rows():
    # a as categories: rows 0-4 have code 0, rows 5-8 code 1 (the same partition as a <= 6).
    X = X_HAND.copy()
    X[:, 0] = [0, 0, 0, 0, 0, 1, 1, 1, 1]
    model = DecisionTreeClassifier(max_depth=1, categorical_features=[0]).fit(X, Y)
    root = _root(split_confidence(model, X, Y, n_bootstrap=10))
    assert root["feature"] == 0 and root["split"] == "x0 = 0"
    assert root["score"] == pytest.approx(5 / 18)
    assert root["rows_to_flip"] == 1 and root["flip_rows"] == (6,)


def test_scikit_learn_trees_are_judged_alike():
    sk = sk_tree.DecisionTreeClassifier(max_depth=1, random_state=0).fit(X_HAND, Y)
    for model in (sk, from_sklearn(sk)):
        root = _root(split_confidence(model, X_HAND, Y, n_bootstrap=5))
        assert root["rows_to_flip"] == 1 and root["flip_rows"] == (6,)


def test_a_grower_and_its_hand_chosen_splits():
    grower = TreeGrower(X_HAND, Y, max_depth=1)
    grower.step()
    assert _root(split_confidence(grower, X_HAND, Y, n_bootstrap=0))["flip_rows"] == (6,)
    grower.undo()
    grower.expand(0, feature=1)  # b by hand: a already scores higher
    root = _root(split_confidence(grower, X_HAND, Y, n_bootstrap=0))
    assert root["rows_to_flip"] == 0 and root["score_ratio"] > 1


def test_a_dominant_feature_always_wins_its_bootstraps():
    rng = np.random.default_rng(0)
    X = np.column_stack([np.arange(60.0), rng.normal(size=60)])
    y = (X[:, 0] >= 30).astype(int)
    model = DecisionTreeClassifier(max_depth=1).fit(X, y)
    first = split_confidence(model, X, y, n_bootstrap=30, random_state=3)
    again = split_confidence(model, X, y, n_bootstrap=30, random_state=3)
    root = _root(first)
    assert root["boot_win_rate"] == 1.0 and root["boot_runs"] == 30
    assert root["boot_threshold_low"] <= 29.5 <= root["boot_threshold_high"]
    assert root["rows_to_flip"] is pd.NA or root["rows_to_flip"] > 2
    assert not root["flip_exact"] and root["flip_at_least"] == 3
    pd.testing.assert_frame_equal(first, again)


def test_twin_features_and_ties():
    X = np.column_stack([np.arange(8.0), np.arange(8.0)])
    y = (np.arange(8) >= 4).astype(int)
    # Twins: whatever rows go, b only ever ties a, and ties go to the lower index.
    root = _root(split_confidence(DecisionTreeClassifier().fit(X, y), X, y, n_bootstrap=0))
    assert root["score_ratio"] == 1.0 and root["rows_to_flip"] is pd.NA
    # A tree that took b (as scikit-learn may on ties): a already wins the tie, 0 rows.
    took_b = Tree(
        feature=[1, -1, -1],
        threshold=[3.5, np.nan, np.nan],
        left=[1, -1, -1],
        right=[2, -1, -1],
        value=[[0.5, 0.5], [1.0, 0.0], [0.0, 1.0]],
        n_samples=[8, 4, 4],
        weighted_n_samples=[8.0, 4.0, 4.0],
        impurity=[0.5, 0.0, 0.0],
        depth=[0, 1, 1],
        is_classifier=True,
        n_features=2,
        class_names=["0", "1"],
    )
    root = _root(split_confidence(took_b, X, y, n_bootstrap=0))
    assert root["rows_to_flip"] == 0 and root["flip_exact"] and root["runner_up_feature"] == 0


def test_a_leaf_gives_an_empty_table():
    X = np.column_stack([np.arange(8.0), np.arange(8.0)])
    leaf = DecisionTreeClassifier().fit(X, np.zeros(8, dtype=int))
    assert split_confidence(leaf, X, np.zeros(8, dtype=int)).empty


def test_bad_input_is_refused_with_a_message():
    model = DecisionTreeClassifier(max_depth=1).fit(X_HAND, Y)
    with pytest.raises(ValueError, match="columns"):
        split_confidence(model, X_HAND[:, :1], Y)
    with pytest.raises(ValueError, match="fitted tree"):
        split_confidence(object(), X_HAND, Y)
    chosen_by_p = DecisionTreeClassifier(max_depth=1, selection="p_value", n_permutations=9)
    with pytest.raises(ValueError, match="p-value"):
        split_confidence(chosen_by_p.fit(X_HAND, Y), X_HAND, Y)


def test_progress_and_stop():
    model = DecisionTreeClassifier(max_depth=2).fit(X_HAND, Y)
    seen = []
    table = split_confidence(
        model, X_HAND, Y, n_bootstrap=5, progress=lambda d, t: seen.append((d, t))
    )
    assert seen[-1][0] == seen[-1][1] == len(table) + 5
    stopped = split_confidence(model, X_HAND, Y, n_bootstrap=5, should_stop=lambda: True)
    assert len(stopped) == 1 and stopped.attrs["cancelled"]


# ------------------------------------------------------------------ brute force
def _brute_force(data, rows, winner, most=2):
    """Smallest removal (up to ``most`` rows) after which another feature wins, by refitting."""
    for k in range(most + 1):
        for removed in itertools.combinations(rows, k):
            keep = np.setdiff1d(rows, removed)
            if len(keep) < 2:
                continue
            splits = node_splits(data, keep)
            if _flips(splits.score[None], splits.feature, winner)[0][0]:
                return k
    return None


def _random_model(rng, trial):
    n = int(rng.integers(12, 26))
    X = np.column_stack(
        [
            rng.normal(size=n).round(1),
            rng.integers(0, 4, n).astype(float),
            rng.normal(size=n).round(1),
        ]
    )
    categorical = [1] if trial % 3 == 0 else None
    leaf = int(rng.integers(1, 3))
    if trial % 2:
        y = X[:, 0] + rng.normal(size=n)
        model = DecisionTreeRegressor(
            max_depth=2, min_samples_leaf=leaf, categorical_features=categorical
        )
    else:
        y = (X[:, 0] + rng.normal(size=n) > 0).astype(int) + (rng.random(n) < 0.2)
        criterion = ("gini", "entropy", "chi2", "misclassification")[trial // 2 % 4]
        model = DecisionTreeClassifier(
            max_depth=2,
            min_samples_leaf=leaf,
            criterion=criterion,
            categorical_features=categorical,
        )
    return model.fit(X, y), X, y


@pytest.mark.parametrize("seed", range(4))
def test_rows_to_flip_matches_a_brute_force_search(seed):
    rng = np.random.default_rng(seed)
    for trial in range(6):
        model, X, y = _random_model(rng, trial)
        tree, data = _node_data(model, X, y, None, None, None)
        rows_of = _node_rows(tree, data.X)
        for node in np.flatnonzero(tree.feature >= 0):
            rows, winner = rows_of[node], int(tree.feature[node])
            count, exact, at_least, witness = rows_to_flip(data, node_splits(data, rows), winner)
            expected = _brute_force(data, rows, winner)
            if expected is not None:
                assert (count, exact) == (expected, True)
            else:  # at least 3; the bound is exact when it meets that proof
                assert at_least == 3 and exact == (count == 3)
            if count:  # the witness really flips the node
                splits = node_splits(data, np.setdiff1d(rows, witness))
                assert _flips(splits.score[None], splits.feature, winner)[0][0]


@pytest.mark.parametrize("regression", [False, True])
@pytest.mark.parametrize("kind", ["membership", "equality"])
def test_removal_bounds_hold_for_every_removal(regression, kind):
    rng = np.random.default_rng(1)
    n = 24
    X = np.column_stack([rng.normal(size=n), rng.integers(0, 5, n).astype(float)])
    if regression:
        y = rng.normal(size=n)
        criterion = CRITERIA_REG["squared_error"]()
        stats, target = criterion.row_statistics(y - y.mean(), np.ones(n)), y - y.mean()
    else:
        target = rng.integers(0, 3, n)
        criterion = CRITERIA_CLF["gini"]()
        stats = criterion.row_statistics(target, np.ones(n), 3)
    data = NodeData(X, stats, target, criterion, 2, np.array([False, True]), kind)
    splits = node_splits(data, np.arange(n))
    for k in (1, 2):
        scores = removal_scores(data, splits, np.array(list(itertools.combinations(range(n), k))))
        hi, lo = removal_bounds(data, splits, k)
        assert np.all(hi >= scores.max(axis=0) - 1e-12)
        assert np.all(lo <= scores.min(axis=0) + 1e-12)
        if not regression:  # classification bounds are exact
            finite = np.isfinite(hi)
            np.testing.assert_allclose(hi[finite], scores.max(axis=0)[finite])


# ------------------------------------------------------------------ rows to move
def _partition_after(data, rows, removed, tree, node):
    """The feature and the rows sent left when the node is searched again without ``removed``:
    the best candidate, ties to the first (lower feature, then lower threshold)."""
    keep = np.setdiff1d(rows, removed)
    splits = node_splits(data, keep)
    best = splits.score.max()
    first = int(np.flatnonzero(splits.score >= best - 1e-10 * abs(best) - 1e-15)[0])
    left = splits.goes_left(data.X, keep, [first])[:, 0]
    return int(splits.feature[first]), frozenset(keep[left].tolist())


def _brute_force_moves(data, rows, tree, node, most=2):
    """Smallest removal (up to ``most`` rows) after which the node sends other rows each way."""
    values = data.X[rows, tree.feature[node]]
    codes = tree.categories[node]
    own_left = np.isin(values, codes) if codes is not None else values <= tree.threshold[node]
    for k in range(most + 1):
        for removed in itertools.combinations(rows, k):
            keep_mask = ~np.isin(rows, removed)
            if keep_mask.sum() < 2:
                continue
            feature, left = _partition_after(data, rows, removed, tree, node)
            own = frozenset(rows[keep_mask & own_left].tolist())
            right = frozenset(rows[keep_mask].tolist()) - left  # (a set may name either side)
            if feature != tree.feature[node] or own not in (left, right):
                return k
    return None


EIGHT_X = np.arange(8.0)[:, None]
EIGHT_Y = np.array([0, 0, 0, 1, 0, 1, 1, 1])


def test_a_cut_that_jumps_across_values_is_a_move_not_a_flip():
    """x = 0..7, y = 0,0,0,1,0,1,1,1: the root ties 2.5 with 4.5 and takes the lower; without
    the row at x = 3 the cut jumps to 4.5 (another set of rows on each side). One feature: no
    flip is possible."""
    model = DecisionTreeClassifier(max_depth=1).fit(EIGHT_X, EIGHT_Y)
    root = _root(split_confidence(model, EIGHT_X, EIGHT_Y, n_bootstrap=0))
    assert root["split"] == "x0 ≤ 2.5"
    assert pd.isna(root["rows_to_flip"])
    assert root["rows_to_move"] == 1 and root["move_exact"]
    assert root["move_rows"] == (3,)


def test_when_only_the_feature_changes_moves_and_flips_agree():
    model = DecisionTreeClassifier(max_depth=1).fit(X_HAND, Y)
    root = _root(split_confidence(model, X_HAND, Y, n_bootstrap=0))
    assert root["rows_to_flip"] == 1 and root["rows_to_move"] == 1
    assert root["move_rows"] == root["flip_rows"] == (6,)


def test_a_threshold_that_shifts_without_moving_rows_is_not_a_move():
    """A pure cut: removing the row beside it moves the midpoint threshold, not the partition."""
    y = np.array([0, 0, 0, 0, 1, 1, 1, 1])
    model = DecisionTreeClassifier(max_depth=1).fit(EIGHT_X, y)
    root = _root(split_confidence(model, EIGHT_X, y, n_bootstrap=0))
    assert pd.isna(root["rows_to_move"]) and root["move_at_least"] == 3


@pytest.mark.parametrize("seed", range(3))
def test_rows_to_move_matches_a_brute_force_search(seed):
    rng = np.random.default_rng(seed)
    for trial in range(6):
        model, X, y = _random_model(rng, trial)
        table = split_confidence(model, X, y, n_bootstrap=0).set_index("node")
        tree, data = _node_data(model, X, y, None, None, None)
        rows_of = _node_rows(tree, data.X)
        for node in np.flatnonzero(tree.feature >= 0):
            row = table.loc[node]
            expected = _brute_force_moves(data, rows_of[node], tree, node)
            if expected is not None:
                assert (row["rows_to_move"], row["move_exact"]) == (expected, True)
            else:
                assert row["move_at_least"] == 3
            if not pd.isna(row["rows_to_flip"]) and not pd.isna(row["rows_to_move"]):
                assert row["rows_to_move"] <= row["rows_to_flip"]


def test_a_runner_up_that_ties_is_never_firm_and_is_named():
    """Issue 34, item 3: on wine two splits read "firm" though their runner-up tied exactly."""
    from viz.stability import confidence_badges

    rng = np.random.default_rng(0)
    a = rng.normal(size=200)
    X = np.column_stack([a, a])  # two copies: every split on one ties on the other
    y = (a > 0.3).astype(int)
    model = DecisionTreeClassifier(max_depth=1).fit(X, y)
    table = split_confidence(model, X, y, n_bootstrap=0, feature_names=["a", "copy of a"])
    root = table.iloc[0]
    assert root["tied"] and root["score_ratio"] == pytest.approx(1.0)
    badge = confidence_badges(table)[0]
    assert badge["level"] == "fragile" and badge["short"] == "tie"
    assert "tied with copy of a" in badge["badge"] or "tied with a" in badge["badge"]
    untied = split_confidence(
        DecisionTreeClassifier(max_depth=1).fit(X[:, :1], y), X[:, :1], y, n_bootstrap=0
    )
    assert not untied["tied"].any()
