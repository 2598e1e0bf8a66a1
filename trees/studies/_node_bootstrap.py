"""How often each node's feature wins its node again on bootstrap samples.

Definition (ours; stablelearner's refits look at whole trees, this looks at
one node with the path to it held fixed). A bootstrap sample draws ``n``
rows of the training data with replacement. For an internal node, the rows
of the sample that fall in the node's *region* (the training rows reaching
it through the tree's splits above, each weighted by how often it was
drawn) are searched for their best split with the tree's criterion and
``min_samples_leaf``, as the builder would (ties: the lower feature index).
The node's feature *wins* when that split is on it. The win rate is the
share of wins over the samples in which the region can be split at all.
When it wins, the threshold it takes is recorded, and their 10% and 90%
quantiles show the split-point uncertainty of source 002, section 2; when
it loses, the feature that wins most often is the *rival*.
"""

import numpy as np
import pandas as pd

from ..tree._categorical import best_categorical_split
from ..tree._splitter import SegmentBatch, search_splits
from ._progress import report

__all__ = ["bootstrap_node_wins"]


def _categorical_scores(data, stats, segments):
    """Best score of every categorical feature in every segment, shape (n_features, n_segments)."""
    scores = np.full((data.X.shape[1], len(segments)), -np.inf)
    for feature in np.flatnonzero(data.categorical):
        for i, rows in enumerate(segments):
            found = best_categorical_split(
                data.X[rows, feature],
                stats[:, rows],
                data.criterion,
                data.categorical_split,
                data.min_samples_leaf,
            )
            if found is not None:
                scores[feature, i] = found["score"]
    return scores


def _one_sample(data, counts, features, node_rows):
    """Winning feature and the threshold of the node's own feature, for every node."""
    segments = [rows[counts[rows] > 0] for rows in node_rows]
    usable = np.array([len(s) >= 2 * data.min_samples_leaf for s in segments])
    winner = np.full(len(segments), -1)
    threshold = np.full(len(segments), np.nan)
    if not usable.any():
        return winner, threshold
    kept = [s for s, ok in zip(segments, usable, strict=True) if ok]
    stats = data.stats * counts  # a row drawn c times weighs c (its statistics times c)
    table = search_splits(
        SegmentBatch.from_rows(data.X, kept),
        stats,
        data.criterion,
        min_samples_leaf=data.min_samples_leaf,
        feature_allowed=np.repeat(~data.categorical[None, :], len(kept), axis=0),
    )
    scores = np.maximum(table.best_per_feature(), _categorical_scores(data, stats, kept))
    splittable = np.isfinite(scores).any(axis=0)
    best = np.argmax(scores, axis=0)  # the first maximum: the lower feature on ties
    own = features[usable]
    index = np.flatnonzero(usable)
    winner[index[splittable]] = best[splittable]
    numeric = splittable & (best == own) & ~data.categorical[own]
    columns = np.flatnonzero(numeric)
    threshold[index[columns]] = table.threshold(
        own[columns], table.best_position[own[columns], columns]
    )
    return winner, threshold


def _summary(nodes, features, winners, thresholds, names):
    """Win rate, runs, rival and threshold quantiles of every node."""
    rows = []
    for i, node in enumerate(nodes):
        won = winners[:, i]
        ran = won >= 0
        lost = won[ran & (won != features[i])]
        values = thresholds[ran & (won == features[i]), i]
        values = values[np.isfinite(values)]
        rival = np.bincount(lost).argmax() if lost.size else -1
        rows.append(
            {
                "node": int(node),
                "boot_win_rate": float(np.mean(won[ran] == features[i])) if ran.any() else np.nan,
                "boot_runs": int(ran.sum()),
                "boot_rival": names[rival] if rival >= 0 else "",
                "boot_threshold_low": float(np.quantile(values, 0.1)) if values.size else np.nan,
                "boot_threshold_high": float(np.quantile(values, 0.9)) if values.size else np.nan,
            }
        )
    return pd.DataFrame(rows)


def bootstrap_node_wins(
    data, tree, nodes, node_rows, n_bootstrap, random_state, names, progress=None, should_stop=None
):
    """Bootstrap win rate of each node's feature at its node (see the module docstring).

    Parameters
    ----------
    data : trees.studies._removal.NodeData
    tree : Tree
    nodes : ndarray of int
        Internal nodes to judge.
    node_rows : dict {node: ndarray of int}
        Training rows reaching each node.
    n_bootstrap : int
    random_state : int
    names : list of str
    progress : callable(done, total), optional
    should_stop : callable() -> bool, optional

    Returns
    -------
    pandas.DataFrame
        ``node``, ``boot_win_rate``, ``boot_runs``, ``boot_rival``,
        ``boot_threshold_low``, ``boot_threshold_high``; ``attrs["cancelled"]``.
    """
    nodes = np.asarray(nodes, dtype=np.intp)
    features = tree.feature[nodes]
    rows = [node_rows[int(n)] for n in nodes]
    rng = np.random.default_rng(random_state)
    n = data.X.shape[0]
    winners, thresholds, cancelled = [], [], False
    for b in range(int(n_bootstrap)):
        counts = np.bincount(rng.integers(0, n, n), minlength=n).astype(float)
        winner, threshold = _one_sample(data, counts, features, rows)
        winners.append(winner)
        thresholds.append(threshold)
        if report(progress, should_stop, b + 1, n_bootstrap):
            cancelled = True
            break
    empty = np.zeros((0, len(nodes)))
    table = _summary(
        nodes,
        features,
        np.array(winners, dtype=int).reshape(-1, len(nodes)) if winners else empty.astype(int),
        np.array(thresholds).reshape(-1, len(nodes)) if thresholds else empty,
        names,
    )
    table.attrs["cancelled"] = cancelled
    return table
