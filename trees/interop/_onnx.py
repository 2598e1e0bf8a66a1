"""The remedy where models run: an ONNX graph of any imported model under a chosen test.

Source 000 (section 3.1) predicts with the operator a library does not use by walking
the fitted tree with it; section 3.3 averages the two tests. :func:`export_onnx` writes
either into one ONNX model, built with ``onnx.helper`` from the imported model (so every
library the lab reads, CatBoost included) and checked with ``onnx.checker``:

.. code-block:: text

    X -> rows read as the library reads them -> TreeEnsemble(x <= t or x < t)
      -> + base score -> link -> probabilities / prediction

* **Rows read as the library reads them** (``_inputs``, the lab's one rule for rows). The
  input is the array the library's own predict takes (``_inputs.array_rows``): the training
  columns in their order, a categorical feature's code (XGBoost, LightGBM) or its category
  value (``HistGradientBoosting``, whose encoder the graph repeats: a value it never saw is
  missing), and XGBoost's ``missing=`` sentinel, where the model has one, read as missing; the
  graph then puts the columns in the order the trees index them (``HistGradientBoosting``
  moves its categorical columns first). A library comparing in float32
  (scikit-learn's trees, forests and ``GradientBoosting*``, XGBoost, CatBoost) rounds
  each row to float32 first (``Cast`` to float and back); LightGBM reads ``|x| <= 1e-35``
  as 0, and, per feature, 0 as missing (its ``missing_type=Zero``) or a missing value as
  0 (``missing_type=None``); a categorical feature's value is truncated to its code. Each
  is a few standard operators before the trees, written only when the model needs them.
* **The trees** are one ``ai.onnx.ml`` ``TreeEnsemble`` (opset 5, the one whose
  thresholds and leaf weights may be float64: ``_onnx_trees``), in float64 throughout,
  so LightGBM's and ``HistGradientBoosting``'s float64 thresholds are compared with
  float64 rows, and the leaves are summed in float64 as the libraries sum them.
* **Base score and link** are standard operators (``Add``, then ``Sigmoid``,
  ``Softmax`` or ``Exp``), as ``ImportedModel`` applies them.
* **"average"** (section 3.3) is two ``TreeEnsemble`` nodes, one per test, and the mean of
  their probabilities or predictions, in the same graph; **"half"** tests every other
  tree with the operator the library does not use (``ImportedModel.strict_flags``).

The graph's input ``X`` is float64 (``input_dtype="float32"`` takes float32 rows, for a
serving stack that only feeds those, where the library itself rounds to float32). Its
outputs are ``label`` (the class, from the model's ``classes_``) and ``probabilities``
for a classifier, ``prediction`` for a regressor.
"""

import math

import numpy as np

from ._build import ModelFileError
from ._inputs import array_rows
from ._model import CONDITIONINGS
from ._onnx_trees import ensemble_attributes
from ._registry import from_model

__all__ = ["EXPORT_INPUT_DTYPES", "OPSETS", "export_onnx"]

# The opsets the graph imports: TreeEnsemble is ai.onnx.ml 5, which came with ONNX opset 21.
OPSETS = {"": 21, "ai.onnx.ml": 5}
_IR_VERSION = 10  # ONNX 1.16's, the first with these opsets: readable by older runtimes too
EXPORT_INPUT_DTYPES = ("float64", "float32")
_TINY = float(np.float32(1e-35))  # LightGBM's kZeroThreshold (as _predict reads it)
_AVERAGE = ("<=", "<")
_FLOAT, _DOUBLE, _STRING = 1, 11, 8  # onnx.TensorProto's element types (onnx is imported lazily)


class _Graph:
    """Nodes and constants of the graph being built, with fresh names."""

    def __init__(self):
        from onnx import helper

        self.helper, self.nodes, self.constants, self._count = helper, [], [], 0

    def name(self, stem):
        self._count += 1
        return f"{stem}_{self._count}"

    def constant(self, stem, array):
        from onnx import numpy_helper

        name = self.name(stem)
        self.constants.append(numpy_helper.from_array(np.asarray(array), name))
        return name

    def op(self, op_type, inputs, stem=None, domain="", **attributes):
        output = self.name(stem or op_type.lower())
        self.nodes.append(self.helper.make_node(op_type, list(inputs), [output], domain=domain,
                                                name=output, **attributes))  # fmt: skip
        return output


