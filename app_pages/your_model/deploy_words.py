"""The Deploy tab's words and tables: plain functions of a parity report, without Streamlit.

The numbers come from :func:`trees.interop.parity_report`; this module only says them.
"""

import pandas as pd

from trees.interop import LIBRARY_NAMES
from ui.markdown import plain
from ui.words import counted

__all__ = [
    "EXPORT_TESTS",
    "deploy_snippet",
    "disagreements_in_words",
    "export_caption",
    "not_run_sentence",
    "runtime_overview",
    "runtime_sentence",
]

# The tests the downloaded file can take -> the page's words for them.
EXPORT_TESTS = {
    "average": "both tests averaged (the remedy)",
    "native": "the library's own test",
    "<=": "x ≤ t",
    "<": "x < t",
}
_SIDES = ("below", "on", "above")
# A status as the overview's narrow last column says it (the sentence below it says it whole):
# at 1024 px "does not read this model" was cut off.
_SHORT_STATUS = {"does not read this model": "does not read it"}


def _count(value, ran):
    return f"{int(value):,}" if ran and value == value and value is not None else "–"


def runtime_overview(report):
    """One line per runtime: what it is, how many rows disagree (by side), and why a runtime
    did not run. The counts come before the reasons, which can be long: at 1024 px the table
    shows its first columns whole."""
    lines = []
    for line in report.summary.to_dict("records"):
        ran = line["status"] == "ran"
        lines.append({
            "runtime": line["label"],
            "disagree": _count(line["disagree"], ran),
            **{f"{side} t": _count(line[side], ran) for side in _SIDES},
            "status": _SHORT_STATUS.get(line["status"], line["status"]),
        })  # fmt: skip
    return pd.DataFrame(lines)


def not_run_sentence(report):
    """Why each runtime that did not run did not (Markdown), or "" when every one ran: the
    reasons are too long for the table's last column at 1024 px. Runtimes stopped by the same
    reason (treelite's two) are named together."""
    reasons = {}
    for r in report.summary.to_dict("records"):
        if r["status"] != "ran":
            reasons.setdefault((r["status"], r["detail"]), []).append(f"**{r['label']}**")
    lines = [f"{' and '.join(labels)}: {status} ({plain(detail)})"
             for (status, detail), labels in reasons.items()]  # fmt: skip
    return ("Not run here: " + "; ".join(lines) + ".") if lines else ""


def runtime_sentence(report, runtime):
    """The chosen runtime's result in words (Markdown): its count, and the cause and fix."""
    line = report.summary.set_index("runtime").loc[runtime]
    label, library = line["label"], report.reference  # the lab's own words
    if line["status"] != "ran":
        return f"**{label}** {line['status']} here: {plain(line['detail'])}."
    n_rows = f"{int(line['rows']):,}"
    if not line["disagree"]:
        return (f"**{label}** agrees with {plain(library)} on every one of the {n_rows} rows "
                "checked, those on and one ulp beside every threshold included.")  # fmt: skip
    sides = [f"{int(line[s]):,} {s}" for s in _SIDES if line[s]]
    where = f"{', '.join(sides)} the threshold where the paths part" if sides else ""
    if line["elsewhere"]:
        where += (
            f"{'; ' if where else ''}{int(line['elsewhere']):,} at a missing value or a category"
        )
    return (f"**{label}** disagrees with {plain(library)} on "
            f"**{counted(int(line['disagree']), 'row')}** of {n_rows} ({where}). Why: "
            f"{plain(line['cause'])}. **Fix**: {plain(line['fix'])}.")  # fmt: skip


# The columns of a runtime's disagreements, in the page's order and words: where and which
# side first (at 1024 px the first six show whole), then what each predicts, then the rest.
def _where(table):
    """Where a runtime's disagreeing rows part from the library's path, in words."""
    sides = table["side"].value_counts()
    beside = [f"{sides[s]:,} {s}" for s in _SIDES if sides.get(s, 0)]
    words = [f"{', '.join(beside)} the threshold where the paths part"] if beside else []
    for side, said in (("missing", "at a missing value"), ("category", "at a category")):
        if sides.get(side, 0):
            words.append(f"{sides[side]:,} {said}")
    unexplained = int(sides.get("", 0) + sides.get("not located", 0))
    if unexplained:
        words.append(f"{unexplained:,} the lab cannot place")
    return words


_COLUMN_WORDS = {"feature": "feature", "threshold": "threshold", "value": "the row's value",
                 "side": "side", "library": "library says", "runtime_output": "runtime says",
                 "tree": "tree", "node": "node", "row": "row", "source": "row from",
                 "cause": "cause"}  # fmt: skip


def disagreements_in_words(table, limit=200):
    """The first ``limit`` disagreements of one runtime as the page shows them, and the
    columns to write to 17 significant digits (a value one ulp from a threshold)."""
    shown = table.head(limit)[list(_COLUMN_WORDS)].rename(columns=_COLUMN_WORDS)
    shown["tree"] = shown["tree"].astype("Int64")
    shown["node"] = shown["node"].astype("Int64")
    return shown, ["threshold", "the row's value"]


def export_caption(conditioning, n_rows, n_disagree, library):
    """What the downloaded file does, and the check it passed (or not) before it is offered."""
    test = EXPORT_TESTS[conditioning]
    if n_disagree:
        return (f"The file under {test} disagrees with the lab's walk on {n_disagree:,} of "
                f"{n_rows:,} rows, so it is not offered. Please report this model.")  # fmt: skip
    return (f"One ONNX graph (ai.onnx.ml TreeEnsemble, float64 thresholds and rows, read as "
            f"{LIBRARY_NAMES[library]} reads them) under {test}: run in onnxruntime here on the "
            f"{n_rows:,} rows above, none disagrees with the lab's walk.")  # fmt: skip


def deploy_snippet(conditioning):
    """Python that checks the runtimes and writes the file, outside the app."""
    return "\n".join([
        "from trees.interop import export_onnx, parity_report",
        "",
        "# model: your fitted model, or load_model_file(name, data)",
        "report = parity_report(model, X)",
        "print(report.summary[['runtime', 'status', 'disagree', 'fix']])",
        "# one runtime's rows: where its path parts, which side, why",
        "print(report.table('onnx-converter'))",
        "",
        f"onnx_model = export_onnx(model, conditioning={conditioning!r})",
        'open("model.onnx", "wb").write(onnx_model.SerializeToString())',
        "# onnxruntime takes the array the library's predict takes:",
        "# training columns in order, a category as its code",
        "# (report.array holds the rows checked):",
        "# session.run(None, {'X': report.array})",
    ])  # fmt: skip
