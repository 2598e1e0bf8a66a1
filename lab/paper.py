"""Our rows of source 000's Tables 2 and 3 beside the paper's, cell by cell.

Cells are printed as the paper prints them (the study's own formats): rho
and rho_k with two decimals without the leading zero, "0" for an exact zero
(".00" is a share below 0.005); d with one significant digit ("0" when
|d| <= 1e-9); the improvement with two; the marks in the project's notation
(``trees.conditioning.MARKS``). Agreement flags, one per cell:

* rho, rho_k, p≠, p≤, p<: the printed cells are equal;
* d: the same sign (both "0" counts), since its digits depend on the folds;
* improvement: both cells empty, or both filled with the same sign.
"""

import math

import pandas as pd

from datasets.bundled import PAPER_CLASSIFICATION, PAPER_REGRESSION
from datasets.source000 import table2, table3
from trees.conditioning import MARK_LEGEND

__all__ = [
    "ALL_PAPER_DATASETS",
    "COMPARED_CELLS",
    "LEGEND",
    "comparison_frame",
    "ENGINE_CELLS",
    "PAPER_ENGINE",
    "comparison_row",
    "engines_frame",
    "write_html",
    "format_d",
    "printed_cells",
    "format_improvement",
    "format_share",
    "html_page",
    "paper_row",
]

ALL_PAPER_DATASETS = tuple(PAPER_CLASSIFICATION) + tuple(PAPER_REGRESSION)
# Cell -> the summary key it comes from (see ConditioningResult.summary).
COMPARED_CELLS = ("rho", "rho_k", "d", "p≠", "p≤", "p<", "improvement")
LEGEND = (
    MARK_LEGEND + " Each cell of ours stands beside the paper's ('paper ...'); 'agrees ...' "
    "is True when they match: the printed value for rho, rho_k and the marks, the sign for d "
    "and the improvement."
)


def format_share(value):
    """rho or rho_k as Table 2 prints it: ".12", ".00" (below 0.005), "0" (exactly 0);
    "1.00" from 0.995 on (the paper has no such share; library models reach it)."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    if value <= 0:
        return "0"
    text = f"{value:.2f}"
    return text[1:] if text.startswith("0") else text


def format_d(value):
    """d as Table 2 prints it: one significant digit ("-3e-04"), "0" when |d| <= 1e-9."""
    return f"{value:.0e}" if abs(value) > 1e-9 else "0"


def format_improvement(value):
    """Table 3's improvement: two significant digits, empty when not significant (NaN)."""
    return "" if value is None or math.isnan(value) else f"{value:.1e}"


def _sign(text):
    if text in ("", "0"):
        return 0 if text == "0" else None
    return -1 if text.startswith("-") else 1


def paper_row(name, model):
    """The paper's printed cells for a dataset and model (dict)."""
    two = table2()
    three = table3()
    row2 = two[(two["dataset"] == name) & (two["model"] == model)].iloc[0]
    row3 = three[(three["dataset"] == name) & (three["model"] == model)].iloc[0]
    return {
        "rho": row2["rho"], "rho_k": row2["rho_k"], "d": row2["d"], "p≠": row2["p_neq"],
        "p≤": row3["p_le"], "p<": row3["p_lt"], "improvement": row3["improvement"],
    }  # fmt: skip


def _agrees(cell, ours, theirs):
    if cell == "d":
        return _sign(ours) == _sign(theirs)
    if cell == "improvement":
        return (ours == "") == (theirs == "") and _sign(ours) == _sign(theirs)
    return ours == theirs


def printed_cells(summary):
    """A conditioning summary's cells as Tables 2 and 3 print them (improvement "" when none)."""
    return {
        "rho": format_share(summary["rho"]),
        "rho_k": format_share(summary["rho_k"]),
        "d": format_d(summary["d (<= minus <)"]),
        "p≠": summary["p≠"],
        "p≤": summary["p≤"],
        "p<": summary["p<"],
        "improvement": format_improvement(summary["improvement over worst"]),
    }


def comparison_row(name, task, model, summary, n_folds):
    """One row of the comparison: our printed cells, the paper's, and whether they agree."""
    ours = printed_cells(summary)
    theirs = paper_row(name, model)
    row = {"dataset": name, "task": task, "model": model, "folds": int(n_folds)}
    for cell in COMPARED_CELLS:
        row[cell] = ours[cell]
        row[f"paper {cell}"] = theirs[cell]
        row[f"agrees {cell}"] = _agrees(cell, ours[cell], theirs[cell])
    row["significance rule"] = summary["significance rule"]
    return row


PAPER_ENGINE = "paper (scikit-learn)"
# The cells of an engine's column group in :func:`engines_frame`.
ENGINE_CELLS = ("folds", *COMPARED_CELLS)


def engines_frame(summaries):
    """Tables 2 and 3 with a column group per engine, beside the paper's scikit-learn cells.

    Parameters
    ----------
    summaries : dict {engine: summary}
        The summaries of "tables" runs (``{"rows": [...]}``), one per engine.

    Returns
    -------
    pandas.DataFrame
        One row per dataset and model (the paper's order): ``dataset, task,
        model``, the paper's printed cells (``"paper (scikit-learn): rho"``,
        ...), then per engine its cells (``"xgboost: rho"``, ``"xgboost: p≠"``,
        ...). A library engine's "forest" is its own ensemble, beside the
        paper's random forest; cells of a dataset an engine has no row for are empty.
    """
    keys, groups = [], {}
    for engine, summary in summaries.items():
        for row in (summary or {}).get("rows", []):
            key = (row["dataset"], row["task"], row["model"])
            if key not in groups:
                keys.append(key)
                groups[key] = {f"{PAPER_ENGINE}: {c}": row[f"paper {c}"] for c in COMPARED_CELLS}
            groups[key].update({f"{engine}: {c}": str(row[c]) for c in ENGINE_CELLS})
    order = {name: i for i, name in enumerate(ALL_PAPER_DATASETS)}
    keys.sort(key=lambda k: (order.get(k[0], len(order)), k[2]))
    columns = ["dataset", "task", "model", *[f"{PAPER_ENGINE}: {c}" for c in COMPARED_CELLS]]
    columns += [f"{engine}: {c}" for engine in summaries for c in ENGINE_CELLS]
    rows = [{"dataset": k[0], "task": k[1], "model": k[2], **groups[k]} for k in keys]
    return pd.DataFrame(rows, columns=columns).astype(object).fillna("")


def html_page(frame, title):
    """``frame`` as a small self-contained HTML page (title, legend, table), a string."""
    import html

    return (
        f"<!doctype html><html><head><meta charset='utf-8'><title>{html.escape(title)}</title>"
        "</head><body>"
        f"<h1>{html.escape(title)}</h1><p>{html.escape(LEGEND)}</p>"
        f"{frame.to_html(index=False, na_rep='')}</body></html>\n"
    )


def write_html(frame, path, title):
    """Write :func:`html_page` of ``frame`` to ``path``."""
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(html_page(frame, title))


def comparison_frame(summary):
    """The comparison as a DataFrame, from a "tables" run's summary (``{"rows": [...]}``)."""
    rows = (summary or {}).get("rows", [])
    columns = ["dataset", "task", "model", "folds"]
    for cell in COMPARED_CELLS:
        columns += [cell, f"paper {cell}", f"agrees {cell}"]
    return pd.DataFrame(rows, columns=[*columns, "significance rule"])
