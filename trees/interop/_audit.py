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
"""

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from trees.studies._lattice import lattice_features

from ._build import ModelFileError
from ._model import ImportedModel
from ._predict import tie_counts
from ._registry import from_model

__all__ = ["ConditioningAudit", "audit_conditioning"]

_OTHER_PRECISION = {"float32": "float64", "float64": "float32"}


@dataclass(eq=False)
class ConditioningAudit:
    """The audit of one model on one table of rows (tables are pandas DataFrames).

    Attributes
    ----------
    model : ImportedModel
    features : DataFrame
        Per feature: lattice or not, distinct values, splits, splits on an observed value, rho.
    trees : DataFrame
        Per tree: splits, splits on an observed value, rho, rows on its thresholds.
    rows : DataFrame
        Per row: thresholds met on the native path, the native, other-operator,
        averaged (and, for forests, half) predictions, how far each moves.
    flips : DataFrame
        Per node that rows sit on: tree, node, feature, threshold, rows on it,
        of which rows whose prediction changes with the operator.
    comparisons : DataFrame
        One line per comparison (operators, precisions, average, half):
        rows changed, share, largest change, rows whose class changes.
    """

    model: ImportedModel
    n_rows: int
    features: pd.DataFrame
    trees: pd.DataFrame
    rows: pd.DataFrame
    flips: pd.DataFrame
    comparisons: pd.DataFrame
    predictions: dict = field(repr=False, default_factory=dict)

    def summary(self):
        """The headline figures as a dict (JSON-safe)."""
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
            "n_rows": self.n_rows,
            "n_trees": self.model.n_trees,
            "n_splits": splits,
            "rho": on_value / splits if splits else 0.0,
            "lattice_features": [
                str(f) for f in self.features.loc[self.features["lattice"], "feature"]
            ],  # fmt: skip
            "rows_on_threshold": on_threshold,
            "share_on_threshold": on_threshold / self.n_rows if self.n_rows else 0.0,
            "rows_changed": int(ops["rows_changed"]),
            "share_changed": float(ops["share"]),
            "largest_change": float(ops["largest_change"]),
            "class_changes": None if pd.isna(ops["class_changes"]) else int(ops["class_changes"]),
            "rows_changed_precision": int(prec["rows_changed"]),
            "largest_change_precision": float(prec["largest_change"]),
            "average_largest_move": float(self.rows["average_move"].to_numpy().max(initial=0.0)),
            "affected_features": self.affected_features(),
        }

    def affected_features(self):
        """Names of the features of the splits where some row's prediction changes."""
        changed = self.flips.loc[self.flips["rows_changed"] > 0, "feature"]
        return sorted({str(f) for f in changed})

    def headline(self):
        """One plain sentence for the page: how many rows change, and where."""
        s = self.summary()
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
        k, p = len(s["affected_features"]), len(self.features)
        where = (f"{k} of the {p} features hold every affected split" if k < p
                 else "every feature holds some affected split")  # fmt: skip
        verb = "changes" if count == 1 else "change"
        return (f"{count:,} of {n} rows ({count / self.n_rows:.1%}) {verb} {what} "
                f"when {reading}; {where}.")  # fmt: skip


def _names(model):
    if model.feature_names and len(model.feature_names) == model.n_features:
        return list(model.feature_names)
    return [f"x{j}" for j in range(model.n_features)]


def _split_tables(model, Xp, names):
    """(per-feature, per-tree) tables of splits and of splits on an observed value."""
    packed = model.packed()
    sizes = np.array([t.node_count for t in model.trees])
    tree_of = np.repeat(np.arange(model.n_trees), sizes)
    split = packed.feature >= 0
    on_value = np.zeros(split.shape[0], dtype=bool)
    for j in np.unique(packed.feature[split]):
        column = Xp[:, j]
        nodes = split & (packed.feature == j)
        on_value[nodes] = np.isin(packed.threshold[nodes], np.unique(column[~np.isnan(column)]))
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
    return per_feature, per_tree, tree_of


def _change(a, b):
    """Per row, the largest absolute difference of two predictions (probabilities or values)."""
    diff = np.abs(np.asarray(a) - np.asarray(b))
    return diff.max(axis=1) if diff.ndim == 2 else diff


def _comparison(name, a, b, is_classifier):
    change = _change(a, b)
    changed = change > 0
    classes = (
        int(np.count_nonzero(np.argmax(a, axis=1) != np.argmax(b, axis=1)))
        if is_classifier else np.nan
    )  # fmt: skip
    return {"comparison": name, "rows_changed": int(changed.sum()),
            "share": float(changed.mean()) if changed.size else 0.0,
            "largest_change": float(change.max(initial=0.0)), "class_changes": classes}  # fmt: skip


