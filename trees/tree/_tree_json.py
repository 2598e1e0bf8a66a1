"""Strict checks of a saved tree, and of a loaded tree against the data it is applied to.

A saved tree (the JSON of :meth:`Tree.to_dict`) may come from anywhere: a
file a user uploads, edited by hand, truncated, or crafted. Without checks, a
``left``/``right`` pair pointing back up the tree makes every walk loop
forever, a shared child or a threshold of NaN gives silent nonsense, and a
category code of a billion allocates gigabytes. :func:`validate_tree_document`
checks everything :class:`Tree` and its users (prediction, decision paths,
drawing, the grower's replay) rely on, and refuses with a ``ValueError``
saying which field is wrong, at which node, and what it should be.

Rules of :func:`validate_tree_document`
---------------------------------------
1. **Document.** A JSON object. ``format``, when present, is
   ``"tree-bias-lab/tree"`` and ``version``, when present, is 1. Fields this
   module does not know are ignored (and passed on).
2. **Required fields.** ``feature``, ``threshold``, ``left``, ``right``,
   ``value``, ``n_samples``, ``weighted_n_samples``, ``impurity``, ``depth``
   (one entry per node each), ``is_classifier``, ``n_features``.
3. **Types.** ``is_classifier`` is true or false. ``n_features``,
   ``feature``, ``left``, ``right``, ``depth``, ``n_samples`` and category
   codes are whole numbers (not ``1.5``, not ``"3"``, not true/false).
   ``threshold``, ``value``, ``impurity`` and ``weighted_n_samples`` are
   numbers (not text, not true/false). No NaN or infinity anywhere; a
   threshold may be null (or NaN) only where no threshold belongs.
4. **Sizes.** 1 to :data:`MAX_NODES` nodes; 1 to :data:`MAX_FEATURES`
   features; at most :data:`MAX_VALUE_CELLS` numbers in ``value``; category
   codes below :data:`MAX_CATEGORY_CODE`, and node count times (largest code
   + 2) at most :data:`MAX_CATEGORY_CELLS` (the routing lookup's size).
5. **Structure.** Node 0 is the root. A leaf has ``feature`` -1 and
   ``left`` = ``right`` = -1. An internal node has a ``feature`` in
   ``0..n_features-1`` and two children that are node ids in
   ``1..node_count-1``. Every node but the root is the child of exactly one
   node, and the root of none (no shared child, no left = right, no link back
   to the root). Every node is reached from the root (so there is no cycle
   and no stray node). ``depth`` of each node is its number of steps below
   the root.
6. **Tests.** An internal node has either a threshold (a number, or ±Infinity) and no
   category set, or a category set and a null threshold; a leaf has
   neither.
7. **Values.** ``value`` has one row per node, all of the same length: 1 for
   regression; for classification the number of classes, shares >= 0 that
   sum to 1 (within 1e-6), or all 0 for a node without weight.
   ``n_samples`` and ``weighted_n_samples`` are >= 0.
8. **Names.** ``feature_names`` is null or ``n_features`` distinct strings;
   ``class_names`` is null, or for classification one distinct string per
   class (regression trees have none).
9. **Categories.** ``categories`` is null or one entry per node: null, or a
   non-empty list of distinct codes >= 0. ``category_sign`` is null or one
   entry per node, each 1 or -1. ``category_names`` is null or an object
   from a feature id (``"0"``..) to a non-empty list of distinct strings; a
   category set of a named feature uses codes below the number of names and
   leaves at least one category to the right.
10. **Missing values.** ``missing_go_to_left`` is null (every missing value
    goes right) or one entry per node, 0 or 1. A threshold may be
    ``Infinity`` or ``-Infinity``: every value goes one way, the missing
    ones the other.

:mod:`trees.tree._tree_match` then compares a valid tree with the data it
is to be used on (features, names, task, classes, categorical features).
"""

import json
import math

import numpy as np

