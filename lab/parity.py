"""``python -m lab parity MODEL DATA``: which runtime disagrees with a model, and the fix.

Reads a model file safely (in the worker, with its library's document, from which the
parity report rebuilds the library's own model) and a table as ``python -m lab audit``
does (the same readers, the same rule for rows, ``--missing`` for XGBoost's sentinel),
runs ``trees.interop.parity_report`` on the table's rows (probe rows on every threshold,
and the rows themselves) through each runtime asked for (``--runtime``, default all),
and prints one line per runtime and then, per runtime that disagrees, where, why and
what to ship instead. ``--export out.onnx`` writes the lab's ONNX file under
``--conditioning`` (default "native"; "average" is source 000's remedy), checked in
onnxruntime against the lab's walk on the same rows before it is written. ``--out DIR``
writes ``summary.csv``, ``disagreements.csv`` and ``rows.csv`` (the rows checked, to
feed one's own runtime). Both paths are checked before anything is read (``lab.paths``).
"""

import os

import pandas as pd

from trees.interop import CONDITIONINGS, RUNTIMES, check_export, export_onnx, parity_report

from .audit import add_model_arguments, read_model_and_rows
from .paths import check_output_file, output_folder

__all__ = ["add_parity_parser", "run_parity"]

_SHOWN = 5  # disagreements printed per runtime (--out writes them all)


def _runtimes(text):
    names = [n.strip() for n in text.split(",") if n.strip()]
    unknown = [n for n in names if n not in RUNTIMES]
    if not names or unknown:
        raise ValueError(f"--runtime: {', '.join(unknown) or 'none given'}; choose from "
                         f"{', '.join(RUNTIMES)} (separated by commas).")  # fmt: skip
    return names


def add_parity_parser(commands):
    """Register the ``parity`` subcommand on the command line's subparsers."""
    parity = commands.add_parser(
        "parity", help="check a model file in each serving runtime; export the lab's ONNX file"
    )
    add_model_arguments(parity, "a column of DATA to leave out")
    parity.add_argument(
        "--runtime",
        default=",".join(RUNTIMES),
        help=f"runtimes to check, separated by commas: {', '.join(RUNTIMES)}",
    )
    parity.add_argument("--export", help="write the lab's ONNX file here (e.g. model.onnx)")
    parity.add_argument(
        "--conditioning",
        choices=CONDITIONINGS,
        help="the test of the exported file (default native; average: source 000's remedy)",
    )
    parity.add_argument(
        "--input-dtype",
        choices=("float64", "float32"),
        default="float64",
        help="the exported file's input type (float32 only where the "
        "library rounds rows to float32)",
    )
    parity.add_argument(
        "--max-rows",
        type=int,
        default=5_000,
        help="check at most this many rows of DATA (drawn at random)",
    )
    parity.add_argument("--out", help="folder for summary.csv, disagreements.csv and rows.csv")
    return parity  # fmt: skip


def _count(value):
    return "" if value is None or value != value else f"{int(value):,}"


def _print_summary(report, out):
    """One line per runtime: its status, rows, disagreements by side, and why it did not run."""
    lines = report.summary.to_dict("records")
    table = pd.DataFrame({
        "runtime": [r["runtime"] for r in lines], "status": [r["status"] for r in lines],
        "rows": [f"{r['rows']:,}" for r in lines],
        **{key: [_count(r[key]) if r["status"] == "ran" else "-" for r in lines]
           for key in ("disagree", "below", "on", "above", "elsewhere")},
        "why not": [r["detail"] for r in lines],
    })  # fmt: skip
    with pd.option_context("display.width", 200, "display.max_colwidth", 80):
        out.write(table.to_string(index=False) + "\n")


def _print_disagreements(report, out):
    for line in report.summary.to_dict("records"):
        if line["status"] != "ran" or not line["disagree"]:
            continue
        table = report.table(line["runtime"])
        out.write(f"\n{line['runtime']} ({line['label']}): {len(table):,} rows disagree.\n")
        out.write(f"  cause: {line['cause']}\n  fix: {line['fix']}\n")
        for row in table.head(_SHOWN).to_dict("records"):
            where = (f"tree {row['tree']:.0f}, node {row['node']:.0f}: {row['feature']} "
                     f"at {row['threshold']!r}, value {row['value']!r} ({row['side']})"
                     if row["side"] not in ("", "not located") else "not located")  # fmt: skip
            out.write(f"  row {row['row']} ({row['source']}), {where}: library "
                      f"{row['library']:.6g}, runtime {row['runtime_output']:.6g}\n")  # fmt: skip


def _export(args, model, rows, out):
    """Write the lab's ONNX file under ``--conditioning``, checked on ``rows`` first."""
    conditioning = args.conditioning or "native"
    onx = export_onnx(model, conditioning, input_dtype=args.input_dtype)
    n_rows, n_bad = check_export(model, onx, rows, conditioning, args.input_dtype)
    if n_bad:
        raise ValueError(f"The exported file disagrees with the lab's walk on {n_bad} of "
                         f"{n_rows} rows; it was not written. Please report this model.")  # fmt: skip
    with open(args.export, "wb") as file:  # checked writable before the run (lab.paths)
        file.write(onx.SerializeToString())
    out.write(f"\nWrote {args.export}: the lab's ONNX file under conditioning={conditioning!r}, "
              f"checked in onnxruntime on {n_rows:,} rows (none disagrees with the lab's walk).\n")  # fmt: skip


def _check_arguments(args):
    """Every setting and output path checked before anything is read (one sentence each)."""
    if args.conditioning and not args.export:
        raise ValueError("--conditioning sets the exported file's test: give --export too.")
    if args.max_rows < 1:
        raise ValueError("--max-rows must be at least 1.")
    check_output_file(args.export, "--export")
    return _runtimes(args.runtime)


def run_parity(args, store, out):
    """The ``parity`` command (``store`` is unused: nothing is saved to the results store)."""
    runtimes = _check_arguments(args)
    made = output_folder(args.out, "--out") if args.out else False
    try:
        _parity(args, runtimes, out)
    except BaseException:
        if made and not os.listdir(args.out):  # made for this run, which wrote nothing
            os.rmdir(args.out)
        raise


def _parity(args, runtimes, out):
    model, _, X = read_model_and_rows(args, document=True)
    report = parity_report(model, X, runtimes=runtimes, max_rows=args.max_rows)
    out.write(f"Against {report.reference}; {len(report.rows):,} rows checked "
              f"({(report.rows['source'] == 'probe').sum():,} probe rows"
              f"{', ' + report.note if report.note else ''}).\n")  # fmt: skip
    _print_summary(report, out)
    _print_disagreements(report, out)
    if args.export:
        _export(args, model, report.array, out)
    if args.out:
        _write_tables(report, args.out, out)


def _write_tables(report, folder, out):
    report.summary.to_csv(os.path.join(folder, "summary.csv"), index=False)
    report.disagreements.to_csv(os.path.join(folder, "disagreements.csv"), index=False)
    report.rows.to_csv(os.path.join(folder, "rows.csv"), index_label="row")
    out.write(f"Wrote summary.csv, disagreements.csv and rows.csv to {folder}\n")