def _rounding_moves(model, Xp, Xq):
    """Rows whose value moves across (or onto) some threshold of its feature between the two
    precisions: the only rows whose path can differ (membership features: any change)."""
    packed = model.packed()
    moved = np.zeros(Xp.shape[0], dtype=bool)
    for j in range(model.n_features):
        changed = (Xp[:, j] != Xq[:, j]) & ~np.isnan(Xp[:, j])
        if not changed.any():
            continue
        if np.any(packed.feature == -2 - j):
            moved |= changed
            continue
        thresholds = np.unique(packed.threshold[packed.feature == j])
        lo = np.minimum(Xp[changed, j], Xq[changed, j])
        hi = np.maximum(Xp[changed, j], Xq[changed, j])
        between = np.searchsorted(thresholds, lo, "left") < np.searchsorted(thresholds, hi, "right")
        moved[np.flatnonzero(changed)[between]] = True
    return moved


def _predictions(model, X, Xp, ties, raw):
    """The outputs the audit compares, by name, walking again only the rows that can differ.

    ``raw``: the raw scores of ``Xp`` under the native and the other operator
    (the tie count's walk). A row with no threshold equal to its value on
    its path takes the same path under "half" as natively; a row whose
    values cross no threshold between the two precisions, the same path in both.
    """
    native = model.output_of_cast(Xp, "native", raw[0])
    out = {"native": native, "other": model.output_of_cast(Xp, "other", raw[1])}
    if model.averaging and model.n_trees > 1:
        tied = ties > 0
        out["half"] = native.copy()
        if tied.any():
            out["half"][tied] = model.output_of_cast(Xp[tied], "half")
    out[model.native_op], out[model.other_op] = native, out["other"]
    out["average"] = 0.5 * (native + out["other"])
    Xq = model.cast(X, _OTHER_PRECISION[model.precision])
    moved = _rounding_moves(model, Xp, Xq)
    out["precision"] = native.copy()
    if moved.any():
        out["precision"][moved] = model.output_of_cast(Xq[moved], "native")
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


def _row_table(model, out, ties):
    # The columns are gathered first and framed once: inserted one at a time, a 1,000-class
    # model's 4,000 columns took seconds and a pandas warning per insert.
    rows = {"thresholds_met": ties}
    for name in ("native", "other", "average", "half"):
        if name not in out:
            continue
        values = out[name]
        if model.is_classifier:
            labels = np.asarray(model.classes_)[values.argmax(axis=1)]
            rows[f"{name}_class"] = labels
            for k, label in enumerate(model.classes_):
                rows[f"{name}_p_{label}"] = values[:, k]
        else:
            rows[name] = values
        if name != "native":
            rows[f"{name}_move"] = _change(values, out["native"])
    return pd.DataFrame(rows)


def _flip_table(model, Xp, ties_node, changed, tree_of, names):
    packed = model.packed()
    strict = model.strict_flags("native")
    _, changed_node, _ = tie_counts(packed, Xp[changed], strict)
    nodes = np.flatnonzero(ties_node)
    return pd.DataFrame({
        "tree": tree_of[nodes], "node": nodes - packed.roots[tree_of[nodes]],
        "feature": [names[f] for f in packed.feature[nodes]],
        "threshold": packed.threshold[nodes], "rows_on_it": ties_node[nodes],
        "rows_changed": changed_node[nodes],
    }).sort_values(["rows_changed", "rows_on_it"], ascending=False, ignore_index=True)  # fmt: skip


def audit_conditioning(model, X):
    """Audit a model for the conditioning bias on the rows ``X`` (module docstring).

    Parameters
    ----------
    model : fitted model, document or ImportedModel
        Anything :func:`trees.interop.from_model` accepts.
    X : array-like or DataFrame of shape (n_samples, n_features)

    Returns
    -------
    ConditioningAudit
        ``summary()`` (at least ``rho``, ``rows_on_threshold``, ``rows_changed``),
        ``headline()`` and the tables.
    """
    model = from_model(model)
    names = list(X.columns) if hasattr(X, "columns") else _names(model)
    X = model.check_X(X)
    Xp = model.cast(X)
    per_feature, per_tree, tree_of = _split_tables(model, Xp, [str(n) for n in names])
    per_feature.insert(1, "lattice", lattice_features(X))
    per_feature.insert(2, "n_values", [np.unique(c[~np.isnan(c)]).size for c in Xp.T])
    ties, ties_node, raw = tie_counts(model.packed(), Xp, model.strict_flags("native"))
    per_tree["rows_on_threshold"] = np.bincount(tree_of, weights=ties_node,
                                                minlength=model.n_trees).astype(int)  # fmt: skip
    out = _predictions(model, X, Xp, ties, raw)
    _check_finite(out, X.shape[0])
    clf = model.is_classifier
    comparisons = [_comparison("<= vs <", out["<="], out["<"], clf),
                   _comparison("float32 vs float64", out["native"], out["precision"], clf),
                   _comparison("average vs native", out["average"], out["native"], clf)]  # fmt: skip
    if "half" in out:
        comparisons.append(_comparison("half vs native", out["half"], out["native"], clf))
    changed = _change(out["<="], out["<"]) > 0
    return ConditioningAudit(
        model=model, n_rows=X.shape[0], features=per_feature, trees=per_tree,
        rows=_row_table(model, out, ties),
        flips=_flip_table(model, Xp, ties_node, changed, tree_of, [str(n) for n in names]),
        comparisons=pd.DataFrame(comparisons), predictions=out,
    )  # fmt: skip
