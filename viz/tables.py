"""Tables (pandas DataFrames) shown by the pages."""

import pandas as pd

__all__ = ["candidates_table"]


def _describe(value, is_classifier, class_names):
    if not value:
        return ""
    if is_classifier:
        return ", ".join(
            f"{name}: {share:.2f}" for name, share in zip(class_names, value, strict=False)
        )
    return f"mean {value[0]:.4g}"


def candidates_table(
    candidates, is_classifier, class_names=None, score_name="score", category_names=None
):
    """One row per feature: its best split, score, and the two sides it makes.

    Parameters
    ----------
    candidates : list of trees.Candidate
        Ranked, best first (``TreeGrower.candidates``).
    category_names : dict {feature: list of str}, optional
        Names of category codes, for categorical features' splits.
    """
    rows = []
    for rank, c in enumerate(candidates, start=1):
        usable = c.threshold is not None or c.categories is not None
        if c.categories is not None:
            names = (category_names or {}).get(c.feature)
            labels = [names[k] if names and k < len(names) else str(k) for k in c.categories]
            split = "∈ {" + ", ".join(labels) + "}"
        else:
            split = "" if c.threshold is None else f"≤ {c.threshold:.6g}"
        rows.append(
            {
                "rank": rank if usable else None,
                "feature": c.feature_name,
                "split": split,
                score_name: c.score,
                "rows left": c.n_left if usable else None,
                "rows right": c.n_right if usable else None,
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
