"""The common representation of an imported tree ensemble.

Every library's model becomes the same thing (:class:`ImportedModel`):

.. math::

    F_k(\\mathbf{x}, \\text{op}) = b_k + \\sum_{t:\\, o_t \\in \\{k, *\\}} w_t\\,
    v_t\\big(\\text{leaf}_t(\\mathbf{x}, \\text{op})\\big)_k

the base score :math:`b`, plus each tree's leaf value times its weight
:math:`w_t` (a learning rate, or :math:`1/N_e` in a forest) on its output
:math:`o_t` (a class of a multiclass booster, or every output when the
leaves hold vectors), then a link: identity, logistic, softmax, exp, or
"proba" (the raw scores already are averaged class probabilities).

The conditionings (source 000): ``"native"`` is the library's own operator;
``"<="`` and ``"<"`` walk every tree with that test (section 3.1, the first
way); ``"average"`` is the mean of the two predictions (probabilities or
values, section 3.3); ``"half"`` walks the trees of odd index with the
operator that is not native and the others natively (section 3.3's forest
remedy; with an odd count the native operator has one tree more).
"""

import dataclasses
import math
from dataclasses import dataclass, field

import numpy as np

from ._build import ModelFileError
from ._inputs import LIBRARY_NAMES, frame_from_table, model_inputs, read_rows
from ._predict import cast_rows, code_table_shape, pack, raw_scores

__all__ = ["CONDITIONINGS", "LINKS", "OUTPUT_PRECISION", "ImportedModel", "check_finite_outputs",
           "threshold_notes"]  # fmt: skip

CONDITIONINGS = ("native", "<=", "<", "average", "half")
LINKS = ("identity", "logistic", "softmax", "exp", "proba")
_OTHER = {"<=": "<", "<": "<="}
# The precision of a library's own predictions: XGBoost sums its float32 leaves in float32 and
# returns float32; the others compute and return float64.
OUTPUT_PRECISION = {"xgboost": "float32"}