__all__ = [
    "MAX_CATEGORY_CELLS",
    "MAX_CATEGORY_CODE",
    "MAX_FEATURES",
    "MAX_JSON_CHARS",
    "MAX_NODES",
    "MAX_VALUE_CELLS",
    "TREE_FORMAT",
    "TREE_VERSION",
    "parse_tree_json",
    "validate_tree_document",
]

TREE_FORMAT = "tree-bias-lab/tree"
TREE_VERSION = 1
MAX_NODES = 500_000
MAX_FEATURES = 100_000
MAX_VALUE_CELLS = 5_000_000
MAX_CATEGORY_CODE = 100_000
MAX_CATEGORY_CELLS = 50_000_000
MAX_JSON_CHARS = 200_000_000

_INT_FIELDS = ("feature", "left", "right", "depth", "n_samples")
_FLOAT_FIELDS = ("threshold", "weighted_n_samples", "impurity")
_REQUIRED = (*_INT_FIELDS, *_FLOAT_FIELDS, "value", "is_classifier", "n_features")
_SHOWN = 5


# ------------------------------------------------------------------ helpers
def _describe(value):
    """A JSON value as a person reads it, for messages."""
    if value is None:
        return "null"
    if isinstance(value, bool | np.bool_):
        return "true" if value else "false"
    if isinstance(value, str):
        text = value if len(value) <= 20 else value[:20] + "…"
        return f"the text {json.dumps(text)}"
    if isinstance(value, list | tuple | np.ndarray):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, int | np.integer):
        return str(int(value))
    if isinstance(value, float | np.floating):
        number = float(value)
        return "NaN" if math.isnan(number) else repr(number)
    return type(value).__name__


def _nodes(ids):
    """``node 3`` or ``nodes 3, 7, 9 and 4 more``."""
    ids = [int(i) for i in ids]
    if len(ids) == 1:
        return f"node {ids[0]}"
    shown = ", ".join(str(i) for i in ids[:_SHOWN])
    return f"nodes {shown}" + (f" and {len(ids) - _SHOWN} more" if len(ids) > _SHOWN else "")


def _is_int(value):
    return isinstance(value, int | np.integer) and not isinstance(value, bool | np.bool_)


def _is_number(value):
    return isinstance(value, int | float | np.integer | np.floating) and not isinstance(
        value, bool | np.bool_
    )


def _whole(value, field):
    if not _is_int(value):
        raise ValueError(f"'{field}' must be a whole number, not {_describe(value)}.")
    return int(value)


def _sequence(data, field, n=None):
    """The list (or 1-D array) held by ``field``, with ``n`` entries when given."""
    values = data[field]
    if isinstance(values, np.ndarray):
        if values.ndim != 1:
            raise ValueError(
                f"'{field}' must be a flat list, not an array of shape {values.shape}."
            )
    elif not isinstance(values, list | tuple):
        raise ValueError(
            f"'{field}' must be a list with one entry per node, not {_describe(values)}."
        )
    if n is not None and len(values) != n:
        raise ValueError(
            f"'{field}' has {len(values):,} entries but 'feature' has {n:,}: every per-node list "
            "needs one entry per node."
        )
    return values


def _int_array(data, field, n):
    """``field`` as an int64 array, refusing anything but whole numbers."""
    values = _sequence(data, field, n)
    if isinstance(values, np.ndarray):
        if values.dtype.kind not in "iu":
            raise ValueError(
                f"'{field}' must hold whole numbers, not values of type {values.dtype}."
            )
        return values.astype(np.int64)
    if not all(type(v) is int for v in values):  # fast path; the loop below finds the culprit
        for i, v in enumerate(values):
            if not _is_int(v):
                raise ValueError(f"{field}[{i}] must be a whole number, not {_describe(v)}.")
    try:
        return np.array(values, dtype=np.int64)
    except OverflowError as err:
        raise ValueError(f"'{field}' holds a number too large for a node id or count.") from err


