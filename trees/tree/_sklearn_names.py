"""scikit-learn's names for a :class:`~trees.tree.Tree`'s arrays, beside the tree's own.

scikit-learn's ``tree_`` (``sklearn.tree._tree.Tree``) is read by name by its tests and by
tools that take scikit-learn trees. :class:`SklearnTreeNames` gives a ``Tree`` those names
over the same arrays (no copy):

=============================  ==============================================================
scikit-learn                   the lab's ``Tree``
=============================  ==============================================================
``children_left``,             ``left``, ``right`` (``TREE_LEAF``, -1, at a leaf in both)
``children_right``
``n_node_samples``             ``n_samples``
``weighted_n_node_samples``    ``weighted_n_samples``
``n_classes``,                 the classes per output (1 for regression); their most
``max_n_classes``
``capacity``                   ``node_count`` (the arrays hold no spare room)
``compute_node_depths()``      ``depth + 1`` (scikit-learn counts the root as depth 1)
=============================  ==============================================================

``feature``, ``threshold``, ``value``, ``impurity``, ``n_features``, ``n_outputs``, ``node_count``,
``max_depth``, ``n_leaves``, ``missing_go_to_left``, ``apply``, ``decision_path`` and
``predict`` are the tree's own and mean what scikit-learn's mean at every split node. By design
of the lab's tree (its saved format, its walks and the code reading it), three differ: at a leaf
``feature`` is -1 and ``threshold`` NaN (scikit-learn's ``TREE_UNDEFINED``, -2, in both; a leaf
is told by ``children_left == TREE_LEAF`` in either), and ``value`` has shape ``(node_count,
n_classes)`` (``(node_count, 1)`` for regression; ``(node_count, n_outputs * max_n_classes)`` for several
targets) where scikit-learn's has ``(node_count, n_outputs, max_n_classes)``: the same numbers,
the class fractions of each node's weighted training rows or its mean (``Tree.output_values()``
is scikit-learn's shape; ``trees/tree/_multi_output.py`` says why ``value`` stays 2-D); so
``predict`` gives a regression tree's values as ``(n_samples,)``, not ``(n_samples, 1)``. A
membership node (a categorical feature, which scikit-learn's trees do not have) has no
threshold either (NaN).

Why a leaf's ``threshold`` stays NaN rather than answering ``TREE_UNDEFINED`` (-2), as
scikit-learn's pruning tests (``assert_is_subtree``) expect: ``threshold`` is one array under
one name, the lab's and scikit-learn's, so -2 there would be -2 for every reader, and -2 is a
threshold a split can have (NaN is none): a reader that forgot the leaf mask would take a leaf
for a split at -2 where NaN fails every comparison. The lab's readers tell a leaf or a
membership node by its NaN (saved trees write it as ``null``, the drawings and the imported
models' scans skip it), and the tools that read scikit-learn's trees tell a leaf by
``children_left == TREE_LEAF``, as the lab does (skl2onnx and treelite read no leaf's threshold;
treelite reads ``feature != -2`` for isolation forests only). Nor can ``threshold`` answer -2 at
the leaves while the lab's array keeps NaN: under one name, a copy with -2 would lose the writes
through ``tree_.threshold[...]`` that scikit-learn's array (a view) takes and source 000's
experiment makes (``bench/bench_protocol.py`` moves thresholds so). Those tests (37 of
``test_tree.py``, and ``test_empty_leaf_infinite_threshold``'s 3, which find every threshold
finite) stay failing on that assertion alone (with the suite's ``TREE_UNDEFINED`` set to NaN
the 37 pass).
"""

import numpy as np

from ._node_view import impurity_decrease

__all__ = ["TREE_LEAF", "TREE_UNDEFINED", "SklearnTreeNames"]

# scikit-learn's sentinels (``sklearn.tree._tree``): a leaf's children, and an undefined
# feature or threshold.
TREE_LEAF = -1
TREE_UNDEFINED = -2


class SklearnTreeNames:
    """scikit-learn's ``Tree`` attribute names over a lab tree's arrays (module docstring)."""

    @property
    def children_left(self):
        """Left child of each node; ``TREE_LEAF`` (-1) at a leaf."""
        return self.left

    @property
    def children_right(self):
        """Right child of each node; ``TREE_LEAF`` (-1) at a leaf."""
        return self.right

    @property
    def n_node_samples(self):
        """Training rows reaching each node (``n_samples``)."""
        return self.n_samples

    @property
    def weighted_n_node_samples(self):
        """Their total sample weight (``weighted_n_samples``)."""
        return self.weighted_n_samples

    @property
    def n_classes(self):
        """The number of classes of each output, as an array (1 for a regression tree's).

        A multi-output tree's outputs are padded to ``max_n_classes`` in ``value``: an output's
        count is the number of its columns some node has a share in (a class of no training
        row has a share nowhere; the estimator's ``n_classes_`` counts it).
        """
        if self.n_outputs == 1:
            return np.array([self.max_n_classes], dtype=np.intp)
        if not self.is_classifier:
            return np.ones(self.n_outputs, dtype=np.intp)
        seen = self.output_values().max(axis=0) > 0
        return np.array([np.flatnonzero(row).max() + 1 for row in seen], dtype=np.intp)

    @property
    def max_n_classes(self):
        """The most classes of any output (1 for a regression tree)."""
        return int(self.value.shape[1]) // self.n_outputs if self.is_classifier else 1

    @property
    def capacity(self):
        """Nodes the arrays have room for: ``node_count`` (a fitted tree is not grown in
        place)."""
        return self.node_count

    def compute_node_depths(self):
        """The depth of each node counting the root as 1, as scikit-learn's method.

        Returns
        -------
        ndarray of shape (node_count,), int64
        """
        return self.depth.astype(np.int64) + 1

    def compute_feature_importances(self, normalize=True):
        """Each feature's total weighted impurity decrease, as scikit-learn's method.

        The decrease of a split is ``(w_t I_t - w_L I_L - w_R I_R) / w_root``
        (``_node_view.impurity_decrease``), summed per feature over the split
        nodes; with ``normalize`` the sums are divided by their total (left
        as they are when it is 0, a single-leaf tree).

        Returns
        -------
        ndarray of shape (n_features,)
        """
        decrease = impurity_decrease(
            self.weighted_n_samples * self.impurity,
            self.feature,
            self.left,
            self.right,
            self.weighted_n_samples[0],
        )
        internal = self.feature >= 0
        importances = np.bincount(
            self.feature[internal], weights=decrease[internal], minlength=self.n_features
        )
        total = importances.sum()
        if normalize and total > 0:
            importances /= total
        return importances
