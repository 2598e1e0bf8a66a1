"""A grown tree as a short text, so a link rebuilds it: the grow page's splits, in the order made.

Every split of a :class:`trees.TreeGrower` is written as one token, and the
tokens are joined by ``_``, in the order the splits were made
(``grower.split_order``), so replaying them numbers the nodes as the
original did (a grower numbers children in the order it creates them):

* ``{node}.{feature}.{n}``: a threshold split at the midpoint between the
  ``n``-th and ``n+1``-th smallest values of ``feature`` among the node's
  rows (``n`` rows go left), which is how every step and every split picked
  from the candidates is made. An integer, so a link stays short;
* ``{node}.{feature}t{threshold}``: a typed threshold, written exactly
  (Python's shortest round-trip repr);
* ``{node}.{feature}c{code}-{code}...``: the category codes sent left by a
  membership split.

Example: ``0.1.52_1.0.17_2.1t3.25`` is the root split on feature 1 with 52
rows on the left, then node 1 on feature 0 with 17 on the left, then node 2
on feature 1 at the typed threshold 3.25.

The tokens are read against the same data and settings (the link carries
both), so ``n`` means the same rows. :func:`replay` stops at the first token
that is malformed or impossible and says which, keeping the splits before it.
"""

import re
from dataclasses import dataclass

import numpy as np

from trees.tree import position_to_threshold

__all__ = ["MAX_SPLITS", "Split", "encode", "replay", "replay_splits", "splits_of"]

# A link holds at most this many splits (a URL stays well under browsers' limits).
MAX_SPLITS = 400
_TOKEN = re.compile(r"^(\d+)\.(\d+)(?:\.(\d+)|t([-+0-9.eE]+|inf)|c(\d+(?:-\d+)*))$")


@dataclass(frozen=True)
class Split:
    """One split of a grown tree: the node, the feature, and a threshold or the codes sent left."""

    node: int
    feature: int
    threshold: float | None = None
    categories: tuple | None = None

    def apply(self, grower):
        """Make this split in ``grower`` (raises ValueError when it is not possible)."""
        if self.categories is not None:
            return grower.expand(self.node, self.feature, categories=self.categories)
        return grower.expand(self.node, self.feature, self.threshold)


def splits_of(grower):
    """The grower's splits in the order they were made."""
    tree = grower.tree
    out = []
    for node in grower.split_order:
        codes = tree.categories[node]
        out.append(
            Split(
                node=int(node),
                feature=int(tree.feature[node]),
                threshold=None if codes is not None else float(tree.threshold[node]),
                categories=None if codes is None else tuple(int(c) for c in codes),
            )
        )
    return out


def _sorted_values(grower, node, feature):
    return np.sort(grower.X[grower.node_rows(node), feature])


def _token(grower, split):
    head = f"{split.node}.{split.feature}"
    if split.categories is not None:
        return head + "c" + "-".join(str(c) for c in split.categories)
    values = _sorted_values(grower, split.node, split.feature)
    n_left = int(np.searchsorted(values, split.threshold, side="right"))
    if 0 < n_left < len(values):
        midpoint = position_to_threshold(values[n_left - 1], values[n_left])
        if midpoint == split.threshold:
            return f"{head}.{n_left}"
    return f"{head}t{split.threshold!r}"


def encode(grower):
    """The grower's splits as one short text (see the module docstring); ``""`` for a single leaf.

    A node's rows never change once the node exists, so the current rows of a node are the rows
    it had when it was split: ``n`` is counted on them.
    """
    return "_".join(_token(grower, split) for split in splits_of(grower))


def _parse(grower, token):
    """The :class:`Split` a token stands for in ``grower`` as it is now (raises ValueError)."""
    match = _TOKEN.match(token)
    if match is None:
        raise ValueError(f"'{token}' is not a split (expected node.feature.rows, …t…, or …c…)")
    node, feature, n_left, threshold, codes = match.groups()
    node, feature = int(node), int(feature)
    if feature >= grower.X.shape[1]:
        raise ValueError(f"'{token}' names feature {feature}; the data has {grower.X.shape[1]}")
    if codes is not None:
        return Split(node, feature, categories=tuple(int(c) for c in codes.split("-")))
    if threshold is not None:
        value = float(threshold)
        if not np.isfinite(value):
            raise ValueError(f"'{token}' has a threshold that is not a finite number")
        return Split(node, feature, threshold=value)
    if node >= grower.tree.node_count:
        raise ValueError(f"'{token}' names node {node}, which the tree does not have yet")
    values = _sorted_values(grower, node, feature)
    n_left = int(n_left)
    if not 0 < n_left < len(values) or values[n_left - 1] == values[n_left]:
        raise ValueError(f"'{token}' does not cut node {node}'s {len(values)} rows between values")
    return Split(
        node, feature, threshold=float(position_to_threshold(*values[n_left - 1 : n_left + 1]))
    )


def replay(grower, text):
    """Make the splits a text written by :func:`encode` describes, in order, in ``grower``.

    Returns
    -------
    done : int
        Splits made.
    problem : str or None
        Why the replay stopped early (the first impossible or malformed token), or None.
    """
    tokens = [t for t in (text or "").split("_") if t]
    if len(tokens) > MAX_SPLITS:
        return 0, f"the link holds {len(tokens)} splits; at most {MAX_SPLITS} are rebuilt"
    for done, token in enumerate(tokens):
        try:
            _parse(grower, token).apply(grower)
        except ValueError as err:
            return done, f"split {done + 1} of {len(tokens)}: {err}"
    return len(tokens), None


def replay_splits(grower, splits):
    """Make ``splits`` (from :func:`splits_of`) in ``grower``, in order.

    Returns
    -------
    done : int
    problem : str or None
        Why the replay stopped early, naming the split, or None.
    """
    names = grower.feature_names
    for done, split in enumerate(splits):
        try:
            split.apply(grower)
        except ValueError as err:
            what = (
                f"{names[split.feature]} ≤ {split.threshold:.4g}"
                if split.categories is None
                else f"{names[split.feature]} ∈ {{{', '.join(map(str, split.categories))}}}"
            )
            return done, f"split {done + 1} (node {split.node} on {what}): {err}"
    return len(splits), None
