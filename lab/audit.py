"""``python -m lab audit MODEL DATA``: is a model affected by the conditioning bias?

Reads a model file safely (``trees.interop.load_model_file``: XGBoost JSON or
UBJSON, LightGBM text, CatBoost JSON, scikit-learn skops; never a pickle), in
a worker process with a time and a memory limit (``lab.model_files``), and
a table (``datasets.read_table``), prints the audit's headline and summary,
and with ``--out DIR`` writes ``predictions.csv`` (each row's native,
other-operator and averaged predictions), ``flips.csv`` (the nodes rows sit
on) and ``probes.csv`` (rows on every threshold, for testing a converter).
The ``--out`` folder is made (and checked writable) before anything is read;
what the reader noted about the model (``ImportedModel.notes``) goes to stderr.

The table's columns are read by the model's own rule, as the API and the page
read them (``ImportedModel.frame_from_table``, ``trees.interop._inputs``):
matched by name where the model stores names, categories as the library codes
them, XGBoost's ``missing=`` sentinel given with ``--missing``. Whatever cannot
be read exactly is refused in a sentence, with a non-zero exit.
"""

import json
import os
import sys

import numpy as np

from datasets import DataError, read_table
from trees.interop import LIMITS, ModelInputError, audit_conditioning, threshold_probes

from .model_files import read_model_in_worker
from .paths import output_folder

__all__ = ["add_audit_parser", "add_model_arguments", "read_model_and_rows", "run_audit"]


def add_model_arguments(command, target_help):
    """The arguments of the commands that read a model file and a table of its rows (``audit``,
    ``parity``): MODEL, DATA, ``--target`` and ``--missing``."""
    command.add_argument("model", help="XGBoost .json/.ubj, LightGBM .txt, CatBoost .json, .skops")
    command.add_argument("data", help="CSV, TSV or Excel table of rows")
    command.add_argument("--target", help=target_help)
    command.add_argument(
        "--missing", type=float, help="XGBoost only: the value the rows hold for a missing one "
        "(the model's missing=, e.g. -1; a model file does not record it)"
    )  # fmt: skip


def add_audit_parser(commands):
    """Register the ``audit`` subcommand on the command line's subparsers."""
    audit = commands.add_parser(
        "audit", help="audit a model file for the conditioning bias on a table of rows"
    )
    add_model_arguments(audit, "a column of DATA to leave out (and score against)")
    audit.add_argument("--out", help="folder for predictions.csv, flips.csv and probes.csv")
    return audit


def _read_model(path, document=False):
    if not os.path.isfile(path):
        raise ValueError(f"No model file {path!r}.")
    if os.path.getsize(path) > LIMITS["bytes"]:
        raise ValueError(f"{path} is larger than {LIMITS['bytes'] // 2**20} MB.")
    with open(path, "rb") as file:  # a child forked from this one-thread command
        return read_model_in_worker(os.path.basename(path), file.read(), fork=True,
                                    document=document)  # fmt: skip


def _read_rows_file(path):
    """The table of ``path``; a missing file or a folder is refused naming DATA (any other
    error of the system on the file is said by the command line's own handler, ``lab.cli``)."""
    if not os.path.exists(path):
        raise DataError(f"No data file {path!r}.")
    if os.path.isdir(path):
        raise DataError(f"{path!r} is a folder, not a data file.")
    return read_table(path)


def _features(table, model, target):
    """The table's rows as the model is given them (the target left out): its categorical
    features' columns read as categories; the rest is the model's rule, applied by the audit
    (``ImportedModel.check_X``: names matched, unmatched ones refused)."""
    if target is not None and target not in table.columns:
        raise DataError(f"The table has no column {target!r}.")
    X = table.drop(columns=[target]) if target is not None else table
    try:
        return model.frame_from_table(X)
    except ModelInputError as error:
        raise _with_target_hint(error, target) from None


def _with_target_hint(error, target):
    """A refusal of the rows, pointing at --target when the table may hold the target."""
    hint = "" if target is not None else " If a column is the target, name it with --target."
    return ModelInputError(f"{error}{hint}")


def _scores(audit, y):
    """Accuracy (classifier) or mean squared error (regressor) per conditioning."""
    out, model = {}, audit.model
    for name in ("native", "other", "average", "half"):
        if name not in audit.predictions:
            continue
        p = audit.predictions[name]
        if model.is_classifier:
            labels = np.asarray(model.classes_)[p.argmax(axis=1)]
            out[f"accuracy_{name}"] = float(np.mean(labels.astype(str) == y.astype(str)))
        else:
            out[f"mse_{name}"] = float(np.mean((p - y.astype(float)) ** 2))
    return out


def _audited(model, X, target):
    try:
        return audit_conditioning(model, X)
    except ModelInputError as error:
        raise _with_target_hint(error, target) from None


def run_audit(args, store, out):
    """The ``audit`` command (``store`` is unused: nothing is saved to the results store)."""
    made = output_folder(args.out, "--out") if args.out else False
    try:
        _audit(args, out)
    except BaseException:
        if made and not os.listdir(args.out):  # made for this run, which wrote nothing
            os.rmdir(args.out)
        raise


def read_model_and_rows(args, document=False):
    """``(model, table, X)`` of a command's MODEL and DATA (:func:`add_model_arguments`): the
    model read in the worker (its notes said on stderr, ``--missing`` applied; ``document``:
    with its library's document), the table, and its rows as the model is given them."""
    table = _read_rows_file(args.data)  # a missing DATA is said before the model is read
    model = _read_model(args.model, document)
    for note in model.notes:
        print(f"tree-bias-lab: note: {note}", file=sys.stderr)
    if args.missing is not None:
        model = model.with_missing_value(args.missing)
    return model, table, _features(table, model, args.target)


def _audit(args, out):
    model, table, X = read_model_and_rows(args)
    audit = _audited(model, X, args.target)
    summary = audit.summary()
    if args.target is not None:
        summary.update(_scores(audit, table[args.target].to_numpy()))
    out.write(audit.headline() + "\n")
    if model.trees_used:
        out.write(f"Predicting with {model.trees_used}.\n")
    out.write(json.dumps(summary, indent=1, default=str) + "\n")
    if args.out:
        audit.rows.to_csv(os.path.join(args.out, "predictions.csv"), index_label="row")
        audit.flips.to_csv(os.path.join(args.out, "flips.csv"), index=False)
        threshold_probes(model, X).to_csv(os.path.join(args.out, "probes.csv"), index=False)
        out.write(f"Wrote predictions.csv, flips.csv and probes.csv to {args.out}\n")