def _feature_rules(model):
    """Per feature: whether a LightGBM zero means missing, whether a missing value reads as
    zero, and whether it is categorical; refused when trees disagree on a feature."""
    kinds = [set() for _ in range(model.n_features)]
    categorical = [set() for _ in range(model.n_features)]
    for t, tree in enumerate(model.trees):
        internal = np.flatnonzero(tree.feature >= 0)
        member = tree.is_membership
        for node in internal:
            f = tree.feature[node]
            categorical[f].add(bool(member[node]))
            if not member[node]:
                kinds[f].add(int(model.missing_kind[t][node]))
    mixed = [f for f in range(model.n_features) if len(kinds[f]) > 1 or len(categorical[f]) > 1]
    if mixed:
        names = model.feature_names or [f"x{f}" for f in range(model.n_features)]
        raise ModelFileError(
            f"Feature {names[mixed[0]]} is read under two missing-value rules (or both as a "
            "category and a number) in different trees; ONNX's TreeEnsemble reads a feature "
            "one way. Serve this model with ConditionedModel instead."
        )
    zero_missing = np.array([k == {1} for k in kinds])
    missing_zero = np.array([k == {2} for k in kinds])
    return zero_missing, missing_zero, np.array([c == {True} for c in categorical])


def _sentinel(graph, x, model):
    """XGBoost's ``missing=`` value read as missing in the numeric columns, compared in the
    model's precision (``_inputs``: a categorical column's codes are left alone)."""
    inputs = model.inputs
    if math.isnan(inputs.missing_value):
        return x
    numeric = np.array([j not in inputs.coded for j in range(inputs.n_columns)])
    value = np.float32(inputs.missing_value) if inputs.precision == "float32" else None
    rows = x
    if value is not None:
        rows = graph.op("Cast", [x], "float32_rows", to=_FLOAT)
    sentinel = np.array(inputs.missing_value if value is None else value)
    hit = graph.op("And", [graph.op("Equal", [rows, graph.constant("sentinel", sentinel)]),
                           graph.constant("numeric", numeric[None])])  # fmt: skip
    return graph.op("Where", [hit, graph.constant("nan", np.nan), x], "rows")


def _encoded(graph, x, model):
    """HistGradientBoosting's encoder: each categorical column's values as their codes (a
    value it never saw: missing), then the columns in the order the trees index them."""
    inputs = model.inputs
    if inputs.numbers_are_values and inputs.categories:
        array_rows(inputs, np.zeros((0, inputs.n_columns)))  # refuses text categories, in words
        columns = []
        for j in range(inputs.n_columns):
            column = graph.op("Slice", [x, graph.constant("start", np.array([j])),
                                        graph.constant("end", np.array([j + 1])),
                                        graph.constant("axis", np.array([1]))])  # fmt: skip
            if j in inputs.categories:
                column = _category_codes(graph, column, inputs.categories[j])
            columns.append(column)
        x = graph.op("Concat", columns, "rows", axis=1)
    if inputs.order is not None:
        x = graph.op("Gather", [x, graph.constant("order", np.array(inputs.order))], "rows",
                     axis=1)  # fmt: skip
    return x


def _category_codes(graph, column, categories):
    """A column ``(n, 1)`` of category values as their positions in ``categories`` (NaN for
    a value not among them, or missing)."""
    stored = np.asarray(categories, dtype=np.float64)[None]
    equal = graph.op("Cast", [graph.op("Equal", [column, graph.constant("categories", stored)])],
                     to=_DOUBLE)  # fmt: skip
    found = graph.op("ReduceMax", [equal, graph.constant("axes", np.array([1]))], keepdims=1)
    index = graph.op("Cast", [graph.op("ArgMax", [equal], axis=1, keepdims=1)], to=_DOUBLE)
    known = graph.op("Greater", [found, graph.constant("zero", 0.0)])
    return graph.op("Where", [known, index, graph.constant("nan", np.nan)], "codes")


