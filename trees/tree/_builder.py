"""Growing a tree: the stopping rules applied in one of two growth orders.

:func:`grow` grows a :class:`~trees.tree._growth.GrowingTree` until its
stopping rules end it, in one of two orders:

* ``"best_first"``: the leaf whose best split has the largest weighted
  impurity decrease is expanded next (scikit-learn's best-first builder;
  ties: the lower node id);
* ``"level_order"``: leaves are expanded level by level, left to right, from a
  queue (source 004, section 3.4.2).

Both orders give the same tree unless ``max_leaf_nodes`` or ``max_nodes``
stops the growth early, so without those limits the tree is grown level by
level.

With selection by gain (the default) the whole growth runs in the compiled
loop of ``_kernels_growth`` (threshold and membership splits, feature
subsets, tie-breaks, every stopping rule); selection by p-value (source 001)
takes the Python loops below, which search with the same split tables.

Which splits are accepted (:func:`accepted_choices`): a split must bring a
weighted impurity decrease ``w_t / w * G`` of at least
``min_impurity_decrease`` (within rounding, scikit-learn's rule), and under a
criterion that refuses zero-gain splits (``refuses_zero_gain``, see
``_criterion``) a positive one; source 004's criteria also need a score above 0
(``Criterion.accepts_score``).
"""

import heapq

import numpy as np

from ._growth import SELECTIONS, Choice, GrowingTree
from ._kernels_growth import (
    N_LIMITS,
    STORE_STATS,
    WEIGHT_MIN_LEAF,
    WEIGHT_TOTAL,
    GrowthSettings,
)

__all__ = [
    "GROWTH_ORDERS",
    "SELECTIONS",
    "Choice",
    "GrowingTree",
    "accepted_choices",
    "accepted_splits",
    "grow",
    "growth_order",
    "kernel_inputs",
    "rules_for_total_weight",
]


def accepted_splits(growth, table):
    """Chosen split of each node of a table, its improvement, and whether the rules accept it."""
    choices = growth.choose(table)
    improvement = np.full(len(choices), -np.inf)
    numeric = np.array(
        [i for i, c in enumerate(choices) if c is not None and c.codes is None], dtype=np.intp
    )
    if numeric.size:  # one vectorised call for every threshold split
        features = np.array([choices[i].feature for i in numeric])
        positions = np.array([choices[i].position for i in numeric])
        improvement[numeric] = growth.improvement(table, features, positions, numeric)
        for i in numeric:
            choices[i].local = int(table.local_position(choices[i].position, i))
    for i, choice in enumerate(choices):
        if choice is not None and choice.codes is not None:
            improvement[i] = growth.choice_improvement(table, choice, i)
    refuse_zero = getattr(growth.criterion, "refuses_zero_gain", False)
    scores = np.array([-np.inf if c is None else c.score for c in choices], dtype=np.float64)
    ok = growth.rules.accepts(improvement, refuse_zero) & growth.criterion.accepts_score(scores)
    return choices, improvement, ok


def accepted_choices(growth, nodes):
    """The split each of ``nodes`` would take, its weighted impurity decrease, and whether it is accepted.

    Selection by gain uses the compiled search; by p-value a split table.

    Returns
    -------
    choices : list of Choice or None
    improvement : ndarray
    ok : ndarray of bool
    """
    if growth.selection == "gain":
        return growth.best_splits(nodes)
    return accepted_splits(growth, growth.evaluate(nodes))


def _grow_level_order(growth):
    """Expand every splittable leaf of a level in one batch, level after level."""
    budget = growth.rules.max_splits
    frontier = np.array([0])
    while frontier.size and (budget is None or budget > 0):
        candidates = growth.splittable(frontier)
        if not candidates.size:
            break
        choices, _, ok = accepted_choices(growth, candidates)
        chosen = np.flatnonzero(ok)
        if budget is not None:
            chosen = chosen[:budget]
            budget -= chosen.size
        if not chosen.size:
            break
        children = growth.apply(candidates[chosen], [choices[i] for i in chosen])
        frontier = children.ravel()


