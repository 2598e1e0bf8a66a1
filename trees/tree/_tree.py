"""The array-based tree structure, its three threshold tests, and mirroring.

A :class:`Tree` is a set of parallel arrays indexed by node id, as
scikit-learn's ``tree_``. Node 0 is the root. At a leaf ``feature`` is -1,
``left`` and ``right`` are -1 and ``threshold`` is NaN.

The threshold test is a parameter of every routing method (source 000,
sections 2.2 and 3):

* ``"<="`` sends a row left when ``x[feature] <= threshold`` (scikit-learn);
* ``"<"`` sends it left when ``x[feature] < threshold`` (R's ``tree``);
* ``"average"`` (prediction only) is the mean of the two predictions,
  probabilities or values, never votes (source 000, section 3.3).

A node may instead test membership of a categorical feature (source 004,
section 3.2): the feature holds integer category codes and the row goes
left when its code is in the node's set (an equality test is a set of one
code). Such a node has no threshold (NaN) and no operator: ``"<="`` and
``"<"`` route it alike. A code the set does not hold, unseen codes and
non-integer values go right.

A tree records the precision it compares in, ``input_dtype`` (see
``trees/tree/_operators.py``): with ``"float32"`` every routing method first
rounds X to float32, as scikit-learn does, so a converted scikit-learn tree
predicts exactly as scikit-learn.

Missing values (NaN) are routed as scikit-learn >= 1.3 routes them: each split node records
the side its missing rows go to, ``missing_go_to_left`` (the growth chooses it: the search tries
the missing rows on the right and on the left, ``_kernels_search``; a node that saw none sends
them to its child with more rows). Every walk reads it under every test (a bit of the node records,
``_node_records``), :func:`mirror` flips it with the children, saved trees keep it, and the
drawing says "or missing" on that edge (``viz.tree_svg``). A tree built by the growth skips the
consistency checks of the constructor (``check=False``, ``_growth.tree_from_store``; a test runs
them on grown trees).
"""

import json

import numpy as np

from ._kernels_arrays import kernel_array
from ._kernels_traversal import leaf_paths
from ._node_records import pack_nodes
from ._operators import (
    OPERATOR_CODES,
    OPERATORS,
    ROUTING_OPERATORS,
    check_input_dtype,
    check_operator,
)
from ._parallel import in_row_blocks
from ._sklearn_names import SklearnTreeNames
from ._tree_json import parse_tree_json, validate_tree_document
from ._walks import walk_rows

__all__ = ["OPERATORS", "Tree", "mirror"]

_ARRAY_FIELDS = (
    "feature",
    "threshold",
    "left",
    "right",
    "value",
    "n_samples",
    "weighted_n_samples",
    "impurity",
    "depth",
)


