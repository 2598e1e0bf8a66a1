"""What a skops file says about its trees, checked before skops builds them.

skops builds a scikit-learn ``Tree`` from the file's own numbers: the
constructor's ``n_features``, ``n_classes`` and ``n_outputs``, then the
state's ``node_count``, ``nodes`` and ``values``. scikit-learn's C code
trusts two of them (``sklearn/tree/_tree.pyx``, 1.3 to 1.9):

* ``n_outputs`` entries of ``n_classes`` are read, whatever its length (a
  read past the array);
* ``node_count`` is kept as given, while the nodes held are as many as the
  ``nodes`` array has: every later read of ``children_left`` reads
  ``node_count`` entries (past the memory it allocated).

So before :func:`skops.io.loads` runs, the file's schema (``schema.json``)
is read here and every tree it describes must declare one output, one
class count within the limits, and as many nodes as its arrays hold (their
``.npy`` headers are read, never their data). The tree's children are
checked after loading (``_sklearn._checked_trees``).

skops builds an object once per ``__id__`` and reuses it wherever the id
comes again (the tree's ``n_features`` is the estimator's
``n_features_in_``, one int): a schema whose nodes of one id say different
things would have a tree read one value here and be built with another, so
it is refused first.
"""

import json

import numpy as np

from ._build import LIMITS, ModelFileError, check_count, need

__all__ = ["check_skops_trees"]

_TREE = ("sklearn.tree._tree", "Tree")
# The .npy header versions numpy writes (np.save picks 1.0 unless the header is huge).
_HEADER_READERS = {(1, 0): np.lib.format.read_array_header_1_0,
                   (2, 0): np.lib.format.read_array_header_2_0}  # fmt: skip


def _nodes_of(schema):
    """Every dict of the schema, depth first (the schema's nesting is bounded by its parser)."""
    stack = [schema]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            yield node
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)


def _integer(node, what):
    """The whole number a schema's ``JsonNode`` holds."""
    need(isinstance(node, dict) and node.get("__loader__") == "JsonNode",
         f"A tree of the skops file gives its {what} in an unexpected form.")  # fmt: skip
    try:
        value = json.loads(node.get("content"))
    except (TypeError, ValueError):
        value = None
    need(isinstance(value, int) and not isinstance(value, bool),
         f"A tree of the skops file gives its {what} as {node.get('content')!r}.")  # fmt: skip
    return value


def _array_shape(archive, node, what):
    """The shape an ``NdArrayNode``'s ``.npy`` member declares (its header only)."""
    need(isinstance(node, dict) and node.get("__loader__") == "NdArrayNode",
         f"A tree of the skops file gives its {what} in an unexpected form.")  # fmt: skip
    try:
        with archive.open(str(node.get("file"))) as member:
            version = np.lib.format.read_magic(member)
            need(version in _HEADER_READERS, f"A {what} array of the skops file is of an "
                 f"unknown .npy version {version}.")  # fmt: skip
            shape, _, _ = _HEADER_READERS[version](member)
    except (KeyError, ValueError, OSError) as error:
        if isinstance(error, ModelFileError):
            raise
        raise ValueError(f"the {what} array of a tree is unreadable ({error})") from None
    return shape


def _array_values(archive, node, what, most):
    """The small integer array of an ``NdArrayNode`` (at most ``most`` entries)."""
    shape = _array_shape(archive, node, what)
    need(len(shape) == 1 and shape[0] <= most, f"A tree of the skops file has {shape} {what}.")
    with archive.open(str(node["file"])) as member:
        values = np.load(member, allow_pickle=False)
    need(values.dtype.kind == "i", f"A tree of the skops file gives its {what} as {values.dtype}.")
    return values


def _check_tree(archive, node):
    args = (node.get("__reduce__") or {}).get("args") or {}
    parts = args.get("content") if isinstance(args, dict) else None
    need(isinstance(parts, list) and len(parts) == 3,
         "A tree of the skops file lacks its constructor's arguments.")  # fmt: skip
    check_count(_integer(parts[0], "number of features"), "features", "features")
    n_outputs = _integer(parts[2], "number of outputs")
    need(n_outputs == 1, "Multi-output scikit-learn models are not supported.")
    n_classes = _array_values(archive, parts[1], "class counts", most=n_outputs)
    need(n_classes.shape == (1,), "A tree of the skops file has no class count for its output.")
    check_count(n_classes[0], "classes", "classes")
    state = node.get("content") or {}
    fields = state.get("content") if isinstance(state, dict) else None
    need(isinstance(fields, dict) and {"node_count", "nodes", "values"} <= fields.keys(),
         "A tree of the skops file lacks its nodes.")  # fmt: skip
    count = check_count(_integer(fields["node_count"], "node count"), "nodes_per_tree",
                        "nodes in a tree")  # fmt: skip
    shape = _array_shape(archive, fields["nodes"], "nodes")
    need(shape == (count,),
         f"A tree of the skops file declares {count:,} nodes but holds {shape}.")  # fmt: skip
    return count


def _one_value_per_id(schema):
    """Refuse a schema in which two nodes of one ``__id__`` hold different values."""
    seen = {}
    for node in _nodes_of(schema):
        if "__id__" not in node or node.get("__loader__") not in ("JsonNode", "NdArrayNode"):
            continue
        value = (node.get("__loader__"), str(node.get("content")), str(node.get("file")))
        need(seen.setdefault(str(node["__id__"]), value) == value,
             "The skops file gives one object two different values, so it was edited, not "
             "saved by skops: save the model again with skops.io.dump.")  # fmt: skip


def check_skops_trees(archive, schema):
    """Check every scikit-learn ``Tree`` a skops file's schema describes (module docstring).

    Parameters
    ----------
    archive : zipfile.ZipFile
        The skops file.
    schema : dict
        Its ``schema.json``, parsed.

    Raises
    ------
    ModelFileError
        A tree whose declared outputs, classes or nodes are not what its arrays hold, or
        beyond :data:`LIMITS`.
    ValueError
        An array the schema names that cannot be read.
    """
    _one_value_per_id(schema)
    counts = [_check_tree(archive, node) for node in _nodes_of(schema)
              if (node.get("__module__"), node.get("__class__")) == _TREE]  # fmt: skip
    check_count(len(counts), "trees", "trees")
    need(sum(counts) <= LIMITS["nodes"],
         f"The skops file holds {sum(counts):,} nodes, and at most {LIMITS['nodes']:,} are "
         "accepted: export a smaller model.")  # fmt: skip
