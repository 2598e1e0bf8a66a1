"""The runtimes a tree model is deployed to, each as a predictor of float64 rows.

Each entry of :data:`RUNTIMES` turns an imported model (and the library's own object,
``_library``) into ``predict(X)``, returning class probabilities ``(n, n_classes)`` or
values ``(n,)`` in the shape of ``_library.library_output``, run as a practitioner runs
it:

* ``onnx-lab``: onnxruntime on the lab's export (``export_onnx(model)``, float64 rows);
* ``onnx-converter``: onnxruntime on the usual converter's file, fed float32 rows as its
  input type says: skl2onnx for scikit-learn, onnxmltools for XGBoost and LightGBM,
  CatBoost's own ``save_model(format="onnx")``;
* ``treelite-float32`` / ``treelite-float64``: treelite's own predictor (GTIL) on the
  model treelite imports, fed float32 or float64 rows (it compares in the rows' type);
* ``m2cgen``: the Python code m2cgen generates, one row at a time. The code is checked
  before it runs: only the statements and calls m2cgen writes (comparisons, arithmetic,
  its vector helpers, ``math``) are allowed, so a model's content cannot run anything.

A runtime that cannot run raises :class:`RuntimeUnavailable` with its status: "not
installed" (with the package to install), "does not read this model", or "fails" (with
the runtime's own message).
"""

import ast
import builtins
import math
import os
import re
import tempfile
from dataclasses import dataclass
from functools import partial
from importlib import import_module

import numpy as np

from ._library import LibraryMissing
from ._onnx import export_onnx
from ._optional import install_command

__all__ = [
    "RUNTIMES",
    "RUNTIME_STATUSES",
    "Runtime",
    "RuntimeUnavailable",
    "onnx_predictor",
    "shaped_output",
]

RUNTIME_STATUSES = ("ran", "not installed", "does not read this model", "fails")
_CONVERTERS = {"sklearn": "skl2onnx", "xgboost": "onnxmltools", "lightgbm": "onnxmltools",
               "catboost": "catboost"}  # fmt: skip
_CONVERTER_FILES = {"skl2onnx": "skl2onnx's file", "onnxmltools": "onnxmltools' file",
                    "catboost": "CatBoost's own file"}  # fmt: skip


class RuntimeUnavailable(Exception):
    """A runtime that cannot predict with this model; ``status`` is one of
    :data:`RUNTIME_STATUSES` (not "ran"), ``detail`` says why in words."""

    def __init__(self, status, detail):
        super().__init__(detail)
        self.status, self.detail = status, detail


def _own(library):
    """The library's own object a runtime is built from, or why it cannot be: the report
    passes the :class:`~._library.LibraryMissing` that said why there is none (the library is
    not installed, with its command, or the model came without its document)."""
    if not isinstance(library, LibraryMissing):
        return library
    if library.command:
        raise RuntimeUnavailable("not installed", library.command)
    raise RuntimeUnavailable("fails", "needs the library's own model, missing here")


def _require(module):
    """``module`` imported, or "not installed" with the command that installs it."""
    try:
        return import_module(module)
    except ImportError:
        raise RuntimeUnavailable("not installed", install_command(module)) from None


# A C++ library's check as it reaches Python: "[12:00:00] path/file.cc:810: Check failed:
# <expression>: " before the sentence that says what failed (treelite).
_NATIVE_PREFIX = re.compile(r"^\[[\d:]+\] \S+:\d+: (Check failed: .*?: (?=[A-Z]))?")


def _first_line(error):
    """The first line of a runtime's error, without a native check's time, file and
    expression."""
    text = str(error).strip().splitlines()
    return _NATIVE_PREFIX.sub("", text[0] if text else type(error).__name__)[:300]


def shaped_output(out, imported, n):
    """Runtime outputs as probabilities ``(n, k)`` (a single column is P(class 1)) or ``(n,)``."""
    if isinstance(out, list) and out and isinstance(out[0], dict):  # ZipMap: one map per row
        out = [[row[key] for key in sorted(row)] for row in out]
    out = np.asarray(out, dtype=np.float64).reshape(n, -1)
    if not imported.is_classifier:
        return out[:, 0]
    return np.column_stack([1.0 - out[:, 0], out[:, 0]]) if out.shape[1] == 1 else out


