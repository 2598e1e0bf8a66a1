"""Rows on every threshold, and a parity check of two predictors on them (issue 31, part 3).

Source 000, section 2.3: only rows whose value equals a threshold tell the
two operators apart; by the same token only such rows (and rows one unit in
the last place either side) tell a faithful converter or serving runtime
(ONNX, treelite, a SQL or C port) from one that compares with the other
operator or in another precision. :func:`threshold_probes` builds them along
realistic paths; :func:`parity_check` runs them through two predictors.
"""

from dataclasses import dataclass

import numpy as np
import pandas as pd

from ._inputs import ModelInputError, array_rows
from ._registry import from_model

__all__ = ["PROBE_COLUMNS", "ParityReport", "parity_check", "probe_values", "threshold_probes"]

PROBE_COLUMNS = ("probe_tree", "probe_node", "probe_feature", "probe_threshold", "probe_side")
_SAMPLE = 256


def _neighbours(t, precision):
    """The largest value below ``t`` and the smallest above it, in ``precision`` (``t`` a
    float, or an array of them)."""
    t = np.asarray(t, dtype=np.float64)
    if precision == "float64":
        below, above = np.nextafter(t, -np.inf), np.nextafter(t, np.inf)
    else:
        with np.errstate(over="ignore"):
            v = t.astype(np.float32)
        below = np.where(v < t, v, np.nextafter(v, np.float32(-np.inf))).astype(np.float64)
        above = np.where(v > t, v, np.nextafter(v, np.float32(np.inf))).astype(np.float64)
    return (float(below), float(above)) if t.ndim == 0 else (below, above)


def _base_rows(model, X, seed):
    """Up to ``_SAMPLE`` complete rows to start probes from, and a fallback row."""
    if X is None:
        return np.zeros((0, model.n_features)), np.zeros(model.n_features)
    X = model.cast(X)
    medians = np.nan_to_num(np.nanmedian(np.where(np.isnan(X), np.nan, X), axis=0))
    X = np.where(np.isnan(X), medians, X)
    rng = np.random.default_rng(seed)
    if X.shape[0] > _SAMPLE:
        X = X[rng.choice(X.shape[0], _SAMPLE, replace=False)]
    return X, medians


def _inside(row, lo, hi):
    """``row`` moved, feature by feature, strictly inside the bounds ``(lo, hi)`` of a path."""
    row = row.copy()
    bad = ~((row > lo) & (row < hi))
    both = bad & np.isfinite(lo) & np.isfinite(hi)
    row[both] = (lo[both] + hi[both]) / 2
    row[bad & np.isfinite(lo) & ~np.isfinite(hi)] = lo[bad & np.isfinite(lo) & ~np.isfinite(hi)] + 1
    row[bad & ~np.isfinite(lo) & np.isfinite(hi)] = hi[bad & ~np.isfinite(lo) & np.isfinite(hi)] - 1
    return row


def _tree_probes(model, t, sample, fallback, budget):
    """Probe rows of tree ``t``: (rows, meta) for its numeric splits, depth first."""
    tree, strict = model.trees[t], model.native_op == "<"
    n = model.n_features
    stack = [(0, np.full(n, -np.inf), np.full(n, np.inf), np.ones(sample.shape[0], dtype=bool))]
    rows, meta = [], []
    while stack and len(rows) < budget:
        node, lo, hi, reach = stack.pop()
        f = tree.feature[node]
        if f < 0 or tree.categories[node] is not None:
            continue
        thr = tree.threshold[node]
        if np.isfinite(thr):
            base = sample[np.flatnonzero(reach)[0]] if reach.any() else _inside(fallback, lo, hi)
            below, above = _neighbours(thr, model.precision)
            for side, value in (("below", below), ("on", thr), ("above", above)):
                row = base.copy()
                row[f] = value
                rows.append(row)
                meta.append((t, node, int(f), thr, side))
        left = (sample[:, f] < thr) if strict else (sample[:, f] <= thr)
        hi_left, lo_right = hi.copy(), lo.copy()
        hi_left[f], lo_right[f] = min(hi[f], thr), max(lo[f], thr)
        stack.append((tree.right[node], lo_right, hi, reach & ~left))
        stack.append((tree.left[node], lo, hi_left, reach & left))
    return rows, meta


def threshold_probes(model, X=None, max_probes=30_000, seed=0):
    """Rows placed on every split's threshold and one ulp either side (module docstring).

    Each probe starts from a row of ``X`` that reaches the split (a sample
    of at most 256 rows, missing values filled by medians), or, when none
    does or ``X`` is None, from a synthetic row moved inside the bounds of
    the path to the split; the split's feature is then set to the
    threshold, and to the nearest values below and above it in the model's
    precision. Categorical (membership) splits have no threshold and no probe.

    Parameters
    ----------
    model : anything :func:`trees.interop.from_model` accepts
    X : array-like, optional
    max_probes : int, default=30_000
        Stop after this many rows (three per split).
    seed : int, default=0

    Returns
    -------
    DataFrame
        One column per feature (``ImportedModel.column_names``), in the order
        the trees index them, then :data:`PROBE_COLUMNS`; a categorical
        feature's column holds the model's categories where it stores them.
        ``attrs["feature_columns"]`` lists the feature columns.
    """
    model = from_model(model)
    names = model.column_names(X)
    sample, fallback = _base_rows(model, X, seed)
    rows, meta = [], []
    for t in range(model.n_trees):
        more_rows, more_meta = _tree_probes(model, t, sample, fallback, max_probes - len(rows))
        rows += more_rows
        meta += more_meta
        if len(rows) >= max_probes:
            break
    values = np.array(rows).reshape(-1, model.n_features)
    frame = _with_categories(model, pd.DataFrame(values, columns=[str(n) for n in names]))
    info = pd.DataFrame(meta, columns=list(PROBE_COLUMNS)).astype({"probe_feature": int})
    info["probe_feature"] = [str(names[f]) for f in info["probe_feature"]]
    frame = pd.concat([frame, info], axis=1)
    frame.attrs["feature_columns"] = [str(n) for n in names]
    return frame