def _float_array(data, field, n, allow_null=False):
    """``field`` as a float64 array; null (and NaN) become NaN only when ``allow_null``,
    which also allows ``±Infinity`` (a threshold sending every value to one side and only
    the missing ones to the other, scikit-learn's)."""
    values = _sequence(data, field, n)
    if isinstance(values, np.ndarray):
        if values.dtype.kind not in "iuf":
            raise ValueError(f"'{field}' must hold numbers, not values of type {values.dtype}.")
        array = values.astype(np.float64)
    else:
        if not all(type(v) is float or type(v) is int for v in values):
            for i, v in enumerate(values):
                if not (_is_number(v) or (allow_null and v is None)):
                    raise ValueError(f"{field}[{i}] must be a number, not {_describe(v)}.")
        array = np.array([np.nan if v is None else v for v in values], dtype=np.float64)
    bad = np.flatnonzero(np.zeros(n, dtype=bool) if allow_null else ~np.isfinite(array))
    if bad.size:
        raise ValueError(
            f"{field}[{bad[0]}] is {_describe(array[bad[0]])}: only finite numbers are allowed."
        )
    return array


# ------------------------------------------------------------- the document
def _check_header(data):
    if not isinstance(data, dict):
        raise ValueError(f"A saved tree must be a JSON object, not {_describe(data)}.")
    if "format" in data and data["format"] != TREE_FORMAT:
        raise ValueError(
            f"'format' is {_describe(data['format'])}; a tree saved by this lab has "
            f"'format': {json.dumps(TREE_FORMAT)}."
        )
    if "version" in data and not (_is_int(data["version"]) and data["version"] == TREE_VERSION):
        raise ValueError(
            f"'version' is {_describe(data['version'])}; this lab reads version {TREE_VERSION}."
        )
    missing = [field for field in _REQUIRED if field not in data]
    if missing:
        raise ValueError(
            f"The tree is missing the fields {', '.join(repr(m) for m in missing)}. "
            "Save the tree again with the lab's download button."
        )
    if not isinstance(data["is_classifier"], bool):
        raise ValueError(
            f"'is_classifier' must be true or false, not {_describe(data['is_classifier'])}."
        )
    n_features = _whole(data["n_features"], "n_features")
    if not 1 <= n_features <= MAX_FEATURES:
        raise ValueError(f"'n_features' is {n_features}; it must be 1 to {MAX_FEATURES:,}.")
    n = len(_sequence(data, "feature"))
    if not 1 <= n <= MAX_NODES:
        raise ValueError(
            f"The tree has {n:,} nodes; a saved tree has 1 to {MAX_NODES:,} nodes. "
            + ("Save a tree with at least its root." if n == 0 else "Prune it before saving.")
        )
    return n, n_features


def _check_links(feature, left, right, n_features):
    """Rule 5's local part: leaves, feature ids and child ids."""
    n = feature.size
    below = np.flatnonzero(feature < -1)
    if below.size:
        raise ValueError(
            f"feature[{below[0]}] is {feature[below[0]]}: a node tests a feature 0 to "
            f"{n_features - 1}, or -1 at a leaf."
        )
    beyond = np.flatnonzero(feature >= n_features)
    if beyond.size:
        raise ValueError(
            f"feature[{beyond[0]}] is {feature[beyond[0]]}, but the tree has {n_features} "
            f"feature(s) (ids 0 to {n_features - 1})."
        )
    leaf = feature == -1
    bad_leaf = np.flatnonzero(leaf & ((left != -1) | (right != -1)))
    if bad_leaf.size:
        raise ValueError(f"{_nodes(bad_leaf)}: a leaf (feature -1) must have left = right = -1.")
    for side, child in (("left", left), ("right", right)):
        bad = np.flatnonzero(~leaf & ((child < 1) | (child >= n)))
        if bad.size:
            i = bad[0]
            hint = (
                f"node ids 1 to {n - 1} (node 0 is the root)"
                if n > 1
                else "other nodes, and this tree has only its root: make it a leaf (feature -1)"
            )
            raise ValueError(
                f"Children of internal nodes are {hint}, but {side}[{i}] is {child[i]}."
            )
    same = np.flatnonzero(~leaf & (left == right))
    if same.size:
        raise ValueError(f"left[{same[0]}] = right[{same[0]}]: a node's two children differ.")
    return leaf