def _read_rows(graph, x, model, input_dtype):
    """The nodes that read the rows as the library does (module docstring); returns the name
    of the float64 rows the trees take."""
    if input_dtype == "float32":
        x = graph.op("Cast", [x], "rows", to=_DOUBLE)
    x = _encoded(graph, _sentinel(graph, x, model), model)
    if input_dtype != "float32" and model.precision == "float32":  # the library rounds to float32
        to_float = graph.op("Cast", [x], "float32_rows", to=_FLOAT)
        x = graph.op("Cast", [to_float], "rows", to=_DOUBLE)
    zero_missing, missing_zero, categorical = _feature_rules(model)
    if model.tiny_as_zero:
        tiny = graph.op("LessOrEqual", [graph.op("Abs", [x]), graph.constant("tiny", _TINY)])
        x = graph.op("Where", [tiny, graph.constant("zero", 0.0), x], "rows")
    if zero_missing.any():  # LightGBM's missing_type=Zero: a zero goes the missing way
        is_zero = graph.op("Equal", [x, graph.constant("zero", 0.0)])
        hit = graph.op("And", [is_zero, graph.constant("zero_is_missing", zero_missing[None])])
        x = graph.op("Where", [hit, graph.constant("nan", np.nan), x], "rows")
    if missing_zero.any():  # LightGBM's missing_type=None: a missing value is compared as 0
        hit = graph.op(
            "And", [graph.op("IsNaN", [x]), graph.constant("missing_is_zero", missing_zero[None])]
        )
        x = graph.op("Where", [hit, graph.constant("zero", 0.0), x], "rows")  # fmt: skip
    if categorical.any():  # a category's value is truncated to its code (general_child)
        floor = graph.op("Floor", [x])
        x = graph.op("Where", [graph.constant("categorical", categorical[None]), floor, x], "rows")
    return x


def _ensemble(graph, x, model, strict):
    """A TreeEnsemble node over float64 rows, plus the base score: the raw scores' name."""
    from onnx import numpy_helper

    a = ensemble_attributes(model, strict)
    tensors = {"nodes_modes": a["nodes_mode"].astype(np.uint8),
               "nodes_splits": a["nodes_split"].astype(np.float64),
               "leaf_weights": a["leaf_weights"]}  # fmt: skip
    if a["membership_values"]:
        tensors["membership_values"] = np.asarray(a["membership_values"], dtype=np.float64)
    attributes = {name: numpy_helper.from_array(value, name) for name, value in tensors.items()}
    raw = graph.op(
        "TreeEnsemble", [x], "trees", domain="ai.onnx.ml", aggregate_function=1,
        post_transform=0, n_targets=int(a["n_targets"]), tree_roots=a["tree_roots"].tolist(),
        nodes_featureids=a["nodes_feature"].tolist(),
        nodes_truenodeids=a["nodes_true"].tolist(), nodes_trueleafs=a["nodes_true_leaf"].tolist(),
        nodes_falsenodeids=a["nodes_false"].tolist(),
        nodes_falseleafs=a["nodes_false_leaf"].tolist(),
        nodes_missing_value_tracks_true=a["nodes_missing"].tolist(),
        leaf_targetids=a["leaf_targetids"].tolist(), **attributes,
    )  # fmt: skip
    return graph.op("Add", [raw, graph.constant("base_score", model.base_score[None])], "raw")


def _linked(graph, raw, model):
    """Probabilities ``(n, n_classes)`` or predictions ``(n,)`` from raw scores (the link)."""
    if model.link == "logistic":
        p = graph.op("Sigmoid", [raw])
        return graph.op("Concat", [graph.op("Sub", [graph.constant("one", [[1.0]]), p]), p],
                        "probabilities", axis=1)  # fmt: skip
    if model.link == "softmax":
        return graph.op("Softmax", [raw], "probabilities", axis=1)
    if model.link == "exp":
        raw = graph.op("Exp", [raw])
    if model.is_classifier:  # "proba": the averaged class probabilities themselves
        return raw
    return graph.op("Reshape", [raw, graph.constant("flat", np.array([-1]))], "prediction")


def _label_tensor(classes):
    """The classes as a constant ONNX can gather from: int64, float64, bool or strings."""
    classes = np.asarray(classes)
    if classes.dtype.kind in "iu":
        return classes.astype(np.int64)
    if classes.dtype.kind in "fb":
        return classes.astype(np.float64 if classes.dtype.kind == "f" else bool)
    return np.array([str(c) for c in classes], dtype=object)


def _outputs(graph, out, model):
    """The graph's named outputs: ``label`` and ``probabilities``, or ``prediction``."""
    helper, outputs = graph.helper, []
    if model.is_classifier:
        k = model.n_outputs if model.link != "logistic" else 2
        graph.nodes.append(helper.make_node("Identity", [out], ["probabilities"]))
        index = graph.op("ArgMax", [out], "index", axis=1, keepdims=0)
        classes = model.classes_ if model.classes_ is not None else np.arange(k)
        labels = _label_tensor(classes)
        graph.nodes.append(helper.make_node(
            "Gather", [graph.constant("classes", labels), index], ["label"], axis=0))  # fmt: skip
        label_type = (
            _STRING if labels.dtype == object else helper.np_dtype_to_tensor_dtype(labels.dtype)
        )
        outputs.append(helper.make_tensor_value_info("label", label_type, [None]))
        outputs.append(helper.make_tensor_value_info("probabilities", _DOUBLE, [None, k]))
    else:
        graph.nodes.append(helper.make_node("Identity", [out], ["prediction"]))
        outputs.append(helper.make_tensor_value_info("prediction", _DOUBLE, [None]))
    return outputs


