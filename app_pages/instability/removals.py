"""The tree redrawn as training rows are removed one at a time (``viz.tree_animation``).

The rows go in the order that lets another feature win at the root soonest: the current
root's rows to flip (``trees.instability.split_confidence``, asked of the current data's
stump: the root's choice depends on no node below it), one at a time; once they are gone and
the root has changed, the new root's. Each frame is the tree refitted, with the page's
settings, on the rows left (``trees.tasks.make_tree``): the animation shows the model's own
refits.
"""

from dataclasses import dataclass

import numpy as np

from trees.instability import compare_trees, split_confidence
from trees.tasks import make_tree
from viz.tree_animation import TreeFrame

__all__ = ["MAX_REMOVED", "RemovalOrder", "removal_frames", "removal_order"]

MAX_REMOVED = 6  # rows removed, one a frame


@dataclass(frozen=True)
class RemovalOrder:
    """The rows to remove, in order; ``needed``, the size of the root's flip set last asked
    for (0: no removal changes the root's feature); ``cancelled``: a Stop cut it short."""

    rows: tuple
    needed: int
    cancelled: bool = False


def _root_flips(task, params, X, y, keep):
    """The rows (indices into ``X``) whose removal lets another feature win at the root of the
    rows kept: the first of them is removed first; empty when none can."""
    stump = make_tree(task, {**dict(params), "max_depth": 1}).fit(X[keep], y[keep])
    if stump.tree_.feature[0] < 0:
        return []
    flips = split_confidence(stump, X[keep], y[keep], n_bootstrap=0)["flip_rows"].iloc[0]
    return [int(row) for row in np.flatnonzero(keep)[np.asarray(flips, dtype=int)]]


def removal_order(task, params, X, y, limit=MAX_REMOVED, progress=None, should_stop=None):
    """Up to ``limit`` training rows to remove one after the other, the current root's rows to
    flip first (see the module docstring).

    Returns
    -------
    RemovalOrder
        Stops early when no removal changes the root's feature, or at ``should_stop()``
        (``cancelled``); ``needed`` larger than the rows taken from the last flip set means
        the root still holds in the last frame.
    """
    keep = np.ones(len(y), dtype=bool)
    rows, pending, needed, cancelled = [], [], 0, False
    while len(rows) < limit:
        if not pending:
            pending = _root_flips(task, params, X, y, keep)
            needed = len(pending)
            if not pending:
                break
        row = pending.pop(0)
        keep[row] = False
        rows.append(row)
        if progress is not None:
            progress(len(rows), limit)
        if should_stop is not None and should_stop():
            cancelled = True
            break
    return RemovalOrder(tuple(rows), needed, cancelled)


def removal_frames(task, params, X, y, rows):
    """The tree fitted on all of ``X``, ``y``, then refitted without ``rows[:1]``, ``rows[:2]``...

    Returns
    -------
    list of viz.tree_animation.TreeFrame
        One per step, the first with nothing removed; each marks the nodes that differ from
        the first tree (``trees.instability.compare_trees``).
    """
    reference = make_tree(task, dict(params)).fit(X, y).tree_
    frames = [TreeFrame((), reference, frozenset())]
    keep = np.ones(len(y), dtype=bool)
    for count, row in enumerate(rows, start=1):
        keep[row] = False
        tree = make_tree(task, dict(params)).fit(X[keep], y[keep]).tree_
        changed = frozenset(compare_trees(reference, tree)[1])
        frames.append(TreeFrame(tuple(rows[:count]), tree, changed))
    return frames