def _stored_categories(model):
    """(column of the probes, the categories the model stores) of each categorical feature."""
    order = model.inputs.order or range(model.n_features)
    return [(j, model.inputs.categories[column]) for j, column in enumerate(order)
            if column in model.inputs.categories]  # fmt: skip


def _with_categories(model, frame):
    """The probes' categorical columns as the categories the model stores (their values are
    codes), so that the frame reads back as the model reads its rows."""
    for j, stored in _stored_categories(model):
        codes = frame.iloc[:, j].to_numpy()
        frame.isetitem(j, pd.Series([None if np.isnan(c) else stored[int(c)] for c in codes],
                                    dtype=object))  # fmt: skip
    return frame


def probe_values(model, probes):
    """The probes' feature columns as the values the lab reads (the trees' order, a category
    as its code): the inverse of :func:`_with_categories`.

    Parameters
    ----------
    model : ImportedModel
    probes : DataFrame
        From :func:`threshold_probes` (its rows moved or added, its columns kept).

    Returns
    -------
    ndarray of shape (n_probes, n_features), float64
    """
    frame = probes[probes.attrs["feature_columns"]]
    coded = dict(_stored_categories(model))
    values = np.empty(frame.shape, dtype=np.float64)
    for j in range(frame.shape[1]):
        column = frame.iloc[:, j]
        if j in coded:
            codes = pd.Index(list(coded[j]), dtype=object).get_indexer(column.astype(object))
            values[:, j] = np.where(codes >= 0, codes, np.nan)
        else:
            values[:, j] = column.to_numpy(dtype=np.float64)
    return values


@dataclass
class ParityReport:
    """The probes on which two predictors disagree.

    Attributes
    ----------
    n_probes : int
    disagreements : DataFrame
        The disagreeing probes (their features and :data:`PROBE_COLUMNS`),
        with ``a``, ``b`` (the first output column of each) and ``difference``.
    """

    n_probes: int
    disagreements: pd.DataFrame

    def summary(self):
        """Counts: probes, disagreements, and disagreements by side of the threshold."""
        sides = self.disagreements["probe_side"].value_counts()
        return {"n_probes": self.n_probes, "n_disagree": len(self.disagreements),
                **{f"disagree_{side}": int(sides.get(side, 0))
                   for side in ("below", "on", "above")}}  # fmt: skip


def _probe_array(probes, model):
    """The probes as the float64 array the predictors take (:func:`parity_check`)."""
    if model is not None:
        model = from_model(model)
        return array_rows(model.inputs, probe_values(model, probes))
    columns = probes.attrs.get("feature_columns") or [
        c for c in probes.columns if c not in PROBE_COLUMNS
    ]
    frame = probes[columns]
    text = [str(c) for c in columns if not pd.api.types.is_numeric_dtype(frame[c].dtype)]
    if text:
        raise ModelInputError(
            f"The probes hold the model's categories in {', '.join(text)}, which no float64 "
            "array holds: pass the model too (parity_check(a, b, probes, model=model)), and "
            "the predictors get the array its library's predict takes."
        )
    return frame.to_numpy(dtype=np.float64)


def parity_check(predict_a, predict_b, probes, atol=1e-6, rtol=1e-6, model=None):
    """Run the probes through two predictors and list where they disagree.

    Parameters
    ----------
    predict_a, predict_b : callable
        Each takes a float64 array of shape (n_probes, n_features) and returns
        an array of shape (n_probes,) or (n_probes, k) (cast inside as the
        predictor needs, e.g. to float32 for ONNX).
    probes : DataFrame
        From :func:`threshold_probes`.
    atol, rtol : float
        Outputs closer than ``atol + rtol * |a|`` agree.
    model : optional
        The model the probes were made for: the predictors then get the array its
        library's predict takes (``_inputs.array_rows``: the training columns' order, a
        category as the library's code or value). Needed where the probes hold categories.

    Returns
    -------
    ParityReport
    """
    X = _probe_array(probes, model)
    a = np.asarray(predict_a(X), dtype=np.float64).reshape(X.shape[0], -1)
    b = np.asarray(predict_b(X), dtype=np.float64).reshape(X.shape[0], -1)
    if a.shape != b.shape:
        raise ValueError(f"The predictors' outputs differ in shape: {a.shape} and {b.shape}.")
    gap = np.abs(a - b)
    bad = np.any(gap > atol + rtol * np.abs(a), axis=1)
    out = probes.loc[bad].copy()
    out["a"], out["b"], out["difference"] = a[bad, 0], b[bad, 0], gap[bad].max(axis=1)
    return ParityReport(n_probes=int(X.shape[0]), disagreements=out.reset_index(drop=True))