@dataclass(eq=False)
class ImportedModel:
    """A fitted tree ensemble of any supported library (module docstring).

    Attributes
    ----------
    library : str
        "sklearn", "xgboost", "lightgbm" or "catboost".
    kind : str
        The model's type, e.g. ``"XGBClassifier"`` or ``"Booster"``.
    task : {"regression", "binary", "multiclass"}
    trees : list of Tree
        The trees (``trees.tree.Tree``), with the model's precision as ``input_dtype``.
    tree_weight : ndarray of shape (n_trees,)
    tree_output : ndarray of shape (n_trees,), int
        Output each tree adds to; -1 for all outputs (vector leaves).
    base_score : ndarray of shape (n_outputs,)
    link : str
        One of :data:`LINKS`.
    native_op : {"<=", "<"}
        The library's own threshold test.
    precision : {"float32", "float64"}
        The precision the library compares rows in.
    missing_left, missing_kind : list of ndarray
        Per tree and node: the default direction of a missing value, and how
        the node reads one (``trees.interop._predict.MISSING_KINDS``).
    classes_ : ndarray or None
    n_features : int
    feature_names : list of str or None
        The features' names in the order the trees index them.
    averaging : bool
        Whether the trees are averaged (a forest) rather than added (boosting).
    document : object
        The library's own dump the model was read from (JSON dict, model
        text; the estimator itself for scikit-learn), kept for the mirrored export.
    tiny_as_zero : bool
        Whether the library reads ``|x| <= 1e-35`` as 0 (LightGBM).
    inputs : ModelInputs
        What the model expects of its rows: names, categories, the sentinel
        (``trees.interop._inputs``); by default, ``feature_names`` in the trees' order.
    trees_used : str
        Which of the stored trees predict, when not all of them: "trees 1-57 of 300, the
        library's best iteration (early stopping)". Empty when every tree is used.
    oblivious : ObliviousTrees or None
        CatBoost's trees as levels, walked as CatBoost walks them (``_oblivious``).
    notes : tuple of str
        What the lab read in a way a user should know (:func:`threshold_notes`: splits
        whose threshold is NaN or infinite, read as the library reads them); the page and
        the command line say them.
    """

    library: str
    kind: str
    task: str
    trees: list
    tree_weight: np.ndarray
    tree_output: np.ndarray
    base_score: np.ndarray
    link: str
    native_op: str
    precision: str
    missing_left: list
    missing_kind: list
    classes_: np.ndarray | None
    n_features: int
    feature_names: list | None = None
    averaging: bool = False
    document: object = None
    tiny_as_zero: bool = False
    inputs: object = None
    trees_used: str = ""
    oblivious: object = None
    notes: tuple = ()
    _pack: object = field(default=None, repr=False)

    def __post_init__(self):
        self.tree_weight = np.asarray(self.tree_weight, dtype=np.float64)
        self.tree_output = np.asarray(self.tree_output, dtype=np.int64)
        self.base_score = np.atleast_1d(np.asarray(self.base_score, dtype=np.float64))
        if self.link not in LINKS or self.native_op not in _OTHER:
            raise ValueError(f"Unknown link {self.link!r} or operator {self.native_op!r}.")
        if not self.trees:
            raise ModelFileError("The model holds no tree: there is nothing to predict or audit.")
        check_finite_outputs(self)
        code_table_shape(self.trees)  # the walk's category table, refused before it is made
        self.notes = tuple(self.notes) or threshold_notes(self)
        if self.inputs is None:
            self.inputs = _default_inputs(self)

    # ---------------------------------------------------------------- shape
    @property
    def n_trees(self):
        """Number of trees."""
        return len(self.trees)

    @property
    def n_outputs(self):
        """Number of raw scores per row (classes of a multiclass model, else 1)."""
        return int(self.base_score.shape[0])

    @property
    def is_classifier(self):
        """Whether the model predicts classes."""
        return self.task != "regression"

    @property
    def other_op(self):
        """The operator the library does not use."""
        return _OTHER[self.native_op]

    def packed(self):
        """The packed trees (``_predict.pack``), built once."""
        if self._pack is None:
            self._pack = pack(self)
        return self._pack

    def strict_flags(self, op):
        """Per tree, 1 where it tests ``x < t`` under ``op`` ("<=", "<", "native", "half")."""
        if op == "native":
            op = self.native_op
        if op == "half":
            flags = np.full(self.n_trees, self.native_op == "<", dtype=np.uint8)
            flags[1::2] = self.other_op == "<"
            return flags
        if op not in _OTHER:
            raise ValueError(f"conditioning must be one of {CONDITIONINGS}, got {op!r}.")
        return np.full(self.n_trees, op == "<", dtype=np.uint8)

    @property
    def output_precision(self):
        """The precision of the library's own predictions (:data:`OUTPUT_PRECISION`)."""
        return OUTPUT_PRECISION.get(self.library, "float64")

    def check_X(self, X):
        """``X`` read as the model reads it (``trees.interop._inputs.read_rows``): columns
        matched by name, categories as codes, the sentinel as NaN; float64, in the trees'
        feature order. Raises ``ModelInputError`` saying what cannot be read and why."""
        return read_rows(self.inputs, X)

    def column_names(self, X=None):
        """The features' names in the order the trees index them: the model's own (not names
        a library made up), else the frame's columns when it is read by position, else
        ``x0``, ``x1``..."""
        if self.feature_names and not self.inputs.generated:
            return [str(n) for n in self.feature_names]
        columns = getattr(X, "columns", None)
        if columns is not None and len(columns) == self.n_features and self.inputs.order is None:
            return [str(c) for c in columns]
        return [f"x{j}" for j in range(self.n_features)]

    def frame_from_table(self, table):
        """A table read from a file as the frame the model is given: its categorical
        features' columns read as categories (``trees.interop._inputs.frame_from_table``)."""
        return frame_from_table(self.inputs, table)

    def with_missing_value(self, value):
        """This model reading ``value`` as missing, as XGBoost's ``missing=`` does.

        The sentinel belongs to the rows XGBoost is given (the wrapper's ``missing``,
        read by :func:`~trees.interop.from_model`; a ``DMatrix``'s for a ``Booster``),
        not to its model file, so a file's model is told it here. NaN: none.
        """
        value = float(value)
        if self.library != "xgboost" and not math.isnan(value):
            raise ValueError(
                f"Only XGBoost reads a value as missing (missing=); {self.library} reads NaN."
            )
        inputs = dataclasses.replace(self.inputs, missing_value=value)
        return dataclasses.replace(self, inputs=inputs, _pack=self._pack)

    def cast(self, X, precision=None):
        """``X`` checked and read as the library reads it: rounded to its precision
        (or ``precision``), and, for LightGBM, ``|x| <= 1e-35`` read as 0."""
        return cast_rows(self.check_X(X), precision or self.precision, self.tiny_as_zero)

    # ---------------------------------------------------------- prediction
    def raw_predict(self, X, conditioning="native", precision=None, n_jobs=None):
        """Raw scores (margins) of shape (n_samples, n_outputs).

        ``"average"`` averages the raw scores of ``"<="`` and ``"<"``;
        ``precision`` overrides the library's (to measure its effect).
        """
        X = self.cast(X, precision)
        if conditioning == "average":
            return 0.5 * sum(self._raw(X, op, n_jobs, precision) for op in _OTHER)
        return self._raw(X, conditioning, n_jobs, precision)

    def _raw(self, X, op, n_jobs=None, precision=None):
        float32 = (precision or self.precision) == "float32"
        scores = raw_scores(self.packed(), X, self.strict_flags(op), n_jobs, float32_rows=float32)
        return self.base_score + scores

    def output_of_cast(self, Xc, op, raw=None, precision=None, n_jobs=None):
        """:meth:`output` of rows already cast (:meth:`cast`, in ``precision``) under ``op``
        (not "average"; "other" is the operator the library does not use);
        ``raw``: their raw scores without the base score, when already walked."""
        if raw is None:
            op = self.other_op if op == "other" else op
            return self._transform(self._raw(Xc, op, n_jobs, precision))
        return self._transform(self.base_score + raw)

    def decision_function(self, X, conditioning="native", precision=None, n_jobs=None):
        """Raw scores as the library's ``decision_function`` / margin output shapes them."""
        raw = self.raw_predict(X, conditioning, precision, n_jobs)
        return raw[:, 0] if raw.shape[1] == 1 else raw

    def _transform(self, raw):
        """Probabilities (classifiers) or values (regressors) from raw scores."""
        if self.link == "identity":
            return raw[:, 0] if raw.shape[1] == 1 else raw
        if self.link == "exp":
            with np.errstate(over="ignore"):  # refused below: a value past float64
                value = np.exp(raw[:, 0])
            refuse_overflow(value, raw[:, 0])
            return value
        if self.link == "proba":
            return raw
        if self.link == "logistic":
            # exp(-raw) overflows to inf for raw < -709, and p = 1 / (1 + inf) = 0 is then the
            # logistic's float64 value exactly (it is below 1e-308): nothing to warn about.
            with np.errstate(over="ignore"):
                p = 1.0 / (1.0 + np.exp(-raw[:, 0]))
            return np.column_stack([1.0 - p, p])
        shifted = np.exp(raw - raw.max(axis=1, keepdims=True))
        return shifted / shifted.sum(axis=1, keepdims=True)

    def output(self, X, conditioning="native", precision=None, n_jobs=None):
        """Class probabilities (classifier) or predicted values (regressor).

        ``"average"`` is the mean of the two operators' probabilities or
        values (source 000, section 3.3), not of their raw scores. ``n_jobs``: threads
        (default 2).
        """
        if conditioning == "average":
            parts = [self._transform(self.raw_predict(X, op, precision, n_jobs)) for op in _OTHER]
            return 0.5 * (parts[0] + parts[1])
        return self._transform(self.raw_predict(X, conditioning, precision, n_jobs))

    def predict_proba(self, X, conditioning="native", precision=None, n_jobs=None):
        """Class probabilities, as the library's ``predict_proba``."""
        if not self.is_classifier:
            raise ValueError("predict_proba needs a classifier; this model is a regressor.")
        return self.output(X, conditioning, precision, n_jobs)

    def predict(self, X, conditioning="native", precision=None, n_jobs=None):
        """Predicted classes (labels from ``classes_``) or values, as the library's ``predict``."""
        out = self.output(X, conditioning, precision, n_jobs)
        if not self.is_classifier:
            return out
        index = out.argmax(axis=1)
        return index if self.classes_ is None else np.asarray(self.classes_)[index]

    def __repr__(self):
        return (
            f"ImportedModel({self.library} {self.kind}, {self.task}, {self.n_trees} trees, "
            f"x {self.native_op} t in {self.precision})"
        )


