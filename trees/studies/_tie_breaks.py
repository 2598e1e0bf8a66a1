"""How much the tie-break alone moves a tree (source 000's remark on equally good features).

When two features split a node equally well, the learner must pick one, and
libraries pick differently: this package takes the lowest feature index
(``tie_break="first"``), scikit-learn the first of a random order of the
features drawn per node from ``random_state`` (``tie_break="random"``). On
data with ties (counts, rounded values, one-hot columns) the choice changes
the tree, and every split below it: nothing about the data changed, only the
seed. :func:`tie_break_study` fits the tree once with ``"first"`` and once per
seed with ``"random"`` on the *same* rows and counts how much changes.

A node is *tied* when another feature's best split scores within a relative
``1e-10`` of the chosen one (the builder's own tie tolerance), read from
:func:`trees.split_confidence`'s runner-up.
"""

from dataclasses import dataclass

import numpy as np

from ._agreement import tree_diff
from ._by_task import make_tree
from ._confidence import split_confidence
from ._progress import report

__all__ = ["TieBreakStudy", "tie_break_study"]


@dataclass
class TieBreakStudy:
    """Trees fitted on the same rows with different tie-breaks, and what differs.

    Attributes
    ----------
    reference : Tree
        ``tie_break="first"`` (the lowest feature index wins a tie).
    trees : list of Tree
        ``tie_break="random"`` with ``random_state`` = each of ``seeds``.
    seeds : list of int
    differs : ndarray of bool
        Whether each random-order tree differs from the reference.
    changed_share : ndarray
        Share of the evaluation rows whose prediction differs from the
        reference's (the class; for regression, further apart than
        ``tolerance`` times the SD of y).
    changed_nodes : ndarray of int
        Nodes of each tree whose split differs from the reference's (by path).
    n_distinct : int
        Distinct trees among the reference and the random-order trees.
    tied_nodes : list of int
        Nodes of the reference where another feature ties with the chosen one.
    """

    reference: object
    trees: list
    seeds: list
    differs: np.ndarray
    changed_share: np.ndarray
    changed_nodes: np.ndarray
    n_distinct: int
    tied_nodes: list
    cancelled: bool = False

    @property
    def n_differ(self):
        return int(self.differs.sum())

    def most_different(self):
        """Index (into ``trees``) of the tree whose predictions move most, or None when none differs."""
        if not self.differs.any():
            return None
        order = np.lexsort((self.changed_nodes, self.changed_share))
        return int(order[-1])


def _tied_nodes(model, X, y):
    """Nodes where the runner-up feature scores as well as the chosen one (within the tie tolerance)."""
    table = split_confidence(model, X, y, n_bootstrap=0)
    if len(table) == 0:
        return []
    return [int(n) for n, tied in zip(table["node"], table["tied"], strict=True) if tied]


def _changed(task, reference, tree, X, scale, tolerance):
    a, b = reference.predict(X), tree.predict(X)
    if task == "classification":
        return float(np.mean(np.argmax(a, axis=1) != np.argmax(b, axis=1)))
    return float(np.mean(np.abs(a - b) > tolerance * scale))


def tie_break_study(
    X,
    y,
    task,
    params=None,
    n_seeds=20,
    X_test=None,
    tolerance=0.05,
    progress=None,
    should_stop=None,
):
    """Fit the tree with ``tie_break="first"`` and with ``"random"`` for seeds ``0 .. n_seeds - 1``.

    Parameters
    ----------
    X, y : arrays
        The same rows for every fit: only the tie-break differs.
    task : {"classification", "regression"}
    params : dict, optional
        Tree parameters (``tie_break`` and ``random_state`` are set here).
    n_seeds : int, default=20
    X_test : array, optional
        Rows on which prediction changes are counted (default: ``X``).
    tolerance : float, default=0.05
        Regression: a prediction changes beyond this share of y's SD.
    progress : callable(done, total), optional
    should_stop : callable() -> bool, optional

    Returns
    -------
    TieBreakStudy
    """
    X, y = np.asarray(X, dtype=float), np.asarray(y)
    X_eval = X if X_test is None else np.asarray(X_test, dtype=float)
    params = {k: v for k, v in (params or {}).items() if k not in ("tie_break", "random_state")}
    first = make_tree(task, {**params, "tie_break": "first"}).fit(X, y)
    reference = first.tree_
    scale = float(np.std(y.astype(float))) if task == "regression" else 1.0
    trees, changed, nodes, cancelled = [], [], [], False
    for seed in range(int(n_seeds)):
        tree = (
            make_tree(task, {**params, "tie_break": "random", "random_state": seed}).fit(X, y).tree_
        )
        trees.append(tree)
        changed.append(_changed(task, reference, tree, X_eval, scale, tolerance))
        diff = tree_diff(reference, tree)
        nodes.append(int((~diff["status"].isin(["same split", "same leaf"])).sum()))
        if report(progress, should_stop, seed + 1, int(n_seeds)):
            cancelled = True
            break
    distinct = [reference]
    for tree in trees:
        if not any(tree == other for other in distinct):
            distinct.append(tree)
    return TieBreakStudy(
        reference=reference,
        trees=trees,
        seeds=list(range(len(trees))),
        differs=np.array([tree != reference for tree in trees], dtype=bool),
        changed_share=np.asarray(changed, dtype=float),
        changed_nodes=np.asarray(nodes, dtype=int),
        n_distinct=len(distinct),
        tied_nodes=_tied_nodes(first, X, y),
        cancelled=cancelled,
    )
