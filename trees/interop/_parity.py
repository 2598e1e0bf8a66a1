"""Which runtime disagrees with a model, on which rows, why, and what to ship instead.

:func:`parity_report` runs rows through each runtime of ``_runtimes.RUNTIMES`` (the ONNX
files of the lab and of the usual converter in onnxruntime, treelite, m2cgen) and
compares each runtime's probabilities or values with the library's own predict
(``_library``): the probe rows of :func:`threshold_probes` (on every threshold and one
ulp either side, source 000 section 2.3: only such rows tell two tests or precisions
apart), and the user's own rows when given, read by the lab's one rule for rows
(``ImportedModel.check_X``: columns by name, categories as the library's codes, XGBoost's
sentinel as missing). The library and every runtime get them as the array the library's
own predict takes (``_inputs.array_rows``: the training columns' order, a category as the
library's code or, for ``HistGradientBoosting``, its value), and a model whose rows no
array holds (``HistGradientBoosting`` with text categories) has every runtime say so.

Each disagreeing row is then explained with the lab's own walk (``_predict``): the
library's routing changed in one or two ways, in order (the first that reproduces the
runtime's output on that row, within the tolerance, is its cause):

* the test: ``x < t`` where the library tests ``x <= t``, or the reverse;
* the row's precision: rounded to float32 where the library compares float64 values
  (LightGBM, ``HistGradientBoosting``), or compared in float64 where the library
  rounds it to float32 first;
* the threshold rounded to the nearest float32;
* every missing value sent left, or right, whatever the node learned.

The node is where the library's path and the explaining walk's part: in the first tree
whose leaves differ, the deepest node both paths pass (their leaves' common ancestor).
Its threshold and the row's value there give the side (below, on, above). Each cause
has its fix in words (the lab's export, a cast of the input, a nudged threshold).
"""

from dataclasses import dataclass, field
from itertools import combinations

import numpy as np
import pandas as pd

from ._inputs import LIBRARY_NAMES, ModelInputError, array_rows
from ._library import LibraryMissing, library_model, library_output
from ._predict import cast_rows, leaf_nodes, raw_scores
from ._probes import _neighbours, _with_categories, probe_values, threshold_probes
from ._registry import from_model
from ._runtimes import RUNTIMES, RuntimeUnavailable, onnx_predictor, shaped_output

__all__ = ["DISAGREEMENT_COLUMNS", "RuntimeParityReport", "check_export", "parity_report"]

DISAGREEMENT_COLUMNS = ("runtime", "row", "source", "tree", "node", "feature", "threshold",
                        "value", "side", "library", "runtime_output", "difference", "cause",
                        "fix")  # fmt: skip
_OTHER_PRECISION = {"float32": "float64", "float64": "float32"}


@dataclass(frozen=True)
class _Variant:
    """The library's routing changed in some ways (module docstring); defaults change nothing."""

    other_test: bool = False
    rows: str | None = None  # the precision the rows are compared in, when not the library's
    rounded_thresholds: bool = False
    missing: str | None = None  # "left" or "right": every missing value goes that way


def _variants(model):
    """The single changes, then the pairs of changes of different kinds, in that order."""
    singles = [
        _Variant(other_test=True),
        _Variant(rows=_OTHER_PRECISION[model.precision]),
        _Variant(rounded_thresholds=True),
        _Variant(missing="left"),
        _Variant(missing="right"),
    ]
    pairs = []
    for a, b in combinations(singles, 2):
        if a.missing and b.missing:
            continue
        pairs.append(_Variant(**dict(_parts(a) | _parts(b))))
    return singles + pairs


def _parts(variant):
    """The changes a variant makes, as a set (a pair's includes each of its singles')."""
    default = _Variant()
    return {(k, v) for k, v in vars(variant).items() if v != getattr(default, k)}