def _default_inputs(model):
    """Rows read by position, or by the stored names, every feature as a number."""
    return model_inputs(model.feature_names, model.n_features, precision=model.precision,
                        library=model.library, kind=model.kind)  # fmt: skip


def check_finite_outputs(model):
    """Refuse a model whose base score, tree weights or leaf values are NaN or infinite.

    Every prediction would then be NaN or infinite, and an audit comparing two of
    them would find nothing "changed" (NaN - NaN is NaN, never above 0).
    """
    parts = {
        "base score (bias)": model.base_score,
        "tree weights (scale, learning rate)": model.tree_weight,
        "leaf values": np.concatenate([t.value[t.feature < 0].ravel() for t in model.trees]),
    }
    for what, values in parts.items():
        bad = int(np.count_nonzero(~np.isfinite(values)))
        if bad:
            raise ModelFileError(
                f"{bad:,} of the model's {what} are not finite numbers (nan or inf), so every "
                "prediction it makes would be one too; the file is damaged: export the model "
                "again."
            )


def refuse_overflow(value, raw):
    """Refuse predictions that overflowed float64 from finite raw scores (a wrong number)."""
    over = np.isinf(value) & np.isfinite(raw)
    if over.any():
        raise ModelFileError(
            f"The model's prediction passes the largest float64 number on {over.sum():,} rows "
            f"(a raw score up to {raw[over].max():.4g}, exp of which overflows), so the lab "
            "refuses the number rather than show infinity."
        )


