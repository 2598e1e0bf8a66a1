"""LightGBM models, read from the library's own text model format.

Why the text model (``Booster.model_to_string()``, the file of
``save_model``): it is what LightGBM itself loads, it writes every threshold
with all 17 significant digits (``dump_model()``'s JSON nests each tree as
deep as it is, which a parser must recurse through), its per-tree arrays map
one to one onto the common representation, and it is read here without
LightGBM, so an uploaded file is checked before the library ever sees it.

Verified behaviour (tests/test_interop_import.py): a row goes left when
``x <= threshold`` compared in float64; ``decision_type`` packs the
categorical flag (bit 0), the default direction (bit 1: left) and the
missing type (bits 2-3: None, Zero, NaN; see ``_predict.MISSING_KINDS``);
leaf values include the learning rate, and the first iteration's include
the initial score, so the base score is 0. LightGBM reads an input value
with ``|x| <= 1e-35`` as 0 (it keeps only the values beyond its zero
threshold), which matters on its splits at that threshold under ``<``.

What the rows must be (``trees.interop._inputs``): the header's
``feature_names`` (spaces saved as "_"); categorical features, whose
``feature_infos`` list their codes ("-1:0:2:1") where a numeric feature's
give a range ("[0:9]"); and, for a model trained on a DataFrame, their
categories in code order, the ``pandas_categorical`` line after the
parameters (one list per categorical feature, in column order). A value
outside them is missing, as LightGBM's own reading makes it (it sets the
column's categories to those, and an unknown value's code to NaN).
"""

import json

import numpy as np

from ._build import LIMITS, Budget, ModelFileError, check_count, make_tree, need
from ._inputs import model_inputs
from ._model import ImportedModel

__all__ = ["from_lightgbm", "lightgbm_text"]

_IDENTITY = ("regression", "regression_l1", "huber", "fair", "quantile", "mape")
_EXP = ("poisson", "gamma", "tweedie")
_MISSING = {0: 2, 1: 1, 2: 0}  # LightGBM's missing type -> _predict.MISSING_KINDS


def lightgbm_text(model):
    """The text model of a LightGBM ``Booster`` or scikit-learn wrapper."""
    booster = getattr(model, "booster_", model)
    return booster.model_to_string()


_TRUNCATED = (
    "save the model again with model.booster_.save_model('model.txt') and use the whole file."
)


def _fields(block):
    """A block's ``key=value`` lines as a dict of strings."""
    pairs = (line.split("=", 1) for line in block.splitlines() if "=" in line)
    return {key.strip(): value.strip() for key, value in pairs}


def _tree_blocks(header, text, start):
    """Each tree's text, checked against the end marker and the header's ``tree_sizes``.

    LightGBM ends its trees with an ``end of trees`` line and (since version 3)
    declares every tree's length in bytes (``tree_sizes``), which it reads the
    trees by: a file cut short lacks the line or the bytes, where splitting on
    ``Tree=`` would read the trees before the cut as the whole model.
    """
    end = text.find("\nend of trees", start)
    need(end >= 0, "The LightGBM model text has no 'end of trees' line: it is cut short "
         f"(LightGBM itself cannot load it); {_TRUNCATED}")  # fmt: skip
    region = text[start + 1 : end + 1] if start >= 0 else ""
    if "tree_sizes" not in header:
        blocks = ("\n" + region).split("\nTree=")[1:] if region else []
        return [f"Tree={block}" for block in blocks[: check_count(len(blocks), "trees", "trees")]]
    try:
        sizes = [int(size) for size in header["tree_sizes"].split()]
    except ValueError:
        raise ModelFileError("The model text's tree_sizes are not whole numbers.") from None
    check_count(len(sizes), "trees", "trees")
    cuts = np.concatenate([[0], np.cumsum(sizes)])
    blocks = [region[a:b] for a, b in zip(cuts[:-1], cuts[1:], strict=True)]
    need(min(sizes, default=0) >= 0 and cuts[-1] == len(region)
         and all(block.startswith("Tree=") for block in blocks),
         f"The LightGBM model text declares {len(sizes):,} trees and their sizes in bytes "
         f"(tree_sizes), and holds {region.count('Tree='):,} trees of {len(region):,} bytes: it "
         f"is cut short or was edited; {_TRUNCATED}")  # fmt: skip
    return blocks


def _sections(text):
    """The header's ``key=value`` lines and each tree's, as dicts of strings."""
    need(isinstance(text, str) and text.startswith("tree"), "This is not a LightGBM model text.")
    start = text.find("\nTree=")
    header = _fields(text[: start if start >= 0 else len(text)])
    return header, [_fields(block) for block in _tree_blocks(header, text, start)]


