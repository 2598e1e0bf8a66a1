"""How firmly each node of a fitted tree holds its split (source 002, section 2).

Source 002 traces a tree's instability to the all-in decision at every node:
when another variable purifies the node almost as well (*variable
uncertainty*) or the score is flat around the cut (*split-point
uncertainty*), a few changed rows change the decision, and everything below
it. :func:`split_confidence` measures both at every internal node:

* the **runner-up**: the best split on another feature, and the ratio of its
  score to the winner's (1 is a tie);
* **rows to flip**: the fewest of the node's training rows whose removal lets
  a split on another feature win the node (see :func:`rows_to_flip`);
* **rows to move**: the fewest whose removal changes the node's partition at
  all: another feature, or the same feature cutting elsewhere among the rows
  (a threshold that jumps across observed values; :func:`rows_to_move`);
* the **bootstrap win rate** of the chosen feature at the node, and the
  spread of its threshold when it wins (see :func:`bootstrap_node_wins`).

"At the node" means in the node's region: the training rows that reach it
through the splits above, which are kept as they are. The measures judge the
local decision, given the path to it; how the path itself moves is what the
refit comparisons of :mod:`trees.studies._agreement` show.
"""

import math

import numpy as np
import pandas as pd

from ..tree import CRITERIA_CLF, CRITERIA_REG, Tree, TreeGrower, from_sklearn
from ._node_bootstrap import bootstrap_node_wins
from ._paths import candidate_text, category_labels, feature_names_of, node_paths, split_text
from ._progress import report
from ._removal import NodeData, node_splits, removal_bounds, removal_scores

__all__ = ["rows_to_flip", "rows_to_move", "split_confidence"]

# scikit-learn criteria that rank a node's splits as one of ours does.
_SKLEARN_CRITERIA = {
    "gini": "gini",
    "entropy": "entropy",
    "log_loss": "entropy",
    "squared_error": "squared_error",
    "friedman_mse": "squared_error",  # w_L w_R (mean_L - mean_R)^2 / w: w times our gain
}
# Scores this close (relative) count as a tie, resolved by the lower feature index as the builder
# does with its default tie_break="first" (a tree grown with "random" is judged by the same rule).
_RELATIVE_TIE = 1e-10
# Rows of the node whose removal the exact pair search may score, times candidates.
MAX_PAIR_WORK = 50_000_000


# ---------------------------------------------------------------- the model
def _grower_settings(grower):
    return {
        "tree": grower.tree,
        "criterion": grower.params.criterion,
        "min_samples_leaf": grower.rules.min_samples_leaf,
        "categorical": grower.categorical,
        "categorical_split": grower.params.categorical_split,
        "classes": grower.classes_ if grower.is_classifier else None,
        "selection": grower.params.selection,
    }


def _estimator_settings(model, tree, sklearn):
    criterion = getattr(model, "criterion", None)
    if sklearn:  # scikit-learn's names
        if criterion not in _SKLEARN_CRITERIA:
            raise ValueError(
                f"The scikit-learn criterion {criterion!r} has no counterpart here; "
                f"use one of {sorted(_SKLEARN_CRITERIA)}."
            )
        criterion = _SKLEARN_CRITERIA[criterion]
    return {
        "tree": tree,
        "criterion": criterion,
        "min_samples_leaf": getattr(model, "min_samples_leaf", 1),
        "categorical": getattr(model, "categorical_features", None),
        "categorical_split": getattr(model, "categorical_split", "membership"),
        "classes": getattr(model, "classes_", None),
        "selection": getattr(model, "selection", "gain"),
    }


def _settings_of(model):
    """The tree of ``model`` and the settings it was grown with (what is known of them)."""
    if isinstance(model, TreeGrower):
        return _grower_settings(model)
    if isinstance(model, Tree):
        return {"tree": model}
    fitted = getattr(model, "tree_", None)
    if isinstance(fitted, Tree):
        return _estimator_settings(model, fitted, sklearn=False)
    if fitted is not None and hasattr(fitted, "children_left"):
        return _estimator_settings(model, from_sklearn(model), sklearn=True)
    raise ValueError(
        "model must be a fitted tree: a trees DecisionTreeClassifier/Regressor or TreeGrower, "
        "a fitted scikit-learn decision tree, or a trees.Tree (for example from from_sklearn)."
    )


