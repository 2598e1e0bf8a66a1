"""The "Deploy" tab: the model in each serving runtime, and the fixed ONNX file to ship.

The runtimes are checked once per model and dataset in the server's background worker
(``ui.experiments.computed_in_background``: converting and running five runtimes takes
seconds, so the tab shows progress and a Stop meanwhile, and keeps the result for every
session); choosing a runtime then only draws its table. The downloadable file is
exported and checked in onnxruntime on the report's rows before it is offered. The rows
are the ones the page audits (``rows.py``: read by the model's rule), and an uploaded file
is read again in the model worker (``lab.model_files``: time and memory limits), this time
with its library's document, from which the report rebuilds the library's own model.
"""

import dataclasses

import streamlit as st

from lab.model_files import read_model_in_worker
from trees.interop import check_export, export_onnx, parity_report
from ui import cache_budget, figures, report, share, state
from ui.experiments import computed_in_background
from ui.markdown import plain

from .deploy_words import (
    EXPORT_TESTS,
    deploy_snippet,
    disagreements_in_words,
    export_caption,
    not_run_sentence,
    runtime_overview,
    runtime_sentence,
)

__all__ = ["show_deploy_tab"]

_WIDTHS = {"runtime": 200, "disagree": 66, "below t": 60, "on t": 46, "above t": 60}


def _with_document(choice):
    """The model with its library's own document, from which parity_report rebuilds the
    library's object: a model trained here keeps it; an upload is read again from its bytes
    in the model worker (the page's cached copy drops it), its missing= value applied."""
    if choice.model.document is not None or choice.source != "upload":
        return choice.model
    model = read_model_in_worker(choice.file_name, choice.file_data, document=True)
    return model if choice.missing is None else model.with_missing_value(choice.missing)


def _report(choice, X, progress, should_stop):
    """The parity report, holding the page's model (without the document) once computed."""
    report = parity_report(_with_document(choice), X, progress=progress, should_stop=should_stop)
    return dataclasses.replace(report, model=choice.model)


def _parity(choice, rows_key, X):
    """The parity report of the model on the audited rows, or None while it is computed."""
    return computed_in_background(
        state.MODEL_DEPLOY,
        ("parity", choice.key, rows_key),
        f"Running {choice.model.n_trees:,} trees through each runtime (steps: the runtimes)",
        lambda progress, should_stop: _report(choice, X, progress, should_stop),
        "Check the runtimes",
    )


@cache_budget.data(show_spinner="Exporting and checking the ONNX file...", max_entries=16)
def _export(model_key, rows_key, conditioning, _model, _rows):
    """The exported file's bytes, and its check on the report's rows (n_rows, n_disagree)."""
    onnx_model = export_onnx(_model, conditioning)
    return onnx_model.SerializeToString(), check_export(_model, onnx_model, _rows, conditioning)


def _runtime_table(parity):
    """The chosen runtime's sentence and its disagreeing rows."""
    runtimes = list(parity.summary["runtime"])
    disagree = parity.summary["disagree"].fillna(0).to_numpy()
    default = next((i for i, n in enumerate(disagree) if n > 0), 0)
    labels = dict(zip(runtimes, parity.summary["label"], strict=True))
    runtime = share.selectbox(st, "Runtime", runtimes, index=default, key=state.MODEL_RUNTIME,
                              format_func=labels.get)  # fmt: skip
    st.markdown(runtime_sentence(parity, runtime))
    table = parity.table(runtime)
    if len(table):
        shown, exact = disagreements_in_words(table)
        figures.table(
            shown, title=f"Rows {plain(labels[runtime])} predicts otherwise", hide_index=True,
            column_config={c: st.column_config.NumberColumn(format="%.17g") for c in exact},
        )  # fmt: skip
        st.caption(
            f"The first {len(shown):,} of {len(table):,}. *tree, node*: where the library's path "
            "and the runtime's part; *side*: the row's value against that node's threshold "
            "(17 significant digits, enough to tell one ulp apart). *library says, runtime "
            "says*: the output that differs most (a probability, or the value)."
        )


def _downloads(choice, rows_key, parity):
    """The fixed ONNX file under the chosen test, the rows checked, the disagreements."""
    st.markdown("**Ship the fix**: the lab's ONNX file reproduces the library in any ONNX "
                "runtime, or predicts under the test you choose.")  # fmt: skip
    conditioning = share.radio(st, "The file's test", list(EXPORT_TESTS), key=state.MODEL_EXPORT,
                               format_func=EXPORT_TESTS.get, horizontal=True)  # fmt: skip
    if parity.array is None:  # no array of numbers holds these rows (the table says why)
        st.info(plain(parity.summary["detail"].iat[0]))
        return
    data, (n_rows, n_bad) = _export(choice.key, rows_key, conditioning, choice.model,
                                    parity.array)  # fmt: skip
    st.caption(export_caption(conditioning, n_rows, n_bad, choice.model.library))
    name = "model_average.onnx" if conditioning == "average" else "model.onnx"
    st.download_button(
        f"Download the ONNX file ({len(data) / 1024:,.0f} KB)", data, file_name=name,
        mime="application/octet-stream", key="model_download_onnx", disabled=bool(n_bad),
        type="primary",
    )  # fmt: skip
    left, right = st.columns(2)
    left.download_button(
        "The rows checked (CSV)", parity.rows.to_csv(index=False), file_name="parity_rows.csv",
        mime="text/csv", key="model_download_parity_rows",
        help=f"The {len(parity.rows):,} rows: probe rows on every threshold, then your rows.",
    )  # fmt: skip
    right.download_button(
        "Every disagreement (CSV)", parity.disagreements.to_csv(index=False),
        file_name="parity_disagreements.csv", mime="text/csv", key="model_download_parity",
        help="Every runtime's disagreeing rows: where, which side, the cause and the fix.",
        disabled=parity.disagreements.empty,
    )  # fmt: skip
    st.code(deploy_snippet(conditioning), language="python")


def show_deploy_tab(choice, rows_key, X):
    """Each runtime's parity with the library, the chosen one's rows, and the fixed file."""
    st.markdown(
        "The same trees, served elsewhere: converters and runtimes may test `x < t` where the "
        "library tests `x ≤ t`, or round a row or a threshold to float32. Here the probe rows "
        "(on every threshold and one ulp either side) and your rows go through each runtime "
        "and are compared with the library's own predictions."
    )
    parity = _parity(choice, rows_key, X)
    if parity is None:
        return
    note = f" Your rows: {plain(parity.note)}." if parity.note else ""
    st.caption(f"Compared with {plain(parity.reference)}; {len(parity.rows):,} rows.{note}")
    overview = runtime_overview(parity)
    # widths in pixels that fit the six columns in the main column at 1024 px
    narrow = {c: st.column_config.TextColumn(width=w) for c, w in _WIDTHS.items()}
    figures.table(overview, title="Each runtime against the library", hide_index=True,
                  column_config=narrow)  # fmt: skip
    st.caption(
        "*disagree*: rows whose probabilities or value differ from the library's (beyond 1e-6); "
        "*below, on, above t*: the row's value against the threshold where the runtime's path "
        "parts from the library's."
    )
    reasons = not_run_sentence(parity)
    if reasons:
        st.markdown(reasons)
    report.add_note(f"Runtimes checked on {len(parity.rows):,} rows against {parity.reference}.")
    _runtime_table(parity)
    _downloads(choice, rows_key, parity)