def _array(tree, key, dtype, size):
    """A tree's space-separated array ``key``, checked to hold ``size`` numbers."""
    text = tree.get(key, "")
    try:
        values = np.array(text.split(), dtype=dtype) if text else np.zeros(0, dtype=dtype)
    except (ValueError, OverflowError):
        raise ModelFileError(
            f"The tree field {key!r} holds something other than numbers."
        ) from None
    need(values.shape == (size,), f"The tree field {key!r} has {values.size} values, not {size}.")
    return values


def _bitsets(tree):
    """A tree's categorical bitsets (``cat_boundaries``, ``cat_threshold``) as bit arrays.

    Checked against the declared counts before anything of their size is
    built: ``num_cat`` bitsets, boundaries sorted from 0, at most
    ``LIMITS["category_code"]`` codes (32 a word), each word a uint32.
    """
    n_cat = check_count(tree.get("num_cat", 0), "trees", "categorical splits")
    bounds = _array(tree, "cat_boundaries", np.int64, n_cat + 1)
    need(bounds[0] == 0 and np.all(np.diff(bounds) >= 0), "The categorical bounds are not sorted.")
    need(bounds[-1] <= LIMITS["category_code"] // 32,
         f"The categorical bitsets of a tree name more than {LIMITS['category_code']:,} "
         "categories: export a model with fewer categories.")  # fmt: skip
    words = _array(tree, "cat_threshold", np.int64, int(bounds[-1]))
    need(np.all((words >= 0) & (words < 2**32)), "A categorical bitset holds a word that is not "
         "a 32-bit number.")  # fmt: skip
    bits = np.unpackbits(words.astype("<u4").view(np.uint8), bitorder="little")
    return [bits[32 * a : 32 * b] for a, b in zip(bounds[:-1], bounds[1:], strict=True)]


def _categories(tree, threshold, categorical, budget):
    """The codes each categorical node sends left (LightGBM's ``cat_threshold`` bitsets).

    The codes of every node are counted (``budget``: the model's
    ``LIMITS["category_entries"]``) before any node's set is made: a file
    naming one large bitset from thousands of nodes multiplies it.
    """
    sets = [None] * threshold.size
    if not categorical.any():
        return None
    bitsets = _bitsets(tree)
    nodes = np.flatnonzero(categorical)
    index = threshold[nodes]
    need(np.all((index >= 0) & (index < len(bitsets)) & (index == np.floor(index))),
         "A categorical split points outside the bitsets.")  # fmt: skip
    index = index.astype(np.int64)
    sizes = np.array([int(bits.sum()) for bits in bitsets], dtype=np.int64)
    budget.spend(sizes[index].sum(), "category codes named by categorical splits")
    codes = [tuple(int(c) for c in np.flatnonzero(bits)) for bits in bitsets]
    for node, k in zip(nodes, index, strict=True):
        sets[node] = codes[k]
    return sets


def _tree(tree, n_features, budget):
    """One tree as (Tree, missing_left, missing_kind): internal nodes first, then leaves.

    A numeric threshold that is not a finite number is refused: LightGBM itself
    stops on such a file (``nan``, ``inf`` cannot be a split of its bins).
    """
    n_leaves = check_count(tree.get("num_leaves"), "nodes_per_tree", "leaves in a tree")
    need(n_leaves >= 1, "A tree of the model has no leaves.")
    need(tree.get("is_linear", "0") == "0", "Linear-tree LightGBM models are not supported.")
    n_int = n_leaves - 1
    leaf_value = _array(tree, "leaf_value", np.float64, n_leaves)
    feature = _array(tree, "split_feature", np.int64, n_int)
    threshold = _array(tree, "threshold", np.float64, n_int)
    decision = _array(tree, "decision_type", np.int64, n_int)
    children = [_array(tree, key, np.int64, n_int) for key in ("left_child", "right_child")]
    left, right = (np.where(c >= 0, c, n_int + (-1 - c)) for c in children)
    categorical = (decision & 1).astype(bool)
    sets = _categories(tree, threshold, categorical, budget)
    pad = np.full(n_leaves, -1)
    built = make_tree(
        np.concatenate([feature, pad]), np.concatenate([np.where(categorical, np.nan, threshold),
        np.full(n_leaves, np.nan)]), np.concatenate([left, pad]), np.concatenate([right, pad]),
        np.concatenate([np.zeros(n_int), leaf_value]), n_features, "float64",
        categories=None if sets is None else sets + [None] * n_leaves,
    )  # fmt: skip
    # A lookup table, not np.vectorize: a tree of one leaf has no decision codes at all.
    missing = np.array([_MISSING.get(code, 0) for code in range(4)], np.int8)[(decision >> 2) & 3]
    missing = np.where(categorical, 0, missing)
    default_left = ((decision >> 1) & 1).astype(bool) & ~categorical
    zeros = np.zeros(n_leaves)
    return (built, np.concatenate([default_left, zeros.astype(bool)]),
            np.concatenate([missing, zeros]).astype(np.int8))  # fmt: skip