def _criterion(tree, name):
    name = name or ("gini" if tree.is_classifier else "squared_error")
    table = CRITERIA_CLF if tree.is_classifier else CRITERIA_REG
    if name not in table:
        kind = "classification" if tree.is_classifier else "regression"
        raise ValueError(f"criterion must be one of {sorted(table)} for {kind}, got {name!r}.")
    return table[name]()


def _categorical(tree, given, n_features):
    """Mask of the categorical features: ``given``, plus those the tree splits by set."""
    mask = np.zeros(n_features, dtype=bool)
    if given is not None:
        given = np.asarray(given)
        if given.dtype == bool:
            mask[:] = given
        elif given.dtype.kind in "iu":
            mask[given] = True
        else:
            names = feature_names_of(tree)
            unknown = sorted(set(given.tolist()) - set(names))
            if unknown:
                raise ValueError(f"Unknown categorical features {unknown}; features are {names}.")
            mask[[names.index(g) for g in given.tolist()]] = True
    mask[[int(tree.feature[n]) for n, c in enumerate(tree.categories) if c is not None]] = True
    return mask


def _min_samples_leaf(value, n_samples):
    if isinstance(value, float):
        return max(1, math.ceil(value * n_samples))
    return max(1, int(value))


def _encode_target(tree, classes, y):
    """Class index of every row (classification) or the centred target (regression)."""
    if not tree.is_classifier:
        y = np.asarray(y, dtype=float)
        return y - y.mean(), None
    labels = np.asarray([str(c) for c in (classes if classes is not None else tree.class_names)])
    index = {label: i for i, label in enumerate(labels)}
    unknown = sorted({str(v) for v in y} - set(index))
    if unknown:
        raise ValueError(f"y holds classes the tree does not know: {unknown[:5]}.")
    return np.array([index[str(v)] for v in y]), len(labels)


def _check_data(tree, X, y):
    X = np.asarray(X, dtype=float)
    if X.ndim != 2 or X.shape[1] != tree.n_features:
        raise ValueError(
            f"X must have {tree.n_features} columns (the tree's), got shape {X.shape}."
        )
    if len(y) != X.shape[0]:
        raise ValueError(f"X has {X.shape[0]} rows but y has {len(y)}.")
    return X


def _node_data(model, X, y, criterion, min_samples_leaf, categorical_features):
    """The tree of ``model`` and the data as the removal machinery sees it; overrides win."""
    known = _settings_of(model)
    tree = known["tree"]
    if known.get("selection", "gain") != "gain":
        raise ValueError(
            "split_confidence judges the score rule (selection='gain'); this tree chose its "
            "splits by p-value. Refit it with selection='gain' to measure its split confidence."
        )
    X = _check_data(tree, X, y)
    crit = _criterion(tree, criterion or known.get("criterion"))
    target, n_classes = _encode_target(tree, known.get("classes"), y)
    weight = np.ones(len(target))
    if tree.is_classifier:
        stats = crit.row_statistics(target, weight, n_classes)
    else:
        stats = crit.row_statistics(target, weight)
    given = categorical_features if categorical_features is not None else known.get("categorical")
    leaf = min_samples_leaf if min_samples_leaf is not None else known.get("min_samples_leaf", 1)
    data = NodeData(
        X=X,
        stats=stats,
        y=target,
        criterion=crit,
        min_samples_leaf=_min_samples_leaf(leaf, X.shape[0]),
        categorical=_categorical(tree, given, X.shape[1]),
        categorical_split=known.get("categorical_split", "membership"),
    )
    return tree, data