def _cause(model, variant):
    """The variant in words: what the runtime does differently from the library."""
    lib = LIBRARY_NAMES[model.library]
    parts = []
    if variant.other_test:
        parts.append(f"it tests x {model.other_op} t where {lib} tests x {model.native_op} t")
    if variant.rows == "float32":
        parts.append(f"it rounds the row to float32 where {lib} compares float64 values")
    if variant.rows == "float64":
        parts.append(f"it compares the float64 row where {lib} rounds it to float32 first")
    if variant.rounded_thresholds:
        parts.append("it rounds the threshold to the nearest float32")
    if variant.missing:
        parts.append(f"it sends every missing value {variant.missing}, where {lib} sends it the "
                     "way each node learned")  # fmt: skip
    return "; ".join(parts)


def _fix(model, variant):
    """What to ship or change so that the runtime agrees with the library (variant's parts)."""
    parts = []
    if variant.other_test:
        parts.append(f"ship the lab's export (export_onnx(model): x {model.native_op} t)")
    if variant.rows == "float32":
        parts.append("feed float64 rows to a runtime comparing float64 thresholds: the lab's "
                     "export")  # fmt: skip
    if variant.rows == "float64":
        parts.append("cast the rows to float32 before predicting (X.astype(np.float32))")
    if variant.rounded_thresholds:
        parts.append("nudge each threshold to the float32 that routes every float32 row as "
                     "the library does (the lab's export writes those)")  # fmt: skip
    if variant.missing:
        parts.append("the lab's export (it keeps each node's direction for missing values)")
    return "; ".join(dict.fromkeys(parts))


_UNEXPLAINED = ("no test, rounding or missing-value rule the lab knows reproduces the runtime's "
                "output (its arithmetic, or how it read the model)")  # fmt: skip
_UNEXPLAINED_FIX = "ship the lab's export, which reproduces the library"


class _Walks:
    """The library's routing and its variants on a set of rows (``X``: as the lab reads them,
    in the trees' order), with the pack's tree layout (``Pack.links``: each node's parent and
    level; ``Pack.original``: its id in its tree)."""

    def __init__(self, model, X):
        self.model, self.X = model, X
        self.base = model.packed()
        self.parent, self.level = self.base.links()
        # the rows as the library's predict (and so every runtime) reads an array, or why none
        try:
            self.array, self.refusal = array_rows(model.inputs, X), ""
        except ModelInputError as refusal:
            self.array, self.refusal = None, str(refusal)

    def _pack(self, variant):
        b = self.base
        threshold, missing = b.threshold, b.missing
        if variant.rounded_thresholds:
            with np.errstate(over="ignore"):
                threshold = threshold.astype(np.float32).astype(np.float64)
        if variant.missing:
            missing = ((missing & ~1) | int(variant.missing == "left")).astype(np.int8)
        if threshold is b.threshold and missing is b.missing:
            return b
        return b.with_nodes(threshold, missing)

    def _inputs(self, variant, rows):
        model = self.model
        X = cast_rows(self.X[rows], variant.rows or model.precision, model.tiny_as_zero)
        op = model.other_op if variant.other_test else model.native_op
        return self._pack(variant), X, model.strict_flags(op)

    def output(self, variant, rows):
        """The model's probabilities or values on ``rows`` under ``variant``."""
        packed, X, strict = self._inputs(variant, rows)
        return self.model.output_of_cast(X, None, raw=raw_scores(packed, X, strict))

    def leaves(self, variant, rows=slice(None)):
        packed, X, strict = self._inputs(variant, rows)
        return leaf_nodes(packed, X, strict)

    def parting_node(self, a, b):
        """The deepest node on both root-to-leaf paths of leaves ``a`` and ``b`` (pack ids)."""
        while self.level[a] > self.level[b]:
            a = self.parent[a]
        while self.level[b] > self.level[a]:
            b = self.parent[b]
        while a != b:
            a, b = self.parent[a], self.parent[b]
        return a