def _objective(header):
    """(task, link, n_outputs) from the header's ``objective`` line."""
    words = header.get("objective", "").split()
    need(words, "The model text names no objective.")
    name, options = words[0], dict(w.split(":", 1) for w in words[1:] if ":" in w)
    if name == "binary":
        need(float(options.get("sigmoid", 1)) == 1.0, "Only sigmoid:1 binary models are supported.")
        return "binary", "logistic", 1
    if name in ("multiclass", "softmax"):
        n = check_count(options.get("num_class", header.get("num_class")), "classes", "classes")
        return "multiclass", "softmax", n
    if name in _IDENTITY or name in _EXP:
        return "regression", "exp" if name in _EXP else "identity", 1
    raise ModelFileError(f"The LightGBM objective {name!r} is not supported.")


def _categorical_features(header, trees, n_features):
    """The features LightGBM reads as categories: listed as codes in ``feature_infos``, or
    split on by a categorical node."""
    infos = header.get("feature_infos", "").split()
    listed = {j for j, info in enumerate(infos[:n_features])
              if info != "none" and not info.startswith("[")}  # fmt: skip
    split = {int(f) for tree in trees for f, s in zip(tree.feature, tree.categories, strict=True)
             if s is not None and f >= 0}  # fmt: skip
    return frozenset(listed | split)


def _pandas_categories(text, coded):
    """The categories of each categorical feature of a model trained on a DataFrame (the
    ``pandas_categorical`` line, in column order), or {} when they are not stored."""
    tail = text.rsplit("end of trees", 1)[-1]
    line = next((row for row in tail.splitlines() if row.startswith("pandas_categorical:")), "")
    try:
        lists = json.loads(line.partition(":")[2] or "null")
    except ValueError:
        raise ModelFileError("The model's pandas_categorical line is not valid JSON.") from None
    if not isinstance(lists, list) or len(lists) != len(coded):
        return {}
    need(all(isinstance(c, list) for c in lists), "pandas_categorical is not a list of lists.")
    return {j: tuple(c) for j, c in zip(sorted(coded), lists, strict=True)}


def _row_inputs(header, text, trees, n_features, kind):
    names = header.get("feature_names", "").split() or None
    coded = _categorical_features(header, trees, n_features)
    return model_inputs(names, n_features, coded=coded, categories=_pandas_categories(text, coded),
                        library="lightgbm", kind=kind)  # fmt: skip


def from_lightgbm(text, kind="Booster", classes=None):
    """An :class:`ImportedModel` from a LightGBM text model (module docstring).

    Parameters
    ----------
    text : str
        ``booster.model_to_string()`` or a ``save_model`` file's text.
    kind : str
    classes : array-like, optional
        The wrapper's ``classes_`` (default: 0..n_classes-1).
    """
    header, blocks = _sections(text)
    task, link, n_outputs = _objective(header)
    n_features = check_count(int(header.get("max_feature_idx", -1)) + 1, "features", "features")
    per_iteration = check_count(header.get("num_tree_per_iteration", 1), "classes", "trees")
    need(per_iteration == n_outputs, "num_tree_per_iteration does not match the objective.")
    total = sum(check_count(b.get("num_leaves"), "nodes_per_tree", "leaves") for b in blocks)
    check_count(2 * total, "nodes", "nodes in all")
    budget = Budget("category_entries")
    built = [_tree(block, n_features, budget) for block in blocks]
    n_trees = len(built)
    weight = np.ones(n_trees)
    # LightGBM writes the flag as a bare line of the header, which _sections does not keep.
    averaging = "average_output" in header or "average_output" in text.split("\nTree=")[0]
    if averaging:
        weight /= max(n_trees // n_outputs, 1)  # random-forest mode averages the iterations
    inputs = _row_inputs(header, text, [b[0] for b in built], n_features, kind)
    return ImportedModel(
        library="lightgbm", kind=kind, task=task, trees=[b[0] for b in built], tree_weight=weight,
        tree_output=np.arange(n_trees) % n_outputs, base_score=np.zeros(n_outputs), link=link,
        native_op="<=", precision="float64", missing_left=[b[1] for b in built],
        missing_kind=[b[2] for b in built],
        classes_=None if task == "regression" else np.asarray(
            classes if classes is not None else np.arange(max(n_outputs, 2))),
        n_features=n_features, feature_names=None if inputs.names is None else list(inputs.names),
        averaging=averaging, document=text, tiny_as_zero=True, inputs=inputs,
    )  # fmt: skip