def _parents(leaf, left, right):
    """Each node's parent (-1 for the root), refusing shared children and stray nodes."""
    n = leaf.size
    internal = np.flatnonzero(~leaf)
    children = np.concatenate([left[internal], right[internal]])
    counts = np.bincount(children, minlength=n)
    # No child is node 0: _check_links has refused child ids below 1.
    shared = np.flatnonzero(counts > 1)
    if shared.size:
        c = shared[0]
        owners = internal[(left[internal] == c) | (right[internal] == c)]
        raise ValueError(
            f"Node {c} is a child of {_nodes(owners)}: in a tree every node has one parent."
        )
    stray = np.flatnonzero(counts[1:] == 0) + 1
    if stray.size:
        raise ValueError(
            f"{_nodes(stray).capitalize()} {'is' if stray.size == 1 else 'are'} the child of no "
            "node: every node but the root hangs from the tree."
        )
    parent = np.full(n, -1, dtype=np.int64)
    parent[left[internal]] = internal
    parent[right[internal]] = internal
    return parent


def _depths(parent):
    """Steps from each node up to the root, refusing nodes that never reach it.

    With one parent per node, the nodes the root does not reach are exactly
    those on or below a cycle. Pointer jumping (each round doubles how far
    up every node looks) finds both in log2(node_count) vectorised rounds,
    where walking a cycle would never end.
    """
    n = parent.size
    ancestor = np.where(parent < 0, 0, parent)
    steps = (parent >= 0).astype(np.int64)
    for _ in range(max(1, math.ceil(math.log2(n))) + 1):
        steps = steps + steps[ancestor]
        ancestor = ancestor[ancestor]
    lost = np.flatnonzero(ancestor != 0)
    if lost.size:
        raise ValueError(
            f"{_nodes(lost).capitalize()} cannot be reached from the root: their left/right links "
            "form a cycle. A tree has no path back up."
        )
    return steps


def _check_depth(depth, steps):
    wrong = np.flatnonzero(depth != steps)
    if wrong.size:
        i = wrong[0]
        raise ValueError(
            f"depth[{i}] is {depth[i]}, but node {i} is {steps[i]} step(s) below the root."
        )


def _check_tests(leaf, threshold, categories):
    """Rule 6: one kind of test per internal node, none at a leaf."""
    has_set = np.array([c is not None for c in categories], dtype=bool)
    has_threshold = ~np.isnan(threshold)
    bad = np.flatnonzero(leaf & (has_set | has_threshold))
    if bad.size:
        raise ValueError(f"threshold[{bad[0]}] or categories[{bad[0]}]: a leaf has neither.")
    both = np.flatnonzero(has_set & has_threshold)
    if both.size:
        raise ValueError(
            f"Node {both[0]} has a category set and a threshold: a category node's threshold is null."
        )
    neither = np.flatnonzero(~leaf & ~has_set & ~has_threshold)
    if neither.size:
        raise ValueError(
            f"threshold[{neither[0]}] is null, but node {neither[0]} is a split: give it a finite "
            "threshold (or a category set)."
        )


