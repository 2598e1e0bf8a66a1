"""Tables (pandas DataFrames) shown by the pages."""

import pandas as pd

__all__ = ["candidates_table"]


def _describe(value, is_classifier, class_names):
    if not value:
        return ""
    if is_classifier:
        return ", ".join(f"{name}: {share:.2f}" for name, share in zip(class_names, value, strict=False))
    return f"mean {value[0]:.4g}"


def candidates_table(candidates, is_classifier, class_names=None, score_name="score"):
    """One row per feature: its best threshold, score, and the two sides it makes.

    Parameters
    ----------
    candidates : list of trees.Candidate
        Ranked, best first (``TreeGrower.candidates``).
    """
    rows = []
    for rank, c in enumerate(candidates, start=1):
        rows.append(
            {
                "rank": rank if c.threshold is not None else None,
                "feature": c.feature_name,
                "threshold": c.threshold,
                score_name: c.score,
                "rows left": c.n_left if c.threshold is not None else None,
                "rows right": c.n_right if c.threshold is not None else None,
                "left": _describe(c.left_value, is_classifier, class_names),
                "right": _describe(c.right_value, is_classifier, class_names),
            }
        )
    return pd.DataFrame(rows)


def summary_table(summary):
    """A dict of statistics as a two-column table of text (numbers formatted)."""

    def fmt(value):
        if isinstance(value, bool):
            return "yes" if value else "no"
        if isinstance(value, float):
            return f"{value:.4g}"
        return str(value) if value != "" else "–"

    return pd.DataFrame({"statistic": list(summary), "value": [fmt(v) for v in summary.values()]})
