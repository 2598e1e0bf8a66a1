"""Is a model affected by the conditioning bias, on which rows, by how much (issue 31, part 2).

Source 000, section 2.3: the operator matters when a threshold coincides with
a value rows take, as on lattice features (section 4.1). The audit measures
it on the rows the user gives:

* the lattice features of X (``trees.studies._lattice.lattice_features``);
* rho, the share of split nodes whose threshold equals an observed value of
  X in the model's precision, overall, per tree and per feature;
* the rows whose path reaches a node whose threshold equals their value;
* the predictions that change between ``<=`` and ``<`` (section 3.1) and
  between float32 and float64 comparison;
* section 3.3's remedies: the average of the two operators' predictions
  (probabilities or values) and, for forests, "half" (the trees of odd index
  under the other operator: with an odd count, the native operator keeps one
  tree more). Boosted trees are not exchangeable (each corrects the ones
  before it), so "half" is not an estimate of the average there and the
  audit leaves it out (``ImportedModel.predict(conditioning="half")`` still
  computes it).

**The cost of one prediction.** The two tests send a row apart only at a
node whose threshold equals its value, so only rows with a value exactly on
a threshold of its feature, in the model's precision
(``_scan``), are walked under both tests (``_predict.both_walk``: where the
two leaves differ, the paths parted at a node whose threshold equals the
row's value, their deepest common ancestor); every other row is walked once, and its prediction is the same under both, "half"
and the average. Between the precisions, only rows whose values cross or
reach a threshold when rounded are walked again. On one thread the audit
takes at most 3 times the library's own ``predict_proba`` (XGBoost,
LightGBM, scikit-learn forests) and 5 times CatBoost's
(``bench/bench_audit.py``).

**Changed.** A prediction changes when the two differ by more than
``CHANGE_TOLERANCE[precision] * max(1, |p|, |q|)``, the precision being that
of the library's own predictions (``ImportedModel.output_precision``): 2**-20
(8 float32 units in the last place at 1) for XGBoost, which adds its float32
leaves in float32, so that its own outputs carry that much rounding; 2**-40
for the float64 libraries (a sum of thousands of leaves rounds by up to one
unit in the last place per addition, and 2**-40 is 4,096 units at 1). A
smaller difference is rounding, not a change, and is not counted, nor is it
the "largest change".
"""

import threading
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from trees.studies._lattice import lattice_features

from ._build import ModelFileError
from ._model import ImportedModel
from ._predict import both_walk, cast_rows, count_ties, raw_scores
from ._registry import from_model
from ._scan import scan_thresholds

__all__ = ["CHANGE_TOLERANCE", "ConditioningAudit", "audit_conditioning"]

_OTHER_PRECISION = {"float32": "float64", "float64": "float32"}
# A prediction changes beyond this, relative to max(1, |p|): module docstring.
CHANGE_TOLERANCE = {"float32": 2.0**-20, "float64": 2.0**-40}