def _grow_best_first(growth):
    """Expand the leaf with the largest weighted impurity decrease first.

    Ties go to the lower node id. Each expansion scores the two new children
    in one batch.
    """
    budget = growth.rules.max_splits
    heap = []

    def push(nodes):
        candidates = growth.splittable(nodes)
        if not candidates.size:
            return
        choices, improvement, ok = accepted_choices(growth, candidates)
        for i in np.flatnonzero(ok):
            heapq.heappush(heap, (-improvement[i], int(candidates[i]), choices[i]))

    push(np.array([0]))
    while heap and (budget is None or budget > 0):
        _, node, choice = heapq.heappop(heap)
        children = growth.apply([node], [choice])[0]
        if budget is not None:
            budget -= 1
        push(children)


# Growth orders by name (module docstring).
GROWTH_ORDERS = {"best_first": _grow_best_first, "level_order": _grow_level_order}


def kernel_inputs(growth, order):
    """What :func:`~._kernels_growth.grow_compiled` takes besides its plan and the data:
    ``(settings, rules, rng)`` of ``growth`` grown in ``order`` (:func:`growth_order`)."""
    limits, weights = growth.kernel_rules()
    rng, _, tie_random, n_allowed = growth.kernel_randomness()  # draws: the plan's
    min_leaf, _, equality = growth.kernel_settings()  # the least weight: ``weights``' rule
    settings = GrowthSettings(min_leaf, equality, tie_random, n_allowed, order == "best_first")
    return settings, np.concatenate([limits, weights]).astype(np.float64), rng


def rules_for_total_weight(rules, min_weight_leaf, total_weight):
    """:func:`kernel_inputs`' ``rules`` for a tree of the same settings whose total weight is
    another (a forest's trees under "balanced_subsample", ``ensemble._batches``): its least
    weight of a leaf (``StoppingRules.min_weight_leaf``, a share of that total) and the
    total that scales its improvements (``GrowingTree.total_weight``)."""
    rules = rules.copy()
    rules[N_LIMITS + WEIGHT_MIN_LEAF] = min_weight_leaf
    rules[N_LIMITS + WEIGHT_TOTAL] = total_weight
    return rules


def _grow_in_kernel(growth, order):
    """Grow the whole tree in the compiled loop (selection by gain)."""
    settings, rules, rng = kernel_inputs(growth, order)
    grow = growth.growth_kernel()  # compiled for the growth's plan (and data: dense or CSC)
    *store, size, impurity = grow(
        *growth.kernel_data(), growth.store[STORE_STATS][0].copy(), settings, rules, rng
    )
    growth.store, growth.size = tuple(store), int(size)
    growth.grown_impurity = impurity


def growth_order(growth, order):
    """The order ``growth`` grows in: ``order``, but level by level without a limit on leaves or
    nodes (both orders then give the same tree, and a whole level is grown at a time).

    Raises
    ------
    ValueError
        For an unknown ``order``.
    """
    if order not in GROWTH_ORDERS:
        raise ValueError(f"growth must be one of {tuple(GROWTH_ORDERS)}, got {order!r}.")
    return "level_order" if growth.rules.max_splits is None else order


def grow(growth, order="best_first"):
    """Grow ``growth`` until the stopping rules end it.

    Parameters
    ----------
    growth : GrowingTree
        A tree that is still a single leaf.
    order : {"best_first", "level_order"}
        Only matters when ``max_leaf_nodes`` or ``max_nodes`` is set: without
        them both orders give the same tree, grown level by level.
    """
    order = growth_order(growth, order)
    if growth.selection == "gain" and growth.size == 1:
        _grow_in_kernel(growth, order)
    else:
        GROWTH_ORDERS[order](growth)
    return growth