def _close(a, b, atol, rtol):
    """Rows on which two output arrays agree within ``atol + rtol * |a|``."""
    a, b = a.reshape(a.shape[0], -1), b.reshape(b.shape[0], -1)
    return np.all(np.abs(a - b) <= atol + rtol * np.abs(a), axis=1)


def _explain(walks, rows, runtime_out, atol, rtol):
    """Per disagreeing row (indices ``rows``): its variant (or None) and where it parts.

    A runtime has its own way of reading the model, so the variant that reproduces the most
    of its rows is taken first, then the one that reproduces the most of those left, and so
    on (the earlier of :func:`_variants` on a tie): a row on a threshold that both "the
    other test" and "the row rounded to float32" reproduce is put down to the mechanism that
    explains the runtime's other rows too.
    """
    causes = [None] * len(rows)
    if len(rows) == 0:
        return causes, []
    variants = _variants(walks.model)
    matches = np.array([_close(walks.output(v, rows), runtime_out, atol, rtol) for v in variants])
    left = np.ones(len(rows), dtype=bool)
    while True:
        counts = (matches & left).sum(axis=1)
        best = int(np.argmax(counts))  # the first of the largest
        if counts[best] == 0:
            break
        # each row gets the simplest part of that variant that reproduces it: a probe row
        # with no missing value is not put down to the runtime's missing-value rule
        parts = [u for u, v in enumerate(variants) if _parts(v) <= _parts(variants[best])]
        for i in np.flatnonzero(matches[best] & left):
            causes[i] = variants[next(u for u in parts if matches[u, i])]
        left &= ~matches[best]
    places = [None] * len(rows)
    native = walks.leaves(_Variant(), rows)  # the disagreeing rows' own leaves only
    for variant in set(c for c in causes if c is not None):
        chosen = np.array([i for i, c in enumerate(causes) if c == variant])
        other = walks.leaves(variant, rows[chosen])
        for k, i in enumerate(chosen):
            differ = np.flatnonzero(other[k] != native[i])
            if differ.size:
                t = int(differ[0])
                node = walks.parting_node(native[i, t], other[k, t])
                places[i] = (t, int(walks.base.original[node]))
    return causes, places


def _side(tree, node, value):
    if tree.categories[node] is not None:
        return "category"
    if np.isnan(value):
        return "missing"
    threshold = tree.threshold[node]
    return "below" if value < threshold else ("on" if value == threshold else "above")


@dataclass(eq=False)
class RuntimeParityReport:
    """Each runtime's disagreements with the library on probe rows and the user's rows.

    Attributes
    ----------
    model : ImportedModel
    reference : str
        What the runtimes are compared with: the library's own predict, or (when the
        library or its document is missing) the lab's walk, which reproduces it.
    rows : DataFrame
        The rows checked: one column per feature, :data:`PROBE_COLUMNS` (NaN on the user's
        rows), ``probe_ulp`` (the precision whose ulp a row below or above a threshold is
        away: every threshold has both) and ``source`` ("probe" or "your rows").
    summary : DataFrame
        One line per runtime: ``runtime``, ``label``, ``status`` (``RUNTIME_STATUSES``),
        ``detail``, ``rows``, ``disagree``, the disagreements ``below``, ``on`` and
        ``above`` the threshold where their paths part and ``elsewhere`` (a missing value, a
        category, or no path that parts), the causes (commonest first, with their rows when
        there are several) and the fixes.
    disagreements : DataFrame
        One line per runtime and disagreeing row (:data:`DISAGREEMENT_COLUMNS`): where the
        paths part (tree, node, feature, threshold, the row's value, side), the library's
        and the runtime's output there (the output that differs most), cause and fix.
    note : str
        How the user's rows were chosen ("" when all were checked).
    cancelled : bool
        Whether a Stop ended the report before every runtime ran.
    array : ndarray or None
        The rows as the library's predict and the runtimes read them (``_inputs.array_rows``:
        the training columns' order), None where no array holds them (the summary says why).
    """

    model: object
    reference: str
    rows: pd.DataFrame
    summary: pd.DataFrame
    disagreements: pd.DataFrame
    note: str = ""
    cancelled: bool = False
    outputs: dict = field(default_factory=dict, repr=False)
    array: object = field(default=None, repr=False)

    def table(self, runtime):
        """The disagreements of one runtime."""
        return self.disagreements[self.disagreements["runtime"] == runtime].reset_index(drop=True)

    def counts(self):
        """Runtime -> rows that disagree (None for a runtime that did not run)."""
        return {r["runtime"]: (int(r["disagree"]) if r["status"] == "ran" else None)
                for r in self.summary.to_dict("records")}  # fmt: skip