def _value_array(data, n, is_classifier):
    """Rule 7 on ``value``: one row per node, one value (regression) or class shares."""
    values = data["value"]
    if isinstance(values, np.ndarray):
        if values.ndim != 2 or values.shape[0] != n or values.dtype.kind not in "iuf":
            raise ValueError(f"'value' must be {n:,} rows of numbers, one per node.")
        array = values.astype(np.float64)
    else:
        values = _sequence(data, "value", n)
        if not all(isinstance(row, list | tuple) for row in values):
            i = next(i for i, row in enumerate(values) if not isinstance(row, list | tuple))
            raise ValueError(f"value[{i}] must be a list of numbers, not {_describe(values[i])}.")
        width = len(values[0])
        if width * n > MAX_VALUE_CELLS:
            raise ValueError(
                f"'value' would hold {width * n:,} numbers; a saved tree holds at most "
                f"{MAX_VALUE_CELLS:,} (nodes x classes)."
            )
        uneven = [i for i, row in enumerate(values) if len(row) != width]
        if uneven:
            raise ValueError(
                f"value[{uneven[0]}] has {len(values[uneven[0]])} entries but value[0] has "
                f"{width}: every node has one entry per class."
            )
        if not all(type(v) is float or type(v) is int for row in values for v in row):
            i, j = next(
                (i, j)
                for i, row in enumerate(values)
                for j, v in enumerate(row)
                if not _is_number(v)
            )
            raise ValueError(f"value[{i}][{j}] must be a number, not {_describe(values[i][j])}.")
        array = np.array(values, dtype=np.float64).reshape(n, width)
    return _check_values(array, is_classifier, _outputs(data, array.shape[1]))


def _outputs(data, width):
    """A saved tree's ``n_outputs`` (1 when absent, as in every single-output document): a
    positive integer dividing the width of ``value`` (``trees/tree/_multi_output.py``)."""
    n_outputs = data.get("n_outputs", 1)
    if (
        not isinstance(n_outputs, int)
        or isinstance(n_outputs, bool)
        or n_outputs < 1
        or width % n_outputs
    ):
        raise ValueError(
            f"'n_outputs' must be a positive integer dividing the {width} values of each node, "
            f"not {_describe(n_outputs)}. Save the tree again with Tree.to_json."
        )
    return n_outputs


def _check_values(array, is_classifier, n_outputs=1):
    if array.shape[1] == 0:
        raise ValueError("'value' rows are empty: each node needs its prediction.")
    bad = np.argwhere(~np.isfinite(array))
    if bad.size:
        i, j = bad[0]
        raise ValueError(f"value[{i}][{j}] is {_describe(array[i, j])}: only finite numbers.")
    if not is_classifier:
        if array.shape[1] != n_outputs:
            raise ValueError(
                f"A regression tree has one value per node and output ({n_outputs}), but "
                f"'value' rows have {array.shape[1]}."
            )
        return array
    negative = np.argwhere(array < 0)
    if negative.size:
        i, j = negative[0]
        raise ValueError(f"value[{i}][{j}] is {array[i, j]!r}: class shares cannot be negative.")
    sums = array.reshape(array.shape[0], n_outputs, -1).sum(axis=2)  # each output's shares
    wrong = ((np.abs(sums - 1.0) > 1e-6) & (sums != 0)).any(axis=1)
    off = np.flatnonzero(wrong)
    sums = sums[np.arange(sums.shape[0]), np.abs(sums - 1.0).argmax(axis=1)]
    if off.size:
        raise ValueError(f"The class shares of node {off[0]} add up to {sums[off[0]]:.6g}, not 1.")
    return array


def _check_counts(n_samples, weighted):
    for field, array in (("n_samples", n_samples), ("weighted_n_samples", weighted)):
        negative = np.flatnonzero(array < 0)
        if negative.size:
            raise ValueError(f"{field}[{negative[0]}] is negative: a node holds 0 rows or more.")