class Tree(SklearnTreeNames):
    """A fitted binary decision tree stored as parallel arrays.

    It also answers scikit-learn's ``tree_`` names (``children_left``,
    ``n_node_samples``, ``compute_feature_importances`` ...; where its own
    arrays differ from scikit-learn's: ``trees/tree/_sklearn_names.py``).

    Parameters
    ----------
    feature : ndarray of shape (node_count,), int
        Feature tested at each node; -1 at a leaf.
    threshold : ndarray of shape (node_count,), float64
        Threshold tested at each node; NaN at a leaf.
    left, right : ndarray of shape (node_count,), int
        Children of each node; -1 at a leaf.
    value : ndarray of shape (node_count, n_values)
        Class probabilities (classification, ``n_values = n_classes``) or the
        mean of y (regression, ``n_values = 1``) of the training rows of each node.
    n_samples : ndarray of shape (node_count,), int
        Training rows reaching each node.
    weighted_n_samples : ndarray of shape (node_count,), float64
        Their total sample weight.
    impurity : ndarray of shape (node_count,), float64
        Impurity of each node under the fitting criterion.
    depth : ndarray of shape (node_count,), int
        Depth of each node; the root has depth 0.
    is_classifier : bool
        Whether ``value`` holds class probabilities.
    n_features : int
        Number of features the tree was grown on.
    feature_names, class_names : list of str, optional
        Labels kept for display and export.
    categories : list of tuple of int or None, optional
        Per node, the category codes a membership node sends left.
    category_sign : ndarray of shape (node_count,), optional
        +1, or -1 where a mirrored membership node reads ``-x``.
    category_names : dict {feature: list of str}, optional
    missing_go_to_left : ndarray of shape (node_count,), bool, optional
        Per threshold node, whether a missing value (NaN) goes left; default
        right everywhere. A tree fitted on data with missing values sets it
        as scikit-learn does (the side that scored best, or, where the node
        saw no missing value, its child with more rows); a threshold of
        ``inf`` sends every value left and only the missing ones right.
    input_dtype : {"float64", "float32"}, default="float64"
        Precision X is rounded to before every comparison (``"float32"``:
        scikit-learn's).
    n_outputs : int, default=1
        Targets the tree predicts at once (a multi-output fit, ``trees/tree/_multi_output.py``):
        each row of ``value`` then holds the outputs one after the other, each
        ``value.shape[1] // n_outputs`` wide (:meth:`output_values`).
    check : bool, default=True
        Whether to check that the arrays describe a tree (lengths, children,
        features). False only for arrays the package's own growth built, which
        are consistent by construction: the checks cost more than growing a
        small tree, once per tree of a forest.
    """

    # Targets predicted at once; a multi-output tree sets its own (``n_outputs``).
    n_outputs = 1

    def __init__(
        self,
        feature,
        threshold,
        left,
        right,
        value,
        n_samples,
        weighted_n_samples,
        impurity,
        depth,
        is_classifier,
        n_features,
        feature_names=None,
        class_names=None,
        categories=None,
        category_sign=None,
        category_names=None,
        input_dtype="float64",
        missing_go_to_left=None,
        *,
        n_outputs=1,
        check=True,
    ):
        self.feature = np.asarray(feature, dtype=np.intp)
        self.threshold = np.asarray(threshold, dtype=np.float64)
        self.left = np.asarray(left, dtype=np.intp)
        self.right = np.asarray(right, dtype=np.intp)
        self.value = kernel_array(value, dtype=np.float64).reshape(self.feature.shape[0], -1)
        self.n_samples = np.asarray(n_samples, dtype=np.intp)
        self.weighted_n_samples = np.asarray(weighted_n_samples, dtype=np.float64)
        self.impurity = np.asarray(impurity, dtype=np.float64)
        self.depth = np.asarray(depth, dtype=np.intp)
        self.is_classifier = bool(is_classifier)
        self.n_features = int(n_features)
        self.feature_names = None if feature_names is None else [str(f) for f in feature_names]
        self.class_names = None if class_names is None else [str(c) for c in class_names]
        n = self.feature.shape[0]
        self.categories = (
            [None] * n
            if categories is None
            else [None if c is None else tuple(sorted(int(v) for v in c)) for c in categories]
        )
        # Read by every walk and check: one pass here rather than one per call (a fully grown
        # tree has as many entries as twice its rows). ``categories`` is not changed after.
        self._has_sets = categories is not None and any(c is not None for c in self.categories)
        self.category_sign = (
            np.ones(n, dtype=np.int8)
            if category_sign is None
            else np.asarray(category_sign, dtype=np.int8)
        )
        self.category_names = (
            None
            if category_names is None
            else {int(f): [str(v) for v in names] for f, names in category_names.items()}
        )
        self.input_dtype = check_input_dtype(input_dtype, "input_dtype")
        if n_outputs != 1:  # single-output trees keep the class default (and trees pickled before)
            self.n_outputs = int(n_outputs)
        self.missing_go_to_left = (
            np.zeros(n, dtype=bool)
            if missing_go_to_left is None
            else np.asarray(missing_go_to_left, dtype=bool)
        )
        if check:
            self._check_consistency()

    # ------------------------------------------------------------------ shape
    def _check_consistency(self):
        sizes = {name: getattr(self, name).shape[0] for name in _ARRAY_FIELDS}
        if len(set(sizes.values())) != 1:
            raise ValueError(f"Tree arrays differ in length: {sizes}.")
        leaf = self.feature < 0
        if np.any((self.left[leaf] != -1) | (self.right[leaf] != -1)):
            raise ValueError("A leaf (feature -1) must have left = right = -1.")
        internal = ~leaf
        n = self.node_count
        children = np.concatenate([self.left[internal], self.right[internal]])
        if np.any((children <= 0) | (children >= n)):
            raise ValueError("Children of internal nodes must be node ids in 1..node_count-1.")
        if np.any(self.feature[internal] >= self.n_features):
            raise ValueError("A node tests a feature index beyond n_features.")
        if len(self.categories) != n or self.category_sign.shape[0] != n:
            raise ValueError("categories and category_sign need one entry per node.")
        if self.missing_go_to_left.shape != (n,):
            raise ValueError("missing_go_to_left needs one entry per node.")
        if self._any_sets() and any(
            c is not None and leaf[i] for i, c in enumerate(self.categories)
        ):
            raise ValueError("A leaf cannot hold a category set.")

    def _any_sets(self):
        """Whether any node tests membership (spares the per-node loops when none does)."""
        if "_has_sets" not in self.__dict__:  # a tree pickled before the flag existed
            self._has_sets = any(c is not None for c in self.categories)
        return self._has_sets

    @property
    def is_membership(self):
        """Boolean mask of the nodes that test a categorical feature's membership."""
        if not self._any_sets():
            return np.zeros(self.node_count, dtype=bool)
        return np.array([c is not None for c in self.categories], dtype=bool)

    def _left_codes(self):
        """(node_count, n_codes + 1) lookup of the codes each node sends left, as uint8.

        The last column stands for every code the tree does not know (never left).
        """
        if not self._any_sets():  # no per-node loop (twice a fully grown tree's rows)
            return np.zeros((self.node_count, 1), dtype=np.uint8)
        codes = [v for c in self.categories if c is not None for v in c]
        width = (max(codes) + 1 if codes else 0) + 1
        mask = np.zeros((self.node_count, width), dtype=np.uint8)
        for node, c in enumerate(self.categories):
            if c is not None:
                mask[node, list(c)] = 1
        return mask

    @property
    def node_count(self):
        """Number of nodes, internal and leaves."""
        return int(self.feature.shape[0])

    @property
    def n_leaves(self):
        """Number of leaves."""
        return int(np.count_nonzero(self.feature < 0))

    @property
    def max_depth(self):
        """Depth of the deepest node (0 for a single leaf)."""
        return int(self.depth.max()) if self.node_count else 0

    @property
    def is_leaf(self):
        """Boolean mask of the leaves."""
        return self.feature < 0

    # ---------------------------------------------------------------- routing
    def node_pack(self):
        """The tree in the walks' node format (``_node_records.pack_nodes``), built at its
        first walk and kept: a tree is not changed after construction (``copy``, ``pruned``
        and :func:`mirror` make new trees), so its public arrays (``feature``, ``threshold``,
        ``children_left``, ...) stay what it is and the pack is derived from them once."""
        if getattr(self, "_nodes", None) is None:
            self._nodes = pack_nodes([self], self.value, [-1])
        return self._nodes

    def _leaves(self, X, op):
        """Leaves reached under ``op`` (``"<="``, ``"<"``), or both (``"average"``), by dense or
        sparse rows (``_walks.walk_rows``), as nodes of :meth:`node_pack`.

        Returns
        -------
        ndarray of shape (2, n_samples), int
            Row 0: the leaves under ``op`` (under ``"<="`` for ``"average"``);
            row 1: under ``"<"`` for ``"average"`` (else row 0 again).
        """
        rows, n_rows, walks = walk_rows(X, self.n_features, self.input_dtype)
        leaves = np.empty((2, n_rows, 1), dtype=np.int64)
        kernel, args = walks.chosen(0, self.node_pack().planned_walk(OPERATOR_CODES[op]), rows)
        in_row_blocks(kernel, args, leaves, n_rows)
        return leaves[:, :, 0]

    def apply(self, X, op="<="):
        """Leaf id reached by each row.

        Parameters
        ----------
        X : array-like or sparse matrix of shape (n_samples, n_features)
            A sparse matrix (any scipy format) is walked without being made dense.
        op : {"<=", "<"}, default="<="
            The threshold test. ``"average"`` has no single leaf and is refused.

        Returns
        -------
        ndarray of shape (n_samples,), int
        """
        check_operator(op, ROUTING_OPERATORS)
        return self.node_pack().original[self._leaves(X, op)[0]]

    def decision_path(self, X, op="<="):
        """Nodes each row passes through, as a CSR indicator matrix.

        Returns
        -------
        scipy.sparse.csr_matrix of shape (n_samples, node_count)
            Entry ``(i, j)`` is 1 when row ``i`` visits node ``j``.
        """
        check_operator(op, ROUTING_OPERATORS)
        from scipy import sparse  # here, not above: the compile worker imports no SciPy

        pack = self.node_pack()
        leaves = self._leaves(X, op)[0]
        indptr, indices = leaf_paths(leaves, pack.links(), pack.original)
        data = np.ones(indices.shape[0], dtype=np.int8)
        path = sparse.csr_matrix((data, indices, indptr), shape=(leaves.shape[0], self.node_count))
        path.sort_indices()
        return path

    def predict(self, X, op="<="):
        """Class probabilities (classification) or values (regression).

        Parameters
        ----------
        X : array-like or sparse matrix of shape (n_samples, n_features)
            A sparse matrix (any scipy format) is walked without being made dense.
        op : {"<=", "<", "average"}, default="<="
            ``"average"`` returns the mean of the ``"<="`` and ``"<"``
            predictions (source 000, section 3.3).

        Returns
        -------
        ndarray of shape (n_samples, n_classes) or (n_samples,)
            A multi-output tree's: ``(n_samples, value.shape[1])``, the outputs side by side.
        """
        check_operator(op)
        rows, n_rows, walks = walk_rows(X, self.n_features, self.input_dtype)
        pack = self.node_pack()
        # The walk adds each leaf's value to ``out``: from -0.0, the sum is the value itself,
        # bit for bit (a -0.0 leaf stays -0.0; 0.0 would make it +0.0).
        out = np.full((n_rows, self.value.shape[1]), -0.0)
        kernel, args = walks.chosen(1, pack.planned_walk(OPERATOR_CODES[op]), pack.leaves(), rows)
        in_row_blocks(kernel, args, out, n_rows)
        return out if self.is_classifier or self.n_outputs > 1 else out[:, 0]

    def output_values(self):
        """``value`` in scikit-learn's shape, ``(node_count, n_outputs, max_n_classes)`` (a
        view: ``value`` keeps the outputs side by side, ``trees/tree/_multi_output.py``)."""
        return self.value.reshape(self.node_count, self.n_outputs, -1)

    # ----------------------------------------------------------- persistence
    def to_dict(self):
        """A JSON-safe dict of the tree (NaN thresholds become ``None``)."""
        data = {name: getattr(self, name).tolist() for name in _ARRAY_FIELDS}
        data["threshold"] = [None if np.isnan(t) else t for t in self.threshold.tolist()]
        data.update(
            is_classifier=self.is_classifier,
            n_features=self.n_features,
            feature_names=self.feature_names,
            class_names=self.class_names,
            categories=[None if c is None else list(c) for c in self.categories],
            category_sign=self.category_sign.tolist(),
            category_names=None
            if self.category_names is None
            else {str(f): names for f, names in self.category_names.items()},
            input_dtype=self.input_dtype,
            missing_go_to_left=self.missing_go_to_left.astype(int).tolist(),
            format="tree-bias-lab/tree",
            version=1,
        )
        if self.n_outputs > 1:  # written only when not 1: single-output documents are unchanged
            data["n_outputs"] = self.n_outputs
        return data

    @classmethod
    def from_dict(cls, data):
        """Rebuild a tree written by :meth:`to_dict`.

        Raises
        ------
        ValueError
            When a field is missing or the arrays do not form a valid tree
            (every rule: :mod:`trees.tree._tree_json`).
        """
        data = validate_tree_document(data)
        if not isinstance(data, dict):
            raise ValueError("A tree must be a JSON object (a dict).")
        required = (*_ARRAY_FIELDS, "is_classifier", "n_features")
        missing = [name for name in required if name not in data]
        if missing:
            raise ValueError(f"The tree is missing the fields {missing}.")
        threshold = [np.nan if t is None else t for t in data["threshold"]]
        fields = {name: data[name] for name in _ARRAY_FIELDS if name != "threshold"}
        return cls(
            threshold=threshold,
            is_classifier=data["is_classifier"],
            n_features=data["n_features"],
            feature_names=data.get("feature_names"),
            class_names=data.get("class_names"),
            categories=data.get("categories"),
            category_sign=data.get("category_sign"),
            category_names=data.get("category_names"),
            # Files written before the fields existed compared in float64, sent missing right.
            input_dtype=data.get("input_dtype", "float64"),
            missing_go_to_left=data.get("missing_go_to_left"),
            n_outputs=data.get("n_outputs", 1),  # checked by validate_tree_document
            **fields,
        )

    def to_json(self):
        """The tree as a JSON string (see :meth:`to_dict`)."""
        return json.dumps(self.to_dict())

    @classmethod
    def from_json(cls, text):
        """Rebuild a tree from :meth:`to_json` output (str or UTF-8 bytes).

        Raises ``ValueError`` naming what is wrong: not JSON, too large, nested
        too deeply for the parser (:func:`parse_tree_json`), or a field that
        breaks a rule of :meth:`from_dict`.
        """
        return cls.from_dict(parse_tree_json(text))

    def copy(self, **changes):
        """A copy with some arrays or attributes replaced."""
        fields = {name: getattr(self, name).copy() for name in _ARRAY_FIELDS}
        fields.update(
            is_classifier=self.is_classifier,
            n_features=self.n_features,
            feature_names=self.feature_names,
            class_names=self.class_names,
            categories=list(self.categories),
            category_sign=self.category_sign.copy(),
            category_names=self.category_names,
            input_dtype=self.input_dtype,
            missing_go_to_left=self.missing_go_to_left.copy(),
            n_outputs=self.n_outputs,
        )
        fields.update(changes)
        return Tree(**fields)

    def pruned(self, nodes):
        """A copy in which ``nodes`` become leaves and unreachable nodes are removed.

        Kept nodes are renumbered in breadth-first order (the root stays 0).

        Returns
        -------
        tree : Tree
        kept : ndarray of int
            Old id of each node of the new tree.
        """
        cut = np.zeros(self.node_count, dtype=bool)
        cut[np.asarray(nodes, dtype=np.intp)] = True
        kept, level = [], np.array([0])
        while level.size:
            kept.append(level)
            split = level[(self.feature[level] >= 0) & ~cut[level]]
            level = np.column_stack([self.left[split], self.right[split]]).ravel()
        kept = np.concatenate(kept)
        new_id = np.full(self.node_count, -1)
        new_id[kept] = np.arange(kept.size)
        leaf = (self.feature[kept] < 0) | cut[kept]
        fields = {name: getattr(self, name)[kept].copy() for name in _ARRAY_FIELDS}
        fields["feature"][leaf] = -1
        fields["threshold"][leaf] = np.nan
        fields["left"] = np.where(leaf, -1, new_id[self.left[kept]])
        fields["right"] = np.where(leaf, -1, new_id[self.right[kept]])
        fields["categories"] = [None if leaf[i] else self.categories[k] for i, k in enumerate(kept)]
        fields["category_sign"] = self.category_sign[kept]
        fields["missing_go_to_left"] = self.missing_go_to_left[kept] & ~leaf
        return self.copy(**fields), kept

    def __eq__(self, other):
        if not isinstance(other, Tree):
            return NotImplemented
        same_arrays = all(
            np.array_equal(getattr(self, n), getattr(other, n), equal_nan=True)
            for n in _ARRAY_FIELDS
        )
        return (
            same_arrays
            and self.is_classifier == other.is_classifier
            and self.n_features == other.n_features
            and self.categories == other.categories
            and np.array_equal(self.category_sign, other.category_sign)
            and np.array_equal(self.missing_go_to_left, other.missing_go_to_left)
            and self.input_dtype == other.input_dtype
        )

    __hash__ = None

    def __repr__(self):
        kind = "classification" if self.is_classifier else "regression"
        return (
            f"Tree({kind}, node_count={self.node_count}, n_leaves={self.n_leaves}, "
            f"max_depth={self.max_depth})"
        )


def mirror(tree):
    r"""The mirrored tree: children swapped and thresholds negated at every node.

    Source 000, section 3.1: with :math:`\mathcal{M}` the mirroring,

    .. math:: T(\mathbf{x}, <) = \mathcal{M}[T](-\mathbf{x}, \le)

    holds exactly, because :math:`x < t \iff -x > -t`, and negating a float
    is exact.

    A membership test (categorical feature) has no operator to flip: the
    mirrored node keeps its children and its set, and only records that it
    now reads ``-x`` (``-x in -S`` is ``x in S``), so the identity holds for
    trees with categorical splits too. A missing value (``-NaN`` is NaN)
    goes to the same child as before: its side flips with the children.

    Parameters
    ----------
    tree : Tree

    Returns
    -------
    Tree
        A new tree; ``tree`` is unchanged.
    """
    membership = tree.is_membership
    return tree.copy(
        threshold=-tree.threshold,
        left=np.where(membership, tree.left, tree.right),
        right=np.where(membership, tree.right, tree.left),
        category_sign=np.where(membership, -tree.category_sign, tree.category_sign),
        missing_go_to_left=np.where(
            membership | (tree.feature < 0), tree.missing_go_to_left, ~tree.missing_go_to_left
        ),
    )
