"""The grow page's animation of one split: the node's rows as its threshold is chosen, then
falling to the side the tree sends each of them (``viz.animation.split_fall_figure``).

Every count comes from the grower: the sweep's rows per side and scores are its score
curve (``TreeGrower.score_curve``), and each row falls to the child whose rows hold it
(``TreeGrower.node_rows``), so the animation shows the model's own steps.
"""

import numpy as np

from viz.animation import SplitFall

__all__ = ["FALL_FRAMES", "MAX_DOTS", "SWEEP_FRAMES", "split_fall"]

MAX_DOTS = 400  # rows drawn as dots (a sample of a larger node; every count is of all rows)
SWEEP_FRAMES = 16  # candidates tried before the choice, spread over the score curve
FALL_FRAMES = 8  # frames of the rows falling, a random eighth of them more each time


def _sweep(curve, threshold, count):
    """``count`` candidates spread over the curve, left to right, the chosen one among them."""
    thresholds = np.asarray(curve["threshold"], dtype=float)
    shown = np.unique(np.linspace(0, len(thresholds) - 1, min(count, len(thresholds))).round())
    chosen = int(np.argmin(np.abs(thresholds - threshold)))
    shown = np.union1d(shown.astype(int), [chosen])
    return tuple(
        (float(thresholds[i]), int(curve["n_left"][i]), int(curve["n_right"][i]),
         float(curve["score"][i]))
        for i in shown
    ), float(curve["score"][chosen])  # fmt: skip


def _falls(goes_left, rank, frames):
    """After each falling frame: the rank below which rows have fallen, and how many went
    left and right (of all the node's rows)."""
    n = len(goes_left)
    cuts = [int(np.ceil(n * j / frames)) for j in range(1, frames + 1)]
    return tuple(
        (cut, int(goes_left[rank < cut].sum()), int((~goes_left[rank < cut]).sum())) for cut in cuts
    )


def split_fall(grower, node, y, max_dots=MAX_DOTS, seed=0):
    """The :class:`viz.animation.SplitFall` of ``node``'s split, or None when there is none to
    animate (a leaf, a split by categories, or on missing values only).

    Parameters
    ----------
    grower : trees.TreeGrower
    node : int
    y : ndarray
        The grower's training targets (class labels colour the dots; a regression's dots
        share one colour).
    max_dots : int
        At most this many of the node's rows are drawn (a seeded sample).
    seed : int
        Seeds the sample and the order of falling.
    """
    tree = grower.tree
    if tree.feature[node] < 0 or tree.categories[node] is not None:
        return None
    feature, threshold = int(tree.feature[node]), float(tree.threshold[node])
    if not np.isfinite(threshold):
        return None
    rows = grower.node_rows(node)
    goes_left = np.isin(rows, grower.node_rows(int(tree.left[node])))
    rng = np.random.default_rng(seed)
    rank = np.empty(len(rows), dtype=int)
    rank[rng.permutation(len(rows))] = np.arange(len(rows))
    values = grower.X[rows, feature]
    drawn = np.flatnonzero(np.isfinite(values))
    if len(drawn) > max_dots:
        drawn = np.sort(rng.choice(drawn, max_dots, replace=False))
    classes = (
        np.searchsorted(grower.classes_, np.asarray(y)[rows[drawn]])
        if grower.is_classifier
        else np.zeros(len(drawn), dtype=int)
    )
    sweep, chosen_score = _sweep(grower.score_curve(node, feature), threshold, SWEEP_FRAMES)
    return SplitFall(
        node=int(node),
        feature_name=grower.feature_names[feature],
        n_rows=len(rows),
        values=values[drawn],
        classes=classes,
        goes_left=goes_left[drawn],
        fall_rank=rank[drawn],
        sweep=sweep,
        chosen=(threshold, chosen_score),
        falls=_falls(goes_left, rank, FALL_FRAMES),
    )
