"""The "Your own model" page's headline and tabs, each a function of the audit and its rows."""

import streamlit as st

from ui import figures, report
from ui.markdown import plain
from viz.your_model import feature_flips_figure

from . import cache
from .words import (
    audit_table_in_words,
    changed_rows,
    changes_sentence,
    columns_in_words,
    corrected_predictions,
    key_figures,
    model_text,
    probes_in_words,
    ship_snippet,
)

__all__ = ["show_flips_tab", "show_headline", "show_probes_tab", "show_remedy_tab", "show_rows_tab"]


def show_headline(audit, dataset_name, rows_reason):
    """The audit in one sentence, large enough for the back of a room, and four figures;
    ``rows_reason``: which rows were audited, and why those (``rows.AuditedRows``)."""
    sentence = audit.headline()
    st.subheader(sentence)
    columns = st.columns(4)
    for column, (label, value, help_text) in zip(
        columns, key_figures(audit.headline_figures()), strict=True
    ):
        column.metric(label, value, help=help_text)
    st.caption(
        f"{model_text(audit.model)} Audited on the {audit.n_rows:,} rows of "
        f"{plain(dataset_name)}: {rows_reason}."
    )
    return sentence


def show_rows_tab(audit, X):
    """The rows whose prediction changes, and every row's corrected prediction to download."""
    table = changed_rows(audit, X)
    if table.empty:
        st.success(
            "No row of this table gets another prediction under the other test: its values never "
            "equal a threshold on their path, or the trees' leaves agree where they do."
        )
    else:
        ops = (audit.model.native_op, audit.model.other_op)
        st.markdown(
            f"{changes_sentence(audit.headline_figures(), ops)} The largest change first. "
            "*Change*: how far the prediction moves from the model's own; *thresholds met*: in "
            "how many trees the row's value sits on a threshold of its path, where the other "
            "test sends it down another branch; *P(k)*: the probability of class k under each "
            "test (*average*: of both, the remedy); the row's values come last."
        )
        figures.table(
            columns_in_words(table, audit, ops), title="Rows whose prediction changes",
            hide_index=True,
        )  # fmt: skip
    st.download_button(
        "Download every row's predictions: native, the other test and their average (CSV)",
        corrected_predictions(audit).to_csv(index=False), file_name="corrected_predictions.csv",
        mime="text/csv", key="model_download_rows",
    )  # fmt: skip


def show_flips_tab(audit):
    """Where in the trees the rows sit on thresholds: per feature, per node, per tree."""
    figures.chart(
        feature_flips_figure(audit.features, audit.flips),
        key="model_features",
        title="Splits on an observed value, per feature",
    )
    st.caption(
        "Purple: splits whose threshold is a value of the data (their share is source 000's ρ); "
        "a row with that value goes left under `x ≤ t` and right under `x < t`. Grey: thresholds "
        "between values, which no row of the data meets."
    )
    if audit.flips.empty:
        st.info("No row of this table sits exactly on a threshold of the model.")
    else:
        flips = audit.flips.sort_values(["rows_changed", "rows_on_it"], ascending=False)
        st.markdown(
            "**The nodes rows sit on**: each node whose threshold equals the value of some rows "
            "that reach it, with how many do and how many of those change their prediction."
        )
        figures.table(audit_table_in_words(flips),
                      title="The nodes rows sit on (tree, node, feature, threshold)",
                      hide_index=True)  # fmt: skip
    st.markdown(
        "**Per feature**: lattice or not, distinct values, splits, splits on a value, and ρ "
        "(the share of its splits that are on a value)."
    )
    figures.table(
        audit_table_in_words(audit.features),
        title="Per feature",
        hide_index=True,
    )


def show_remedy_tab(audit):
    """Source 000's remedies compared, and how to ship the one chosen."""
    st.markdown(
        "Source 000's remedy is to **average** the two tests (§3.3): a row on a threshold gets the "
        "mean of both sides, every other row its usual prediction. A forest can instead test **half** "
        "of its trees each way. `float32 vs float64` shows what rounding the rows before comparing "
        "changes (scikit-learn, XGBoost and CatBoost round to float32)."
    )
    figures.table(audit_table_in_words(audit.comparisons),
                  title="How far each alternative moves the predictions", hide_index=True)  # fmt: skip
    st.markdown(
        "**Ship it**: wrap the model; `predict` and `predict_proba` then average both tests "
        "(scikit-learn compatible, no refit)."
    )
    st.code(ship_snippet(audit.model.library), language="python")
    st.caption(
        "On these rows the average moves a prediction by at most "
        f"{audit.headline_figures()['average_largest_move']:.3g} from the model's own."
    )


def show_probes_tab(model_key, data_key, model, X):
    """Rows placed on every threshold and one ulp either side, to test a converter or a port."""
    st.markdown(
        "Converters and serving runtimes (ONNX, treelite, m2cgen, a SQL or C port) have routed rows "
        "on a threshold to the other side again and again. These rows sit **exactly on every "
        "threshold** of the model, and one ulp either side, on the paths rows of your data take: "
        "run them through your library and your port, and compare."
    )
    probes = cache.probes(model_key, data_key, model, X)
    report.add_note(f"{len(probes):,} probe rows on the model's thresholds.")
    shown, exact = probes_in_words(probes)
    figures.table(
        shown, title=f"Probe rows (the first 200 of {len(probes):,})", hide_index=True,
        column_config={
            c: st.column_config.NumberColumn(format="%.17g", width="medium") for c in exact
        },
    )  # fmt: skip
    st.caption(
        "Values to 17 significant digits, enough to tell a row one ulp from a threshold from the "
        "row on it; the CSV holds them exactly."
    )
    st.download_button(
        f"Download the {len(probes):,} probe rows (CSV)", probes.to_csv(index=False),
        file_name="threshold_probes.csv", mime="text/csv", key="model_download_probes",
    )  # fmt: skip
    st.code(
        "from trees.interop import parity_check, threshold_probes\n\n"
        "probes = threshold_probes(model, X)\n"
        "report = parity_check(model.predict, my_port.predict, probes)\n"
        "print(report)",
        language="python",
    )
