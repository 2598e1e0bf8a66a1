"""Reading a fitted tree: which features it relies on, and its nodes in words.

Impurity-based and permutation importances, node paths and splits as text.

Public API
----------
feature_importances, permutation_importances
    Impurity-based and permutation importance of a tree's features (held-out rows).
node_paths, split_text
    Node paths ("root-L-R") and splits in words.
"""

from .studies._importances import feature_importances, permutation_importances
from .studies._paths import node_paths, split_text

__all__ = [
    "feature_importances",
    "node_paths",
    "permutation_importances",
    "split_text",
]