# ------------------------------------------------------------------------- ONNX
def _session(onnx_bytes):
    ort = _require("onnxruntime")
    options = ort.SessionOptions()
    options.log_severity_level = 3  # the converters' files draw shape warnings on every run
    # One thread, and no spinning while idle: onnxruntime's pool otherwise keeps cores busy
    # after a run, which the library's own predict (OpenMP) and a shared server pay for.
    options.intra_op_num_threads = options.inter_op_num_threads = 1
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    return ort.InferenceSession(onnx_bytes, options, providers=["CPUExecutionProvider"])


def onnx_predictor(onnx_bytes, imported, dtype):
    """``predict(X)`` of an ONNX file in onnxruntime, fed ``dtype`` rows, shaped as the
    library's output (:func:`shaped_output`)."""
    session = _session(onnx_bytes)
    name = session.get_inputs()[0].name
    wanted = 1 if imported.is_classifier and len(session.get_outputs()) > 1 else 0

    def predict(X):
        outputs = session.run(None, {name: np.ascontiguousarray(X, dtype=dtype)})
        return shaped_output(outputs[wanted], imported, X.shape[0])

    return predict


def _lab_export(imported, library):
    _require("onnx")
    return onnx_predictor(export_onnx(imported).SerializeToString(), imported, np.float64)


def _skl2onnx(library, imported):
    skl2onnx = _require("skl2onnx")
    options = {"zipmap": False} if imported.is_classifier else None
    sample = np.zeros((1, imported.n_features), dtype=np.float32)
    return skl2onnx.to_onnx(library, sample, options=options).SerializeToString()


def _onnxmltools(library, imported):
    onnxmltools = _require("onnxmltools")
    from onnxmltools.convert.common.data_types import FloatTensorType

    types = [("X", FloatTensorType([None, imported.n_features]))]
    if imported.library == "xgboost":
        return onnxmltools.convert_xgboost(library, initial_types=types).SerializeToString()
    return onnxmltools.convert_lightgbm(library, initial_types=types,
                                        zipmap=False).SerializeToString()  # fmt: skip


def _catboost_onnx(library, imported):
    handle, path = tempfile.mkstemp(suffix=".onnx")
    os.close(handle)
    try:
        library.save_model(path, format="onnx")
        with open(path, "rb") as file:
            return file.read()
    finally:
        os.unlink(path)


_CONVERT = {"skl2onnx": _skl2onnx, "onnxmltools": _onnxmltools, "catboost": _catboost_onnx}


def _converter(imported, library):
    converter = _CONVERTERS[imported.library]
    _require("onnxruntime")
    try:
        return onnx_predictor(_CONVERT[converter](_own(library), imported), imported, np.float32)
    except RuntimeUnavailable:
        raise
    except Exception as error:  # each converter raises its own kinds
        raise RuntimeUnavailable("fails", f"{converter}: {_first_line(error)}") from None


# ---------------------------------------------------------------------- treelite
def _treelite_model(imported, library):
    if imported.library == "catboost":
        raise RuntimeUnavailable("does not read this model", "treelite has no CatBoost frontend")
    library = _own(library)
    if imported.library == "sklearn":
        return import_module("treelite.sklearn").import_model(library)
    frontend = import_module("treelite.frontend")
    if imported.library == "xgboost":
        booster = library.get_booster() if hasattr(library, "get_booster") else library
        return frontend.from_xgboost(booster)
    return frontend.from_lightgbm(getattr(library, "booster_", library))  # LightGBM


def _treelite(imported, library, dtype):
    _require("treelite")
    gtil = import_module("treelite.gtil")
    try:
        model = _treelite_model(imported, library)
    except RuntimeUnavailable:
        raise
    except Exception as error:
        # treelite says "Not supported model type: ..." for a type it has no importer for
        # and "does not yet support ..." for a model's part it cannot read (categories)
        said = str(error).lower()
        refused = "not supported" in said or "not yet support" in said
        status = "does not read this model" if refused else "fails"
        raise RuntimeUnavailable(status, f"treelite: {_first_line(error)}") from None

    def predict(X):
        out = gtil.predict(model, np.ascontiguousarray(X, dtype=dtype))
        return shaped_output(out, imported, X.shape[0])

    return predict