def _with_other_ulps(probes, model):
    """The probes, and rows one ulp of the *other* precision either side of each threshold
    (``probe_ulp`` says which precision's ulp a row is away): a float64 ulp tells a float32
    library from a runtime that keeps float64 rows, a float32 ulp a float64 library from a
    runtime that rounds its thresholds to float32."""
    columns = probes.attrs["feature_columns"]
    probes = probes.assign(probe_ulp=np.where(probes["probe_side"] == "on", "", model.precision))
    on = probes[probes["probe_side"] == "on"]
    other = _OTHER_PRECISION[model.precision]
    parts = [probes]
    for k, side in enumerate(("below", "above")):
        part = on.copy()
        for feature, index in part.groupby("probe_feature").groups.items():
            part.loc[index, feature] = _neighbours(part.loc[index, "probe_threshold"], other)[k]
        part["probe_side"], part["probe_ulp"] = side, other
        parts.append(part)
    out = pd.concat(parts, ignore_index=True)
    out.attrs["feature_columns"] = columns
    return out


def _checked_rows(model, X, max_probes, max_rows, seed):
    """The probe rows (one ulp of either precision either side of each threshold) and (a
    sample of at most ``max_rows`` of) the user's rows, as shown (a category as the model
    stores it) and as the lab reads them (``probe_values``, ``check_X``), and a note."""
    probes = threshold_probes(model, X, max_probes=max_probes, seed=seed)
    columns = probes.attrs["feature_columns"]
    probes = _with_other_ulps(probes, model)
    probes["source"] = "probe"
    values = probe_values(model, probes)
    if X is None:
        return probes, values, ""
    mine = model.check_X(X)
    note = ""
    if mine.shape[0] > max_rows:
        keep = np.sort(np.random.default_rng(seed).choice(mine.shape[0], max_rows, replace=False))
        note = (f"{max_rows:,} of your {mine.shape[0]:,} rows, drawn at random (seed {seed}), "
                "with every probe row")  # fmt: skip
        mine = mine[keep]
    shown = _with_categories(model, pd.DataFrame(mine, columns=columns)).assign(source="your rows")
    rows = pd.concat([probes, shown], ignore_index=True)
    rows.attrs["feature_columns"] = columns
    return rows, np.vstack([values, mine]), note


def _reference(model, imported, walks):
    """The library's own object, its outputs on the rows and their name, or the lab's walk
    (which reproduces them, ``tests/test_interop_import.py``) when the library is missing or
    fails, said so. A missing library's object is the :class:`LibraryMissing` saying why, so
    that the runtimes built from it say so too (``_runtimes._own``)."""
    own = walks.output(_Variant(), slice(None))
    try:
        library = library_model(model, imported)
    except LibraryMissing as missing:
        return missing, own, f"the lab's walk of the model ({missing})"
    name = LIBRARY_NAMES[imported.library]
    if walks.array is None:
        return library, own, f"the lab's walk of the model ({walks.refusal})"
    try:
        return library, library_output(library, imported, walks.array), f"{name}'s own predict"
    except Exception as error:  # the library's own predict refused these rows
        said = f"the lab's walk of the model ({name}'s own predict failed on these rows: {error})"
        return library, own, said


