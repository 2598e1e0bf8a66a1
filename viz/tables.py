"""Tables (pandas DataFrames) shown by the pages."""

import numpy as np
import pandas as pd

__all__ = ["candidates_table", "path_table", "summary_table"]


def _predicts(value, is_classifier, class_names):
    """What a side predicts, short: ``"setosa (97%)"`` or ``"mean 3.2"``."""
    if not value:
        return ""
    if is_classifier:
        top = max(range(len(value)), key=value.__getitem__)
        name = class_names[top] if class_names and top < len(class_names) else str(top)
        return f"{name} ({value[top]:.0%})"
    return f"mean {value[0]:.4g}"


def candidates_table(
    candidates,
    is_classifier,
    class_names=None,
    score_name="score",
    category_names=None,
    near_tie=0.01,
):
    """One row per feature: its best split, its score, and what the two sides predict.

    Parameters
    ----------
    candidates : list of trees.Candidate
        Ranked, best first (``TreeGrower.candidates``).
    category_names : dict {feature: list of str}, optional
        Names of category codes, for categorical features' splits.
    near_tie : float
        A feature whose score is within this share of the best is marked as a near-tie.

    Returns
    -------
    pandas.DataFrame
        In rank order: ``feature`` (marked "(near-tie)" within ``near_tie`` of
        the best), ``best split``, the score, ``of best`` (the score as a share
        of the best one), and what each side gets: ``left`` and ``right``
        (rows, then the prediction: ``"52: setosa (97%)"``). Features with no
        possible split say so in ``best split``.
    """
    scores = [c.score for c in candidates if c.score is not None]
    best = max(scores) if scores else None
    rows = []
    for rank, c in enumerate(candidates, start=1):
        usable = c.threshold is not None or c.categories is not None
        if c.categories is not None:
            names = (category_names or {}).get(c.feature)
            labels = [names[k] if names and k < len(names) else str(k) for k in c.categories]
            split = "∈ {" + ", ".join(labels) + "}"
        else:
            split = f"≤ {c.threshold:.6g}" if usable else "no split possible"
        share = c.score / best if usable and best not in (None, 0) else None
        near = usable and best is not None and c.score >= best - near_tie * abs(best)
        rows.append(
            {
                "feature": c.feature_name + (" (near-tie)" if near and rank > 1 else ""),
                "best split": split,
                score_name: c.score,
                "of best": share,
                "left": _side(c.n_left, c.left_value, is_classifier, class_names) if usable else "",
                "right": _side(c.n_right, c.right_value, is_classifier, class_names)
                if usable
                else "",
            }
        )
    return pd.DataFrame(rows)


def _side(n_rows, value, is_classifier, class_names):
    return f"{n_rows:,}: {_predicts(value, is_classifier, class_names)}"


def _goes(tree, node, path):
    """Where a path goes from ``node``: ``"left → #3"``, or the leaf's prediction."""
    if node not in path:
        return "—"
    position = path.index(node)
    if position == len(path) - 1:
        return "reaches this leaf"
    child = path[position + 1]
    return f"{'left' if child == tree.left[node] else 'right'} → #{child}"


def path_table(tree, row, paths, feature_names, class_names=None, op_labels=("≤", "<")):
    """One row's way down the tree under ``x <= t`` and ``x < t`` (``trees.row_paths``).

    Returns
    -------
    pandas.DataFrame
        One line per node either path visits: ``node``, ``test``, the row's
        ``value`` of the tested feature, and where it goes under each test.
    """
    order = list(dict.fromkeys(paths["<="] + paths["<"]))
    order.sort(key=lambda n: (tree.depth[n], n))
    lines = []
    for node in order:
        feature = int(tree.feature[node])
        if feature < 0:
            value = tree.value[node]
            if tree.is_classifier:
                top = int(np.argmax(value))
                name = class_names[top] if class_names else str(top)
                test = f"leaf: predicts {name} ({value[top]:.0%})"
            else:
                test = f"leaf: predicts {value[0]:.4g}"
            shown = ""
        else:
            if tree.categories[node] is not None:
                test = f"{feature_names[feature]} in a set of categories"
            else:
                test = f"{feature_names[feature]} ≤ {tree.threshold[node]:.6g}"
            shown = f"{row[feature]:.6g}"
        lines.append(
            {
                "node": f"#{node}",
                "test": test,
                "row's value": shown,
                f"under x {op_labels[0]} t": _goes(tree, node, paths["<="]),
                f"under x {op_labels[1]} t": _goes(tree, node, paths["<"]),
            }
        )
    return pd.DataFrame(lines)


def summary_table(summary):
    """A dict of statistics as a two-column table of text (numbers formatted)."""

    def fmt(value):
        if isinstance(value, bool):
            return "yes" if value else "no"
        if isinstance(value, float):
            return f"{value:.4g}"
        return str(value) if value != "" else "–"

    return pd.DataFrame({"statistic": list(summary), "value": [fmt(v) for v in summary.values()]})
