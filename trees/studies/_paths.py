"""Naming the nodes of a tree by their path from the root, and their splits in words.

A node's *path* is ``"root"`` for the root and the path of its parent
followed by ``-L`` (the side where the test holds: ``x <= t``, or the code
is in the set) or ``-R``: ``"root-L-R"`` is the right child of the root's
left child. Paths are how refits of the same data are compared node by node
(:func:`trees.instability.node_cutpoints`, :func:`trees.instability.tree_diff`):
node ids depend on growth order, paths do not.
"""

import numpy as np

__all__ = [
    "candidate_text",
    "category_labels",
    "feature_names_of",
    "node_paths",
    "path_depth",
    "split_text",
]


def node_paths(tree):
    """Path of every node reachable from the root, ``{node: path}`` in breadth-first order."""
    paths, queue = {0: "root"}, [0]
    while queue:
        node = queue.pop(0)
        if tree.feature[node] >= 0:
            paths[int(tree.left[node])] = paths[node] + "-L"
            paths[int(tree.right[node])] = paths[node] + "-R"
            queue += [int(tree.left[node]), int(tree.right[node])]
    return paths


def path_depth(path):
    """Depth of the node at ``path`` (0 for ``"root"``)."""
    return path.count("-")


def feature_names_of(tree, names=None):
    """Feature names: ``names``, else the tree's, else ``x0, x1, ...``."""
    if names is not None:
        return [str(n) for n in names]
    if tree.feature_names is not None:
        return list(tree.feature_names)
    return [f"x{j}" for j in range(tree.n_features)]


def category_labels(tree, feature, codes):
    """Names of category ``codes`` of ``feature`` (the codes themselves when unnamed)."""
    names = (tree.category_names or {}).get(int(feature))
    return [names[c] if names and c < len(names) else str(c) for c in codes]


def split_text(tree, node, names=None, precision=4, limit=5):
    """The test of an internal node in words: ``"age ≤ 42.5"`` or ``"colour ∈ {red, blue}"``."""
    feature = int(tree.feature[node])
    if feature < 0:
        return "leaf"
    name = feature_names_of(tree, names)[feature]
    codes = tree.categories[node]
    if codes is None:
        return f"{name} ≤ {tree.threshold[node]:.{precision}g}"
    labels = category_labels(tree, feature, codes)
    shown = ", ".join(labels[:limit]) + (", …" if len(labels) > limit else "")
    sign = "−" if tree.category_sign[node] < 0 else ""
    return f"{sign}{name} = {shown}" if len(labels) == 1 else f"{sign}{name} ∈ {{{shown}}}"


def candidate_text(name, threshold=None, labels=None, precision=4, limit=5):
    """A candidate split in words, from its feature name and threshold or category labels."""
    if labels is None:
        return f"{name} ≤ {threshold:.{precision}g}" if np.isfinite(threshold) else name
    shown = ", ".join(labels[:limit]) + (", …" if len(labels) > limit else "")
    return f"{name} = {shown}" if len(labels) == 1 else f"{name} ∈ {{{shown}}}"