def _sentence(count, threshold, op, outcome):
    splits = "split has" if count == 1 else "splits have"
    return f"{count:,} {splits} the threshold {threshold}: x {op} {threshold} {outcome}."


def threshold_notes(model):
    """Sentences on numeric splits whose threshold is NaN or infinite, read as the library
    reads them: it compares with them as with any threshold (XGBoost, LightGBM: checked
    against their own predictions; CatBoost's reader cannot use them, so its adapter
    refuses them). scikit-learn writes ``inf`` for a split of missing values from the
    others (every present value left), so only its NaN is said."""
    nan = inf = minus = 0
    for tree in model.trees:
        values = tree.threshold[(tree.feature >= 0) & ~tree.is_membership]
        nan += int(np.isnan(values).sum())
        inf += int((values == np.inf).sum())
        minus += int((values == -np.inf).sum())
    if model.library == "sklearn":
        inf = minus = 0
    op, name = model.native_op, LIBRARY_NAMES.get(model.library, model.library)
    notes = []
    if nan:
        notes.append(_sentence(nan, "NaN", op, f"is never true, so {name} sends every value "
                               "right there (a missing value follows the split's own rule), "
                               "and so does the lab"))  # fmt: skip
    if inf:
        notes.append(_sentence(inf, "inf", op, f"holds for every finite value, so {name} "
                               "sends every finite value left there, and so does the lab"))  # fmt: skip
    if minus:
        notes.append(_sentence(minus, "-inf", op, f"holds for no finite value, so {name} "
                               "sends every finite value right there, and so does the lab"))  # fmt: skip
    return tuple(notes)