def _check_request(model, conditioning, input_dtype):
    if conditioning not in CONDITIONINGS:
        raise ValueError(f"conditioning must be one of {CONDITIONINGS}, got {conditioning!r}.")
    if input_dtype not in EXPORT_INPUT_DTYPES:
        raise ValueError(f"input_dtype must be one of {EXPORT_INPUT_DTYPES}, got {input_dtype!r}.")
    if input_dtype == "float32" and model.precision == "float64":
        raise ValueError(
            f"{model.library} compares rows in float64: a float32 input would round them first "
            "and send rows just above a threshold to its left (the converters' disagreements). "
            "Keep input_dtype='float64' and feed float64 rows."
        )


def export_onnx(model, conditioning="native", input_dtype="float64"):
    """An ONNX model predicting as ``model`` under ``conditioning`` (module docstring).

    Parameters
    ----------
    model : anything :func:`trees.interop.from_model` accepts
    conditioning : {"native", "<=", "<", "average", "half"}, default="native"
        ``"native"``: the library's own test (``x <= t``, or XGBoost's ``x < t``);
        ``"<="`` / ``"<"``: every tree with that test; ``"average"``: the mean of the two
        tests' probabilities or predictions (source 000, section 3.3); ``"half"``: every
        other tree with the other test.
    input_dtype : {"float64", "float32"}, default="float64"
        The type of the graph's input ``X``; float32 only where the library itself rounds
        the rows to float32.

    Returns
    -------
    onnx.ModelProto
        Checked with ``onnx.checker.check_model(full_check=True)``; its metadata name the
        library, the model's type, the conditioning and the comparison precision. Run it
        with ``onnxruntime.InferenceSession(model.SerializeToString())``.

    Raises
    ------
    ModelFileError
        For a model whose rows ONNX cannot read as the library does (a feature read under
        two missing-value rules), with the way out.
    """
    from onnx import checker, helper

    imported = from_model(model)
    _check_request(imported, conditioning, input_dtype)
    graph = _Graph()
    x = _read_rows(graph, "X", imported, input_dtype)
    if conditioning == "average":
        parts = [_linked(graph, _ensemble(graph, x, imported, imported.strict_flags(op)),
                         imported) for op in _AVERAGE]  # fmt: skip
        total = graph.op("Add", parts)
        out = graph.op("Mul", [total, graph.constant("half", 0.5)], "average")
    else:
        raw = _ensemble(graph, x, imported, imported.strict_flags(conditioning))
        out = _linked(graph, raw, imported)
    outputs = _outputs(graph, out, imported)
    elem = _FLOAT if input_dtype == "float32" else _DOUBLE
    inputs = [helper.make_tensor_value_info("X", elem, [None, imported.n_features])]
    onnx_graph = helper.make_graph(graph.nodes, f"{imported.library}_{conditioning}", inputs,
                                   outputs, initializer=graph.constants)  # fmt: skip
    onx = helper.make_model(
        onnx_graph, producer_name="tree-bias-lab", ir_version=_IR_VERSION,
        opset_imports=[helper.make_opsetid(domain, v) for domain, v in OPSETS.items()],
        doc_string=f"{imported!r} under conditioning={conditioning!r} (source 000, section 3).",
    )  # fmt: skip
    helper.set_model_props(onx, _properties(imported, conditioning))
    checker.check_model(onx, full_check=True)
    return onx


def _properties(model, conditioning):
    """The metadata a deployment can read back (``onnxruntime``'s ``custom_metadata_map``)."""
    properties = {"library": model.library, "model_type": model.kind, "task": model.task,
                  "conditioning": conditioning, "native_test": f"x {model.native_op} t",
                  "precision": model.precision}  # fmt: skip
    names = model.inputs.names
    if names and not model.inputs.generated:  # the input's columns, in training order
        properties["feature_names"] = ",".join(names)
    if not math.isnan(model.inputs.missing_value):
        properties["missing_value"] = repr(model.inputs.missing_value)
    if model.trees_used:
        properties["trees_used"] = model.trees_used
    return properties