# ------------------------------------------------------------------------ m2cgen
_M2CGEN_CALLS = {"sum", "zip", "max", "min", "enumerate", "len", "range", "abs"}
_M2CGEN_NODES = (
    ast.Module, ast.Import, ast.alias, ast.FunctionDef, ast.arguments, ast.arg, ast.Return,
    ast.If, ast.IfExp, ast.For, ast.Compare, ast.Subscript, ast.Name, ast.Constant,
    ast.Assign, ast.AugAssign, ast.List, ast.Tuple, ast.BinOp, ast.UnaryOp, ast.BoolOp,
    ast.Call, ast.ListComp, ast.comprehension, ast.Attribute, ast.Expr, ast.expr_context,
    ast.operator, ast.unaryop, ast.cmpop, ast.boolop,
)  # fmt: skip


def _checked_python(code):
    """m2cgen's code parsed and checked (module docstring); raises ValueError otherwise."""
    tree = ast.parse(code)
    defined = {n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)}
    for node in ast.walk(tree):
        if not isinstance(node, _M2CGEN_NODES):
            raise ValueError(f"m2cgen's code holds a {type(node).__name__}, which is not run.")
        if isinstance(node, ast.Import) and [a.name for a in node.names] != ["math"]:
            raise ValueError("m2cgen's code imports something other than math.")
        if isinstance(node, ast.Attribute) and not (
            isinstance(node.value, ast.Name) and node.value.id == "math"):  # fmt: skip
            raise ValueError("m2cgen's code reads an attribute other than math's.")
        if isinstance(node, ast.Name) and node.id.startswith("__"):
            raise ValueError("m2cgen's code names a private name.")
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and (
            node.func.id not in defined | _M2CGEN_CALLS):  # fmt: skip
            raise ValueError(f"m2cgen's code calls {node.func.id}, which is not run.")
    tree.body = [n for n in tree.body if not isinstance(n, ast.Import)]
    return compile(tree, "<m2cgen>", "exec")


def _m2cgen(imported, library):
    m2cgen = _require("m2cgen")
    library = _own(library)
    try:
        code = m2cgen.export_to_python(library)
    except NotImplementedError as error:
        raise RuntimeUnavailable(
            "does not read this model", f"m2cgen: {_first_line(error)}"
        ) from None
    except Exception as error:
        raise RuntimeUnavailable("fails", f"m2cgen: {type(error).__name__}: "
                                          f"{_first_line(error)}") from None  # fmt: skip
    names = {"math": math, "__builtins__": {n: getattr(builtins, n) for n in _M2CGEN_CALLS}}
    exec(_checked_python(code), names)  # checked: only m2cgen's arithmetic (module docstring)
    score = names["score"]

    def predict(X):
        return shaped_output([score(row) for row in X.tolist()], imported, X.shape[0])

    return predict


@dataclass(frozen=True)
class Runtime:
    """A runtime of :data:`RUNTIMES`: its label in words and how to build its predictor,
    ``build(imported, library_object) -> predict``."""

    label: str
    build: object

    def label_for(self, library):
        """The label, naming the converter used for ``library`` where it depends on it."""
        return self.label.format(converter=_CONVERTER_FILES[_CONVERTERS[library]])


RUNTIMES = {
    "onnx-lab": Runtime("onnxruntime, the lab's export", _lab_export),
    "onnx-converter": Runtime("onnxruntime, {converter}", _converter),
    "treelite-float32": Runtime("treelite, float32 rows", partial(_treelite, dtype=np.float32)),
    "treelite-float64": Runtime("treelite, float64 rows", partial(_treelite, dtype=np.float64)),
    "m2cgen": Runtime("m2cgen's Python code", _m2cgen),
}  # fmt: skip