def _names(data, field, count, what):
    """Rule 8: null, or ``count`` distinct strings."""
    names = data.get(field)
    if names is None:
        return None
    if not isinstance(names, list | tuple):
        raise ValueError(f"'{field}' must be a list of names or null, not {_describe(names)}.")
    if len(names) != count:
        raise ValueError(f"'{field}' has {len(names):,} names but the tree has {count:,} {what}.")
    for i, name in enumerate(names):
        if not isinstance(name, str):
            raise ValueError(f"{field}[{i}] must be a name (text), not {_describe(name)}.")
    if len(set(names)) != len(names):
        twice = next(name for name in names if names.count(name) > 1)
        raise ValueError(f"'{field}' names {json.dumps(twice)} twice: names must differ.")
    return list(names)


def _category_sets(data, n):
    """Rule 9 on ``categories``: null or sets of distinct codes in range, per node."""
    raw = data.get("categories")
    if raw is None:
        return [None] * n
    sets = []
    for i, codes in enumerate(_sequence(data, "categories", n)):
        if codes is None:
            sets.append(None)
            continue
        if not isinstance(codes, list | tuple) or not codes:
            raise ValueError(
                f"categories[{i}] must be null or a non-empty list of category codes, "
                f"not {_describe(codes) if codes is not None and codes != [] else 'an empty list'}."
            )
        for code in codes:
            if not _is_int(code) or not 0 <= code < MAX_CATEGORY_CODE:
                raise ValueError(
                    f"categories[{i}] holds {_describe(code)}: category codes are whole numbers "
                    f"0 to {MAX_CATEGORY_CODE - 1:,}."
                )
        if len(set(codes)) != len(codes):
            raise ValueError(f"categories[{i}] lists a code twice.")
        sets.append(tuple(sorted(int(c) for c in codes)))
    largest = max((s[-1] for s in sets if s is not None), default=-1)
    if largest >= 0 and n * (largest + 2) > MAX_CATEGORY_CELLS:
        raise ValueError(
            f"Category code {largest:,} on a tree of {n:,} nodes needs a lookup of "
            f"{n * (largest + 2):,} cells; at most {MAX_CATEGORY_CELLS:,} are allowed."
        )
    return sets


def _category_signs(data, n):
    if data.get("category_sign") is None:
        return None
    signs = _int_array(data, "category_sign", n)
    bad = np.flatnonzero((signs != 1) & (signs != -1))
    if bad.size:
        raise ValueError(f"category_sign[{bad[0]}] is {signs[bad[0]]}: it must be 1 or -1.")
    return signs


def _missing_sides(data, n):
    """Rule 10: ``missing_go_to_left`` is null or one 0 or 1 per node."""
    if data.get("missing_go_to_left") is None:
        return None
    sides = _int_array(data, "missing_go_to_left", n)
    bad = np.flatnonzero((sides != 0) & (sides != 1))
    if bad.size:
        raise ValueError(
            f"missing_go_to_left[{bad[0]}] is {sides[bad[0]]}: it must be 0 (right) or 1 (left)."
        )
    return sides.astype(bool)


def _category_names(data, n_features):
    """Rule 9 on ``category_names``: feature id -> distinct names."""
    raw = data.get("category_names")
    if raw is None:
        return None
    if not isinstance(raw, dict):
        raise ValueError(f"'category_names' must be an object or null, not {_describe(raw)}.")
    names = {}
    for key, values in raw.items():
        text = str(key)
        if not (_is_int(key) or (isinstance(key, str) and text.isdigit())):
            raise ValueError(f"category_names has the key {_describe(key)}: keys are feature ids.")
        feature = int(text)
        if not 0 <= feature < n_features:
            raise ValueError(
                f"category_names names feature {feature}, but the tree has features 0 to "
                f"{n_features - 1}."
            )
        label = f"category_names[{json.dumps(text)}]"
        if not isinstance(values, list | tuple) or not values:
            raise ValueError(f"{label} must be a non-empty list of names.")
        if len(values) > MAX_CATEGORY_CODE:
            raise ValueError(f"{label} has {len(values):,} names; at most {MAX_CATEGORY_CODE:,}.")
        if not all(isinstance(v, str) for v in values) or len(set(values)) != len(values):
            raise ValueError(f"{label} must hold distinct names (text).")
        names[str(feature)] = list(values)
    return names