def _disagreement_frame(name, walks, rows, columns, bad, outputs, explained):
    """The disagreement lines of one runtime (:data:`DISAGREEMENT_COLUMNS`)."""
    reference, runtime_out = outputs
    model, lines = walks.model, []
    for k, i in enumerate(bad):
        variant, place = explained[0][k], explained[1][k]
        gap = np.abs(np.atleast_1d(reference[i]) - np.atleast_1d(runtime_out[i]))
        column = int(np.argmax(gap))
        tree = node = feature = threshold = value = np.nan
        side = "" if variant is None else "not located"
        if place is not None:
            t, node = place
            tree_obj, f = model.trees[t], int(model.trees[t].feature[place[1]])
            tree, feature, threshold = t, columns[f], float(tree_obj.threshold[node])
            value = float(walks.X[i, f])
            side = _side(tree_obj, node, value)
        lines.append((name, int(i), rows["source"].iat[i], tree, node, feature, threshold, value,
                      side, float(np.atleast_1d(reference[i])[column]),
                      float(np.atleast_1d(runtime_out[i])[column]), float(gap.max()),
                      _UNEXPLAINED if variant is None else _cause(model, variant),
                      _UNEXPLAINED_FIX if variant is None else _fix(model, variant)))  # fmt: skip
    return pd.DataFrame(lines, columns=list(DISAGREEMENT_COLUMNS))


def _summary_line(name, library, status, detail, n_rows, table=None):
    label = RUNTIMES[name].label_for(library) if name in RUNTIMES else "your own predictor"
    line = {"runtime": name, "label": label, "status": status, "detail": detail,
            "rows": n_rows, "disagree": None, "below": None, "on": None, "above": None,
            "elsewhere": None, "cause": "", "fix": ""}  # fmt: skip
    if table is not None:
        sides = {s: int((table["side"] == s).sum()) for s in ("below", "on", "above")}
        line.update(disagree=len(table), elsewhere=len(table) - sum(sides.values()), **sides)
        if len(table):
            causes = table["cause"].value_counts()
            line["cause"] = causes.index[0] if len(causes) == 1 else "; ".join(
                f"{cause} ({n:,} rows)" for cause, n in causes.items())  # fmt: skip
            fixes = [table.loc[table["cause"] == cause, "fix"].iat[0] for cause in causes.index]
            line["fix"] = "; ".join(dict.fromkeys(p for f in fixes for p in f.split("; ")))
    return line


def _run_one(runtime, imported, library, walks, rows, columns, reference, tolerance):
    """(summary line, disagreement table or None, outputs or None) of one runtime: a name of
    ``RUNTIMES`` or a ``(name, predict)`` pair."""
    n, lib = walks.X.shape[0], imported.library
    name, own = runtime if isinstance(runtime, tuple) else (runtime, None)
    if walks.array is None:  # no array holds the rows (_inputs.array_rows says why)
        return _summary_line(name, lib, "does not read this model", walks.refusal, n), None, None
    try:
        if own is None:
            out = RUNTIMES[name].build(imported, library)(walks.array)
        else:
            out = shaped_output(own(walks.array.copy()), imported, n)
    except RuntimeUnavailable as unavailable:
        return _summary_line(name, lib, unavailable.status, unavailable.detail, n), None, None
    except Exception as error:  # a runtime's own failure on these rows
        said = f"it raised {type(error).__name__} on these rows: {error}"[:300]
        return _summary_line(name, lib, "fails", said, n), None, None
    bad = np.flatnonzero(~_close(reference, out, *tolerance))
    explained = _explain(walks, bad, out[bad], *tolerance)
    table = _disagreement_frame(name, walks, rows, columns, bad, (reference, out), explained)
    return _summary_line(name, lib, "ran", "", n, table), table, out