@dataclass(eq=False)
class ConditioningAudit:
    """The audit of one model on one table of rows (tables are pandas DataFrames).

    Attributes
    ----------
    model : ImportedModel
    features : DataFrame
        Per feature: lattice or not, distinct values, splits, splits on an observed value, rho.
        The lattice flags (source 000, section 4.1) describe the data, not the model, and
        their rule can cost more than the audit itself on columns of many distinct values
        (``trees.studies._lattice``): they are computed when first read.
    trees : DataFrame
        Per tree: splits, splits on an observed value, rho, and ``rows_on_threshold``: the
        rows it sends to another leaf under the other test (they sit on a threshold of it).
    rows : DataFrame
        Per row: ``thresholds_met``, in how many trees its value sits on a threshold of its
        path that sends it elsewhere under the other test (the first such node of each tree:
        below it the two tests follow different nodes); the native, other-operator, averaged
        (and, for forests, half) predictions, how far each moves.
    flips : DataFrame
        Per node that rows sit on (every such node of their paths under the model's test):
        tree, node, feature, threshold, rows on it, of which rows whose prediction changes
        with the operator (computed when first read: those rows are walked once more).
    comparisons : DataFrame
        One line per comparison (operators, precisions, average, half):
        rows changed, share, largest change, rows whose class changes.
    """

    model: ImportedModel
    n_rows: int
    trees: pd.DataFrame
    rows: pd.DataFrame
    comparisons: pd.DataFrame
    affected: list
    predictions: dict = field(repr=False, default_factory=dict)
    _splits: pd.DataFrame = field(repr=False, default=None)
    _lattice_source: object = field(repr=False, default=None)
    _flip_source: tuple = field(repr=False, default=None)
    _lazy: dict = field(repr=False, default_factory=dict)
    # The tables computed on first use are computed once, under a lock: an audit cached by
    # the app is shared by every session that opens the same model and rows.
    _lock: object = field(repr=False, default_factory=threading.Lock)

    @property
    def features(self):
        """Per feature (class docstring); the lattice flags and the distinct values counted
        on first use."""
        with self._lock:
            if "features" not in self._lazy:
                rows, cast = self._lattice_source
                table = self._splits.copy()
                table.insert(1, "lattice", lattice_features(rows))
                table.insert(2, "n_values", [pd.unique(c[~np.isnan(c)]).size for c in cast.T])
                self._lazy["features"], self._lattice_source = table, None
        return self._lazy["features"]

    @property
    def flips(self):
        """Per node that rows sit on (class docstring), computed on first use."""
        with self._lock:
            if "flips" not in self._lazy:
                self._lazy["flips"] = _flip_table(self.model, *self._flip_source)
                self._flip_source = None
        return self._lazy["flips"]

    def headline_figures(self):
        """The headline's figures, as a dict (JSON-safe): every figure of :meth:`summary` but
        the lattice flags, which cost more on columns of many values."""
        ops = self.comparisons.set_index("comparison").loc["<= vs <"]
        prec = self.comparisons.set_index("comparison").loc["float32 vs float64"]
        splits = int(self.trees["splits"].sum())
        on_value = int(self.trees["splits_on_value"].sum())
        on_threshold = int((self.rows["thresholds_met"] > 0).sum())
        return {
            "library": self.model.library,
            "model": self.model.kind,
            "task": self.model.task,
            "native_operator": self.model.native_op,
            "precision": self.model.precision,
            "trees_used": self.model.trees_used or f"all {self.model.n_trees}",
            "n_rows": self.n_rows,
            "n_trees": self.model.n_trees,
            "n_splits": splits,
            "rho": on_value / splits if splits else 0.0,
            "rows_on_threshold": on_threshold,
            "share_on_threshold": on_threshold / self.n_rows if self.n_rows else 0.0,
            "rows_changed": int(ops["rows_changed"]),
            "share_changed": float(ops["share"]),
            "largest_change": float(ops["largest_change"]),
            "class_changes": None if pd.isna(ops["class_changes"]) else int(ops["class_changes"]),
            "change_tolerance": CHANGE_TOLERANCE[self.model.output_precision],
            "rows_changed_precision": int(prec["rows_changed"]),
            "largest_change_precision": float(prec["largest_change"]),
            "average_largest_move": float(self.rows["average_move"].to_numpy().max(initial=0.0)),
            "affected_features": self.affected_features(),
        }

    def summary(self):
        """The headline figures and the data's lattice features, as a dict (JSON-safe)."""
        lattice = self.features.loc[self.features["lattice"], "feature"]
        return {**self.headline_figures(), "lattice_features": [str(f) for f in lattice]}

    def affected_features(self):
        """Names of the features of the splits where some row's prediction changes."""
        return list(self.affected)

    def headline(self):
        """One plain sentence for the page: how many rows change, and where."""
        s = self.headline_figures()
        n, reading = (
            f"{self.n_rows:,}",
            (f"the model's x {self.model.native_op} t is read as x {self.model.other_op} t"),
        )
        classes = s["class_changes"]
        if classes:
            count, what = classes, "their predicted class"
        elif self.model.is_classifier:
            count, what = s["rows_changed"], "their predicted probabilities (never their class)"
        else:
            count, what = s["rows_changed"], "their predicted value"
        if count == 0:
            return (f"None of the {n} rows changes its prediction when {reading} "
                    f"(source 000's ρ = {s['rho']:.2f}).")  # fmt: skip
        k, p = len(s["affected_features"]), self.model.n_features
        where = (f"{k} of the {p} features hold every affected split" if k < p
                 else "every feature holds some affected split")  # fmt: skip
        verb = "changes" if count == 1 else "change"
        return (f"{count:,} of {n} rows ({count / self.n_rows:.1%}) {verb} {what} "
                f"when {reading}; {where}.")  # fmt: skip