def _check_sets_against_names(feature, sets, names):
    if not names:
        return
    for node, codes in enumerate(sets):
        known = None if codes is None else names.get(str(int(feature[node])))
        if known is None:
            continue
        if codes[-1] >= len(known):
            raise ValueError(
                f"categories[{node}] holds code {codes[-1]}, but feature {feature[node]} has "
                f"{len(known)} categories (codes 0 to {len(known) - 1})."
            )
        if len(codes) == len(known):
            raise ValueError(
                f"categories[{node}] sends every category of feature {feature[node]} left: "
                "a split leaves at least one to the right."
            )


def validate_tree_document(data):
    """Check a saved tree against every rule of this module; return it cleaned.

    Parameters
    ----------
    data : dict
        As written by :meth:`Tree.to_dict` (parsed from JSON).

    Returns
    -------
    dict
        The same document with every checked field in the form :class:`Tree`
        takes (arrays, NaN for null thresholds, sorted category tuples);
        unknown fields are passed on unchanged.

    Raises
    ------
    ValueError
        Naming the first field that breaks a rule, the node, and the rule.
    """
    n, n_features = _check_header(data)
    ints = {field: _int_array(data, field, n) for field in _INT_FIELDS}
    leaf = _check_links(ints["feature"], ints["left"], ints["right"], n_features)
    parent = _parents(leaf, ints["left"], ints["right"])
    _check_depth(ints["depth"], _depths(parent))
    floats = {
        field: _float_array(data, field, n, allow_null=field == "threshold")
        for field in _FLOAT_FIELDS
    }
    sets = _category_sets(data, n)
    _check_tests(leaf, floats["threshold"], sets)
    value = _value_array(data, n, data["is_classifier"])
    _check_counts(ints["n_samples"], floats["weighted_n_samples"])
    category_names = _category_names(data, n_features)
    _check_sets_against_names(ints["feature"], sets, category_names)
    clean = dict(data)
    clean.update(ints)
    clean.update(floats)
    clean.update(
        value=value,
        n_features=n_features,
        feature_names=_names(data, "feature_names", n_features, "features"),
        class_names=_names(
            data, "class_names", value.shape[1] if data["is_classifier"] else 0, "classes"
        ),
        categories=None if data.get("categories") is None else sets,
        category_sign=_category_signs(data, n),
        category_names=category_names,
        missing_go_to_left=_missing_sides(data, n),
    )
    return clean


def parse_tree_json(text):
    """The JSON document of a saved tree, refusing what ``json.loads`` would crash on.

    Parameters
    ----------
    text : str or bytes
        The file's content (bytes are read as UTF-8).

    Returns
    -------
    object
        The parsed document, for :meth:`Tree.from_dict` (which validates it).

    Raises
    ------
    ValueError
        Not UTF-8, over :data:`MAX_JSON_CHARS` characters, not JSON, or
        nested so deeply that the parser would exhaust the stack.
    """
    if isinstance(text, bytes | bytearray):
        try:
            text = bytes(text).decode("utf-8-sig")
        except UnicodeDecodeError as err:
            raise ValueError(
                "The file is not UTF-8 text: a saved tree is a JSON text file."
            ) from err
    if len(text) > MAX_JSON_CHARS:
        raise ValueError(
            f"The file has {len(text):,} characters; a saved tree has at most {MAX_JSON_CHARS:,}."
        )
    try:
        return json.loads(text)
    except json.JSONDecodeError as err:
        raise ValueError(
            f"The file is not valid JSON: {err.msg} (line {err.lineno}, column {err.colno})."
        ) from err
    except RecursionError as err:
        raise ValueError("The file nests lists or objects too deeply to be a saved tree.") from err
    except ValueError as err:  # e.g. an integer with more digits than Python converts
        raise ValueError(f"The file is not a saved tree: {err}.") from err