def _node_rows(tree, X):
    """Training rows reaching every node (the ``<=`` test, as the tree was grown)."""
    path = tree.decision_path(X).tocsc()
    return {
        node: path.indices[path.indptr[node] : path.indptr[node + 1]]
        for node in range(tree.node_count)
    }


# ------------------------------------------------------------- rows to flip
def _tolerance(values):
    return _RELATIVE_TIE * np.where(np.isfinite(values), np.abs(values), 0.0) + 1e-15


def _flips(scores, features, winner):
    """Which removal sets let another feature win, and the winner's margin over the best rival.

    Another feature wins when its best score beats the winner feature's best,
    or ties it with a lower feature index (the builder's tie rule).
    """
    order = np.argsort(features, kind="stable")
    groups, starts = np.unique(features[order], return_index=True)
    best = np.maximum.reduceat(scores[:, order], starts, axis=1)
    own = (
        best[:, groups == winner].max(axis=1)
        if np.any(groups == winner)
        else np.full(len(best), -np.inf)
    )
    rivals, rival_features = best[:, groups != winner], groups[groups != winner]
    tol = _tolerance(own)[:, None]
    beats = np.isfinite(rivals) & (
        (rivals > own[:, None] + tol) | ((rival_features < winner) & (rivals >= own[:, None] - tol))
    )
    with np.errstate(invalid="ignore"):  # -inf - -inf: neither side can split
        margin = own - (rivals.max(axis=1) if rivals.shape[1] else -np.inf)
    return beats.any(axis=1), margin


def _live(data, splits, winner, k, cands=None):
    """Candidates that may still matter after removing ``k`` rows: (cands kept, any rival kept)."""
    cands = np.arange(splits.feature.shape[0]) if cands is None else cands
    hi, lo = removal_bounds(data, splits, k, cands)
    own = splits.feature[cands] == winner
    floor = lo[own].max() if own.any() else -np.inf
    keep = hi >= floor - _tolerance(floor)
    return cands[keep], bool(np.any(keep & ~own))


def _single_flips(data, splits, winner):
    """Rows whose removal alone flips the node, most decisive first."""
    cands, any_rival = _live(data, splits, winner, 1)
    if not any_rival:
        return np.array([], dtype=np.intp)
    flips, margin = _flips(
        removal_scores(data, splits, splits.rows[:, None], cands), splits.feature[cands], winner
    )
    found = np.flatnonzero(flips)
    return splits.rows[found[np.argsort(margin[found], kind="stable")]]