def _split_tables(model, Xp, names, on_value):
    """(per-feature, per-tree) tables of splits and of splits on an observed value."""
    packed = model.packed()
    tree_of = packed.tree_of
    split = packed.feature >= 0
    per_tree = pd.DataFrame({
        "tree": np.arange(model.n_trees),
        "splits": np.bincount(tree_of[split], minlength=model.n_trees),
        "splits_on_value": np.bincount(tree_of[on_value], minlength=model.n_trees),
    })  # fmt: skip
    per_feature = pd.DataFrame({
        "feature": names,
        "splits": np.bincount(packed.feature[split], minlength=model.n_features),
        "splits_on_value": np.bincount(packed.feature[on_value], minlength=model.n_features),
    })  # fmt: skip
    for table in (per_tree, per_feature):
        table["rho"] = table["splits_on_value"] / table["splits"].where(table["splits"] > 0)
    return per_feature, per_tree


def _change(a, b):
    """Per row, the largest absolute difference of two predictions (probabilities or values)."""
    diff = np.abs(np.asarray(a) - np.asarray(b))
    return diff.max(axis=1) if diff.ndim == 2 else diff


def changed_rows(a, b, precision):
    """Rows whose predictions ``a`` and ``b`` differ beyond the tolerance of the library's
    output ``precision`` (module docstring: :data:`CHANGE_TOLERANCE`)."""
    a, b = np.asarray(a), np.asarray(b)
    scale = np.maximum(1.0, np.maximum(np.abs(a), np.abs(b)))
    beyond = np.abs(a - b) > CHANGE_TOLERANCE[precision] * scale
    return beyond.any(axis=1) if beyond.ndim == 2 else beyond


# The comparisons, each an output against the model's own: its name and its key in the outputs.
_COMPARISONS = (("<= vs <", "other"), ("float32 vs float64", "precision"),
                ("average vs native", "average"), ("half vs native", "half"))  # fmt: skip


def _moves(model, out):
    """Per output compared with the model's own: (rows changed, each row's change where it is
    one: 0 elsewhere) and, for a classifier, every output's predicted class index."""
    native, moves = out["native"], {}
    for _, key in _COMPARISONS:
        if key in out:
            changed = changed_rows(out[key], native, model.output_precision)
            moves[key] = (changed, np.where(changed, _change(out[key], native), 0.0))
    names = ("native", *moves)
    classes = {k: out[k].argmax(axis=1) for k in names} if model.is_classifier else {}
    return moves, classes


def _comparisons(moves, classes):
    lines = []
    for name, key in _COMPARISONS:
        if key not in moves:
            continue
        changed, change = moves[key]
        shifted = (int(np.count_nonzero(classes[key] != classes["native"])) if classes
                   else np.nan)  # fmt: skip
        lines.append({"comparison": name, "rows_changed": int(changed.sum()),
                      "share": float(changed.mean()) if changed.size else 0.0,
                      "largest_change": float(change.max(initial=0.0)),
                      "class_changes": shifted})  # fmt: skip
    return pd.DataFrame(lines)