def parity_report(
    model,
    X=None,
    runtimes=None,
    *,
    max_probes=30_000,
    max_rows=5_000,
    seed=0,
    atol=1e-6,
    rtol=1e-6,
    progress=None,
    should_stop=None,
):
    """Probe rows (and the user's rows) through each runtime, against the library (module
    docstring).

    Parameters
    ----------
    model : anything :func:`trees.interop.from_model` accepts
        Best the library's own fitted model (or its document): runtimes other than the
        lab's export start from it.
    X : array-like or DataFrame of shape (n_samples, n_features), optional
        The user's rows, read by the model's rule (``ImportedModel.check_X``): the probes
        start from them, and they are checked too.
    runtimes : sequence, optional
        Names from ``RUNTIMES`` (default: all; one that is not installed is listed as
        such), or ``(name, predict)`` pairs for a predictor of one's own (a port, a
        service): ``predict`` takes float64 rows (the array the library's predict takes,
        ``RuntimeParityReport.array``) and returns class probabilities (or the positive
        class's) or values.
    max_probes, seed
        As :func:`threshold_probes`.
    max_rows : int, default=5_000
        At most this many of the user's rows are checked (drawn at random, said in ``note``).
    atol, rtol : float
        Outputs closer than ``atol + rtol * |library|`` agree.
    progress : callable, optional
        ``progress(done, total)`` after each runtime.
    should_stop : callable, optional
        Checked before each runtime; True ends the report there (``cancelled``).

    Returns
    -------
    RuntimeParityReport
    """
    names = list(RUNTIMES) if runtimes is None else list(runtimes)
    unknown = [n for n in names if not isinstance(n, tuple) and n not in RUNTIMES]
    if unknown:
        raise ValueError(f"Unknown runtimes {unknown}; choose from {list(RUNTIMES)}, or give "
                         "(name, predict) pairs for your own.")  # fmt: skip
    imported = from_model(model)
    rows, values, note = _checked_rows(imported, X, max_probes, max_rows, seed)
    columns = rows.attrs["feature_columns"]
    walks = _Walks(imported, values)
    library, reference, said = _reference(model, imported, walks)
    lines, tables, outputs, cancelled = [], [], {}, False
    for done, name in enumerate(names):
        if should_stop is not None and should_stop():
            cancelled = True
            break
        line, table, out = _run_one(name, imported, library, walks, rows, columns, reference,
                                    (atol, rtol))  # fmt: skip
        lines.append(line)
        if table is not None:
            tables.append(table)
            outputs[line["runtime"]] = out
        if progress is not None:
            progress(done + 1, len(names))
    frame = pd.concat(tables, ignore_index=True) if tables else pd.DataFrame(
        columns=list(DISAGREEMENT_COLUMNS))  # fmt: skip
    return RuntimeParityReport(imported, said, rows, pd.DataFrame(lines), frame, note, cancelled,
                               {"library": reference, **outputs}, walks.array)  # fmt: skip


def check_export(model, onnx_model, X, conditioning="native", input_dtype="float64",
                 atol=1e-9, rtol=1e-9):  # fmt: skip
    """How many rows of ``X`` an exported file predicts otherwise than the lab's walk.

    Runs ``onnx_model`` (from :func:`export_onnx` with ``conditioning`` and
    ``input_dtype``) in onnxruntime and compares it with ``from_model(model).output(X,
    conditioning)``: the check the page and the command line run on the file they hand out.

    Returns
    -------
    (n_rows, n_disagree) : tuple of int
    """
    imported = from_model(model)
    X = array_rows(imported.inputs, imported.check_X(X))  # the array the file takes
    dtype = np.float32 if input_dtype == "float32" else np.float64
    predict = onnx_predictor(onnx_model.SerializeToString(), imported, dtype)
    agree = _close(imported.output(X, conditioning), predict(X), atol, rtol)
    return int(X.shape[0]), int((~agree).sum())