def _pair_rows(data, splits, own, cands):
    """Rows that may belong to a flipping (or moving) pair, pruned by the bounds of removing one
    more: ``own`` marks the candidates of ``cands`` that keep the decision (the winner's
    feature for a flip, the node's own cut for a move)."""
    alive = np.zeros(splits.n, dtype=bool)
    step = max(1, 2_000_000 // max(1, cands.shape[0] * data.stats.shape[0]))
    for start in range(0, splits.n, step):
        base = splits.rows[start : start + step]
        hi, lo = removal_bounds(data, splits, 1, cands, base_rows=base)
        floor = lo[:, own].max(axis=1) if own.any() else np.full(len(base), -np.inf)
        rival_hi = hi[:, ~own].max(axis=1) if (~own).any() else np.full(len(base), -np.inf)
        alive[start : start + step] = rival_hi >= floor - _tolerance(floor)
    return splits.rows[alive]


def _pair_flip(data, splits, winner, max_work):
    """A flipping pair, ``()`` when none exists, or None when the search would exceed ``max_work``."""
    cands, any_rival = _live(data, splits, winner, 2)
    if not any_rival:
        return ()
    rows = _pair_rows(data, splits, splits.feature[cands] == winner, cands)
    if rows.shape[0] * (rows.shape[0] - 1) // 2 * cands.shape[0] > max_work:
        return None
    return _first_pair(
        rows,
        cands,
        lambda pairs: _flips(
            removal_scores(data, splits, pairs, cands), splits.feature[cands], winner
        ),
    )


def _first_pair(rows, cands, judge):
    """The first chunk's most decisive pair of ``rows`` that changes the node, or ``()``.

    ``judge`` maps removal sets (pairs) to ``(changes, margin)`` (:func:`_flips`,
    :func:`_moves`); pairs are judged in chunks that keep the score arrays bounded.
    """
    first, second = np.triu_indices(rows.shape[0], k=1)
    pairs = np.column_stack([rows[first], rows[second]])
    step = max(1, 10_000_000 // max(1, cands.shape[0]))
    for start in range(0, len(pairs), step):
        chunk = pairs[start : start + step]
        changes, margin = judge(chunk)
        if changes.any():
            found = np.flatnonzero(changes)
            return tuple(int(r) for r in chunk[found[np.argmin(margin[found])]])
    return ()


def _removal_order(data, splits, winner, rival):
    """The node's rows ranked by how much removing each alone narrows the winner's lead over ``rival``."""
    cands = np.flatnonzero(np.isin(splits.feature, [winner, rival]))
    scores = removal_scores(data, splits, splits.rows[:, None], cands)
    own = splits.feature[cands] == winner
    with np.errstate(invalid="ignore"):
        margin = scores[:, own].max(axis=1) - scores[:, ~own].max(axis=1)
    return splits.rows[np.argsort(margin, kind="stable")], cands


def _prefix_bound(data, splits, winner, rival, start):
    """Smallest prefix of the ranked rows found to flip the node (exponential, then binary search)."""
    order, cands = _removal_order(data, splits, winner, rival)
    limit = splits.n - 2 * data.min_samples_leaf

    def flips(size):
        return bool(
            _flips(
                removal_scores(data, splits, order[None, :size], cands),
                splits.feature[cands],
                winner,
            )[0][0]
        )

    sizes = sorted({min(limit, int(round(start * 1.5**i))) for i in range(64)} - {0})
    low, high = start - 1, None
    for size in (s for s in sizes if s >= start):
        if flips(size):
            high = size
            break
        low = size
    if high is None:
        return None, ()
    while high - low > 1:
        middle = (low + high) // 2
        low, high = (low, middle) if flips(middle) else (middle, high)
    return high, tuple(int(r) for r in order[:high])


def _greedy_bound(data, splits, winner, start, n_rivals=3):
    """An upper bound: a set of rows found to flip the node, tried against the strongest rivals."""
    rivals = []
    for feature in splits.feature[np.argsort(-splits.score, kind="stable")]:
        if feature != winner and feature not in rivals:
            rivals.append(int(feature))
        if len(rivals) == n_rivals:
            break
    best = (None, ())
    for rival in rivals:
        size, rows = _prefix_bound(data, splits, winner, rival, start)
        if size is not None and (best[0] is None or size < best[0]):
            best = (size, rows)
    return best


def rows_to_flip(data, splits, winner, max_pair_work=MAX_PAIR_WORK):
    """The fewest of a node's rows whose removal lets a split on another feature win.

    Exact when it is 0 (another feature already wins or ties with a lower
    index), 1 or 2: every single row, and every pair of rows that the bounds
    of :func:`trees.studies._removal.removal_bounds` cannot rule out, is
    scored exactly (``max_pair_work`` caps the pairs times candidates scored;
    beyond it pairs are not ruled out and the proven minimum is 2). Beyond 2
    it is an upper bound: the node's rows are ranked by how much their
    removal alone narrows the winner's lead over each of the three strongest
    rivals, and the shortest prefix of that ranking that flips the node is
    found (exponential then binary search, each step checked exactly). The
    true minimum lies between the proven one (3) and that bound; when they
    meet, the count is exact.

    Returns
    -------
    count : int or None
        None when removing up to all but ``2 * min_samples_leaf`` rows in
        that order never flips the node.
    exact : bool
    at_least : int
        A proven lower bound (the count itself when exact).
    witness : tuple of int
        Rows whose removal flips the node (the pair or single row found, or
        the prefix of the bound).
    """
    full = splits.score[None, :]
    if _flips(full, splits.feature, winner)[0][0]:
        return 0, True, 0, ()
    exact = splits.exact
    singles = _single_flips(data, splits, winner)
    if singles.size:
        return 1, exact, 1 if exact else 0, (int(singles[0]),)
    pair = _pair_flip(data, splits, winner, max_pair_work)
    if pair:
        return 2, exact, 2 if exact else 0, pair
    at_least = (3 if pair == () else 2) if exact else 0
    count, witness = _greedy_bound(data, splits, winner, max(3, at_least))
    return count, count == at_least, at_least, witness  # a bound met by the proof is exact


# ------------------------------------------------------------ rows to move
def _own_candidate(data, splits, tree, node):
    """Index of the candidate that partitions the node's rows as the tree's split does, or -1
    (a hand-made split no candidate matches, e.g. one that leaves a side under
    ``min_samples_leaf``)."""
    values = data.X[splits.rows, tree.feature[node]]
    codes = tree.categories[node]
    own = np.isin(values, codes) if codes is not None else values <= tree.threshold[node]
    same_feature = np.flatnonzero(splits.feature == tree.feature[node])
    if not same_feature.size:
        return -1
    sides = splits.goes_left(data.X, splits.rows, same_feature)
    # (A category-set candidate may list the other side's codes: the same partition.)
    same = np.all(sides == own[:, None], axis=0) | np.all(sides != own[:, None], axis=0)
    matches = same_feature[same]
    return int(matches[0]) if matches.size else -1


def _near_twins(data, splits, own, most=2):
    """Same-feature candidates whose partition differs from ``own``'s by at most ``most`` rows:
    ``{candidate: rows on the other side}``. Removing those rows leaves both candidates the
    same partition of what remains, so the node's cut has not moved."""
    same_feature = np.flatnonzero(splits.feature == splits.feature[own])
    sides = splits.goes_left(data.X, splits.rows, np.append(same_feature, own))
    differs = sides[:, :-1] != sides[:, -1:]
    # A partition has two orientations (a category set may name either side): the closer one.
    swapped = differs.sum(axis=0) > splits.n - differs.sum(axis=0)
    differs[:, swapped] = ~differs[:, swapped]
    counts = differs.sum(axis=0)
    return {
        int(c): frozenset(splits.rows[differs[:, j]].tolist())
        for j, c in enumerate(same_feature)
        if counts[j] <= most
    }


def _moves(data, splits, own, removed, cands):
    """Which removal sets change the node's partition, and the own cut's margin over the best
    candidate that would change it.

    After a removal the best candidate wins (ties: the first in the candidates' order, lower
    feature, then lower threshold, the builder's rule); the partition is unchanged when that
    candidate is ``own`` or a near twin whose differing rows were all removed.
    """
    removed = np.atleast_2d(removed)
    if removed.shape[1]:
        scores = removal_scores(data, splits, removed, cands)
    else:  # nothing removed: the node's own scores
        scores = splits.score[None, cands]
    twins = _near_twins(data, splits, own)
    same = np.zeros(scores.shape, dtype=bool)
    for j, c in enumerate(cands):
        if c in twins:  # every differing row among the removed ones
            same[:, j] = True
            for row in twins[c]:
                same[:, j] &= (removed == row).any(axis=1)
    best = np.max(scores, axis=1)
    top = np.isfinite(scores) & (scores >= (best - _tolerance(best))[:, None])
    first = np.argmax(top, axis=1)
    moved = np.isfinite(best) & ~same[np.arange(len(first)), first]
    with np.errstate(invalid="ignore"):
        margin = np.where(same, scores, -np.inf).max(axis=1) - np.where(same, -np.inf, scores).max(
            axis=1
        )
    return moved, margin


def _move_candidates(data, splits, own, k):
    """Candidates that may matter after removing ``k`` rows: those whose best score can reach
    the own cut's worst (:func:`removal_bounds`), and the own cut."""
    cands = np.arange(splits.feature.shape[0])
    hi, lo = removal_bounds(data, splits, k, cands)
    floor = lo[own]
    keep = (hi >= floor - _tolerance(floor)) | (cands == own)
    return cands[keep]


def _single_move(data, splits, own):
    """A row whose removal alone moves the node (the most decisive), or None."""
    cands = _move_candidates(data, splits, own, 1)
    moved, margin = _moves(data, splits, own, splits.rows[:, None], cands)
    if not moved.any():
        return None
    found = np.flatnonzero(moved)
    return int(splits.rows[found[np.argmin(margin[found])]])


def _pair_move(data, splits, own, max_work):
    """A moving pair, ``()`` when none exists, or None when the search would exceed ``max_work``."""
    cands = _move_candidates(data, splits, own, 2)
    rows = _pair_rows(data, splits, cands == own, cands)
    if rows.shape[0] * (rows.shape[0] - 1) // 2 * cands.shape[0] > max_work:
        return None
    return _first_pair(rows, cands, lambda pairs: _moves(data, splits, own, pairs, cands))


def rows_to_move(data, splits, own, flip=None, max_pair_work=MAX_PAIR_WORK):
    """The fewest of a node's rows whose removal changes its partition.

    The partition changes when, on the remaining rows, a split on another
    feature wins (what :func:`rows_to_flip` counts) or a split on the same
    feature that puts other rows on each side, such as a threshold that
    jumps across observed values. A flip is a move, so the node's rows to
    flip (``flip``: its count and rows, when known) bound this count: the
    searches stop there. Exact when it is 0, 1 or 2 (every single row and
    every pair the bounds cannot rule out is scored; ``max_pair_work`` caps
    the pairs times candidates); beyond 2 the rows to flip are the bound.

    Parameters
    ----------
    own : int
        The candidate that is the tree's split (:func:`_own_candidate`).
    flip : tuple (count, rows), optional

    Returns
    -------
    count : int or None
    exact : bool
    at_least : int
    witness : tuple of int
    """
    bound, bound_rows = flip if flip is not None else (None, ())
    everything = np.arange(splits.feature.shape[0])
    if _moves(data, splits, own, np.empty((1, 0), dtype=np.intp), everything)[0][0]:
        return 0, True, 0, ()
    exact = splits.exact
    if bound == 1:  # one row flips it, none moves it without removal
        return 1, exact, 1 if exact else 0, bound_rows
    single = _single_move(data, splits, own)
    if single is not None:
        return 1, exact, 1 if exact else 0, (single,)
    if bound == 2:
        return 2, exact, 2 if exact else 0, bound_rows
    pair = _pair_move(data, splits, own, max_pair_work)
    if pair:
        return 2, exact, 2 if exact else 0, pair
    at_least = (3 if pair == () else 2) if exact else 0
    count = None if bound is None else max(bound, at_least)  # (a bound is never below the proof)
    return count, count == at_least, at_least, bound_rows


# ------------------------------------------------------------ one node, all nodes
def _own_score(data, splits, tree, node):
    """Score of the tree's own split on the node's rows."""
    rows = splits.rows
    values = data.X[rows, tree.feature[node]]
    codes = tree.categories[node]
    left = np.isin(values, codes) if codes is not None else values <= tree.threshold[node]
    stats = data.stats[:, rows[left]].sum(axis=1)
    parent = splits.parent
    return float(data.criterion.score(stats, parent))


def _candidate_description(tree, splits, index, names):
    feature = int(splits.feature[index])
    if splits.set_index[index] < 0:
        return candidate_text(names[feature], splits.threshold[index]), float(
            splits.threshold[index]
        )
    codes = np.flatnonzero(splits.members[splits.set_index[index]])
    return candidate_text(names[feature], labels=category_labels(tree, feature, codes)), np.nan


# Scores this close (relative) are equal: the winner was picked by the tie-break, not the data.
TIE_TOLERANCE = 1e-10


def ties_runner_up(score_ratio):
    """Whether a runner-up scoring ``score_ratio`` times the winner ties it (within rounding).

    A tie is the most fragile state a split can be in: no row needs to go for
    another feature to win, only another tie-break (issue 34: a split whose
    runner-up scored 1.000000 times it must never read "firm").
    """
    return bool(score_ratio is not None and np.isfinite(score_ratio)
                and score_ratio >= 1.0 - TIE_TOLERANCE)  # fmt: skip


def _runner_up(tree, splits, winner, names):
    rivals = np.flatnonzero(splits.feature != winner)
    if not rivals.size:
        return {
            "runner_up_feature": -1,
            "runner_up_name": "",
            "runner_up_split": "",
            "runner_up_threshold": np.nan,
            "runner_up_score": np.nan,
        }
    # Best score first; ties: lower feature, then lower threshold (candidates are in that order).
    best = rivals[np.argmax(splits.score[rivals])]
    text, threshold = _candidate_description(tree, splits, best, names)
    return {
        "runner_up_feature": int(splits.feature[best]),
        "runner_up_name": names[int(splits.feature[best])],
        "runner_up_split": text,
        "runner_up_threshold": threshold,
        "runner_up_score": float(splits.score[best]),
    }


def _node_row(data, tree, node, rows, names, paths, max_pair_work):
    splits = node_splits(data, rows)
    winner = int(tree.feature[node])
    score = _own_score(data, splits, tree, node)
    row = {
        "node": int(node),
        "path": paths.get(int(node), ""),
        "depth": int(tree.depth[node]),
        "n_samples": int(rows.shape[0]),
        "feature": winner,
        "feature_name": names[winner],
        "split": split_text(tree, node, names),
        "score": score,
        **_runner_up(tree, splits, winner, names),
    }
    row["score_ratio"] = row["runner_up_score"] / score if score > 0 else np.nan
    row["tied"] = ties_runner_up(row["score_ratio"])
    count, exact, at_least, witness = rows_to_flip(data, splits, winner, max_pair_work)
    row.update(rows_to_flip=count, flip_exact=exact, flip_at_least=at_least, flip_rows=witness)
    own = _own_candidate(data, splits, tree, node)
    moves = (None, False, 0, ())
    if own >= 0:
        moves = rows_to_move(data, splits, own, (count, witness), max_pair_work)
    row.update(
        zip(("rows_to_move", "move_exact", "move_at_least", "move_rows"), moves, strict=True)
    )
    return row


def split_confidence(
    model,
    X,
    y,
    n_bootstrap=100,
    random_state=0,
    *,
    criterion=None,
    min_samples_leaf=None,
    categorical_features=None,
    feature_names=None,
    max_pair_work=MAX_PAIR_WORK,
    progress=None,
    should_stop=None,
):
    """How firmly every internal node holds its split (see the module docstring).

    Parameters
    ----------
    model : fitted estimator, TreeGrower or Tree
        A ``trees`` DecisionTreeClassifier/Regressor or TreeGrower (its
        criterion, ``min_samples_leaf`` and categorical features are used; a
        grower's hand-chosen split that is not the best shows as 0 rows to
        flip), a fitted scikit-learn decision tree, or a :class:`trees.Tree`
        (for example from :func:`trees.from_sklearn`). Trees chosen by
        p-value are refused: the measures judge the score rule. Rows are
        routed in float64 with the ``<=`` test; for a scikit-learn tree
        (float32 thresholds) a value within float32 rounding of a threshold
        may be routed otherwise than scikit-learn does.
    X, y : arrays
        The training data (rows count once: sample weights are not known).
    n_bootstrap : int, default=100
    random_state : int, default=0
        Seeds the bootstrap samples.
    criterion : str, optional
        Overrides the model's criterion (needed for a bare Tree that was not
        grown with Gini or squared error).
    min_samples_leaf : int or float, optional
        Overrides the model's.
    categorical_features : sequence of int, str or bool, optional
        Features holding category codes; features the tree splits by set are
        always categorical.
    feature_names : list of str, optional
    max_pair_work : int
        Budget of the exact pair searches (pairs times candidates); beyond it the counts are bounds.
    progress : callable(done, total), optional
    should_stop : callable() -> bool, optional
        Stops between nodes or bootstrap samples; the table then holds the
        nodes done (and NaN win rates).

    Returns
    -------
    pandas.DataFrame
        One row per internal node: ``node``, ``path``, ``depth``,
        ``n_samples``, ``feature``, ``feature_name``, ``split``, ``score``;
        the runner-up's ``runner_up_feature``, ``runner_up_name``,
        ``runner_up_split``, ``runner_up_threshold``, ``runner_up_score`` and
        ``score_ratio`` (runner-up / winner), ``tied`` (:func:`ties_runner_up`);
        ``rows_to_flip`` (nullable int), ``flip_exact``, ``flip_at_least``, ``flip_rows``;
        ``rows_to_move``, ``move_exact``, ``move_at_least``, ``move_rows``
        (:func:`rows_to_move`); ``boot_win_rate``, ``boot_runs``,
        ``boot_rival``, ``boot_threshold_low``, ``boot_threshold_high`` (see
        :func:`bootstrap_node_wins`). ``attrs["cancelled"]``: whether a stop cut the run.
    """
    tree, data = _node_data(model, X, y, criterion, min_samples_leaf, categorical_features)
    names = feature_names_of(tree, feature_names)
    node_rows = _node_rows(tree, data.X)
    paths = node_paths(tree)
    internal = [n for n in paths if tree.feature[n] >= 0]
    total = len(internal) + int(n_bootstrap)
    records, cancelled = _node_records(
        data, tree, internal, node_rows, names, paths, max_pair_work, total, progress, should_stop
    )
    if not records:
        return _empty_table()
    table = pd.DataFrame(records)
    table["rows_to_flip"] = pd.array(table["rows_to_flip"], dtype="Int64")
    table["rows_to_move"] = pd.array(table["rows_to_move"], dtype="Int64")
    boot = (0 if cancelled else int(n_bootstrap), random_state, progress, should_stop, total)
    return _with_bootstrap(table, data, tree, node_rows, names, boot, cancelled)


def _with_bootstrap(table, data, tree, node_rows, names, boot, cancelled):
    """The table joined with the bootstrap columns of :func:`bootstrap_node_wins`."""
    n_bootstrap, random_state, progress, should_stop, total = boot
    done = len(table)
    wins = bootstrap_node_wins(
        data,
        tree,
        table["node"].to_numpy(),
        node_rows,
        n_bootstrap,
        random_state,
        names,
        progress=None if progress is None else lambda d, t: progress(done + d, total),
        should_stop=should_stop,
    )
    table = table.join(wins.drop(columns="node"))
    table.attrs["cancelled"] = cancelled or wins.attrs.get("cancelled", False)
    return table


def _node_records(
    data, tree, internal, node_rows, names, paths, max_pair_work, total, progress, should_stop
):
    """The runner-up and rows-to-flip columns of every internal node; and whether a stop came."""
    records = []
    for node in internal:
        records.append(_node_row(data, tree, node, node_rows[node], names, paths, max_pair_work))
        if report(progress, should_stop, len(records), total):
            return records, True
    return records, False


_COLUMNS = [
    "node", "path", "depth", "n_samples", "feature", "feature_name", "split", "score",
    "runner_up_feature", "runner_up_name", "runner_up_split", "runner_up_threshold",
    "runner_up_score", "score_ratio", "rows_to_flip", "flip_exact", "flip_at_least", "flip_rows",
    "rows_to_move", "move_exact", "move_at_least", "move_rows", "boot_win_rate", "boot_runs", "boot_rival", "boot_threshold_low", "boot_threshold_high",
]  # fmt: skip


def _empty_table():
    """The table of a tree with no split (a single leaf)."""
    table = pd.DataFrame({name: [] for name in _COLUMNS})
    table.attrs["cancelled"] = False
    return table