def _scan(model, Xr, Xp):
    """(rows on a threshold, rows the other precision moves across or onto one, nodes whose
    threshold some row equals, the rows in the other precision): ``_scan.scan_thresholds``;
    a membership split reads a category code, so any change of it moves the row."""
    packed = model.packed()
    Xq = cast_rows(Xr, _OTHER_PRECISION[model.precision], model.tiny_as_zero)
    as_zero = (packed.missing >> 1) == 2
    on_threshold, moved, on_value = scan_thresholds(packed.threshold_table(), packed.feature,
                                                    packed.threshold, Xp, Xq, as_zero)  # fmt: skip
    membership = np.unique(-2 - packed.feature[packed.feature < -1])
    if membership.size:
        changed = (Xp[:, membership] != Xq[:, membership]) & ~np.isnan(Xp[:, membership])
        moved |= changed.any(axis=1)
    return on_threshold, moved, on_value, Xq


_BITS_PER_CHUNK = 2**24  # the rows' feature bits walked at once (128 MB)


def _walks(model, Xp, on_threshold, n_jobs):
    """The rows' raw scores under the model's test, the other one and "half", the ties of
    their paths (per row, per node) and, per row, the features where they part: walking
    twice only the rows on a threshold (module docstring)."""
    packed = model.packed()
    tied = np.flatnonzero(on_threshold)
    native = np.empty((Xp.shape[0], model.n_outputs))
    plain = np.ones(Xp.shape[0], dtype=bool)
    plain[tied] = False
    native[plain] = raw_scores(packed, Xp[plain], model.strict_flags("native"), n_jobs,
                               float32_rows=model.precision == "float32")  # fmt: skip
    with_half = model.averaging and model.n_trees > 1
    raw = np.stack([native] * (3 if with_half else 2))
    ties, node_ties = np.zeros(Xp.shape[0], dtype=np.int64), np.zeros(packed.n_nodes, np.int64)
    bits = np.zeros((Xp.shape[0], (Xp.shape[1] + 63) // 64), dtype=np.uint64)
    half = model.strict_flags("half") != model.strict_flags("native") if with_half else None
    step = max(1, _BITS_PER_CHUNK // bits.shape[1])
    for chunk in (tied[k : k + step] for k in range(0, tied.size, step)):
        ties[chunk], counted, bits[chunk], raw[:, chunk] = both_walk(
            packed, Xp[chunk], half, n_jobs
        )
        node_ties += counted
    return raw, ties, node_ties, bits


def _affected(bits, changed, names):
    """The features where some changed row's path parts (its feature bits, or-ed)."""
    words = np.bitwise_or.reduce(bits[changed], axis=0) if changed.any() else bits[:0].sum(0)
    return sorted({names[j] for j in range(len(names)) if int(words[j >> 6]) >> (j & 63) & 1})


def _predictions(model, Xp, Xq, moved, raw, n_jobs):
    """The outputs the audit compares, by name; between the precisions, only the rows whose
    values cross a threshold are walked again."""
    native = model.output_of_cast(Xp, "native", raw[0])
    out = {"native": native, "other": model.output_of_cast(Xp, "other", raw[1])}
    if model.averaging and model.n_trees > 1:
        out["half"] = model.output_of_cast(Xp, "half", raw[2])
    out[model.native_op], out[model.other_op] = native, out["other"]
    out["average"] = 0.5 * (native + out["other"])
    precision = _OTHER_PRECISION[model.precision]
    out["precision"] = native.copy()
    if moved.any():
        out["precision"][moved] = model.output_of_cast(Xq[moved], "native", precision=precision,
                                                       n_jobs=n_jobs)  # fmt: skip
    return out


def _check_finite(out, n_rows):
    """Refuse predictions that are not finite numbers (raw scores that overflowed float64):
    a NaN under both tests differs by NaN, which no count of changed rows would include."""
    bad = np.zeros(n_rows, dtype=bool)
    for name in ("native", "other"):
        bad |= ~np.isfinite(np.asarray(out[name]).reshape(n_rows, -1)).all(axis=1)
    if bad.any():
        raise ModelFileError(
            f"The model's predictions are not finite numbers on {bad.sum():,} of the {n_rows:,} "
            "rows (its leaf values add up past the largest float64 number), so the lab cannot "
            "compare them; the file is damaged, or the rows are far outside the training data."
        )


def _row_table(model, out, ties, moves, classes):
    columns = {"thresholds_met": ties}
    for name in ("native", "other", "average", "half"):
        if name not in out:
            continue
        values = out[name]
        if model.is_classifier:
            columns[f"{name}_class"] = np.asarray(model.classes_)[classes[name]]
            for k, label in enumerate(model.classes_):
                columns[f"{name}_p_{label}"] = values[:, k]
        else:
            columns[name] = values
        if name != "native":
            columns[f"{name}_move"] = moves[name][1]
    return pd.DataFrame(columns)


def _flip_table(model, Xp, parted, changed, names, n_jobs):
    """Per node whose threshold rows sit on (every such node of their paths under the
    model's test): the rows, and of them the rows whose prediction changes."""
    packed = model.packed()
    node_ties = count_ties(packed, Xp[parted > 0], n_jobs)
    changed_node = count_ties(packed, Xp[changed], n_jobs)
    nodes = np.flatnonzero(node_ties)
    return pd.DataFrame({
        "tree": packed.tree_of[nodes], "node": packed.original[nodes],
        "feature": [names[f] for f in packed.feature[nodes]],
        "threshold": packed.threshold[nodes], "rows_on_it": node_ties[nodes],
        "rows_changed": changed_node[nodes],
    }).sort_values(["rows_changed", "rows_on_it"], ascending=False, ignore_index=True)  # fmt: skip


def audit_conditioning(model, X, n_jobs=None):
    """Audit a model for the conditioning bias on the rows ``X`` (module docstring).

    Parameters
    ----------
    model : fitted model, document or ImportedModel
        Anything :func:`trees.interop.from_model` accepts.
    X : array-like or DataFrame of shape (n_samples, n_features)
        Read as the model reads its rows (``ImportedModel.check_X``: columns by name,
        categories as codes, the sentinel as missing).
    n_jobs : int, optional
        Threads of the walks (default 2).

    Returns
    -------
    ConditioningAudit
        ``summary()`` (at least ``rho``, ``rows_on_threshold``, ``rows_changed``),
        ``headline()`` and the tables.

    Raises
    ------
    ModelInputError
        When ``X`` cannot be read as the model reads its rows, saying why.
    """
    model = from_model(model)
    names = model.column_names(X)
    Xr = model.check_X(X)
    Xp = cast_rows(Xr, model.precision, model.tiny_as_zero)
    on_threshold, moved, on_value, Xq = _scan(model, Xr, Xp)
    per_feature, per_tree = _split_tables(model, Xp, names, on_value)
    raw, ties, node_ties, bits = _walks(model, Xp, on_threshold, n_jobs)
    per_tree["rows_on_threshold"] = np.bincount(model.packed().tree_of, weights=node_ties,
                                                minlength=model.n_trees).astype(int)  # fmt: skip
    out = _predictions(model, Xp, Xq, moved, raw, n_jobs)
    _check_finite(out, Xr.shape[0])
    moves, classes = _moves(model, out)
    changed = moves["other"][0]
    return ConditioningAudit(
        model=model, n_rows=Xr.shape[0], trees=per_tree,
        rows=_row_table(model, out, ties, moves, classes),
        comparisons=_comparisons(moves, classes), affected=_affected(bits, changed, names),
        predictions=out, _splits=per_feature, _lattice_source=(Xr, Xp),
        _flip_source=(Xp, ties, changed, names, n_jobs),
    )  # fmt: skip
